//! Trace-engine benchmarks: `cargo bench --bench trace`.
//!
//! 1. criterion: one replay of a generated 100,000-event trace (LU 4:2:1:1, 8 ranks), and one
//!    pass of 8 replays at once (`replay_lanes`), the branch and bound's unit of work.
//! 2. A summary on the same trace and 8 heterogeneous nodes: plain exhaustive search (all
//!    40,320 assignments, one replay each, the source's method) against branch and bound in
//!    the same run: time, assignments visited, replays, the ratio of times, and the check that
//!    both answer the same; the same for a balanced trace (LU block-cyclic), the hard case for
//!    any bound. Then 12 and 16 nodes (100,000-event traces of 12 and 16 ranks) under the
//!    default work budget and under the largest admitted one (1.99e9 steps, the rest of the
//!    2e9 admission limit going to the replays around the search): time, visited, whether
//!    proven, and the gap.

use criterion::{black_box, criterion_group, Criterion};
use placelab::trace::generate;
use placelab::trace::generate::{GenerateSpec, Program};
use placelab::trace::replay::{compile, Compiled, LaneTables, Platform, Tables, LANES};
use placelab::trace::scenario::DEFAULT_BUDGET;
use placelab::trace::search::{self, Problem};
use std::time::{Duration, Instant};

