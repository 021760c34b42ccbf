//! Browser tests, run in headless Chromium by `wasm-bindgen-test-runner`
//! (`cargo test --target wasm32-unknown-unknown --test wasm`, see scripts/test.sh):
//! every example gives, in wasm, the report whose fingerprint the native tests pinned in
//! `tests/golden/`, so native and browser reports are byte-identical; garbage input gives an
//! error, not a panic.
#![cfg(target_arch = "wasm32")]

use placelab::api;
use placelab::progress::NoProgress;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

macro_rules! example {
    ($test:ident, $file:literal) => {
        #[wasm_bindgen_test]
        fn $test() {
            let text = include_str!(concat!("../playground-examples/", $file));
            let golden = include_str!(concat!("../tests/golden/", $file, ".fingerprint"));
            let report = api::run(text, &mut NoProgress).expect($file);
            assert_eq!(
                api::fingerprint(&report),
                golden.trim(),
                "{} differs from the native report",
                $file
            );
        }
    };
}

example!(fallbacks_8x8, "fallbacks-8x8.json");
example!(fig1_4x4, "fig1-4x4.json");
example!(swf_log_16x16, "swf-log-16x16.json");
example!(mesh64_random_stream, "mesh64-random-stream.json");
example!(tianhe_npb_stream, "tianhe-npb-stream.json");
example!(tree_4ary, "tree-4ary.json");

#[wasm_bindgen_test]
fn garbage_is_an_error_not_a_panic() {
    for text in [
        "",
        "{",
        "[]",
        "null",
        "{\"version\":1}",
        "{\"version\":1,\"engine\":\"allocation\",\"system\":7}",
        "\u{0}\u{ffff}",
    ] {
        let e = api::run(text, &mut NoProgress).unwrap_err();
        assert!(e.path.starts_with('$'));
    }
    let e = api::run(
        r#"{"version":1,"engine":"allocation","system":{"kind":"mesh","width":0,"height":3},"workload":{"kind":"set","jobs":[{"tasks":1}]}}"#,
        &mut NoProgress,
    )
    .unwrap_err();
    assert_eq!(e.path, "$.system.width");
}

#[wasm_bindgen_test]
fn engines_table_is_json() {
    let v: serde_json::Value = serde_json::from_str(&api::engines_json()).unwrap();
    assert_eq!(v[0]["id"], "allocation");
}
