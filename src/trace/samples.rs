//! The trace engine's sample matrix: small scenarios that together use every trace format,
//! every generated program, both send protocols and every search method, for several seeds
//! (one above 2^53), and one trace long enough for branch and bound's bounds without replay.
//! The native tests pin their reports' fingerprints and the browser tests compare the wasm
//! reports, so replay, search and report are checked byte for byte across targets.

use serde_json::{json, Value};

const SEEDS: [u64; 3] = [1, 42, 9_007_199_254_740_993];

/// Four nodes of the source's kind: load programs 0, 1, 3, 3 (ratios 1, 2, 4, 4).
fn nodes4() -> Value {
    json!([{"name": "grid00", "ratio": 1}, {"name": "grid01", "ratio": 2},
           {"name": "grid02", "ratio": 4}, {"name": "grid03", "ratio": 4}])
}

fn links4() -> Value {
    let samples: Vec<Value> = (0..=40)
        .map(|i| {
            let n = 25.0 * i as f64;
            json!([n, 2e-4 + 1.1e-7 * n + if i % 2 == 0 { 3e-6 } else { -3e-6 }])
        })
        .collect();
    json!([
        {"from": "grid00", "to": "grid01", "a0": 1e-4, "a1": 9e-9, "both": true},
        {"from": "grid00", "to": "grid02", "samples": samples, "both": true},
        {"from": "grid02", "to": "grid03", "a0": 3e-4, "a1": 8e-8}
    ])
}

/// A 4-rank time-independent trace that uses every action of the vocabulary: a halo exchange
/// with `isend`/`irecv`/`waitall`, `test` and `wait`, every collective, `sendRecv`, `sleep`,
/// datatypes and tags (the reference rate of its samples is 1e8 flops/s).
pub fn ti_vocabulary() -> String {
    let mut s = String::new();
    for x in 0..4usize {
        let (l, r) = ((x + 3) % 4, (x + 1) % 4);
        let lines = [
            "init".to_string(),
            format!("compute {}", 1e6 * (x + 1) as f64),
            format!("irecv {l} 5 2000 6"),
            format!("irecv {r} 5 2000 6"),
            format!("isend {r} 5 2000 6"),
            format!("isend {l} 5 2000 6"),
            "compute 5e5".into(),
            "waitall".into(),
            "allreduce 1 1e5 0".into(),
            format!("isend {r} 9 100000 6"),
            format!("irecv {l} 9 100000 6"),
            format!("test {x} {r} 9"),
            format!("wait {x} {r} 9"),
            format!("wait {l} {x} 9"),
            "bcast 5000 2 6".into(),
            "barrier".into(),
            "alltoall 100 100 6 6".into(),
            "alltoallv 400 100 100 100 100 400 100 100 100 100 6 6".into(),
            "gather 100 100 1 6 6".into(),
            "gatherv 100 100 100 100 100 1 6 6".into(),
            "scatter 100 100 3 6 6".into(),
            format!("scatterv 100 200 300 400 {} 3 6 6", 100 * (x + 1)),
            "allgather 50 50 6 6".into(),
            "allgatherv 50 50 50 50 50 6 6".into(),
            "reduce 1000 2e5 0 6".into(),
            "reducescatter 10 10 10 10 3e5 1".into(),
            "scan 64 1e4 6".into(),
            "exscan 64 1e4 6".into(),
            format!("sendRecv 300 {r} 300 {l} 6 6"),
            "sleep 0.001".into(),
            format!("compute {}", 2e6 * (4 - x) as f64),
            "finalize".into(),
        ];
        for line in lines {
            s.push_str(&format!("{x} {line}\n"));
        }
    }
    s
}

