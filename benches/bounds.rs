//! The worst admitted scenarios, per policy and fallback: `cargo bench --bench bounds`.
//!
//! For every policy and fallback, and for a few machines (512 x 512, 141 x 141 and 32 x 32
//! meshes, a 4096-node tree), a saturating generated EASY stream (job sizes uniform up to 1/32 of
//! the machine, arrivals every second on average, 1000 s mean duration, seed 1) is given as many
//! jobs as the admission check accepts (at most 100,000). Each is run natively and the table
//! prints its estimate, the measured work counters, the time and the peak memory (a counting
//! global allocator): admitted scenarios must finish in under 30 s and peak under 1 GB, and a new
//! engine or policy shows up here without a change to this file's logic beyond its id.
//!
//! The partitioning engine gets the same treatment: for every generated graph kind and for three
//! method sets (all five methods at k = 64; the quality mode alone at k = 64; k-way at the
//! largest k, 4,096), the largest graph admission accepts (binary search over the vertex count)
//! is built and partitioned, and its time and peak memory printed.
//!
//! The moldable engine: for families that stress its estimate (one machine, so every job opens
//! its own shelf and a decoding costs `m^2 / 2`; the list decoder's profile; tiny sets with the
//! largest population, cycles and islands, where per-evaluation overheads dominate; the source's
//! scale), the most GA cycles admission accepts (binary search) are run and timed.
//!
//! The trace engine: for the generated LU programs on 16 heterogeneous nodes at the largest
//! budget (1.99e9 replay steps), and for plain exhaustive search on 8 nodes, the longest
//! trace admission accepts (binary search over the problem size) is searched and timed.
//!
//! `BOUNDS_ONLY=moldable` (or `trace`, or `partition`) runs that section alone;
//! `BOUNDS_KINDS=binaryTree,star` limits the partitioning section to those graph kinds.
//! `BOUNDS_QUICK=1` limits the run to the 141 x 141 mesh and the partitioning of Delaunay meshes. `BOUNDS_SCENARIO=file.json` instead
//! runs one scenario file *without* the admission check (to profile what admission refuses) and
//! prints its estimate, work, time and peak memory.

use placelab::alloc::scenario::{AllocScenario, Fallback, PolicyId};
use placelab::alloc::{estimate, scenario};
use placelab::api;
use placelab::progress::NoProgress;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

struct Counting;
static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

/// Runs `f`, returning its result, its wall time in seconds and the peak heap it added (bytes).
fn measured<T>(f: impl FnOnce() -> T) -> (T, f64, usize) {
    let base = CURRENT.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let t = Instant::now();
    let out = f();
    let secs = t.elapsed().as_secs_f64();
    (out, secs, PEAK.load(Ordering::Relaxed) - base)
}

fn grow(n: usize) {
    let now = CURRENT.fetch_add(n, Ordering::Relaxed) + n;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

// SAFETY: forwards to the system allocator, only counting bytes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        grow(l.size());
        System.alloc(l)
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        CURRENT.fetch_sub(l.size(), Ordering::Relaxed);
        System.dealloc(p, l)
    }
    unsafe fn alloc_zeroed(&self, l: Layout) -> *mut u8 {
        grow(l.size());
        System.alloc_zeroed(l)
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        if new > l.size() {
            grow(new - l.size());
        } else {
            CURRENT.fetch_sub(l.size() - new, Ordering::Relaxed);
        }
        System.realloc(p, l, new)
    }
}

#[global_allocator]
static A: Counting = Counting;

fn doc(
    system: &serde_json::Value,
    nodes: usize,
    policy: &str,
    fallback: &str,
    count: usize,
) -> String {
    serde_json::json!({
        "version": 1, "engine": "allocation", "seed": 1, "system": system,
        "policies": [policy], "fallback": fallback,
        "workload": {"kind": "generated", "count": count, "backfill": "easy", "minTasks": 1,
            "maxTasks": (nodes / 32).max(1), "sizeDistribution": "uniform",
            "meanInterarrival": 1, "meanDuration": 1000}
    })
    .to_string()
}

/// The largest admitted job count (binary search over what `check` accepts), if any.
fn largest_admitted(make: &dyn Fn(usize) -> String) -> Option<usize> {
    largest_in(1, scenario::MAX_JOBS as u64, &|x| make(x as usize)).map(|x| x as usize)
}

