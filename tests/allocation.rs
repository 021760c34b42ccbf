//! Allocation engine, end to end through the public dispatcher: the invariants and theorems of
//! the allocation model (`docs/engines/allocation.md`) checked on the reports, with routes
//! computed independently of the engine's footprint code.

use placelab::alloc::scenario::{Fallback, PolicyId};
use placelab::api;
use placelab::progress::NoProgress;
use placelab::topology::{Mesh, Topology, Tree};
use proptest::prelude::*;
use serde_json::{json, Value};
use std::collections::BTreeSet;

fn run(doc: &Value) -> Value {
    let text = api::run(&doc.to_string(), &mut NoProgress).unwrap_or_else(|e| panic!("{e}\n{doc}"));
    serde_json::from_str(&text).unwrap()
}

fn topo_of(report: &Value) -> Topology {
    let t = &report["report"]["topology"];
    if t["kind"] == "mesh" {
        Topology::Mesh(Mesh::new(
            t["width"].as_u64().unwrap() as usize,
            t["height"].as_u64().unwrap() as usize,
        ))
    } else {
        let ar: Vec<usize> = t["arities"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap() as usize)
            .collect();
        Topology::Tree(Tree::new(&ar))
    }
}

fn nodes_of(job: &Value) -> Vec<usize> {
    job["nodeRanges"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| {
            let (a, c) = (
                r[0].as_u64().unwrap() as usize,
                r[1].as_u64().unwrap() as usize,
            );
            a..a + c
        })
        .collect()
}

/// Routers and links of every route between two of the nodes, routed pair by pair.
fn routed(topo: &Topology, nodes: &[usize]) -> (BTreeSet<u32>, BTreeSet<u32>) {
    let (mut r, mut l) = (Vec::new(), Vec::new());
    for &a in nodes {
        for &b in nodes {
            if a != b {
                topo.route(a, b, &mut r, &mut l);
            }
        }
    }
    (r.into_iter().collect(), l.into_iter().collect())
}

fn interval(job: &Value) -> Option<(f64, f64)> {
    match (job.get("start"), job.get("end")) {
        (None, None) => Some((0.0, f64::INFINITY)), // a set: everyone stays
        (Some(s), Some(e)) => Some((s.as_f64()?, e.as_f64()?)),
        _ => None,
    }
}

/// A JSON array of ids as numbers.
fn id_list(v: &Value) -> Vec<u64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect()
}

/// Each frame's running jobs, busy nodes and contended routers and links equal what the jobs'
/// start and end times and their routed traffic say at the frame's time.
fn check_frames(topo: &Topology, run: &Value) {
    let jobs = run["jobs"].as_array().unwrap();
    for frame in run["frames"].as_array().unwrap() {
        let t = frame["time"].as_f64().unwrap();
        let running: Vec<&Value> = jobs
            .iter()
            .filter(|j| j["placed"] == true && interval(j).is_some_and(|(s, e)| s <= t && t < e))
            .collect();
        let ids: Vec<u64> = running.iter().map(|j| j["id"].as_u64().unwrap()).collect();
        let got: Vec<u64> = id_list(&frame["running"]);
        assert_eq!(got, ids, "running jobs at t={t}");
        let busy: usize = running.iter().map(|j| nodes_of(j).len()).sum();
        assert_eq!(frame["busyNodes"].as_u64().unwrap() as usize, busy);
        let mut use_r = std::collections::BTreeMap::<u32, usize>::new();
        let mut use_l = std::collections::BTreeMap::<u32, usize>::new();
        for j in &running {
            let (r, l) = routed(topo, &nodes_of(j));
            r.into_iter()
                .for_each(|x| *use_r.entry(x).or_default() += 1);
            l.into_iter()
                .for_each(|x| *use_l.entry(x).or_default() += 1);
        }
        let want_r: Vec<u64> = use_r
            .into_iter()
            .filter(|&(_, c)| c > 1)
            .map(|(x, _)| x as u64)
            .collect();
        let want_l: Vec<u64> = use_l
            .into_iter()
            .filter(|&(_, c)| c > 1)
            .map(|(x, _)| x as u64)
            .collect();
        let got_r: Vec<u64> = id_list(&frame["contendedRouters"]);
        let got_l: Vec<u64> = id_list(&frame["contendedLinks"]);
        assert_eq!(got_r, want_r, "contended routers at t={t}");
        assert_eq!(got_l, want_l, "contended links at t={t}");
    }
}

