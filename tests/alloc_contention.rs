//! The allocation engine's run time under contention (scenario option `contention`,
//! `src/alloc/runtime.rs`): slowdowns from the flow-level network simulator, checked end to end
//! through the public dispatcher, on hand-checkable cases and on the Tianhe-1A example.

use placelab::alloc::metrics;
use placelab::alloc::metrics::Comm;
use placelab::alloc::runtime::{alloc_link, messages, platform_of};
use placelab::api;
use placelab::netsim::LinkParams;
use placelab::progress::NoProgress;
use placelab::rng::Rng;
use placelab::topology::{Mesh, Topology, Tree};
use serde_json::{json, Value};
use std::collections::BTreeSet;

fn run(doc: &Value) -> Value {
    let text = api::run(&doc.to_string(), &mut NoProgress).unwrap_or_else(|e| panic!("{e}\n{doc}"));
    serde_json::from_str(&text).unwrap()
}

fn error(doc: &Value) -> String {
    match api::run(&doc.to_string(), &mut NoProgress) {
        Ok(_) => panic!("accepted: {doc}"),
        Err(e) => e.to_string(),
    }
}

fn job(name: &str, tasks: u64, comm: &str, arrival: f64, duration: f64) -> Value {
    json!({"name": name, "tasks": tasks, "comm": comm, "arrival": arrival, "duration": duration})
}

/// `count` jobs `j0, j1, ...` arriving `gap` s apart, each with a pattern of `comms`, `lo` to
/// `lo + span - 1` tasks and 1 to `durations` s, drawn from `rng`.
fn random_jobs(
    rng: &mut Rng,
    count: usize,
    comms: &[&str],
    (lo, span): (u64, u64),
    gap: f64,
    durations: u64,
) -> Vec<Value> {
    (0..count)
        .map(|i| {
            let comm = comms[rng.below(comms.len() as u64) as usize];
            job(
                &format!("j{i}"),
                lo + rng.below(span),
                comm,
                i as f64 * gap,
                1.0 + rng.below(durations) as f64,
            )
        })
        .collect()
}

fn stream(system: Value, policies: Value, contention: Value, jobs: Vec<Value>) -> Value {
    json!({"version": 1, "engine": "allocation", "seed": 1, "system": system,
           "policies": policies, "contention": contention,
           "workload": {"kind": "stream", "jobs": jobs}})
}

fn run_time(j: &Value) -> f64 {
    j["end"].as_f64().unwrap() - j["start"].as_f64().unwrap()
}

#[test]
fn a_job_alone_on_the_machine_runs_at_its_baseline() {
    for model in ["max-min", "simgrid-lv08"] {
        for comm in ["all", "neighbor"] {
            let doc = stream(
                json!({"kind": "mesh", "width": 4, "height": 4}),
                json!(["sequential", "closed-min-best"]),
                json!({"model": model, "bandwidth": 1e8, "otherRate": 5e7}),
                vec![job("a", 9, comm, 0.0, 10.0), job("b", 9, comm, 20.0, 5.0)],
            );
            let r = run(&doc);
            for run in r["report"]["runs"].as_array().unwrap() {
                for j in run["jobs"].as_array().unwrap() {
                    let c = &j["contention"];
                    assert_eq!(c["maxSlowdown"], 1.0, "{model} {comm} {j}");
                    assert!(c["commFraction"].as_f64().unwrap() > 0.0, "{j}");
                    assert!(
                        (run_time(j) - j["contention"]["runTime"].as_f64().unwrap()).abs() < 1e-12
                    );
                    let base = if j["name"] == "a" { 10.0 } else { 5.0 };
                    assert!((run_time(j) - base).abs() < 1e-9, "{j}");
                }
            }
        }
    }
}

