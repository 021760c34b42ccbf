//! Placement on networks the strategies see through their routes (system kinds `torus` of any
//! dimension, `dragonfly`, `simgrid` platform files): a torus's routes are SimGrid's torus
//! cluster's link by link, the route table is the simulator's route lengths, every strategy
//! puts each task on its own free host, the report's hop-bytes are recounted from the routes,
//! runs repeat byte for byte, launcher files carry a file's host names, and bad systems are
//! refused at their JSON path.

mod support;

use placelab::formats::hostfile::{self, Format, Pick};
use placelab::formats::simgrid;
use placelab::netsim::{LinkParams, Platform, System};
use placelab::place::strategy::Shape;
use serde_json::{json, Value};
use support::net_machine;

fn try_run(scenario: &Value) -> Result<Value, String> {
    placelab::api::run(&scenario.to_string(), &mut placelab::progress::NoProgress)
        .map(|out| serde_json::from_str(&out).unwrap())
        .map_err(|e| e.to_string())
}

fn run(scenario: &Value) -> Value {
    try_run(scenario).unwrap()
}

fn error_of(scenario: &Value) -> String {
    match try_run(scenario) {
        Err(e) => e,
        Ok(_) => panic!("accepted: {}", scenario["system"]),
    }
}

fn scenario(system: Value, job: Value, strategies: &[&str]) -> Value {
    json!({"version": 1, "engine": "place", "seed": 3, "system": system, "job": job,
           "strategies": strategies})
}

const ALL: [&str; 6] = [
    "simple", "random", "optimal", "advanced", "identity", "mapped",
];

fn systems() -> Vec<Value> {
    vec![
        json!({"kind": "torus", "dims": [3, 2, 4, 2, 2]}),
        json!({"kind": "dragonfly", "simgrid": "3,2;2,1;3,1;2"}),
        json!({"kind": "simgrid", "platform": include_str!("fixtures/simgrid-xml/cluster_multi.xml")}),
        json!({"kind": "simgrid", "platform": include_str!("fixtures/simgrid-xml/cluster_dragonfly.xml")}),
    ]
}

#[test]
fn a_torus_of_any_dimension_routes_as_simgrids_torus_cluster() {
    for dims in [
        vec![3, 2, 2, 2],
        vec![2, 3, 1, 2, 2],
        vec![2, 2, 2, 2, 2, 3],
        vec![5],
    ] {
        let built =
            Platform::build(&System::Torus { dims: dims.clone() }, LinkParams::SOURCE).unwrap();
        let xml = simgrid::write::platform(&built, "t").unwrap();
        let read = Platform::from_simgrid(simgrid::parse(&xml, "t.xml").unwrap()).unwrap();
        assert_eq!(read.hosts(), built.hosts());
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for s in 0..built.hosts() {
            for d in 0..built.hosts() {
                a.clear();
                b.clear();
                built.route(s, d, &mut a);
                read.route(s, d, &mut b);
                let na: Vec<String> = a.iter().map(|&l| built.simgrid_link_name("t", l)).collect();
                let nb: Vec<String> = b.iter().map(|&l| read.simgrid_link_name("t", l)).collect();
                assert_eq!(na, nb, "{dims:?}: {s} -> {d}");
                assert_eq!(built.hops(s, d), a.len() as u32);
            }
        }
    }
}

#[test]
fn the_route_table_is_the_simulators_route_lengths() {
    for system in systems() {
        let (shape, p) = net_machine(&system.to_string());
        let Shape::Net { hops, down } = &shape else {
            panic!("{system}: not a network shape")
        };
        assert_eq!(down.iter().product::<u32>(), p.hosts());
        let mut r = Vec::new();
        for a in 0..p.hosts() {
            for b in 0..p.hosts() {
                r.clear();
                if a != b {
                    p.route(a, b, &mut r);
                }
                assert_eq!(hops.get(p.hosts(), a, b), r.len() as u32, "{a} -> {b}");
            }
        }
    }
}

/// Hop-bytes (both directions, as the report counts them) of `hosts` for a job's task edges,
/// recounted from the routes.
fn recount(p: &Platform, report: &Value, case: usize, hosts: &[u32]) -> f64 {
    let c = &report["cases"][case];
    let unit = c["messageBytes"].as_f64().unwrap();
    let kind = c["kind"].as_str().unwrap();
    let n = c["processes"].as_u64().unwrap() as u32;
    let kind = placelab::place::jobs::JobKind::from_id(kind).unwrap();
    // every job of these tests wraps its GRID and CUBE
    let job = placelab::place::jobs::task_graph(kind, n, true, None).unwrap();
    let g = &job.graph;
    let mut sum = 0.0;
    let mut r = Vec::new();
    for v in 0..g.n() {
        for (&u, &w) in g.neighbors(v).iter().zip(g.edge_weights(v)) {
            r.clear();
            p.route(hosts[v as usize], hosts[u as usize], &mut r);
            sum += f64::from(w) * unit * r.len() as f64;
        }
    }
    sum
}

