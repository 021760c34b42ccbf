//! Trace formats of the trace engine: the source's table 1 as a fixture, SimGrid
//! time-independent traces (merged and per rank), our text format, generated programs, errors
//! naming the JSON path and line, and fuzzing: no input makes the engine panic.

use placelab::api;
use placelab::trace::generate::{GenerateSpec, Program};
use placelab::trace::model::Op;
use placelab::trace::{alog, generate, replay, ti};
use proptest::prelude::*;
use serde_json::{json, Value};

fn nodes(k: usize) -> Value {
    Value::Array(
        (0..k)
            .map(|i| json!({"name": format!("n{i}"), "ratio": 1 + i}))
            .collect(),
    )
}

fn scenario(trace: Value, k: usize) -> String {
    json!({"version": 1, "engine": "trace", "trace": trace, "nodes": nodes(k),
           "defaultLink": {"a0": 1e-4, "a1": 1e-8}})
    .to_string()
}

fn run(text: &str) -> Result<Value, placelab::ScenarioError> {
    api::run(text, &mut placelab::progress::NoProgress)
        .map(|r| serde_json::from_str::<Value>(&r).unwrap()["report"].clone())
}

#[test]
fn table1_of_the_source_is_one_7992_byte_message_after_146_us() {
    let t = alog::parse(alog::TABLE1).unwrap();
    assert_eq!(t.ranks.len(), 2);
    assert_eq!(
        t.ranks[0][1].op,
        Op::Send {
            tag: 0,
            peer: 1,
            bytes: 7992.0
        }
    );
    assert_eq!(
        t.ranks[1][0].op,
        Op::Recv {
            tag: 0,
            peer: 0,
            bytes: 7992.0
        }
    );
    // through the engine: rank 0 computes 146 us then sends; the predicted time on two equal
    // nodes is 146 us + a0 + a1 * 7992
    let rep = run(&json!({"version": 1, "engine": "trace",
        "trace": {"format": "alog", "text": alog::TABLE1},
        "nodes": [{"name": "a"}, {"name": "b"}], "defaultLink": {"a0": 1e-4, "a1": 1e-8}})
    .to_string())
    .unwrap();
    let want = 146e-6 + (1e-4 + 1e-8 * 7992.0);
    assert!((rep["best"]["time"].as_f64().unwrap() - want).abs() < 1e-12);
    assert_eq!(rep["trace"]["messages"], 1);
    assert_eq!(rep["trace"]["bytes"], 7992.0);
    assert_eq!(rep["search"]["proven"], true);
}

#[test]
fn alog_header_lines_are_skipped_and_unknown_events_name_their_line() {
    let text = format!("-1 0 0 0 0 0 MPE\n-3 0 0 2 0 0\n{}", alog::TABLE1);
    let ops = |t: placelab::trace::model::Trace| -> Vec<Vec<Op>> {
        t.ranks
            .iter()
            .map(|r| r.iter().map(|e| e.op).collect())
            .collect()
    };
    assert_eq!(
        ops(alog::parse(&text).unwrap()),
        ops(alog::parse(alog::TABLE1).unwrap())
    );
    let e = run(&scenario(
        json!({"format": "alog", "text": "155 1 0 1 0 10\n200 0 0 0 0 11\n"}),
        2,
    ))
    .unwrap_err();
    assert_eq!(e.path, "$.trace.text");
    assert!(
        e.message.starts_with("line 2: unknown event type 200"),
        "{}",
        e.message
    );
    let e = run(&scenario(
        json!({"format": "alog", "text": "161 0 0 1 0 -3\n"}),
        2,
    ))
    .unwrap_err();
    assert!(e.message.contains("line 1: negative time"), "{}", e.message);
}