/// Checks every invariant on one report; `all_comm`: every job uses `comm: all`.
fn check_invariants(report: &Value, all_comm: bool) {
    let topo = topo_of(report);
    for run in report["report"]["runs"].as_array().unwrap() {
        if all_comm {
            check_frames(&topo, run);
        }
        let policy = run["policy"].as_str().unwrap();
        let jobs: Vec<&Value> = run["jobs"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|j| j["placed"] == true)
            .collect();
        let placed: Vec<Placed> = jobs
            .iter()
            .map(|j| {
                let nodes = nodes_of(j);
                assert_eq!(
                    nodes.len() as u64,
                    j["nodes"].as_u64().unwrap(),
                    "{policy}: job gets what it asked"
                );
                assert!(
                    nodes.iter().all(|&n| n < topo.nodes()),
                    "{policy}: node ids in range"
                );
                let relaxed = j["fallback"] == "relax-closed";
                (
                    nodes.clone(),
                    interval(j).unwrap(),
                    routed(&topo, &nodes),
                    relaxed,
                    *j,
                )
            })
            .collect();
        for (i, a) in placed.iter().enumerate() {
            // diameter and mean hops against routing every pair
            let mut d = 0;
            let mut sum = 0usize;
            for (x, &p) in a.0.iter().enumerate() {
                for &q in &a.0[x + 1..] {
                    d = d.max(topo.hops(p, q));
                    sum += topo.hops(p, q);
                }
            }
            assert_eq!(
                a.4["diameter"].as_u64().unwrap() as usize,
                d,
                "{policy}: diameter"
            );
            if a.0.len() > 1 {
                let mean = sum as f64 / (a.0.len() * (a.0.len() - 1) / 2) as f64;
                assert!(
                    (a.4["meanHops"].as_f64().unwrap() - mean).abs() < 1e-9,
                    "{policy}: mean hops"
                );
            }
            let mut shared_r = BTreeSet::new();
            let mut shared_l = BTreeSet::new();
            for (k, b) in placed.iter().enumerate() {
                if i == k || !(a.1 .0 < b.1 .1 && b.1 .0 < a.1 .1) {
                    continue;
                }
                // never two jobs on one node at the same time
                assert!(
                    a.0.iter().all(|n| !b.0.contains(n)),
                    "{policy}: jobs {i} and {k} overlap"
                );
                shared_r.extend(a.2 .0.intersection(&b.2 .0).copied());
                shared_l.extend(a.2 .1.intersection(&b.2 .1).copied());
                // closed-min jobs never contend unless a relax-closed job is involved. Busy-region
                // rule (docs/format.md): a job keeps busy only the routes its `comm` uses, so with
                // other patterns two jobs may share routes that one of them does not use; their
                // contention is then checked through the engine's counts by the caller.
                if all_comm && policy.starts_with("closed-min") && !a.3 && !b.3 {
                    assert!(
                        a.2 .0.is_disjoint(&b.2 .0),
                        "{policy}: jobs {i} and {k} share a router"
                    );
                    assert!(
                        a.2 .1.is_disjoint(&b.2 .1),
                        "{policy}: jobs {i} and {k} share a link"
                    );
                }
            }
            if all_comm {
                // the engine's contention report equals routing every pair
                assert_eq!(
                    a.4["sharedRouterCount"].as_u64().unwrap() as usize,
                    shared_r.len(),
                    "{policy}: shared routers of job {i}"
                );
                assert_eq!(
                    a.4["sharedLinkCount"].as_u64().unwrap() as usize,
                    shared_l.len(),
                    "{policy}: shared links of job {i}"
                );
                assert_eq!(a.4["routers"].as_u64().unwrap() as usize, a.2 .0.len());
            }
        }
    }
}

