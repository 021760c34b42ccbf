//! Lists `playground-examples/*.json` for the browser tests (`wasm-tests/examples.rs`), so a new
//! example is tested in wasm without touching the test harness.

use std::{env, fs, path::Path};

fn main() {
    let dir = Path::new("playground-examples");
    println!("cargo:rerun-if-changed=playground-examples");
    println!("cargo:rerun-if-changed=tests/golden");
    println!("cargo:rerun-if-changed=playground-examples/studies");
    let mut files: Vec<String> = fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(".json"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    let root = env::var("CARGO_MANIFEST_DIR").unwrap();
    let mut out = String::from("/// `(file name, scenario text, golden fingerprint)` of every example.\npub const EXAMPLES: &[(&str, &str, &str)] = &[\n");
    for f in &files {
        let golden = format!("{root}/tests/golden/{f}.fingerprint");
        let golden_expr = if Path::new(&golden).exists() {
            format!("include_str!({golden:?})")
        } else {
            "\"\"".to_string()
        };
        out.push_str(&format!(
            "    ({f:?}, include_str!({:?}), {golden_expr}),\n",
            format!("{root}/playground-examples/{f}")
        ));
    }
    out.push_str("];\n");
    fs::write(
        Path::new(&env::var("OUT_DIR").unwrap()).join("examples.rs"),
        out,
    )
    .unwrap();
    // The example studies (playground-examples/studies/), with the fingerprint of their point 0's
    // report pinned natively by tests/study_examples.rs, for the browser tests only.
    let mut studies: Vec<String> = fs::read_dir(dir.join("studies"))
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(".json"))
                .collect()
        })
        .unwrap_or_default();
    studies.sort();
    let mut out = String::from("/// `(file name, study text, golden fingerprint of point 0's report)` of every example study.\npub const STUDIES: &[(&str, &str, &str)] = &[\n");
    for f in &studies {
        let golden = format!("{root}/tests/golden/studies/{f}.point0.fingerprint");
        let golden_expr = if Path::new(&golden).exists() {
            format!("include_str!({golden:?})")
        } else {
            "\"\"".to_string()
        };
        out.push_str(&format!(
            "    ({f:?}, include_str!({:?}), {golden_expr}),\n",
            format!("{root}/playground-examples/studies/{f}")
        ));
    }
    out.push_str("];\n");
    fs::write(
        Path::new(&env::var("OUT_DIR").unwrap()).join("studies.rs"),
        out,
    )
    .unwrap();
}
