//! Local search: seeded hill climbing by swaps and moves, with restarts.

use super::{Bounds, Outcome, Problem, RankBound, Stats, Stop, TopList, FREE};
use crate::rng::Rng;

/// The greedy start: ranks in search order (heaviest first) on nodes by increasing ratio
/// (ties by index).
pub fn greedy(prob: &Problem) -> Vec<u8> {
    let n = prob.p.n;
    let mut nodes: Vec<usize> = (0..n).collect();
    nodes.sort_by(|&a, &b| prob.p.ratio[a].total_cmp(&prob.p.ratio[b]).then(a.cmp(&b)));
    let mut assign = vec![0u8; prob.c.ranks];
    for (k, &x) in prob.order.iter().enumerate() {
        assign[x] = nodes[k] as u8;
    }
    assign
}

/// Local search: from the greedy start, then from `restarts - 1` random starts drawn from
/// `seed`, first-improvement hill climbing over swaps of two ranks' nodes and moves of one
/// rank to a free node (in a fixed order), until no neighbour is faster or `budget` steps are
/// spent. Every assignment evaluated is offered to `list` (as its representative); the greedy
/// start is evaluated even when `budget` is already spent.
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
    let eval = |a: &[u8], b: &mut Bounds, stats: &mut Stats, list: &mut TopList| -> f64 {
        let t = b.exact(a);
        stats.replays += 1;
        stats.visited += 1;
        stats.steps += c.steps();
        list.insert(t, &prob.representative(a));
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
            let mut nodes: Vec<u8> = (0..n as u8).collect();
            for i in (1..n).rev() {
                let j = rng.below(i as u64 + 1) as usize;
                nodes.swap(i, j);
            }
            nodes[..r].to_vec()
        };
        let mut t = eval(&cur, &mut b, stats, list);
        'climb: loop {
            let mut used = [false; 256];
            for &u in &cur {
                used[u as usize] = true;
            }
            for i in 0..r {
                for j in i + 1..r {
                    if prob.class[cur[i] as usize] == prob.class[cur[j] as usize] {
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
                    if used[u] || prob.class[u] == prob.class[cur[i] as usize] {
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
/// the relaxed replay and the per-rank bound), which is the lower bound.
pub fn local_only(prob: &Problem, top: usize, budget: u64, restarts: u32, seed: u64) -> Outcome {
    let mut list = TopList::new(top);
    let mut stats = Stats::default();
    let mut b = Bounds::new(prob.c, prob.p);
    let mut rb = RankBound::new(prob.c, prob.p);
    let empty = vec![FREE; prob.c.ranks];
    let root = b.partial(&empty).max(rb.bound(&empty));
    stats.bound_replays += 1;
    stats.rank_bounds += 1;
    stats.steps += prob.c.steps() + rb.steps();
    let done = local_search(prob, restarts, seed, budget, &mut list, &mut stats);
    let best = list.best().map_or(f64::INFINITY, |x| x.time);
    Outcome {
        top: list,
        stats,
        stop: if done { Stop::Complete } else { Stop::Budget },
        proven: root >= best,
        lower_bound: root.min(best),
    }
}
