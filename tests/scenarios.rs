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
        for word in ["usize", "u64", "`", "expected"] {
            assert!(!e.message.contains(word), "{e} names {word:?}");
        }
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

// ---- errors and input a user understands

/// Every way of writing a wrong type or value: the message says what is wanted in words.
#[test]
fn messages_name_no_rust_types() {
    use serde_json::json;
    let cases = [
        with(&["system", "width"], json!("four")),
        with(&["system", "width"], json!(-3)),
        with(&["system", "width"], json!(1.5)),
        with(&["system", "width"], json!(18446744073709551615u64)),
        with(&["system", "coresPerNode"], json!(true)),
        with(&["system", "arities"], json!([5_000_000_000u64])),
        with(&["workload", "jobs", "0", "tasks"], json!(-3)),
        with(&["workload", "jobs", "0", "tasks"], json!(1e300)),
        with(&["workload", "jobs", "0", "tasks"], json!("4")),
        with(&["workload", "jobs", "0", "name"], json!(4)),
        with(&["workload", "jobs"], json!(4)),
        with(&["workload", "kind"], json!(7)),
        with(&["frames"], json!(-1)),
        with(&["slowdownBound"], json!("ten")),
        with(&["policies"], json!("random")),
        with(&["seed"], json!(-1)),
    ];
    for text in cases {
        let e = err(&text);
        for word in [
            "usize", "u64", "u32", "i64", "f64", "struct ", "sequence", "expected", "`",
        ] {
            assert!(!e.message.contains(word), "{e} names {word:?}");
        }
    }
    let e = err(&with(&["system", "width"], json!(-3)));
    assert_eq!(
        e.to_string(),
        "$.system.width: must be a whole number from 1 to 512, got -3"
    );
    let e = err(&with(&["workload", "jobs", "0", "tasks"], json!(-3)));
    assert_eq!(
        e.to_string(),
        "$.workload.jobs[0].tasks: must be a whole number from 1 to 1073741824, got -3"
    );
    let e = err(&with(&["system", "arities"], json!([2, 5_000_000_000u64])));
    assert_eq!(
        e.to_string(),
        "$.system.arities[1]: must be a whole number from 2 to 1024, got 5000000000"
    );
}

/// `usize` fields take the same values natively and in wasm (where `usize` has 32 bits): a
/// value above 2^32-1 is refused with the same message on both.
#[test]
fn platform_width_fields_accept_the_same_values_on_every_target() {
    let e = err(&with(&["frames"], serde_json::json!(4294967296u64)));
    assert_eq!(
        e.to_string(),
        "$.frames: must be a whole number from 0 to 1000, got 4294967296"
    );
}

#[test]
fn numbers_in_messages_are_compact() {
    let stream = r#"{"version":1,"engine":"allocation","system":{"kind":"mesh","width":4,"height":4},"workload":{"kind":"stream","jobs":[{"tasks":1,"arrival":0,"duration":1e308}]}}"#;
    let e = err(stream);
    assert_eq!(
        e.to_string(),
        "$.workload.jobs[0].duration: must be a number from 1e-9 to 1e12, got 1e308"
    );
    let e = err(&with(
        &["workload", "jobs", "0", "tasks"],
        serde_json::json!(1e308),
    ));
    assert!(e.message.ends_with("got 1e308"), "{e}");
}

