//! SMPI's size-dependent link factors (`latFactor`, `bwFactor`, the forms of
//! `--cfg=smpi/lat-factor` and `smpi/bw-factor`) and links fitted per size range: a message of
//! `N` bytes on a link `a0 + a1 N` takes `latFactor(N) a0 + N a1 / bwFactor(N)`, the factor of a
//! size being that of the last breakpoint strictly below it (1 up to the first).

use placelab::api;
use proptest::prelude::*;
use serde_json::{json, Value};

const A0: f64 = 2e-5;
const A1: f64 = 1e-8;

/// One message of `n` bytes from rank 0 to rank 1 on two equal nodes.
fn one_message(n: u64, extra: Value) -> Value {
    let mut s = json!({"version": 1, "engine": "trace", "seed": 1,
        "trace": {"format": "text", "text": format!("0 send 1 {n}\n1 recv 0 {n}\n")},
        "nodes": [{"name": "a"}, {"name": "b"}],
        "defaultLink": {"a0": A0, "a1": A1}});
    for (k, v) in extra.as_object().unwrap() {
        s[k] = v.clone();
    }
    s
}

fn run(s: &Value) -> Result<Value, placelab::ScenarioError> {
    api::run(&s.to_string(), &mut placelab::progress::NoProgress)
        .map(|r| serde_json::from_str::<Value>(&r).unwrap()["report"].clone())
}

/// Closed form: one message at sizes on both sides of every breakpoint of both factors.
#[test]
fn one_message_takes_lat_factor_times_a0_plus_n_a1_over_bw_factor() {
    let lat = "0:1.5;65536:2";
    let bw = "0:0.8;1024:0.5;65536:0.95";
    let f =
        |n: f64, points: &[(f64, f64)]| points.iter().rfind(|(s, _)| *s < n).map_or(1.0, |p| p.1);
    let lats = [(0.0, 1.5), (65536.0, 2.0)];
    let bws = [(0.0, 0.8), (1024.0, 0.5), (65536.0, 0.95)];
    for n in [0u64, 1, 2, 1023, 1024, 1025, 65535, 65536, 65537, 1 << 20] {
        let r = run(&one_message(n, json!({"latFactor": lat, "bwFactor": bw}))).unwrap();
        let x = n as f64;
        let want = f(x, &lats) * A0 + x * A1 / f(x, &bws);
        let got = r["best"]["time"].as_f64().unwrap();
        assert!(
            (got - want).abs() <= 1e-15 * want.max(1e-300),
            "{n} bytes: {got} against {want}"
        );
        assert_eq!(r["factors"]["latFactor"], lat);
        assert_eq!(r["factors"]["bwFactor"], bw);
        // the sizes reported stay the trace's
        assert_eq!(r["trace"]["bytes"].as_f64().unwrap(), x);
    }
    // without factors: a0 + a1 N, and no factors in the report
    let r = run(&one_message(65537, json!({}))).unwrap();
    assert_eq!(r["best"]["time"].as_f64().unwrap(), A0 + A1 * 65537.0);
    assert!(r.get("factors").is_none());
}

/// Factors of 1 everywhere change no time: the same report as without factors, bit for bit,
/// but for the factors it names; and branch and bound under factors still ranks as exhaustive
/// search does (its bounds weigh each message by its factors).
#[test]
fn unit_factors_change_nothing_and_the_searches_agree_under_factors() {
    let base = json!({"version": 1, "engine": "trace", "seed": 1,
        "generate": {"program": "luCyclic", "size": 120, "ranks": 5},
        "nodes": (0..5).map(|i| json!({"name": format!("n{i}"), "ratio": 1.0 + 0.3 * i as f64})).collect::<Vec<_>>(),
        "defaultLink": {"a0": 1e-4, "a1": 1e-8}, "search": {"top": 10}});
    let plain = run(&base).unwrap();
    let mut unit = base.clone();
    unit["latFactor"] = json!("0:1");
    unit["bwFactor"] = json!("0:1;1000:1");
    let mut unit = run(&unit).unwrap();
    unit.as_object_mut().unwrap().remove("factors");
    assert_eq!(plain, unit);

    let mut f = base.clone();
    f["latFactor"] = json!("0:3;2000:0.5");
    f["bwFactor"] = json!("0:0.2;4000:2");
    let mut ex = f.clone();
    ex["search"] = json!({"top": 10, "method": "exhaustive"});
    let mut bb = f.clone();
    bb["search"] = json!({"top": 10, "method": "branchAndBound", "budget": 2e9});
    let (ex, bb) = (run(&ex).unwrap(), run(&bb).unwrap());
    assert_eq!(bb["search"]["proven"], true);
    let times = |r: &Value| -> Vec<f64> {
        r["ranking"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x["time"].as_f64().unwrap())
            .collect()
    };
    assert_eq!(times(&ex), times(&bb));
    assert_ne!(times(&ex)[0], plain["ranking"][0]["time"].as_f64().unwrap());
}

