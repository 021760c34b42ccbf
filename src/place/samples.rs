//! The placement engine's sample matrix: small scenarios that together use every system kind,
//! job kind (METIS and edge-list files included), strategy, Mapped's objectives, model, the source
//! quirks, the background of experiment 2, a `messages` job and strategy `given`, a `timeLimit`
//! whose budgets stop a simulation, networks seen through their routes (a 4D torus, a
//! dragonfly, a SimGrid platform file), for several seeds (one above 2^53). The native tests
//! pin their reports' fingerprints in `tests/fixtures/matrix.json` and the browser tests compare
//! the wasm reports with them.

use serde_json::{json, Value};

const SEEDS: [u64; 3] = [1, 42, 9_007_199_254_740_993];

/// A small weighted METIS task graph: a ring of 6 with two heavy chords.
pub const SAMPLE_METIS: &str = "% ring of 6, heavy chords 1-4 and 2-5\n6 8 011\n2 2 1 6 1 4 50\n1 1 1 3 1 5 50\n1 2 1 4 1\n3 3 1 5 1 1 50\n1 4 1 6 1 2 50\n1 5 1 1 1\n";

fn systems() -> Vec<Value> {
    vec![
        json!({"kind": "torus2d", "x": 6, "y": 5}),
        json!({"kind": "torus3d", "x": 4, "y": 3, "z": 3}),
        json!({"kind": "mesh2d", "x": 7, "y": 4}),
        json!({"kind": "mesh3d", "x": 3, "y": 3, "z": 3}),
        json!({"kind": "fatTree", "levels": 3, "down": 3}),
        json!({"kind": "thinTree", "simgrid": "2;4,8;1,2;1,2"}),
    ]
}

