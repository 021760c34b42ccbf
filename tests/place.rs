//! The placement engine, story by story: the generalized Hilbert curves are contiguous for every
//! side; strategies never give a busy node and give each task its own node (property test over
//! random occupancy on every system shape); Advanced beats the topology-blind strategies on
//! hop-bytes; Identity lays a CUBE of 4096 on 16x16x16 at 1.00 hop per edge.

mod support;

use placelab::place::jobs::{task_graph, JobKind, TaskGraph};
use placelab::place::strategy::{place, Options, Placement, Shape, StrategyId};
use placelab::topology::hilbert::gilbert2d;
use proptest::prelude::*;
use support::net_of;

/// Hops between hosts of a tree: up to the lowest common group and down.
fn tree_hops(down: &[u32], a: u32, b: u32) -> u32 {
    if a == b {
        return 0;
    }
    let mut s = 1;
    for (l, &d) in down.iter().enumerate() {
        s *= d;
        if a / s == b / s {
            return 2 * (l as u32 + 1);
        }
    }
    2 * down.len() as u32
}

fn hops(shape: &Shape, a: u32, b: u32) -> u32 {
    match shape {
        Shape::Grid { dims, wrap } => Shape::grid_hops(*dims, *wrap, a, b),
        Shape::Tree { down } => tree_hops(down, a, b),
        Shape::Net { hops, .. } => hops.get(shape.hosts(), a, b),
    }
}

/// Sum over task-graph edges of weight x hops.
fn hop_weight(shape: &Shape, job: &TaskGraph, hosts: &[u32]) -> u64 {
    let g = &job.graph;
    let mut s = 0u64;
    for v in 0..g.n() {
        for (&u, &w) in g.neighbors(v).iter().zip(g.edge_weights(v)) {
            if v < u {
                s += u64::from(w) * u64::from(hops(shape, hosts[v as usize], hosts[u as usize]));
            }
        }
    }
    s
}

fn placed(p: Placement) -> Vec<u32> {
    match p {
        Placement::Placed(h) => h,
        Placement::NotPlaced(why) => panic!("not placed: {why}"),
    }
}

#[test]
fn gilbert2d_is_contiguous_for_every_side_up_to_20() {
    for w in 1..=20 {
        for h in 1..=20 {
            let c = gilbert2d(w, h);
            assert_eq!(c.len(), w * h);
            let mut seen = vec![false; w * h];
            for &(x, y) in &c {
                assert!(!std::mem::replace(&mut seen[y * w + x], true));
            }
            for s in c.windows(2) {
                let (dx, dy) = (s[0].0.abs_diff(s[1].0), s[0].1.abs_diff(s[1].1));
                assert!(
                    dx + dy == 1 || (dx == 1 && dy == 1),
                    "{w}x{h}: {:?} -> {:?}",
                    s[0],
                    s[1]
                );
            }
        }
    }
}