#[test]
fn bad_factors_and_breakpoints_are_refused_at_their_path() {
    for (key, text, want) in [
        ("latFactor", "10:1;5:2", "sizes must increase"),
        ("bwFactor", "0:x", "the factor must be"),
        ("bwFactor", "0:1;1e3:2", "whole number"),
        ("latFactor", "0:1;7", "chunk 2"),
    ] {
        let e = run(&one_message(8, json!({ key: text }))).unwrap_err();
        assert_eq!(e.path, format!("$.{key}"), "{text}: {e}");
        assert!(e.message.contains(want), "{text}: {e}");
    }
    // an empty string, as a cleared form field sends it, is no factors
    let r = run(&one_message(8, json!({"latFactor": "", "bwFactor": " "}))).unwrap();
    assert!(r.get("factors").is_none());
    assert_eq!(r["best"]["time"].as_f64().unwrap(), A0 + A1 * 8.0);
    let samples: Vec<[f64; 2]> = (0..20)
        .map(|i| [100.0 * i as f64, 1e-4 + 1e-8 * 100.0 * i as f64])
        .collect();
    let link = |extra: Value| {
        let mut l = json!({"from": "a", "to": "b", "both": true});
        for (k, v) in extra.as_object().unwrap() {
            l[k] = v.clone();
        }
        one_message(8, json!({"links": [l]}))
    };
    let e = run(&link(json!({"a0": 1e-4, "a1": 1e-8, "breakpoints": [100]}))).unwrap_err();
    assert_eq!(e.path, "$.links[0].breakpoints", "{e}");
    let e = run(&link(
        json!({"samples": samples, "breakpoints": [500, 400]}),
    ))
    .unwrap_err();
    assert_eq!(e.path, "$.links[0].breakpoints", "{e}");
    assert!(e.message.contains("increase"), "{e}");
    let e = run(&link(json!({"samples": samples, "breakpoints": [1800]}))).unwrap_err();
    assert!(e.message.contains("N > 1800"), "{e}");
}

