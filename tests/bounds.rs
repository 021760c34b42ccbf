//! Bounded work, memory, report size and progress.
//!
//! - The admission estimate is an upper bound of the work counters of real runs, on random small
//!   scenarios (work counted, never timed).
//! - Peak allocation stays within the memory estimate (a counting allocator, per thread), and
//!   admission keeps the estimate within its limit: so admitted scenarios stay in the budget.
//! - A 100,000-job generated stream with 6 policies on the biggest machine admitted gives a report
//!   within the byte cap whose counts are complete.
//! - Progress ticks are monotone, end at the total, and move through every phase of the run (each
//!   policy's simulation and report) in proportion to its estimated work.
//! - Every engine's estimate counts what its run does: four families an adversarial search once
//!   found admitted yet far over the budget (trace branch and bound on a short trace over many
//!   nodes, allocation's deep EASY queue on a large tree, moldable sets of many variants under a
//!   tight efficiency constraint, selection's four parts at once) are refused, and the
//!   estimate's model matches the run's counters on admitted neighbours.

use placelab::alloc::scenario::AllocScenario;
use placelab::alloc::{self, estimate};
use placelab::api;
use placelab::progress::{NoProgress, Progress};
use serde_json::{json, Value};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

thread_local! {
    static CURRENT: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

/// Counts the bytes each thread holds, and the peak since [`reset_peak`].
struct Counting;

fn account(delta: isize) {
    let _ = CURRENT.try_with(|c| {
        let now = c.get() + delta;
        c.set(now);
        let _ = PEAK.try_with(|p| p.set(p.get().max(now)));
    });
}

// SAFETY: forwards to the system allocator, only counting bytes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        account(l.size() as isize);
        System.alloc(l)
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        account(-(l.size() as isize));
        System.dealloc(p, l)
    }
    unsafe fn alloc_zeroed(&self, l: Layout) -> *mut u8 {
        account(l.size() as isize);
        System.alloc_zeroed(l)
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        account(new as isize - l.size() as isize);
        System.realloc(p, l, new)
    }
}

#[global_allocator]
static A: Counting = Counting;

/// Starts a peak measurement on this thread; returns the bytes held now.
fn reset_peak() -> isize {
    let now = CURRENT.with(Cell::get);
    PEAK.with(|p| p.set(now));
    now
}

fn peak_since(base: isize) -> f64 {
    (PEAK.with(Cell::get) - base) as f64
}

fn scenario_of(text: &str) -> AllocScenario {
    let env = placelab::scenario::parse_envelope(text, &["allocation"]).unwrap();
    placelab::scenario::parse_engine_fields(env.fields, &placelab::alloc::scenario::params())
        .unwrap()
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.below(xs.len() as u64) as usize]
    }
}

fn random_scenario(r: &mut Rng) -> Value {
    let system = if r.below(3) == 0 {
        let levels = 1 + r.below(3) as usize;
        let arities: Vec<u64> = (0..levels).map(|_| 2 + r.below(3)).collect();
        json!({"kind": "tree", "arities": arities, "coresPerNode": 1 + r.below(2)})
    } else {
        json!({"kind": "mesh", "width": 1 + r.below(24), "height": 1 + r.below(24),
            "coresPerNode": 1 + r.below(2)})
    };
    let all = [
        "sequential",
        "hilbert",
        "random",
        "closed-min-paper",
        "closed-min-best",
    ];
    let mut policies: Vec<&str> = Vec::new();
    for _ in 0..1 + r.below(3) {
        let p = r.pick(&all);
        if !policies.contains(&p) {
            policies.push(p);
        }
    }
    let fallback = r.pick(&["wait", "relax-minimal", "relax-closed"]);
    let backfill = r.pick(&["none", "easy"]);
    let workload = match r.below(3) {
        0 => json!({"kind": "generated", "count": 1 + r.below(300), "backfill": backfill,
            "minTasks": 1, "maxTasks": 1 + r.below(80),
            "sizeDistribution": r.pick(&["uniform", "logUniform", "powersOfTwo"]),
            "meanInterarrival": 1 + r.below(5), "meanDuration": 10 + r.below(200)}),
        k => {
            let jobs: Vec<Value> = (0..1 + r.below(60))
                .map(|_| {
                    let mut j = json!({"tasks": 1 + r.below(40),
                        "comm": r.pick(&["all", "neighbor", "none"])});
                    if k == 2 {
                        j["arrival"] = json!(r.below(50));
                        j["duration"] = json!(1 + r.below(100));
                    }
                    j
                })
                .collect();
            if k == 1 {
                json!({"kind": "set", "jobs": jobs})
            } else {
                json!({"kind": "stream", "backfill": backfill, "jobs": jobs})
            }
        }
    };
    json!({"version": 1, "engine": "allocation", "seed": r.below(1000), "system": system,
        "policies": policies, "fallback": fallback, "frames": r.below(40), "workload": workload})
}

