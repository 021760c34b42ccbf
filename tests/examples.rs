//! Every file in `playground-examples/` runs natively, and its report's fingerprint is pinned in
//! `tests/golden/`; the browser tests (`wasm-tests/examples.rs`) check the wasm build against the
//! same fingerprints, so native and browser reports are byte-identical.
//! After an intended change of results: `UPDATE_GOLDEN=1 cargo test --test examples`.

use placelab::api;
use placelab::progress::NoProgress;
use std::path::Path;

#[test]
fn every_example_runs_and_matches_its_golden_fingerprint() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<_> = std::fs::read_dir(root.join("playground-examples"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    assert!(files.len() >= 4, "the examples are missing");
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    for f in &files {
        let name = f.file_name().unwrap().to_str().unwrap();
        let text = std::fs::read_to_string(f).unwrap();
        let report = api::run(&text, &mut NoProgress).unwrap_or_else(|e| panic!("{name}: {e}"));
        let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert!(
            doc["name"].as_str().is_some_and(|n| !n.is_empty()),
            "{name}: examples need a name"
        );
        assert!(
            doc["description"].as_str().is_some_and(|n| !n.is_empty()),
            "{name}: examples need a description"
        );
        let golden = root
            .join("tests/golden")
            .join(format!("{name}.fingerprint"));
        let fp = api::fingerprint(&report);
        if update {
            std::fs::write(&golden, format!("{fp}\n")).unwrap();
        } else {
            let want = std::fs::read_to_string(&golden)
                .unwrap_or_else(|_| panic!("{name}: no golden; run with UPDATE_GOLDEN=1"));
            assert_eq!(
                fp,
                want.trim(),
                "{name}: report changed (UPDATE_GOLDEN=1 if intended)"
            );
        }
    }
}

#[test]
fn parameter_table_defaults_match_the_parser() {
    let engines: serde_json::Value = serde_json::from_str(&api::engines_json()).unwrap();
    let alloc = &engines[0];
    assert_eq!(alloc["id"], "allocation");
    // a minimal scenario: the parser fills in the defaults the form shows
    let minimal = r#"{"version":1,"engine":"allocation","system":{"kind":"mesh","width":4,"height":4},
        "workload":{"kind":"set","jobs":[{"tasks":1}]}}"#;
    let report: serde_json::Value =
        serde_json::from_str(&api::run(minimal, &mut NoProgress).unwrap()).unwrap();
    let policies: Vec<&str> = report["report"]["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["policy"].as_str().unwrap())
        .collect();
    let param = |path: &str| {
        alloc["params"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["path"] == path)
            .unwrap()
            .clone()
    };
    assert_eq!(param("policies")["default"], serde_json::json!(policies));
    assert_eq!(param("fallback")["default"], report["report"]["fallback"]);
    assert_eq!(
        param("system.coresPerNode")["default"],
        report["report"]["topology"]["coresPerNode"]
    );
    assert_eq!(report["seed"], param("seed")["default"]);
}
