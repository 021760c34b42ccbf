//! Pairwise re-bisection on the quotient graph (the quality mode's V-cycles): for a
//! pair of adjacent parts `(a, b)`, the subgraph induced by their union is bisected anew
//! (multilevel, [`super::rb::bisect_within`]) with `a`'s share of their targets on side 0 and
//! the two parts' own limits, and the new bisection replaces the pair when it is better: less
//! weight beyond the two limits, then fewer cut edges between them.
//!
//! Invariant: edges from the union to the other parts are cut whichever of `a`, `b` their end
//! is in, so the pair's cut is the only term of the total cut that changes, and no other part
//! changes weight: a replacement never raises the total cut nor the weight any part carries
//! beyond its limit.
//!
//! It finds what vertex-by-vertex refinement cannot: a part made of several subtrees of a tree
//! can trade them for one subtree of the same weight, a move whose intermediate states all cut
//! more. Such pairs come first: those where a side touches the other with two or more *pieces*
//! (connected pieces of its part of at least two vertices and `1/32` of an average part, which
//! no single vertex move relocates); then, unless [`Pairs::Fragmented`] asks for those alone,
//! the other pairs, heaviest pair cut first. The pairs are visited until their unions add up
//! to `budget` vertices.
//!
//! # Complexity
//! `O(V + E)` for the quotient and the pieces, then for each visited union its subgraph
//! (`O(V_ab + E_ab)`, from the parts' vertex lists) and one multilevel bisection
//! (`O(ncuts (V_ab + E_ab) log V_ab)`), at most `budget` vertices in all.

use super::analysis::sum_pairs;
use super::fm2::Bisection;
use super::rb::{bisect_within, BisectEffort};
use super::wgraph::WGraph;
use crate::rng::Rng;
use std::cmp::Reverse;

/// Which pairs of adjacent parts [`refine`] visits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pairs {
    /// The fragmented pairs first, then the others (the quality mode's V-cycles).
    All,
    /// The fragmented pairs only (the default mode on sparse graphs,
    /// [`super::multilevel`]): there the re-bisection trades pieces; elsewhere it rarely
    /// finds what the k-way refinement missed.
    Fragmented,
}

/// Re-bisects adjacent pairs of parts of `part` (module doc) until their unions reach `budget`
/// vertices. `targets` are the parts' target fractions and `maxw` their limits. Returns the
/// cut removed.
#[allow(clippy::too_many_arguments)]
pub fn refine(
    g: &WGraph,
    part: &mut [u32],
    targets: &[f64],
    maxw: &[u64],
    effort: BisectEffort,
    budget: u64,
    which: Pairs,
    rng: &mut Rng,
) -> u64 {
    let k = targets.len();
    let frag = fragmented_pairs(g, part, g.total() / (32 * k.max(1) as u64));
    let mut pairs = pair_cuts(g, part);
    pairs.sort_by_key(|&(a, b, w)| (frag.binary_search(&(a, b)).is_err(), Reverse(w), a, b));
    // The vertices of each part, in increasing id order.
    let mut members: Vec<Vec<u32>> = vec![Vec::new(); k];
    for (v, &p) in part.iter().enumerate() {
        members[p as usize].push(v as u32);
    }
    let mut local = vec![u32::MAX; g.n() as usize];
    let mut spent = 0u64;
    let mut gained = 0u64;
    for (a, b, _) in pairs {
        if which == Pairs::Fragmented && frag.binary_search(&(a, b)).is_err() {
            break;
        }
        let (ai, bi) = (a as usize, b as usize);
        spent = spent.saturating_add((members[ai].len() + members[bi].len()) as u64);
        if spent > budget {
            break;
        }
        let mut ids: Vec<u32> = members[ai].iter().chain(&members[bi]).copied().collect();
        ids.sort_unstable();
        let sub = g.induced_by(&ids, &mut local);
        if sub.n() < 2 {
            continue;
        }
        let side: Vec<u8> = ids
            .iter()
            .map(|&v| u8::from(part[v as usize] == b))
            .collect();
        let old = Bisection::new(&sub, side);
        let lim = [maxw[ai], maxw[bi]];
        let (ta, tb) = (targets[ai], targets[bi]);
        let total = sub.total();
        let target0 = if ta + tb > 0.0 {
            ((ta / (ta + tb) * total as f64).round() as u64).min(total)
        } else {
            total / 2
        };
        let new = bisect_within(&sub, target0, lim, effort, rng);
        if (new.over(lim), new.cut) < (old.over(lim), old.cut) {
            gained += old.cut.saturating_sub(new.cut);
            members[ai].clear();
            members[bi].clear();
            for (i, &v) in ids.iter().enumerate() {
                let p = if new.part[i] == 0 { a } else { b };
                part[v as usize] = p;
                members[p as usize].push(v);
            }
        }
    }
    gained
}

/// `(a, b, w)` for every pair of parts `a < b` joined by edges of total weight `w > 0`, sorted
/// by `(a, b)`.
fn pair_cuts(g: &WGraph, part: &[u32]) -> Vec<(u32, u32, u64)> {
    let mut w: Vec<(u32, u32, u64)> = Vec::new();
    for v in 0..g.n() {
        let pv = part[v as usize];
        for i in g.range(v) {
            let pu = part[g.adj[i] as usize];
            if pv < pu {
                w.push((pv, pu, g.ew[i]));
            }
        }
    }
    sum_pairs(w)
}

