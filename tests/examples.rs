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
    // The examples run on every core (a few of them take most of the time): each worker takes
    // the next file; the failures are reported together, in file order.
    let next = std::sync::atomic::AtomicUsize::new(0);
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut failures: Vec<(usize, String)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                scope.spawn(|| {
                    let mut failed = Vec::new();
                    loop {
                        let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(f) = files.get(k) else { break };
                        if let Err(e) = check_example(root, f, update) {
                            failed.push((k, e));
                        }
                    }
                    failed
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a worker panicked"))
            .collect()
    });
    failures.sort();
    let messages: Vec<String> = failures.into_iter().map(|(_, e)| e).collect();
    assert!(messages.is_empty(), "{}", messages.join("\n"));
}

/// Runs one example and compares (or, with `update`, writes) its golden fingerprint.
fn check_example(root: &Path, f: &Path, update: bool) -> Result<(), String> {
    let name = f.file_name().unwrap().to_str().unwrap();
    let text = std::fs::read_to_string(f).unwrap();
    let report = api::run(&text, &mut NoProgress).map_err(|e| format!("{name}: {e}"))?;
    let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    for key in ["name", "description"] {
        if !doc[key].as_str().is_some_and(|n| !n.is_empty()) {
            return Err(format!("{name}: examples need a {key}"));
        }
    }
    let golden = root
        .join("tests/golden")
        .join(format!("{name}.fingerprint"));
    let fp = api::fingerprint(&report);
    if update {
        std::fs::write(&golden, format!("{fp}\n")).unwrap();
        return Ok(());
    }
    let want = std::fs::read_to_string(&golden)
        .map_err(|_| format!("{name}: no golden; run with UPDATE_GOLDEN=1"))?;
    if fp != want.trim() {
        return Err(format!(
            "{name}: report changed (UPDATE_GOLDEN=1 if intended): fingerprint {fp}, golden {}",
            want.trim()
        ));
    }
    Ok(())
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