fn system_strategy() -> impl Strategy<Value = Value> {
    prop_oneof![
        (1usize..9, 1usize..9).prop_map(|(w, h)| json!({"kind": "mesh", "width": w, "height": h})),
        prop::collection::vec(2usize..5, 1..4).prop_map(|a| json!({"kind": "tree", "arities": a})),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(120))]

    #[test]
    fn job_sets_keep_every_invariant(
        system in system_strategy(),
        sizes in prop::collection::vec(1u64..20, 1..14),
        fallback in 0usize..3, seed in 0u64..1000,
    ) {
        let jobs: Vec<Value> = sizes.iter().map(|&t| json!({"tasks": t})).collect();
        let doc = json!({"version": 1, "engine": "allocation", "seed": seed, "system": system,
            "policies": PolicyId::ALL.into_iter().filter(|p| p.on_meshes()).map(PolicyId::id).collect::<Vec<_>>(), "fallback": Fallback::ALL[fallback].id(), "workload": {"kind": "set", "jobs": jobs}});
        check_invariants(&run(&doc), true);
    }

    #[test]
    fn job_streams_keep_every_invariant(
        system in system_strategy(),
        jobs in prop::collection::vec((1u64..24, 0u32..50, 1u32..40), 1..25),
        fallback in 0usize..3, easy in any::<bool>(), seed in 0u64..1000,
    ) {
        let jobs: Vec<Value> = jobs.iter().map(|&(t, a, d)| json!({"tasks": t, "arrival": a, "duration": d})).collect();
        let doc = json!({"version": 1, "engine": "allocation", "seed": seed, "system": system,
            "policies": PolicyId::ALL.into_iter().filter(|p| p.on_meshes()).map(PolicyId::id).collect::<Vec<_>>(), "fallback": Fallback::ALL[fallback].id(), "frames": 7,
            "workload": {"kind": "stream", "backfill": if easy {"easy"} else {"none"}, "jobs": jobs}});
        let report = run(&doc);
        check_invariants(&report, true);
        // the naive rescan makes exactly the choices of the fast search
        let runs = report["report"]["runs"].as_array().unwrap();
        prop_assert_eq!(&runs[2]["jobs"], &runs[3]["jobs"]);
    }
}

/// Theorem 5 against exhaustive search: the smallest diameter of any `n` leaves equals `2h` for
/// the template height, and closed-min reaches it on an empty tree.
#[test]
fn theorem5_matches_exhaustive_search() {
    for arities in [vec![2, 2, 2], vec![3, 2], vec![2, 2, 8], vec![4, 4]] {
        let t = Tree::new(&arities);
        let leaves = t.nodes();
        for n in 2..=leaves.min(16) {
            // the set of n leaves with the smallest diameter is inside some subtree: search all
            // windows of consecutive leaves and all subsets on the smallest trees
            let mut brute = usize::MAX;
            if leaves <= 12 {
                for mask in 0u32..(1 << leaves) {
                    if mask.count_ones() as usize == n {
                        let set: Vec<usize> = (0..leaves).filter(|&i| mask >> i & 1 == 1).collect();
                        brute = brute.min(t.hops(set[0], *set.last().unwrap()));
                    }
                }
            } else {
                for s in 0..=leaves - n {
                    brute = brute.min(t.hops(s, s + n - 1));
                }
            }
            let l = t.template_level(n).unwrap();
            assert_eq!(2 * t.height_of_level(l), brute, "{arities:?} n={n}");
            for policy in ["closed-min-paper", "closed-min-best"] {
                let doc = json!({"version": 1, "engine": "allocation", "system": {"kind": "tree", "arities": arities},
                    "policies": [policy], "workload": {"kind": "set", "jobs": [{"tasks": n}]}});
                let r = run(&doc);
                assert_eq!(
                    r["report"]["runs"][0]["jobs"][0]["diameter"]
                        .as_u64()
                        .unwrap() as usize,
                    brute
                );
            }
        }
    }
}

/// Theorem 3 on an empty mesh: closed-min reaches the smallest rectangle diameter, and that is
/// the smallest over every rectangle placed anywhere (exhaustive search on small meshes).
#[test]
fn theorem3_diameter_is_reached_on_empty_meshes() {
    for (w, h) in [(4, 4), (5, 3), (6, 6), (8, 5)] {
        for n in 1..=w * h {
            let mut brute = usize::MAX;
            for a in 1..=w {
                for b in 1..=h {
                    if a * b >= n {
                        brute = brute.min(a + b - 2);
                    }
                }
            }
            for policy in ["closed-min-best", "closed-min-naive"] {
                let doc = json!({"version": 1, "engine": "allocation", "system": {"kind": "mesh", "width": w, "height": h},
                    "policies": [policy], "workload": {"kind": "set", "jobs": [{"tasks": n}]}});
                let r = run(&doc);
                let job = &r["report"]["runs"][0]["jobs"][0];
                assert_eq!(
                    job["diameter"].as_u64().unwrap() as usize,
                    brute,
                    "{w}x{h} n={n}"
                );
                assert_eq!(job["closed"], true);
            }
        }
    }
}

