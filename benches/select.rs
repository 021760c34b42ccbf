//! Selection benchmarks (criterion): `cargo bench --bench select`.
//!
//! 1. The `T(P)` curve over 10,000 stations with a user formula (the work done per keystroke
//!    in the page): the compiled, constant-folded program, against two baselines in the same
//!    run: walking the parse tree with names looked up by text, and re-parsing per `P`. Also
//!    the whole engine run (parse, validate, select, report JSON).
//! 2. Subsystem selection, N = 64, M = 12 on an 8 x 8 torus: the exact branch and bound (proven
//!    optimal) and the heuristic; plain enumeration of every subset against the branch and
//!    bound on a smaller case (N = 24, M = 8, 735,471 subsets).
//!
//! After criterion's own statistics, a summary prints the figures as ratios.

use criterion::{black_box, criterion_group, Criterion};
use placelab::api;
use placelab::progress::NoProgress;
use placelab::select::expr::{self, Constants};
use placelab::select::scenario::Objective;
use placelab::select::subsystem::{self, Weights};
use std::time::{Duration, Instant};

const Q: usize = 10_000;
/// A user's `To(P)` as typed in the page.
const FORMULA: &str = "nstep * (N / P) * (3 * t_mult + 4 * t_add) + 2 * nstep * (alpha + 8 * beta) * log2(P) + sqrt(P) * alpha";

fn constants() -> Constants {
    [
        ("N", 100_000.0),
        ("alpha", 5.38),
        ("beta", 0.00286),
        ("nstep", 760.0),
        ("t_mult", 0.000285),
        ("t_add", 0.000285),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect()
}

fn curve_compiled(c: &Constants) -> f64 {
    let prog = expr::compile(FORMULA, c).unwrap();
    let mut scratch = Vec::with_capacity(prog.stack_len());
    (1..=Q).map(|p| prog.eval(p as f64, &mut scratch)).sum()
}

fn curve_tree(c: &Constants) -> f64 {
    let e = expr::parse(FORMULA).unwrap();
    (1..=Q).map(|p| e.eval_tree(p as f64, c)).sum()
}

fn curve_reparse(c: &Constants) -> f64 {
    (1..=Q)
        .map(|p| expr::parse(FORMULA).unwrap().eval_tree(p as f64, c))
        .sum()
}

/// A 10,000-station scenario whose four terms are user formulas.
fn scenario_10k() -> String {
    let mut rng = placelab::rng::Rng::seeded(7);
    let stations: Vec<serde_json::Value> = (0..Q)
        .map(|_| serde_json::json!({"load": rng.in_range(0, 90) as f64 / 100.0}))
        .collect();
    serde_json::json!({"version": 1, "engine": "select", "stations": stations,
        "model": {"preset": "custom", "N": 100000, "nstep": 760,
            "ts": "P * (alpha + 8 * beta * N / P)", "tc": "2 * nstep * (alpha + 8 * beta) * log2(P)",
            "tr": "P * (alpha + 8 * beta * N / P)", "to": FORMULA}})
    .to_string()
}

fn torus(n: usize) -> Vec<Vec<f64>> {
    let d = |a: usize, b: usize| a.abs_diff(b).min(n - a.abs_diff(b));
    (0..n * n)
        .map(|i| {
            (0..n * n)
                .map(|j| (d(i / n, j / n) + d(i % n, j % n)) as f64)
                .collect()
        })
        .collect()
}

/// A seeded random distance matrix with values 1..=6.
#[allow(clippy::needless_range_loop)] // reads or writes both [i][j] and [j][i]
fn random_matrix(n: usize, seed: u64) -> Vec<Vec<f64>> {
    let mut rng = placelab::rng::Rng::seeded(seed);
    let mut m = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in i + 1..n {
            let v = 1.0 + rng.in_range(0, 5) as f64;
            m[i][j] = v;
            m[j][i] = v;
        }
    }
    m
}

