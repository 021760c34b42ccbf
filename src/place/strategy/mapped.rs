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
//! 4. The least hop-bytes found is also searched on the sum of squared directed-link loads over
//!    the simulator's routes (with the objective `congestion`: every finalist is).
//! 5. The pick among the finalists (the starts as they are, improved, exact, link-searched):
//!    [`choose`]. Hop-bytes alone do not make a round fast (a 1 MB round waits for its busiest
//!    link), so among the finalists within [`HOP_SLACK`] of the least hop-bytes the least
//!    predicted round time wins; with `congestion`, the least maximum link load.
//!
//! # Guarantees
//! Deterministic by seed (the seed reaches only Advanced's partitioner). Hop-bytes at most
//! [`HOP_SLACK`] times the least found, so at most that times the best of Simple, Optimal,
//! Advanced and Identity (the search only improves its starts); the least there is when the
//! exhaustive search runs. Every task on its own free host.
//!
//! # Complexity
//! The four starts, plus at most [`search_budget`] units of search work per start (and as many
//! again per start for `congestion`), plus the exhaustive search's bounded enumeration.

use super::super::jobs::TaskGraph;
use super::exhaustive::exhaustive;
use super::swap::{profile, search, Cost, Metric, Profile};
use super::{Options, Placement, Shape, StrategyId};
use crate::netsim::maxmin::ModelParams;
use crate::netsim::{Model, Platform};

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

/// About fifteen passes of the local search over a nearest-neighbour job.
pub const SEARCH_WORK_PER_ENTRY: u64 = 1_000;
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
    // finalists: the starts as they are, and improved on hop-bytes
    let mut finalists: Vec<Vec<u32>> = starts.clone();
    let n_starts = starts.len();
    let mut least: Option<(u64, usize)> = None;
    for h in starts {
        let r = search(g, &metric, busy, h, Cost::Hops, budget);
        if least.is_none_or(|l| r.hop_weight < l.0) {
            least = Some((r.hop_weight, finalists.len()));
        }
        finalists.push(r.host_of);
    }
    let (least_cost, mut at) = least.expect("at least one start");
    // when the exhaustive search runs the least hop-bytes is known: only mappings of that cost
    // may be kept
    let mut slack = HOP_SLACK;
    if let Some((better, _)) = exhaustive(g, &metric, busy, least_cost) {
        slack = 1.0;
        if let Some(m) = better {
            at = finalists.len();
            finalists.push(m);
        }
    }
    // the least hop-bytes improved on link loads (for the congestion objective: every finalist)
    let link_searched: Vec<usize> = match opts.objective {
        Objective::HopBytes => vec![at],
        Objective::Congestion => (0..finalists.len()).collect(),
    };
    let mut seen = std::collections::BTreeSet::new();
    for i in link_searched {
        if seen.insert(i) {
            let r = search(
                g,
                &metric,
                busy,
                finalists[i].clone(),
                Cost::Links(net),
                budget,
            );
            finalists.push(r.host_of);
        }
    }
    let profiles: Vec<Profile> = finalists
        .iter()
        .map(|h| profile(g, &metric, net, h))
        .collect();
    // the best start's hop-bytes stay allowed: Mapped never loses to a strategy it starts from
    let best_start = profiles[..n_starts]
        .iter()
        .map(|p| p.hop_weight)
        .min()
        .unwrap_or(0);
    let pick = choose(&profiles, net, opts, slack, best_start);
    finalists.swap_remove(pick)
}

/// Hop-bytes within this factor of the least found count as equal; among them the least
/// predicted round time wins.
pub const HOP_SLACK: f64 = 1.02;

/// The finalist Mapped keeps.
///
/// - `hopBytes`: among the finalists whose hop-bytes are at most `slack` ([`HOP_SLACK`], or 1
///   when the exhaustive search proved the least) times the least, or at most the best start's
///   (unless the least is proved),
///   the least predicted round time `max_load * messageBytes / (bandwidth * bw_factor) +
///   max_hops * latency * latency_factor` (the busiest link's bytes at full bandwidth, plus the
///   longest route's latency, under the scenario's model), then the least hop-bytes, then the
///   first;
/// - `congestion`: the least maximum link load, then the least hop-bytes, then the first.
fn choose(
    profiles: &[Profile],
    net: &Platform,
    opts: Options,
    slack: f64,
    best_start: u64,
) -> usize {
    let first_best = |key: &dyn Fn(&Profile) -> (f64, u64)| -> usize {
        let mut best = 0;
        for (i, p) in profiles.iter().enumerate() {
            if key(p) < key(&profiles[best]) {
                best = i;
            }
        }
        best
    };
    match opts.objective {
        Objective::Congestion => first_best(&|p| (p.max_load as f64, p.hop_weight)),
        Objective::HopBytes => {
            let least = profiles.iter().map(|p| p.hop_weight).min().unwrap_or(0);
            let allowed =
                (least as f64 * slack).max(if slack > 1.0 { best_start as f64 } else { 0.0 });
            let link = net.link_params();
            let m = opts
                .model
                .map_or(ModelParams::of(Model::MaxMin), ModelParams::of);
            let time = |p: &Profile| {
                p.max_load as f64 * opts.message_bytes / (link.bandwidth * m.bandwidth_factor)
                    + f64::from(p.max_hops) * link.latency * m.latency_factor
            };
            first_best(&|p| {
                if p.hop_weight as f64 <= allowed {
                    (time(p), p.hop_weight)
                } else {
                    (f64::INFINITY, p.hop_weight)
                }
            })
        }
    }
}
