//! Bad input gets a clear error naming the JSON path, and nothing panics on any input.

use placelab::api;
use placelab::progress::NoProgress;
use proptest::prelude::*;

fn err(text: &str) -> placelab::ScenarioError {
    match api::run(text, &mut NoProgress) {
        Ok(_) => panic!("accepted: {text}"),
        Err(e) => e,
    }
}

const GOOD: &str = r#"{"version":1,"engine":"allocation","system":{"kind":"mesh","width":4,"height":4},"workload":{"kind":"set","jobs":[{"tasks":4}]}}"#;

fn with(path: &[&str], value: serde_json::Value) -> String {
    let mut doc: serde_json::Value = serde_json::from_str(GOOD).unwrap();
    let mut cur = &mut doc;
    for (i, k) in path.iter().enumerate() {
        if i + 1 == path.len() {
            cur[*k] = value.clone();
        } else {
            cur = if let Ok(idx) = k.parse::<usize>() {
                &mut cur[idx]
            } else {
                &mut cur[*k]
            };
        }
    }
    doc.to_string()
}

#[test]
fn good_scenario_runs() {
    api::run(GOOD, &mut NoProgress).unwrap();
}

#[test]
fn errors_name_the_json_path() {
    use serde_json::json;
    let cases: Vec<(String, &str)> = vec![
        (with(&["system", "width"], json!(0)), "$.system.width"),
        (with(&["system", "width"], json!(100000)), "$.system.width"),
        (with(&["system", "width"], json!("four")), "$.system.width"),
        (with(&["system", "colour"], json!(1)), "$.system.colour"),
        (with(&["system", "arities"], json!([2, 2])), "$.system.arities"),
        (with(&["workload", "jobs", "0", "tasks"], json!(0)), "$.workload.jobs[0].tasks"),
        (with(&["workload", "jobs", "0", "tasks"], json!(-3)), "$.workload.jobs[0].tasks"),
        (with(&["workload", "jobs", "0", "arrival"], json!(1)), "$.workload.jobs[0].arrival"),
        (with(&["workload", "kind"], json!("heap")), "$.workload.kind"),
        (with(&["workload", "jobs"], json!([])), "$.workload.jobs"),
        (with(&["policies"], json!(["greedy"])), "$.policies[0]"),
        (with(&["policies"], json!([])), "$.policies"),
        (with(&["fallback"], json!("retry")), "$.fallback"),
        (with(&["frames"], json!(5000)), "$.frames"),
        (with(&["extra"], json!(true)), "$.extra"),
        (with(&["seed"], json!(1.5)), "$.seed"),
        (with(&["version"], json!(2)), "$.version"),
        (with(&["engine"], json!("placement2")), "$.engine"),
        (r#"{"version":1,"engine":"allocation","system":{"kind":"tree","arity":1024,"levels":3},"workload":{"kind":"set","jobs":[{"tasks":1}]}}"#.into(), "$.system.arities"),
        (r#"{"version":1,"engine":"allocation","system":{"kind":"mesh","width":512,"height":512},"workload":{"kind":"generated","count":100000}}"#.into(), "$.workload"),
        (r#"{"version":1,"engine":"allocation","system":{"kind":"mesh","width":4,"height":4},"workload":{"kind":"stream","jobs":[{"tasks":1,"arrival":0,"duration":0}]}}"#.into(), "$.workload.jobs[0].duration"),
        (r#"{"version":1,"engine":"allocation","system":{"kind":"mesh","width":4,"height":4},"workload":{"kind":"stream","jobs":[{"tasks":1,"arrival":0,"duration":5,"walltime":1}]}}"#.into(), "$.workload.jobs[0].walltime"),
        (r#"{"version":1,"engine":"allocation","system":{"kind":"mesh","width":256,"height":256},"policies":["sequential","closed-min-naive"],"workload":{"kind":"generated","count":1000}}"#.into(), "$.policies[1]"),
        ("{\"version\":1,".into(), "$"),
        ("null".into(), "$"),
    ];
    for (text, path) in cases {
        let e = err(&text);
        assert_eq!(e.path, path, "{text} -> {e}");
        assert!(!e.message.is_empty());
    }
}

#[test]
fn unknown_field_message_names_the_field() {
    let e = err(&with(&["system", "colour"], serde_json::json!(1)));
    assert!(e.message.contains("colour"), "{e}");
}

#[test]
fn deep_nesting_and_huge_numbers_are_errors_not_panics() {
    let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    err(&deep);
    err(&with(
        &["workload", "jobs", "0", "tasks"],
        serde_json::json!(1e300),
    ));
    err(&with(
        &["system", "width"],
        serde_json::json!(18446744073709551615u64),
    ));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]
    /// Any bytes: an error or a report, never a panic.
    #[test]
    fn arbitrary_text_never_panics(s in ".{0,200}") {
        let _ = api::run(&s, &mut NoProgress);
    }

    /// Corrupting a valid example anywhere: an error or a report, never a panic.
    #[test]
    fn mutated_examples_never_panic(pos in 0usize..2000, byte in any::<u8>(), which in 0usize..3) {
        let texts = [GOOD, include_str!("../playground-examples/fig1-4x4.json"), include_str!("../playground-examples/tree-4ary.json")];
        let mut bytes = texts[which].as_bytes().to_vec();
        let p = pos % bytes.len();
        bytes[p] = byte;
        if let Ok(s) = String::from_utf8(bytes) {
            let _ = api::run(&s, &mut NoProgress);
        }
    }

    /// Random in-range numbers in every numeric field of a small scenario never panic.
    #[test]
    fn random_values_never_panic(w in 0i64..20, h in 0i64..20, t in -2i64..500, c in 0i64..40, pol in 0usize..6, fb in 0usize..3, kind in 0usize..2) {
        let policies = ["sequential", "closed-min-paper", "closed-min-best", "closed-min-naive", "hilbert", "random"];
        let fallbacks = ["wait", "relax-closed", "relax-minimal"];
        let system = if kind == 0 {
            serde_json::json!({"kind": "mesh", "width": w, "height": h, "coresPerNode": c})
        } else {
            serde_json::json!({"kind": "tree", "arities": [w, h], "coresPerNode": c})
        };
        let doc = serde_json::json!({"version": 1, "engine": "allocation", "system": system,
            "policies": [policies[pol]], "fallback": fallbacks[fb],
            "workload": {"kind": "set", "jobs": [{"tasks": t}, {"tasks": t / 2 + 1}, {"tasks": 3}]}});
        let _ = api::run(&doc.to_string(), &mut NoProgress);
    }
}