fn scenario_of(text: &str) -> AllocScenario {
    let env = placelab::scenario::parse_envelope(text, &["allocation"]).unwrap();
    placelab::scenario::parse_engine_fields(env.fields, &placelab::alloc::scenario::params())
        .unwrap()
}

fn run_file(path: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    let s = scenario_of(&text);
    let topo = s.system.build().unwrap();
    let est = estimate::estimate(&s, &topo, &scenario::sizes_of(&s));
    let seed = serde_json::from_str::<serde_json::Value>(&text).unwrap()["seed"]
        .as_u64()
        .unwrap_or(0);
    // the run and its report's serialization, timed together
    let ((r, bytes), secs, peak) = measured(|| {
        let r = placelab::alloc::run(&s, seed, &mut NoProgress);
        let bytes = serde_json::to_string(&r).unwrap().len();
        (r, bytes)
    });
    for run in &r.runs {
        let w = run.work;
        println!(
            "{path} {}: route {} search {} steps {:.2e}",
            run.policy,
            w.route_steps,
            w.search_steps,
            estimate::ROUTE_STEP_WEIGHT * w.route_steps as f64 + w.search_steps as f64
        );
    }
    println!(
        "{path}: estimated {:.2e} steps, {:.0} MiB; ran {secs:.2} s, peak {:.1} MiB, report {:.2} MiB",
        est.steps(),
        est.memory / 1048576.0,
        peak as f64 / 1048576.0,
        bytes as f64 / 1048576.0
    );
}

/// A generated partitioning scenario of about `n` vertices (grids and cubes: the nearest square
/// and cube sides).
fn partition_doc(kind: &str, n: u64, k: u64, methods: &[&str]) -> String {
    let graph = match kind {
        "grid2d" => {
            let side = (n as f64).sqrt().floor().max(1.0) as u64;
            serde_json::json!({"kind": kind, "width": side, "height": side})
        }
        "cube3d" => {
            let side = (n as f64).cbrt().floor().max(1.0) as u64;
            serde_json::json!({"kind": kind, "width": side, "height": side, "depth": side})
        }
        _ => serde_json::json!({"kind": kind, "n": n}),
    };
    serde_json::json!({"version": 1, "engine": "partition", "seed": 1, "graph": graph, "k": k,
        "methods": methods})
    .to_string()
}

/// The largest vertex count admission accepts for `make` (binary search), if any.
fn largest_admitted_n(make: &dyn Fn(u64) -> String) -> Option<u64> {
    largest_in(2, placelab::partition::scenario::MAX_VERTICES, make)
}