#[test]
fn fig1_four_jobs_of_four_are_squares_without_contention() {
    let text = include_str!("../playground-examples/fig1-4x4.json");
    let r: Value = serde_json::from_str(&api::run(text, &mut NoProgress).unwrap()).unwrap();
    for run in r["report"]["runs"].as_array().unwrap() {
        assert_eq!(run["summary"]["sharedRouters"], 0);
        let want = if run["policy"] == "sequential" { 3 } else { 2 };
        for j in run["jobs"].as_array().unwrap() {
            assert_eq!(j["diameter"], want);
            assert_eq!(j["closed"], true);
        }
    }
}

#[test]
fn sequential_shares_switches_on_tianhe_and_closed_min_does_not() {
    let text = include_str!("../playground-examples/tianhe-npb-stream.json");
    let r: Value = serde_json::from_str(&api::run(text, &mut NoProgress).unwrap()).unwrap();
    let runs = r["report"]["runs"].as_array().unwrap();
    assert_eq!(runs[0]["policy"], "sequential");
    assert!(runs[0]["summary"]["contendedJobs"].as_u64().unwrap() > 0);
    for run in &runs[1..] {
        assert_eq!(run["summary"]["contendedJobs"], 0, "{}", run["policy"]);
        assert!(
            run["summary"]["meanDiameter"].as_f64() < runs[0]["summary"]["meanDiameter"].as_f64()
        );
    }
    check_invariants(&r, false);
}

