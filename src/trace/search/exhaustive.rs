//! Exhaustive search: every assignment replayed.

use super::{Bounds, Outcome, Problem, Stats, Stop, TopList, FREE};
use crate::trace::replay::{LaneTables, LANES};

/// Exhaustive search: every capacity-feasible assignment (at most `cores` ranks on a node) in
/// lexicographic order, replayed, but those the identical-rank reduction skips
/// ([`Problem::allows_placing`], checked as each rank is placed); the listed ones
/// ([`Problem::listed`]) enter the ranking. So the ranking is the `top` best of all feasible
/// assignments, one row per class of equivalents (by identical nodes, and by identical ranks up
/// to ties the reduction keeps apart).
///
/// # Complexity
/// `O(A x (M + R))` for the `A` feasible assignments ([`super::assignments_on`]; `n!/(n-R)!`
/// with one core per node).
pub fn exhaustive(prob: &Problem, top: usize) -> Outcome {
    exhaustive_with(prob, top, true, &mut |_| {})
}

/// Exhaustive search, with `lanes` replaying [`LANES`] assignments per pass, else one at a
/// time (the plain baseline of the benchmark); both give the same outcome.
/// `tick(steps spent)` is called every 1024 assignments (for a progress bar).
pub fn exhaustive_with(
    prob: &Problem,
    top: usize,
    lanes: bool,
    tick: &mut dyn FnMut(u64),
) -> Outcome {
    exhaustive_over(prob, top, lanes, &[Vec::new()], tick)
}

/// The assignments of the first `depth` ranks (at most the ranks) that exhaustive search
/// descends through, in its order: capacity-feasible, allowed by the identical-rank reduction.
/// The subtrees below them partition the search ([`exhaustive_over`]).
pub fn prefixes(prob: &Problem, depth: usize) -> Vec<Vec<u8>> {
    let r = prob.c.ranks;
    let depth = depth.min(r);
    let mut assign = vec![FREE; r];
    let mut load = vec![0u32; prob.p.n];
    let mut out = Vec::new();
    completions(prob, &mut assign, &mut load, 0, depth, &mut |a| {
        out.push(a[..depth].to_vec())
    });
    out
}

/// Exhaustive search of the subtrees below `prefixes` (each the nodes of the first ranks, from
/// [`prefixes`]; one empty prefix: the whole search). **Theorem (splitting).** The ranking is
/// the best `top` listed assignments by `(time, assignment)`, a total order, so the ranking of
/// a union of disjoint subtrees is the best `top` of their rankings together, and counters add
/// up: [`merge_exhaustive`] of the outcomes of any partition of [`prefixes`] is the whole search's outcome,
/// byte for byte (each replay's time depends only on its assignment, lanes or not).
pub fn exhaustive_over(
    prob: &Problem,
    top: usize,
    lanes: bool,
    prefixes: &[Vec<u8>],
    tick: &mut dyn FnMut(u64),
) -> Outcome {
    let c = prob.c;
    let r = c.ranks;
    let mut b = Bounds::new(c, prob.p);
    let mut list = TopList::new(top);
    let mut stats = Stats::default();
    let mut assign = vec![FREE; r];
    let mut load = vec![0u32; prob.p.n];
    let mut batch: Vec<Vec<u8>> = Vec::with_capacity(LANES);
    let mut lane_tab = LaneTables::new(r);
    let mut lane_t = vec![0.0f64; c.scratch_len() * LANES];
    let mut flush = |batch: &mut Vec<Vec<u8>>, b: &mut Bounds, list: &mut TopList| {
        if batch.is_empty() {
            return;
        }
        let times = b.partial_lanes(batch, &mut lane_tab, &mut lane_t);
        for (k, a) in batch.iter().enumerate() {
            if prob.listed(a) {
                list.insert(times[k], a);
            }
        }
        batch.clear();
    };
    for pre in prefixes {
        for (x, &u) in pre.iter().enumerate() {
            assign[x] = u;
            load[u as usize] += 1;
        }
        completions(prob, &mut assign, &mut load, pre.len(), r, &mut |a| {
            stats.replays += 1;
            stats.visited += 1;
            stats.steps += c.steps();
            if stats.replays % 1024 == 0 {
                tick(stats.steps);
            }
            if lanes {
                batch.push(a.to_vec());
                if batch.len() == LANES {
                    flush(&mut batch, &mut b, &mut list);
                }
            } else {
                let t = b.exact(a);
                if prob.listed(a) {
                    list.insert(t, a);
                }
            }
        });
        for (x, &u) in pre.iter().enumerate() {
            assign[x] = FREE;
            load[u as usize] -= 1;
        }
    }
    flush(&mut batch, &mut b, &mut list);
    complete(prob, list, stats)
}

