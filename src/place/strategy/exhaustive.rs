//! Exhaustive search for small jobs: the mapping of least hop-bytes over every injective
//! assignment of tasks to free hosts, by branch and bound.
//!
//! Tasks are assigned one at a time in breadth-first order of the task graph (each task after
//! one of its neighbours where possible, so edges are counted early); a partial assignment's
//! cost is the hop-bytes of its edges with both ends assigned, a lower bound of every completion
//! (distances are non-negative), so a branch whose partial cost reaches the best complete cost
//! found is cut. Starting from the heuristic's cost as the bound, the search returns a mapping
//! strictly better than it, or `None` when none exists: either way the answer is optimal.
//!
//! The search runs only when the assignments it could enumerate, `F (F-1) ... (F-P+1)` for `P`
//! tasks on `F` free hosts, are at most [`MAX_ASSIGNMENTS`]: then its work is bounded whatever
//! the pruning does.
//!
//! # Complexity
//! `O(MAX_ASSIGNMENTS * deg)` at worst.

use crate::graph::Graph;

use super::swap::Metric;

/// Most assignments the exhaustive search may enumerate.
pub const MAX_ASSIGNMENTS: u64 = 2_000_000;

/// The number of injective assignments of `p` tasks to `free` hosts, saturating.
pub fn assignments(p: u32, free: u32) -> u64 {
    if p > free {
        return 0;
    }
    let mut a = 1u64;
    for i in 0..p {
        a = a.saturating_mul(u64::from(free - i));
    }
    a
}

/// The least hop-bytes (edge-weight units) there is, given a mapping of cost `bound`: with a
/// mapping of that cost when it is below `bound`, without one when `bound` is the least;
/// `None` when the search would exceed [`MAX_ASSIGNMENTS`] (and so does not run).
pub fn exhaustive(
    g: &Graph,
    metric: &Metric,
    busy: &[bool],
    bound: u64,
) -> Option<(Option<Vec<u32>>, u64)> {
    let n = g.n();
    let free: Vec<u32> = (0..metric.hosts()).filter(|&h| !busy[h as usize]).collect();
    if n == 0 || assignments(n, free.len() as u32) > MAX_ASSIGNMENTS {
        return None;
    }
    // breadth-first order over every component
    let mut order = Vec::with_capacity(n as usize);
    let mut placed = vec![false; n as usize];
    for s in 0..n {
        if placed[s as usize] {
            continue;
        }
        placed[s as usize] = true;
        let mut i = order.len();
        order.push(s);
        while i < order.len() {
            let v = order[i];
            i += 1;
            for &u in g.neighbors(v) {
                if !placed[u as usize] {
                    placed[u as usize] = true;
                    order.push(u);
                }
            }
        }
    }
    let mut b = Bnb {
        g,
        metric,
        free: &free,
        order: &order,
        host_of: vec![u32::MAX; n as usize],
        used: vec![false; free.len()],
        best: bound,
        best_map: None,
    };
    b.go(0, 0);
    Some((b.best_map, b.best))
}

struct Bnb<'a> {
    g: &'a Graph,
    metric: &'a Metric,
    free: &'a [u32],
    order: &'a [u32],
    host_of: Vec<u32>,
    used: Vec<bool>,
    best: u64,
    best_map: Option<Vec<u32>>,
}

impl Bnb<'_> {
    fn go(&mut self, depth: usize, cost: u64) {
        if depth == self.order.len() {
            if cost < self.best {
                self.best = cost;
                self.best_map = Some(self.host_of.clone());
            }
            return;
        }
        let t = self.order[depth];
        for i in 0..self.free.len() {
            if self.used[i] {
                continue;
            }
            let h = self.free[i];
            let mut c = cost;
            for (&v, &w) in self.g.neighbors(t).iter().zip(self.g.edge_weights(t)) {
                let hv = self.host_of[v as usize];
                if hv != u32::MAX {
                    c += u64::from(w) * u64::from(self.metric.hops(h, hv));
                }
            }
            if c >= self.best {
                continue;
            }
            self.used[i] = true;
            self.host_of[t as usize] = h;
            self.go(depth + 1, c);
            self.host_of[t as usize] = u32::MAX;
            self.used[i] = false;
        }
    }
}
