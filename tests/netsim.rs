//! The network simulator against SimGrid 3.32, from the fixture `scripts/simgrid-fixture.py`
//! recorded once (`tests/fixtures/simgrid/`): routes must be identical link for link, and
//! completion times within 5 % of SimGrid's default model (LV08, lazy selective update) on torus
//! and tree scenarios (single flows, shared links, opposite flows, GRID / STAR / all-to-all jobs
//! under compact, row-major and random placements, bulk-synchronous rounds of one or two jobs),
//! and within 1e-9 of the same model solved over the whole system at every event
//! (`network/optim:Full`), which is the sharing rule we implement.

use std::collections::BTreeMap;

use placelab::netsim::{
    parse_fat_tree, simulate, simulate_rounds, Flow, JobTraffic, LinkParams, Message, Model,
    Platform, System,
};
use placelab::progress::NoProgress;
use serde_json::Value;

const ROUTES: &str = include_str!("fixtures/simgrid/routes.json");
const SCENARIOS: &str = include_str!("fixtures/simgrid/scenarios.json");

fn platform(kind: &str, params: &str) -> Platform {
    let sys = match kind {
        "TORUS" => {
            let d: Vec<u32> = params.split(',').map(|x| x.parse().unwrap()).collect();
            match d.len() {
                2 => System::Torus2d { x: d[0], y: d[1] },
                3 => System::Torus3d {
                    x: d[0],
                    y: d[1],
                    z: d[2],
                },
                _ => panic!("torus {params}"),
            }
        }
        "FAT_TREE" => System::FatTree(parse_fat_tree(params).unwrap()),
        _ => panic!("kind {kind}"),
    };
    Platform::build(&sys, LinkParams::SOURCE).unwrap()
}

