//! The SimGrid platform file importer against SimGrid 3.32, from the fixtures
//! `scripts/simgrid-xml-fixture.py` recorded once (`tests/fixtures/simgrid-xml/`): SimGrid's
//! own example platforms, one of ours, and a 4x3 mesh written by `placelab netsim
//! --write-platform` (so SimGrid also checks the writer). Every host pair's route must name the same links in
//! the same order, and every flow's completion time (LV08) must be within 5 % of SimGrid's.

use placelab::formats::simgrid;
use placelab::netsim::{simulate, Flow, Model, Platform};
use placelab::progress::NoProgress;
use serde_json::Value;
use std::collections::BTreeMap;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/simgrid-xml");

const PLATFORMS: [&str; 11] = [
    "small_platform",
    "small_platform_fatpipe",
    "cluster_backbone",
    "cluster_fat_tree",
    "cluster_torus",
    "cluster_multi",
    "routing_cluster",
    "placelab_mixed",
    "placelab_written_mesh",
    "cluster_dragonfly",
    "placelab_dragonfly",
];

fn load(name: &str) -> (Platform, Value, BTreeMap<String, u32>) {
    let xml = std::fs::read_to_string(format!("{DIR}/{name}.xml")).unwrap();
    let sg = simgrid::parse(&xml, &format!("{name}.xml")).unwrap();
    let p = Platform::from_simgrid(sg).unwrap();
    let fx: Value =
        serde_json::from_str(&std::fs::read_to_string(format!("{DIR}/{name}.json")).unwrap())
            .unwrap();
    let r = p.routed().unwrap();
    let ids: BTreeMap<String, u32> = (0..p.hosts())
        .map(|h| (r.description().host_name(h).to_string(), h))
        .collect();
    (p, fx, ids)
}

#[test]
fn routes_equal_simgrid_link_by_link() {
    let mut checked = 0;
    for name in PLATFORMS {
        let (p, fx, ids) = load(name);
        assert_eq!(
            fx["hosts"].as_array().unwrap().len(),
            p.hosts() as usize,
            "{name}"
        );
        let r = p.routed().unwrap();
        let mut route = Vec::new();
        for e in fx["routes"].as_array().unwrap() {
            let (s, d) = (ids[e[0].as_str().unwrap()], ids[e[1].as_str().unwrap()]);
            let want: Vec<&str> = e[2]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_str().unwrap())
                .collect();
            route.clear();
            p.route(s, d, &mut route);
            let got: Vec<&str> = route.iter().map(|&l| r.link_name(l)).collect();
            assert_eq!(got, want, "{name}: {} -> {}", e[0], e[1]);
            assert_eq!(p.hops(s, d) as usize, want.len());
            checked += 1;
        }
    }
    assert!(checked > 10_000, "{checked}");
}

#[test]
fn completion_times_within_5_percent_of_simgrid() {
    let mut worst: (f64, String) = (0.0, String::new());
    let mut n = 0;
    for name in PLATFORMS {
        let (p, fx, ids) = load(name);
        for sc in fx["scenarios"].as_array().unwrap() {
            let flows: Vec<Flow> = sc["flows"]
                .as_array()
                .unwrap()
                .iter()
                .map(|f| Flow {
                    src: ids[f[0].as_str().unwrap()],
                    dst: ids[f[1].as_str().unwrap()],
                    bytes: f[2].as_f64().unwrap(),
                    start: f[3].as_f64().unwrap(),
                })
                .collect();
            let res = simulate(&p, &flows, Model::SimgridLv08, &mut NoProgress).unwrap();
            for (i, want) in sc["finish"].as_array().unwrap().iter().enumerate() {
                let want = want.as_f64().unwrap();
                let err = (res.finish[i] - want).abs() / want;
                if err > worst.0 {
                    worst = (err, format!("{name} / {} / flow {i}", sc["name"]));
                }
                assert!(
                    err <= 0.05,
                    "{name} / {}: flow {i} ends at {} in ours, {want} in SimGrid",
                    sc["name"],
                    res.finish[i]
                );
                n += 1;
            }
        }
    }
    eprintln!(
        "{n} flows, largest relative error {:.2e} ({})",
        worst.0, worst.1
    );
}

/// A platform written as SimGrid XML and read back simulates as the one built from parameters:
/// the same links, routes and per-link values, so the same times (up to the order of the
/// latency sums) and the same bytes on every link, named alike.
#[test]
fn written_then_read_platforms_simulate_as_the_built_ones() {
    use placelab::formats::simgrid::write;
    use placelab::netsim::{
        parse_fat_tree, simulate_rounds, JobTraffic, LinkParams, Message, System,
    };
    for sys in [
        System::Torus3d { x: 4, y: 4, z: 4 },
        System::Mesh2d { x: 6, y: 5 },
        System::FatTree(parse_fat_tree("2;4,4;1,2;1,2").unwrap()),
    ] {
        let p = Platform::build(&sys, LinkParams::SOURCE).unwrap();
        let xml = write::platform(&p, "w").unwrap();
        let q = Platform::from_simgrid(simgrid::parse(&xml, "w.xml").unwrap()).unwrap();
        let n = p.hosts();
        // Every host sends to the host n/2 further, and to its successor.
        let mut messages = Vec::new();
        for h in 0..n {
            for d in [(h + n / 2) % n, (h + 1) % n] {
                messages.push(Message {
                    src: h,
                    dst: d,
                    bytes: 1e6,
                });
            }
        }
        let job = [JobTraffic {
            messages,
            compute: 0.0,
            rounds: 2,
            start: 0.0,
        }];
        for model in [Model::SimgridLv08, Model::MaxMin] {
            let a = simulate_rounds(&p, &job, model, &mut NoProgress).unwrap();
            let b = simulate_rounds(&q, &job, model, &mut NoProgress).unwrap();
            let err = (a.makespan - b.makespan).abs() / a.makespan;
            assert!(
                err < 1e-12,
                "{sys:?} {model:?}: {} vs {}",
                a.makespan,
                b.makespan
            );
            // Bytes per link, by SimGrid name.
            let r = q.routed().unwrap();
            let mut by_name: BTreeMap<String, f64> = BTreeMap::new();
            for l in 0..q.links() {
                by_name.insert(r.link_name(l).to_string(), b.link_bytes[l as usize]);
            }
            for l in 0..p.links() {
                assert_eq!(
                    by_name[&p.simgrid_link_name("w", l)],
                    a.link_bytes[l as usize],
                    "{sys:?}"
                );
            }
        }
    }
}