/// The sample scenarios, as compact JSON texts, in a fixed order.
pub fn sample_scenarios() -> Vec<String> {
    let mut out = Vec::new();
    let text = "ranks 3\n0 compute 0.002\n0 send 1 8000\n1 recv 0 8000\n1 compute 0.001\n1 send 2 4000\n2 recv 1 4000\n2 compute 0.003\n2 send 0 16\n0 recv 2 16\n";
    let ti = "0 init\n0 compute 2e6\n0 send 1 0 1000 0\n1 init\n1 recv 0 0 1000 0\n1 compute 5e6\n1 send 0 0 10 1\n0 recv 1 0 10 1\n0 finalize\n1 finalize\n";
    for &seed in &SEEDS {
        for (i, method) in ["auto", "exhaustive", "branchAndBound", "localSearch"]
            .iter()
            .enumerate()
        {
            let program = ["luCyclic", "luBlock", "luUneven", "matmul", "himeno"]
                [(i + (seed % 5) as usize) % 5];
            let protocol = ["rendezvous", "eager"][i % 2];
            out.push(json!({"version": 1, "engine": "trace", "seed": seed, "protocol": protocol,
                "generate": {"program": program, "size": 60, "ranks": 4, "iterations": 3},
                "nodes": nodes4(), "links": links4(), "defaultLink": {"a0": 5e-4, "a1": 2e-7},
                "search": {"method": method, "top": 10, "budget": 20000, "restarts": 3},
                "measured": "assignment,time\ngrid00 grid01 grid02 grid03,0.01\ngrid03 grid02 grid01 grid00,0.02\n"
            }).to_string());
        }
        out.push(
            json!({"version": 1, "engine": "trace", "seed": seed,
            "trace": {"format": "alog", "text": super::alog::TABLE1},
            "nodes": nodes4(), "defaultLink": {"a0": 1e-4, "a1": 1e-8}})
            .to_string(),
        );
        out.push(
            json!({"version": 1, "engine": "trace", "seed": seed,
            "trace": {"format": "text", "text": text},
            "nodes": nodes4(), "links": links4(), "defaultLink": {"a0": 1e-4, "a1": 1e-8},
            "search": {"method": "branchAndBound", "top": 5}})
            .to_string(),
        );
        out.push(json!({"version": 1, "engine": "trace", "seed": seed, "referenceRate": 1e8,
            "trace": {"format": "ti", "text": ti},
            "nodes": [{"name": "a", "ratio": 1}, {"name": "b", "ratio": 1}, {"name": "c", "ratio": 3}],
            "defaultLink": {"a0": 1e-5, "a1": 1e-9},
            "search": {"method": "localSearch", "restarts": 2}}).to_string());
    }
    // long enough for branch and bound's bounds without replay (per-rank, critical path)
    let mut nodes = nodes4();
    if let Some(a) = nodes.as_array_mut() {
        a.push(json!({"name": "grid04", "ratio": 3}));
        a.push(json!({"name": "grid05", "ratio": 1.5}));
    }
    out.push(
        json!({"version": 1, "engine": "trace", "seed": 1,
        "generate": {"program": "luUneven", "size": 800, "ranks": 5},
        "nodes": nodes, "links": links4(), "defaultLink": {"a0": 5e-4, "a1": 2e-7},
        "search": {"method": "branchAndBound", "top": 7}})
        .to_string(),
    );
    // the whole time-independent vocabulary, each protocol, exhaustive search and branch and
    // bound on unequal nodes
    for (i, protocol) in ["size", "rendezvous", "eager"].iter().enumerate() {
        let method = ["exhaustive", "branchAndBound", "auto"][i];
        out.push(
            json!({"version": 1, "engine": "trace", "seed": 7, "referenceRate": 1e8,
            "protocol": protocol, "eagerThreshold": 4096,
            "trace": {"format": "ti", "text": ti_vocabulary()},
            "nodes": nodes4(), "links": links4(), "defaultLink": {"a0": 5e-5, "a1": 2e-8},
            "search": {"method": method, "top": 6}})
            .to_string(),
        );
    }
    // several ranks per node: 6 ranks on nodes of 2, 3 and 2 cores, one with its own intra
    // link, every search within capacity
    for (i, method) in ["exhaustive", "branchAndBound", "localSearch"]
        .iter()
        .enumerate()
    {
        let protocol = ["rendezvous", "eager", "size"][i];
        let program = ["himeno", "luUneven", "matmul"][i];
        out.push(
            json!({"version": 1, "engine": "trace", "seed": 3 + i as u64,
            "protocol": protocol,
            "generate": {"program": program, "size": 60, "ranks": 6, "iterations": 2},
            "nodes": [{"name": "a", "ratio": 1, "cores": 2, "intra": {"a0": 2e-6, "a1": 5e-10}},
                      {"name": "b", "ratio": 2, "cores": 3}, {"name": "c", "ratio": 1, "cores": 2}],
            "defaultLink": {"a0": 5e-5, "a1": 2e-8}, "intraLink": {"a0": 1e-6, "a1": 1e-10},
            "search": {"method": method, "top": 8, "budget": 200000, "restarts": 3}})
            .to_string(),
        );
    }
    // SMPI's piecewise factors and a link fitted per size range
    let samples: Vec<[f64; 2]> = (0..24)
        .map(|i| {
            let n = 4096.0 * f64::from(i);
            let t = if n < 65536.0 {
                4e-5 + 1e-8 * n
            } else {
                9e-5 + 8e-9 * n
            };
            [n, t]
        })
        .collect();
    out.push(
        json!({"version": 1, "engine": "trace", "seed": 11,
        "protocol": "size",
        "generate": {"program": "matmul", "size": 48, "ranks": 4, "iterations": 2},
        "nodes": [{"name": "a", "ratio": 1}, {"name": "b", "ratio": 1.5},
                  {"name": "c", "ratio": 2}, {"name": "d", "ratio": 1}],
        "links": [{"from": "a", "to": "b", "both": true, "samples": samples,
                   "breakpoints": [65536]}],
        "defaultLink": {"a0": 5e-5, "a1": 2e-8},
        "latFactor": "0:1.2;65536:1.9", "bwFactor": "0:0.6;65536:0.95",
        "search": {"method": "exhaustive", "top": 6}})
        .to_string(),
    );
    // the platform from a SimGrid file: two clusters joined by a link, hosts chosen by name,
    // one of two cores, SMPI's default factors
    let platform = "<?xml version='1.0'?>\n<platform version=\"4.1\">\n\
        <zone id=\"w\" routing=\"Full\">\n\
        <cluster id=\"c1\" prefix=\"a-\" suffix=\"\" radical=\"0-2\" speed=\"1Gf\" \
        core=\"2\" bw=\"125MBps\" lat=\"50us\" router_id=\"r1\"/>\n\
        <cluster id=\"c2\" prefix=\"b-\" suffix=\"\" radical=\"0-1\" speed=\"2Gf\" \
        bw=\"1GBps\" lat=\"10us\" router_id=\"r2\"/>\n\
        <link id=\"wan\" bandwidth=\"10MBps\" latency=\"5ms\"/>\n\
        <zoneRoute src=\"c1\" dst=\"c2\" gw_src=\"r1\" gw_dst=\"r2\"><link_ctn id=\"wan\"/></zoneRoute>\n\
        </zone>\n</platform>\n";
    out.push(
        json!({"version": 1, "engine": "trace", "seed": 12,
        "protocol": "size",
        "generate": {"program": "luUneven", "size": 48, "ranks": 4, "iterations": 2},
        "simgrid": platform,
        "nodes": [{"name": "a-0"}, {"name": "a-1", "cores": 1}, {"name": "b-0"}, {"name": "b-1"}],
        "search": {"method": "branchAndBound", "top": 6}})
        .to_string(),
    );
    // identical ranks: a periodic ring whose shifts leave it unchanged, every search reduced
    // (on two cores a node, too) and one not
    for (i, method) in [
        "exhaustive",
        "branchAndBound",
        "localSearch",
        "branchAndBound",
    ]
    .iter()
    .enumerate()
    {
        let cores = if i == 3 { 2 } else { 1 };
        out.push(
            json!({"version": 1, "engine": "trace", "seed": 11 + i as u64,
            "generate": {"program": "ring", "size": 40, "ranks": 6, "iterations": 2},
            "nodes": [{"name": "a", "ratio": 1, "cores": cores}, {"name": "b", "ratio": 2, "cores": cores},
                      {"name": "c", "ratio": 1, "cores": cores}, {"name": "d", "ratio": 3, "cores": cores},
                      {"name": "e", "ratio": 1.5, "cores": cores}, {"name": "f", "ratio": 2.5, "cores": cores}],
            "defaultLink": {"a0": 5e-5, "a1": 2e-8},
            "search": {"method": method, "top": 8, "budget": 200000, "restarts": 3,
                       "rankSymmetry": i != 2}})
            .to_string(),
        );
    }
    // exhaustive search on every native thread (one piece in wasm): the same report
    out.push(
        json!({"version": 1, "engine": "trace", "seed": 17,
        "generate": {"program": "luCyclic", "size": 200, "ranks": 6, "width": 5, "iterations": 1},
        "nodes": [{"name": "a", "ratio": 1}, {"name": "b", "ratio": 2}, {"name": "c", "ratio": 1.25},
                  {"name": "d", "ratio": 3}, {"name": "e", "ratio": 1.5}, {"name": "f", "ratio": 2.5}],
        "defaultLink": {"a0": 5e-5, "a1": 2e-8},
        "search": {"method": "exhaustive", "top": 8, "workers": 2}})
        .to_string(),
    );
    out
}
