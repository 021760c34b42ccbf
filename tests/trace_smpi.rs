//! The trace engine against SimGrid's SMPI (tests/fixtures/smpi, made by
//! scripts/smpi-fixture.py): a blocking LU traced once on identical hosts, then run by SMPI under
//! all 24 assignments on four hosts of different speeds with a link of their own per pair. The
//! engine replays the trace on the fitted links and ranks the assignments; this test recomputes,
//! from the engine's ranking and SMPI's times (read here, not from the engine's own figures), the
//! source's error a = |t_n - t_m| / t_m (n the assignment predicted best, m the measured best) and
//! Spearman's rank correlation, checks the engine reports the same, and holds them to the bounds
//! observed when the fixture was made. SimGrid itself never runs here.

use placelab::api;
use placelab::progress::NoProgress;
use serde_json::Value;
use std::collections::BTreeMap;

// Spearman's correlation of predicted and measured times over the 24 assignments, as observed
// (0.994, 0.978, 0.996, 0.981), rounded down.
const RHO_CYCLIC_RENDEZVOUS: f64 = 0.99;
const RHO_BLOCK_RENDEZVOUS: f64 = 0.97;
const RHO_CYCLIC_EAGER: f64 = 0.99;
const RHO_BLOCK_EAGER: f64 = 0.98;

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/smpi");

fn read(rel: &str) -> String {
    std::fs::read_to_string(format!("{FIXTURE}/{rel}")).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// SMPI's time per assignment (`h3 h2 h1 h0` = hosts of ranks 0..3), from a measured CSV.
fn measured(rel: &str) -> BTreeMap<String, f64> {
    read(rel)
        .lines()
        .skip(1)
        .map(|l| {
            let (a, t) = l.split_once(',').expect("assignment,time");
            (a.to_string(), t.parse().expect("time"))
        })
        .collect()
}

/// Ranks (0 = smallest) of `v`, ties sharing their mean rank.
fn ranks(v: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..v.len()).collect();
    order.sort_by(|&a, &b| v[a].total_cmp(&v[b]));
    let mut out = vec![0.0; v.len()];
    let mut i = 0;
    while i < order.len() {
        let mut j = i;
        while j + 1 < order.len() && v[order[j + 1]] == v[order[i]] {
            j += 1;
        }
        for &k in &order[i..=j] {
            out[k] = (i + j) as f64 / 2.0;
        }
        i = j + 1;
    }
    out
}

/// Spearman's rank correlation: Pearson's correlation of the ranks.
fn spearman(x: &[f64], y: &[f64]) -> f64 {
    let (rx, ry) = (ranks(x), ranks(y));
    let n = x.len() as f64;
    let (mx, my) = (rx.iter().sum::<f64>() / n, ry.iter().sum::<f64>() / n);
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for i in 0..x.len() {
        sxy += (rx[i] - mx) * (ry[i] - my);
        sxx += (rx[i] - mx) * (rx[i] - mx);
        syy += (ry[i] - my) * (ry[i] - my);
    }
    sxy / (sxx * syy).sqrt()
}

struct Figures {
    /// a = |t_n - t_m| / t_m.
    a: f64,
    rho: f64,
    predicted_best: String,
    measured_best: String,
}