/// The smallest problem size whose trace has at least `events` events.
fn trace_of(program: Program, ranks: u32, events: u64) -> (Compiled, u32) {
    let spec = |size| GenerateSpec {
        program,
        size,
        ranks,
        width: 5,
        weights: None,
        iterations: 1,
    };
    let (mut lo, mut hi) = (1u32, 100_000u32);
    while lo < hi {
        let mid = (lo + hi) / 2;
        if generate::generate(&spec(mid), 5e8).events() >= events {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    (compile(&generate::generate(&spec(lo), 5e8)).unwrap(), lo)
}

/// `n` nodes: ratios 1 to about 6 with a few identical nodes, links of three kinds.
fn platform(n: usize) -> Platform {
    let ratio: Vec<f64> = (0..n)
        .map(|i| {
            1.0 + (i / 2 * 2) as f64 * 5.0 / n as f64
                + if i % 2 == 1 && i % 4 == 3 { 0.5 } else { 0.0 }
        })
        .collect();
    let mut a0 = vec![0.0; n * n];
    let mut a1 = vec![0.0; n * n];
    for u in 0..n {
        for v in 0..n {
            if u == v {
                continue;
            }
            let same_rack = u / 4 == v / 4;
            a0[u * n + v] = if same_rack { 5e-5 } else { 1.5e-4 };
            a1[u * n + v] = if same_rack {
                4e-8
            } else if (u + v) % 3 == 0 {
                3.4e-7
            } else {
                1.7e-7
            };
        }
    }
    Platform {
        n,
        ratio,
        a0,
        a1,
        cores: vec![1; n],
    }
}

fn bench(c: &mut Criterion) {
    let (t, _) = trace_of(Program::LuUneven, 8, 100_000);
    let p = platform(8);
    let mut tab = Tables::new(8);
    let assign: Vec<u8> = (0..8).collect();
    t.exact_tables(&p, &assign, &mut tab);
    let mut lanes = LaneTables::new(8);
    for l in 0..LANES {
        lanes.set_lane(&t, l, &tab);
    }
    let mut g = c.benchmark_group("trace");
    g.sample_size(20).measurement_time(Duration::from_secs(5));
    g.bench_function("replay 100k events, 8 ranks", |b| {
        let mut s = vec![0.0; t.scratch_len()];
        b.iter(|| black_box(t.replay(&tab, &mut s)))
    });
    g.bench_function("8 replays at once (lanes), 100k events", |b| {
        let mut s = vec![0.0; t.scratch_len() * LANES];
        let mut out = [0.0; LANES];
        b.iter(|| {
            t.replay_lanes(&lanes, &mut s, &mut out);
            black_box(out[0])
        })
    });
    // the same size with non-blocking calls and collectives: an 8-rank ring halo exchange
    // (isend, irecv, waitall) and an allreduce per iteration, about 100,000 events
    let mut text = String::new();
    for it in 0..1600 {
        for x in 0..8 {
            let (l, r) = ((x + 7) % 8, (x + 1) % 8);
            text.push_str(&format!(
                "{x} irecv {l} 1 4096 6\n{x} irecv {r} 1 4096 6\n{x} isend {l} 1 4096 6\n{x} isend {r} 1 4096 6\n{x} compute {}\n{x} waitall\n{x} allreduce 1 1e3 0\n",
                1e6 + 1e4 * ((x * 7 + it) % 5) as f64
            ));
        }
    }
    let mut nb = compile(&placelab::trace::ti::parse(&text, 5e8).unwrap()).unwrap();
    nb.set_protocol(placelab::trace::replay::Protocol::Size, 65536.0);
    let mut tab = Tables::new(8);
    nb.exact_tables(&p, &assign, &mut tab);
    let mut lanes = LaneTables::new(8);
    for l in 0..LANES {
        lanes.set_lane(&nb, l, &tab);
    }
    let events = nb.events;
    g.bench_function(
        format!("replay {events} events, non-blocking + allreduce, 8 ranks"),
        |b| {
            let mut s = vec![0.0; nb.scratch_len()];
            b.iter(|| black_box(nb.replay(&tab, &mut s)))
        },
    );
    g.bench_function(
        format!("8 replays at once (lanes), {events} events, non-blocking"),
        |b| {
            let mut s = vec![0.0; nb.scratch_len() * LANES];
            let mut out = [0.0; LANES];
            b.iter(|| {
                nb.replay_lanes(&lanes, &mut s, &mut out);
                black_box(out[0])
            })
        },
    );
    g.finish();
}

fn compare(name: &str, program: Program) {
    let (t, size) = trace_of(program, 8, 100_000);
    let p = platform(8);
    let prob = Problem::new(&t, &p);
    let t0 = Instant::now();
    let ex = search::exhaustive_with(&prob, 1, false, &mut |_| {});
    let te = t0.elapsed().as_secs_f64();
    let t1 = Instant::now();
    let bb = search::branch_and_bound(&prob, 1, u64::MAX);
    let tb = t1.elapsed().as_secs_f64();
    assert_eq!(
        ex.top.rows[0], bb.top.rows[0],
        "branch and bound must answer as exhaustive search"
    );
    println!(
        "{name} (order {size}, {} events, {} messages), 8 nodes: exhaustive {:.3} s, {} replays | branch and bound {:.3} s, visited {} ({} exact replays, {} bounds, {} pruned), proven {} | time ratio exhaustive/bb {:.1}x, visited ratio {:.1}x",
        t.events, t.messages, te, ex.stats.replays, tb, bb.stats.visited, bb.stats.replays,
        bb.stats.bound_replays, bb.stats.pruned, bb.proven, te / tb,
        ex.stats.visited as f64 / bb.stats.visited as f64
    );
}

fn large(n: usize, budget: f64) {
    let (t, size) = trace_of(Program::LuUneven, n as u32, 100_000);
    let p = platform(n);
    let prob = Problem::new(&t, &p);
    let t0 = Instant::now();
    let bb = search::branch_and_bound(&prob, 1, budget as u64);
    let tb = t0.elapsed().as_secs_f64();
    let best = bb.top.rows[0].time;
    println!(
        "LU 4:2:1:1 (order {size}, {} events), {n} nodes, budget {:.0e} steps: {:.3} s, visited {} of {:.3e} assignments, {} replays + {} bounds, stopped {}, proven {}, best {:.4} s, lower bound {:.4} s, gap {:.2} %",
        t.events, budget, tb, bb.stats.visited, search::assignments(n, n), bb.stats.replays,
        bb.stats.bound_replays, bb.stop.id(), bb.proven, best, bb.lower_bound,
        100.0 * (best - bb.lower_bound) / best
    );
}

fn summary() {
    compare("LU 4:2:1:1", Program::LuUneven);
    compare("LU block-cyclic", Program::LuCyclic);
    for budget in [DEFAULT_BUDGET, 1.99e9] {
        large(12, budget);
        large(16, budget);
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
