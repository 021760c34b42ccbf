//! Studies on one machine: the files a run writes are the same whatever the thread count, the
//! resumption or the sharding; bad axes are refused at their path; a point is a plain scenario.
#![cfg(not(target_arch = "wasm32"))] // the runner uses threads: native only

use placelab::study::{self, runner, stats, Outcome};
use proptest::prelude::*;
use std::fs;
use std::path::{Path, PathBuf};

const BASE: &str = r#"{"version":1,"engine":"allocation","name":"small stream","seed":3,
  "system":{"kind":"mesh","width":6,"height":6},
  "policies":["sequential","hilbert","closed-min-best"],
  "workload":{"kind":"generated","count":12,"minTasks":1,"maxTasks":9,"meanInterarrival":2,"meanDuration":20}}"#;

/// A study of 3 widths x 4 replicates (12 points) over [`BASE`].
fn study_text(extra: &str) -> String {
    format!(
        r#"{{"version":1,"base":{BASE},
            "axes":[{{"path":"system.width","values":[4,6,8]}}],
            "replicates":{{"count":4,"baseSeed":11}},
            "metrics":["report.runs[*].summary.meanWait","report.runs[*].summary.utilization","report.topology.nodes"]{extra}}}"#
    )
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("placelab-study-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&d);
    d
}

fn opts(dir: &Path, threads: usize) -> runner::Options {
    runner::Options {
        dir: dir.to_path_buf(),
        threads,
        shard: (0, 1),
        max_points: study::DEFAULT_MAX_POINTS,
        max_seconds: study::DEFAULT_MAX_SECONDS,
    }
}

const FILES: [&str; 6] = [
    "study.json",
    "points.jsonl",
    "tidy.csv",
    "tidy.jsonl",
    "aggregate.csv",
    "aggregate.jsonl",
];

fn files(dir: &Path) -> Vec<(String, String)> {
    FILES
        .iter()
        .map(|f| (f.to_string(), fs::read_to_string(dir.join(f)).unwrap()))
        .collect()
}

fn run(text: &str, dir: &Path, threads: usize) -> runner::Summary {
    let s = study::parse_inline(text).unwrap();
    runner::run(&s, &opts(dir, threads), &|_, _| {}).unwrap()
}

#[test]
fn files_are_identical_on_one_and_two_threads() {
    let (a, b) = (temp_dir("t1"), temp_dir("t2"));
    let text = study_text("");
    run(&text, &a, 1);
    run(&text, &b, 2);
    assert_eq!(files(&a), files(&b));
    let tidy = fs::read_to_string(a.join("tidy.csv")).unwrap();
    // header + 12 points x 3 policies
    assert_eq!(tidy.lines().count(), 1 + 12 * 3);
    let agg = fs::read_to_string(a.join("aggregate.csv")).unwrap();
    // header + 3 widths x 3 policies x 3 metrics, each over the 4 replicates
    assert_eq!(agg.lines().count(), 1 + 3 * 3 * 3);
    assert!(agg.lines().nth(1).unwrap().contains(",4,0,"), "{agg}");
}

#[test]
fn resuming_after_losing_points_recomputes_only_them_and_gives_the_same_files() {
    let (full, cut) = (temp_dir("full"), temp_dir("cut"));
    let text = study_text("");
    run(&text, &full, 2);
    run(&text, &cut, 2);
    // Lose points 3, 4 and 9, and leave a half-written last line as an interrupted run does.
    let journal = fs::read_to_string(cut.join("points.jsonl")).unwrap();
    let mut lines: Vec<&str> = journal.lines().collect();
    let last = lines.pop().unwrap();
    let kept: Vec<&str> = lines
        .into_iter()
        .filter(|l| {
            !(l.contains("\"point\":3,")
                || l.contains("\"point\":4,")
                || l.contains("\"point\":9,"))
        })
        .collect();
    let mut damaged = kept.join("\n");
    damaged.push('\n');
    damaged.push_str(&last[..last.len() / 2]);
    fs::write(cut.join("points.jsonl"), damaged).unwrap();
    fs::remove_file(cut.join("aggregate.csv")).unwrap();
    let s = run(&text, &cut, 1);
    assert_eq!((s.kept, s.computed), (8, 4));
    assert_eq!(files(&full), files(&cut));
    // A finished directory reruns without computing anything.
    let again = run(&text, &cut, 2);
    assert_eq!(again.computed, 0);
    assert_eq!(files(&full), files(&cut));
}

