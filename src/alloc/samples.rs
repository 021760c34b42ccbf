//! The allocation engine's sample matrix: small scenarios that together use every policy with
//! every fallback, on every workload kind (set, stream, generated, SWF) and every system kind
//! (mesh, tree, Slurm topology.conf), streams also with run time under contention (both sharing
//! models), for several
//! seeds (one above 2^53). The native tests pin their reports'
//! fingerprints in `tests/fixtures/matrix.json` and the browser tests compare the wasm reports
//! with them, so a platform difference in any policy shows.

use super::scenario::{Fallback, PolicyId};
use crate::rng::Rng;
use serde_json::{json, Value};

const WORKLOADS: [&str; 4] = ["set", "stream", "generated", "swf"];
const SEEDS: [u64; 3] = [1, 42, 9_007_199_254_740_993];
const COMMS: [&str; 3] = ["all", "neighbor", "none"];
const SIZES: [&str; 3] = ["uniform", "logUniform", "powersOfTwo"];
const JOBS: u64 = 12;

/// A scenario whose `random` nodes once differed between the page and the CLI (with seeds 1, 7
/// and 42): a regression sample.
const ISSUE_RANDOM: &str = r#"{"version":1,"engine":"allocation","seed":SEED,"system":{"kind":"mesh","width":16,"height":16},"policies":["random"],"workload":{"kind":"set","jobs":[{"tasks":5},{"tasks":7},{"tasks":3}]}}"#;

/// The sample scenarios, as compact JSON texts, in a fixed order.
pub fn sample_scenarios() -> Vec<String> {
    let mut out: Vec<String> = [1, 7, 42]
        .iter()
        .map(|s| ISSUE_RANDOM.replace("SEED", &s.to_string()))
        .collect();
    for (si, &seed) in SEEDS.iter().enumerate() {
        for system in ["mesh", "tree"] {
            for fallback in Fallback::ALL.map(Fallback::id) {
                for workload in WORKLOADS {
                    out.push(sample(seed, si, system, fallback, workload).to_string());
                }
            }
            // Run time under contention (streams without backfilling only), both sharing models.
            let mut v = sample(seed, si, system, "wait", "stream");
            v["workload"]["backfill"] = json!("none");
            let model = ["max-min", "simgrid-lv08"][si % 2];
            v["contention"] = json!({ "model": model });
            out.push(v.to_string());
        }
    }
    for (si, &seed) in SEEDS.iter().enumerate() {
        for workload in ["set", "stream"] {
            out.push(slurm_sample(seed, si, workload).to_string());
        }
    }
    // Run time under contention on a SimGrid platform file, the first topology.conf's nodes on
    // the file's hosts of the same names (its only way to a network).
    for (si, &seed) in SEEDS.iter().enumerate().step_by(2) {
        let mut v = slurm_sample(seed, si, "stream");
        v["workload"]["backfill"] = json!("none");
        v["contention"] =
            json!({"model": "simgrid-lv08", "otherRate": 3e8, "simgrid": two_switch_platform()});
        out.push(v.to_string());
    }
    out
}

/// A Floyd zone of the hosts `n01`..`n20` of [`SLURM_TOPOLOGIES`]`[0]`: `n01`..`n09` on router
/// `a`, the others on `b`, 1 GB/s host links and a 2 GB/s link between the routers.
fn two_switch_platform() -> String {
    let mut hosts = String::new();
    let mut links = String::new();
    let mut routes = String::new();
    for i in 1..=20 {
        let r = if i <= 9 { "a" } else { "b" };
        hosts.push_str(&format!("<host id=\"n{i:02}\" speed=\"1Gf\"/>"));
        links.push_str(&format!(
            "<link id=\"l{i}\" bandwidth=\"1GBps\" latency=\"1us\" sharing_policy=\"SPLITDUPLEX\"/>"
        ));
        routes.push_str(&format!(
            "<route src=\"n{i:02}\" dst=\"{r}\"><link_ctn id=\"l{i}\" direction=\"UP\"/></route>"
        ));
    }
    format!(
        "<?xml version='1.0'?><platform version=\"4.1\"><zone id=\"z\" routing=\"Floyd\">{hosts}<router id=\"a\"/><router id=\"b\"/>{links}<link id=\"ab\" bandwidth=\"2GBps\" latency=\"1us\" sharing_policy=\"SPLITDUPLEX\"/>{routes}<route src=\"a\" dst=\"b\"><link_ctn id=\"ab\" direction=\"UP\"/></route></zone></platform>"
    )
}