/// The admission estimate bounds the measured work of every run (route steps and search steps
/// separately) and the peak memory, on random small scenarios of every kind.
#[test]
fn admission_estimate_bounds_measured_work_and_memory() {
    let mut r = Rng(0x5eed_1234_abcd_0001);
    let mut checked = 0;
    for case in 0..120 {
        let doc = random_scenario(&mut r);
        let text = doc.to_string();
        if api::check(&text).is_err() {
            continue; // e.g. a job larger than the machine
        }
        let s = scenario_of(&text);
        let topo = s.system.build().unwrap();
        let est = estimate::estimate(&s, &topo, &estimate::sizes_of(&s));
        let seed = doc["seed"].as_u64().unwrap();
        let base = reset_peak();
        let report = alloc::run(&s, seed, &mut NoProgress);
        let peak = peak_since(base);
        assert!(
            peak <= est.memory,
            "case {case}: peak {peak} bytes over the estimate {} ({text})",
            est.memory
        );
        for (run, p) in report.runs.iter().zip(&est.policies) {
            assert!(
                run.work.route_steps as f64 <= p.route_steps,
                "case {case} {}: {} route steps measured, {} estimated ({text})",
                run.policy,
                run.work.route_steps,
                p.route_steps
            );
            assert!(
                run.work.search_steps as f64 <= p.search_steps,
                "case {case} {}: {} search steps measured, {} estimated ({text})",
                run.policy,
                run.work.search_steps,
                p.search_steps
            );
        }
        checked += 1;
    }
    assert!(checked > 80, "only {checked} scenarios admitted");
}

/// Scenarios too large for the limits are refused before running, with the estimate.
#[test]
fn too_much_work_is_refused_before_running_with_the_estimate() {
    let doc = json!({"version": 1, "engine": "allocation",
        "system": {"kind": "mesh", "width": 512, "height": 512}, "policies": ["random"],
        "workload": {"kind": "generated", "count": 100000, "backfill": "easy"}});
    let e = api::check(&doc.to_string()).unwrap_err().to_string();
    assert!(e.contains("$.workload"), "{e}");
    assert!(e.contains("refused before running: estimated"), "{e}");
    assert!(e.contains("s natively ("), "{e}");
    assert!(e.contains("the limit is 10 s"), "{e}");
}

