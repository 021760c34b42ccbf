//! The moldable engine's sample matrix: small scenarios that together use every method, both
//! decoders, islands, the efficiency constraint, release times, TORQUE and SWF input (with and
//! without the speedup model) and both generators, for several seeds (one above 2^53). The
//! native tests pin their reports' fingerprints and the browser tests compare the wasm reports.

use serde_json::{json, Value};

const SEEDS: [u64; 3] = [1, 42, 9_007_199_254_740_993];

const SWF: &str = "; sample\n1 0 0 100 8 -1 -1 8 200 -1 1 1 1 1 1 -1 -1 -1\n2 5 0 40 4 -1 -1 4 60 -1 1 1 1 1 1 -1 -1 -1\n3 9 0 70 16 -1 -1 16 90 -1 1 1 1 1 1 -1 -1 -1\n4 12 0 20 2 -1 -1 2 30 -1 1 1 1 1 1 -1 -1 -1\n";

fn ga(decoder: &str, islands: u32) -> Value {
    json!({"population": 8, "cycles": 30, "crossover": 0.9, "parts": 3, "decoder": decoder,
           "islands": islands, "exchangeEvery": 10})
}

/// The sample scenarios, as compact JSON texts, in a fixed order.
pub fn sample_scenarios() -> Vec<String> {
    let mut out = Vec::new();
    for &seed in &SEEDS {
        for (decoder, islands) in [("shelf", 1), ("list", 1), ("shelf", 3), ("list", 2)] {
            out.push(json!({"version": 1, "engine": "moldable", "seed": seed, "machines": 16,
                "efficiency": 0.75, "methods": ["nfdh", "ffdh", "bfdh", "ga"], "ga": ga(decoder, islands),
                "jobs": [
                    {"ranks": 4, "time": 10},
                    {"variants": [{"ranks": 2, "time": 10, "weight": 1}, {"ranks": 5, "time": 4, "weight": 0.8}, {"ranks": 3, "time": 2, "weight": 0.3}]},
                    {"variants": [{"ranks": 8, "time": 3}, {"ranks": 4, "time": 6}], "release": 2},
                    {"ranks": 16, "time": 1},
                    {"variants": [{"ranks": 1, "time": 12, "weight": 1}, {"ranks": 6, "time": 2.5, "weight": 0.8}]}
                ]}).to_string());
        }
        out.push(json!({"version": 1, "engine": "moldable", "seed": seed, "machines": 32,
            "methods": ["ffdh", "ga"], "ga": ga("list", 1),
            "torque": "-L nodes=2@ppn=4@walltime=00:10:00\n-L nodes=1@ppn=8@weight=1@walltime=600 -L nodes=4@ppn=8@weight=0.7@walltime=240\n"}).to_string());
        for sf in [None, Some(0.1)] {
            let mut swf = json!({"text": SWF, "releases": true});
            if let Some(f) = sf {
                swf["serialFraction"] = json!(f);
            }
            out.push(
                json!({"version": 1, "engine": "moldable", "seed": seed, "machines": 16,
                "methods": ["bfdh", "ga"], "ga": ga("shelf", 1), "swf": swf})
                .to_string(),
            );
        }
        for kind in ["random", "guillotine"] {
            out.push(json!({"version": 1, "engine": "moldable", "seed": seed, "machines": 64,
                "ga": ga("list", 1), "generate": {"kind": kind, "jobs": 40, "maxVariants": 3, "height": 50}}).to_string());
        }
    }
    out
}
