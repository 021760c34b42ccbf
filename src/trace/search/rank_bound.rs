//! The per-rank bound: a lower bound of a partial assignment that needs no replay.

use super::FREE;
use crate::trace::replay::{Compiled, Platform, NONE};

/// Relative margin by which [`RankBound`] lowers its value, so that rounding never lifts it
/// above a replayed time (see [`RankBound`], "Rounding").
pub const RANK_BOUND_MARGIN: f64 = 1e-7;
pub(super) const KEEP: f64 = 1.0 - RANK_BOUND_MARGIN;

/// What one rank exchanges with one peer, in both directions.
#[derive(Debug, Clone, Copy)]
struct Peer {
    y: usize,
    /// Messages and bytes the rank sends to `y`.
    n_out: f64,
    b_out: f64,
    /// Messages and bytes it receives from `y`.
    n_in: f64,
    b_in: f64,
}

/// The per-rank bound: a lower bound that needs no replay.
///
/// # The bound and why it is admissible
/// In a replay a rank's clock only moves forward: each computation adds `d x ratio`, each
/// receive ends at `e = max(r, s) + c >= r + c`, and under rendezvous each send ends at
/// `e >= s + c` (under eager at `s`). So the end of rank `x` on node `u` is at least
/// `L(x, u) = comp(x) ratio(u) + sum over its peers y of out(x, y) + in(y, x)`, where `comp(x)` is
/// all its computation, `in(y, x) = max(0, k a0(v, u) + B a1(v, u))` for the `k` messages of
/// `B` bytes in all from `y` on node `v` (a sum of `max(0, a0 + a1 N_i)` is at least the
/// `max(0, .)` of the sum), and `out(x, y)` the same for its sends under rendezvous (0 under
/// eager). Only blocking calls count: a non-blocking send or receive may overlap the rank's
/// computation and its other requests, so its transfer is left out (a wait only moves the
/// clock forward, so leaving it out keeps the bound below). A peer not yet placed takes, for `a0` and `a1` separately, the least value over
/// the free nodes other than `u` (as [`super::Bounds`] does), which only lowers the terms.
///
/// For a partial assignment every completion gives each free rank `x` a distinct free node,
/// and its run time is at least every rank's `L`; so it is at least
/// `max(max over placed ranks of L, B)`, where `B` is the least over injective maps of the
/// free ranks into the free nodes of the largest `L` (the bottleneck assignment). We use
/// `max` of the least `L` of each free rank (each gets some node) and, when there are exactly
/// as many free nodes as free ranks, the least `L` on each free node (each node gets some
/// rank): both at most `B`. The **filter** [`RankBound::excludes`] decides `B > threshold`
/// exactly: no matching of the free ranks into free nodes using only pairs with `L <=
/// threshold` (augmenting paths).
///
/// # Rounding
/// A replayed time is computed with one rounding per `+`, `x` and `max` along the chain of
/// events that gives it, the bound with others; each is within a relative `(events + 3) x
/// 2^-53` of the real value, below `3e-10` for the 2,000,000 events a trace may have. The bound
/// is lowered by the relative [`RANK_BOUND_MARGIN`] (`1e-7`), far more than both errors, so it
/// never exceeds the replayed time of a completion.
///
/// # Complexity
/// `O(R^2 n)` per bound (the table of `L` over free ranks and free nodes), and as much for the
/// matching of the filter.
pub struct RankBound<'a> {
    p: &'a Platform,
    ranks: usize,
    comp: Vec<f64>,
    peers: Vec<Vec<Peer>>,
    // scratch: least a0/a1 from each node to a free node and from a free node to each node
    row0: Vec<f64>,
    row1: Vec<f64>,
    col0: Vec<f64>,
    col1: Vec<f64>,
    /// `L` (lowered by the margin) of free rank `i` (in `open`) on free node `j` (in `free`):
    /// `l[i * n + j]`.
    l: Vec<f64>,
    open: Vec<usize>,
    free: Vec<usize>,
    /// Largest `L` (lowered) of the placed ranks.
    placed_max: f64,
    // matching scratch
    match_node: Vec<usize>,
    seen: Vec<u32>,
    stamp: u32,
}

impl<'a> RankBound<'a> {
    pub fn new(c: &Compiled, p: &'a Platform) -> Self {
        let r = c.ranks;
        let mut comp = c.tail.clone();
        c.add_work(&mut comp);
        // blocking rendezvous sends (out) and blocking receives (in) per pair
        let mut cnt_out = vec![0.0f64; r * r];
        let mut bytes_out = vec![0.0f64; r * r];
        let mut cnt_in = vec![0.0f64; r * r];
        let mut bytes_in = vec![0.0f64; r * r];
        // a message weighs 1 on a0 and its bytes on a1, or its factors' weights
        for (it, w) in c.weighted_items() {
            if it.sq == NONE && !it.eager {
                cnt_out[it.pair as usize] += w[0];
                bytes_out[it.pair as usize] += w[1];
            }
            if it.rq == NONE {
                cnt_in[it.pair as usize] += w[0];
                bytes_in[it.pair as usize] += w[1];
            }
        }
        let cnt: Vec<f64> = (0..r * r).map(|k| cnt_out[k] + cnt_in[k]).collect();
        let peers = (0..r)
            .map(|x| {
                (0..r)
                    .filter(|&y| y != x && (cnt[x * r + y] > 0.0 || cnt[y * r + x] > 0.0))
                    .map(|y| Peer {
                        y,
                        n_out: cnt_out[x * r + y],
                        b_out: bytes_out[x * r + y],
                        n_in: cnt_in[y * r + x],
                        b_in: bytes_in[y * r + x],
                    })
                    .collect()
            })
            .collect();
        let n = p.n;
        RankBound {
            p,
            ranks: r,
            comp,
            peers,
            row0: vec![0.0; n],
            row1: vec![0.0; n],
            col0: vec![0.0; n],
            col1: vec![0.0; n],
            l: vec![0.0; r * n],
            open: Vec::with_capacity(r),
            free: Vec::with_capacity(n),
            placed_max: 0.0,
            match_node: vec![usize::MAX; n],
            seen: vec![0; n],
            stamp: 0,
        }
    }

