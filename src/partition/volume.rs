//! Refinement for the total communication volume (METIS `-objtype=vol`).
//!
//! The volume of a partition is `sum_v vsize[v] * |{parts of v's neighbours} \ {part of v}|`.
//! Moving `v` from part `a` to part `b` changes only the terms of `v` and of its neighbours:
//! - `v`'s own term gains `vsize[v]` if `v` had a neighbour in `a`, loses it if it had one in
//!   `b`;
//! - a neighbour `u` (in part `p`) loses `vsize[u]` when `v` was its only neighbour in `a` (and
//!   `a != p`), and gains `vsize[u]` when it had no neighbour in `b` (and `b != p`).
//!
//! A pass visits the boundary vertices in a random order and moves each to the adjacent part
//! with room that lowers the volume most (ties: the larger cut decrease), when the volume drops,
//! or stays while the cut drops. Passes repeat until one moves nothing, at most `niter` times.
//!
//! Vertices whose evaluation would scan more than [`SCAN_BUDGET`] adjacency entries (neighbours
//! of hubs) are left as the cut refinement placed them, so a star stays linear.
//!
//! # Complexity
//! `O(sum over boundary v of deg(v) * sum of its neighbours' degrees)` per pass: `O(E d)` for
//! bounded degree `d`.

use super::kway_refine::KwayState;
use super::wgraph::{mix, WGraph};

/// Most adjacency entries one vertex's evaluation may scan.
pub const SCAN_BUDGET: u64 = 8192;

/// Volume change of moving `v` from its part to `b` (negative is better).
fn delta(g: &WGraph, part: &[u32], v: u32, b: u32) -> i128 {
    let a = part[v as usize];
    let mut has_a = false;
    let mut has_b = false;
    let mut d: i128 = 0;
    for j in g.range(v) {
        let u = g.adj[j];
        let pu = part[u as usize];
        has_a |= pu == a;
        has_b |= pu == b;
        let mut count_a = 0u32;
        let mut u_has_b = false;
        for jj in g.range(u) {
            let x = part[g.adj[jj] as usize];
            count_a += u32::from(x == a);
            u_has_b |= x == b;
        }
        let vs = i128::from(g.vs[u as usize]);
        if a != pu && count_a == 1 {
            d -= vs;
        }
        if b != pu && !u_has_b {
            d += vs;
        }
    }
    let vs = i128::from(g.vs[v as usize]);
    d + vs * (i128::from(has_a) - i128::from(has_b))
}

/// Volume refinement passes (module doc).
pub fn refine(g: &WGraph, s: &mut KwayState, maxw: &[u64], niter: u32, salt: u64) {
    let n = g.n();
    let mut cands: Vec<u32> = Vec::new();
    let mut seen = vec![u32::MAX; s.pw.len()];
    for pass in 0..niter.max(1) {
        let ps = mix(salt, u64::from(pass) + 11);
        let mut order: Vec<(u64, u32)> = (0..n)
            .filter(|&v| s.ed[v as usize] > 0)
            .map(|v| (mix(ps, u64::from(v)), v))
            .collect();
        order.sort_unstable();
        let mut moves = 0u32;
        for &(_, v) in &order {
            let vi = v as usize;
            if s.ed[vi] == 0 {
                continue;
            }
            let scan = g
                .range(v)
                .fold(0u64, |acc, j| acc + u64::from(g.degree(g.adj[j])));
            if scan > SCAN_BUDGET {
                continue;
            }
            let a = s.part[vi];
            let vw = g.vw[vi];
            cands.clear();
            for j in g.range(v) {
                let p = s.part[g.adj[j] as usize];
                if p != a && seen[p as usize] != v && s.pw[p as usize] + vw <= maxw[p as usize] {
                    seen[p as usize] = v;
                    cands.push(p);
                }
            }
            cands.sort_unstable();
            let mut best: Option<(i128, i128, u32)> = None;
            for &b in &cands {
                let dv = delta(g, &s.part, v, b);
                let mut conn = 0u64;
                for j in g.range(v) {
                    if s.part[g.adj[j] as usize] == b {
                        conn += g.ew[j];
                    }
                }
                let dc = i128::from(s.id[vi]) - i128::from(conn);
                if best.is_none_or(|(bv, bc, _)| (dv, dc) < (bv, bc)) {
                    best = Some((dv, dc, b));
                }
            }
            if let Some((dv, dc, b)) = best {
                if dv < 0 || (dv == 0 && dc < 0) {
                    s.move_to(g, v, b);
                    moves += 1;
                }
            }
        }
        if moves == 0 {
            break;
        }
    }
}
