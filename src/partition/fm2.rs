//! Two-way boundary Fiduccia-Mattheyses refinement, the refinement of every bisection.
//!
//! A pass keeps one max-priority queue of boundary vertices per side, keyed by gain
//! (`ed - id`: weight to the other side minus weight to its own) and a per-pass random tie key.
//! It repeatedly moves the best vertex *from the side heavier relative to its target* (so the
//! bisection oscillates around the target weights), even when the gain is negative, locks it for
//! the pass, and updates its neighbours' gains. After `limit` moves without a new best it stops
//! and rolls back to the best state seen (when a side is over its limit and has no unlocked
//! boundary vertex, it gives its interior vertex of the best gain instead), where "best" orders states by (overweight beyond the
//! limits, cut, distance of side 0 from its target). Passes repeat while they improve, at most
//! `niter` times. `limit = clamp(V / 100, 15, 100)`, as METIS.
//!
//! [`Movable::All`] is the classic FM of the original paper: every vertex is in the queues, not
//! only the boundary. The initial bisection refines its best grown try of the (small) coarsest
//! graph with it ([`super::initial`]): with both
//! sides at their limit a boundary pass can only trade boundary vertices, and a pendant vertex
//! caught on the wrong side of a heavy cycle is interior, so the cycle stays split (regression
//! case in tests/partition.rs). Projected bisections refine the boundary only, as METIS.
//!
//! # Complexity
//! `O((V + E) log V)` per pass (each move updates the neighbours' heap entries).

use super::wgraph::{gain, mix, WGraph};
use std::collections::BinaryHeap;

/// The bookkeeping of a bisection: sides, side weights, and per-vertex weight to its own side
/// (`id`) and to the other (`ed`).
pub struct Bisection {
    pub part: Vec<u8>,
    pub pw: [u64; 2],
    pub id: Vec<u64>,
    pub ed: Vec<u64>,
    pub cut: u64,
}

impl Bisection {
    /// Computes the bookkeeping of `part`.
    pub fn new(g: &WGraph, part: Vec<u8>) -> Bisection {
        let n = g.n() as usize;
        let mut b = Bisection {
            part,
            pw: [0, 0],
            id: vec![0; n],
            ed: vec![0; n],
            cut: 0,
        };
        for v in 0..g.n() {
            let pv = b.part[v as usize];
            b.pw[pv as usize] += g.vw[v as usize];
            let (mut i, mut e) = (0u64, 0u64);
            for j in g.range(v) {
                if b.part[g.adj[j] as usize] == pv {
                    i = i.saturating_add(g.ew[j]);
                } else {
                    e = e.saturating_add(g.ew[j]);
                }
            }
            b.id[v as usize] = i;
            b.ed[v as usize] = e;
            b.cut = b.cut.saturating_add(e);
        }
        b.cut /= 2;
        b
    }

    /// Moves `v` to the other side, updating weights, the cut and the neighbours' degrees.
    #[inline]
    pub fn flip(&mut self, g: &WGraph, v: u32) {
        let from = self.part[v as usize];
        let to = 1 - from;
        let vi = v as usize;
        self.part[vi] = to;
        self.pw[from as usize] -= g.vw[vi];
        self.pw[to as usize] += g.vw[vi];
        self.cut = (self.cut + self.id[vi]).saturating_sub(self.ed[vi]);
        std::mem::swap(&mut self.id[vi], &mut self.ed[vi]);
        for j in g.range(v) {
            let u = g.adj[j] as usize;
            let w = g.ew[j];
            if self.part[u] == to {
                self.id[u] += w;
                self.ed[u] -= w;
            } else {
                self.id[u] -= w;
                self.ed[u] += w;
            }
        }
    }

    /// Amount by which the sides exceed their limits.
    pub fn over(&self, maxw: [u64; 2]) -> u64 {
        self.pw[0].saturating_sub(maxw[0]) + self.pw[1].saturating_sub(maxw[1])
    }
}

/// Which vertices a pass may move (module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Movable {
    /// Boundary vertices (and an interior one when a side is over its limit and has none).
    Boundary,
    /// Every vertex.
    All,
}

