//! The partitioning engine's sample matrix: small scenarios that together use every graph kind
//! (with and without wrap, weights, targets, coordinates), both objectives and every method, for
//! several seeds (one above 2^53). The native tests pin their reports' fingerprints in
//! `tests/fixtures/matrix.json` and the browser tests compare the wasm reports with them, so a
//! platform difference in a generator, the partitioner, the layout or the report shows.

use super::scenario::{GraphKind, MethodId};
use crate::rng::Rng;
use serde_json::{json, Value};

const SEEDS: [u64; 3] = [1, 42, 9_007_199_254_740_993];
const UFACTORS: [u64; 3] = [30, 1, 100];

/// A small weighted METIS file (`fmt` 011: vertex and edge weights): two triangles joined by a
/// heavy edge, with a pendant vertex.
pub const WEIGHTED_METIS: &str = "% two triangles and a tail\n7 8 011\n2 2 1 3 3\n1 1 1 3 1\n1 1 3 2 1 4 9\n3 3 9 5 1 6 1\n2 4 1 6 1\n1 4 1 5 1 7 2\n5 6 2\n";

/// The sample scenarios, as compact JSON texts, in a fixed order.
pub fn sample_scenarios() -> Vec<String> {
    let mut out = Vec::new();
    for (si, &seed) in SEEDS.iter().enumerate() {
        for (gi, kind) in GraphKind::ALL.iter().enumerate() {
            out.push(sample(seed, si, gi, *kind).to_string());
        }
    }
    out
}

fn sample(seed: u64, si: usize, gi: usize, kind: GraphKind) -> Value {
    let mut rng = Rng::seeded(seed ^ 0x5a3c_9a27);
    let wrap = (si + gi) % 2 == 1;
    let graph = match kind {
        GraphKind::Grid2d => json!({"kind": "grid2d", "width": 6 + si, "height": 5, "wrap": wrap}),
        GraphKind::Cube3d => {
            json!({"kind": "cube3d", "width": 4, "height": 3, "depth": 3 + si, "wrap": wrap})
        }
        GraphKind::BinaryTree => json!({"kind": "binaryTree", "n": 31 + si}),
        GraphKind::Star => json!({"kind": "star", "n": 20 + si}),
        GraphKind::Complete => json!({"kind": "complete", "n": 9 + si}),
        GraphKind::Geometric => {
            json!({"kind": "geometric", "n": 60 + 10 * si, "radius": 0.2})
        }
        GraphKind::Delaunay => json!({"kind": "delaunay", "n": 80 + 10 * si}),
        GraphKind::Metis => {
            let mut g = json!({"kind": "metis", "text": WEIGHTED_METIS});
            if si != 1 {
                g["coordinates"] = json!("0 0\n1 0\n0.5 1\n2 1\n3 0\n3 1\n4 0.5\n");
            }
            g
        }
        GraphKind::EdgeList => {
            // a random sparse graph with a few isolated vertices (the last ids get no edge)
            let n = 24;
            let mut edges = String::from("# u v w\n");
            let mut seen = std::collections::BTreeSet::new();
            while seen.len() < 30 {
                let u = rng.below(n - 3);
                let v = rng.below(n - 3);
                if u != v && seen.insert((u.min(v), u.max(v))) {
                    edges.push_str(&format!("{u} {v} {}\n", rng.in_range(1, 5)));
                }
            }
            json!({"kind": "edgeList", "text": edges})
        }
    };
    let k = [2u64, 3, 4, 5, 8][(si + gi) % 5];
    let mut doc = json!({
        "version": 1,
        "engine": "partition",
        "name": format!("matrix {} seed {seed}", kind.id()),
        "seed": seed,
        "graph": graph,
        "k": k,
        "objective": if (si + gi) % 2 == 0 { "cut" } else { "volume" },
        "ufactor": UFACTORS[si],
        "methods": MethodId::ALL.map(MethodId::id),
    });
    if gi % 3 == 2 {
        // unequal targets: part p gets (p + 1) shares
        let shares: u64 = (1..=k).sum();
        let mut t: Vec<f64> = (1..=k).map(|p| p as f64 / shares as f64).collect();
        let rest: f64 = t[..t.len() - 1].iter().sum();
        *t.last_mut().expect("k >= 2") = 1.0 - rest;
        doc["targets"] = json!(t);
    }
    doc
}

/// The scenario whose part files the browser tests compare with the native ones (the same
/// part file natively and in wasm): a seeded 2D Delaunay mesh, every method, unequal
/// targets, volume objective on a second copy.
pub const PART_FILE_SCENARIOS: [&str; 2] = [
    r#"{"version":1,"engine":"partition","seed":7,"graph":{"kind":"delaunay","n":5000},"k":16,"methods":["kway","rb","strong","linear","random"]}"#,
    r#"{"version":1,"engine":"partition","seed":9007199254740993,"graph":{"kind":"geometric","n":3000},"k":5,"objective":"volume","targets":[0.1,0.2,0.3,0.15,0.25],"methods":["kway","rb","strong"]}"#,
];

/// For a partitioning report (the JSON `placelab run` prints), each method's part file (gpmetis
/// format, [`crate::formats::metis::write_part`]) as `(method, file text)`; the tests pin their
/// fingerprints ([`crate::api::fingerprint`]).
pub fn part_files(report: &str) -> Vec<(String, String)> {
    let doc: Value = serde_json::from_str(report).expect("reports are JSON");
    doc["report"]["runs"]
        .as_array()
        .expect("runs")
        .iter()
        .map(|run| {
            let part: Vec<u32> = run["part"]
                .as_array()
                .expect("small reports keep their part vectors")
                .iter()
                .map(|p| p.as_u64().expect("part ids") as u32)
                .collect();
            let file = crate::formats::metis::write_part(&part);
            (run["method"].as_str().unwrap_or("").to_string(), file)
        })
        .collect()
}