/// Runs the engine on `scenario` with send protocol `protocol` and SMPI's times in `csv` as its
/// measured times, and compares its ranking of the 24 assignments with them.
fn compare(scenario: &str, csv: &str, protocol: &str) -> Figures {
    let mut doc: Value = serde_json::from_str(&read(scenario)).unwrap();
    doc["measured"] = Value::String(read(csv));
    doc["protocol"] = Value::String(protocol.into());
    let out =
        api::run(&doc.to_string(), &mut NoProgress).unwrap_or_else(|e| panic!("{scenario}: {e}"));
    let report: Value = serde_json::from_str::<Value>(&out).unwrap()["report"].clone();
    let truth = measured(csv);
    assert_eq!(
        truth.len(),
        24,
        "{csv}: every assignment of 4 ranks to 4 hosts"
    );
    let ranking = report["ranking"].as_array().expect("ranking");
    assert_eq!(
        ranking.len(),
        24,
        "{scenario}: the ranking lists all 24 assignments"
    );
    let predicted: BTreeMap<String, f64> = ranking
        .iter()
        .map(|r| {
            (
                r["hosts"].as_str().unwrap().to_string(),
                r["time"].as_f64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        predicted.keys().collect::<Vec<_>>(),
        truth.keys().collect::<Vec<_>>(),
        "{scenario}: the ranked assignments are the measured ones"
    );
    let predicted_best = ranking[0]["hosts"].as_str().unwrap().to_string();
    let (measured_best, t_m) = truth
        .iter()
        .min_by(|a, b| a.1.total_cmp(b.1).then(a.0.cmp(b.0)))
        .map(|(k, v)| (k.clone(), *v))
        .unwrap();
    let t_n = truth[&predicted_best];
    let a = (t_n - t_m).abs() / t_m;
    let keys: Vec<&String> = truth.keys().collect();
    let p: Vec<f64> = keys.iter().map(|k| predicted[*k]).collect();
    let m: Vec<f64> = keys.iter().map(|k| truth[*k]).collect();
    let rho = spearman(&p, &m);
    // the engine's own figures, from the same CSV, agree
    let rm = &report["measured"];
    assert_eq!(rm["rows"].as_u64(), Some(24), "{scenario}: measured rows");
    assert_eq!(rm["predictedBest"].as_str(), Some(predicted_best.as_str()));
    assert_eq!(rm["measuredBest"].as_str(), Some(measured_best.as_str()));
    assert!(
        (rm["a"].as_f64().unwrap() - a).abs() <= 1e-12,
        "{scenario}: reported a {} vs {a}",
        rm["a"]
    );
    assert!(
        (rm["rankCorrelation"].as_f64().unwrap() - rho).abs() <= 1e-9,
        "{scenario}: reported rank correlation {} vs {rho}",
        rm["rankCorrelation"]
    );
    println!(
        "{scenario} ({protocol}): predicted best {predicted_best} (SMPI {t_n:.6} s, predicted {:.6} s), \
         measured best {measured_best} ({t_m:.6} s): a = {:.2} %, rank correlation {rho:.3}",
        predicted[&predicted_best],
        a * 100.0
    );
    Figures {
        a,
        rho,
        predicted_best,
        measured_best,
    }
}

// The bounds below are the figures observed with the engine's rule (docs/format.md: the
// transfer starts when both calls are posted and ends at max(r, s) + c; rendezvous sends end
// there, eager sends at once), one-sided so that a closer model only passes more easily. SMPI's
// measured runs: `measured.csv` with `smpi/send-is-detached-thresh:0` (every send a
// rendezvous), `measured-eager.csv` with SMPI's default (messages under 64 KiB detached). The
// earlier rule, both calls ending at max(r, s + c), ranked the 24 assignments almost at random
// (correlation 0.09 to 0.61; a = 28 % on the block LU, 73 % eager).

#[test]
fn cyclic_lu_under_rendezvous_sends_finds_the_measured_best() {
    let f = compare(
        "lu-cyclic5/scenario.json",
        "lu-cyclic5/measured.csv",
        "rendezvous",
    );
    assert_eq!(f.predicted_best, f.measured_best);
    assert_eq!(f.a, 0.0);
    assert!(f.rho >= RHO_CYCLIC_RENDEZVOUS, "rank correlation {}", f.rho);
}

#[test]
fn block_lu_under_rendezvous_sends_finds_the_measured_best() {
    let f = compare(
        "lu-block/scenario.json",
        "lu-block/measured.csv",
        "rendezvous",
    );
    assert_eq!(f.predicted_best, f.measured_best);
    assert_eq!(f.a, 0.0);
    assert!(f.rho >= RHO_BLOCK_RENDEZVOUS, "rank correlation {}", f.rho);
}

#[test]
fn cyclic_lu_under_eager_sends_finds_the_measured_best() {
    let f = compare(
        "lu-cyclic5/scenario.json",
        "lu-cyclic5/measured-eager.csv",
        "eager",
    );
    assert_eq!(f.predicted_best, f.measured_best);
    assert_eq!(f.a, 0.0);
    assert!(f.rho >= RHO_CYCLIC_EAGER, "rank correlation {}", f.rho);
}

#[test]
fn block_lu_under_eager_sends_finds_the_measured_best() {
    let f = compare(
        "lu-block/scenario.json",
        "lu-block/measured-eager.csv",
        "eager",
    );
    assert_eq!(f.predicted_best, f.measured_best);
    assert_eq!(f.a, 0.0);
    assert!(f.rho >= RHO_BLOCK_EAGER, "rank correlation {}", f.rho);
}

#[test]
fn spearman_of_reversed_and_equal_orders() {
    assert_eq!(spearman(&[1.0, 2.0, 3.0], &[10.0, 20.0, 30.0]), 1.0);
    assert_eq!(spearman(&[1.0, 2.0, 3.0], &[3.0, 2.0, 1.0]), -1.0);
    assert_eq!(ranks(&[5.0, 1.0, 5.0]), vec![1.5, 0.0, 1.5]);
}

#[test]
fn playground_examples_are_the_fixture_scenarios() {
    for (example, scenario) in [
        ("trace-smpi-lu.json", "lu-block/scenario.json"),
        ("trace-smpi-lu-cyclic.json", "lu-cyclic5/scenario.json"),
        ("trace-smpi-jacobi.json", "jacobi/scenario.json"),
    ] {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/playground-examples/");
        let text = std::fs::read_to_string(format!("{path}{example}")).unwrap();
        assert_eq!(
            text,
            read(scenario),
            "{example} differs from {scenario}: run scripts/smpi-fixture.py"
        );
    }
}

// Programs with non-blocking calls and collectives (scripts/smpi/jacobi.c, fft.c, cg.c),
// measured under SMPI's default sends and replayed with protocol "size" (eager below 64 KiB)
// and SMPI's default collective algorithms: the goal is the predicted best within 5 % of the
// measured best and a rank correlation of at least 0.9.

fn nonblocking(folder: &str) -> Figures {
    let f = compare(
        &format!("{folder}/scenario.json"),
        &format!("{folder}/measured.csv"),
        "size",
    );
    assert!(f.a <= 0.05, "{folder}: a = {}", f.a);
    assert!(f.rho >= 0.9, "{folder}: rank correlation {}", f.rho);
    f
}

#[test]
fn a_jacobi_halo_exchange_with_isend_irecv_waitall_and_allreduce_is_ranked_as_smpi_runs_it() {
    nonblocking("jacobi");
}

#[test]
fn an_fft_transpose_with_alltoall_reduce_and_bcast_is_ranked_as_smpi_runs_it() {
    nonblocking("fft");
}

#[test]
fn a_cg_kernel_with_a_ring_halo_allreduce_and_allgather_is_ranked_as_smpi_runs_it() {
    nonblocking("cg");
}
