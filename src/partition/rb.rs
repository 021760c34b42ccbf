//! Multilevel bisection and recursive bisection (METIS `-ptype=rb`); also the initial
//! partition of the coarsest graph in multilevel k-way.
//!
//! [`bisect`]: the best (least overweight, then least cut) of `ncuts` tries, each coarsening
//! the graph anew (heavy-edge matching, [`super::coarsen`]) to about [`BISECT_COARSEN_TO`]
//! vertices, growing several bisections of the coarsest graph ([`super::initial`]), then
//! projecting back level by level, refining each with two-way FM ([`super::fm2`]).
//!
//! [`recursive`]: bisect with the first `k / 2` parts' share of the target weight on side 0,
//! then recurse on the two induced subgraphs with their own targets, every bisection within the
//! tolerance the caller gives: [`strict_eps`] keeps the product over the `ceil(log2 k)` levels
//! within `1 + eps`, as METIS's recursive bisection does.
//!
//! # Complexity
//! `O(ncuts (V + E) log V)` per bisection, `O(ncuts (V + E) log V log k)` for `k` parts.

use super::coarsen::coarsen;
use super::fm2::{self, Bisection, Movable};
use super::initial::grow_bisection;
use super::wgraph::WGraph;
use crate::rng::Rng;

/// Vertex count below which a bisection stops coarsening.
pub const BISECT_COARSEN_TO: u32 = 64;

/// Effort of each bisection.
#[derive(Debug, Clone, Copy)]
pub struct BisectEffort {
    /// Grown bisections tried on the coarsest graph.
    pub tries: u32,
    /// FM passes per level.
    pub niter: u32,
    /// Independent multilevel bisections (each coarsened anew), the best kept.
    pub ncuts: u32,
    /// Weight each side may carry beyond its tolerance, at most an eighth of its target (0: the
    /// tolerance alone). The k-way initial partition passes [`super::multilevel`]'s balance
    /// window.
    pub window: u64,
}

/// Weight limits of a bisection with `frac0` of `total` wanted on side 0, tolerance `eps`:
/// `(target0, [max0, max1])`, each limit at least its target.
pub fn limits(total: u64, frac0: f64, eps: f64) -> (u64, [u64; 2]) {
    let t = total as f64;
    let target0 = ((frac0 * t).round() as u64).min(total);
    let target1 = total - target0;
    let max0 = (((1.0 + eps) * frac0 * t).floor() as u64).max(target0);
    let max1 = (((1.0 + eps) * (1.0 - frac0) * t).floor() as u64).max(target1);
    (target0, [max0, max1])
}

/// Multilevel bisection of `g` (module doc): side of each vertex.
pub fn bisect(g: &WGraph, frac0: f64, eps: f64, effort: BisectEffort, rng: &mut Rng) -> Vec<u8> {
    let total = g.total();
    let (target0, mut maxw) = limits(total, frac0, eps);
    // The window never exceeds an eighth of a side's target (tiny graphs of heavy vertices).
    let target1 = total - target0;
    maxw[0] = maxw[0].max(target0 + effort.window.min(target0 / 8));
    maxw[1] = maxw[1].max(target1 + effort.window.min(target1 / 8));
    bisect_within(g, target0, maxw, effort, rng).part
}

/// Multilevel bisection of `g` with `target0` wanted on side 0 and the side limits `maxw`: the
/// best (least overweight, then least cut) of `max(effort.ncuts, 1)` tries.
pub fn bisect_within(
    g: &WGraph,
    target0: u64,
    maxw: [u64; 2],
    effort: BisectEffort,
    rng: &mut Rng,
) -> Bisection {
    let ct = BISECT_COARSEN_TO;
    let maxvw = ((1.5 * g.total() as f64 / f64::from(ct)) as u64).max(1);
    let mut best: Option<Bisection> = None;
    for _ in 0..effort.ncuts.max(1) {
        let levels = coarsen(g, ct, maxvw, None, rng);
        let coarsest = levels.last().map_or(g, |l| &l.graph);
        let mut b = grow_bisection(coarsest, target0, maxw, effort.tries, effort.niter, rng);
        for i in (0..levels.len()).rev() {
            let finer = if i == 0 { g } else { &levels[i - 1].graph };
            let part: Vec<u8> = levels[i].cmap.iter().map(|&c| b.part[c as usize]).collect();
            b = Bisection::new(finer, part);
            fm2::refine(
                finer,
                &mut b,
                target0,
                maxw,
                effort.niter,
                rng.next_u64(),
                Movable::Boundary,
            );
        }
        if best
            .as_ref()
            .is_none_or(|o| (b.over(maxw), b.cut) < (o.over(maxw), o.cut))
        {
            best = Some(b);
        }
        if best
            .as_ref()
            .is_some_and(|b| b.cut == 0 && b.over(maxw) == 0)
        {
            break;
        }
    }
    best.expect("at least one try")
}

/// The tolerance of each bisection when `k` parts must stay within `1 + eps` overall:
/// `(1 + eps)^(1 / ceil(log2 k)) - 1` (module doc).
pub fn strict_eps(eps: f64, k: u32) -> f64 {
    let depth = 32 - (k.max(1) - 1).leading_zeros();
    if depth == 0 {
        eps
    } else {
        libm::pow(1.0 + eps, 1.0 / f64::from(depth)) - 1.0
    }
}

/// Recursive bisection of `g` into `targets.len()` parts with these target fractions (module
/// doc); `eps_level` is the tolerance of each bisection (see [`strict_eps`]).
pub fn recursive(
    g: &WGraph,
    targets: &[f64],
    eps_level: f64,
    effort: BisectEffort,
    rng: &mut Rng,
) -> Vec<u32> {
    let mut out = vec![0u32; g.n() as usize];
    let ids: Vec<u32> = (0..g.n()).collect();
    split(g, &ids, targets, 0, eps_level, effort, rng, &mut out);
    out
}

#[allow(clippy::too_many_arguments)]
fn split(
    g: &WGraph,
    ids: &[u32],
    targets: &[f64],
    first: u32,
    eps: f64,
    effort: BisectEffort,
    rng: &mut Rng,
    out: &mut [u32],
) {
    let k = targets.len();
    if k <= 1 || g.n() == 0 {
        for &v in ids {
            out[v as usize] = first;
        }
        return;
    }
    let k0 = k / 2;
    let sum: f64 = targets.iter().sum();
    let s0: f64 = targets[..k0].iter().sum();
    let frac0 = if sum > 0.0 {
        (s0 / sum).clamp(0.0, 1.0)
    } else {
        k0 as f64 / k as f64
    };
    let side = bisect(g, frac0, eps, effort, rng);
    for (s, range, base) in [(0u8, 0..k0, first), (1u8, k0..k, first + k0 as u32)] {
        // a side of one part is that part: no subgraph to build
        if range.len() == 1 {
            for (&v, &sv) in ids.iter().zip(&side) {
                if sv == s {
                    out[v as usize] = base;
                }
            }
            continue;
        }
        let (sub, local) = g.induced(&side, s);
        let sub_ids: Vec<u32> = local.iter().map(|&v| ids[v as usize]).collect();
        split(&sub, &sub_ids, &targets[range], base, eps, effort, rng, out);
    }
}
