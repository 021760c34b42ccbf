//! Moldable benchmarks: `cargo bench --bench moldable`.
//!
//! 1. criterion: one GA run (shelf decoder, K = 16, V = 100) on the source's smallest set
//!    (n = 1024, m = 1000), and FFDH on the same set, the baseline of the same run.
//! 2. A summary at the source's scale (K = 16, w = 75 %, P = 90 %, G = 2, V = 1000): for each
//!    n and m, FFDH, BFDH and the GA (the source's shelf decoder) on a seeded random set, the
//!    improvement `delta = (T_heuristic - T) / T` printed beside the source's average of 45 %;
//!    then guillotine sets of known optimum H, makespan / H of FFDH, BFDH and the GA with the
//!    shelf and the list decoder. Every figure is a ratio against a baseline of the same run.
//!    `MOLDABLE_BENCH_FULL=1` runs all of n = 1024, 4096, 16384, 65536 x m = 1000, 2000, 3000
//!    (slow); by default n = 1024 and 65536 with m = 1000 and 3000.

use criterion::{black_box, criterion_group, Criterion};
use placelab::moldable::ga::{self, GaParams};
use placelab::moldable::model::Instance;
use placelab::moldable::scenario::Decoder;
use placelab::moldable::shelf::{self, Packer};
use placelab::moldable::{generate, guillotine};
use std::time::{Duration, Instant};

fn random(n: u32, m: u32) -> Instance {
    Instance {
        machines: n,
        jobs: generate::random_set(n, m, 3, 1),
        efficiency: Some(0.75),
        optimum: None,
    }
}

fn cut(n: u32, m: u32, h: u32) -> Instance {
    Instance {
        machines: n,
        jobs: guillotine::generate(n, h, m, 3, 1),
        efficiency: None,
        optimum: Some(h as f64),
    }
}

fn bench(c: &mut Criterion) {
    let inst = random(1024, 1000);
    let mut g = c.benchmark_group("moldable");
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    g.bench_function("ffdh n=1024 m=1000", |b| {
        b.iter(|| shelf::pack_starts(&inst, &inst.preferred_variants(), Packer::Ffdh).1)
    });
    g.bench_function("ga shelf K=16 V=100 n=1024 m=1000", |b| {
        let p = GaParams {
            cycles: 100,
            ..GaParams::default()
        };
        b.iter(|| black_box(ga::run(&inst, p, 1, &mut |_, _| {}).best.makespan))
    });
    g.finish();
}

fn summary() {
    let full = std::env::var_os("MOLDABLE_BENCH_FULL").is_some();
    let ns: &[u32] = if full {
        &[1024, 4096, 16384, 65536]
    } else {
        &[1024, 65536]
    };
    let ms: &[u32] = if full {
        &[1000, 2000, 3000]
    } else {
        &[1000, 3000]
    };
    println!(
        "\nGA (shelf decoder, K=16, V=1000) vs FFDH/BFDH on random sets; source: 45 % on average"
    );
    println!(
        "{:>6} {:>5} {:>9} {:>9} {:>9} {:>8} {:>8} {:>8} {:>8} {:>8}",
        "n", "m", "T_FFDH", "T_BFDH", "T_GA", "delta1", "delta2", "GA s", "FFDH ms", "GA/FFDH"
    );
    let mut deltas = Vec::new();
    for &n in ns {
        for &m in ms {
            let inst = random(n, m);
            let t0 = Instant::now();
            let ff = shelf::pack_starts(&inst, &inst.preferred_variants(), Packer::Ffdh).1;
            let ff_time = t0.elapsed().as_secs_f64();
            let bf = shelf::pack_starts(&inst, &inst.preferred_variants(), Packer::Bfdh).1;
            let t0 = Instant::now();
            let out = ga::run(&inst, GaParams::default(), 1, &mut |_, _| {});
            let ga_time = t0.elapsed().as_secs_f64();
            let t = out.best.makespan;
            let (d1, d2) = ((bf - t) / t, (ff - t) / t);
            deltas.push((d1 + d2) / 2.0);
            println!("{n:>6} {m:>5} {ff:>9} {bf:>9} {t:>9} {:>7.1}% {:>7.1}% {ga_time:>8.2} {:>8.2} {:>7.0}x",
                d1 * 100.0, d2 * 100.0, ff_time * 1e3, ga_time / ff_time);
        }
    }
    let mean = deltas.iter().sum::<f64>() / deltas.len() as f64;
    println!(
        "mean improvement over FFDH/BFDH: {:.1} % (source: 45 %)",
        mean * 100.0
    );
    println!("\nGuillotine sets (optimum H = 1000): makespan / H");
    println!(
        "{:>6} {:>5} {:>7} {:>7} {:>9} {:>9} {:>8} {:>8}",
        "n", "m", "FFDH", "BFDH", "GA shelf", "GA list", "shelf s", "list s"
    );
    for &n in ns {
        for &m in ms {
            let inst = cut(n, m, 1000);
            let h = 1000.0;
            let pref = inst.preferred_variants();
            let ff = shelf::pack_starts(&inst, &pref, Packer::Ffdh).1;
            let bf = shelf::pack_starts(&inst, &pref, Packer::Bfdh).1;
            let t0 = Instant::now();
            let gs = ga::run(&inst, GaParams::default(), 1, &mut |_, _| {})
                .best
                .makespan;
            let ts = t0.elapsed().as_secs_f64();
            let t0 = Instant::now();
            let p = GaParams {
                decoder: Decoder::List,
                ..GaParams::default()
            };
            let gl = ga::run(&inst, p, 1, &mut |_, _| {}).best.makespan;
            let tl = t0.elapsed().as_secs_f64();
            println!(
                "{n:>6} {m:>5} {:>7.3} {:>7.3} {:>9.3} {:>9.3} {ts:>8.2} {tl:>8.2}",
                ff / h,
                bf / h,
                gs / h,
                gl / h
            );
        }
    }
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