    /// Replay steps one bound is counted as: `R x n x (R + 1)`, the terms of its table.
    pub fn steps(&self) -> u64 {
        (self.ranks * self.p.n * (self.ranks + 1)) as u64
    }

    /// `L(x, u)` with the current partial assignment `assign` (rows/cols filled).
    fn l_of(&self, assign: &[u8], x: usize, u: usize) -> f64 {
        let p = self.p;
        let n = p.n;
        let pos = |v: f64| if v > 0.0 { v } else { 0.0 };
        let mut sum = self.comp[x] * p.ratio[u];
        for q in &self.peers[x] {
            let (o0, o1, i0, i1) = if assign[q.y] == FREE {
                (self.row0[u], self.row1[u], self.col0[u], self.col1[u])
            } else {
                let v = assign[q.y] as usize;
                (
                    p.a0[u * n + v],
                    p.a1[u * n + v],
                    p.a0[v * n + u],
                    p.a1[v * n + u],
                )
            };
            if q.n_out > 0.0 {
                sum += pos(q.n_out * o0 + q.b_out * o1);
            }
            if q.n_in > 0.0 {
                sum += pos(q.n_in * i0 + q.b_in * i1);
            }
        }
        sum
    }

    /// Fills the table of `L` for `assign` and returns the bound (module doc of
    /// [`RankBound`]), lowered by the margin.
    pub fn bound(&mut self, assign: &[u8]) -> f64 {
        let p = self.p;
        let n = p.n;
        let mut used = [false; 256];
        for &u in assign {
            if u != FREE {
                used[u as usize] = true;
            }
        }
        self.free.clear();
        self.free.extend((0..n).filter(|&u| !used[u]));
        self.open.clear();
        self.open
            .extend((0..self.ranks).filter(|&x| assign[x] == FREE));
        for u in 0..n {
            let (mut r0, mut r1, mut c0, mut c1) =
                (f64::INFINITY, f64::INFINITY, f64::INFINITY, f64::INFINITY);
            for &v in &self.free {
                if v == u {
                    continue;
                }
                r0 = r0.min(p.a0[u * n + v]);
                r1 = r1.min(p.a1[u * n + v]);
                c0 = c0.min(p.a0[v * n + u]);
                c1 = c1.min(p.a1[v * n + u]);
            }
            // no other free node: no free peer can be there either (terms unused)
            self.row0[u] = if r0.is_finite() { r0 } else { 0.0 };
            self.row1[u] = if r1.is_finite() { r1 } else { 0.0 };
            self.col0[u] = if c0.is_finite() { c0 } else { 0.0 };
            self.col1[u] = if c1.is_finite() { c1 } else { 0.0 };
        }
        let mut placed_max = 0.0f64;
        for x in 0..self.ranks {
            if assign[x] != FREE {
                placed_max = placed_max.max(self.l_of(assign, x, assign[x] as usize) * KEEP);
            }
        }
        self.placed_max = placed_max;
        let (k, f) = (self.open.len(), self.free.len());
        let mut best = placed_max;
        let mut col_min = vec![f64::INFINITY; f];
        for i in 0..k {
            let x = self.open[i];
            let mut row_min = f64::INFINITY;
            for j in 0..f {
                let v = self.l_of(assign, x, self.free[j]) * KEEP;
                self.l[i * n + j] = v;
                row_min = row_min.min(v);
                col_min[j] = col_min[j].min(v);
            }
            best = best.max(row_min);
        }
        if k == f && k > 0 {
            for v in col_min {
                best = best.max(v);
            }
        }
        best
    }

    /// After [`RankBound::bound`] of the same assignment: whether every completion is
    /// slower than `threshold` by this bound, i.e. the free ranks cannot all get distinct
    /// free nodes with `L` (lowered) at most `threshold`. Also true when a placed rank's `L`
    /// is above it.
    pub fn excludes(&mut self, threshold: f64) -> bool {
        if self.placed_max > threshold {
            return true;
        }
        let (k, f, n) = (self.open.len(), self.free.len(), self.p.n);
        self.match_node[..f]
            .iter_mut()
            .for_each(|m| *m = usize::MAX);
        for i in 0..k {
            self.stamp = self.stamp.wrapping_add(1);
            if self.stamp == 0 {
                self.seen.iter_mut().for_each(|s| *s = 0);
                self.stamp = 1;
            }
            if !self.augment(i, threshold, n, f) {
                return true;
            }
        }
        false
    }

    /// Kuhn's augmenting path from free rank `i` over pairs with `L <= lim`.
    fn augment(&mut self, i: usize, lim: f64, n: usize, f: usize) -> bool {
        for j in 0..f {
            if self.l[i * n + j] > lim || self.seen[j] == self.stamp {
                continue;
            }
            self.seen[j] = self.stamp;
            let m = self.match_node[j];
            if m == usize::MAX || self.augment(m, lim, n, f) {
                self.match_node[j] = i;
                return true;
            }
        }
        false
    }
}
