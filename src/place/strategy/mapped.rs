//! Mapped (ours): the placement of least hop-bytes (or of least link congestion) we can find,
//! nodes and mapping chosen together.
//!
//! 1. Starts: the placements of Simple (numbering order), Optimal (Hilbert window / lowest
//!    switch), Advanced (recursive partitioning onto a nearest-neighbour tree) and Identity
//!    (the task grid laid on a free block of its shape, when one fits), without the source's
//!    quirks; duplicates dropped.
//! 2. Each start improved by the swap-based local search ([`super::swap`]) on hop-bytes: tasks
//!    move to free hosts or swap with other tasks near their neighbours' hosts, so the job may
//!    also change which nodes it occupies.
//! 3. Small jobs: when every assignment of tasks to free hosts can be enumerated
//!    ([`super::exhaustive::MAX_ASSIGNMENTS`]), branch and bound from the best cost so far
//!    makes the answer optimal.
//! 4. The objective `congestion`: each improved start is searched again on the sum of squared
//!    directed-link loads over the simulator's routes, and the mapping with the least maximum
//!    link load is kept (ties to the least hop-bytes).
//!
//! # Guarantees
//! Deterministic by seed (the seed reaches only Advanced's partitioner). Hop-bytes never above
//! the best of Simple, Optimal, Advanced and Identity (the search only improves its starts);
//! optimal when the exhaustive search runs. Every task on its own free host.
//!
//! # Complexity
//! The four starts, plus at most [`search_budget`] units of search work per start (and as many
//! again per start for `congestion`), plus the exhaustive search's bounded enumeration.

use super::super::jobs::TaskGraph;
use super::exhaustive::exhaustive;
use super::swap::{search, Cost, Metric};
use super::{Options, Placement, Shape, StrategyId};
use crate::netsim::Platform;

crate::params::choices! {
    /// What Mapped (ours) minimizes.
    #[derive(Default)]
    pub enum Objective {
        #[default]
        HopBytes = ("hopBytes", "Hop-bytes"),
        Congestion = ("congestion", "Maximum link congestion"),
    }
}

/// The strategies whose placements start the search.
pub const STARTS: [StrategyId; 4] = [
    StrategyId::Simple,
    StrategyId::Optimal,
    StrategyId::Advanced,
    StrategyId::Identity,
];

/// Search work allowed per start: `SEARCH_WORK_PER_ENTRY` units per task and adjacency entry,
/// at most [`MAX_SEARCH_WORK`].
pub fn search_budget(tasks: u64, edges: u64) -> u64 {
    (SEARCH_WORK_PER_ENTRY * (tasks + 2 * edges)).min(MAX_SEARCH_WORK)
}

/// About thirty passes of the local search over a nearest-neighbour job.
pub const SEARCH_WORK_PER_ENTRY: u64 = 2_000;
/// The search work cap per start, whatever the job (dense task graphs reach it).
pub const MAX_SEARCH_WORK: u64 = 60_000_000;

/// The host of each task.
pub fn mapped(
    shape: &Shape,
    net: &Platform,
    busy: &[bool],
    job: &TaskGraph,
    opts: Options,
) -> Vec<u32> {
    let g = &job.graph;
    let metric = Metric::new(shape);
    let plain = Options {
        source_quirks: false,
        ..opts
    };
    let mut starts: Vec<Vec<u32>> = Vec::new();
    for st in STARTS {
        if let Placement::Placed(h) = super::place(st, shape, net, busy, job, plain) {
            if !starts.contains(&h) {
                starts.push(h);
            }
        }
    }
    let budget = search_budget(u64::from(g.n()), g.m());
    let mut improved: Vec<(u64, Vec<u32>)> = starts
        .into_iter()
        .map(|h| {
            let r = search(g, &metric, busy, h, Cost::Hops, budget);
            (r.hop_weight, r.host_of)
        })
        .collect();
    // the best first; equal costs keep the order of the starts
    improved.sort_by_key(|x| x.0);
    if let Some((m, c)) = exhaustive(g, &metric, busy, improved[0].0) {
        improved.insert(0, (c, m));
    }
    match opts.objective {
        Objective::HopBytes => improved.swap_remove(0).1,
        Objective::Congestion => {
            let mut best: Option<(u64, u64, Vec<u32>)> = None;
            for (_, h) in improved {
                // the start as it is (a search of no work), then searched on link loads
                for work in [0, budget] {
                    let r = search(g, &metric, busy, h.clone(), Cost::Links(net), work);
                    let key = (r.max_load, r.hop_weight);
                    if best.as_ref().is_none_or(|b| key < (b.0, b.1)) {
                        best = Some((key.0, key.1, r.host_of));
                    }
                }
            }
            best.expect("at least one start").2
        }
    }
}