#[test]
fn unmatched_sends_and_receives_name_path_and_line() {
    let e = run(&scenario(
        json!({"format": "text", "text": "ranks 2\n0 compute 1\n0 send 1 8\n"}),
        2,
    ))
    .unwrap_err();
    assert_eq!(e.path, "$.trace.text");
    assert!(
        e.message
            .starts_with("line 3: rank 0 sends to rank 1 a message that is never received"),
        "{}",
        e.message
    );
    let e = run(&scenario(
        json!({"format": "text", "text": "0 compute 1\n1 recv 0 8\n"}),
        2,
    ))
    .unwrap_err();
    assert!(
        e.message
            .starts_with("line 2: rank 1 receives from rank 0 a message that is never sent"),
        "{}",
        e.message
    );
    let e = run(&scenario(
        json!({"format": "ti", "files": ["0 init\n0 send 1 0 8 6\n", "1 init\n1 recv 0 0 4 6\n"]}),
        2,
    ))
    .unwrap_err();
    assert_eq!(e.path, "$.trace.files[1]");
    assert!(
        e.message
            .starts_with("line 2: rank 1 receives at most 4 bytes"),
        "{}",
        e.message
    );
    let e = run(&scenario(
        json!({"format": "text", "text": "0 send 3 8\n"}),
        4,
    ))
    .unwrap_err();
    assert!(e.message.contains("only 1 ranks"), "{}", e.message);
}

#[test]
fn a_cycle_of_blocking_sends_is_refused_as_a_deadlock_naming_the_lines() {
    let e = run(&scenario(
        json!({"format": "text", "text": "0 send 1 8\n1 send 0 8\n0 recv 1 8\n1 recv 0 8\n"}),
        2,
    ))
    .unwrap_err();
    assert!(e.message.contains("deadlock"), "{}", e.message);
    assert!(
        e.message
            .contains("rank 0 waits in a send to rank 1 (line 1)"),
        "{}",
        e.message
    );
    assert!(
        e.message
            .contains("rank 1 waits in a send to rank 0 (line 2)"),
        "{}",
        e.message
    );
}

#[test]
fn ti_per_rank_files_equal_the_merged_text() {
    let r0 = "0 init\n0 compute 1e6\n0 send 1 0 125 0\n0 recv 1 0 1 1\n0 finalize\n";
    let r1 = "1 init\n1 recv 0 0 125 0\n1 compute 3e6\n1 send 0 0 1 1\n1 finalize\n";
    let files = run(&scenario(json!({"format": "ti", "files": [r0, r1]}), 3)).unwrap();
    let merged = run(&scenario(
        json!({"format": "ti", "text": format!("{r0}{r1}")}),
        3,
    ))
    .unwrap();
    assert_eq!(files["ranking"], merged["ranking"]);
    assert_eq!(files["trace"]["bytes"], 1004.0);
    assert_eq!(merged["source"], "ti");
    let e = run(&scenario(
        json!({"format": "ti", "text": "0 init\n0 ibcast 8\n"}),
        2,
    ))
    .unwrap_err();
    assert!(
        e.message
            .starts_with("line 2: action \"ibcast\" is not a SimGrid time-independent action"),
        "{}",
        e.message
    );
}

#[test]
fn every_generated_program_compiles_without_deadlock() {
    for program in Program::ALL {
        for ranks in [1u32, 2, 3, 4, 7, 8] {
            for size in [1u32, 5, 17, 60] {
                let spec = GenerateSpec {
                    program,
                    size,
                    ranks,
                    width: 5,
                    weights: None,
                    iterations: 3,
                };
                let t = generate::generate(&spec, 1e9);
                assert_eq!(t.ranks.len(), ranks as usize);
                let c = replay::compile(&t)
                    .unwrap_or_else(|e| panic!("{program:?} {ranks} {size}: {e:?}"));
                assert!(
                    t.events() <= generate::estimate_events(&spec),
                    "{program:?}"
                );
                assert_eq!(c.ranks, ranks as usize);
            }
        }
    }
}

#[test]
fn lu_first_message_is_table1s_7992_bytes_at_order_1000() {
    let spec = GenerateSpec {
        program: Program::LuBlock,
        size: 1000,
        ranks: 4,
        width: 5,
        weights: None,
        iterations: 1,
    };
    let t = generate::generate(&spec, 1e9);
    assert_eq!(
        t.ranks[0][0].op,
        Op::Send {
            tag: 0,
            peer: 1,
            bytes: 7992.0
        }
    );
}