/// Large admitted runs peak within their memory estimate, which admission keeps under the
/// limit: a saturated stream on the largest mesh and a set of many jobs.
#[test]
fn large_admitted_runs_peak_within_the_memory_budget() {
    let cases = [
        json!({"version": 1, "engine": "allocation", "seed": 3,
            "system": {"kind": "mesh", "width": 512, "height": 512},
            "policies": ["closed-min-best", "sequential"], "frames": 200,
            "workload": {"kind": "generated", "count": 60, "backfill": "easy", "maxTasks": 8192,
                "meanInterarrival": 1, "meanDuration": 1000}}),
        json!({"version": 1, "engine": "allocation", "seed": 4,
            "system": {"kind": "mesh", "width": 64, "height": 64},
            "policies": ["random", "hilbert"],
            "workload": {"kind": "generated", "count": 4000, "backfill": "easy", "maxTasks": 128,
                "meanInterarrival": 1, "meanDuration": 100}}),
    ];
    for doc in cases {
        let text = doc.to_string();
        api::check(&text).unwrap();
        let s = scenario_of(&text);
        let topo = s.system.build().unwrap();
        let est = estimate::estimate(&s, &topo, &estimate::sizes_of(&s));
        assert!(est.memory <= estimate::MAX_MEMORY);
        let base = reset_peak();
        let out = api::run(&text, &mut NoProgress).unwrap();
        let peak = peak_since(base);
        assert!(
            peak <= est.memory,
            "peak {peak} over the estimate {}",
            est.memory
        );
        assert!(peak < 1024.0 * 1024.0 * 1024.0);
        drop(out);
    }
}

/// The case: a generated 100,000-job stream with 6 policies on the biggest machine
/// admitted. The report stays within the byte cap; every run counts every job, keeps the first
/// rows and says how many it left out.
#[test]
fn reports_stay_within_the_byte_cap_with_complete_counts() {
    let policies = [
        "sequential",
        "hilbert",
        "random",
        "closed-min-paper",
        "closed-min-best",
        "closed-min-naive",
    ];
    let make = |side: u64| {
        json!({"version": 1, "engine": "allocation", "seed": 1,
            "system": {"kind": "mesh", "width": side, "height": side},
            "policies": policies, "frames": 1000,
            "workload": {"kind": "generated", "count": 100000}})
        .to_string()
    };
    let side = (1..=512u64)
        .rev()
        .find(|&s| api::check(&make(s)).is_ok())
        .expect("some machine is admitted");
    let text = api::run(&make(side), &mut NoProgress).unwrap();
    assert!(
        text.len() <= alloc::REPORT_BYTE_CAP,
        "{side}x{side}: report of {} bytes",
        text.len()
    );
    let r: Value = serde_json::from_str(&text).unwrap();
    for run in r["report"]["runs"].as_array().unwrap() {
        let jobs = run["jobs"].as_array().unwrap();
        let omitted = run["omitted"]["jobRows"].as_u64().unwrap() as usize;
        assert_eq!(jobs.len() + omitted, 100_000);
        assert!(omitted > 0, "the cap bites in this case");
        // the first rows are the ones kept
        assert!(jobs
            .iter()
            .enumerate()
            .all(|(i, j)| j["id"].as_u64() == Some(i as u64)));
        let s = &run["summary"];
        assert_eq!(
            s["placed"].as_u64().unwrap() + s["unplaced"].as_u64().unwrap(),
            100_000
        );
    }
}

/// A smaller cap keeps the same accounting: rows kept plus rows omitted is every job, and the
/// summary does not change with the cap.
#[test]
fn capped_rows_keep_the_summary_unchanged() {
    let text = json!({"version": 1, "engine": "allocation", "seed": 2,
        "system": {"kind": "mesh", "width": 16, "height": 16},
        "policies": ["sequential", "closed-min-best"],
        "workload": {"kind": "generated", "count": 2000, "backfill": "easy"}})
    .to_string();
    let s = scenario_of(&text);
    let full = alloc::run(&s, 2, &mut NoProgress);
    let capped = alloc::run_capped(&s, 2, &mut NoProgress, alloc::FRAME_BYTES + (400 << 10));
    for (f, c) in full.runs.iter().zip(&capped.runs) {
        assert_eq!(f.omitted.job_rows, 0);
        assert!(c.omitted.job_rows > 0);
        assert_eq!(c.jobs.len() + c.omitted.job_rows, 2000);
        assert_eq!(
            serde_json::to_string(&f.summary).unwrap(),
            serde_json::to_string(&c.summary).unwrap()
        );
    }
}

struct Recorder(Vec<(u64, u64)>);
impl Progress for Recorder {
    fn tick(&mut self, done: u64, total: u64) {
        self.0.push((done, total));
    }
}