/// A link fitted per size range: each range's line is reported, and pasting the first range's
/// line with the reported factor strings gives back every sample's time.
#[test]
fn a_link_fitted_per_size_range_reads_back_as_smpi_factors() {
    let t = |n: f64| {
        if n <= 1024.0 {
            5e-5 + 1e-8 * n
        } else if n <= 65536.0 {
            8e-5 + 1.25e-8 * n
        } else {
            2e-4 + 5e-9 * n
        }
    };
    let sizes: Vec<f64> = (0..=40)
        .map(|i| 64.0 * i as f64)
        .chain((1..=30).map(|i| 4096.0 * i as f64))
        .collect();
    let samples: Vec<[f64; 2]> = sizes.iter().map(|&n| [n, t(n)]).collect();
    let s = one_message(
        8,
        json!({"links": [{"from": "a", "to": "b", "both": true, "samples": samples,
            "breakpoints": [1024, 65536]}]}),
    );
    let r = run(&s).unwrap();
    let fit = &r["links"][0]["fit"];
    let ranges = fit["ranges"].as_array().unwrap();
    assert_eq!(ranges.len(), 3);
    assert_eq!(ranges[0]["to"], 1024.0);
    assert!(ranges[2].get("to").is_none());
    let (a0, a1) = (
        ranges[0]["a0"].as_f64().unwrap(),
        ranges[0]["a1"].as_f64().unwrap(),
    );
    assert!((a0 - 5e-5).abs() < 1e-12 && (a1 - 1e-8).abs() < 1e-16);
    let lat = fit["latFactor"].as_str().unwrap();
    let bw = fit["bwFactor"].as_str().unwrap();
    assert!(
        lat.starts_with("1024:") && bw.contains(";65536:"),
        "{lat} {bw}"
    );
    for n in [0u64, 1000, 1024, 1025, 60000, 65536, 65537, 100000] {
        let x = n as f64;
        let r = run(&one_message(
            n,
            json!({"defaultLink": {"a0": a0, "a1": a1}, "latFactor": lat, "bwFactor": bw}),
        ))
        .unwrap();
        let got = r["best"]["time"].as_f64().unwrap();
        assert!(
            (got - t(x)).abs() < 1e-9 * t(x),
            "{n}: {got} against {}",
            t(x)
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// Whatever the factor strings and breakpoints, a run returns a report or an error.
    #[test]
    fn no_factor_string_or_breakpoints_panic(
        lat in "[0-9:;. x-]{0,24}",
        bw in proptest::collection::vec((0u64..100_000, -1.0f64..3.0), 0..5),
        cuts in proptest::collection::vec(-10.0f64..3000.0, 0..4),
        n in 0u64..200_000,
    ) {
        let bw: String = bw.iter().map(|(s, f)| format!("{s}:{f}")).collect::<Vec<_>>().join(";");
        let samples: Vec<[f64; 2]> = (0..30).map(|i| [100.0 * i as f64, 1e-4 + 1e-8 * 100.0 * i as f64]).collect();
        let s = one_message(n, json!({"latFactor": lat, "bwFactor": bw,
            "links": [{"from": "a", "to": "b", "both": true, "samples": samples, "breakpoints": cuts}]}));
        if let Ok(r) = run(&s) {
            prop_assert!(r["best"]["time"].as_f64().unwrap().is_finite());
        }
    }
}

/// SMPI 3.32's ping-pong (`tests/fixtures/smpi/factors`, `scripts/smpi-factors-fixture.py`)
/// with `--cfg=smpi/lat-factor` and `smpi/bw-factor` on one 100 MB/s, 20 µs link: the engine
/// with the same strings on `a0` = 20 µs, `a1` = 1 / 100 MB/s gives SMPI's one-way times. SMPI
/// also sends about 16 bytes of its own with every message (constant: the run with factors of
/// 1 takes `20 µs + N / 100 MB/s + e`, `e` = 0.16 µs at every size), which the bandwidth factor
/// scales too: the check adds `e / bwFactor(N)` to the engine's time and asks for 1e-4 (a
/// nanosecond or two of `e` is not bytes, which that scaling misses).
#[test]
fn smpi_ping_pong_times_under_factors_are_the_engines() {
    let meta: Value =
        serde_json::from_str(include_str!("fixtures/smpi/factors/factors.json")).unwrap();
    let (lat, bw) = (
        meta["latFactor"].as_str().unwrap(),
        meta["bwFactor"].as_str().unwrap(),
    );
    let (l, b) = (
        meta["latency"].as_f64().unwrap(),
        meta["bandwidth"].as_f64().unwrap(),
    );
    let bwf = placelab::trace::factors::Factors::parse(bw).unwrap();
    let latf = placelab::trace::factors::Factors::parse(lat).unwrap();
    let csv = include_str!("fixtures/smpi/factors/pingpong.csv");
    let (mut rows, mut near) = (0, 0);
    for line in csv.lines().skip(1) {
        let f: Vec<f64> = line.split(',').map(|x| x.parse().unwrap()).collect();
        let (n, smpi, unit) = (f[0], f[1], f[2]);
        // SimGrid looks the factors up at the payload plus its own bytes: a payload at a
        // breakpoint or less than 32 bytes below it (here only the empty message, at breakpoint
        // 0) takes that breakpoint's factor there, the one before here
        if latf
            .sizes
            .iter()
            .chain(&bwf.sizes)
            .any(|&s| n <= s && s < n + 32.0)
        {
            near += 1;
            continue;
        }
        let e = unit - (l + n / b);
        assert!((0.0..1e-6).contains(&e), "{n}: SMPI's own overhead {e}");
        let mut s = one_message(
            n as u64,
            json!({"defaultLink": {"a0": l, "a1": 1.0 / b}, "latFactor": lat, "bwFactor": bw}),
        );
        s["protocol"] = json!("rendezvous");
        let ours = run(&s).unwrap()["best"]["time"].as_f64().unwrap();
        let want = smpi - e / bwf.at(n);
        assert!(
            (ours - want).abs() < 1e-4 * want,
            "{n} bytes: ours {ours}, SMPI {smpi} ({want} without its own bytes)"
        );
        // and the factors matter: without them the time is far off
        assert!(((l + n / b) - want).abs() > 0.05 * want, "{n}");
        rows += 1;
    }
    assert_eq!((rows, near), (14, 1));
}