/// Tree [2, 2], one core per node, max-min, no latency, links of 1 GB/s. `z` (no traffic) holds
/// node 0 until t = 1, so sequential puts `x` on nodes 1 and 2 (across the root); `y` arrives at
/// t = 2 and gets nodes 0 and 3, also across the root. Each job sends 0.25 GB per second each
/// way (a = 0.25); together the up-link of the left switch and the down-link of the right one
/// carry both jobs' flows at half rate each (s = 2), so both run at (1 - a) + a s = 1.25 s per
/// baseline second. `x`: 2 s alone, 8 baseline s left, ends at 2 + 8 x 1.25 = 12. `y`: by
/// t = 12 it did 10 / 1.25 = 8 of its 10 s, ends alone at 14. Both run 12 s.
#[test]
fn two_jobs_sharing_the_root_links_stretch_as_computed_by_hand() {
    let doc = stream(
        json!({"kind": "tree", "arities": [2, 2]}),
        json!(["sequential"]),
        json!({"model": "max-min", "bandwidth": 1e9, "latency": 0.0, "otherRate": 0.25e9}),
        vec![
            job("z", 1, "none", 0.0, 1.0),
            job("x", 2, "all", 0.0, 10.0),
            job("y", 2, "all", 2.0, 10.0),
        ],
    );
    let r = run(&doc);
    let jobs = r["report"]["runs"][0]["jobs"].as_array().unwrap();
    assert_eq!(jobs[1]["nodeRanges"], json!([[1, 2]]));
    assert_eq!(jobs[2]["nodeRanges"], json!([[0, 1], [3, 1]]));
    let (x, y) = (&jobs[1], &jobs[2]);
    assert!((x["end"].as_f64().unwrap() - 12.0).abs() < 1e-9, "{x}");
    assert!((y["end"].as_f64().unwrap() - 14.0).abs() < 1e-9, "{y}");
    for j in [x, y] {
        assert!((j["contention"]["commFraction"].as_f64().unwrap() - 0.25).abs() < 1e-12);
        assert!((j["contention"]["maxSlowdown"].as_f64().unwrap() - 2.0).abs() < 1e-12);
        assert!((run_time(j) - 12.0).abs() < 1e-9);
    }
    // x's slowdown, weighted by run time: 2 s at 1, 10 s at 2
    let mean = x["contention"]["meanSlowdown"].as_f64().unwrap();
    assert!((mean - 22.0 / 12.0).abs() < 1e-9, "{mean}");
}

#[test]
fn slowdowns_are_never_below_one_and_runs_never_shorter_than_baselines() {
    let mut rng = Rng::seeded(11);
    for case in 0..12u64 {
        let system = if case % 2 == 0 {
            json!({"kind": "mesh", "width": 2 + rng.below(6), "height": 2 + rng.below(6)})
        } else {
            json!({"kind": "tree", "arities": [2, 2 + rng.below(3), 2 + rng.below(4)], "coresPerNode": 2})
        };
        let jobs = random_jobs(&mut rng, 14, &["all", "neighbor", "none"], (1, 12), 0.7, 9);
        let model = if case % 3 == 0 {
            "max-min"
        } else {
            "simgrid-lv08"
        };
        let doc = stream(
            system,
            json!(["sequential", "random", "closed-min-best"]),
            json!({"model": model, "bandwidth": 2e8, "otherRate": 4e7}),
            jobs,
        );
        let r = run(&doc);
        for run in r["report"]["runs"].as_array().unwrap() {
            for j in run["jobs"].as_array().unwrap() {
                if j["start"].is_null() {
                    continue;
                }
                let c = &j["contention"];
                assert!(c["maxSlowdown"].as_f64().unwrap() >= 1.0, "{j}");
                assert!(c["meanSlowdown"].as_f64().unwrap() >= 1.0 - 1e-9, "{j}");
                assert!(c["stretch"].as_f64().unwrap() >= 1.0 - 1e-9, "{j}");
                if j["name"].as_str().is_some() && c["flows"] == 0 {
                    assert!((c["stretch"].as_f64().unwrap() - 1.0).abs() < 1e-9, "{j}");
                }
            }
        }
    }
}

