//! Allocation benchmarks (criterion): `cargo bench --bench allocation`.
//!
//! 1. The 10,000-job stream on a 256 x 256 mesh under `closed-min (best)`
//!    (`benches/scenarios/stream-10k-256.json`): decisions per second.
//! 2. The same stream's first 300 jobs under `closed-min (best)` (bitset search) and
//!    `closed-min (naive rescan)` (same choices, every cell of every origin): the speedup, measured
//!    in the same run. Both make identical decisions (tested in tests/allocation.rs).
//!
//! After criterion's own statistics, a summary prints the figures as ratios.

use criterion::{criterion_group, Criterion};
use placelab::api;
use placelab::progress::NoProgress;
use std::time::{Duration, Instant};

const STREAM: &str = include_str!("scenarios/stream-10k-256.json");

fn with(policy: &str, count: usize) -> String {
    let mut doc: serde_json::Value = serde_json::from_str(STREAM).unwrap();
    doc["policies"] = serde_json::json!([policy]);
    doc["workload"]["count"] = serde_json::json!(count);
    doc.to_string()
}

fn decisions(report: &str) -> u64 {
    let v: serde_json::Value = serde_json::from_str(report).unwrap();
    v["report"]["runs"][0]["summary"]["decisions"]
        .as_u64()
        .unwrap()
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("allocation");
    g.sample_size(10).measurement_time(Duration::from_secs(20));
    g.bench_function("stream-10k-256 closed-min-best", |b| {
        b.iter(|| api::run(STREAM, &mut NoProgress).unwrap())
    });
    let best = with("closed-min-best", 300);
    let naive = with("closed-min-naive", 300);
    g.bench_function("stream-300-256 closed-min-best", |b| {
        b.iter(|| api::run(&best, &mut NoProgress).unwrap())
    });
    g.bench_function("stream-300-256 closed-min-naive", |b| {
        b.iter(|| api::run(&naive, &mut NoProgress).unwrap())
    });
    g.finish();
}

fn time_it(text: &str, reps: u32) -> (f64, u64) {
    let mut best = f64::INFINITY;
    let mut d = 0;
    for _ in 0..reps {
        let t = Instant::now();
        let r = api::run(text, &mut NoProgress).unwrap();
        best = best.min(t.elapsed().as_secs_f64());
        d = decisions(&r);
    }
    (best, d)
}

fn summary() {
    let (t_full, d_full) = time_it(STREAM, 3);
    let (t_best, d_best) = time_it(&with("closed-min-best", 300), 3);
    let (t_naive, d_naive) = time_it(&with("closed-min-naive", 300), 1);
    assert_eq!(d_best, d_naive, "same choices, same number of decisions");
    println!("\nsummary (best of runs, this machine):");
    println!("  10,000-job stream on 256x256, closed-min-best: {t_full:.3} s, {d_full} decisions, {:.0} decisions/s", d_full as f64 / t_full);
    println!(
        "  first 300 jobs, bitset search: {t_best:.4} s ({:.0} decisions/s)",
        d_best as f64 / t_best
    );
    println!(
        "  first 300 jobs, naive rescan:  {t_naive:.4} s ({:.0} decisions/s)",
        d_naive as f64 / t_naive
    );
    println!(
        "  speedup of the bitset search over the naive rescan: {:.1}x",
        t_naive / t_best
    );
}

criterion_group!(benches, bench);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
    // `cargo test --all-targets` runs benches once as smoke tests, without `--bench`
    if std::env::args().any(|a| a == "--bench") {
        summary();
    }
}
