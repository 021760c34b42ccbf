//! Figures of a partition, recomputed from the graph and the part vector alone (the report's
//! numbers and the tests' recounts both come from here; definitions in `docs/format.md`).
//!
//! - edge cut: the sum of the weights of edges whose ends are in different parts;
//! - communication volume (METIS `objtype=vol`): for every vertex `v`, `vsize[v]` times the
//!   number of parts other than `v`'s own among its neighbours' parts, summed over vertices;
//! - part weights: the sum of vertex weights in each part;
//! - imbalance: `max_p weight[p] / target[p]`, where `target[p] = tpwgts[p] * total weight`
//!   (1.0 is perfect; METIS prints the same figure for its partitions).

use super::graph::Graph;

/// Edge cut of `part` (weights summed once per undirected edge).
pub fn edge_cut(g: &Graph, part: &[u32]) -> u64 {
    let mut cut = 0u64;
    for v in 0..g.n() {
        let pv = part[v as usize];
        for (&u, &w) in g.neighbors(v).iter().zip(g.edge_weights(v)) {
            if u > v && part[u as usize] != pv {
                cut += u64::from(w);
            }
        }
    }
    cut
}

/// Total communication volume of `part`.
pub fn comm_volume(g: &Graph, part: &[u32], k: u32) -> u64 {
    let mut mark = vec![u32::MAX; k as usize];
    let mut vol = 0u64;
    for v in 0..g.n() {
        let pv = part[v as usize];
        let mut touched = 0u64;
        for &u in g.neighbors(v) {
            let pu = part[u as usize];
            if pu != pv && mark[pu as usize] != v {
                mark[pu as usize] = v;
                touched += 1;
            }
        }
        vol += touched * u64::from(g.vsize[v as usize]);
    }
    vol
}

/// Sum of vertex weights in each of the `k` parts.
pub fn part_weights(g: &Graph, part: &[u32], k: u32) -> Vec<u64> {
    let mut w = vec![0u64; k as usize];
    for (v, &p) in part.iter().enumerate() {
        w[p as usize] += u64::from(g.vwgt[v]);
    }
    w
}

/// `max_p weights[p] / (tpwgts[p] * total)`; 1.0 for an empty graph. Parts with a zero target
/// and zero weight are skipped; a zero target holding weight gives infinity.
pub fn imbalance(weights: &[u64], tpwgts: &[f64]) -> f64 {
    let total: u64 = weights.iter().sum();
    if total == 0 {
        return 1.0;
    }
    let mut worst = 0.0f64;
    for (&w, &t) in weights.iter().zip(tpwgts) {
        let target = t * total as f64;
        if w == 0 {
            continue;
        }
        let r = if target > 0.0 {
            w as f64 / target
        } else {
            f64::INFINITY
        };
        worst = worst.max(r);
    }
    worst
}