/// Refines `b` in place: at most `niter` FM passes (module doc). `target0` is the weight wanted
/// on side 0, `maxw` the limits of the two sides; `salt` seeds the tie keys.
pub fn refine(
    g: &WGraph,
    b: &mut Bisection,
    target0: u64,
    maxw: [u64; 2],
    niter: u32,
    salt: u64,
    movable: Movable,
) {
    let all = movable == Movable::All;
    let n = g.n();
    if n < 2 {
        return;
    }
    let total = b.pw[0] + b.pw[1];
    let target = [target0, total.saturating_sub(target0)];
    let limit = (n / 100).clamp(15, 100);
    let mut locked = vec![false; n as usize];
    let mut moves: Vec<u32> = Vec::new();
    let dist = |pw0: u64| pw0.abs_diff(target0);
    // the queues' buffers kept from pass to pass (a pass pops what it reads in key order, so
    // what an emptied buffer held before changes nothing)
    let mut heaps: [BinaryHeap<(i64, u64, u32)>; 2] = [BinaryHeap::new(), BinaryHeap::new()];
    for pass in 0..niter.max(1) {
        let s = mix(salt, u64::from(pass));
        // filled then heapified in O(V): the pops depend on the entries only (their keys are
        // distinct, or equal entries), not on how the heap was built
        let mut fill = std::mem::take(&mut heaps).map(|h| {
            let mut v = h.into_vec();
            v.clear();
            v
        });
        for v in 0..n {
            if all || b.ed[v as usize] > 0 {
                let key = gain(b.ed[v as usize], b.id[v as usize]);
                fill[b.part[v as usize] as usize].push((key, mix(s, u64::from(v)), v));
            }
        }
        heaps = fill.map(BinaryHeap::from);
        let start = (b.over(maxw), b.cut, dist(b.pw[0]));
        let mut best = start;
        let mut best_len = 0usize;
        moves.clear();
        loop {
            // The side heavier relative to its target gives the vertex.
            let from = if b.pw[0] > target[0] {
                0
            } else if b.pw[1] > target[1] {
                1
            } else {
                // Exactly on target: the side with the better gain.
                let g0 = heaps[0].peek().map_or(i64::MIN, |e| e.0);
                let g1 = heaps[1].peek().map_or(i64::MIN, |e| e.0);
                usize::from(g1 > g0)
            };
            let mut picked = None;
            while let Some((key, _, v)) = heaps[from].pop() {
                let vi = v as usize;
                if locked[vi] || b.part[vi] as usize != from || (!all && b.ed[vi] == 0) {
                    continue;
                }
                if key != gain(b.ed[vi], b.id[vi]) {
                    continue;
                }
                picked = Some(v);
                break;
            }
            // No unlocked boundary vertex on the giving side while a side is over its limit:
            // it sheds its least-connected interior vertex (METIS balances a bisection without
            // a boundary over all vertices). A boundary-only pass cannot trade a chain's end for
            // a leaf of the other side's region (regression case in tests/partition.rs).
            let picked = picked.or_else(|| {
                if b.over(maxw) == 0 {
                    return None;
                }
                (0..n)
                    .filter(|&u| !locked[u as usize] && b.part[u as usize] as usize == from)
                    .max_by_key(|&u| {
                        (
                            gain(b.ed[u as usize], b.id[u as usize]),
                            mix(s, u64::from(u)),
                        )
                    })
            });
            let Some(v) = picked else { break };
            b.flip(g, v);
            locked[v as usize] = true;
            moves.push(v);
            for j in g.range(v) {
                let u = g.adj[j];
                let ui = u as usize;
                if !locked[ui] && (all || b.ed[ui] > 0) {
                    let key = gain(b.ed[ui], b.id[ui]);
                    heaps[b.part[ui] as usize].push((key, mix(s, u64::from(u)), u));
                }
            }
            let now = (b.over(maxw), b.cut, dist(b.pw[0]));
            if now < best {
                best = now;
                best_len = moves.len();
            } else if moves.len() - best_len > limit as usize {
                break;
            }
        }
        for &v in moves[best_len..].iter().rev() {
            b.flip(g, v);
        }
        for &v in &moves {
            locked[v as usize] = false;
        }
        if best >= start {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::partition::graph::Graph;

    /// A chain 4-2-6-5-1-7 (edges of weight 3) with a leaf 8 on 6 (weight 1), and 4 isolated
    /// vertices (11 in all, at most 6 a side). Region {4,2,6,8,5,1} against {7, isolated} cuts 3,
    /// and every boundary move keeps it at 3 or breaks the balance: 7 joining the region
    /// overfills it, and the region then has no boundary vertex left to give. The region must
    /// give its interior leaf 8 instead (cut 1, the optimum).
    #[test]
    fn an_overweight_side_without_boundary_gives_an_interior_vertex() {
        let edges = [
            (2, 4, 3),
            (5, 1, 3),
            (7, 1, 3),
            (6, 2, 3),
            (6, 8, 1),
            (6, 5, 3),
        ];
        let g = WGraph::from_graph(&Graph::from_edges(11, &edges).unwrap());
        let mut part = vec![1u8; 11];
        for v in [4, 2, 6, 8, 5, 1] {
            part[v] = 0;
        }
        let mut b = Bisection::new(&g, part);
        assert_eq!(b.cut, 3);
        refine(&g, &mut b, 6, [6, 6], 10, 7, Movable::Boundary);
        assert_eq!((b.cut, b.pw), (1, [6, 5]), "{:?}", b.part);
        assert_eq!(b.cut, g.cut(&b.part));
    }
}