fn exact(wt: &Weights, m: usize) -> subsystem::Exact {
    let (h, _) = subsystem::heuristic(wt, m);
    subsystem::exact(wt, m, &h, u64::MAX, &mut |_| {})
}

fn bench(c: &mut Criterion) {
    let k = constants();
    let text = scenario_10k();
    let mut g = c.benchmark_group("select-curve");
    g.sample_size(20).measurement_time(Duration::from_secs(5));
    g.bench_function("10k compiled", |b| b.iter(|| curve_compiled(black_box(&k))));
    g.bench_function("10k tree-walk", |b| b.iter(|| curve_tree(black_box(&k))));
    g.bench_function("10k re-parse", |b| b.iter(|| curve_reparse(black_box(&k))));
    g.bench_function("10k engine run", |b| {
        b.iter(|| api::run(&text, &mut NoProgress).unwrap())
    });
    g.finish();
    let t64 = Weights::from_matrix(&torus(8), Objective::Distance);
    let small = Weights::from_matrix(&random_matrix(24, 3), Objective::Distance);
    let mut g = c.benchmark_group("select-subsystem");
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    g.bench_function("torus64 m12 exact", |b| b.iter(|| exact(&t64, 12)));
    g.bench_function("torus64 m12 heuristic", |b| {
        b.iter(|| subsystem::heuristic(&t64, 12))
    });
    g.bench_function("n24 m8 exact", |b| b.iter(|| exact(&small, 8)));
    g.bench_function("n24 m8 enumeration", |b| {
        b.iter(|| subsystem::brute_force(&small, 8))
    });
    g.finish();
}

/// Best of `runs` wall times of `f` in seconds.
fn best_of<T>(runs: u32, mut f: impl FnMut() -> T) -> f64 {
    (0..runs)
        .map(|_| {
            let t = Instant::now();
            black_box(f());
            t.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

fn summary() {
    let k = constants();
    let text = scenario_10k();
    let compiled = best_of(20, || curve_compiled(&k));
    let tree = best_of(10, || curve_tree(&k));
    let reparse = best_of(5, || curve_reparse(&k));
    let run = best_of(5, || api::run(&text, &mut NoProgress).unwrap());
    println!("select summary (best of several runs, this machine):");
    println!("  T(P) over {Q} stations, one user formula: compiled {:.3} ms, tree-walk {:.3} ms ({:.1}x), re-parse per P {:.3} ms ({:.1}x)",
        compiled * 1e3, tree * 1e3, tree / compiled, reparse * 1e3, reparse / compiled);
    println!(
        "  whole engine run, 4 formulas x {Q} stations (parse, select, report JSON): {:.2} ms",
        run * 1e3
    );
    let t64 = Weights::from_matrix(&torus(8), Objective::Distance);
    let e = exact(&t64, 12);
    let te = best_of(3, || exact(&t64, 12));
    let th = best_of(3, || subsystem::heuristic(&t64, 12));
    let (h, _) = subsystem::heuristic(&t64, 12);
    println!(
        "  torus 8x8, M = 12: exact {:.3} s ({} nodes, proven {}), heuristic {:.3} s, gap {:.3} %",
        te,
        e.nodes,
        e.proven,
        th,
        subsystem::gap_percent(t64.cost(&h), t64.cost(&e.set))
    );
    let r64 = Weights::from_matrix(&random_matrix(64, 3), Objective::Distance);
    let t = Instant::now();
    let e = exact(&r64, 12);
    println!(
        "  random 1..6 distances, N = 64, M = 12: exact {:.3} s ({} nodes, proven {})",
        t.elapsed().as_secs_f64(),
        e.nodes,
        e.proven
    );
    let small = Weights::from_matrix(&random_matrix(24, 3), Objective::Distance);
    let tb = best_of(3, || exact(&small, 8));
    let tf = best_of(2, || subsystem::brute_force(&small, 8));
    println!(
        "  N = 24, M = 8: branch and bound {:.4} s, enumeration of 735,471 subsets {:.4} s ({:.0}x)",
        tb,
        tf,
        tf / tb
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