#[test]
fn contention_off_changes_nothing_and_on_is_deterministic() {
    let text = include_str!("../playground-examples/tianhe-npb-stream.json");
    let a = api::run(text, &mut NoProgress).unwrap();
    let b = api::run(text, &mut NoProgress).unwrap();
    assert_eq!(a, b);
    let mut doc: Value = serde_json::from_str(text).unwrap();
    doc.as_object_mut().unwrap().remove("contention");
    let off = run(&doc);
    assert!(off["report"].get("contention").is_none());
    for run in off["report"]["runs"].as_array().unwrap() {
        assert!(run.get("contention").is_none());
        for j in run["jobs"].as_array().unwrap() {
            assert!(j.get("contention").is_none());
            if !j["start"].is_null() {
                assert!((run_time(j) - j_duration(&doc, j)).abs() < 1e-9);
            }
        }
    }
}

fn j_duration(doc: &Value, j: &Value) -> f64 {
    doc["workload"]["jobs"][j["id"].as_u64().unwrap() as usize]["duration"]
        .as_f64()
        .unwrap()
}

/// The paper's claims on the Tianhe-1A example: closed-min never slower than sequential, EP
/// unchanged, the gain grows from 4 to 64 processes, IS gains.
#[test]
fn tianhe_example_reproduces_the_papers_qualitative_claims() {
    let text = include_str!("../playground-examples/tianhe-npb-stream.json");
    let r: Value = serde_json::from_str(&api::run(text, &mut NoProgress).unwrap()).unwrap();
    let runs = r["report"]["runs"].as_array().unwrap();
    let rows = |p: &str| {
        runs.iter().find(|r| r["policy"] == p).unwrap()["contention"]["kernels"]
            .as_array()
            .unwrap()
            .clone()
    };
    let (seq, best) = (rows("sequential"), rows("closed-min-best"));
    assert_eq!(seq.len(), 24);
    let mut gain_by_class = [0.0f64; 3];
    let mut gain_by_kernel = std::collections::BTreeMap::new();
    for (s, b) in seq.iter().zip(&best) {
        assert_eq!((&s["kernel"], &s["class"]), (&b["kernel"], &b["class"]));
        let (ts, tb) = (
            s["runTime"].as_f64().unwrap(),
            b["runTime"].as_f64().unwrap(),
        );
        assert!(tb <= ts + 1e-9, "{s} {b}");
        assert!(tb >= b["baseline"].as_f64().unwrap() - 1e-9);
        let gain = ts / tb - 1.0;
        if s["kernel"] == "EP" {
            assert!(gain.abs() < 1e-9, "{s}");
        }
        let c = (s["class"].as_str().unwrap().as_bytes()[0] - b'A') as usize;
        gain_by_class[c] += gain / 8.0;
        *gain_by_kernel
            .entry(s["kernel"].as_str().unwrap().to_string())
            .or_insert(0.0) += gain / 3.0;
    }
    assert!(
        gain_by_class[0] < gain_by_class[1] && gain_by_class[1] < gain_by_class[2],
        "{gain_by_class:?}"
    );
    // IS gaining most is not asserted: the page reports whether this run reproduces it
    assert!(gain_by_kernel["IS"] > 0.0);
}

