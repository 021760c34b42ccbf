//! Iterated local search for task mappings: the swap search's local minimum ([`super::swap`])
//! shaken and searched again, the better kept, until a work budget is spent.
//!
//! One step: a *patch* of at most [`PATCH`] tasks, grown breadth first in the task graph from a
//! task drawn by the seed, has its hosts shuffled among its own tasks (a uniform permutation);
//! then the swap search examines the patch and what its steps queue
//! ([`super::swap::search_from`]), with a bounded share of the budget. The result replaces the
//! incumbent when its hop-bytes are at most the incumbent's (equal ones too, so the search drifts
//! across plateaus of equal cost).
//!
//! # Invariants
//! A permutation of the patch's hosts among the patch keeps every task on exactly one host and
//! uses no other host (so never a busy one); the swap search keeps that. The hop-bytes returned
//! are never above the start's (the incumbent only changes for one at most as low).
//! Deterministic: the draws come from the seed on fixed-width integers.
//!
//! # Complexity
//! At most `budget` units of work in all: per step the swap search's own units, plus the patch,
//! plus a fixed `(n + 2m) / 4` units (what copying the mapping and recounting its hop-bytes
//! would cost), so the number of steps is bounded too. The steps cost less than that: one
//! [`Searcher`] is kept and a rejected step's moves are undone, and its hop-bytes follow from
//! the exact gains (recounted only on networks whose routes each way differ in length).

use super::swap::{Metric, Searched, Searcher};
use crate::graph::Graph;
use crate::rng::Rng;

/// Most tasks in one shaken patch.
pub const PATCH: usize = 12;

/// Most work of the swap search after one shake, in its units: a patch and a few rings around it.
pub const STEP_WORK: u64 = 40_000;

/// A salt so that the perturbation's draws differ from the other users of the scenario's seed.
const SALT: u64 = 0x9e37_79b9_7f4a_7c15;

/// Improves `host_of` (a swap-search local minimum of hop-bytes `hop_weight`) by shaking patches
/// and searching again until `budget` units of work are spent (module doc).
pub fn iterated(
    g: &Graph,
    metric: &Metric,
    busy: &[bool],
    host_of: Vec<u32>,
    hop_weight: u64,
    budget: u64,
    seed: u64,
) -> Searched {
    let n = g.n() as usize;
    let mut best = Searched {
        host_of,
        hop_weight,
        max_load: 0,
        work: 0,
    };
    if n < 3 {
        return best;
    }
    let mut rng = Rng::seeded(seed ^ SALT);
    let mut mark = vec![u32::MAX; n];
    let mut in_patch = vec![false; n];
    let mut patch: Vec<u32> = Vec::with_capacity(PATCH);
    let mut was: Vec<u32> = Vec::with_capacity(PATCH);
    let mut hosts: Vec<u32> = Vec::with_capacity(PATCH);
    let mut s = Searcher::new(g, metric, busy, std::mem::take(&mut best.host_of));
    let mut spent = 0u64;
    let mut step = 0u32;
    while spent < budget {
        // a patch: breadth first from a random task, in adjacency order
        patch.clear();
        let root = rng.index_below(n) as u32;
        mark[root as usize] = step;
        patch.push(root);
        let mut i = 0;
        while i < patch.len() && patch.len() < PATCH {
            for &v in g.neighbors(patch[i]) {
                if patch.len() >= PATCH {
                    break;
                }
                if mark[v as usize] != step {
                    mark[v as usize] = step;
                    patch.push(v);
                }
            }
            i += 1;
        }
        step = step.wrapping_add(1);
        if patch.len() < 2 {
            spent += 1;
            continue;
        }
        // shuffle the patch's hosts among its tasks (Fisher-Yates)
        was.clear();
        was.extend(patch.iter().map(|&t| s.host_of()[t as usize]));
        hosts.clear();
        hosts.extend_from_slice(&was);
        for k in (1..hosts.len()).rev() {
            hosts.swap(k, rng.index_below(k + 1));
        }
        let before = s.hop_weight_at(&patch, &mut in_patch);
        s.permute(&patch, &hosts);
        let after = s.hop_weight_at(&patch, &mut in_patch);
        s.logging(true);
        let (work, change) = s.run(None, STEP_WORK.min(budget - spent), 1, &patch);
        // the step is charged as if the mapping were copied and recounted (see the module doc)
        spent += work + patch.len() as u64 + (n as u64 + 2 * g.m()) / 4;
        let cost = if metric.is_symmetric() {
            i128::from(best.hop_weight) + i128::from(after - before) + change
        } else {
            i128::from(metric.hop_weight(g, s.host_of()))
        };
        if cost <= i128::from(best.hop_weight) {
            best.hop_weight = u64::try_from(cost).expect("hop-bytes are not negative");
        } else {
            s.undo();
            s.permute(&patch, &was);
        }
    }
    best.host_of = s.into_host_of();
    best.work = spent;
    best
}