#[test]
fn another_study_in_the_directory_is_refused_naming_the_file() {
    let dir = temp_dir("other");
    run(&study_text(""), &dir, 1);
    let other = study::parse_inline(&study_text(r#","zip":false,"name":"x""#)).unwrap();
    let e = runner::run(&other, &opts(&dir, 1), &|_, _| {}).unwrap_err();
    assert!(
        e.to_string()
            .contains("points.jsonl: belongs to another study"),
        "{e}"
    );
}

#[test]
fn a_refused_point_is_an_error_row_and_the_others_run() {
    let dir = temp_dir("err");
    let text = format!(
        r#"{{"version":1,"base":{BASE},"axes":[{{"path":"system.kind","values":["mesh","tree"]}}],
            "metrics":["report.runs[*].summary.meanWait"]}}"#
    );
    let s = run(&text, &dir, 2);
    assert_eq!((s.points, s.failed, s.invalid.len()), (2, 1, 1));
    let tidy = fs::read_to_string(dir.join("tidy.csv")).unwrap();
    let last = tidy.lines().last().unwrap();
    assert!(last.starts_with("1,0,3,tree,,error,,"), "{last}");
    assert!(last.contains("$.system.width"), "{last}");
    let agg = fs::read_to_string(dir.join("aggregate.csv")).unwrap();
    assert!(agg
        .lines()
        .last()
        .unwrap()
        .starts_with("tree,,report.runs[*].summary.meanWait,0,1,"));
}

#[test]
fn every_point_refused_refuses_the_study_before_running() {
    let text = format!(
        r#"{{"version":1,"base":{BASE},"axes":[{{"path":"system.kind","values":["tree"]}}]}}"#
    );
    let s = study::parse_inline(&text).unwrap();
    let e = runner::run(&s, &opts(&temp_dir("none"), 1), &|_, _| {}).unwrap_err();
    assert!(e.to_string().contains("every point is refused"), "{e}");
}

