//! The critical-path bound: lower bounds from chains of dependencies of earlier replays.

use super::{FREE, KEEP};
use crate::trace::replay::{Compiled, PathProfile, Platform};

/// Least total cost of giving each of `rows` rows a distinct one of `cols` columns
/// (`rows <= cols`), cost `a[i * stride + j]`: the Hungarian method with potentials.
///
/// # Complexity
/// `O(rows^2 cols)`.
pub fn assignment_cost(a: &[f64], stride: usize, rows: usize, cols: usize) -> f64 {
    if rows == 0 {
        return 0.0;
    }
    let inf = f64::INFINITY;
    let mut u = vec![0.0f64; rows + 1];
    let mut v = vec![0.0f64; cols + 1];
    let mut p = vec![0usize; cols + 1];
    let mut way = vec![0usize; cols + 1];
    for i in 1..=rows {
        p[0] = i;
        let mut j0 = 0usize;
        let mut minv = vec![inf; cols + 1];
        let mut used = vec![false; cols + 1];
        loop {
            used[j0] = true;
            let i0 = p[j0];
            let mut delta = inf;
            let mut j1 = 0usize;
            for j in 1..=cols {
                if !used[j] {
                    let cur = a[(i0 - 1) * stride + j - 1] - u[i0] - v[j];
                    if cur < minv[j] {
                        minv[j] = cur;
                        way[j] = j0;
                    }
                    if minv[j] < delta {
                        delta = minv[j];
                        j1 = j;
                    }
                }
            }
            for j in 0..=cols {
                if used[j] {
                    u[p[j]] += delta;
                    v[j] -= delta;
                } else {
                    minv[j] -= delta;
                }
            }
            j0 = j1;
            if p[j0] == 0 {
                break;
            }
        }
        loop {
            let j1 = way[j0];
            p[j0] = p[j1];
            j0 = j1;
            if j0 == 0 {
                break;
            }
        }
    }
    (1..=cols)
        .filter(|&j| p[j] != 0)
        .map(|j| a[(p[j] - 1) * stride + j - 1])
        .sum()
}

/// The critical-path bound: lower bounds from chains of dependencies of earlier replays.
///
/// # The bound and why it is admissible
/// A chain of the replay ([`Compiled::critical_path`]) is a sequence of computations and
/// transfers each of which starts when the previous one ends; every replay, whatever the
/// assignment, ends no earlier than the chain's length under that assignment:
/// `sum over ranks x of w(x) ratio(node x) + sum over rank pairs of max(0, k a0 + B a1)` for the
/// chain's computation `w(x)` of each rank and its `k` messages of `B` bytes in all between
/// each ordered pair (a sum of `max(0, a0 + a1 N_i)` is at least the `max(0, .)` of the sum).
/// For a partial assignment, terms of placed ranks and of pairs of placed ranks are exact;
/// a pair of two free ranks takes the least `a0` and the least `a1` between distinct free
/// nodes; the terms of each free rank `x` on a free node `v` (its computation and its
/// messages with placed ranks) form a cost `C(x, v)`, and the least sum of `C` over injective
/// maps of the free ranks into the free nodes (an assignment problem,
/// [`assignment_cost`]) bounds them in every completion. The bound is the largest over the
/// kept chains, lowered by [`super::RANK_BOUND_MARGIN`] for rounding (as [`super::RankBound`]).
///
/// The chains kept: the critical path of the root's relaxed replay and of each new best
/// assignment found, at most [`MAX_PATHS`] (the latest replace the oldest but the root's).
///
/// # Complexity
/// `O(P (R^2 n + R^2 n))` per bound for `P` chains (costs, then the assignment problem).
pub struct PathBound<'a> {
    p: &'a Platform,
    ranks: usize,
    paths: Vec<PathProfile>,
    cost: Vec<f64>,
}

/// Chains kept by [`PathBound`].
pub const MAX_PATHS: usize = 4;

impl<'a> PathBound<'a> {
    pub fn new(c: &Compiled, p: &'a Platform) -> Self {
        PathBound {
            p,
            ranks: c.ranks,
            paths: Vec::new(),
            cost: vec![0.0; c.ranks * p.n],
        }
    }

    /// Keeps a chain (the oldest but the first is dropped beyond [`MAX_PATHS`]).
    pub fn add(&mut self, path: PathProfile) {
        if self.paths.len() >= MAX_PATHS {
            self.paths.remove(1);
        }
        self.paths.push(path);
    }

    /// Replay steps one bound is counted as: `R x n x (R + 1)` per chain.
    pub fn steps(&self) -> u64 {
        (self.paths.len() * self.ranks * self.p.n * (self.ranks + 1)) as u64
    }

    /// The bound of `assign` (`FREE` for ranks not placed); 0 without chains.
    pub fn bound(&mut self, assign: &[u8]) -> f64 {
        let p = self.p;
        let (n, r) = (p.n, self.ranks);
        let pos = |v: f64| if v > 0.0 { v } else { 0.0 };
        let mut used = [false; 256];
        for &u in assign {
            if u != FREE {
                used[u as usize] = true;
            }
        }
        let free: Vec<usize> = (0..n).filter(|&u| !used[u]).collect();
        let open: Vec<usize> = (0..r).filter(|&x| assign[x] == FREE).collect();
        let (mut ff0, mut ff1) = (f64::INFINITY, f64::INFINITY);
        for &u in &free {
            for &v in &free {
                if u != v {
                    ff0 = ff0.min(p.a0[u * n + v]);
                    ff1 = ff1.min(p.a1[u * n + v]);
                }
            }
        }
        let mut best = 0.0f64;
        for path in &self.paths {
            let mut fixed = path.fixed;
            for x in 0..r {
                if assign[x] != FREE {
                    fixed += path.w[x] * p.ratio[assign[x] as usize];
                }
            }
            for a in 0..r {
                for b in 0..r {
                    let k = path.count[a * r + b];
                    if k == 0.0 {
                        continue;
                    }
                    let by = path.bytes[a * r + b];
                    match (assign[a] == FREE, assign[b] == FREE) {
                        (false, false) => {
                            let l = assign[a] as usize * n + assign[b] as usize;
                            fixed += pos(k * p.a0[l] + by * p.a1[l]);
                        }
                        (true, true) if ff0.is_finite() => fixed += pos(k * ff0 + by * ff1),
                        _ => {}
                    }
                }
            }
            for (i, &x) in open.iter().enumerate() {
                for (j, &v) in free.iter().enumerate() {
                    let mut s = path.w[x] * p.ratio[v];
                    for y in 0..r {
                        if assign[y] == FREE {
                            continue;
                        }
                        let u = assign[y] as usize;
                        let (k, by) = (path.count[x * r + y], path.bytes[x * r + y]);
                        if k > 0.0 {
                            s += pos(k * p.a0[v * n + u] + by * p.a1[v * n + u]);
                        }
                        let (k, by) = (path.count[y * r + x], path.bytes[y * r + x]);
                        if k > 0.0 {
                            s += pos(k * p.a0[u * n + v] + by * p.a1[u * n + v]);
                        }
                    }
                    self.cost[i * n + j] = s;
                }
            }
            let total = fixed + assignment_cost(&self.cost, n, open.len(), free.len());
            best = best.max(total);
        }
        best * KEEP
    }
}