#[test]
fn relax_closed_reports_its_contention_and_relax_minimal_stays_closed() {
    let text = include_str!("../playground-examples/fallbacks-8x8.json");
    let mut doc: Value = serde_json::from_str(text).unwrap();
    let r = run(&doc);
    let best = &r["report"]["runs"][1];
    let f = best["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|j| j["fallback"] == "relax-closed")
        .expect("a relaxed job");
    assert_eq!(f["closed"], false);
    check_invariants(&r, true);
    doc["fallback"] = json!("relax-minimal");
    let r = run(&doc);
    let best = &r["report"]["runs"][1];
    assert_eq!(best["summary"]["contendedJobs"], 0);
    check_invariants(&r, true);
}

#[test]
fn the_same_scenario_gives_the_same_bytes() {
    let text = include_str!("../playground-examples/mesh64-random-stream.json");
    let a = api::run(text, &mut NoProgress).unwrap();
    let b = api::run(text, &mut NoProgress).unwrap();
    assert_eq!(a, b);
    let mut doc: Value = serde_json::from_str(text).unwrap();
    doc["seed"] = json!(43);
    let c = api::run(&doc.to_string(), &mut NoProgress).unwrap();
    assert_ne!(a, c, "another seed draws another stream");
}

#[test]
fn swf_logs_replay_as_streams() {
    let text = include_str!("../playground-examples/swf-log-16x16.json");
    let r: Value = serde_json::from_str(&api::run(text, &mut NoProgress).unwrap()).unwrap();
    assert_eq!(r["report"]["workload"], "stream");
    let jobs = r["report"]["runs"][0]["jobs"].as_array().unwrap();
    assert_eq!(jobs.len(), 80 - 3, "three cancelled jobs are skipped");
    assert_eq!(jobs[0]["arrival"], 0.0);
    check_invariants(&r, true);
    let bad = json!({"version": 1, "engine": "allocation", "system": {"kind": "mesh", "width": 4, "height": 4},
        "workload": {"kind": "swf", "swf": "1 0 -1 10 4 -1 -1 4 10\n2 oops"}});
    let e = api::run(&bad.to_string(), &mut NoProgress).unwrap_err();
    assert_eq!(e.path, "$.workload.swf");
    assert_eq!(e.message, "line 2, column 3: \"oops\" is not a number");
}

#[test]
fn a_job_larger_than_the_machine_is_refused_without_blocking_the_queue() {
    let doc = json!({"version": 1, "engine": "allocation", "system": {"kind": "mesh", "width": 4, "height": 4},
        "policies": ["sequential", "closed-min-paper", "closed-min-best"],
        "workload": {"kind": "stream", "jobs": [
            {"tasks": 4, "arrival": 0, "duration": 100},
            {"tasks": 17, "arrival": 1, "duration": 10},
            {"tasks": 4, "arrival": 2, "duration": 10}]}});
    let r = run(&doc);
    for run in r["report"]["runs"].as_array().unwrap() {
        let jobs = run["jobs"].as_array().unwrap();
        assert_eq!(jobs[1]["placed"], false);
        assert_eq!(
            jobs[2]["start"], 2.0,
            "{}: the job behind it is not held up",
            run["policy"]
        );
    }
    // the paper's template for 12 nodes is 4x3, which fits; for 13 it is 4x4 (fits); on a 16x2
    // mesh 9 nodes need a 3x3 template that does not fit: refused at once under `wait`
    let doc = json!({"version": 1, "engine": "allocation", "system": {"kind": "mesh", "width": 16, "height": 2},
        "policies": ["closed-min-paper", "closed-min-best"],
        "workload": {"kind": "stream", "jobs": [
            {"tasks": 2, "arrival": 0, "duration": 100},
            {"tasks": 9, "arrival": 1, "duration": 10},
            {"tasks": 2, "arrival": 2, "duration": 10}]}});
    let r = run(&doc);
    let runs = r["report"]["runs"].as_array().unwrap();
    assert_eq!(runs[0]["jobs"][1]["placed"], false);
    assert_eq!(runs[0]["jobs"][2]["start"], 2.0);
    assert_eq!(
        runs[1]["jobs"][1]["placed"], true,
        "best takes the smallest-diameter rectangle that fits, 5x2"
    );
    check_invariants(&r, true);
}

#[test]
fn easy_backfilling_lets_a_short_job_jump_ahead_and_fcfs_does_not() {
    let jobs = json!([
        {"name": "A", "tasks": 12, "arrival": 0, "duration": 100},
        {"name": "B", "tasks": 8, "arrival": 1, "duration": 10},
        {"name": "C", "tasks": 4, "arrival": 2, "duration": 10},
        {"name": "D", "tasks": 4, "arrival": 3, "duration": 500}
    ]);
    let starts = |backfill: &str| -> Vec<f64> {
        let doc = json!({"version": 1, "engine": "allocation", "system": {"kind": "mesh", "width": 4, "height": 4},
            "policies": ["sequential"], "workload": {"kind": "stream", "backfill": backfill, "jobs": jobs}});
        let r = run(&doc);
        check_invariants(&r, true);
        r["report"]["runs"][0]["jobs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|j| j["start"].as_f64().unwrap())
            .collect()
    };
    // FCFS: B waits for A, and C and D wait behind B
    assert_eq!(starts("none"), vec![0.0, 100.0, 100.0, 100.0]);
    // EASY: B is reserved the 8 nodes A frees at 100, leaving 8 spare then. C ends (12) before
    // the reservation: it backfills at once. D runs past it but fits in the spare nodes: it
    // backfills when C leaves, and B still starts at 100.
    assert_eq!(starts("easy"), vec![0.0, 100.0, 2.0, 12.0]);
}

/// Regression: a large contended stream once produced a 226 MB report and crashed the wasm
/// engine. Reports stay bounded: frames give way, counts stay complete.
#[test]
fn large_contended_streams_keep_their_report_bounded() {
    let doc = json!({"version": 1, "engine": "allocation", "system": {"kind": "mesh", "width": 96, "height": 96},
        "policies": ["sequential"], "frames": 1000,
        "workload": {"kind": "generated", "count": 1200, "minTasks": 1, "maxTasks": 2048,
            "sizeDistribution": "logUniform", "meanInterarrival": 1, "meanDuration": 400}});
    let text = api::run(&doc.to_string(), &mut NoProgress).unwrap();
    assert!(
        text.len() <= placelab::alloc::REPORT_BYTE_CAP,
        "report of {} bytes",
        text.len()
    );
    let r: Value = serde_json::from_str(&text).unwrap();
    let run = &r["report"]["runs"][0];
    let frames = run["frames"].as_array().unwrap().len();
    assert!(run["omitted"]["frames"].as_u64().unwrap() > 0);
    assert_eq!(
        frames as u64 + run["omitted"]["frames"].as_u64().unwrap(),
        1000
    );
    assert!((2..1000).contains(&frames), "{frames} frames");
    let jobs = run["jobs"].as_array().unwrap();
    assert_eq!(jobs.len(), 1200);
    let contended = jobs
        .iter()
        .filter(|j| j["sharedRouterCount"].as_u64().unwrap() > 0)
        .count();
    assert_eq!(
        run["summary"]["contendedJobs"].as_u64().unwrap() as usize,
        contended
    );
    assert!(contended > 0);
}

/// A placed job of a report: its nodes, (start, end), the (routers, links) its routes use,
/// whether the `relax-closed` fallback placed it, and its JSON row.
type Placed<'a> = (
    Vec<usize>,
    (f64, f64),
    (BTreeSet<u32>, BTreeSet<u32>),
    bool,
    &'a Value,
);
