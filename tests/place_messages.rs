//! The placement engine's `messages` jobs (one-way, repeated, staggered messages) and strategy
//! `given` (the scenario's own task-to-host map): end times checked against a direct
//! [`netsim::simulate`] of the same flows (an exact oracle), and every refusal naming its path.

use placelab::netsim::{self, Flow, LinkParams, Model, Platform, System};
use placelab::progress::NoProgress;
use serde_json::{json, Value};

fn run(doc: &Value) -> Value {
    let out =
        placelab::api::run(&doc.to_string(), &mut NoProgress).unwrap_or_else(|e| panic!("{e}"));
    serde_json::from_str::<Value>(&out).unwrap()["report"].clone()
}

fn err(doc: &Value) -> placelab::error::ScenarioError {
    placelab::api::run(&doc.to_string(), &mut NoProgress).unwrap_err()
}

/// One-way, the same pair three times, staggered starts and a loopback, on a 4x4 torus.
fn messages() -> Value {
    json!([
        {"src": 0, "dst": 3, "bytes": 1e6},
        {"src": 0, "dst": 3, "bytes": 1e6, "start": 0.001},
        {"src": 0, "dst": 3, "bytes": 5e5, "start": 0.002},
        {"src": 2, "dst": 1, "bytes": 2e6, "start": 0.0005},
        {"src": 4, "dst": 4, "bytes": 1e6, "start": 0.003},
        {"src": 1, "dst": 5, "bytes": 0.0}
    ])
}

fn doc(strategies: Value, placement: Option<Value>, rounds: u32, compute: f64) -> Value {
    let mut d = json!({"version": 1, "engine": "place", "seed": 3,
        "system": {"kind": "torus2d", "x": 4, "y": 4},
        "job": {"kind": "messages", "rounds": rounds, "compute": compute, "messages": messages()},
        "strategies": strategies});
    if let Some(p) = placement {
        d["placement"] = p;
    }
    d
}

fn oracle(hosts: &[u32], offset: f64, model: Model) -> Vec<f64> {
    let p = Platform::build(&System::Torus2d { x: 4, y: 4 }, LinkParams::SOURCE).unwrap();
    let flows: Vec<Flow> = messages()
        .as_array()
        .unwrap()
        .iter()
        .map(|m| Flow {
            src: hosts[m["src"].as_u64().unwrap() as usize],
            dst: hosts[m["dst"].as_u64().unwrap() as usize],
            bytes: m["bytes"].as_f64().unwrap(),
            start: offset + m["start"].as_f64().unwrap_or(0.0),
        })
        .collect();
    netsim::simulate(&p, &flows, model, &mut NoProgress)
        .unwrap()
        .finish
}

/// Equal to the last bit but for the report's JSON reading (serde_json's float parser may be
/// off by one unit in the last place).
fn same(a: &[f64], b: &[f64]) {
    assert_eq!(a.len(), b.len(), "{a:?} {b:?}");
    for (x, y) in a.iter().zip(b) {
        assert!((x - y).abs() <= 1e-15 * y.abs().max(1e-300), "{a:?} {b:?}");
    }
}

fn floats(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

#[test]
fn given_placement_ends_equal_a_direct_simulation_of_the_same_flows() {
    let hosts = json!([15, 2, 7, 9, 4, 10]);
    let r = run(&doc(json!(["given"]), Some(hosts.clone()), 3, 2e6));
    let run0 = &r["cases"][0]["runs"][0];
    assert_eq!(run0["strategy"], "given");
    assert_eq!(run0["hosts"], hosts);
    let h: Vec<u32> = hosts
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap() as u32)
        .collect();
    // compute 2e6 flop at 1e9 flop/s before the messages of each round
    let expect = oracle(&h, 0.002, Model::SimgridLv08);
    let ends = floats(&run0["messageEnds"]);
    same(&ends, &expect);
    // the loopback ends when it starts; the repeated pair's later copies end later
    assert_eq!(ends[4], 0.002 + 0.003);
    assert!(ends[0] < ends[1]);
    let round = expect.iter().copied().fold(0.0, f64::max);
    same(
        &floats(&run0["roundEnds"]),
        &[round, 2.0 * round, 3.0 * round],
    );
    same(&[run0["time"].as_f64().unwrap()], &[3.0 * round]);
    assert_eq!(r["cases"][0]["processes"], 6);
}