fn line_strategy() -> impl Strategy<Value = String> {
    let tok = prop_oneof![
        Just("155".to_string()),
        Just("156".to_string()),
        Just("161".to_string()),
        Just("162".to_string()),
        Just("-101".to_string()),
        Just("-102".to_string()),
        Just("-1".to_string()),
        Just("send".to_string()),
        Just("recv".to_string()),
        Just("compute".to_string()),
        Just("init".to_string()),
        Just("ranks".to_string()),
        Just("p1".to_string()),
        Just("1e400".to_string()),
        Just("-5".to_string()),
        Just("NaN".to_string()),
        Just("#".to_string()),
        (0u32..6).prop_map(|x| x.to_string()),
        (0u64..100_000).prop_map(|x| x.to_string()),
        "[ -~]{0,6}",
    ];
    proptest::collection::vec(tok, 0..10).prop_map(|v| v.join(" "))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// No text makes any parser, the compiler or the engine panic.
    #[test]
    fn no_trace_text_panics(lines in proptest::collection::vec(line_strategy(), 0..14), fmt in 0usize..3) {
        let text = lines.join("\n");
        let format = ["alog", "ti", "text"][fmt];
        let _ = alog::parse(&text);
        let _ = ti::parse(&text, 1e9);
        let _ = placelab::trace::text::parse(&text);
        let _ = run(&scenario(json!({"format": format, "text": text}), 6));
        let _ = run(&scenario(json!({"format": "ti", "files": [text.clone(), text]}), 6));
    }

    /// Arbitrary bytes as text: no panic.
    #[test]
    fn no_arbitrary_text_panics(text in "\\PC{0,200}") {
        let _ = alog::parse(&text);
        let _ = ti::parse(&text, 1.0);
        let _ = placelab::trace::text::parse(&text);
    }

    /// Random values in the scenario's fields: an error or a report, never a panic.
    #[test]
    fn no_scenario_values_panic(ratio in -1.0f64..1e7, a0 in -1.0f64..1.0, size in 0u32..300,
                                ranks in 0u32..10, k in 0usize..9, top in 0u32..30, budget in 0.0f64..1e5,
                                method in 0usize..4, measured in "[a-z0-9 ,.\\n]{0,40}") {
        let m = ["auto", "exhaustive", "branchAndBound", "localSearch"][method];
        let nodes: Vec<Value> = (0..k).map(|i| json!({"name": format!("n{i}"), "ratio": ratio + i as f64})).collect();
        let s = json!({"version": 1, "engine": "trace",
            "generate": {"program": "himeno", "size": size, "ranks": ranks, "iterations": 2},
            "nodes": nodes, "defaultLink": {"a0": a0, "a1": 1e-9},
            "search": {"method": m, "top": top, "budget": budget}, "measured": measured});
        let _ = run(&s.to_string());
    }
}

#[test]
fn measured_times_give_the_sources_error_a() {
    // no messages: rank 0 computes 1 s, rank 1 computes 4 s; node a ratio 1, node b ratio 2:
    // "a b" predicts max(1, 8) = 8, "b a" predicts max(2, 4) = 4 (our best)
    let s = json!({"version": 1, "engine": "trace",
        "trace": {"format": "text", "text": "0 compute 1\n1 compute 4\n"},
        "nodes": [{"name": "a", "ratio": 1}, {"name": "b", "ratio": 2}],
        "defaultLink": {"a0": 0, "a1": 0},
        "measured": "assignment,time\na b,4.5\nb a,5\n"});
    let rep = run(&s.to_string()).unwrap();
    assert_eq!(rep["best"]["hosts"], "b a");
    assert_eq!(rep["best"]["machinefile"], "b\na\n");
    let m = &rep["measured"];
    assert_eq!(m["predictedBestMeasured"], 5.0);
    assert_eq!(m["measuredBest"], "a b");
    assert_eq!(m["measuredBestTime"], 4.5);
    assert!((m["a"].as_f64().unwrap() - 0.5 / 4.5).abs() < 1e-15);
    assert_eq!(m["measuredBestPredictedPosition"], 2);
    let mre = ((8.0f64 - 4.5).abs() / 4.5 + (4.0f64 - 5.0).abs() / 5.0) / 2.0;
    assert!((m["meanRelativeError"].as_f64().unwrap() - mre).abs() < 1e-15);
    assert_eq!(m["rankCorrelation"], -1.0);
    assert_eq!(
        m["pairs"][0],
        json!({"hosts": "a b", "predicted": 8.0, "measured": 4.5})
    );
    let mut bad = s.clone();
    bad["measured"] = json!("a b,1\na c,2\n");
    let e = run(&bad.to_string()).unwrap_err();
    assert_eq!(e.path, "$.measured");
    assert!(
        e.message.starts_with("line 2: no node is named \"c\""),
        "{}",
        e.message
    );
}