/// The netsim platform has the allocation engine's routes: the links of a job's flows are
/// exactly the links of its traffic footprint, for random placements, sizes and patterns.
#[test]
fn flows_use_exactly_the_allocation_engines_route_links() {
    let mut rng = Rng::seeded(5);
    let topos = [
        Topology::Mesh(Mesh::new(7, 5)),
        Topology::Mesh(Mesh::new(1, 6)),
        Topology::Tree(Tree::new(&[2, 2, 8])),
        Topology::Tree(Tree::new(&[3, 2, 4])),
        Topology::Tree(Tree::new(&[4, 4])),
    ];
    for topo in &topos {
        let p = platform_of(
            topo,
            LinkParams {
                bandwidth: 1e9,
                latency: 1e-6,
            },
        )
        .unwrap();
        assert_eq!(p.hosts() as usize, topo.nodes());
        for _ in 0..40 {
            let n = 1 + rng.below(topo.nodes() as u64) as usize;
            let mut all: Vec<u32> = (0..topo.nodes() as u32).collect();
            for i in 0..n {
                let k = i + rng.below((all.len() - i) as u64) as usize;
                all.swap(i, k);
            }
            let mut nodes = all[..n].to_vec();
            nodes.sort_unstable();
            let cores = 1 + rng.below(3) as usize;
            let tasks = ((n - 1) * cores + 1 + rng.below(cores as u64) as usize) as u64;
            for comm in [Comm::All, Comm::Neighbor, Comm::None] {
                let mut links = BTreeSet::new();
                let mut route = Vec::new();
                for m in messages(&nodes, tasks, cores, comm, 1e6) {
                    route.clear();
                    p.route(m.src, m.dst, &mut route);
                    links.extend(route.iter().map(|&l| alloc_link(topo, &p, l)));
                }
                let want: BTreeSet<u32> = metrics::traffic(topo, &nodes, tasks, cores, comm)
                    .links
                    .into_iter()
                    .collect();
                assert_eq!(links, want, "{topo:?} {nodes:?} {tasks} {cores} {comm:?}");
            }
        }
    }
}

/// A change to a scenario.
type Edit = Box<dyn Fn(&mut Value)>;

#[test]
fn bad_contention_options_name_their_json_path() {
    let base = || {
        stream(
            json!({"kind": "mesh", "width": 4, "height": 4}),
            json!(["sequential"]),
            json!({"model": "max-min"}),
            vec![job("a", 4, "all", 0.0, 1.0)],
        )
    };
    let cases: Vec<(Edit, &str)> = vec![
        (
            Box::new(|d| d["contention"]["model"] = json!("lv09")),
            "$.contention.model",
        ),
        (
            Box::new(|d| d["contention"]["bandwidth"] = json!(0)),
            "$.contention.bandwidth",
        ),
        (
            Box::new(|d| d["contention"]["latency"] = json!(-1)),
            "$.contention.latency",
        ),
        (
            Box::new(|d| d["contention"]["otherRate"] = json!(-5)),
            "$.contention.otherRate",
        ),
        (
            Box::new(|d| d["contention"]["speed"] = json!(1)),
            "$.contention",
        ),
        (
            Box::new(|d| d["workload"]["backfill"] = json!("easy")),
            "$.contention",
        ),
        (
            Box::new(|d| {
                d["workload"] = json!({"kind": "set", "jobs": [{"tasks": 4}]});
            }),
            "$.contention",
        ),
        (
            Box::new(|d| d["workload"]["jobs"][0]["kernel"] = json!("IS.D")),
            "$.workload.jobs[0].kernel",
        ),
        (
            Box::new(|d| d["workload"]["jobs"][0]["kernel"] = json!("MG.A")),
            "$.workload.jobs[0].comm",
        ),
    ];
    for (edit, path) in cases {
        let mut d = base();
        edit(&mut d);
        let e = error(&d);
        assert!(e.contains(path), "{path}: {e}");
    }
    let mut d = base();
    d["workload"]["jobs"][0]["kernel"] = json!("IS.A");
    run(&d);
}

/// A window of more flows than one simulation may hold (33 nodes all-to-all: 1,056 flows) stops
/// the model at once: the run says when, and the jobs it could not price run at their baseline.
#[test]
fn the_model_reports_where_its_budget_stopped_it() {
    let doc = stream(
        json!({"kind": "mesh", "width": 6, "height": 6}),
        json!(["sequential"]),
        json!({"model": "max-min"}),
        vec![
            job("big", 33, "all", 3.0, 10.0),
            job("next", 3, "all", 20.0, 5.0),
        ],
    );
    let r = run(&doc);
    let run = &r["report"]["runs"][0];
    assert_eq!(run["contention"]["stoppedAt"], 3.0);
    assert_eq!(run["contention"]["unsimulatedJobs"], 2);
    for j in run["jobs"].as_array().unwrap() {
        assert_eq!(j["contention"]["simulated"], false);
        assert!((j["contention"]["stretch"].as_f64().unwrap() - 1.0).abs() < 1e-12);
    }
    assert_eq!(r["report"]["contention"]["maxFlows"], 1024);
}