/// The sample scenarios, as compact JSON texts, in a fixed order.
pub fn sample_scenarios() -> Vec<String> {
    let kinds = ["STAR", "GRID", "CUBE", "TREE", "FULL", "metis", "edgeList"];
    let mut out = Vec::new();
    for (si, &seed) in SEEDS.iter().enumerate() {
        for (k, sys) in systems().into_iter().enumerate() {
            let kind = kinds[(k + si * 3) % kinds.len()];
            let mut job = json!({"kind": kind, "processes": 12 + k, "rounds": 3,
                                 "messageBytes": if k % 2 == 0 { 1.0 } else { 1e6 },
                                 "compute": 1e6 * si as f64, "wrap": k % 2 == 1});
            if kind == "metis" {
                job = json!({"kind": "metis", "graph": SAMPLE_METIS, "rounds": 2, "messageBytes": 1000});
            } else if kind == "edgeList" {
                job = json!({"kind": "edgeList", "graph": "0 1 2\n1 2\n2 3 5\n3 0\n0 4\n", "rounds": 2, "messageBytes": 100});
            }
            let mut s = json!({"version": 1, "engine": "place", "seed": seed,
                               "system": sys, "job": job,
                               "model": if k % 2 == 0 { "simgrid-lv08" } else { "max-min" },
                               "sourceQuirks": (k + si) % 3 == 0});
            if k == 1 || k == 4 {
                s["background"] = json!({"fill": 0.4, "processes": 4});
            }
            if k == 0 && si == 0 {
                s["sweep"] = json!({"kinds": ["STAR", "GRID", "CUBE", "TREE"], "messageBytes": [1, 1048576]});
                s["strategies"] = json!(["advanced", "simple", "optimal", "random"]);
            }
            out.push(s.to_string());
        }
    }
    // Mapped (ours) under each objective, on an empty torus, a busy fat tree and a thin tree
    let mapped = [
        (
            "time",
            json!({"kind": "torus2d", "x": 6, "y": 5}),
            "GRID",
            None,
        ),
        (
            "hopBytes",
            json!({"kind": "fatTree", "levels": 3, "down": 3}),
            "TREE",
            Some(0.4),
        ),
        (
            "congestion",
            json!({"kind": "thinTree", "simgrid": "2;4,8;1,2;1,2"}),
            "CUBE",
            None,
        ),
    ];
    for (i, (objective, sys, kind, fill)) in mapped.into_iter().enumerate() {
        let mut s = json!({"version": 1, "engine": "place", "seed": SEEDS[i],
                           "system": sys,
                           "job": {"kind": kind, "processes": 12, "rounds": 2, "messageBytes": 1e6},
                           "strategies": ["simple", "advanced", "mapped"], "objective": objective});
        if let Some(fill) = fill {
            s["background"] = json!({"fill": fill, "processes": 4});
        }
        out.push(s.to_string());
    }
    // a job given as its messages (one-way, repeated, staggered, a loopback) and strategy given,
    // alone and, on a task graph, beside a background
    out.push(
        json!({"version": 1, "engine": "place", "seed": SEEDS[1],
               "system": {"kind": "torus3d", "x": 4, "y": 3, "z": 3},
               "job": {"kind": "messages", "rounds": 3, "compute": 1e6, "messages": [
                   {"src": 0, "dst": 5, "bytes": 1e6},
                   {"src": 0, "dst": 5, "bytes": 1e6, "start": 0.001},
                   {"src": 5, "dst": 2, "bytes": 3e5, "start": 0.0005},
                   {"src": 3, "dst": 1, "bytes": 2e6},
                   {"src": 4, "dst": 4, "bytes": 1e6, "start": 0.002}]},
               "strategies": ["given", "simple", "random", "advanced", "mapped"],
               "placement": [0, 35, 17, 6, 20, 11]})
        .to_string(),
    );
    out.push(
        json!({"version": 1, "engine": "place", "seed": SEEDS[2],
               "system": {"kind": "fatTree", "levels": 3, "down": 3},
               "job": {"kind": "TREE", "processes": 6, "rounds": 2, "messageBytes": 1e5},
               "background": {"fill": 0.3, "processes": 4},
               "strategies": ["given", "optimal"], "placement": [26, 25, 24, 23, 22, 21]})
        .to_string(),
    );
    // networks seen through their routes: a 4D torus beside a background, a dragonfly, and a
    // SimGrid platform file (a flat cluster with a backbone) with a message job
    out.push(
        json!({"version": 1, "engine": "place", "seed": SEEDS[0],
               "system": {"kind": "torus", "dims": [3, 2, 2, 2]},
               "job": {"kind": "GRID", "processes": 12, "rounds": 2, "messageBytes": 1e6, "wrap": true},
               "background": {"fill": 0.3, "processes": 3},
               "strategies": ["simple", "random", "optimal", "advanced", "identity", "mapped"],
               "objective": "hopBytes"})
        .to_string(),
    );
    out.push(
        json!({"version": 1, "engine": "place", "seed": SEEDS[1],
               "system": {"kind": "dragonfly", "simgrid": "3,2;2,1;3,1;2", "bandwidth": 1.25e9},
               "job": {"kind": "CUBE", "processes": 27, "rounds": 3, "messageBytes": 1e5},
               "model": "max-min",
               "strategies": ["simple", "random", "optimal", "advanced", "mapped"]})
        .to_string(),
    );
    out.push(
        json!({"version": 1, "engine": "place", "seed": SEEDS[2],
               "system": {"kind": "simgrid", "platform": SAMPLE_PLATFORM},
               "job": {"kind": "messages", "rounds": 2, "messages": [
                   {"src": 0, "dst": 1, "bytes": 1e6},
                   {"src": 2, "dst": 0, "bytes": 5e5, "start": 0.001},
                   {"src": 1, "dst": 3, "bytes": 2e6}]},
               "strategies": ["given", "simple", "mapped"], "placement": [7, 0, 3, 4]})
        .to_string(),
    );
    // batched ends: scattered 1 MB jobs, alone and beside background jobs
    out.push(
        json!({"version": 1, "engine": "place", "seed": SEEDS[1],
               "system": {"kind": "torus2d", "x": 8, "y": 8},
               "job": {"kind": "GRID", "processes": 36, "rounds": 3, "messageBytes": 1e6, "wrap": true},
               "sweep": {"kinds": ["GRID", "TREE"]},
               "background": {"fill": 0.3, "processes": 4},
               "strategies": ["random", "simple", "advanced"], "endTolerance": 0.02})
        .to_string(),
    );
    // a time limit of 0.3 s: the budgets shrink to 3 %, so Random and Simple finish,
    // Advanced stops at its budget and Mapped judges what finished
    out.push(
        json!({"version": 1, "engine": "place", "seed": SEEDS[0],
               "system": {"kind": "torus2d", "x": 12, "y": 12},
               "job": {"kind": "CUBE", "processes": 64, "rounds": 4, "messageBytes": 1e6, "wrap": true},
               "background": {"fill": 0.4, "processes": 6},
               "strategies": ["random", "simple", "advanced", "mapped"], "timeLimit": 0.3})
        .to_string(),
    );
    out
}

/// A SimGrid platform file: a flat cluster of 8 hosts with a backbone.
pub const SAMPLE_PLATFORM: &str = "<?xml version='1.0'?>\n<platform version=\"4.1\">\n  <cluster id=\"c\" prefix=\"h-\" suffix=\".lab\" radical=\"0-7\" speed=\"1Gf\" bw=\"125MBps\" lat=\"50us\" bb_bw=\"250MBps\" bb_lat=\"20us\"/>\n</platform>\n";