fn shapes() -> Vec<Shape> {
    vec![
        Shape::Grid {
            dims: [6, 5, 1],
            wrap: true,
        },
        Shape::Grid {
            dims: [4, 3, 5],
            wrap: true,
        },
        Shape::Grid {
            dims: [7, 4, 1],
            wrap: false,
        },
        Shape::Tree {
            down: vec![4, 4, 2],
        },
        Shape::Tree {
            down: vec![2, 3, 3],
        },
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn strategies_never_give_a_busy_node(
        which in 0usize..5, kind in 0usize..5, n in 1u32..30, seed in 0u64..1000,
        busy_bits in proptest::collection::vec(any::<bool>(), 60..61), quirks in any::<bool>(),
    ) {
        let shape = &shapes()[which];
        let hosts = shape.hosts() as usize;
        let busy: Vec<bool> = busy_bits[..hosts].to_vec();
        let kind = [JobKind::Star, JobKind::Grid, JobKind::Cube, JobKind::Tree, JobKind::Full][kind];
        let job = task_graph(kind, n, seed % 2 == 0, None).unwrap();
        let free = busy.iter().filter(|b| !**b).count() as u32;
        let net = net_of(shape, false);
        for s in StrategyId::ALL {
            let opts = Options { seed, source_quirks: quirks, ..Options::default() };
            match place(s, shape, &net, &busy, &job, opts) {
                Placement::Placed(h) => {
                    prop_assert_eq!(h.len() as u32, n);
                    let mut seen = vec![false; hosts];
                    for &x in &h {
                        prop_assert!(!busy[x as usize], "{:?} gave busy node {}", s, x);
                        prop_assert!(!std::mem::replace(&mut seen[x as usize], true), "{:?} gave {} twice", s, x);
                    }
                }
                Placement::NotPlaced(why) => {
                    prop_assert!(n > free || s == StrategyId::Identity || s == StrategyId::Given, "{:?}: {}", s, why);
                }
            }
        }
    }
}

#[test]
fn advanced_is_no_worse_than_optimal_and_beats_random_and_the_source_simple_on_hop_bytes() {
    let cases = [
        (
            Shape::Grid {
                dims: [8, 8, 8],
                wrap: true,
            },
            JobKind::Grid,
            256,
        ),
        (
            Shape::Grid {
                dims: [16, 16, 1],
                wrap: true,
            },
            JobKind::Cube,
            64,
        ),
        (
            Shape::Tree {
                down: vec![4, 4, 4, 4],
            },
            JobKind::Grid,
            100,
        ),
    ];
    for (shape, kind, n) in cases {
        let busy = vec![false; shape.hosts() as usize];
        let job = task_graph(kind, n, true, None).unwrap();
        let opts = Options {
            seed: 3,
            ..Options::default()
        };
        let net = net_of(&shape, false);
        let cost = |s, source_quirks| {
            let o = Options {
                source_quirks,
                ..opts
            };
            hop_weight(
                &shape,
                &job,
                &placed(place(s, &shape, &net, &busy, &job, o)),
            )
        };
        let adv = cost(StrategyId::Advanced, false);
        let optimal = cost(StrategyId::Optimal, false);
        let random = cost(StrategyId::Random, false);
        let shuffled = cost(StrategyId::Simple, true);
        eprintln!("{shape:?} {kind:?}: advanced {adv} optimal {optimal} random {random} simple-with-quirks {shuffled} simple {}", cost(StrategyId::Simple, false));
        assert!(
            adv <= optimal && adv < random && adv < shuffled,
            "{shape:?}: {adv} {optimal} {random} {shuffled}"
        );
    }
}

#[test]
fn identity_lays_a_cube_of_4096_at_one_hop_per_edge() {
    let shape = Shape::Grid {
        dims: [16, 16, 16],
        wrap: true,
    };
    let busy = vec![false; 4096];
    let job = task_graph(JobKind::Cube, 4096, true, None).unwrap();
    let h = placed(place(
        StrategyId::Identity,
        &shape,
        &net_of(&shape, false),
        &busy,
        &job,
        Options::default(),
    ));
    assert_eq!(hop_weight(&shape, &job, &h), job.graph.m());
}

#[test]
fn identity_refuses_jobs_without_a_matching_block() {
    let shape = Shape::Grid {
        dims: [8, 8, 8],
        wrap: true,
    };
    let busy = vec![false; 512];
    let job = task_graph(JobKind::Grid, 512, true, None).unwrap(); // 16 x 32
    assert!(matches!(
        place(
            StrategyId::Identity,
            &shape,
            &net_of(&shape, false),
            &busy,
            &job,
            Options::default()
        ),
        Placement::NotPlaced(_)
    ));
    let star = task_graph(JobKind::Star, 8, false, None).unwrap();
    assert!(matches!(
        place(
            StrategyId::Identity,
            &shape,
            &net_of(&shape, false),
            &busy,
            &star,
            Options::default()
        ),
        Placement::NotPlaced(_)
    ));
}

#[test]
fn advanced_keeps_heavy_metis_edges_inside_a_leaf_switch() {
    // 8 tasks in pairs (0,4), (1,5), (2,6), (3,7) exchanging 100x more than the ring around
    let mut edges = vec![];
    for i in 0..8u32 {
        edges.push((i, (i + 1) % 8, 1));
    }
    for i in 0..4u32 {
        edges.push((i, i + 4, 100));
    }
    let mut text = String::from("8 12 001\n");
    for v in 0..8u32 {
        let mut line = vec![];
        for &(a, b, w) in &edges {
            if a == v {
                line.push(format!("{} {w}", b + 1));
            } else if b == v {
                line.push(format!("{} {w}", a + 1));
            }
        }
        text.push_str(&line.join(" "));
        text.push('\n');
    }
    let job = task_graph(JobKind::Metis, 0, false, Some(&text)).unwrap();
    let shape = Shape::Tree {
        down: vec![2, 2, 2],
    };
    let busy = vec![false; 8];
    let h = placed(place(
        StrategyId::Advanced,
        &shape,
        &net_of(&shape, false),
        &busy,
        &job,
        Options::default(),
    ));
    for i in 0..4 {
        assert_eq!(h[i] / 2, h[i + 4] / 2, "pair {i} split: {h:?}");
    }
}

fn run(text: &str) -> serde_json::Value {
    let out = placelab::api::run(text, &mut placelab::progress::NoProgress)
        .unwrap_or_else(|e| panic!("{e}"));
    serde_json::from_str::<serde_json::Value>(&out).unwrap()["report"].clone()
}

fn scenario(extra: serde_json::Value) -> String {
    let mut doc = serde_json::json!({"version": 1, "engine": "place", "seed": 1,
        "system": {"kind": "torus2d", "x": 8, "y": 8},
        "job": {"kind": "GRID", "processes": 16, "rounds": 2, "messageBytes": 1000}});
    for (k, v) in extra.as_object().unwrap() {
        if v.is_object() && doc[k].is_object() {
            for (k2, v2) in v.as_object().unwrap() {
                doc[k][k2] = v2.clone();
            }
        } else {
            doc[k] = v.clone();
        }
    }
    doc.to_string()
}

#[test]
fn malformed_and_impossible_scenarios_name_the_json_path() {
    use serde_json::json;
    let cases: Vec<(serde_json::Value, &str, &str)> = vec![
        (json!({"system": {"x": 0}}), "$.system.x", "from 1 to"),
        (json!({"system": {"z": 3}}), "$.system.z", "no z side"),
        (
            json!({"system": {"kind": "torus3d"}}),
            "$.system.z",
            "missing",
        ),
        (
            json!({"system": {"kind": "fatTree", "levels": 2}}),
            "$.system.x",
            "not sides",
        ),
        (
            json!({"system": {"kind": "mesh2d", "levels": 2}}),
            "$.system.levels",
            "not tree levels",
        ),
        (json!({"system": {"x": 200, "y": 200}}), "$.system", "limit"),
        (
            json!({"system": {"bandwidth": 0}}),
            "$.system.bandwidth",
            "from 1",
        ),
        (
            json!({"job": {"processes": 65}}),
            "$.job.processes",
            "from 1 to 64",
        ),
        (json!({"job": {"kind": "SNAKE"}}), "$.job.kind", ""),
        (json!({"job": {"kind": "metis"}}), "$.job.graph", "missing"),
        (
            json!({"job": {"kind": "metis", "graph": "3 1\n2\n1\n"}}),
            "$.job.graph",
            "line",
        ),
        (
            json!({"job": {"graph": "1 0\n\n"}}),
            "$.job.graph",
            "generated",
        ),
        (json!({"job": {"rounds": 0}}), "$.job.rounds", "from 1"),
        (
            json!({"job": {"colour": 1}}),
            "$.job.colour",
            "unknown field",
        ),
        (json!({"strategies": []}), "$.strategies", "1 to 7"),
        (
            json!({"strategies": ["simple", "simple"]}),
            "$.strategies[1]",
            "twice",
        ),
        (json!({"model": "fast"}), "$.model", ""),
        (
            json!({"background": {"fill": 0.99}}),
            "$.background.fill",
            "0.95",
        ),
        (
            json!({"sweep": {"kinds": ["metis"]}}),
            "$.sweep.kinds[0]",
            "built-in",
        ),
        (
            json!({"sweep": {"processes": [8, 100]}}),
            "$.sweep.processes[1]",
            "from 1 to 64",
        ),
        (
            json!({"system": {"kind": "thinTree", "x": null, "y": null, "simgrid": "2;4,4;1,4;1,1"}}),
            "$.system.simgrid",
            "fat tree",
        ),
        (
            json!({"system": {"kind": "fatTree", "x": null, "y": null, "simgrid": "2;4,4;1"}}),
            "$.system.simgrid",
            "",
        ),
        (
            json!({"system": {"kind": "torus3d", "x": 16, "y": 16, "z": 16},
                   "job": {"kind": "FULL", "processes": 1024, "rounds": 1000}}),
            "$.job",
            "refused before running",
        ),
    ];
    for (extra, path, words) in cases {
        let mut text = scenario(extra.clone());
        // drop nulls (a way to remove the default system sides in the cases above)
        let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
        if let Some(sys) = v["system"].as_object_mut() {
            sys.retain(|_, x| !x.is_null());
        }
        text = v.to_string();
        let e = placelab::api::run(&text, &mut placelab::progress::NoProgress).unwrap_err();
        assert_eq!(e.path, path, "{extra}: {e}");
        assert!(e.message.contains(words), "{extra}: {e}");
    }
}

#[test]
fn a_run_reports_every_strategy_with_ratios_to_advanced() {
    let r = run(&scenario(serde_json::json!({})));
    let runs = r["cases"][0]["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 5);
    let adv = runs.iter().find(|x| x["strategy"] == "advanced").unwrap();
    assert_eq!(adv["ratio"], 1.0);
    for x in runs {
        if x["placed"] == true {
            let t = x["time"].as_f64().unwrap();
            assert!(t > 0.0);
            let ratio = x["ratio"].as_f64().unwrap();
            assert!((ratio - t / adv["time"].as_f64().unwrap()).abs() < 1e-12);
            assert_eq!(x["hosts"].as_array().unwrap().len(), 16);
            assert_eq!(x["edgeHops"].as_array().unwrap().len(), 24);
        }
    }
    // Identity lays the 4x4 task grid on a 4x4 block: every edge one hop
    let id = runs.iter().find(|x| x["strategy"] == "identity").unwrap();
    assert!(id["edgeHops"].as_array().unwrap().iter().all(|h| h == 1));
    assert_eq!(id["dilationMax"], 1);
}

#[test]
fn experiment_two_keeps_the_control_job_off_the_background_nodes() {
    let r = run(&scenario(
        serde_json::json!({"background": {"fill": 0.5, "processes": 8}}),
    ));
    let bg = &r["background"];
    assert_eq!(bg["busyHosts"], 32);
    let mut busy = std::collections::BTreeSet::new();
    for j in bg["jobs"].as_array().unwrap() {
        for h in j["hosts"].as_array().unwrap() {
            assert!(busy.insert(h.as_u64().unwrap()));
        }
    }
    for x in r["cases"][0]["runs"].as_array().unwrap() {
        for h in x["hosts"].as_array().unwrap() {
            assert!(
                !busy.contains(&h.as_u64().unwrap()),
                "{} took a busy node",
                x["strategy"]
            );
        }
    }
    assert_eq!(r["experiment"], 2);
}

#[test]
fn source_reproduction_shows_the_source_figures_beside_ours() {
    let r = run(&scenario(serde_json::json!({
        "sweep": {"kinds": ["GRID", "STAR"], "messageBytes": [1, 1048576]}})));
    let a = r["averages"].as_array().unwrap();
    assert_eq!(a.len(), 4);
    assert_eq!(a[0]["kind"], "GRID");
    // strategies in the default order: simple, random, optimal, advanced, identity
    assert_eq!(a[0]["source"][0], 3.341);
    assert_eq!(a[0]["source"][1], 6.002);
    assert_eq!(a[0]["source"][2], 2.633);
    assert_eq!(a[0]["source"][3], 1.0);
    assert!(a[0]["source"][4].is_null());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    /// A sample scenario with one byte changed is refused with an error or runs; never a panic.
    #[test]
    fn mutated_placement_scenarios_never_panic(which in 0usize..18, pos in 0usize..600, byte in any::<u8>()) {
        let samples = placelab::place::samples::sample_scenarios();
        let mut bytes = samples[which % samples.len()].clone().into_bytes();
        let at = pos % bytes.len();
        bytes[at] = byte;
        if let Ok(text) = String::from_utf8(bytes) {
            let _ = placelab::api::run(&text, &mut placelab::progress::NoProgress);
        }
    }
}

#[test]
fn trees_over_the_simulator_limits_are_refused_before_running() {
    let text = scenario(serde_json::json!({
        "system": {"kind": "fatTree", "simgrid": "12;2,2,2,2,2,2,2,2,2,2,2,2;1,64,64,64,64,64,64,64,64,64,64,64;1,1,1,1,1,1,1,1,1,1,1,1"}}));
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let sys = v["system"].as_object_mut().unwrap();
    sys.remove("x");
    sys.remove("y");
    let e = placelab::api::run(&v.to_string(), &mut placelab::progress::NoProgress).unwrap_err();
    assert!(e.path.starts_with("$.system"), "{e}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// Random small systems, jobs, strategies and backgrounds run or are refused; never a panic,
    /// and every run reports every strategy.
    #[test]
    fn random_small_scenarios_run_or_are_refused(
        sys in 0usize..6, x in 1u64..6, y in 1u64..5, z in 1u64..4, kind in 0usize..5,
        p in 1u64..40, wrap in any::<bool>(), fill in 0.0f64..0.9, bg in any::<bool>(),
        quirks in any::<bool>(), model in any::<bool>(), bytes in 0u64..3, seed in any::<u64>(),
    ) {
        use serde_json::json;
        let system = match sys {
            0 => json!({"kind": "torus2d", "x": x, "y": y}),
            1 => json!({"kind": "torus3d", "x": x, "y": y, "z": z}),
            2 => json!({"kind": "mesh2d", "x": x, "y": y}),
            3 => json!({"kind": "mesh3d", "x": x, "y": y, "z": z}),
            4 => json!({"kind": "fatTree", "levels": z, "down": x.max(2)}),
            _ => json!({"kind": "thinTree", "levels": z.max(2), "down": x.max(3), "up": 2}),
        };
        let kinds = ["STAR", "GRID", "CUBE", "TREE", "FULL"];
        let message = [0.0, 1.0, 1e6][bytes as usize];
        let mut doc = json!({"version": 1, "engine": "place", "seed": seed, "system": system,
            "job": {"kind": kinds[kind], "processes": p, "rounds": 2, "wrap": wrap,
                    "messageBytes": message},
            "sourceQuirks": quirks, "model": if model { "max-min" } else { "simgrid-lv08" }});
        if bg {
            doc["background"] = json!({"fill": fill, "processes": 1 + p % 5});
        }
        if let Ok(out) = placelab::api::run(&doc.to_string(), &mut placelab::progress::NoProgress) {
            let v: serde_json::Value = serde_json::from_str(&out).unwrap();
            prop_assert_eq!(v["report"]["cases"][0]["runs"].as_array().unwrap().len(), 5);
        }
    }
}

/// `timeLimit` is the scenario's own admission limit, and the simulation budgets follow it: a
/// scattered 1 MB GRID on a 16x16 torus (about 50,000 recomputed flows) finishes under the
/// default limit and stops at the budget under 0.1 s (35,000 flows), with the same placements;
/// a scenario over the default limit is refused naming it and admitted under a larger one.
#[test]
fn time_limit_scales_admission_and_the_simulation_budgets() {
    let base = serde_json::json!({"system": {"kind": "torus2d", "x": 16, "y": 16},
        "job": {"kind": "GRID", "processes": 256, "rounds": 1, "messageBytes": 1048576, "wrap": true},
        "strategies": ["random", "advanced"]});
    let default = run(&scenario(base.clone()));
    let mut short = base.clone();
    short["timeLimit"] = serde_json::json!(0.1);
    let short = run(&scenario(short));
    let (d, s) = (&default["cases"][0]["runs"], &short["cases"][0]["runs"]);
    assert!(d[0]["time"].as_f64().unwrap() > 0.0, "{}", d[0]);
    assert!(s[0]["time"].is_null());
    let reason = s[0]["reason"].as_str().unwrap();
    assert!(
        reason.contains("over the budget of 35000 flows"),
        "{reason}"
    );
    assert_eq!(d[0]["hosts"], s[0]["hosts"]);
    assert_eq!(
        d[1]["time"], s[1]["time"],
        "Advanced needs little: both finish"
    );

    let mut big = serde_json::json!({"system": {"kind": "torus2d", "x": 64, "y": 64},
        "job": {"kind": "CUBE", "processes": 2048, "rounds": 10, "messageBytes": 1048576, "wrap": true},
        "background": {"fill": 0.5, "processes": 32},
        "strategies": ["simple", "optimal", "advanced", "identity", "mapped"], "endTolerance": 0.02});
    let err = placelab::api::check(&scenario(big.clone()))
        .unwrap_err()
        .to_string();
    assert!(err.contains("the limit is 10 s"), "{err}");
    big["timeLimit"] = serde_json::json!(60);
    placelab::api::check(&scenario(big.clone())).unwrap();
    big["timeLimit"] = serde_json::json!(3601);
    let err = placelab::api::check(&scenario(big))
        .unwrap_err()
        .to_string();
    assert!(err.contains("timeLimit"), "{err}");
}