/// With one process per node every byte crosses the network: a window carries `rate` bytes per
/// process, whatever the pattern; with all processes on one node it carries nothing.
#[test]
fn a_window_carries_rate_bytes_per_process() {
    for comm in [Comm::All, Comm::Neighbor] {
        for tasks in [2u64, 3, 7, 16, 33] {
            let nodes: Vec<u32> = (0..tasks as u32).map(|i| 3 * i).collect();
            let total: f64 = messages(&nodes, tasks, 1, comm, 1e6)
                .iter()
                .map(|m| m.bytes)
                .sum();
            assert!(
                (total - tasks as f64 * 1e6).abs() < 1e-3,
                "{comm:?} {tasks}: {total}"
            );
            assert!(messages(&nodes[..1], tasks, tasks as usize, comm, 1e6).is_empty());
        }
    }
    assert!(messages(&[0, 1, 2], 3, 1, Comm::None, 1e6).is_empty());
}

#[test]
fn ep_runs_at_its_table_1_time_under_every_policy() {
    let text = include_str!("../playground-examples/tianhe-npb-stream.json");
    let r: Value = serde_json::from_str(&api::run(text, &mut NoProgress).unwrap()).unwrap();
    for run in r["report"]["runs"].as_array().unwrap() {
        let ep: Vec<&Value> = run["contention"]["kernels"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|k| k["kernel"] == "EP")
            .collect();
        assert_eq!(ep.len(), 3);
        for k in ep {
            assert_eq!(k["maxSlowdown"], 1.0);
            assert_eq!(k["commFraction"], 0.0);
            assert!(
                (k["runTime"].as_f64().unwrap() - k["baseline"].as_f64().unwrap()).abs() < 1e-9
            );
        }
    }
}

fn alloc_params() -> Vec<Value> {
    let engines: Value = serde_json::from_str(&api::engines_json()).unwrap();
    engines
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"] == "allocation")
        .unwrap()["params"]
        .as_array()
        .unwrap()
        .clone()
}