#[test]
fn routes_equal_simgrid_on_every_host_pair() {
    let v: Value = serde_json::from_str(ROUTES).unwrap();
    let zone = v["zone"].as_str().unwrap();
    let mut route = Vec::new();
    let mut checked = 0;
    for pf in v["platforms"].as_array().unwrap() {
        let (kind, params) = (pf["kind"].as_str().unwrap(), pf["params"].as_str().unwrap());
        let p = platform(kind, params);
        let n = pf["hosts"].as_u64().unwrap() as u32;
        assert_eq!(p.hosts(), n, "{kind} {params}");
        let names: Vec<&str> = pf["links"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_str().unwrap())
            .collect();
        for s in 0..n {
            for d in 0..n {
                let want: Vec<&str> = pf["routes"][s as usize][d as usize]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|i| names[i.as_u64().unwrap() as usize])
                    .collect();
                route.clear();
                p.route(s, d, &mut route);
                let got: Vec<String> = route
                    .iter()
                    .map(|&l| p.simgrid_link_name(zone, l))
                    .collect();
                assert_eq!(got, want, "{kind} {params}: route {s} -> {d}");
                assert_eq!(
                    p.hops(s, d) as usize,
                    want.len(),
                    "{kind} {params}: hops {s} -> {d}"
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 10_000);
}

/// Relative error of `got` against `want`.
fn rel(got: f64, want: f64) -> f64 {
    (got - want).abs() / want.abs().max(1e-12)
}

#[test]
fn completion_times_are_within_5_percent_of_simgrid() {
    let v: Value = serde_json::from_str(SCENARIOS).unwrap();
    let mut worst: BTreeMap<String, (f64, String)> = BTreeMap::new();
    let mut worst_full: BTreeMap<String, (f64, String)> = BTreeMap::new();
    let mut failures = Vec::new();
    for sc in v["scenarios"].as_array().unwrap() {
        let family = sc["family"].as_str().unwrap().to_string();
        let name = format!(
            "{} / {} / {}",
            family,
            sc["platform"].as_str().unwrap(),
            sc["name"].as_str().unwrap()
        );
        let p = platform(sc["kind"].as_str().unwrap(), sc["params"].as_str().unwrap());
        let mut errs = Vec::new();
        let mut errs_full: Vec<(f64, String)> = Vec::new();
        if let Some(flows) = sc.get("flows") {
            let flows: Vec<Flow> = flows
                .as_array()
                .unwrap()
                .iter()
                .map(|f| Flow {
                    src: f[0].as_u64().unwrap() as u32,
                    dst: f[1].as_u64().unwrap() as u32,
                    bytes: f[2].as_f64().unwrap(),
                    start: f[3].as_f64().unwrap(),
                })
                .collect();
            let r = simulate(&p, &flows, Model::SimgridLv08, &mut NoProgress).unwrap();
            for (i, want) in sc["finish"].as_array().unwrap().iter().enumerate() {
                errs.push((
                    rel(r.finish[i], want.as_f64().unwrap()),
                    format!("flow {i}"),
                ));
            }
            for (i, want) in sc["finish_full"].as_array().unwrap().iter().enumerate() {
                errs_full.push((
                    rel(r.finish[i], want.as_f64().unwrap()),
                    format!("flow {i}"),
                ));
            }
        } else {
            let jobs: Vec<JobTraffic> = sc["jobs"]
                .as_array()
                .unwrap()
                .iter()
                .map(|j| JobTraffic {
                    messages: j["messages"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|m| Message {
                            src: m[0].as_u64().unwrap() as u32,
                            dst: m[1].as_u64().unwrap() as u32,
                            bytes: m[2].as_f64().unwrap(),
                        })
                        .collect(),
                    compute: j["compute"].as_f64().unwrap(),
                    rounds: j["rounds"].as_u64().unwrap() as u32,
                    start: j["start"].as_f64().unwrap(),
                })
                .collect();
            let r = simulate_rounds(&p, &jobs, Model::SimgridLv08, &mut NoProgress).unwrap();
            for (i, want) in sc["job_end"].as_array().unwrap().iter().enumerate() {
                errs.push((
                    rel(r.job_end[i], want.as_f64().unwrap()),
                    format!("job {i}"),
                ));
            }
            for (i, want) in sc["job_end_full"].as_array().unwrap().iter().enumerate() {
                errs_full.push((
                    rel(r.job_end[i], want.as_f64().unwrap()),
                    format!("job {i}"),
                ));
            }
        }
        for (e, what) in errs {
            let w = worst.entry(family.clone()).or_insert((0.0, String::new()));
            if e > w.0 {
                *w = (e, format!("{name}: {what}"));
            }
            if e > 0.05 {
                failures.push(format!("{name}: {what} off by {:.2} %", 100.0 * e));
            }
        }
        for (e, what) in errs_full {
            let w = worst_full
                .entry(family.clone())
                .or_insert((0.0, String::new()));
            if e > w.0 {
                *w = (e, format!("{name}: {what}"));
            }
            if e > 1e-9 {
                failures.push(format!("{name}: {what} off by {e:.2e} from Full"));
            }
        }
    }
    for (family, (e, at)) in &worst {
        println!(
            "{family:>12}: max error {:.3} % vs default ({at})",
            100.0 * e
        );
    }
    for (family, (e, at)) in &worst_full {
        println!("{family:>12}: max error {e:.1e} vs Full ({at})");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The work budget: within it the result is `simulate_rounds`'s exactly; over it, an error that
/// says where it stopped (the placement engine reports such a run as not simulated).
#[test]
fn a_work_budget_stops_the_simulation_with_a_reason_and_otherwise_changes_nothing() {
    let p = Platform::build(&System::Torus2d { x: 4, y: 4 }, LinkParams::SOURCE).unwrap();
    let mut messages = Vec::new();
    for a in 0..16u32 {
        for b in 0..16u32 {
            if a != b {
                messages.push(Message {
                    src: a,
                    dst: (b * 7 + a) % 16,
                    bytes: 1e6,
                });
            }
        }
    }
    let job = JobTraffic {
        messages,
        compute: 0.0,
        rounds: 3,
        start: 0.0,
    };
    for model in [Model::MaxMin, Model::SimgridLv08] {
        let full = simulate_rounds(&p, std::slice::from_ref(&job), model, &mut NoProgress).unwrap();
        let within = placelab::netsim::simulate_rounds_within(
            &p,
            std::slice::from_ref(&job),
            model,
            u64::MAX / 2,
            placelab::netsim::Lazy::Auto,
            &mut NoProgress,
        )
        .unwrap();
        assert_eq!(full, within);
        let over = placelab::netsim::simulate_rounds_within(
            &p,
            std::slice::from_ref(&job),
            model,
            100,
            placelab::netsim::Lazy::Auto,
            &mut NoProgress,
        )
        .unwrap_err();
        assert!(over.starts_with("not simulated to the end"), "{over}");
        assert!(over.contains("budget of 100 flows"), "{over}");
    }
}

/// The ways of recomputing flow ends agree: on a scattered (randomly placed) wrapped grid, the
/// slack method gives the scanning method's times to 1e-9 (the same rates but for the order of
/// floating-point sums), and the default (`Auto`), which scans until 500,000 recomputed flows,
/// gives a simulation that small exactly the scanning method's result.
#[test]
fn flow_ends_recomputed_by_scan_slack_and_auto_agree_on_a_scattered_grid() {
    use placelab::netsim::{simulate_every_round_with, Lazy};
    let p = Platform::build(&System::Torus3d { x: 6, y: 6, z: 6 }, LinkParams::SOURCE).unwrap();
    let mut rng = placelab::rng::Rng::seeded(5);
    let mut host: Vec<u32> = (0..216).collect();
    for i in (1..host.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        host.swap(i, j);
    }
    let side = 14u32;
    let mut messages = Vec::new();
    for t in 0..side * side {
        let (x, y) = (t % side, t / side);
        for u in [((x + 1) % side) + side * y, x + side * ((y + 1) % side)] {
            for (a, b) in [(t, u), (u, t)] {
                messages.push(Message {
                    src: host[a as usize],
                    dst: host[b as usize],
                    bytes: 1e6,
                });
            }
        }
    }
    let job = JobTraffic {
        messages,
        compute: 1e-3,
        rounds: 2,
        start: 0.0,
    };
    for model in [Model::MaxMin, Model::SimgridLv08] {
        let run = |lazy| {
            simulate_every_round_with(&p, std::slice::from_ref(&job), model, lazy, &mut NoProgress)
                .unwrap()
        };
        let (scan, slack, auto) = (run(Lazy::Scan), run(Lazy::Slack), run(Lazy::Auto));
        assert!(scan.solved_flows < 500_000);
        assert_eq!(auto, scan, "{model:?}");
        assert_eq!(slack.link_bytes, scan.link_bytes);
        for (a, b) in [
            (slack.job_end[0], scan.job_end[0]),
            (slack.comm_time[0], scan.comm_time[0]),
        ] {
            assert!((a - b).abs() <= 1e-9 * b, "{model:?}: {a} vs {b}");
        }
        assert!(
            slack.work < scan.work,
            "{model:?}: {} vs {}",
            slack.work,
            scan.work
        );
    }
}
