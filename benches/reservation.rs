//! Reservation-protocol benchmark (criterion): `cargo bench --bench reservation`.
//!
//! The case: 1,000 stations and 50 initiators (starts spread over 2,000 ticks, each
//! wanting 5 to 40 stations under a load threshold of 0.8, delays 1 to 20, 1 % loss, leases of
//! 200), in both modes (the paper's broadcast and ordered claims). The baseline, measured in the
//! same run: the same shape scaled down to 100 stations and 5 initiators. The summary prints
//! events per second and the time ratio to the baseline (work grows as stations x initiators,
//! so a ratio near 100 means the per-event cost stayed flat).

use criterion::{criterion_group, Criterion};
use placelab::progress::NoProgress;
use placelab::rng::Rng;
use placelab::select::reservation::{simulate, ReservationReport, ReservationSpec};
use placelab::select::scenario::validate_reservation as validate;
use std::time::{Duration, Instant};

fn case(stations: u32, initiators: u32, ordered: bool) -> ReservationSpec {
    let mut rng = Rng::seeded(2024);
    let loads: Vec<f64> = (0..stations).map(|_| rng.unit_f64()).collect();
    let inits: Vec<serde_json::Value> = (0..initiators)
        .map(|_| {
            serde_json::json!({
                "start": rng.below(2000),
                "wants": (5 + rng.below(36)) * u64::from(stations) / 1000 + 1,
                "threshold": 0.8,
                "holdFor": 200 + rng.below(800)
            })
        })
        .collect();
    let s: ReservationSpec = serde_json::from_value(serde_json::json!({
        "stations": stations,
        "loads": loads,
        "initiators": inits,
        "delay": {"min": 1, "max": 20},
        "loss": 0.01,
        "maxEvents": 5000,
        "maxTime": 50_000,
        "fixes": {"orderedClaims": ordered, "leaseTimeout": 200}
    }))
    .unwrap();
    validate(&s, "").unwrap();
    s
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("reservation");
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    for ordered in [false, true] {
        let mode = if ordered { "ordered" } else { "broadcast" };
        let big = case(1000, 50, ordered);
        let small = case(100, 5, ordered);
        g.bench_function(format!("1000 stations 50 initiators {mode}"), |b| {
            b.iter(|| simulate(&big, 1, &mut NoProgress))
        });
        g.bench_function(format!("100 stations 5 initiators {mode}"), |b| {
            b.iter(|| simulate(&small, 1, &mut NoProgress))
        });
    }
    g.finish();
}

fn time_it(s: &ReservationSpec, reps: u32) -> (f64, ReservationReport) {
    let mut best = f64::INFINITY;
    let mut last = None;
    for _ in 0..reps {
        let t = Instant::now();
        let r = simulate(s, 1, &mut NoProgress);
        best = best.min(t.elapsed().as_secs_f64());
        last = Some(r);
    }
    (best, last.unwrap())
}

fn summary() {
    println!("\nsummary (best of 3, this machine):");
    for ordered in [false, true] {
        let mode = if ordered {
            "ordered claims"
        } else {
            "broadcast"
        };
        let (tb, rb) = time_it(&case(1000, 50, ordered), 3);
        let (ts, rs) = time_it(&case(100, 5, ordered), 3);
        let done = rb.outcomes.iter().filter(|o| o.status == "done").count();
        println!(
            "  {mode}: 1000 x 50: {:.1} ms, {} events ({:.2} M events/s), {done}/50 done, double allocation: {}",
            tb * 1e3,
            rb.counts.steps,
            rb.counts.steps as f64 / tb / 1e6,
            rb.checks.double_allocation
        );
        println!(
            "  {mode}: baseline 100 x 5: {:.2} ms, {} events ({:.2} M events/s); time ratio {:.1}x for {:.1}x the events",
            ts * 1e3,
            rs.counts.steps,
            rs.counts.steps as f64 / ts / 1e6,
            tb / ts,
            rb.counts.steps as f64 / rs.counts.steps as f64
        );
    }
}

criterion_group!(benches, bench);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
    if std::env::args().any(|a| a == "--bench") {
        summary();
    }
}