/// The form's contention control: its defaults are what the parser fills in, its "off" is the
/// option absent (same report), and its link fields show only when a model is on.
#[test]
fn contention_form_defaults_match_the_parser_and_off_is_absent() {
    let params = alloc_params();
    let param = |path: &str| {
        params
            .iter()
            .find(|p| p["path"] == path)
            .unwrap_or_else(|| panic!("no form control {path}"))
            .clone()
    };
    let jobs = vec![
        job("a", 6, "all", 0.0, 10.0),
        job("b", 6, "neighbor", 1.0, 10.0),
    ];
    let sys = json!({"kind": "mesh", "width": 4, "height": 4});
    let on = run(&stream(
        sys.clone(),
        json!(["sequential"]),
        json!({"model": "simgrid-lv08"}),
        jobs.clone(),
    ));
    let info = &on["report"]["contention"];
    for (path, field) in [
        ("contention.bandwidth", "bandwidth"),
        ("contention.latency", "latency"),
        ("contention.otherRate", "otherRate"),
    ] {
        let p = param(path);
        assert_eq!(p["default"], info[field], "{path}");
        assert_eq!(
            p["showIf"],
            json!({"path": "contention.model", "equals": ["simgrid-lv08", "max-min"]}),
            "{path}"
        );
    }
    let model = param("contention.model");
    assert_eq!(model["default"], "off");
    let options: Vec<&str> = model["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["value"].as_str().unwrap())
        .collect();
    assert_eq!(options, ["off", "simgrid-lv08", "max-min"]);
    // spelling the defaults out changes nothing
    let spelled = run(&stream(
        sys.clone(),
        json!(["sequential"]),
        json!({"model": "simgrid-lv08", "bandwidth": 6.34e9, "latency": 2e-6, "otherRate": 50e6}),
        jobs.clone(),
    ));
    assert_eq!(spelled, on);
    // "off" (what the form writes) is the option absent, even where "on" would be refused
    let mut absent = stream(
        sys.clone(),
        json!(["sequential"]),
        json!(null),
        jobs.clone(),
    );
    absent.as_object_mut().unwrap().remove("contention");
    let off = stream(sys, json!(["sequential"]), json!({"model": "off"}), jobs);
    assert_eq!(run(&off), run(&absent));
    let mut easy = off.clone();
    easy["workload"]["backfill"] = json!("easy");
    run(&easy);
}

/// Admission charges the contention model its whole budget: a stream that passes the work limit
/// without the model is refused with it, at `$.contention`, with the model's share named.
#[test]
fn a_scenario_over_the_work_limit_with_contention_is_refused_at_its_json_path() {
    let doc = |count: u64, contention: bool| {
        let mut d = json!({"version": 1, "engine": "allocation",
            "system": {"kind": "mesh", "width": 512, "height": 512}, "policies": ["random"],
            "workload": {"kind": "generated", "count": count}});
        if contention {
            d["contention"] = json!({"model": "max-min"});
        }
        d.to_string()
    };
    // the largest stream admitted without the model
    let (mut lo, mut hi) = (1u64, 100_000u64);
    assert!(api::check(&doc(hi, false)).is_err());
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        if api::check(&doc(mid, false)).is_ok() {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let e = api::check(&doc(lo, true)).unwrap_err().to_string();
    assert!(e.contains("$.contention"), "{e}");
    assert!(e.contains("refused before running: estimated"), "{e}");
    assert!(e.contains("for the run time under contention"), "{e}");
    // a smaller stream with the model passes
    api::check(&doc(lo / 2, true)).unwrap();
}

/// The admission estimate's contention work bounds the work the model counted, on every
/// contention sample, and its budget is the one the report states.
#[test]
fn admission_estimate_bounds_the_contention_models_measured_work() {
    use placelab::alloc::{estimate, scenario};
    let mut checked = 0;
    for text in api::sample_scenarios() {
        let v: Value = serde_json::from_str(&text).unwrap();
        if v["engine"] != "allocation" || v.get("contention").is_none() {
            continue;
        }
        let env = placelab::scenario::parse_envelope(&text, &["allocation"]).unwrap();
        let s: scenario::AllocScenario =
            placelab::scenario::parse_engine_fields(env.fields, &scenario::params()).unwrap();
        let topo = s.system.build().unwrap();
        let est = estimate::estimate(&s, &topo, &estimate::sizes_of(&s));
        let r = run(&v);
        for (k, run) in r["report"]["runs"].as_array().unwrap().iter().enumerate() {
            let work = run["contention"]["work"].as_u64().unwrap() as f64;
            let bound = est.policies[k].contention_work;
            assert!(work > 0.0, "{run}");
            assert!(work <= bound, "measured {work} over the estimate {bound}");
            assert_eq!(r["report"]["contention"]["budget"].as_f64().unwrap(), bound);
        }
        checked += 1;
    }
    assert!(checked >= 4, "only {checked} contention samples");
}

/// The machine's own network written as a SimGrid platform file (hosts `node-0`, `node-1`, ...
/// in node order) and given back as `contention.simgrid` runs every job as the built-in network
/// does: same starts and ends, same slowdowns (to rounding: the file's links are routed by the
/// importer, whose sums may be ordered differently).
#[test]
fn a_platform_file_of_the_machines_own_network_gives_the_same_run_times() {
    let mut rng = Rng::seeded(23);
    let mut total_slowed = 0;
    for case in 0..6u64 {
        let (system, topo) = if case % 2 == 0 {
            let (w, h) = (2 + rng.below(4) as usize, 2 + rng.below(4) as usize);
            (
                json!({"kind": "mesh", "width": w, "height": h}),
                Topology::Mesh(Mesh::new(w, h)),
            )
        } else {
            let a = vec![2, 2 + rng.below(3) as usize, 2 + rng.below(3) as usize];
            (
                json!({"kind": "tree", "arities": a}),
                Topology::Tree(Tree::new(&a)),
            )
        };
        let link = LinkParams {
            bandwidth: 2e8,
            latency: 1e-6,
        };
        let p = platform_of(&topo, link).unwrap();
        let xml = placelab::formats::simgrid::write::platform(&p, "m").unwrap();
        let jobs = random_jobs(&mut rng, 10, &["all", "neighbor"], (2, 5), 0.5, 6);
        let own = stream(
            system.clone(),
            json!(["sequential", "random"]),
            json!({"model": "simgrid-lv08", "bandwidth": 2e8, "latency": 1e-6, "otherRate": 6e7}),
            jobs.clone(),
        );
        let mut file = own.clone();
        file["contention"] = json!({"model": "simgrid-lv08", "otherRate": 6e7, "simgrid": xml});
        let (a, b) = (run(&own), run(&file));
        let info = &b["report"]["contention"];
        assert_eq!(info["platform"]["hosts"], p.hosts(), "{info}");
        assert!(info["bandwidth"].is_null() && a["report"]["contention"]["bandwidth"] == 2e8);
        let mut slowed = 0;
        for (ra, rb) in a["report"]["runs"]
            .as_array()
            .unwrap()
            .iter()
            .zip(b["report"]["runs"].as_array().unwrap())
        {
            for (ja, jb) in ra["jobs"]
                .as_array()
                .unwrap()
                .iter()
                .zip(rb["jobs"].as_array().unwrap())
            {
                assert!(close(ja, jb), "case {case}:\n{ja}\n{jb}");
                slowed += usize::from(
                    ja["contention"]["maxSlowdown"]
                        .as_f64()
                        .is_some_and(|x| x > 1.0),
                );
            }
        }
        total_slowed += slowed;
    }
    assert!(
        total_slowed > 0,
        "no job was slowed: the comparison is empty"
    );
}

/// Whether two report values are equal, numbers to a relative 1e-9.
fn close(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            let (x, y) = (x.as_f64().unwrap(), y.as_f64().unwrap());
            (x - y).abs() <= 1e-9 * x.abs().max(1.0)
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| close(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| close(v, w)))
        }
        _ => a == b,
    }
}

