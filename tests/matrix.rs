//! The cross-target matrix: every engine's sample scenarios ([`api::sample_scenarios`]) run
//! natively, and their reports' fingerprints are pinned with the scenario texts in
//! `tests/fixtures/matrix.json`. The browser tests (`wasm-tests/examples.rs`) run every scenario
//! of that file in wasm and compare, so native and browser reports agree for every policy,
//! fallback, workload kind, system kind and seed of the matrix.
//! After an intended change of results: `UPDATE_GOLDEN=1 cargo test --test matrix`.

use placelab::api;
use placelab::progress::NoProgress;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::Path;

fn fixture_path() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/matrix.json")
}

/// One line per scenario, so a change shows as a readable diff.
fn render(rows: &[(String, String)]) -> String {
    let mut out = String::from("[\n");
    for (i, (scenario, fp)) in rows.iter().enumerate() {
        let row = serde_json::json!({"scenario": scenario, "fingerprint": fp});
        out.push_str(&row.to_string());
        out.push_str(if i + 1 < rows.len() { ",\n" } else { "\n" });
    }
    out.push_str("]\n");
    out
}

#[test]
fn sample_matrix_matches_its_pinned_fingerprints() {
    let rows: Vec<(String, String)> = api::sample_scenarios()
        .into_iter()
        .map(|text| {
            let report = api::run(&text, &mut NoProgress).unwrap_or_else(|e| panic!("{text}: {e}"));
            let fp = api::fingerprint(&report);
            (text, fp)
        })
        .collect();
    let want = render(&rows);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::create_dir_all(fixture_path().parent().unwrap()).unwrap();
        std::fs::write(fixture_path(), &want).unwrap();
        return;
    }
    let have = std::fs::read_to_string(fixture_path())
        .expect("no tests/fixtures/matrix.json; run UPDATE_GOLDEN=1 cargo test --test matrix");
    let pinned: Vec<Value> = serde_json::from_str(&have).unwrap();
    assert_eq!(
        pinned.len(),
        rows.len(),
        "the matrix changed size (UPDATE_GOLDEN=1 if intended)"
    );
    for (p, (text, fp)) in pinned.iter().zip(&rows) {
        assert_eq!(
            p["scenario"],
            text.as_str(),
            "sample text changed (UPDATE_GOLDEN=1 if intended)"
        );
        assert_eq!(
            p["fingerprint"],
            fp.as_str(),
            "report changed for {text} (UPDATE_GOLDEN=1 if intended)"
        );
    }
}

/// Every option of every `enum` and `multi` parameter of every engine appears in its samples,
/// so the matrix covers every policy, fallback, workload kind and system kind.
#[test]
fn samples_use_every_option_of_every_choice() {
    let engines: Value = serde_json::from_str(&api::engines_json()).unwrap();
    let samples: Vec<Value> = api::sample_scenarios()
        .iter()
        .map(|t| serde_json::from_str(t).unwrap())
        .collect();
    for engine in engines.as_array().unwrap() {
        let id = engine["id"].as_str().unwrap();
        let mine: Vec<&Value> = samples.iter().filter(|s| s["engine"] == id).collect();
        assert!(mine.len() >= 2, "{id}: too few samples");
        for p in engine["params"].as_array().unwrap() {
            let kind = p["kind"].as_str().unwrap();
            if kind != "enum" && kind != "multi" {
                continue;
            }
            let path = p["path"].as_str().unwrap();
            let mut used = BTreeSet::new();
            for s in &mine {
                let v = path.split('.').fold(*s, |v, k| &v[k]);
                let default = &p["default"];
                let v = if v.is_null() { default } else { v };
                match v {
                    Value::Array(a) => used.extend(a.iter().filter_map(|x| x.as_str())),
                    Value::String(x) => {
                        used.insert(x.as_str());
                    }
                    _ => {}
                }
            }
            for o in p["options"].as_array().unwrap() {
                let o = o["value"].as_str().unwrap();
                assert!(used.contains(o), "{id}: no sample uses {path} = {o:?}");
            }
        }
        let seeds: BTreeSet<u64> = mine.iter().filter_map(|s| s["seed"].as_u64()).collect();
        assert!(seeds.len() >= 3, "{id}: samples need several seeds");
        assert!(
            seeds.iter().any(|&s| s > 1 << 53),
            "{id}: a seed above 2^53"
        );
    }
}

/// The allocation samples form the full product policy x fallback x workload kind x system.
#[test]
fn allocation_samples_cross_every_policy_fallback_workload_and_system() {
    let mut seen = BTreeSet::new();
    for text in api::sample_scenarios() {
        let s: Value = serde_json::from_str(&text).unwrap();
        if s["engine"] != "allocation" {
            continue;
        }
        for p in s["policies"].as_array().unwrap() {
            seen.insert((
                p.as_str().unwrap().to_string(),
                // "wait" is the default fallback
                s["fallback"].as_str().unwrap_or("wait").to_string(),
                s["workload"]["kind"].as_str().unwrap().to_string(),
                s["system"]["kind"].as_str().unwrap().to_string(),
            ));
        }
    }
    // the mesh-and-tree policies on meshes and regular trees: the full product
    let product = seen
        .iter()
        .filter(|(p, _, _, sys)| p != "slurmTree" && (sys == "mesh" || sys == "tree"))
        .count();
    assert_eq!(product, 6 * 3 * 4 * 2, "{seen:?}");
    // Slurm topology.conf machines: slurmTree and closed-min, sets and streams
    for (p, w) in [
        ("slurmTree", "set"),
        ("slurmTree", "stream"),
        ("closed-min-best", "stream"),
    ] {
        assert!(
            seen.iter()
                .any(|(q, _, wk, sys)| q == p && wk == w && sys == "slurmTopology"),
            "no {p} {w} sample on a slurmTopology machine"
        );
    }
}