/// The outcome of exhaustive searches of disjoint subtrees together (theorem at
/// [`exhaustive_over`]).
pub fn merge_exhaustive(prob: &Problem, top: usize, parts: &[Outcome]) -> Outcome {
    let mut list = TopList::new(top);
    let mut stats = Stats::default();
    for o in parts {
        for row in &o.top.rows {
            list.insert(row.time, &row.assign);
        }
        stats.visited += o.stats.visited;
        stats.replays += o.stats.replays;
        stats.bound_replays += o.stats.bound_replays;
        stats.rank_bounds += o.stats.rank_bounds;
        stats.pruned += o.stats.pruned;
        stats.steps += o.stats.steps;
    }
    complete(prob, list, stats)
}

/// The outcome of a complete exhaustive search: proven, its lower bound its best time.
fn complete(prob: &Problem, top: TopList, stats: Stats) -> Outcome {
    let lower_bound = top.best().map_or(0.0, |x| x.time);
    Outcome {
        symmetry: prob.sym.clone(),
        top,
        stats,
        stop: Stop::Complete,
        proven: true,
        lower_bound,
    }
}

/// Exhaustive search on `threads` threads (natively; rayon): the [`prefixes`] of two ranks dealt
/// round robin, part 0 on the calling thread with `tick` (the steps of every part), the outcomes
/// [`merge_exhaustive`]d: the outcome of [`exhaustive_with`] whatever the thread count.
#[cfg(not(target_arch = "wasm32"))]
pub fn exhaustive_threads(
    prob: &Problem,
    top: usize,
    threads: usize,
    tick: &mut dyn FnMut(u64),
) -> Outcome {
    use std::sync::atomic::{AtomicU64, Ordering};
    let pre = prefixes(prob, 2);
    let threads = threads.clamp(1, pre.len().max(1));
    if threads < 2 {
        return exhaustive_with(prob, top, true, tick);
    }
    let deal = |i: usize| -> Vec<Vec<u8>> {
        pre.iter()
            .skip(i)
            .step_by(threads)
            .cloned()
            .collect::<Vec<_>>()
    };
    let spent = AtomicU64::new(0);
    let mut outs: Vec<Option<Outcome>> = (0..threads).map(|_| None).collect();
    let (first, rest) = outs.split_at_mut(1);
    rayon::in_place_scope(|sc| {
        for (k, slot) in rest.iter_mut().enumerate() {
            let mine = deal(k + 1);
            let spent = &spent;
            sc.spawn(move |_| {
                let mut last = 0;
                *slot = Some(exhaustive_over(prob, top, true, &mine, &mut |s| {
                    spent.fetch_add(s - last, Ordering::Relaxed);
                    last = s;
                }));
            });
        }
        let mut last = 0;
        first[0] = Some(exhaustive_over(prob, top, true, &deal(0), &mut |s| {
            let all = spent.fetch_add(s - last, Ordering::Relaxed) + s - last;
            last = s;
            tick(all);
        }));
    });
    let outs: Vec<Outcome> = outs.into_iter().flatten().collect();
    merge_exhaustive(prob, top, &outs)
}

/// Visits, in lexicographic order, every assignment of ranks `from..to` completing
/// `assign[..from]` (placed, with `load` counting them) within the nodes' cores and allowed
/// by the identical-rank reduction ([`Problem::allows_placing`], checked as each rank is
/// placed); `leaf` sees `assign` with ranks `..to` placed. `assign` and `load` are restored.
fn completions(
    prob: &Problem,
    assign: &mut [u8],
    load: &mut [u32],
    from: usize,
    to: usize,
    leaf: &mut dyn FnMut(&[u8]),
) {
    let n = prob.p.n;
    let cores = &prob.p.cores;
    if from == to {
        leaf(assign);
        return;
    }
    // iterative DFS over the maps within capacity in lexicographic order
    let mut next = vec![0usize; to + 1];
    let mut depth = from;
    loop {
        if depth == to {
            leaf(assign);
            depth -= 1;
            load[assign[depth] as usize] -= 1;
            continue;
        }
        // unplaced ranks are FREE for the identical-rank check
        assign[depth] = FREE;
        let mut u = next[depth];
        while u < n && (load[u] >= cores[u] || !prob.allows_placing(assign, depth, u)) {
            u += 1;
        }
        if u >= n {
            next[depth] = 0;
            if depth == from {
                break;
            }
            depth -= 1;
            load[assign[depth] as usize] -= 1;
            continue;
        }
        assign[depth] = u as u8;
        load[u] += 1;
        next[depth] = u + 1;
        depth += 1;
        next[depth] = 0;
    }
}