#[test]
fn fitted_links_are_reported_with_their_residuals() {
    let s = json!({"version": 1, "engine": "trace",
        "trace": {"format": "text", "text": "0 send 1 100\n1 recv 0 100\n"},
        "nodes": [{"name": "a"}, {"name": "b"}],
        "links": [{"from": "a", "to": "b", "samples": [[0, 1.0], [100, 2.0], [200, 3.0]], "both": true}]});
    let rep = run(&s.to_string()).unwrap();
    let l = &rep["links"][0];
    assert_eq!(l["origin"], "fit");
    assert!((l["a0"].as_f64().unwrap() - 1.0).abs() < 1e-12);
    assert!((l["a1"].as_f64().unwrap() - 0.01).abs() < 1e-15);
    assert_eq!(l["fit"]["count"], 3);
    assert!(l["fit"]["rms"].as_f64().unwrap() < 1e-12);
    assert!((rep["best"]["time"].as_f64().unwrap() - 2.0).abs() < 1e-12);
    let mut one = s.clone();
    one["links"][0]["samples"] = json!([[5, 1.0], [5, 2.0]]);
    let e = run(&one.to_string()).unwrap_err();
    assert_eq!(e.path, "$.links[0].samples");
    let mut missing = s.clone();
    missing["links"][0]["both"] = json!(false);
    let e = run(&missing.to_string()).unwrap_err();
    assert!(
        e.message.contains("no link from \"b\" to \"a\""),
        "{}",
        e.message
    );
}

#[test]
fn oversized_searches_are_refused_before_running() {
    // 12 nodes, exhaustive: 479 million assignments of a 100-message trace
    let mut text = String::from("ranks 12\n");
    for i in 0..100 {
        let (a, b) = (i % 12, (i + 1) % 12);
        text.push_str(&format!("{a} send {b} 8\n{b} recv {a} 8\n"));
    }
    let s = json!({"version": 1, "engine": "trace", "trace": {"format": "text", "text": text},
        "nodes": nodes(12), "defaultLink": {"a0": 1e-4, "a1": 1e-8},
        "search": {"method": "exhaustive"}});
    let e = api::check(&s.to_string()).unwrap_err();
    assert_eq!(e.path, "$.search");
    assert!(
        e.message.starts_with("refused before running: estimated"),
        "{}",
        e.message
    );
}

#[test]
fn progress_rises_to_the_total_and_never_falls() {
    struct Rec(Vec<(u64, u64)>);
    impl placelab::progress::Progress for Rec {
        fn tick(&mut self, done: u64, total: u64) {
            self.0.push((done, total));
        }
    }
    for f in ["trace-lu-uneven-8-proof.json", "trace-lu-block-4.json"] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("playground-examples")
            .join(f);
        let text = std::fs::read_to_string(path).unwrap();
        let mut rec = Rec(Vec::new());
        api::run(&text, &mut rec).unwrap();
        // the long search ticks as it goes; the 24-assignment one only at its phases
        assert!(
            rec.0.len() > if f.contains("-8-") { 10 } else { 2 },
            "{f}: too few ticks"
        );
        assert!(
            rec.0
                .windows(2)
                .all(|w| w[0].0 <= w[1].0 && w[0].1 == w[1].1),
            "{f}"
        );
        let last = rec.0.last().unwrap();
        assert_eq!(last.0, last.1);
    }
}

/// Regression: an ALOG call that ends before it begins (162 at 100 us after its 161 at
/// 1335 us) was accepted and added phantom compute to the rank's next gap.
#[test]
fn an_alog_call_ending_before_it_begins_is_refused_at_its_line() {
    let text = "161 0 0 1 0 1335\n-101 0 0 1 0 1336 7 8\n162 0 0 1 0 100\n\
                155 1 0 0 0 1300\n-102 1 0 0 0 1340 7 8\n156 1 0 0 0 1341\n";
    let e = run(&scenario(json!({"format": "alog", "text": text}), 2)).unwrap_err();
    assert_eq!(e.path, "$.trace.text");
    assert!(
        e.message
            .starts_with("line 3: time goes backwards on rank 0: 100 us after 1336 us"),
        "{}",
        e.message
    );
}

