//! Partitioner benchmarks (criterion): `cargo bench --bench partition`.
//!
//! On a 2D Delaunay mesh of 10,000 random points (seed 1), a 100 x 100 grid and a binary tree of
//! 10,000 vertices (sparse: k-way re-bisects pairs of parts on its coarse levels), k = 8 and 64:
//! multilevel k-way (default effort) beside the quality mode and the linear baseline, measured in
//! the same run. After criterion's statistics, a summary prints each method's cut and time and
//! the ratios (quality mode / default, default / linear). The comparison with METIS and KaHIP is
//! `scripts/bench-partition.py`.

use criterion::{criterion_group, Criterion};
use placelab::partition::generate::{generate, GenKind, GenSpec};
use placelab::partition::{metrics, partition, Effort, Graph, Method, Options};
use placelab::progress::NoProgress;
use std::time::{Duration, Instant};

fn graphs() -> Vec<(&'static str, Graph)> {
    let spec = |kind, n, dims| GenSpec {
        kind,
        n,
        dims,
        wrap: false,
        radius: None,
    };
    vec![
        (
            "delaunay-10000",
            generate(&spec(GenKind::Delaunay, 10_000, [0, 0, 0]), 1)
                .unwrap()
                .graph,
        ),
        (
            "grid2d-100x100",
            generate(&spec(GenKind::Grid2d, 0, [100, 100, 1]), 1)
                .unwrap()
                .graph,
        ),
        (
            "tree-10000",
            generate(&spec(GenKind::BinaryTree, 10_000, [0, 0, 0]), 1)
                .unwrap()
                .graph,
        ),
    ]
}

fn opts(k: u32, method: Method, effort: Effort) -> Options {
    Options {
        k,
        method,
        effort,
        ..Options::default()
    }
}

const RUNS: [(&str, Method, Effort); 3] = [
    ("kway", Method::Kway, Effort::Default),
    ("kway-strong", Method::Kway, Effort::Strong),
    ("linear", Method::Linear, Effort::Default),
];

fn bench(c: &mut Criterion) {
    let mut grp = c.benchmark_group("partition");
    grp.sample_size(10).measurement_time(Duration::from_secs(5));
    for (name, g) in graphs() {
        for k in [8u32, 64] {
            for (label, method, effort) in RUNS {
                let o = opts(k, method, effort);
                grp.bench_function(format!("{name} k={k} {label}"), |b| {
                    b.iter(|| partition(&g, &o, &mut NoProgress))
                });
            }
        }
    }
    grp.finish();
}

/// Best time of `reps` runs and the cut.
fn time_it(g: &Graph, o: &Options, reps: u32) -> (f64, u64) {
    let mut best = f64::INFINITY;
    let mut cut = 0;
    for _ in 0..reps {
        let t = Instant::now();
        let out = partition(g, o, &mut NoProgress);
        best = best.min(t.elapsed().as_secs_f64());
        cut = metrics::edge_cut(g, &out.part);
    }
    (best, cut)
}

fn summary() {
    println!("\nsummary (best of 3 runs, this machine):");
    for (name, g) in graphs() {
        for k in [8u32, 64] {
            let (t_d, c_d) = time_it(&g, &opts(k, Method::Kway, Effort::Default), 3);
            let (t_s, c_s) = time_it(&g, &opts(k, Method::Kway, Effort::Strong), 3);
            let (t_l, c_l) = time_it(&g, &opts(k, Method::Linear, Effort::Default), 3);
            println!(
                "  {name} k={k}: default cut {c_d} in {t_d:.4} s; strong cut {c_s} in {t_s:.4} s \
                 (cut x{:.3}, time x{:.1}); linear cut {c_l} in {t_l:.4} s (default/linear cut {:.3})",
                c_s as f64 / c_d.max(1) as f64,
                t_s / t_d,
                c_d as f64 / c_l.max(1) as f64
            );
        }
    }
}

criterion_group!(benches, bench);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
    // `cargo test --all-targets` runs benches once as smoke tests, without `--bench`.
    if std::env::args().any(|a| a == "--bench") {
        summary();
    }
}