#[test]
fn every_strategy_places_each_task_on_its_own_host_and_hop_bytes_follow_the_routes() {
    for system in systems() {
        let (_, p) = net_machine(&system.to_string());
        for (kind, frac) in [("GRID", 1.0), ("CUBE", 0.5), ("TREE", 0.75), ("STAR", 0.3)] {
            let n = ((f64::from(p.hosts()) * frac) as u32).max(2);
            let s = scenario(
                system.clone(),
                json!({"kind": kind, "processes": n, "rounds": 2, "messageBytes": 1000, "wrap": true}),
                &ALL,
            );
            let out = run(&s);
            let rep = &out["report"];
            for r in rep["cases"][0]["runs"].as_array().unwrap() {
                let st = r["strategy"].as_str().unwrap();
                if st == "identity" {
                    assert_eq!(r["placed"], false);
                    continue;
                }
                assert_eq!(r["placed"], true, "{system} {kind} {st}: {}", r["reason"]);
                let hosts = support::hosts_of(&r["hosts"]);
                assert_eq!(hosts.len() as u32, n);
                let mut seen = vec![false; p.hosts() as usize];
                for &h in &hosts {
                    assert!(
                        !std::mem::replace(&mut seen[h as usize], true),
                        "{st}: host {h} twice"
                    );
                }
                let hb = r["hopBytes"].as_f64().unwrap();
                let want = recount(&p, rep, 0, &hosts);
                assert!(
                    (hb - want).abs() <= 1e-9 * want.max(1.0),
                    "{st}: {hb} != {want}"
                );
                assert!(r["time"].as_f64().unwrap() > 0.0);
            }
            // the same scenario, the same report
            assert_eq!(run(&s), out);
        }
    }
}

#[test]
fn mapped_is_never_slower_than_simple_on_a_5d_torus_and_a_dragonfly() {
    for system in [
        json!({"kind": "torus", "dims": [4, 4, 2, 2, 2]}),
        json!({"kind": "dragonfly", "simgrid": "4,2;2,1;4,1;2"}),
    ] {
        for kind in ["GRID", "CUBE", "TREE"] {
            let s = scenario(
                system.clone(),
                json!({"kind": kind, "processes": 64, "rounds": 5, "messageBytes": 100000, "wrap": true}),
                &["simple", "optimal", "mapped"],
            );
            let out = run(&s);
            let runs = out["report"]["cases"][0]["runs"]
                .as_array()
                .unwrap()
                .clone();
            let t = |st: &str| {
                runs.iter().find(|r| r["strategy"] == st).unwrap()["time"]
                    .as_f64()
                    .unwrap()
            };
            assert!(
                t("mapped") <= t("simple") && t("mapped") <= t("optimal"),
                "{system} {kind}"
            );
        }
    }
}