#[test]
fn axis_errors_name_the_path_and_the_value() {
    let bad = |axes: &str| {
        study::parse_inline(&format!(r#"{{"version":1,"base":{BASE},"axes":[{axes}]}}"#))
            .unwrap_err()
    };
    let e = bad(r#"{"path":"system.width","values":[4]},{"path":"system.sides","values":[1]}"#);
    assert_eq!(e.path, "$.axes[1].path");
    assert!(
        e.message.contains("no field \"system.sides\""),
        "{}",
        e.message
    );
    let e = bad(r#"{"path":"system.height","values":[2,0]}"#);
    assert_eq!(e.path, "$.axes[0].values[1]");
    assert_eq!(
        e.message,
        "axis system.height: 0 is outside the field's range 1 to 512"
    );
    let e = bad(r#"{"path":"fallback","values":["wait","hope"]}"#);
    assert_eq!(e.path, "$.axes[0].values[1]");
    assert!(
        e.message.contains("wait, relax-closed, relax-minimal"),
        "{}",
        e.message
    );
    let e = bad(r#"{"path":"system.width","from":100,"to":600,"step":100}"#);
    assert_eq!(e.path, "$.axes[0]");
    assert!(e.message.contains("600 is outside"), "{}", e.message);
    let e = bad(r#"{"path":"workload.meanDuration","from":0,"to":10,"count":3,"scale":"log"}"#);
    assert_eq!(e.path, "$.axes[0]");
}

#[test]
fn a_point_rerun_alone_as_a_plain_scenario_gives_its_row() {
    let dir = temp_dir("alone");
    let text = study_text("");
    run(&text, &dir, 2);
    let s = study::parse_inline(&text).unwrap();
    let i = 7;
    // The seed is the documented formula: SplitMix64 output i of the base seed.
    assert_eq!(s.seed_of(i), study::seed::splitmix64(11, i));
    let scenario = study::point_scenario(&s, i);
    let report = placelab::api::run(&scenario, &mut placelab::progress::NoProgress).unwrap();
    let doc: serde_json::Value = serde_json::from_str(&report).unwrap();
    assert_eq!(doc["seed"], s.seed_of(i));
    let Outcome::Ok(rows) = study::run_point(&s, i) else {
        panic!("point {i} failed")
    };
    let journal = fs::read_to_string(dir.join("points.jsonl")).unwrap();
    let line = journal.lines().nth(1 + i as usize).unwrap();
    let recorded: serde_json::Value = serde_json::from_str(line).unwrap();
    for (k, row) in rows.iter().enumerate() {
        assert_eq!(
            recorded["rows"][k]["v"],
            serde_json::Value::from(row.values.clone())
        );
        let wait = &doc["report"]["runs"][k]["summary"]["meanWait"];
        assert_eq!(&row.values[0], wait);
    }
}

#[test]
fn shards_merge_into_the_files_of_a_whole_run() {
    let whole = temp_dir("whole");
    let text = study_text("");
    run(&text, &whole, 2);
    let s = study::parse_inline(&text).unwrap();
    let shards: Vec<PathBuf> = (0..3)
        .map(|k| {
            let d = temp_dir(&format!("shard{k}"));
            let o = runner::Options {
                shard: (k, 3),
                ..opts(&d, 1)
            };
            runner::run(&s, &o, &|_, _| {}).unwrap();
            d
        })
        .collect();
    let merged = temp_dir("merged");
    runner::merge(&shards, &merged).unwrap();
    assert_eq!(files(&whole), files(&merged));

    // A missing shard, a repeated one, a truncated one and another study's are refused by name.
    let e = runner::merge(&shards[..2], &temp_dir("m1")).unwrap_err();
    assert!(
        e.to_string()
            .contains("shard 2/3 (points 8..12) is missing"),
        "{e}"
    );
    let twice = vec![shards[0].clone(), shards[0].clone(), shards[2].clone()];
    assert!(runner::merge(&twice, &temp_dir("m2"))
        .unwrap_err()
        .to_string()
        .contains("also in"));
    let j = shards[1].join("points.jsonl");
    let text1 = fs::read_to_string(&j).unwrap();
    let cut: Vec<&str> = text1.lines().take(2).collect();
    fs::write(&j, cut.join("\n") + "\n").unwrap();
    let e = runner::merge(&shards, &temp_dir("m3"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("shard1") && e.contains("truncated"), "{e}");
    fs::write(&j, text1).unwrap();
    let foreign = temp_dir("foreign");
    run(&study_text(r#","name":"another""#), &foreign, 1);
    let mixed = vec![shards[0].clone(), foreign, shards[2].clone()];
    let e = runner::merge(&mixed, &temp_dir("m4"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("foreign") && e.contains("another study"), "{e}");
}

#[test]
fn a_merge_refuses_broken_shards_naming_the_file() {
    let text = study_text("");
    let s = study::parse_inline(&text).unwrap();
    let shards: Vec<PathBuf> = (0..4)
        .map(|k| {
            let d = temp_dir(&format!("broken{k}"));
            let o = runner::Options {
                shard: (k, 4),
                ..opts(&d, 1)
            };
            runner::run(&s, &o, &|_, _| {}).unwrap();
            d
        })
        .collect();
    let merge = |dirs: &[PathBuf]| {
        runner::merge(dirs, &temp_dir("broken-out"))
            .unwrap_err()
            .to_string()
    };
    // A directory that is not there: its journal is named.
    let mut gone = shards.clone();
    gone[2] = temp_dir("never-written");
    let e = merge(&gone);
    assert!(e.contains("never-written/points.jsonl"), "{e}");
    // Another study's directory given first: the others are refused against its study file.
    let foreign = temp_dir("broken-foreign");
    run(&study_text(r#","name":"another""#), &foreign, 1);
    let mut mixed = vec![foreign.clone()];
    mixed.extend(shards[1..].iter().cloned());
    let e = merge(&mixed);
    assert!(
        e.contains("broken1/points.jsonl: belongs to another study")
            && e.contains("broken-foreign/study.json"),
        "{e}"
    );
    // A journal cut in the middle of a line (a killed task), and one cut to its header.
    let j = shards[3].join("points.jsonl");
    let whole = fs::read_to_string(&j).unwrap();
    fs::write(&j, &whole[..whole.len() - 10]).unwrap();
    let e = merge(&shards);
    assert!(
        e.contains("broken3/points.jsonl: truncated: holds 2 of the shard's 3 points"),
        "{e}"
    );
    fs::write(&j, whole.lines().next().unwrap().to_string() + "\n").unwrap();
    let e = merge(&shards);
    assert!(
        e.contains("broken3/points.jsonl: truncated: holds 0 of"),
        "{e}"
    );
    fs::write(&j, "").unwrap();
    let e = merge(&shards);
    assert!(e.contains("broken3/points.jsonl: empty"), "{e}");
    // Shards of a split into another count.
    let other = temp_dir("broken-of-3");
    let o = runner::Options {
        shard: (1, 3),
        ..opts(&other, 1)
    };
    runner::run(&s, &o, &|_, _| {}).unwrap();
    let e = merge(&[shards[0].clone(), other]);
    assert!(
        e.contains("broken-of-3/points.jsonl: holds shard 1/3, but") && e.contains("one of 4"),
        "{e}"
    );
    // Every shard there but one: the missing one is named with its points.
    fs::write(&j, whole).unwrap();
    let e = merge(&[shards[0].clone(), shards[1].clone(), shards[3].clone()]);
    assert!(
        e.contains("shard 2/4 (points 6..9) is missing: none of the 3 directories given holds it"),
        "{e}"
    );
    runner::merge(&shards, &temp_dir("broken-out")).unwrap();
}

#[test]
fn admission_refuses_a_study_over_the_limit_with_its_total() {
    let s = study::parse_inline(&study_text("")).unwrap();
    let o = runner::Options {
        max_points: 10,
        ..opts(&temp_dir("limit"), 1)
    };
    let e = runner::run(&s, &o, &|_, _| {}).unwrap_err().to_string();
    assert!(
        e.contains("12 points (3 combinations x 4 replicates); the limit is 10"),
        "{e}"
    );
}

#[test]
fn every_engines_headline_metrics_exist_in_one_of_its_sample_reports() {
    for entry in placelab::engines::ENGINES {
        let metrics: Vec<_> = study::metrics::headline_metrics(entry.id)
            .iter()
            .map(|t| study::metrics::parse_metric(t, "metrics").unwrap())
            .collect();
        assert!(!metrics.is_empty(), "{} has no headline metrics", entry.id);
        let mut found = vec![false; metrics.len()];
        for sample in (entry.samples)() {
            if found.iter().all(|f| *f) {
                break;
            }
            let Ok(report) = placelab::api::run(&sample, &mut placelab::progress::NoProgress)
            else {
                continue;
            };
            let doc: serde_json::Value = serde_json::from_str(&report).unwrap();
            for row in study::metrics::extract(&doc, &metrics) {
                for (m, v) in row.values.iter().enumerate() {
                    found[m] |= !v.is_null();
                }
            }
        }
        for (m, f) in found.iter().enumerate() {
            assert!(
                f,
                "{}: {} is in no sample report",
                entry.id, metrics[m].text
            );
        }
    }
}

#[test]
fn student_t_quantiles_are_the_tables_values() {
    for (df, t) in [(1.0, 12.706), (10.0, 2.228), (30.0, 2.042)] {
        assert!((stats::student_t_quantile(0.975, df) - t).abs() < 5e-4);
    }
}

proptest! {
    #[test]
    fn the_aggregate_mean_lies_between_min_and_max_and_inside_its_interval(
        xs in proptest::collection::vec(-1e6f64..1e6, 1..40)
    ) {
        let s = stats::summarize(&xs);
        let (mean, min, max) = (s.mean.unwrap(), s.min.unwrap(), s.max.unwrap());
        prop_assert!(min <= mean && mean <= max);
        prop_assert!(min <= s.median.unwrap() && s.median.unwrap() <= max);
        if xs.len() >= 2 {
            prop_assert!(s.ci_low.unwrap() <= mean && mean <= s.ci_high.unwrap());
            prop_assert!(s.sd.unwrap() >= 0.0);
        }
    }
}

#[test]
fn the_command_line_runs_a_study_of_an_example_or_a_file_and_resumes() {
    let dir = temp_dir("cli");
    fs::create_dir_all(&dir).unwrap();
    fs::write(dir.join("base.json"), BASE).unwrap();
    let study_file = dir.join("s.json");
    let write_study = |base: &str| {
        fs::write(
            &study_file,
            format!(
                r#"{{"version":1,{base},"axes":[{{"path":"system.width","values":[4,8]}}],"replicates":{{"count":2}}}}"#
            ),
        )
        .unwrap();
    };
    let cli = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_placelab"))
            .arg("study")
            .args(args)
            .output()
            .unwrap()
    };
    write_study(r#""example":"fig1-4x4""#);
    let s = study_file.to_str().unwrap();
    let out = cli(&[s, "--threads", "2"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let printed = String::from_utf8(out.stdout).unwrap();
    assert!(
        printed.lines().any(|l| l.ends_with("s.results/tidy.csv")),
        "{printed}"
    );
    let tidy = fs::read_to_string(dir.join("s.results/tidy.csv")).unwrap();
    assert!(tidy.starts_with(
        "point,replicate,seed,system.width,runs,status,report.runs[*].summary.utilization,"
    ));
    let again = cli(&[s, "--threads", "1"]);
    assert!(String::from_utf8_lossy(&again.stderr).contains("(4 kept, 0 computed, 0 failed)"));
    assert_eq!(
        tidy,
        fs::read_to_string(dir.join("s.results/tidy.csv")).unwrap()
    );

    write_study(r#""baseFile":"base.json""#);
    let other = dir.join("other");
    let out = cli(&[s, "-o", other.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The same directory for another study is refused, naming the journal.
    let out = cli(&[s, "-o", dir.join("s.results").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("points.jsonl: belongs to another study"));

    write_study(r#""example":"no-such-example""#);
    let out = cli(&[s]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(
        err.contains("$.example: no example \"no-such-example\""),
        "{err}"
    );
}

#[test]
fn progress_counts_kept_points_and_ends_at_the_total() {
    let dir = temp_dir("progress");
    let text = study_text("");
    run(&text, &dir, 2);
    // Lose two points: the rerun starts at 10 of 12 and ends at 12.
    let journal = fs::read_to_string(dir.join("points.jsonl")).unwrap();
    let lines: Vec<&str> = journal.lines().collect();
    fs::write(
        dir.join("points.jsonl"),
        lines[..lines.len() - 2].join("\n") + "\n",
    )
    .unwrap();
    let seen = std::sync::Mutex::new(Vec::new());
    let s = study::parse_inline(&text).unwrap();
    runner::run(&s, &opts(&dir, 2), &|done, total| {
        seen.lock().unwrap().push((done, total))
    })
    .unwrap();
    let seen = seen.into_inner().unwrap();
    assert_eq!(seen, [(10, 12), (11, 12), (12, 12)]);
}

/// A study is admitted by its estimated work as well as its point count: the sum of the points'
/// estimates ([`study::judge_point`]) against `max_seconds`, refused before anything runs with
/// the total and the costliest point.
#[test]
fn admission_refuses_a_study_over_its_work_limit_with_the_estimate() {
    let s = study::parse_inline(&study_text("")).unwrap();
    let a = study::admit(&s, study::DEFAULT_MAX_POINTS, 0..s.points).unwrap();
    let sum: f64 = (0..s.points)
        .map(|i| study::judge_point(&s, i).unwrap())
        .sum();
    assert!(a.seconds > 0.0);
    assert!(
        (a.seconds - sum).abs() <= 1e-9 * sum,
        "{} vs {sum}",
        a.seconds
    );
    assert!(study::check_work_limit(&s, &a, a.seconds).is_ok());
    let dir = temp_dir("work-limit");
    let o = runner::Options {
        max_seconds: a.seconds / 2.0,
        ..opts(&dir, 1)
    };
    let e = runner::run(&s, &o, &|_, _| {}).unwrap_err().to_string();
    assert!(e.contains("the study's points are estimated at"), "{e}");
    assert!(e.contains("the costliest, point"), "{e}");
    assert!(e.contains("raise it with --max-seconds"), "{e}");
    assert!(
        !dir.join("points.jsonl").exists(),
        "nothing may run before admission"
    );
}

/// Every leaf path of a report document, lists as `[*]` (and as `[0]`, `[1]`).
fn leaf_paths(v: &serde_json::Value, at: &str, out: &mut Vec<String>) {
    match v {
        serde_json::Value::Object(m) => {
            for (k, x) in m {
                let p = if at.is_empty() {
                    k.clone()
                } else {
                    format!("{at}.{k}")
                };
                leaf_paths(x, &p, out);
            }
        }
        serde_json::Value::Array(items) => {
            for (tag, item) in [
                ("*", items.first()),
                ("0", items.first()),
                ("1", items.get(1)),
            ] {
                if let Some(item) = item {
                    leaf_paths(item, &format!("{at}[{tag}]"), out);
                }
            }
        }
        _ => out.push(at.to_string()),
    }
}

/// Equal, numbers to within one unit in the last place (the text read back with
/// `serde_json`'s default reader may be one off; the captured number is the report's own).
fn same(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value::*;
    match (a, b) {
        (Number(x), Number(y)) => match (x.as_f64(), y.as_f64()) {
            (Some(x), Some(y)) if x.is_finite() => {
                x == y || (x - y).abs() <= 2.0 * f64::EPSILON * x.abs().max(y.abs())
            }
            _ => x == y,
        },
        (Array(x), Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b)),
        (Object(x), Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, a)| y.get(k).is_some_and(|b| same(a, b)))
        }
        _ => a == b,
    }
}

#[test]
fn a_captured_report_equals_the_projection_of_its_text_on_every_sample() {
    use study::metrics::{headline_metrics, parse_metric, project, Want};
    for text in placelab::api::sample_scenarios() {
        let report = placelab::api::run(&text, &mut placelab::progress::NoProgress).unwrap();
        let doc: serde_json::Value = serde_json::from_str(&report).unwrap();
        let engine = doc["engine"].as_str().unwrap().to_string();
        let mut leaves = Vec::new();
        leaf_paths(&doc, "", &mut leaves);
        leaves.truncate(400);
        let sets: Vec<Vec<String>> = vec![
            headline_metrics(&engine)
                .iter()
                .map(|s| s.to_string())
                .collect(),
            vec!["report".into()],
            vec![
                "name".into(),
                "seed".into(),
                "report.nothing[*].here".into(),
            ],
            leaves,
        ];
        for set in sets {
            let metrics: Vec<_> = set.iter().map(|m| parse_metric(m, "m").unwrap()).collect();
            let want = Want::of(&metrics);
            let captured =
                placelab::api::run_captured(&text, &mut placelab::progress::NoProgress, &want)
                    .unwrap();
            let projected = project(&report, &metrics).unwrap();
            assert!(
                same(&captured, &projected),
                "{engine} {:?}: captured {captured} projected {projected}",
                &set[..set.len().min(3)]
            );
            assert_eq!(
                study::metrics::extract(&captured, &metrics).len(),
                study::metrics::extract(&projected, &metrics).len()
            );
        }
    }
}

/// A study parses and validates a combination once and runs each replicate under its own seed
/// (`api::prepare`): on every sample scenario and a few seeds (the largest included), the run of
/// the prepared scenario is the projection of the report of the text with that seed, and one
/// prepared scenario gives the same figures however many runs came before it.
#[test]
fn a_prepared_scenario_under_a_seed_is_its_text_with_that_seed_on_every_sample() {
    use study::metrics::{headline_metrics, parse_metric, project, Want};
    for text in placelab::api::sample_scenarios() {
        let mut doc: serde_json::Value = serde_json::from_str(&text).unwrap();
        let engine = doc["engine"].as_str().unwrap().to_string();
        let mut set: Vec<String> = headline_metrics(&engine)
            .iter()
            .map(|s| s.to_string())
            .collect();
        set.push("seed".into());
        let metrics: Vec<_> = set.iter().map(|m| parse_metric(m, "m").unwrap()).collect();
        let want = Want::of(&metrics);
        let prepared = placelab::api::prepare(&text).unwrap();
        for seed in [3u64, u64::MAX, 3] {
            doc["seed"] = serde_json::Value::from(seed);
            let report =
                placelab::api::run(&doc.to_string(), &mut placelab::progress::NoProgress).unwrap();
            let projected = project(&report, &metrics).unwrap();
            let captured = prepared.run_captured(seed, &mut placelab::progress::NoProgress, &want);
            assert!(
                same(&captured, &projected),
                "{engine} seed {seed}: prepared {captured} text {projected}"
            );
        }
    }
}