#[test]
fn number_out_of_range_says_so_at_its_path() {
    let text = GOOD.replace(r#""width":4"#, r#""width":1e400"#);
    let e = err(&text);
    assert_eq!(e.path, "$.system.width");
    assert!(e.message.contains("number out of range"), "{e}");
}

#[test]
fn deep_nesting_says_nested_too_deeply() {
    for text in [
        "[".repeat(100_000),
        format!("{{\"version\":1,\"x\":{}", "[".repeat(100_000)),
        format!("{}{}", "{\"a\":".repeat(100_000), "}".repeat(100_000)),
    ] {
        let e = err(&text);
        assert!(e.message.contains("nested too deeply"), "{e}");
    }
}

#[test]
fn duplicate_keys_are_refused_naming_the_path() {
    let text = GOOD.replace(r#""width":4"#, r#""width":4,"width":5"#);
    let e = err(&text);
    assert_eq!(e.path, "$.system.width");
    assert!(e.message.contains("duplicate key"), "{e}");
    let e = err(&GOOD.replace(r#"{"version":1,"#, r#"{"version":1,"seed":3,"seed":4,"#));
    assert_eq!(e.path, "$.seed");
    let e = err(&GOOD.replace(r#"{"tasks":4}"#, r#"{"tasks":4,"tasks":4}"#));
    assert_eq!(e.path, "$.workload.jobs[0].tasks");
}

#[test]
fn a_list_where_an_object_belongs_is_refused_naming_the_path() {
    let e = err(&with(
        &["workload", "jobs"],
        serde_json::json!([["x", 4, "all", null, null, null]]),
    ));
    assert_eq!(
        e.to_string(),
        "$.workload.jobs[0]: must be an object { ... }, got a list"
    );
    let e = err(&with(&["system"], serde_json::json!(["mesh", 4, 4])));
    assert_eq!(e.path, "$.system");
}

#[test]
fn missing_required_fields_and_unknown_choices_are_named() {
    let e = err(&with(
        &["workload", "jobs"],
        serde_json::json!([{"comm": "all"}]),
    ));
    assert_eq!(
        e.to_string(),
        "$.workload.jobs[0].tasks: missing (required)"
    );
    let e = err(&with(&["fallback"], serde_json::json!("retry")));
    assert_eq!(
        e.to_string(),
        r#"$.fallback: must be one of "wait", "relax-closed", "relax-minimal"; got "retry""#
    );
}

#[test]
fn huge_trees_report_their_real_node_count() {
    let text = r#"{"version":1,"engine":"allocation","system":{"kind":"tree","arity":1024,"levels":8},"workload":{"kind":"set","jobs":[{"tasks":1}]}}"#;
    let e = err(text);
    assert_eq!(
        e.to_string(),
        "$.system.arities: the tree has 1208925819614629174706176 nodes; the limit is 262144"
    );
}

/// The CLI's rule is the rule everywhere (docs/format.md): the version is the whole number 1.
#[test]
fn version_written_as_a_fraction_is_refused_with_a_clear_message() {
    let e = err(&GOOD.replace(r#""version":1"#, r#""version":1.0"#));
    assert_eq!(
        e.to_string(),
        "$.version: write the version as the whole number 1, got 1.0"
    );
}

fn run_report(text: &str) -> serde_json::Value {
    serde_json::from_str(&api::run(text, &mut NoProgress).unwrap()).unwrap()
}

const RANDOM_SEED: &str = r#"{"version":1,"engine":"allocation","seed":SEED,"system":{"kind":"mesh","width":16,"height":16},"policies":["random"],"workload":{"kind":"set","jobs":[{"tasks":5},{"tasks":7},{"tasks":3}]}}"#;

#[test]
fn seeds_above_2_pow_53_are_exact() {
    let a = api::run(
        &RANDOM_SEED.replace("SEED", "9007199254740993"),
        &mut NoProgress,
    )
    .unwrap();
    let b = api::run(
        &RANDOM_SEED.replace("SEED", "9007199254740992"),
        &mut NoProgress,
    )
    .unwrap();
    assert!(a.contains(r#""seed":9007199254740993"#));
    assert!(b.contains(r#""seed":9007199254740992"#));
    let (a, b): (serde_json::Value, serde_json::Value) = (
        serde_json::from_str(&a).unwrap(),
        serde_json::from_str(&b).unwrap(),
    );
    assert_ne!(
        a["report"]["runs"], b["report"]["runs"],
        "the two seeds drew the same nodes"
    );
}

#[test]
fn the_largest_seed_is_accepted() {
    let r = run_report(&RANDOM_SEED.replace("SEED", "18446744073709551615"));
    assert_eq!(r["seed"].as_u64(), Some(u64::MAX));
    let e = err(&RANDOM_SEED.replace("SEED", "18446744073709551616"));
    assert_eq!(e.path, "$.seed");
}

// ---- the command line: same bytes as the page's export, bounded reading

fn temp_file(name: &str, bytes: &[u8]) -> std::path::PathBuf {
    let p = std::env::temp_dir().join(format!("placelab-{}-{name}", std::process::id()));
    std::fs::write(&p, bytes).unwrap();
    p
}

fn cli() -> std::process::Command {
    std::process::Command::new(env!("CARGO_BIN_EXE_placelab"))
}

/// `placelab run` prints [`api::report_file`]: the report and one newline, the bytes the page
/// exports, checked by checksum.
#[test]
fn cli_output_is_the_report_file_byte_for_byte() {
    let text = RANDOM_SEED.replace("SEED", "7");
    let path = temp_file("report.json", text.as_bytes());
    let out = cli().arg("run").arg(&path).output().unwrap();
    std::fs::remove_file(&path).ok();
    assert!(out.status.success());
    let report = api::run(&text, &mut NoProgress).unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        api::fingerprint(&stdout),
        api::fingerprint(&format!("{report}\n"))
    );
    assert_eq!(stdout, api::report_file(&report));
    assert!(stdout.ends_with("}\n"));
}

/// A 50 MB input is refused after reading the limit plus one byte: the CLI closes its input
/// early and the writer sees the pipe closed long before 50 MB.
#[test]
fn cli_stops_reading_at_the_size_limit() {
    use std::io::Write;
    let mut child = cli()
        .args(["run", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let chunk = vec![b' '; 64 * 1024];
        let mut written = 0usize;
        while written < 50_000_000 {
            match stdin.write(&chunk) {
                Ok(n) => written += n,
                Err(_) => break,
            }
        }
        written
    });
    let out = child.wait_with_output().unwrap();
    let written = writer.join().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("more than 4194304 bytes"), "{stderr}");
    assert!(written < 8 * 1024 * 1024, "the CLI read {written} bytes");
}

#[test]
fn a_missing_file_is_a_usage_error() {
    let out = cli()
        .args(["check", "/nonexistent/placelab.json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read"));
}

/// The form's seed control: edited as text (kind `uint64`), never as a JavaScript number,
/// which is exact only up to 2^53; no rounded bound is sent to the page.
#[test]
fn the_seed_control_is_edited_as_exact_text() {
    let engines: serde_json::Value = serde_json::from_str(&api::engines_json()).unwrap();
    for engine in engines.as_array().unwrap() {
        let params = engine["params"].as_array().unwrap();
        let seed = params.iter().find(|p| p["path"] == "seed").unwrap();
        assert_eq!(seed["kind"], "uint64");
        assert!(seed.get("max").is_none() && seed.get("min").is_none());
    }
}

#[test]
fn cli_names_the_offset_of_bytes_that_are_not_utf8() {
    let mut bytes = br#"{"version":1,"name":"caf"#.to_vec();
    bytes.push(0xe9); // Latin-1 'é'
    bytes.extend_from_slice(br#""}"#);
    let path = temp_file("latin1.json", &bytes);
    let out = cli().arg("check").arg(&path).output().unwrap();
    std::fs::remove_file(&path).ok();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("byte 24 (counting from 0) is 0xe9"),
        "{stderr}"
    );
}