/// Progress is monotone, ends at the total, and moves through every phase (each policy's
/// simulation, then its contention sweep and rows) within that phase's share, the shares being
/// the phases' estimated work.
#[test]
fn progress_moves_through_every_phase_in_proportion_to_its_work() {
    let text = json!({"version": 1, "engine": "allocation", "seed": 5,
        "system": {"kind": "mesh", "width": 24, "height": 24},
        "policies": ["random", "closed-min-best", "sequential"],
        "workload": {"kind": "generated", "count": 3000, "backfill": "easy", "maxTasks": 40,
            "meanInterarrival": 1, "meanDuration": 100}})
    .to_string();
    let mut rec = Recorder(Vec::new());
    api::run(&text, &mut rec).unwrap();
    let ticks = rec.0;
    let total = ticks[0].1;
    assert!(ticks.iter().all(|t| t.1 == total), "one total throughout");
    assert!(ticks.windows(2).all(|w| w[0].0 <= w[1].0), "monotone");
    assert_eq!(ticks.last().unwrap().0, total, "ends at the total");

    let s = scenario_of(&text);
    let topo = s.system.build().unwrap();
    let phases = alloc::progress_phases(&s, &topo, 3000);
    let sum: u64 = phases.iter().map(|p| p.0 + p.1).sum();
    assert_eq!(sum, total);
    // the shares follow the estimate: random's footprints make its phases the largest
    let est = estimate::estimate(&s, &topo, &estimate::sizes_of(&s));
    for (p, e) in phases.iter().zip(&est.policies) {
        let share = (p.0 + p.1) as f64 / total as f64;
        let expected = e.steps() / est.steps();
        assert!(
            (share - expected).abs() < 0.05,
            "{:?}: share {share}, estimated work {expected}",
            e.policy
        );
    }
    // every phase is reported from inside its range, in order: the bar neither waits at a
    // phase's start nor reaches its end early
    let mut base = 0;
    for &(sim, rep) in &phases {
        for (from, span) in [(base, sim), (base + sim, rep)] {
            let inside: Vec<u64> = ticks
                .iter()
                .map(|t| t.0)
                .filter(|&d| d > from && d < from + span)
                .collect();
            assert!(
                inside.len() >= 4,
                "phase [{from}, {}) got {} ticks",
                from + span,
                inside.len()
            );
        }
        base += sim + rep;
    }
    // nothing of the last policy's share is reached before its simulation starts
    let last_start = sum - phases.last().map_or(0, |p| p.0 + p.1);
    let before_last: Vec<u64> = ticks
        .iter()
        .map(|t| t.0)
        .take_while(|&d| d <= last_start)
        .collect();
    assert!(before_last.iter().all(|&d| d <= last_start));
    assert!(before_last.len() < ticks.len());
}

/// `n` nodes of unequal ratios 1.0, 1.37, 1.74, ... with one default link.
fn unequal_nodes(n: usize) -> Value {
    Value::Array(
        (0..n)
            .map(|i| json!({"name": format!("n{i}"), "ratio": 1.0 + 0.37 * i as f64}))
            .collect(),
    )
}

fn matmul_on_64(search: Value) -> String {
    json!({"version": 1, "engine": "trace", "seed": 1,
        "generate": {"program": "matmul", "size": 1000, "ranks": 16},
        "nodes": unequal_nodes(64), "defaultLink": {"a0": 1e-4, "a1": 1e-8}, "search": search})
    .to_string()
}