/// Regression: an ALOG message of 9e18 bytes was accepted; every trace format caps sizes at
/// 1e15 bytes.
#[test]
fn an_alog_message_over_the_size_limit_is_refused() {
    let text = "161 0 0 1 0 10\n-101 0 0 1 0 11 7 9000000000000000000\n162 0 0 1 0 12\n\
                155 1 0 0 0 10\n-102 1 0 0 0 11 7 9000000000000000000\n156 1 0 0 0 12\n";
    let e = run(&scenario(json!({"format": "alog", "text": text}), 2)).unwrap_err();
    assert!(
        e.message
            .starts_with("line 2: the message size must be at most 1e15 bytes"),
        "{}",
        e.message
    );
}

/// Regression: a trace of only init and finalize predicted 0 s, "proven".
#[test]
fn a_trace_with_nothing_to_replay_is_refused() {
    let text = "0 init\n1 init\n0 finalize\n1 finalize\n";
    let e = run(&scenario(json!({"format": "ti", "text": text}), 2)).unwrap_err();
    assert_eq!(e.path, "$.trace");
    assert!(e.message.contains("nothing to predict"), "{}", e.message);
}

/// Regression: a 30-digit rank was "not a whole number", and ALOG text given as
/// time-independent got a bare rank-range message with no hint that the format was wrong.
#[test]
fn overlong_numbers_and_alog_given_as_ti_are_named_for_what_they_are() {
    let long = "0 send 123456789012345678901234567890 8\n";
    let e = run(&scenario(json!({"format": "ti", "text": long}), 2)).unwrap_err();
    assert!(
        e.message
            .contains("is too large: 123456789012345678901234567890 has 30 digits"),
        "{}",
        e.message
    );
    let e = run(&scenario(json!({"format": "ti", "text": alog::TABLE1}), 2)).unwrap_err();
    assert!(
        e.message.contains("this looks like MPE ALOG text") && e.message.contains("\"alog\""),
        "{}",
        e.message
    );
}

/// Regression: with one text per rank, a receive left without its send (the sender's file cut
/// short) named only the receiver's file, and a size mismatch gave the send's line without
/// its file.
#[test]
fn per_rank_texts_name_the_other_file_involved() {
    let e = run(&scenario(
        json!({"format": "ti", "files": ["0 init\n0 send 1 0 8 6\n", "1 init\n1 recv 0 0 4 6\n"]}),
        2,
    ))
    .unwrap_err();
    assert!(
        e.message
            .contains("but the matching send ($.trace.files[0], line 2) has 8 bytes"),
        "{}",
        e.message
    );
    let e = run(&scenario(
        json!({"format": "ti", "files": ["0 init\n0 send 1 8\n", "1 init\n1 recv 0 8\n1 recv 0 8\n"]}),
        2,
    ))
    .unwrap_err();
    assert_eq!(e.path, "$.trace.files[1]");
    assert!(
        e.message
            .contains("is rank 0's text, $.trace.files[0], cut short?"),
        "{}",
        e.message
    );
}

/// Regression: an `init` line with an argument was ignored; SimGrid's replay then reads the
/// sizes written without a datatype as doubles (8 bytes each), not bytes.
#[test]
fn a_ti_init_with_an_argument_makes_sizes_without_a_datatype_count_doubles() {
    let bytes = ti::parse("0 init\n0 send 1 100\n1 init\n1 recv 0 100\n", 1e9).unwrap();
    let doubles = ti::parse("0 init 0\n0 send 1 100\n1 init 0\n1 recv 0 7 100\n", 1e9).unwrap();
    assert_eq!(
        bytes.ranks[0][0].op,
        Op::Send {
            tag: 0,
            peer: 1,
            bytes: 100.0
        }
    );
    assert_eq!(
        doubles.ranks[0][0].op,
        Op::Send {
            tag: 0,
            peer: 1,
            bytes: 800.0
        }
    );
    assert_eq!(
        doubles.ranks[1][0].op,
        Op::Recv {
            tag: 7,
            peer: 0,
            bytes: 800.0
        }
    );
    // an explicit datatype is read as written, whatever the init line says
    let explicit = ti::parse("0 init 0\n0 send 1 7 100 2\n", 1e9).unwrap();
    assert_eq!(
        explicit.ranks[0][0].op,
        Op::Send {
            tag: 7,
            peer: 1,
            bytes: 100.0
        }
    );
}