#[test]
fn computed_strategies_place_a_message_job_and_simulate_their_own_hosts() {
    let r = run(&doc(
        json!(["simple", "random", "optimal", "advanced", "identity", "mapped"]),
        None,
        1,
        0.0,
    ));
    for run in r["cases"][0]["runs"].as_array().unwrap() {
        if run["strategy"] == "identity" {
            assert_eq!(run["placed"], false, "a message job has no grid shape");
            continue;
        }
        assert_eq!(run["placed"], true, "{run}");
        let h: Vec<u32> = run["hosts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap() as u32)
            .collect();
        same(
            &floats(&run["messageEnds"]),
            &oracle(&h, 0.0, Model::SimgridLv08),
        );
    }
    // the task graph the strategies see: pairs {0,3}, {1,2}, {1,5} (loopback none)
    assert_eq!(r["cases"][0]["edges"], 3);
}

#[test]
fn given_works_for_task_graph_jobs_and_refuses_busy_nodes() {
    let d = json!({"version": 1, "engine": "place", "seed": 1,
        "system": {"kind": "torus2d", "x": 4, "y": 4},
        "job": {"kind": "STAR", "processes": 4, "rounds": 2},
        "strategies": ["simple", "given"], "placement": [0, 1, 2, 3]});
    let r = run(&d);
    let runs = r["cases"][0]["runs"].as_array().unwrap();
    // Simple takes hosts 0..3 too: the same placement, the same time
    assert_eq!(runs[0]["hosts"], runs[1]["hosts"]);
    assert_eq!(runs[0]["time"], runs[1]["time"]);
    assert!(runs[1].get("messageEnds").is_none());
    // with a background the given hosts may be busy: refused, naming the task
    let mut d = d.clone();
    d["background"] = json!({"fill": 0.5, "processes": 4});
    let r = run(&d);
    let g = &r["cases"][0]["runs"][1];
    let busy: Vec<u64> = r["background"]["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|j| {
            j["hosts"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_u64().unwrap())
        })
        .collect();
    let first_busy = (0..4u64).find(|h| busy.contains(h));
    match first_busy {
        Some(h) => {
            assert_eq!(g["placed"], false);
            let why = g["reason"].as_str().unwrap();
            assert!(
                why.contains(&format!("placement[{h}]")) && why.contains("busy"),
                "{why}"
            );
        }
        None => assert_eq!(g["placed"], true),
    }
}

#[test]
fn a_busy_given_host_is_refused_by_index() {
    // seed and fill chosen so that some of hosts 0..15 are busy: find one and give it
    let mut d = json!({"version": 1, "engine": "place", "seed": 1,
        "system": {"kind": "torus2d", "x": 4, "y": 4},
        "job": {"kind": "STAR", "processes": 2, "rounds": 1},
        "background": {"fill": 0.5, "processes": 4},
        "strategies": ["given"], "placement": [0, 1]});
    let r = run(&d);
    let busy: Vec<u64> = r["background"]["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|j| {
            j["hosts"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_u64().unwrap())
        })
        .collect();
    assert!(!busy.is_empty());
    let free = (0..16u64).find(|h| !busy.contains(h)).unwrap();
    d["placement"] = json!([free, busy[0]]);
    let r = run(&d);
    let g = &r["cases"][0]["runs"][0];
    assert_eq!(g["placed"], false);
    assert!(
        g["reason"]
            .as_str()
            .unwrap()
            .starts_with("placement[1]: host"),
        "{g}"
    );
}

#[test]
fn bad_messages_and_placements_name_the_json_path() {
    let base = doc(json!(["given"]), Some(json!([0, 1, 2, 3, 4, 5])), 1, 0.0);
    let set = |f: &dyn Fn(&mut Value)| {
        let mut d = base.clone();
        f(&mut d);
        d
    };
    let cases: Vec<(Value, &str, &str)> = vec![
        (
            set(&|d| d["job"]["messages"][3]["dst"] = json!(16)),
            "$.job.messages[3].dst",
            "16 hosts",
        ),
        (
            set(&|d| d["job"]["messages"][2]["src"] = json!(-1)),
            "$.job.messages[2].src",
            "",
        ),
        (
            set(&|d| d["job"]["messages"][1]["bytes"] = json!(-5)),
            "$.job.messages[1].bytes",
            "",
        ),
        (
            set(&|d| d["job"]["messages"][1]["start"] = json!(-0.5)),
            "$.job.messages[1].start",
            "",
        ),
        (
            set(&|d| d["job"]["messages"][1]["bytes"] = json!(1e300)),
            "$.job.messages[1].bytes",
            "",
        ),
        (
            set(&|d| d["job"]["messages"][0]["size"] = json!(1)),
            "$.job.messages[0].size",
            "unknown field",
        ),
        (
            set(&|d| d["job"]["messages"] = json!([])),
            "$.job.messages",
            "give 1 to",
        ),
        (
            set(&|d| {
                d["job"].as_object_mut().unwrap().remove("messages");
            }),
            "$.job.messages",
            "missing",
        ),
        (
            set(&|d| d["job"]["kind"] = json!("GRID")),
            "$.job.messages",
            "kind messages",
        ),
        (
            set(&|d| d["job"]["graph"] = json!("1 2")),
            "$.job.graph",
            "",
        ),
        (
            set(&|d| d["sweep"] = json!({"messageBytes": [1, 2]})),
            "$.sweep",
            "swept",
        ),
        (
            set(&|d| d["background"] = json!({"fill": 0.5})),
            "$.background",
            "alone",
        ),
        (
            set(&|d| d["placement"] = json!([0, 1, 2])),
            "$.placement",
            "3 hosts for a messages job of 6 tasks",
        ),
        (
            set(&|d| d["placement"][4] = json!(16)),
            "$.placement[4]",
            "0 to 15",
        ),
        (
            set(&|d| d["placement"][4] = json!(-2)),
            "$.placement[4]",
            "",
        ),
        (
            set(&|d| {
                d.as_object_mut().unwrap().remove("placement");
            }),
            "$.placement",
            "missing",
        ),
        (
            set(&|d| d["strategies"] = json!(["simple"])),
            "$.placement",
            "add \"given\"",
        ),
        (
            json!({"version": 1, "engine": "place", "system": {"kind": "torus2d", "x": 4, "y": 4},
                   "job": {"kind": "GRID", "processes": 4}, "sweep": {"kinds": ["GRID", "messages"]}}),
            "$.sweep.kinds[1]",
            "built-in",
        ),
    ];
    for (d, path, words) in cases {
        let e = err(&d);
        assert_eq!(e.path, path, "{d}: {e}");
        assert!(e.message.contains(words), "{d}: {e}");
    }
}