/// Trace, branch and bound on a short trace over many nodes: the default budget's replay steps
/// are few, its search nodes many (each fills the relaxed tables of 64 x 64 node pairs), and
/// the estimate counts them: refused. On an admitted budget the run's counters stay within
/// the estimate's model: children replayed (exactly or relaxed) at most its search nodes,
/// replay steps at most its work.
#[test]
fn branch_and_bound_over_many_nodes_counts_its_search_nodes() {
    use placelab::trace::scenario::{build_unadmitted, estimate, search_nodes};
    let refused = matmul_on_64(json!({"method": "branchAndBound"}));
    let e = api::check(&refused).unwrap_err();
    assert_eq!(e.path, "$.search", "{e}");
    assert!(e.message.contains("search nodes"), "{e}");
    assert!(api::estimate(&refused).unwrap().seconds() > placelab::engine::MAX_SECONDS);
    // the largest budget, 32 ranks: refused too
    let big = refused.replace("\"ranks\":16", "\"ranks\":32").replace(
        "\"method\":\"branchAndBound\"",
        "\"method\":\"branchAndBound\",\"budget\":2e9",
    );
    assert!(api::check(&big).is_err());

    let text = matmul_on_64(json!({"method": "branchAndBound", "budget": 200000}));
    api::check(&text).unwrap();
    let (meta, s) =
        placelab::engines::admit_text::<placelab::trace::TracePrediction>(&text).unwrap();
    let b = build_unadmitted(&s).unwrap();
    let est = estimate(&s, &b);
    let out = placelab::trace::search(&s, &b, meta.seed, &mut |_| {});
    let children = (out.stats.replays + out.stats.bound_replays) as f64;
    assert!(children > 100.0, "{:?}", out.stats);
    assert!(
        children <= search_nodes(&s, &b),
        "{children} children, model {}",
        search_nodes(&s, &b)
    );
    assert!((out.stats.steps as f64) <= est.work, "{:?}", out.stats);
}

fn deep_easy_tree(policies: Value, count: u64) -> String {
    json!({"version": 1, "engine": "allocation", "seed": 1,
        "system": {"kind": "tree", "arities": [8, 8, 8, 8, 8, 8]}, "policies": policies,
        "fallback": "wait", "frames": 0,
        "workload": {"kind": "generated", "count": count, "backfill": "easy", "minTasks": 1,
            "maxTasks": 262144, "sizeDistribution": "powersOfTwo", "meanInterarrival": 0.0,
            "meanDuration": 1000.0, "backfillDepth": 100000}})
    .to_string()
}

/// Allocation, EASY with a deep queue on a 262,144-node tree: the footprints of big jobs are
/// capped by the tree's routers and links, their sorts are not, and the estimate counts the
/// sorts: refused with both policies and with each alone. An admitted neighbour's estimate
/// holds the sort term of every job's footprints and bounds the run's counters.
#[test]
fn a_deep_easy_queue_on_a_large_tree_counts_its_footprint_sorts() {
    for policies in [
        json!(["hilbert", "sequential"]),
        json!(["hilbert"]),
        json!(["sequential"]),
    ] {
        let text = deep_easy_tree(policies, 1293);
        let e = api::check(&text).unwrap_err();
        assert_eq!(e.path, "$.workload", "{e}");
        assert!(e.message.contains("the limit is 10 s"), "{e}");
    }
    let text = deep_easy_tree(json!(["sequential"]), 8);
    api::check(&text).unwrap();
    let s = scenario_of(&text);
    let topo = s.system.build().unwrap();
    let sizes = estimate::sizes_of(&s);
    let est = estimate::estimate(&s, &topo, &sizes);
    let sorts = 4.0 * sizes.sum(|k| estimate::tree_footprint_sort(k, 6.0));
    assert!(sorts > 0.0);
    assert!(est.policies[0].search_steps >= sorts);
    let r = alloc::run(&s, 1, &mut NoProgress);
    let w = r.runs[0].work;
    assert!(w.route_steps as f64 <= est.policies[0].route_steps);
    assert!(w.search_steps as f64 <= est.policies[0].search_steps);
}

/// `m` jobs of 16 variants each (seeded), weights 0.5 to 1.
fn sixteen_variant_jobs(m: usize) -> Value {
    let mut r = Rng(0x9e37_79b9_7f4a_7c15);
    Value::Array(
        (0..m)
            .map(|_| {
                let vs: Vec<Value> = (0..16)
                    .map(|v| {
                        json!({"ranks": 1 + r.below(1024), "time": 1.0 + r.below(99_000) as f64 / 1000.0,
                            "weight": if v == 0 { 1.0 } else { 0.5 + r.below(500) as f64 / 1000.0 }})
                    })
                    .collect();
                json!({"variants": vs})
            })
            .collect(),
    )
}

