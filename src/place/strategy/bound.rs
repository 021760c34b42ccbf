//! A lower bound on a mapping's hop-bytes that a star's centre makes tight: Mapped (ours) stops
//! searching once its best mapping meets it ([`super::mapped`]).
//!
//! # Theorem
//! Let `v` be a task with edge weights `w_1 >= w_2 >= ... >= w_k` (total `W_v`), `W` the total
//! edge weight of the job and `m` the fewest links between two distinct hosts. For a host `h`
//! let `d_1(h) <= d_2(h) <= ...` be the hops from `h` to the other free hosts. In every mapping
//! (tasks on distinct free hosts) `v` sits on some free `h` and its `k` neighbours on `k`
//! distinct other free hosts (`d` counts the shorter way where routes each way differ: a
//! mapping counts each edge one way), so by the rearrangement inequality its edges cost at least
//! `L_v(h) = sum_i w_i d_i(h)` (the heaviest edge on the shortest route), and every other edge at
//! least `m` times its weight:
//!
//! `hop_weight >= min_h L_v(h) + (W - W_v) m`.
//!
//! On a star (every edge at its centre `v`) the bound is the least hop-bytes there is: the
//! centre on the best `h`, its heaviest neighbours on the nearest hosts. Elsewhere it is at
//! least the plain `W m`, and often no tighter.
//!
//! `v` is the task of the largest weighted degree (the lowest such). The minimum over `h` reads
//! one host when every host is free on a torus or a tree (each host sees the same distances
//! there); otherwise every free host, when there are at most [`MAX_SCANNED`]; beyond that the
//! plain bound is returned.
//!
//! # Complexity
//! `O(H + k log k)` on a free torus or tree of `H` hosts; `O(F^2 + F k)` over `F <=`
//! [`MAX_SCANNED`] free hosts otherwise.

use super::swap::Metric;
use super::Shape;
use crate::graph::Graph;

/// Most free hosts whose distances are all read (about a million hop counts).
pub const MAX_SCANNED: usize = 1024;

/// The plain bound `W m`: every edge on the fewest links possible (in edge-weight units times
/// hops, as [`Metric::hop_weight`]).
pub fn plain_bound(metric: &Metric, g: &Graph) -> u64 {
    let total: u64 = (0..g.n())
        .flat_map(|v| g.edge_weights(v).iter())
        .map(|&w| u64::from(w))
        .sum::<u64>()
        / 2;
    total * u64::from(metric.min_hops())
}

/// The lower bound of the module doc, in edge-weight units times hops (as
/// [`Metric::hop_weight`]).
pub fn hop_bound(shape: &Shape, metric: &Metric, busy: &[bool], g: &Graph) -> u64 {
    let m = u64::from(metric.min_hops());
    let plain = plain_bound(metric, g);
    let Some(v) = (0..g.n()).max_by_key(|&v| {
        (
            g.edge_weights(v).iter().map(|&w| u64::from(w)).sum::<u64>(),
            std::cmp::Reverse(v),
        )
    }) else {
        return plain;
    };
    let mut w: Vec<u64> = g.edge_weights(v).iter().map(|&x| u64::from(x)).collect();
    w.sort_unstable_by(|a, b| b.cmp(a));
    let wv: u64 = w.iter().sum();
    let free: Vec<u32> = (0..metric.hosts())
        .filter(|&h| !busy.get(h as usize).copied().unwrap_or(false))
        .collect();
    if w.len() >= free.len() {
        return plain;
    }
    let transitive = free.len() == metric.hosts() as usize
        && match shape {
            Shape::Grid { wrap, .. } => *wrap,
            Shape::Tree { .. } => true,
            Shape::Net { .. } => false,
        };
    let centres: &[u32] = if transitive {
        &free[..1]
    } else if free.len() <= MAX_SCANNED {
        &free
    } else {
        return plain;
    };
    // per centre: how many free hosts at each distance, the heaviest edges on the nearest
    let mut count: Vec<u64> = Vec::new();
    let mut least = u64::MAX;
    for &h in centres {
        count.clear();
        for &x in &free {
            if x != h {
                // an edge counts the route from its lower task's host: on a network whose
                // routes each way differ, the shorter of the two bounds it
                let d = if metric.is_symmetric() {
                    metric.hops(h, x)
                } else {
                    metric.hops(h, x).min(metric.hops(x, h))
                } as usize;
                if d >= count.len() {
                    count.resize(d + 1, 0);
                }
                count[d] += 1;
            }
        }
        let mut cost = 0u64;
        let mut i = 0usize;
        for (d, &c) in count.iter().enumerate() {
            let take = (c as usize).min(w.len() - i);
            cost += w[i..i + take].iter().sum::<u64>() * d as u64;
            i += take;
            if i == w.len() {
                break;
            }
        }
        least = least.min(cost);
    }
    // the other edges' weight `W - W_v`, each on at least `m` links
    (least + plain - wv * m).max(plain)
}