/// Small Slurm `topology.conf` trees: irregular arities, and (second) two top-level switches.
const SLURM_TOPOLOGIES: [&str; 2] = [
    "# irregular\nSwitchName=l3 Nodes=n[10-12]\nSwitchName=top Switches=a[1-2]\nSwitchName=a1 Switches=l[1-2]\nSwitchName=a2 Switches=l[3-5]\nSwitchName=l1 Nodes=n[01-05]\nSwitchName=l2 Nodes=n[06-09]\nSwitchName=l4 Nodes=n13\nSwitchName=l5 Nodes=n[14-20]",
    "SwitchName=ra Switches=s[1-2]\nSwitchName=s1 Nodes=x[1-6]\nSwitchName=s2 Nodes=x[7-9]\nSwitchName=rb Switches=s3\nSwitchName=s3 Nodes=y[1-8]",
];

/// A `slurmTopology` machine with the tree policies, `slurmTree` among them, and jobs with
/// `switches` limits.
fn slurm_sample(seed: u64, seed_index: usize, workload: &str) -> Value {
    let mut rng = Rng::seeded(seed ^ 0x51ee_7001);
    let jobs: Vec<Value> = (0..JOBS)
        .map(|i| {
            let mut j = json!({"tasks": rng.in_range(1, 10)});
            if workload == "stream" {
                j["arrival"] = json!(i * 5);
                j["duration"] = json!(rng.in_range(5, 60));
            }
            if i % 4 == 0 {
                j["switches"] = json!(1 + i / 4 % 2);
                if workload == "stream" {
                    j["switchesWait"] = json!(20);
                }
            }
            j
        })
        .collect();
    json!({
        "version": 1,
        "engine": "allocation",
        "name": format!("matrix slurmTopology {workload} seed {seed}"),
        "seed": seed,
        "system": {"kind": "slurmTopology", "topologyConf": SLURM_TOPOLOGIES[seed_index % 2]},
        "policies": ["slurmTree", "closed-min-best", "closed-min-paper", "sequential"],
        "fallback": Fallback::ALL[seed_index % 3].id(),
        "frames": 4,
        "workload": {"kind": workload, "jobs": jobs},
    })
}

fn sample(seed: u64, seed_index: usize, system: &str, fallback: &str, workload: &str) -> Value {
    // job shapes come from the seed too, so each seed is a different scenario, not only a
    // different random policy
    let mut rng = Rng::seeded(seed ^ 0x5a3c_e11e);
    let (sys, max_tasks) = match system {
        "mesh" => (json!({"kind": "mesh", "width": 8, "height": 6}), 12),
        _ => (
            json!({"kind": "tree", "arities": [2, 3, 4], "coresPerNode": 2}),
            16,
        ),
    };
    let backfill = if seed_index % 2 == 0 { "none" } else { "easy" };
    let wl = match workload {
        "set" => json!({"kind": "set", "jobs": (0..JOBS).map(|i| json!({
            "tasks": rng.in_range(1, max_tasks),
            "comm": COMMS[(i % 3) as usize],
        })).collect::<Vec<_>>()}),
        "stream" => {
            let mut t = 0.0;
            let jobs: Vec<Value> = (0..JOBS)
                .map(|i| {
                    t += rng.in_range(0, 40) as f64 / 2.0;
                    let d = rng.in_range(1, 400) as f64 / 4.0;
                    json!({"name": format!("s{i}"), "tasks": rng.in_range(1, max_tasks),
                        "comm": COMMS[(i % 3) as usize], "arrival": t, "duration": d,
                        "walltime": d * 1.5})
                })
                .collect();
            json!({"kind": "stream", "backfill": backfill, "jobs": jobs})
        }
        "generated" => json!({"kind": "generated", "backfill": backfill, "count": JOBS,
            "minTasks": 1, "maxTasks": max_tasks, "sizeDistribution": SIZES[seed_index % 3],
            "meanInterarrival": 5, "meanDuration": 60}),
        _ => {
            let mut log = String::from("; Version: 2.2\n; sample log for the browser tests\n");
            let mut t = 100;
            for i in 1..=JOBS {
                t += rng.in_range(0, 30);
                let run = rng.in_range(1, 200);
                let procs = rng.in_range(1, max_tasks);
                let req = run + rng.in_range(0, 100);
                log.push_str(&format!(
                    "{i} {t} -1 {run} {procs} -1 -1 {procs} {req} -1 1 1 1 -1 1 -1 -1 -1\n"
                ));
            }
            json!({"kind": "swf", "backfill": backfill, "swf": log})
        }
    };
    json!({
        "version": 1,
        "engine": "allocation",
        "name": format!("matrix {system} {fallback} {workload} seed {seed}"),
        "seed": seed,
        "system": sys,
        "policies": PolicyId::ALL.into_iter().filter(|p| p.on_meshes()).map(PolicyId::id).collect::<Vec<_>>(),
        "fallback": fallback,
        "frames": 4,
        "workload": wl,
    })
}