#[test]
fn max_min_and_lv08_both_match_the_oracle() {
    let mut d = doc(json!(["given"]), Some(json!([0, 5, 10, 15, 3, 12])), 1, 0.0);
    d["model"] = json!("max-min");
    let r = run(&d);
    let ends = floats(&r["cases"][0]["runs"][0]["messageEnds"]);
    same(&ends, &oracle(&[0, 5, 10, 15, 3, 12], 0.0, Model::MaxMin));
}

/// The SimGrid 3.32 fixture (`scripts/simgrid-fixture.py`): every flow scenario on the 4x4x4
/// torus (one-way flows, a repeated pair, staggered starts, opposite flows), run as a `messages`
/// job with strategy `given` on the fixture's hosts, ends within 1e-9 of SimGrid's with its
/// full (non-lazy) update, as `tests/netsim.rs` requires of the simulator itself.
#[test]
fn message_jobs_end_when_simgrid_says_on_its_torus_fixture() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/simgrid/scenarios.json"
    );
    let fx: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut checked = 0;
    for sc in fx["scenarios"].as_array().unwrap() {
        if sc["platform"] != "torus3d-4x4x4" || sc.get("flows").is_none() {
            continue;
        }
        let flows = sc["flows"].as_array().unwrap();
        let mut hosts: Vec<u64> = flows
            .iter()
            .flat_map(|f| [f[0].as_u64().unwrap(), f[1].as_u64().unwrap()])
            .collect();
        hosts.sort_unstable();
        hosts.dedup();
        let task = |h: &Value| {
            hosts
                .iter()
                .position(|&x| x == h.as_u64().unwrap())
                .unwrap()
        };
        let messages: Vec<Value> = flows
            .iter()
            .map(|f| json!({"src": task(&f[0]), "dst": task(&f[1]), "bytes": f[2], "start": f[3]}))
            .collect();
        let d = json!({"version": 1, "engine": "place",
            "system": {"kind": "torus3d", "x": 4, "y": 4, "z": 4},
            "job": {"kind": "messages", "rounds": 1, "messages": messages},
            "strategies": ["given"], "placement": hosts});
        let r = run(&d);
        let ends = floats(&r["cases"][0]["runs"][0]["messageEnds"]);
        let want = floats(&sc["finish_full"]);
        assert_eq!(ends.len(), want.len());
        for (a, b) in ends.iter().zip(&want) {
            assert!(
                (a - b).abs() <= 1e-9 * b,
                "{}: {a} vs SimGrid {b}",
                sc["name"]
            );
        }
        checked += 1;
    }
    assert!(checked >= 10, "{checked} scenarios");
}

/// Under a small report budget the first message ends are kept and the rest counted.
#[test]
fn message_ends_are_capped_and_the_rest_counted() {
    use placelab::place::{run, scenario::PlaceScenario};
    let fields = json!({"system": {"kind": "torus2d", "x": 4, "y": 4},
        "job": {"kind": "messages", "rounds": 2, "messages": messages()},
        "strategies": ["given", "simple"], "placement": [15, 2, 7, 9, 4, 10]});
    let s: PlaceScenario = serde_json::from_value(fields).unwrap();
    let full = run::run(&s, 1, &mut NoProgress, 32 << 20);
    assert_eq!(full.omitted.message_ends, 0);
    // an eighth of 1,200 bytes: 150 bytes, 6 ends of about 24 bytes: the given run keeps 6,
    // Simple none
    let small = run::run(&s, 1, &mut NoProgress, 1_200);
    let given = small.cases[0].runs[0].message_ends.clone().unwrap();
    assert_eq!(given, full.cases[0].runs[0].message_ends.clone().unwrap());
    assert_eq!(
        small.cases[0].runs[1].message_ends.as_ref().unwrap().len(),
        0
    );
    assert_eq!(small.omitted.message_ends, 6);
    let v = serde_json::to_value(&small).unwrap();
    assert_eq!(v["omitted"]["messageEnds"], 6);
    assert!(serde_json::to_value(&full).unwrap()["omitted"]
        .get("messageEnds")
        .is_none());
}