/// The pairs `(a, b)`, `a < b`, sorted, across which three or more pieces (connected pieces of
/// one part, of at least two vertices and `min_piece` weight) touch: one side touches the other
/// with two or more.
fn fragmented_pairs(g: &WGraph, part: &[u32], min_piece: u64) -> Vec<(u32, u32)> {
    let n = g.n() as usize;
    // Piece of each vertex, and each piece's weight and vertex count.
    let mut piece = vec![u32::MAX; n];
    let mut weight: Vec<u64> = Vec::new();
    let mut size: Vec<u32> = Vec::new();
    let mut stack = Vec::new();
    for s in 0..n {
        if piece[s] != u32::MAX {
            continue;
        }
        let c = weight.len() as u32;
        piece[s] = c;
        weight.push(0);
        size.push(0);
        stack.push(s as u32);
        while let Some(v) = stack.pop() {
            weight[c as usize] = weight[c as usize].saturating_add(g.vw[v as usize]);
            size[c as usize] += 1;
            for i in g.range(v) {
                let u = g.adj[i] as usize;
                if piece[u] == u32::MAX && part[u] == part[v as usize] {
                    piece[u] = c;
                    stack.push(u as u32);
                }
            }
        }
    }
    // (a, b, a piece on either side that touches the other side)
    let mut touch: Vec<(u32, u32, u32)> = Vec::new();
    for v in 0..g.n() {
        let (pv, c) = (part[v as usize], piece[v as usize]);
        if size[c as usize] < 2 || weight[c as usize] < min_piece {
            continue;
        }
        for i in g.range(v) {
            let pu = part[g.adj[i] as usize];
            if pv != pu {
                touch.push((pv.min(pu), pv.max(pu), c));
            }
        }
    }
    touch.sort_unstable();
    touch.dedup();
    let mut out = Vec::new();
    for run in touch.chunk_by(|x, y| (x.0, x.1) == (y.0, y.1)) {
        if run.len() >= 3 {
            out.push((run[0].0, run[0].1));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::partition::generate::{generate, GenKind, GenSpec};
    use crate::partition::kway_refine::KwayState;
    use crate::partition::multilevel::limits;
    use crate::partition::rb;

    fn effort() -> BisectEffort {
        BisectEffort {
            tries: 5,
            niter: 10,
            ncuts: 2,
            window: 0,
        }
    }

    fn tree(n: u32) -> WGraph {
        let spec = GenSpec {
            kind: GenKind::BinaryTree,
            n,
            ..GenSpec::default()
        };
        WGraph::from_graph(&generate(&spec, 1).expect("generated").graph)
    }

    /// A binary tree cut into 8 parts by recursive bisection has parts of several subtrees;
    /// re-bisecting the pairs removes cut edges, never adds weight beyond a limit, and the cut
    /// it reports removed is the recount's difference.
    #[test]
    fn re_bisecting_pairs_of_a_fragmented_tree_partition_cuts_less() {
        let g = tree(4000);
        let k = 8;
        let targets = vec![1.0 / 8.0; k];
        let maxw = limits(g.total(), &targets, 30);
        let mut improved = 0;
        for seed in 0..6u64 {
            let mut rng = Rng::seeded(seed);
            let mut part = rb::recursive(&g, &targets, 0.01, effort(), &mut rng);
            let before = KwayState::new(&g, part.clone(), k as u32);
            let gained = refine(
                &g,
                &mut part,
                &targets,
                &maxw,
                effort(),
                u64::MAX,
                Pairs::All,
                &mut rng,
            );
            let after = KwayState::new(&g, part, k as u32);
            assert_eq!(before.cut() - after.cut(), gained);
            assert!(after.over(&maxw) <= before.over(&maxw));
            improved += u32::from(gained > 0);
        }
        assert!(improved >= 3, "improved {improved} of 6");
    }

    /// Pieces of at least two vertices and `min_piece` weight count; three across one pair make
    /// it fragmented.
    #[test]
    fn pieces_of_one_vertex_or_light_pieces_do_not_make_a_pair_fragmented() {
        // A path 0-1-2-3-4-5-6-7 with parts 0 0 1 1 0 0 1 1: part 0 touches part 1 with
        // pieces {0,1} and {4,5}, part 1 with {2,3} and {6,7}.
        let edges: Vec<(u32, u32, u32)> = (0..7).map(|i| (i, i + 1, 1)).collect();
        let g = WGraph::from_graph(&crate::partition::Graph::from_edges(8, &edges).unwrap());
        let part = [0, 0, 1, 1, 0, 0, 1, 1];
        assert_eq!(fragmented_pairs(&g, &part, 1), vec![(0, 1)]);
        // Pieces too light to count.
        assert_eq!(fragmented_pairs(&g, &part, 3), Vec::<(u32, u32)>::new());
        // Single-vertex pieces: 0 1 0 1 ... a vertex move relocates each.
        let alt = [0, 1, 0, 1, 0, 1, 0, 1];
        assert_eq!(fragmented_pairs(&g, &alt, 1), Vec::<(u32, u32)>::new());
    }

    /// The budget bounds the pairs visited: a budget below the first union visits none.
    #[test]
    fn a_budget_below_the_first_union_changes_nothing() {
        let g = tree(2000);
        let targets = vec![0.25; 4];
        let maxw = limits(g.total(), &targets, 30);
        let mut rng = Rng::seeded(3);
        let part = rb::recursive(&g, &targets, 0.01, effort(), &mut rng);
        let mut p = part.clone();
        assert_eq!(
            refine(
                &g,
                &mut p,
                &targets,
                &maxw,
                effort(),
                100,
                Pairs::All,
                &mut rng
            ),
            0
        );
        assert_eq!(p, part);
    }
}
