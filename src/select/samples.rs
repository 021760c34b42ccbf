//! The selection engine's sample matrix: small scenarios that together use every preset, every
//! allowed-P set, both objectives, matrices and hierarchies, load ranges and speeds, default
//! and pasted cost tables, the reservation protocol with every combination of fixes, for several seeds (one above 2^53). The native tests pin their
//! reports' fingerprints in `tests/fixtures/matrix.json` and the browser tests compare the wasm
//! reports with them, so a platform difference (a formula function, a logarithm) shows.

use super::scenario::{Objective, PSet, Preset};
use crate::rng::Rng;
use serde_json::{json, Value};

const SEEDS: [u64; 3] = [1, 42, 9_007_199_254_740_993];

/// The sample scenarios, as compact JSON texts, in a fixed order.
pub fn sample_scenarios() -> Vec<String> {
    let mut out = Vec::new();
    for (si, &seed) in SEEDS.iter().enumerate() {
        for preset in Preset::ALL {
            let psets: Vec<Option<PSet>> = if preset == Preset::Custom {
                PSet::ALL.iter().copied().map(Some).collect()
            } else {
                vec![None]
            };
            for pset in psets {
                out.push(workstations(seed, si, preset, pset).to_string());
            }
        }
        for objective in Objective::ALL {
            for hierarchy in [false, true] {
                out.push(subsystem(seed, objective, hierarchy).to_string());
            }
        }
        out.push(layouts(seed, si).to_string());
        for (ordered, lease) in [(false, false), (true, false), (false, true), (true, true)] {
            out.push(reservation(seed, ordered, lease).to_string());
        }
    }
    out
}

/// Three initiators on 10 stations with loss, so partial reservations and lost releases occur.
fn reservation(seed: u64, ordered: bool, lease: bool) -> Value {
    let mut fixes = json!({"orderedClaims": ordered});
    if lease {
        fixes["leaseTimeout"] = json!(40);
    }
    json!({"version": 1, "engine": "select", "seed": seed, "reservation": {
        "stations": 10,
        "loads": [0.0, 0.1, 0.2, 0.05, 0.5, 0.3, 0.0, 0.9, 0.15, 0.4],
        "initiators": [
            {"start": 0, "wants": 4, "threshold": 0.6, "holdFor": 50},
            {"start": 1, "wants": 4, "threshold": 0.6, "holdFor": 50},
            {"start": 3, "wants": 3, "holdFor": 30}
        ],
        "delay": {"min": 1, "max": 6},
        "loss": 0.05,
        "lossOfRelease": 0.3,
        "fixes": fixes,
        "maxRetries": 4,
        "maxTime": 2000,
        "maxEvents": 300
    }})
}

fn workstations(seed: u64, si: usize, preset: Preset, pset: Option<PSet>) -> Value {
    let mut rng = Rng::seeded(seed ^ 0x5e1e_c7ed);
    let q = 9 + si as u64 * 3;
    let stations: Vec<Value> = (0..q)
        .map(|i| {
            let lo = rng.in_range(0, 80) as f64 / 100.0;
            let load = if i % 3 == 0 {
                json!([lo, lo + rng.in_range(0, 15) as f64 / 100.0])
            } else {
                json!(lo)
            };
            let speed = [1.0, 0.5, 2.0, 1.25][rng.in_range(0, 3) as usize];
            json!({"load": load, "speed": speed})
        })
        .collect();
    let mut model = json!({"preset": preset.id(), "nstep": 200, "tMult": 0.0004});
    if preset == Preset::Custom {
        model["constants"] = json!({"k": 3.5});
        model["ts"] = json!("P * (alpha + beta * N / P)");
        model["tc"] = json!("2 * nstep * (alpha + 8 * beta) * log2(max(P, 2)) ^ 0.5");
        model["tr"] = json!("ceil(P / 2) * alpha + exp(-P) - floor(0.5) + abs(-1) * 0");
        model["to"] = json!("nstep * k * N / P * (t_mult + t_add) + sqrt(P) - log(P)");
        if let Some(p) = pset {
            model["pSet"] = json!(p.id());
        }
    }
    json!({"version": 1, "engine": "select", "seed": seed, "stations": stations, "model": model})
}

#[allow(clippy::needless_range_loop)] // reads or writes both [i][j] and [j][i]
fn subsystem(seed: u64, objective: Objective, hierarchy: bool) -> Value {
    let mut rng = Rng::seeded(seed ^ 0x5ab5_75e3);
    let sub = if hierarchy {
        json!({"objective": objective.id(), "m": 5, "hierarchy": {"arities": [2, 3, 3]}})
    } else {
        let n = 12usize;
        let mut m = vec![vec![0.0; n]; n];
        for i in 0..n {
            for j in i + 1..n {
                let v = 1.0 + rng.in_range(0, 40) as f64 / 4.0;
                m[i][j] = v;
                m[j][i] = v;
            }
        }
        json!({"objective": objective.id(), "m": 4, "matrix": m})
    };
    json!({"version": 1, "engine": "select", "seed": seed, "alltoall": {"subsystem": sub}})
}

fn layouts(seed: u64, si: usize) -> Value {
    let mut rng = Rng::seeded(seed ^ 0x1a70_u64);
    let busy: Vec<u64> = (0..6).map(|_| rng.in_range(0, 5)).collect();
    let mut l = json!({"ranks": [2, 4, 6, 8], "nodes": 6, "busy": busy,
        "messageBytes": 1_000_000 * (1 + si as u64 * 20)});
    if si == 1 {
        l["table"] = json!(
            "layer,bytes,cf1,cf2\nsocket,1000,1,2\nnode,1000,2,4\nnetwork,1000,5,9\nnetwork,100000000,400,900"
        );
    }
    json!({"version": 1, "engine": "select", "seed": seed, "alltoall": {"layouts": l}})
}