fn many_variants(m: usize, cycles: u64, efficiency: Option<f64>) -> String {
    let mut doc = json!({"version": 1, "engine": "moldable", "seed": 1, "machines": 1024,
        "jobs": sixteen_variant_jobs(m),
        "ga": {"population": 256, "cycles": cycles, "parts": 64, "islands": 16,
            "exchangeEvery": 1}});
    if let Some(w) = efficiency {
        doc["efficiency"] = json!(w);
    }
    doc.to_string()
}

/// Moldable, the shelf decoder with 16 variants per job under a 0.97 efficiency constraint,
/// a population of 256 on 16 islands exchanging every cycle: each child's repair sorts the jobs
/// by relative weight, each comparison scanning the variants, and the estimate counts it:
/// refused. The repair term is exactly the difference the constraint makes, per evaluation.
#[test]
fn many_variants_under_an_efficiency_constraint_count_their_repairs() {
    use placelab::moldable::scenario::{estimate_work, evaluations, instance, repair_steps};
    let text = many_variants(5136, 1000, Some(0.97));
    let e = api::check(&text).unwrap_err();
    assert!(
        e.message.contains("refused before running: estimated"),
        "{e}"
    );
    assert!(e.message.contains("the limit is 10 s"), "{e}");
    // the estimate's model: the constraint adds one repair per evaluation
    let with = many_variants(300, 10, Some(0.97));
    let without = many_variants(300, 10, None);
    let (_, sw) = placelab::engines::admit_text::<placelab::moldable::Moldable>(&with).unwrap();
    let (_, so) = placelab::engines::admit_text::<placelab::moldable::Moldable>(&without).unwrap();
    let (iw, io) = (instance(&sw, 0).unwrap(), instance(&so, 0).unwrap());
    let repair = repair_steps(&iw);
    // 16 variants, 300 jobs, a constraint above a random choice's mean: V m + 2 V m log2 m + V m
    let m = 300.0f64;
    assert!((repair - (32.0 * m * m.log2() + 32.0 * m)).abs() < 1e-6 * repair);
    assert_eq!(repair_steps(&io), 0.0);
    let diff = estimate_work(&iw, &sw) - estimate_work(&io, &so);
    assert!((diff - evaluations(&sw) as f64 * repair).abs() < 1e-9 * diff.abs().max(1.0));
}

/// The four parts of a selection, each at a size admitted alone.
fn select_parts(stations: bool, subsystem: bool, layouts: bool, reservation: bool) -> String {
    let mut doc = json!({"version": 1, "engine": "select", "seed": 1});
    if stations {
        let f = "sqrt(P + 3) * log(P + 2) / (P + 1) + ".repeat(45) + "1";
        doc["stations"] = Value::Array(
            (0..3000)
                .map(|i| json!({"name": format!("W{i}"), "load": [0.01 * (i % 50) as f64, 0.01 * (i % 50) as f64 + 0.05]}))
                .collect(),
        );
        doc["model"] = json!({"preset": "custom", "N": 1000, "ts": f, "tc": f, "tr": f, "to": f});
    }
    let mut all = json!({});
    if subsystem {
        all["subsystem"] = json!({"objective": "distance", "m": 24,
            "hierarchy": {"arities": [2, 2, 4, 8], "values": [8, 4, 2, 1]},
            "exactNodes": 100_000_000u64});
    }
    if layouts {
        all["layouts"] = json!({"ranks": [2400, 2399, 2398, 2397], "nodes": 4096,
            "socketsPerNode": 2, "coresPerSocket": 8});
    }
    if subsystem || layouts {
        doc["alltoall"] = all;
    }
    if reservation {
        doc["reservation"] = json!({"stations": 1000,
            "initiators": (0..100).map(|i| json!({"start": i, "wants": 8, "threshold": 0.5, "holdFor": 60})).collect::<Vec<_>>(),
            "delay": {"min": 1, "max": 8}, "loss": 0.05, "maxSteps": 20_000_000u64,
            "maxTime": 1_000_000_000u64});
    }
    doc.to_string()
}

