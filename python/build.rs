//! Embeds `playground-examples/*.json` (the repository's examples, beside this package) so that
//! `placelab.examples()` lists them and a study's `"example": "ID"` finds its base, as the CLI
//! does.

use std::{env, fs, path::Path};

fn main() {
    let root = Path::new(&env::var("CARGO_MANIFEST_DIR").unwrap()).join("..");
    let dir = root.join("playground-examples");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<String> = fs::read_dir(&dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(".json"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    let mut out = String::from(
        "/// `(id, scenario text)` of every example: the file name without `.json`, its text.\n\
         pub const EXAMPLES: &[(&str, &str)] = &[\n",
    );
    for f in &files {
        let id = f.trim_end_matches(".json");
        let path = dir.join(f).canonicalize().unwrap();
        out.push_str(&format!("    ({id:?}, include_str!({path:?})),\n"));
    }
    out.push_str("];\n");
    fs::write(
        Path::new(&env::var("OUT_DIR").unwrap()).join("examples.rs"),
        out,
    )
    .unwrap();
}
