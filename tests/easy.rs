//! EASY backfilling as Maui and Slurm users know it, and the closed-min details of
//! §5, end to end through the public dispatcher.
//!
//! The central property: with walltimes equal to run times, a job that backfilled while another
//! was the queue head never delays that head. The oracle re-runs the stream without the jobs that
//! backfilled past the head and checks that the head does not start earlier there.

use placelab::alloc::scenario::{Fallback, PolicyId};
use placelab::api;
use placelab::progress::NoProgress;
use proptest::prelude::*;
use serde_json::{json, Value};

fn run(doc: &Value) -> Value {
    let text = api::run(&doc.to_string(), &mut NoProgress).unwrap_or_else(|e| panic!("{e}\n{doc}"));
    serde_json::from_str(&text).unwrap()
}

fn stream(system: Value, policy: &str, fallback: &str, jobs: &Value, extra: Value) -> Value {
    let mut workload = json!({"kind": "stream", "backfill": "easy", "jobs": jobs});
    for (k, v) in extra.as_object().unwrap() {
        workload[k] = v.clone();
    }
    json!({"version": 1, "engine": "allocation", "system": system, "policies": [policy],
        "fallback": fallback, "frames": 0, "workload": workload})
}

/// Start times of the first run's jobs (`None` if never started).
fn starts(report: &Value) -> Vec<Option<f64>> {
    report["report"]["runs"][0]["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| j["start"].as_f64())
        .collect()
}

fn start_of(report: &Value, name: &str) -> Option<f64> {
    report["report"]["runs"][0]["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|j| j["name"] == name)
        .unwrap()["start"]
        .as_f64()
}

/// First case: on a tree `[4]` the paper's policy gives any job of 2 to 4 nodes the
/// whole switch. The head (2 nodes) must wait for the 1-node job to leave at 11; a 1-node job
/// running to 19 once backfilled because 3 of the 4 nodes were "spare", and the head started at
/// 19. The reservation is now the whole switch, so the later job waits.
#[test]
fn a_backfilled_job_never_delays_a_closed_min_head_on_a_four_leaf_tree() {
    let jobs = json!([
        {"name": "running", "tasks": 1, "arrival": 0, "duration": 11},
        {"name": "head", "tasks": 2, "arrival": 1, "duration": 5},
        {"name": "late", "tasks": 1, "arrival": 2, "duration": 17}
    ]);
    let r = run(&stream(
        json!({"kind": "tree", "arities": [4]}),
        "closed-min-paper",
        "wait",
        &jobs,
        json!({}),
    ));
    assert_eq!(starts(&r), vec![Some(0.0), Some(11.0), Some(16.0)]);
}

/// Second case: tree `[2, 6]`, a 7-node head needs the whole tree; a 1-node job
/// running to 202 backfilled into the "spare" nodes and pushed the head from 100 to 202.
#[test]
fn a_backfilled_job_never_delays_a_whole_tree_head() {
    let jobs = json!([
        {"name": "running", "tasks": 1, "arrival": 0, "duration": 100},
        {"name": "head", "tasks": 7, "arrival": 1, "duration": 10},
        {"name": "late", "tasks": 1, "arrival": 2, "duration": 200}
    ]);
    let r = run(&stream(
        json!({"kind": "tree", "arities": [2, 6]}),
        "closed-min-paper",
        "wait",
        &jobs,
        json!({}),
    ));
    assert_eq!(start_of(&r, "head"), Some(100.0));
    assert_eq!(start_of(&r, "late"), Some(110.0));
}

/// A short job that ends by the shadow time still backfills into the head's region.
#[test]
fn a_job_ending_by_the_shadow_time_backfills_into_the_reserved_region() {
    let jobs = json!([
        {"name": "running", "tasks": 1, "arrival": 0, "duration": 100},
        {"name": "head", "tasks": 7, "arrival": 1, "duration": 10},
        {"name": "short", "tasks": 1, "arrival": 2, "duration": 98}
    ]);
    let r = run(&stream(
        json!({"kind": "tree", "arities": [2, 6]}),
        "closed-min-paper",
        "wait",
        &jobs,
        json!({}),
    ));
    assert_eq!(start_of(&r, "short"), Some(2.0));
    assert_eq!(start_of(&r, "head"), Some(100.0));
}

/// Ties: two running jobs end exactly at the shadow time (10). Both free their
/// nodes, so one node is spare and a long 1-node job backfills at once, whatever the order of
/// the two in the input. (Counting only the first of them found no spare node, or one, by order.)
#[test]
fn jobs_ending_at_the_shadow_time_all_count_whatever_the_input_order() {
    let a = json!({"name": "A", "tasks": 2, "arrival": 0, "duration": 10});
    let b = json!({"name": "B", "tasks": 1, "arrival": 0, "duration": 10});
    let rest = [
        json!({"name": "C", "tasks": 1, "arrival": 0, "duration": 20}),
        json!({"name": "H", "tasks": 3, "arrival": 1, "duration": 5}),
        json!({"name": "D", "tasks": 1, "arrival": 2, "duration": 100}),
    ];
    for policy in ["sequential", "hilbert", "random"] {
        for order in [[&a, &b], [&b, &a]] {
            let mut jobs: Vec<Value> = order.iter().map(|j| (*j).clone()).collect();
            jobs.extend(rest.iter().cloned());
            let r = run(&stream(
                json!({"kind": "mesh", "width": 5, "height": 1}),
                policy,
                "wait",
                &json!(jobs),
                json!({}),
            ));
            assert_eq!(start_of(&r, "D"), Some(2.0), "{policy}");
            assert_eq!(start_of(&r, "H"), Some(10.0), "{policy}");
        }
    }
}

/// Depth: 64 long jobs queued behind a blocked head cannot backfill; a short job
/// behind them can. The default depth (500, as Slurm's `bf_max_job_test`) reaches it; a depth of
/// 64 does not, and a depth of 65 does.
#[test]
fn backfill_depth_is_a_parameter_defaulting_to_slurms_500() {
    let mut jobs = vec![
        json!({"name": "running", "tasks": 12, "arrival": 0, "duration": 100}),
        json!({"name": "head", "tasks": 16, "arrival": 1, "duration": 10}),
    ];
    for i in 0..64 {
        jobs.push(json!({"name": format!("long{i}"), "tasks": 1, "arrival": 2, "duration": 1000}));
    }
    jobs.push(json!({"name": "short", "tasks": 1, "arrival": 3, "duration": 10}));
    let jobs = json!(jobs);
    let mesh = json!({"kind": "mesh", "width": 4, "height": 4});
    let short = |extra: Value| {
        start_of(
            &run(&stream(mesh.clone(), "sequential", "wait", &jobs, extra)),
            "short",
        )
        .unwrap()
    };
    assert_eq!(short(json!({})), 3.0);
    assert_eq!(short(json!({"backfillDepth": 65})), 3.0);
    assert!(short(json!({"backfillDepth": 64})) > 100.0);
}

#[test]
fn backfill_depth_is_validated_and_in_the_form() {
    let jobs = json!([{"tasks": 1, "arrival": 0, "duration": 1}]);
    let mesh = json!({"kind": "mesh", "width": 2, "height": 2});
    for (depth, ok) in [(0, false), (1, true), (100_000, true), (100_001, false)] {
        let doc = stream(
            mesh.clone(),
            "sequential",
            "wait",
            &jobs,
            json!({"backfillDepth": depth}),
        );
        let res = api::run(&doc.to_string(), &mut NoProgress);
        assert_eq!(res.is_ok(), ok, "depth {depth}");
        if let Err(e) = res {
            assert!(e.to_string().contains("workload.backfillDepth"), "{e}");
        }
    }
    let set = json!({"version": 1, "engine": "allocation", "system": mesh,
        "workload": {"kind": "set", "backfillDepth": 5, "jobs": [{"tasks": 1}]}});
    let e = api::run(&set.to_string(), &mut NoProgress).unwrap_err();
    assert!(e.to_string().contains("workload.backfillDepth"), "{e}");
    let engines: Value = serde_json::from_str(&api::engines_json()).unwrap();
    let alloc = engines
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"] == "allocation")
        .unwrap();
    let p = alloc["params"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["path"] == "workload.backfillDepth")
        .expect("a form control");
    assert_eq!(p["default"], 500);
}

/// The paper's template for 2 nodes is 2 wide and 1 high; on a mesh 1 node wide only
/// its rotation fits, and the paper asks for a subgraph matching the template, which a rotated
/// rectangle is. At equal origins the template's own orientation comes first.
#[test]
fn closed_min_paper_rotates_its_template() {
    let place = |w: usize, h: usize, tasks: u64| -> Value {
        let doc = json!({"version": 1, "engine": "allocation",
            "system": {"kind": "mesh", "width": w, "height": h},
            "policies": ["closed-min-paper"], "workload": {"kind": "set", "jobs": [{"tasks": tasks}]}});
        run(&doc)["report"]["runs"][0]["jobs"][0].clone()
    };
    let j = place(1, 6, 2);
    assert_eq!(j["placed"], true);
    assert_eq!(j["nodeRanges"], json!([[0, 2]]));
    assert_eq!(j["diameter"], 1);
    // 3 nodes: template 2x2 does not fit a 1-wide mesh in either orientation
    assert_eq!(place(1, 6, 3)["placed"], false);
    // 6 nodes: template 3x2 (width x height); on a 2x5 mesh only its rotation 2x3 fits
    let j = place(2, 5, 6);
    assert_eq!(j["nodeRanges"], json!([[0, 6]]));
    assert_eq!(j["ownedIdle"], 0);
    // on a wide mesh the template itself is taken at the first origin
    assert_eq!(place(6, 1, 2)["nodeRanges"], json!([[0, 2]]));
    // streams queue (not refuse) a job that only the rotation fits
    let r = run(&stream(
        json!({"kind": "mesh", "width": 1, "height": 4}),
        "closed-min-paper",
        "wait",
        &json!([{"tasks": 2, "arrival": 0, "duration": 1}]),
        json!({}),
    ));
    assert_eq!(starts(&r), vec![Some(0.0)]);
}

/// Busy regions: a running job blocks its nodes and the routers its own traffic
/// uses. On a 3x3 mesh a 1-node job takes corner 0 and a 7-node job falls back to `relax-closed`
/// on every other cell but corner 2 = (2, 0). If the 7-node job communicates all-to-all, its route
/// from node 1 = (1, 0) to node 5 = (2, 1) crosses router 2, so a 1-node job there would share
/// it: that job falls back too. With `comm: none` (or `neighbor`, whose routes stay off router 2)
/// nothing crosses router 2 and the 1-node job gets a closed placement, contention-free.
#[test]
fn a_running_job_blocks_only_the_routers_its_traffic_uses() {
    let jobs_for = |comm: &str| -> Vec<Value> {
        let doc = json!({"version": 1, "engine": "allocation",
        "system": {"kind": "mesh", "width": 3, "height": 3},
        "policies": ["closed-min-best"], "fallback": "relax-closed",
        "workload": {"kind": "set", "jobs": [
            {"name": "corner", "tasks": 1},
            {"name": "relaxed", "tasks": 7, "comm": comm},
            {"name": "one", "tasks": 1}
        ]}});
        run(&doc)["report"]["runs"][0]["jobs"]
            .as_array()
            .unwrap()
            .clone()
    };
    let busy = jobs_for("all");
    assert_eq!(busy[1]["fallback"], "relax-closed");
    assert_eq!(busy[1]["nodeRanges"], json!([[1, 1], [3, 6]]));
    assert_eq!(busy[2]["nodeRanges"], json!([[2, 1]]));
    assert_eq!(busy[2]["fallback"], "relax-closed");
    for comm in ["none", "neighbor"] {
        let quiet = jobs_for(comm);
        assert_eq!(quiet[1]["nodeRanges"], json!([[1, 1], [3, 6]]), "{comm}");
        assert_eq!(quiet[2]["nodeRanges"], json!([[2, 1]]), "{comm}");
        assert_eq!(quiet[2]["fallback"], Value::Null, "{comm}");
        assert_eq!(quiet[2]["sharedRouterCount"], 0, "{comm}");
    }
}

/// The tests' queue order: by arrival, ties by input position.
fn queue_order(jobs: &[(u64, u32, u32)]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..jobs.len()).collect();
    order.sort_by_key(|&i| (jobs[i].1, i));
    order
}

fn system_strategy() -> impl Strategy<Value = Value> {
    prop_oneof![
        (1usize..6, 1usize..6).prop_map(|(w, h)| json!({"kind": "mesh", "width": w, "height": h})),
        prop::collection::vec(2usize..4, 1..4).prop_map(|a| json!({"kind": "tree", "arities": a})),
    ]
}

fn stream_doc(
    system: &Value,
    policy: &str,
    fallback: &str,
    seed: u64,
    jobs: &[(u64, u32, u32)],
    keep: &[usize],
) -> Value {
    let list: Vec<Value> = keep
        .iter()
        .map(|&i| {
            let (t, a, d) = jobs[i];
            json!({"name": format!("j{i}"), "tasks": t, "arrival": a, "duration": d})
        })
        .collect();
    json!({"version": 1, "engine": "allocation", "seed": seed, "system": system,
        "policies": [policy], "fallback": fallback, "frames": 0,
        "workload": {"kind": "stream", "backfill": "easy", "jobs": list}})
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// The oracle: for every job `h` that had to wait as the queue head, remove the jobs that
    /// backfilled while it was the head (queued behind it, started at or after the moment it
    /// became the head and before it started) and run again: `h` does not start earlier there.
    /// Walltimes equal run times, so EASY's reservations are exact.
    #[test]
    fn a_backfilled_job_never_delays_the_queue_head(
        system in system_strategy(),
        jobs in prop::collection::vec((1u64..9, 0u32..30, 1u32..30), 2..12),
        policy in 0usize..6, fallback in 0usize..3, seed in 0u64..1000,
    ) {
        let (policy, fallback) = (PolicyId::ALL[policy].id(), Fallback::ALL[fallback].id());
        let all: Vec<usize> = (0..jobs.len()).collect();
        let r = run(&stream_doc(&system, policy, fallback, seed, &jobs, &all));
        let start = starts(&r);
        let order = queue_order(&jobs);
        for (pos, &h) in order.iter().enumerate() {
            let Some(s_h) = start[h] else { continue };
            // when h became the head: its arrival, or the last start of a job ahead of it
            let ahead: Option<Vec<f64>> = order[..pos].iter().map(|&k| start[k]).collect();
            let Some(ahead) = ahead else { continue };
            let t_h = ahead.into_iter().fold(jobs[h].1 as f64, f64::max);
            let passed: Vec<usize> = order[pos + 1..]
                .iter()
                .copied()
                .filter(|&b| start[b].is_some_and(|s| s >= t_h && s < s_h))
                .collect();
            if passed.is_empty() {
                continue;
            }
            let keep: Vec<usize> = all.iter().copied().filter(|i| !passed.contains(i)).collect();
            let r2 = run(&stream_doc(&system, policy, fallback, seed, &jobs, &keep));
            let s2 = start_of(&r2, &format!("j{h}"));
            prop_assert!(
                s2.is_some_and(|s2| s2 >= s_h),
                "{policy}/{fallback}: j{h} starts at {s_h}, but at {s2:?} without {passed:?}\n{}",
                stream_doc(&system, policy, fallback, seed, &jobs, &all)
            );
        }
    }
}

/// docs/format.md: `makespan` is the last end minus the first arrival, 0 if no job started (it
/// was negative when every job was refused after time 0).
#[test]
fn makespan_is_zero_when_no_job_starts() {
    let r = run(&stream(
        json!({"kind": "mesh", "width": 2, "height": 2}),
        "sequential",
        "wait",
        &json!([{"tasks": 9, "arrival": 5, "duration": 1}]),
        json!({}),
    ));
    let summary = &r["report"]["runs"][0]["summary"];
    assert_eq!(summary["makespan"], 0.0);
    assert_eq!(summary["utilization"], 0.0);
    assert_eq!(summary["placed"], 0);
}