#[test]
fn a_report_on_a_platform_file_names_its_hosts_and_launcher_files_use_them() {
    let xml = include_str!("fixtures/simgrid-xml/small_platform.xml");
    let s = scenario(
        json!({"kind": "simgrid", "platform": xml}),
        json!({"kind": "STAR", "processes": 4, "rounds": 1, "messageBytes": 1000000}),
        &["simple", "mapped"],
    );
    let out = run(&s);
    let sys = &out["report"]["system"];
    assert_eq!(sys["kind"], "simgrid");
    let names: Vec<&str> = sys["hostNames"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap())
        .collect();
    assert_eq!(names.len(), 7);
    assert!(names.contains(&"Tremblay") && names.contains(&"Jupiter"));
    let pick = Pick {
        strategy: Some("simple".into()),
        ..Pick::default()
    };
    let (text, _) = hostfile::from_report_text(&out.to_string(), Format::Mpich, &pick).unwrap();
    let hosts: Vec<u32> = out["report"]["cases"][0]["runs"][0]["hosts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h.as_u64().unwrap() as u32)
        .collect();
    // MPICH's machinefile: one `host:1` line per rank
    let want: Vec<String> = hosts
        .iter()
        .map(|&h| format!("{}:1", names[h as usize]))
        .collect();
    assert_eq!(text.lines().collect::<Vec<_>>(), want);
}

#[test]
fn the_report_gives_a_networks_groups_and_a_tori_its_sides() {
    let out = run(&scenario(
        json!({"kind": "torus", "dims": [2, 2, 2, 2]}),
        json!({"kind": "FULL", "processes": 4}),
        &["simple"],
    ));
    assert_eq!(out["report"]["system"]["dims"], json!([2, 2, 2, 2]));
    assert_eq!(out["report"]["system"]["groups"], json!([2, 2, 2, 2]));
    let out = run(&scenario(
        json!({"kind": "dragonfly", "simgrid": "3,2;2,1;3,1;2"}),
        json!({"kind": "FULL", "processes": 4}),
        &["simple"],
    ));
    // nodes per router, routers per chassis, chassis per group, groups
    assert_eq!(out["report"]["system"]["groups"], json!([2, 3, 2, 3]));
    assert_eq!(out["report"]["system"]["simgrid"], "3,2;2,1;3,1;2");
    assert_eq!(out["report"]["system"]["linkEnds"], json!([]));
}

#[test]
fn bad_systems_are_refused_at_their_path() {
    let job = json!({"kind": "GRID", "processes": 4});
    let cases = [
        (json!({"kind": "torus"}), "$.system.dims: missing"),
        (
            json!({"kind": "torus", "dims": []}),
            "$.system.dims: give 1 to 6 sides",
        ),
        (
            json!({"kind": "torus", "dims": [2, 2, 2, 2, 2, 2, 2]}),
            "$.system.dims: give 1 to 6 sides",
        ),
        (
            json!({"kind": "torus", "dims": [2, 0, 2]}),
            "$.system.dims[1]",
        ),
        (
            json!({"kind": "torus", "dims": [16, 16, 16, 2]}),
            "$.system.dims: 16 x 16 x 16 x 2 is over 4096 hosts",
        ),
        (
            json!({"kind": "torus", "dims": [4, 4], "x": 4}),
            "$.system.x: a torus is given by dims alone",
        ),
        (
            json!({"kind": "torus2d", "x": 4, "y": 4, "dims": [4, 4]}),
            "$.system.dims: dims belongs to kind torus",
        ),
        (json!({"kind": "dragonfly"}), "$.system.simgrid: missing"),
        (
            json!({"kind": "dragonfly", "simgrid": "3,4;4,3;5"}),
            "$.system.simgrid: topo_parameters of a DRAGONFLY must be",
        ),
        (
            json!({"kind": "dragonfly", "simgrid": "9,1;1,1;2,1;1"}),
            "more groups (9) than routers per chassis (2)",
        ),
        (
            json!({"kind": "dragonfly", "simgrid": "40,1;10,1;40,1;2"}),
            "$.system.simgrid: 32000 hosts; the limit for a dragonfly is 4096",
        ),
        (json!({"kind": "simgrid"}), "$.system.platform: missing"),
        (
            json!({"kind": "simgrid", "platform": "<platform version=\"4.1\"><zone id=\"z\" routing=\"Full\"><host id=\"a\" speed=\"1Gf\"/><bogus/></zone></platform>"}),
            "$.system.platform: platform:1:",
        ),
        (
            json!({"kind": "simgrid", "platform": "<platform version=\"4.1\"><zone id=\"z\" routing=\"Full\"></zone></platform>"}),
            "$.system.platform: platform: the platform has no host",
        ),
        (
            json!({"kind": "simgrid", "platform": "<platform"}),
            "$.system.platform: platform:1:",
        ),
        (
            json!({"kind": "simgrid", "platform": "x", "simgrid": "1"}),
            "$.system.simgrid: a simgrid is given by platform alone",
        ),
    ];
    for (system, want) in cases {
        let e = error_of(&scenario(system.clone(), job.clone(), &["simple"]));
        assert!(e.contains(want), "{system}: {e}");
    }
}

#[test]
fn a_strategy_on_busy_nodes_of_a_dragonfly_leaves_them_alone() {
    // experiment 2 on a dragonfly: the background fills half the hosts
    let s = json!({"version": 1, "engine": "place", "seed": 5,
        "system": {"kind": "dragonfly", "simgrid": "3,2;2,1;3,1;2"},
        "job": {"kind": "GRID", "processes": 12, "rounds": 2, "messageBytes": 1000, "wrap": true},
        "background": {"fill": 0.5, "processes": 4},
        "strategies": ["simple", "random", "optimal", "advanced", "mapped"]});
    let out = run(&s);
    let rep = &out["report"];
    let mut busy = std::collections::BTreeSet::new();
    for j in rep["background"]["jobs"].as_array().unwrap() {
        for h in j["hosts"].as_array().unwrap() {
            assert!(busy.insert(h.as_u64().unwrap()), "background host twice");
        }
    }
    assert!(!busy.is_empty());
    for r in rep["cases"][0]["runs"].as_array().unwrap() {
        assert_eq!(r["placed"], true);
        for h in r["hosts"].as_array().unwrap() {
            assert!(
                !busy.contains(&h.as_u64().unwrap()),
                "{} used a busy host",
                r["strategy"]
            );
        }
    }
}