/// The largest `x` in `lo..=hi` whose scenario `make(x)` admission accepts (binary search:
/// admission is monotone in `x`), or none when it refuses `lo`.
fn largest_in(lo: u64, hi: u64, make: &dyn Fn(u64) -> String) -> Option<u64> {
    if api::check(&make(lo)).is_err() {
        return None;
    }
    let (mut lo, mut hi) = (lo, hi);
    if api::check(&make(hi)).is_ok() {
        return Some(hi);
    }
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if api::check(&make(mid)).is_ok() {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(lo)
}

/// Prints the worst time and peak memory of a section against the goals.
fn print_worst(section: &str, (secs, peak): (f64, usize)) {
    println!(
        "worst admitted {section}: {secs:.2} s, {:.1} MiB peak (goals: under 30 s and 1024 MiB)",
        peak as f64 / 1048576.0
    );
}

/// The worst admitted partitioning scenarios; returns the worst time and peak.
fn partition_bounds(quick: bool) -> (f64, usize) {
    let kinds: &[&str] = if quick {
        &["delaunay"]
    } else {
        &[
            "grid2d",
            "cube3d",
            "binaryTree",
            "star",
            "complete",
            "geometric",
            "delaunay",
        ]
    };
    let wanted = std::env::var("BOUNDS_KINDS").unwrap_or_default();
    let kinds: Vec<&str> = kinds
        .iter()
        .copied()
        .filter(|k| wanted.is_empty() || wanted.split(',').any(|w| w == *k))
        .collect();
    let sets: [(&str, u64, &[&str]); 3] = [
        (
            "all five, k=64",
            64,
            &["kway", "rb", "strong", "linear", "random"],
        ),
        ("strong, k=64", 64, &["strong"]),
        ("kway, k=4096", 4096, &["kway"]),
    ];
    println!(
        "\n{:<11} {:<16} {:>9} {:>10} {:>8} {:>9} {:>8}",
        "graph", "methods", "vertices", "edges", "time s", "peak MiB", "rep MiB"
    );
    let (mut worst_time, mut worst_peak) = (0.0f64, 0usize);
    for kind in &kinds {
        for (label, k, methods) in sets {
            let make = |n: u64| partition_doc(kind, n, k, methods);
            let Some(n) = largest_admitted_n(&make) else {
                println!("{kind:<11} {label:<16} refused even with 2 vertices");
                continue;
            };
            let text = make(n);
            let (report, secs, peak) = measured(|| api::run(&text, &mut NoProgress).unwrap());
            let v: serde_json::Value = serde_json::from_str(&report).unwrap();
            let g = &v["report"]["graph"];
            worst_time = worst_time.max(secs);
            worst_peak = worst_peak.max(peak);
            println!(
                "{kind:<11} {label:<16} {:>9} {:>10} {secs:>8.2} {:>9.1} {:>8.2}",
                g["vertices"],
                g["edges"],
                peak as f64 / 1048576.0,
                report.len() as f64 / 1048576.0
            );
        }
    }
    (worst_time, worst_peak)
}

/// A moldable scenario of `m` generated jobs on `n` machines with `v` GA cycles.
fn moldable_doc(kind: &str, n: u32, m: u32, decoder: &str, k: u32, islands: u32, v: u32) -> String {
    serde_json::json!({"version": 1, "engine": "moldable", "seed": 1, "machines": n,
        "generate": {"kind": kind, "jobs": m, "maxVariants": 3},
        "ga": {"population": k, "cycles": v, "decoder": decoder, "islands": islands}})
    .to_string()
}

/// The worst admitted moldable scenarios; returns the worst time and peak.
fn moldable_bounds() -> (f64, usize) {
    use placelab::moldable::scenario::{MAX_CYCLES, MAX_ISLANDS, MAX_JOBS, MAX_POPULATION};
    let max_jobs = MAX_JOBS as u32;
    // (label, kind, n, m, decoder, K, islands)
    let families: Vec<(&str, &str, u32, u32, &str, u32, u32)> = vec![
        ("n=1 shelf", "random", 1, max_jobs, "shelf", 16, 1),
        ("n=1 shelf", "random", 1, 2000, "shelf", 16, 1),
        ("n=2 list", "random", 2, max_jobs, "list", 16, 1),
        ("n=2 list", "random", 2, 2000, "list", 16, 1),
        ("n=64 list", "random", 64, 3000, "list", 16, 1),
        ("source", "random", 1024, 3000, "shelf", 16, 1),
        ("source", "random", 65536, 3000, "shelf", 16, 1),
        ("guillotine", "guillotine", 1024, 1000, "list", 16, 1),
        (
            "tiny shelf",
            "random",
            64,
            2,
            "shelf",
            MAX_POPULATION,
            MAX_ISLANDS,
        ),
        (
            "tiny list",
            "random",
            64,
            2,
            "list",
            MAX_POPULATION,
            MAX_ISLANDS,
        ),
        (
            "small list",
            "random",
            64,
            20,
            "list",
            MAX_POPULATION,
            MAX_ISLANDS,
        ),
        (
            "big pop",
            "random",
            1024,
            4000,
            "list",
            MAX_POPULATION,
            MAX_ISLANDS,
        ),
    ];
    // BOUNDS_MOLDABLE_BUDGET=steps: the most cycles whose estimate stays under this budget
    // instead of the admission limit (to calibrate the estimate: seconds per step per family)
    let budget: Option<f64> = std::env::var("BOUNDS_MOLDABLE_BUDGET")
        .ok()
        .and_then(|b| b.parse().ok());
    let fits = |text: &str| {
        api::check(text).is_ok()
            && budget.is_none_or(|b| {
                let p = prepare_moldable(text).unwrap();
                placelab::moldable::scenario::estimate_work(&p.inst, &p.scenario) <= b
            })
    };
    println!(
        "\n{:<11} {:>6} {:>6} {:>7} {:>4} {:>3} {:>7} {:>9} {:>8} {:>9} {:>7}",
        "moldable",
        "n",
        "m",
        "decoder",
        "K",
        "I",
        "cycles",
        "est steps",
        "time s",
        "peak MiB",
        "ns/step"
    );
    let (mut worst_time, mut worst_peak, mut worst_ns) = (0.0f64, 0usize, 0.0f64);
    for (label, kind, n, m, decoder, k, islands) in families {
        let make = |v: u32| moldable_doc(kind, n, m, decoder, k, islands, v);
        if !fits(&make(0)) {
            println!("{label:<11} {n:>6} {m:>6} {decoder:>7} {k:>4} {islands:>3} refused even with 0 cycles");
            continue;
        }
        let (mut lo, mut hi) = (0u32, MAX_CYCLES);
        if fits(&make(hi)) {
            lo = hi;
        }
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if fits(&make(mid)) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        let text = make(lo);
        let p = prepare_moldable(&text).unwrap();
        let est = placelab::moldable::scenario::estimate_work(&p.inst, &p.scenario);
        let ((), secs, peak) = measured(|| {
            api::run(&text, &mut NoProgress).unwrap();
        });
        worst_time = worst_time.max(secs);
        worst_peak = worst_peak.max(peak);
        worst_ns = worst_ns.max(secs * 1e9 / est);
        println!(
            "{label:<11} {n:>6} {m:>6} {decoder:>7} {k:>4} {islands:>3} {lo:>7} {est:>9.2e} {secs:>8.2} {:>9.1} {:>7.3}",
            peak as f64 / 1048576.0,
            secs * 1e9 / est
        );
    }
    println!("slowest family: {worst_ns:.3} ns per estimated step");
    (worst_time, worst_peak)
}

/// A trace scenario: generated `program` of order `size` on `n` ranks and `n` nodes (ratios 1
/// to about 6, links of three kinds, as `benches/trace.rs`), searched by `method`.
fn trace_doc(program: &str, size: u64, n: usize, method: &str, budget: f64) -> String {
    let nodes: Vec<serde_json::Value> = (0..n)
        .map(|i| {
            let ratio =
                1.0 + (i / 2 * 2) as f64 * 5.0 / n as f64 + if i % 4 == 3 { 0.5 } else { 0.0 };
            serde_json::json!({"name": format!("n{i}"), "ratio": ratio})
        })
        .collect();
    let mut links = Vec::new();
    for u in 0..n {
        for v in 0..n {
            if u != v {
                let rack = u / 4 == v / 4;
                let a1 = if rack {
                    4e-8
                } else if (u + v) % 3 == 0 {
                    3.4e-7
                } else {
                    1.7e-7
                };
                links.push(
                    serde_json::json!({"from": format!("n{u}"), "to": format!("n{v}"),
                    "a0": if rack { 5e-5 } else { 1.5e-4 }, "a1": a1}),
                );
            }
        }
    }
    serde_json::json!({"version": 1, "engine": "trace", "seed": 1, "referenceRate": 5e8,
        "generate": {"program": program, "size": size, "ranks": n, "width": 5, "iterations": 1},
        "nodes": nodes, "links": links, "search": {"method": method, "budget": budget}})
    .to_string()
}

/// The worst admitted trace scenarios; returns the worst time and peak.
fn trace_bounds() -> (f64, usize) {
    let cases: [(&str, usize, &str, f64); 4] = [
        ("luUneven", 16, "branchAndBound", 1.99e9),
        ("luCyclic", 16, "branchAndBound", 1.99e9),
        ("luUneven", 12, "branchAndBound", 1.99e9),
        ("luUneven", 8, "exhaustive", 1.0),
    ];
    println!(
        "\n{:<9} {:>5} {:<15} {:>9} {:>6} {:>9} {:>8} {:>6} {:>8} {:>9}",
        "trace",
        "nodes",
        "method",
        "budget",
        "size",
        "events",
        "time s",
        "proven",
        "gap %",
        "peak MiB"
    );
    let (mut worst_time, mut worst_peak) = (0.0f64, 0usize);
    for (program, n, method, budget) in cases {
        let make = |size: u64| trace_doc(program, size, n, method, budget);
        let Some(size) = largest_in(2, 100_000, &make) else {
            println!("{program:<9} {n:>5} {method:<15} refused even at order 2");
            continue;
        };
        let text = make(size);
        let (report, secs, peak) = measured(|| api::run(&text, &mut NoProgress).unwrap());
        let v: serde_json::Value = serde_json::from_str(&report).unwrap();
        let r = &v["report"];
        worst_time = worst_time.max(secs);
        worst_peak = worst_peak.max(peak);
        println!(
            "{program:<9} {n:>5} {method:<15} {budget:>9.2e} {size:>6} {:>9} {secs:>8.2} {:>6} {:>8.2} {:>9.1}",
            r["trace"]["events"],
            r["search"]["proven"],
            r["search"]["gap"].as_f64().unwrap_or(0.0) * 100.0,
            peak as f64 / 1048576.0
        );
    }
    (worst_time, worst_peak)
}

fn main() {
    if let Ok(path) = std::env::var("BOUNDS_SCENARIO") {
        return run_file(&path);
    }
    let only = std::env::var("BOUNDS_ONLY").unwrap_or_default();
    if only == "trace" {
        print_worst("trace", trace_bounds());
        return;
    }
    if only == "partition" {
        print_worst(
            "partitioning",
            partition_bounds(std::env::var("BOUNDS_QUICK").is_ok()),
        );
        return;
    }
    if only == "moldable" {
        print_worst("moldable", moldable_bounds());
        return;
    }
    let quick = std::env::var("BOUNDS_QUICK").is_ok();
    let mut systems: Vec<(&str, serde_json::Value, usize)> = vec![(
        "mesh 141x141",
        serde_json::json!({"kind": "mesh", "width": 141, "height": 141}),
        141 * 141,
    )];
    if !quick {
        systems.insert(
            0,
            (
                "mesh 512x512",
                serde_json::json!({"kind": "mesh", "width": 512, "height": 512}),
                512 * 512,
            ),
        );
        systems.push((
            "mesh 32x32",
            serde_json::json!({"kind": "mesh", "width": 32, "height": 32}),
            1024,
        ));
        systems.push((
            "tree [8,8,8,8]",
            serde_json::json!({"kind": "tree", "arities": [8, 8, 8, 8]}),
            4096,
        ));
    }
    let (policies, fallbacks) = (PolicyId::ALL, Fallback::ALL);
    println!(
        "{:<16} {:<14} {:<15} {:>7} {:>9} {:>9} {:>8} {:>9} {:>8}",
        "policy",
        "fallback",
        "machine",
        "jobs",
        "est steps",
        "measured",
        "time s",
        "peak MiB",
        "rep MiB"
    );
    let mut worst_time: f64 = 0.0;
    let mut worst_peak: usize = 0;
    for policy in policies {
        for fallback in fallbacks {
            if !policy.is_closed() && fallback != Fallback::Wait {
                continue; // the fallback only applies to closed-min policies
            }
            for (label, system, nodes) in &systems {
                let make = |c: usize| doc(system, *nodes, policy.id(), fallback.id(), c);
                let Some(count) = largest_admitted(&make) else {
                    println!(
                        "{:<16} {:<14} {:<15} refused even with one job",
                        policy.id(),
                        fallback.id(),
                        label
                    );
                    continue;
                };
                let text = make(count);
                let s = scenario_of(&text);
                let topo = s.system.build().unwrap();
                let est = estimate::estimate(&s, &topo, &scenario::sizes_of(&s));
                let (report, secs, peak) = measured(|| api::run(&text, &mut NoProgress).unwrap());
                // the work counters of the same run (run again without the envelope)
                let r = placelab::alloc::run(&s, 1, &mut NoProgress);
                let w = r.runs[0].work;
                let measured =
                    estimate::ROUTE_STEP_WEIGHT * w.route_steps as f64 + w.search_steps as f64;
                worst_time = worst_time.max(secs);
                worst_peak = worst_peak.max(peak);
                println!(
                    "{:<16} {:<14} {:<15} {:>7} {:>9.2e} {:>9.2e} {:>8.2} {:>9.1} {:>8.2}",
                    policy.id(),
                    fallback.id(),
                    label,
                    count,
                    est.steps(),
                    measured,
                    secs,
                    peak as f64 / 1048576.0,
                    report.len() as f64 / 1048576.0
                );
            }
        }
    }
    print_worst("allocation", (worst_time, worst_peak));
    print_worst("partitioning", partition_bounds(quick));
    print_worst("moldable", moldable_bounds());
    print_worst("trace", trace_bounds());
}

/// Admits moldable scenario text as the dispatcher does and prepares its islands.
fn prepare_moldable(text: &str) -> placelab::error::Result<placelab::moldable::parallel::Prepared> {
    let (meta, scenario) = placelab::engines::admit_text::<placelab::moldable::Moldable>(text)?;
    placelab::moldable::parallel::prepare(meta, scenario)
}