/// A topology.conf machine (irregular trees had no network before: its routes are the file's)
/// runs on the platform file's hosts of the same names: a tree [2, 4] written as a fat-tree
/// cluster and read back as two leaf switches under a root gives the regular tree's run times,
/// also when the topology.conf lists the switches in the other order (node ids then differ from
/// host indices, and `nodeHosts` says which host each node is).
#[test]
fn a_topology_conf_runs_on_the_platform_files_hosts_of_the_same_names() {
    let topo = Topology::Tree(Tree::new(&[2, 4]));
    let link = LinkParams {
        bandwidth: 1e8,
        latency: 0.0,
    };
    let xml = placelab::formats::simgrid::write::platform(&platform_of(&topo, link).unwrap(), "t")
        .unwrap();
    // `h` holds nodes 0 and 1 until t = 1, so `y` takes 2 to 5 and `z` 0, 1, 6, 7: both cross
    // the root and share its links
    let jobs = vec![
        job("h", 2, "none", 0.0, 1.0),
        job("y", 4, "all", 0.0, 6.0),
        job("z", 4, "neighbor", 2.0, 6.0),
    ];
    let regular = run(&stream(
        json!({"kind": "tree", "arities": [2, 4]}),
        json!(["sequential"]),
        json!({"model": "max-min", "bandwidth": 1e8, "latency": 0.0, "otherRate": 3e7}),
        jobs.clone(),
    ));
    let ends = |r: &Value| -> Vec<f64> {
        r["report"]["runs"][0]["jobs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|j| j["end"].as_f64().unwrap())
            .collect()
    };
    let want = ends(&regular);
    assert!(
        want.iter().zip([1.0, 6.0, 8.0]).any(|(e, b)| *e > b + 1e-6),
        "no job was slowed: {want:?}"
    );
    for (conf, hosts) in [
        ("SwitchName=root Switches=s[0-1]\nSwitchName=s0 Nodes=node-[0-3]\nSwitchName=s1 Nodes=node-[4-7]\n", vec![0, 1, 2, 3, 4, 5, 6, 7]),
        ("SwitchName=root Switches=s[0-1]\nSwitchName=s0 Nodes=node-[4-7]\nSwitchName=s1 Nodes=node-[0-3]\n", vec![4, 5, 6, 7, 0, 1, 2, 3]),
    ] {
        let r = run(&stream(
            json!({"kind": "slurmTopology", "topologyConf": conf}),
            json!(["sequential"]),
            json!({"model": "max-min", "otherRate": 3e7, "simgrid": xml}),
            jobs.clone(),
        ));
        assert_eq!(r["report"]["contention"]["platform"]["nodeHosts"], json!(hosts));
        for (a, b) in ends(&r).iter().zip(&want) {
            assert!((a - b).abs() < 1e-9, "{conf}: {:?} vs {want:?}", ends(&r));
        }
    }
}

/// What a platform file can get wrong names `contention.simgrid` (the reader's line and
/// column); an irregular tree without a file says to give one.
#[test]
fn a_bad_contention_platform_names_its_path_and_what_is_wrong() {
    let conf = "SwitchName=root Switches=s[0-1]\nSwitchName=s0 Nodes=tux[0-2]\nSwitchName=s1 Nodes=tux[3-6]\n";
    let xml = |hosts: &str| {
        format!("<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n<platform version=\"4.1\">\n<zone id=\"z\" routing=\"Full\">\n{hosts}</zone>\n</platform>\n")
    };
    let seven: String = (0..7)
        .map(|i| format!("<host id=\"tux{i}\" speed=\"1Gf\"/>\n"))
        .collect();
    let base = |system: Value, simgrid: Option<String>| {
        let mut c = json!({"model": "max-min"});
        if let Some(x) = simgrid {
            c["simgrid"] = json!(x);
        }
        stream(
            system,
            json!(["sequential"]),
            c,
            vec![job("a", 2, "all", 0.0, 1.0)],
        )
    };
    let slurm = json!({"kind": "slurmTopology", "topologyConf": conf});
    let e = error(&base(slurm.clone(), None));
    assert!(
        e.contains("$.contention") && e.contains("contention.simgrid"),
        "{e}"
    );
    let e = error(&base(
        slurm.clone(),
        Some(xml(&seven.replace("tux5", "tux55"))),
    ));
    assert!(
        e.contains("$.contention.simgrid") && e.contains("\"tux5\""),
        "{e}"
    );
    let e = error(&base(
        json!({"kind": "mesh", "width": 3, "height": 3}),
        Some(xml(&seven)),
    ));
    assert!(
        e.contains("$.contention.simgrid") && e.contains("9 nodes") && e.contains("7 hosts"),
        "{e}"
    );
    let e = error(&base(
        slurm.clone(),
        Some(xml("<host id=\"tux0\" speed=\"1Gf\"/>\n<hots id=\"x\"/>\n")),
    ));
    assert!(
        e.contains("$.contention.simgrid") && e.contains("platform:6:"),
        "{e}"
    );
    // no route between two hosts of a Full zone without routes: refused before running, or the
    // job runs on the hosts the file routes; never a panic
    let _ = api::run(&base(slurm, Some(xml(&seven))).to_string(), &mut NoProgress);
}
