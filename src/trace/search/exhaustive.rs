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
    let c = prob.c;
    let (r, n) = (c.ranks, prob.p.n);
    let mut b = Bounds::new(c, prob.p);
    let mut list = TopList::new(top);
    let mut stats = Stats::default();
    let mut assign = vec![FREE; r];
    let cores = &prob.p.cores;
    let mut load = vec![0u32; n];
    // iterative DFS over the maps within capacity in lexicographic order
    let mut next = vec![0usize; r + 1];
    let mut depth = 0usize;
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
    loop {
        if depth == r {
            stats.replays += 1;
            stats.visited += 1;
            stats.steps += c.steps();
            if stats.replays % 1024 == 0 {
                tick(stats.steps);
            }
            if lanes {
                batch.push(assign.clone());
                if batch.len() == LANES {
                    flush(&mut batch, &mut b, &mut list);
                }
            } else {
                let t = b.exact(&assign);
                if prob.listed(&assign) {
                    list.insert(t, &assign);
                }
            }
            depth -= 1;
            load[assign[depth] as usize] -= 1;
            continue;
        }
        // unplaced ranks are FREE for the identical-rank check
        assign[depth] = FREE;
        let mut u = next[depth];
        while u < n && (load[u] >= cores[u] || !prob.allows_placing(&assign, depth, u)) {
            u += 1;
        }
        if u >= n {
            next[depth] = 0;
            if depth == 0 {
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
    flush(&mut batch, &mut b, &mut list);
    let lb = list.best().map_or(0.0, |x| x.time);
    Outcome {
        symmetry: prob.sym.clone(),
        top: list,
        stats,
        stop: Stop::Complete,
        proven: true,
        lower_bound: lb,
    }
}
