//! Local search: seeded hill climbing by swaps and moves, with restarts.

use super::{Bounds, Outcome, Problem, RankBound, Stats, Stop, TopList, FREE};
use crate::rng::Rng;

/// The greedy start: ranks in search order (heaviest first) on the cores of the nodes taken
/// by increasing ratio (ties by index), each node's cores filled before the next node's.
pub fn greedy(prob: &Problem) -> Vec<u8> {
    let n = prob.p.n;
    let r = prob.c.ranks;
    let mut nodes: Vec<usize> = (0..n).collect();
    nodes.sort_by(|&a, &b| prob.p.ratio[a].total_cmp(&prob.p.ratio[b]).then(a.cmp(&b)));
    let slots: Vec<u8> = nodes
        .iter()
        .flat_map(|&u| std::iter::repeat_n(u as u8, (prob.p.cores[u] as usize).min(r)))
        .collect();
    let mut assign = vec![0u8; r];
    for (k, &x) in prob.order.iter().enumerate() {
        assign[x] = slots[k];
    }
    assign
}

/// Each node once per core it may use (at most `r` of them), node by node: a random start takes
/// the first `r` of a shuffle of these slots.
fn slots(prob: &Problem) -> Vec<u8> {
    let r = prob.c.ranks;
    (0..prob.p.n)
        .flat_map(|u| std::iter::repeat_n(u as u8, (prob.p.cores[u] as usize).min(r)))
        .collect()
}

/// Local search: from the greedy start, then from `restarts - 1` random starts drawn from
/// `seed`, first-improvement hill climbing over swaps of two ranks' nodes and moves of one
/// rank to a node with a free core (in a fixed order), until no neighbour is faster or `budget`
/// steps are spent. Every start is within capacity (at most `cores` ranks per node), a swap
/// keeps each node's load and a move goes only to a free core, so every assignment evaluated
/// is feasible. Neighbours equivalent by identical nodes are skipped: a swap of two ranks on
/// one node, or (one core per node) on two identical nodes; a move to an identical empty node
/// from a node holding only the moved rank. Every assignment evaluated is offered to `list`
/// (as its representative); the greedy start is evaluated even when `budget` is already spent.
///
/// # Complexity
/// `O(restarts x climbs x (R^2 + R n) x (M + R))`.
pub fn local_search(
    prob: &Problem,
    restarts: u32,
    seed: u64,
    budget: u64,
    list: &mut TopList,
    stats: &mut Stats,
) -> bool {
    let c = prob.c;
    let (r, n) = (c.ranks, prob.p.n);
    let mut b = Bounds::new(c, prob.p);
    let mut rng = Rng::seeded(seed);
    let cores = &prob.p.cores;
    let all_slots = slots(prob);
    let eval = |a: &[u8], b: &mut Bounds, stats: &mut Stats, list: &mut TopList| -> f64 {
        let t = b.exact(a);
        stats.replays += 1;
        stats.visited += 1;
        stats.steps += c.steps();
        list.insert(t, &prob.canonical(a));
        t
    };
    for k in 0..restarts.max(1) {
        // The greedy start is evaluated whatever the budget: every search ends with at least
        // one assignment replayed, so a report always has a best time and a ranking.
        if k > 0 && stats.steps >= budget {
            return false;
        }
        let mut cur = if k == 0 {
            greedy(prob)
        } else {
            let mut nodes = all_slots.clone();
            for i in (1..nodes.len()).rev() {
                let j = rng.below(i as u64 + 1) as usize;
                nodes.swap(i, j);
            }
            nodes[..r].to_vec()
        };
        let mut t = eval(&cur, &mut b, stats, list);
        'climb: loop {
            let mut load = [0u32; 256];
            for &u in &cur {
                load[u as usize] += 1;
            }
            for i in 0..r {
                for j in i + 1..r {
                    let (ui, uj) = (cur[i] as usize, cur[j] as usize);
                    if ui == uj || (prob.class[ui] == prob.class[uj] && cores[ui] == 1) {
                        continue;
                    }
                    if stats.steps >= budget {
                        return false;
                    }
                    cur.swap(i, j);
                    let t2 = eval(&cur, &mut b, stats, list);
                    if t2 < t {
                        t = t2;
                        continue 'climb;
                    }
                    cur.swap(i, j);
                }
                for u in 0..n {
                    let ui = cur[i] as usize;
                    if u == ui
                        || load[u] >= cores[u]
                        || (prob.class[u] == prob.class[ui]
                            && (cores[u] == 1 || (load[ui] == 1 && load[u] == 0)))
                    {
                        continue;
                    }
                    if stats.steps >= budget {
                        return false;
                    }
                    let old = cur[i];
                    cur[i] = u as u8;
                    let t2 = eval(&cur, &mut b, stats, list);
                    if t2 < t {
                        t = t2;
                        continue 'climb;
                    }
                    cur[i] = old;
                }
            }
            break;
        }
    }
    true
}

/// Local search alone: no proof unless the best found meets the root's bound (the larger of
/// the relaxed replay and the per-rank bound; the relaxed replay alone when a node has several
/// cores, see [`super::cheap_bounds_pay`]), which is the lower bound.
pub fn local_only(prob: &Problem, top: usize, budget: u64, restarts: u32, seed: u64) -> Outcome {
    let mut list = TopList::new(top);
    let mut stats = Stats::default();
    let mut b = Bounds::new(prob.c, prob.p);
    let mut rb = RankBound::new(prob.c, prob.p);
    let empty = vec![FREE; prob.c.ranks];
    let mut root = b.partial(&empty);
    stats.bound_replays += 1;
    stats.steps += prob.c.steps();
    if !prob.multicore() {
        root = root.max(rb.bound(&empty));
        stats.rank_bounds += 1;
        stats.steps += rb.steps();
    }
    let done = local_search(prob, restarts, seed, budget, &mut list, &mut stats);
    let best = list.best().map_or(f64::INFINITY, |x| x.time);
    Outcome {
        symmetry: prob.sym.clone(),
        top: list,
        stats,
        stop: if done { Stop::Complete } else { Stop::Budget },
        proven: root >= best,
        lower_bound: root.min(best),
    }
}
