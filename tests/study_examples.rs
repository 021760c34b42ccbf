//! The example studies (`playground-examples/studies/`): each parses with its base resolved the
//! way the CLI resolves it, is admitted under the CLI's default limit with every point valid, and
//! its first point runs into rows in which every metric it asks for has a value somewhere (its
//! path exists in the engine's report).

use placelab::study::{self, BaseSource, Outcome};
use std::path::Path;

fn resolve(source: BaseSource<'_>) -> Result<String, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("playground-examples");
    let path = match source {
        BaseSource::Example(id) => root.join(format!("{id}.json")),
        BaseSource::File(f) => root.join("studies").join(f),
    };
    std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))
}

/// The studies in `playground-examples/SUB` (file name, study), each with a name and a
/// description, parsed and admitted with every point valid.
fn admitted_studies(sub: &str) -> Vec<(String, study::Study)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("playground-examples")
        .join(sub);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
        .iter()
        .map(|f| {
            let name = f.file_name().unwrap().to_string_lossy().to_string();
            let text = std::fs::read_to_string(f).unwrap();
            let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
            for key in ["name", "description"] {
                assert!(
                    doc[key].as_str().is_some_and(|s| !s.is_empty()),
                    "{name}: a study needs a {key}"
                );
            }
            let s = study::parse(&text, &mut resolve).unwrap_or_else(|e| panic!("{name}: {e}"));
            let admitted = study::admit(&s, study::DEFAULT_MAX_POINTS, 0..s.points)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(
                admitted.invalid.is_empty(),
                "{name}: refused points {:?}",
                admitted.invalid
            );
            (name, s)
        })
        .collect()
}

#[test]
fn every_example_study_is_admitted_and_its_first_point_gives_every_metric() {
    let studies = admitted_studies("studies");
    assert!(studies.len() >= 4, "the example studies are missing");
    for (name, s) in &studies {
        assert!(s.points > 1, "{name}: a study of one point");
        // point 0's report, pinned for the browser tests (wasm-tests/examples.rs)
        let report = placelab::api::run(
            &study::point_scenario(&s, 0),
            &mut placelab::progress::NoProgress,
        )
        .unwrap();
        let golden = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/golden/studies")
            .join(format!("{name}.point0.fingerprint"));
        let fp = placelab::api::fingerprint(&report);
        if std::env::var_os("UPDATE_GOLDEN").is_some() {
            std::fs::create_dir_all(golden.parent().unwrap()).unwrap();
            std::fs::write(&golden, format!("{fp}\n")).unwrap();
        } else {
            let want = std::fs::read_to_string(&golden)
                .unwrap_or_else(|_| panic!("{name}: no golden; run with UPDATE_GOLDEN=1"));
            assert_eq!(fp, want.trim(), "{name}: point 0's report changed");
        }
        match study::run_point(&s, 0) {
            Outcome::Error(e) => panic!("{name}: point 0 failed: {e}"),
            Outcome::Ok(rows) => {
                assert!(!rows.is_empty(), "{name}: point 0 gave no rows");
                // A strategy may have no figure for a case (a null cell), but every metric
                // must have one somewhere: its path exists in the report.
                for m in 0..rows[0].values.len() {
                    assert!(
                        rows.iter().any(|r| !r.values[m].is_null()),
                        "{name}: metric {m} is empty in every row of point 0"
                    );
                }
            }
        }
    }
}

/// The studies for the command line (`playground-examples/studies/native/`, not in the page's
/// menu: their points take minutes): each has a name and a description, is admitted with every
/// point valid under its own limit, and every point asks for more than the page's 10 s (else it
/// belongs beside the others).
#[test]
fn every_native_study_is_admitted_and_needs_more_than_the_page_limit() {
    let studies = admitted_studies("studies/native");
    assert!(!studies.is_empty(), "the native studies are missing");
    for (name, s) in &studies {
        let mut over = 0;
        for k in 0..s.points {
            let est = placelab::api::estimate(&study::point_scenario(&s, k)).unwrap();
            if est.seconds() > placelab::engine::MAX_SECONDS {
                over += 1;
            }
        }
        assert!(over > 0, "{name}: every point fits the page's limit");
    }
}

/// A placement scenario's `sweep` as a study: point `c` of the study is case `c` of the sweep,
/// strategy by strategy (time, ratio to Advanced, hop-bytes), with the scenario's own seed.
#[test]
fn a_placement_sweep_and_its_study_give_the_same_cases() {
    for example in ["place-fattree", "place-zk-exp1-torus2d-1mb"] {
        let text = resolve(BaseSource::Example(example)).unwrap();
        let scenario: serde_json::Value = serde_json::from_str(&text).unwrap();
        // The report as a value with its numbers exact (the text read back by serde_json's
        // default reader can be one unit in the last place off).
        let whole = study::metrics::Want {
            whole: true,
            ..Default::default()
        };
        let report =
            placelab::api::run_captured(&text, &mut placelab::progress::NoProgress, &whole)
                .unwrap();
        let cases = report["report"]["cases"].as_array().unwrap();
        let doc = study::sweep::study_of_sweep(&scenario).expect("a sweep");
        let s = study::parse_inline(&doc.to_string()).unwrap_or_else(|e| panic!("{example}: {e}"));
        assert_eq!(s.points as usize, cases.len(), "{example}");
        for (c, case) in cases.iter().enumerate() {
            let Outcome::Ok(rows) = study::run_point(&s, c as u64) else {
                panic!("{example}: point {c} failed")
            };
            let runs = case["runs"].as_array().unwrap();
            assert_eq!(rows.len(), runs.len(), "{example}: case {c}");
            for (row, run) in rows.iter().zip(runs) {
                let want: Vec<serde_json::Value> = ["time", "ratio", "hopBytes"]
                    .iter()
                    .map(|k| run[*k].clone())
                    .collect();
                assert_eq!(row.values, want, "{example}: case {c}, {}", run["strategy"]);
            }
        }
    }
}

/// `placelab study` (and every caller of `study::parse`) takes a placement scenario with a
/// sweep as it is; another scenario is told what a study needs.
#[test]
fn a_sweep_scenario_parses_as_its_study_and_other_scenarios_are_told_apart() {
    let text = resolve(BaseSource::Example("place-fattree")).unwrap();
    let s = study::parse(&text, &mut resolve).unwrap();
    let scenario: serde_json::Value = serde_json::from_str(&text).unwrap();
    let direct =
        study::parse_inline(&study::sweep::study_of_sweep(&scenario).unwrap().to_string()).unwrap();
    assert_eq!(s.canonical(), direct.canonical());
    let fig1 = resolve(BaseSource::Example("fig1-4x4")).unwrap();
    let e = study::parse(&fig1, &mut resolve).unwrap_err();
    assert_eq!(e.path, "$.engine");
    assert!(
        e.message.contains("this is a scenario, not a study"),
        "{}",
        e.message
    );
}