/// Selection, all four parts at once: each part is admitted alone, and admission sums them (a
/// scenario runs every part it asks for, one after another): refused together, with every part
/// named; the whole estimate is exactly the sum of the parts' alone.
#[test]
fn a_selection_of_four_parts_sums_their_estimates() {
    let alone = [
        select_parts(true, false, false, false),
        select_parts(false, true, false, false),
        select_parts(false, false, true, false),
        select_parts(false, false, false, true),
    ];
    let mut sum = placelab::engine::Estimate::zero();
    for text in &alone {
        api::check(text).unwrap();
        sum = sum.plus(api::estimate(text).unwrap());
    }
    let together = select_parts(true, true, true, true);
    let est = api::estimate(&together).unwrap();
    assert!((est.seconds() - sum.seconds()).abs() <= 1e-9 * sum.seconds());
    assert_eq!(est.work, sum.work);
    assert!(est.seconds() > placelab::engine::MAX_SECONDS);
    let e = api::check(&together).unwrap_err();
    for part in [
        "stations",
        "alltoall.subsystem",
        "alltoall.layouts",
        "reservation",
    ] {
        assert!(e.message.contains(part), "{part}: {e}");
    }
}

/// The estimate is cheap, pure and the same as admission sees it: every example and every
/// engine's sample is admitted, with an estimate within the budget; estimating twice gives the
/// same numbers.
#[test]
fn every_example_and_sample_is_admitted_within_the_budget() {
    let mut texts = api::sample_scenarios();
    for entry in std::fs::read_dir("playground-examples").unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "json") {
            texts.push(std::fs::read_to_string(path).unwrap());
        }
    }
    assert!(texts.len() > 40);
    for text in &texts {
        api::check(text).unwrap_or_else(|e| panic!("{e}: {}", &text[..text.len().min(200)]));
        let est = api::estimate(text).unwrap();
        assert!(est.seconds() <= placelab::engine::MAX_SECONDS, "{est:?}");
        assert!(est.bytes <= placelab::engine::MAX_BYTES, "{est:?}");
        assert_eq!(api::estimate(text).unwrap(), est);
    }
}

/// A placement run's simulations share one budget of recomputed flows
/// (`place::run::RUN_SIM_BUDGET`): eight cases of a FULL job of 1 MB messages scattered over a
/// 16^3 torus were admitted at an estimated 4.2 s and ran 32.8 s, each simulation stopping only
/// at its own budget. Now the run stops simulating once the budget is spent, and the cases
/// after say so; every case still has its row.
#[test]
fn a_placement_runs_simulations_share_one_budget() {
    let text = json!({
        "version": 1, "engine": "place", "seed": 1,
        "system": {"kind": "torus3d", "x": 16, "y": 16, "z": 16},
        "job": {"kind": "FULL", "processes": 150, "messageBytes": 1048576, "rounds": 10},
        "strategies": ["random"],
        "sweep": {"processes": [150, 151, 152, 153, 154, 155, 156, 157]}
    })
    .to_string();
    api::check(&text).expect("admitted");
    let report: Value = serde_json::from_str(&api::run(&text, &mut NoProgress).unwrap()).unwrap();
    let cases = report["report"]["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 8);
    let reasons: Vec<&str> = cases
        .iter()
        .map(|c| c["runs"][0]["reason"].as_str().unwrap_or(""))
        .collect();
    let spent = reasons
        .iter()
        .filter(|r| r.contains("the run's simulations have recomputed"))
        .count();
    assert!(
        (1..8).contains(&spent),
        "the run's budget stops the later cases, not the first: {reasons:?}"
    );
    // once spent, it stays spent: the cases that say so are the last ones
    assert!(reasons[8 - spent..]
        .iter()
        .all(|r| r.contains("the run's simulations have recomputed")));
}
