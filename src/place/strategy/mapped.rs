//! Mapped (ours): the best placement we can find, nodes and mapping chosen together, by the
//! objective the scenario names: `time` (default: the simulated round time), `hopBytes`, or
//! `congestion` (the most bytes on one directed link).
//!
//! 1. Starts: the placements of Simple (numbering order), Optimal (Hilbert window / lowest
//!    switch), Advanced (recursive partitioning onto a nearest-neighbour tree) and Identity
//!    (the task grid laid on a free block of its shape, when one fits), without the source's
//!    quirks; the fold of a task grid onto a torus or mesh of other sides ([`super::fold`]:
//!    snake folds of its long sides, so grid neighbours stay one hop apart but across the
//!    folds); and the dual recursive bipartitioning of [`super::bisect`] (hosts cut along the
//!    machine's geometry, tasks bisected with external gains); duplicates dropped. The cheap
//!    starts (Simple, Optimal, Identity, the fold) come first: with `hopBytes` or `congestion`,
//!    when one of them lays every edge on the fewest links possible (one hop on a grid, two on
//!    a tree) it is optimal (no mapping has fewer hop-bytes; each message then has links of
//!    its own, or its host's, so none has less congestion either) and Advanced and the
//!    bisection are not computed. With `hopBytes` Advanced is no start at all: the bisection
//!    is its recursive partitioning with the machine's geometry and external gains (on the
//!    mapping benchmark Advanced's searched start came out best on 4 of 37 cases: under 1 %
//!    better on three, 5 % on a binary tree on a torus; and it cost as much as the bisection).
//! 2. Each start improved by the swap-based local search ([`super::swap`]) on hop-bytes (tasks
//!    move to free hosts or swap with other tasks near their neighbours' hosts, so the job may
//!    also change which nodes it occupies); none is searched when a start already lays every
//!    edge on the fewest links possible: that start is optimal. With `hopBytes` or `congestion`
//!    the starts more than [`SEARCH_WITHIN`] above the best start are not searched either.
//!    With `hopBytes` the least found is then shaken and searched again on another budget
//!    ([`super::perturb`]: patches of tasks shuffled among their own hosts, the better kept).
//!    With `hopBytes` every search after the first is skipped once the least found meets
//!    [`super::bound`]'s lower bound (a star's centre makes it tight): the searches keep strict
//!    improvements only, so the pick is the same.
//! 3. Small jobs: when every assignment of tasks to free hosts can be enumerated
//!    ([`super::exhaustive::MAX_ASSIGNMENTS`]), branch and bound from the best cost so far
//!    finds the least hop-bytes there is.
//! 4. The least hop-bytes found is also searched on the sum of squared directed-link loads over
//!    the simulator's routes (with `congestion`: every finalist is; with `hopBytes` on
//!    [`LINK_SHARE`] of the budget, and not when the hop-bytes are at their bound).
//! 5. The pick among these finalists ([`finalists`]): `hopBytes`, the least hop-bytes;
//!    `congestion`, the least maximum link load, then hop-bytes; `time`, the fastest round as
//!    the placement run simulates it ([`judge`]) among every start and every finalist whose
//!    hop-bytes are within [`HOP_SLACK`] of the least (or at most the best start's). Hop-bytes
//!    alone do not make a round fast: a 1 MB round waits for its busiest link, a 1 B round for
//!    its longest route. Without a simulator (a background job, a direct call) `time` takes the
//!    least predicted time ([`predictor`]).
//!
//! # Guarantees
//! Deterministic by seed (the seed reaches only the partitioner, Advanced's and the bisection's). Every task on its own
//! free host. `hopBytes`: never above the best of Simple, Optimal, Identity and the fold (the
//! search only improves its starts), and the least there is when the exhaustive search runs.
//! `congestion`: never above the congestion of Simple, Optimal and Advanced (each is searched
//! on link loads, or a cheap start is optimal).
//! `time` in a run: never slower than any of Simple, Optimal, Advanced and Identity, whose
//! placements are judged too.
//!
//! # Complexity
//! The six starts (the bisection `O((P + E) log^2 P)`, the fold [`super::fold`]'s bounded
//! candidates), plus at most [`search_budget`] units of search work per start (and as many
//! again per link-load search), plus the exhaustive search's bounded enumeration; `time` in a
//! run simulates at most [`MAX_FINALISTS`] placements.

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
        Time = ("time", "Simulated time (judged by the simulator)"),
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

/// Mapped's candidate placements and how it picks among them.
pub struct Finalists {
    /// Distinct placements: the starts as they are first, then the improved ones.
    pub hosts: Vec<Vec<u32>>,
    /// Their figures (with `hopBytes` only `hop_weight` is counted, the others are 0).
    pub profiles: Vec<Profile>,
    /// What the simulator judges with the objective `time`: every start, and the other
    /// finalists whose hop-bytes are allowed, fastest predicted first, [`MAX_FINALISTS`] in all;
    /// in order of predicted round time.
    pub judged: Vec<usize>,
    /// The pick without a simulator (see [`finalists`]).
    pub pick: usize,
}

/// The host of each task: the pick without a simulator.
pub fn mapped(
    shape: &Shape,
    net: &Platform,
    busy: &[bool],
    job: &TaskGraph,
    opts: Options,
) -> Vec<u32> {
    let mut f = finalists(shape, net, busy, job, opts);
    f.hosts.swap_remove(f.pick)
}

/// The finalist the simulator judged fastest: the least time among `judged` (`times[i]` of
/// `f.judged[i]`, `None` when its simulation did not finish), ties to the least hop-bytes, then
/// the first; [`Finalists::pick`] when none finished.
pub fn judge(f: &Finalists, times: &[Option<f64>]) -> usize {
    let mut best: Option<(f64, u64, usize)> = None;
    for (&i, t) in f.judged.iter().zip(times) {
        if let Some(t) = *t {
            let key = (t, f.profiles[i].hop_weight);
            if best.is_none_or(|b| key < (b.0, b.1)) {
                best = Some((key.0, key.1, i));
            }
        }
    }
    best.map_or(f.pick, |b| b.2)
}

/// Mapped's finalists (see the module doc).
pub fn finalists(
    shape: &Shape,
    net: &Platform,
    busy: &[bool],
    job: &TaskGraph,
    opts: Options,
) -> Finalists {
    let g = &job.graph;
    let metric = Metric::new(shape);
    let plain = Options {
        source_quirks: false,
        ..opts
    };
    // every edge on the fewest links possible: a start this cheap is optimal
    let bound = super::bound::plain_bound(&metric, g);
    // the cheap starts first: Advanced and the bisection only when none of them is optimal (or
    // with `time`, whose simulator judges every strategy's placement)
    let mut placed: Vec<Option<Vec<u32>>> = vec![None; STARTS.len()];
    for (i, &st) in STARTS.iter().enumerate() {
        if st != StrategyId::Advanced {
            if let Placement::Placed(h) = super::place(st, shape, net, busy, job, plain) {
                placed[i] = Some(h);
            }
        }
    }
    let folded = super::fold::fold(shape, busy, job, &metric);
    let settled = opts.objective != Objective::Time
        && placed
            .iter()
            .flatten()
            .chain(folded.iter())
            .any(|h| metric.hop_weight(g, h) == bound);
    // Advanced's partitioning onto a tree of the nodes is what the bisection does with
    // external gains: with `hopBytes` the bisection stands for it
    if !settled && opts.objective != Objective::HopBytes {
        let at = STARTS
            .iter()
            .position(|&st| st == StrategyId::Advanced)
            .expect("Advanced starts");
        if let Placement::Placed(h) =
            super::place(StrategyId::Advanced, shape, net, busy, job, plain)
        {
            placed[at] = Some(h);
        }
    }
    let mut hosts: Vec<Vec<u32>> = Vec::new();
    for h in placed.into_iter().flatten() {
        if !hosts.contains(&h) {
            hosts.push(h);
        }
    }
    let n_starts = hosts.len();
    // the fold and the dual recursive bipartitioning starts, searched as the others are (not
    // strategies of their own: `time` judges the four strategies' placements and the best
    // searched ones)
    if let Some(h) = folded {
        if !hosts.contains(&h) {
            hosts.push(h);
        }
    }
    if !settled {
        let drb = super::bisect::bisect(shape, busy, g, opts.seed);
        if !hosts.contains(&drb) {
            hosts.push(drb);
        }
    }
    let n_seeds = hosts.len();
    let budget = search_budget(u64::from(g.n()), g.m());
    let push = |hosts: &mut Vec<Vec<u32>>, h: Vec<u32>| -> usize {
        match hosts.iter().position(|x| *x == h) {
            Some(i) => i,
            None => {
                hosts.push(h);
                hosts.len() - 1
            }
        }
    };
    let optimal_start = (0..n_seeds).find(|&i| metric.hop_weight(g, &hosts[i]) == bound);
    // a start far above the best one is not searched: it has never come out best
    let raw: Vec<u64> = hosts.iter().map(|h| metric.hop_weight(g, h)).collect();
    let best_raw = raw.iter().copied().min().unwrap_or(0);
    let searched: Vec<usize> = match optimal_start {
        Some(i) => vec![i],
        None => (0..n_seeds)
            .filter(|&i| {
                opts.objective == Objective::Time
                    || raw[i] * SEARCH_WITHIN.1 <= best_raw * SEARCH_WITHIN.0
            })
            .collect(),
    };
    // with `hopBytes` a search stops mattering once the least found meets the tighter bound
    // (a star's centre makes it tight): a search only keeps strict improvements and the pick
    // is the first of the least, so skipping what follows changes nothing
    let tight = match opts.objective {
        Objective::HopBytes if optimal_start.is_none() => {
            super::bound::hop_bound(shape, &metric, busy, g)
        }
        _ => bound,
    };
    let mut least: Option<(u64, usize)> = None;
    for i in searched {
        if least.is_some_and(|l| l.0 <= tight) {
            break;
        }
        let r = search(g, &metric, busy, hosts[i].clone(), Cost::Hops, budget, 1);
        let at = push(&mut hosts, r.host_of);
        if least.is_none_or(|l| r.hop_weight < l.0) {
            least = Some((r.hop_weight, at));
        }
    }
    let (mut least_cost, mut at) = least.expect("at least one start");
    // the least found searched again with candidates two hops away, on a quarter of the
    // budget (a larger neighbourhood escapes some local minima of the first)
    if optimal_start.is_none() && least_cost > tight {
        let r = search(
            g,
            &metric,
            busy,
            hosts[at].clone(),
            Cost::Hops,
            budget / 4,
            2,
        );
        if r.hop_weight < least_cost {
            least_cost = r.hop_weight;
            at = push(&mut hosts, r.host_of);
        }
    }
    // with `hopBytes`, the least found shaken and searched again (iterated local search) on
    // another budget
    if opts.objective == Objective::HopBytes && optimal_start.is_none() && least_cost > tight {
        let r = super::perturb::iterated(
            g,
            &metric,
            busy,
            hosts[at].clone(),
            least_cost,
            budget * ILS_SHARE,
            opts.seed,
        );
        if r.hop_weight < least_cost {
            least_cost = r.hop_weight;
            at = push(&mut hosts, r.host_of);
        }
    }
    // when the exhaustive search runs the least hop-bytes is known: only mappings of that cost
    // may be kept
    let mut slack = HOP_SLACK;
    if let Some((better, _)) = exhaustive(g, &metric, busy, least_cost) {
        slack = 1.0;
        if let Some(m) = better {
            at = push(&mut hosts, m);
        }
    }
    // the least hop-bytes improved on link loads (for the congestion objective: every finalist)
    let link_searched: Vec<usize> = match opts.objective {
        Objective::Congestion => (0..hosts.len()).collect(),
        Objective::Time => vec![at],
        // hop-bytes at the bound: no search lowers them
        Objective::HopBytes if least_cost <= tight => Vec::new(),
        Objective::HopBytes => vec![at],
    };
    for i in link_searched {
        let r = search(
            g,
            &metric,
            busy,
            hosts[i].clone(),
            Cost::Links(net),
            match opts.objective {
                Objective::HopBytes => budget / LINK_SHARE,
                _ => budget,
            },
            1,
        );
        push(&mut hosts, r.host_of);
    }
    let profiles: Vec<Profile> = hosts
        .iter()
        .map(|h| match opts.objective {
            Objective::HopBytes => Profile {
                hop_weight: metric.hop_weight(g, h),
                max_load: 0,
                max_hops: 0,
            },
            _ => profile(g, &metric, net, h),
        })
        .collect();
    let least = profiles.iter().map(|p| p.hop_weight).min().unwrap_or(0);
    // the best start's hop-bytes stay allowed: Mapped never loses to a strategy it starts from
    let best_start = profiles[..n_starts]
        .iter()
        .map(|p| p.hop_weight)
        .min()
        .unwrap_or(0);
    let allowed = if slack > 1.0 {
        (least as f64 * slack).max(best_start as f64)
    } else {
        least as f64
    };
    let predicted = predictor(net, opts);
    let key = |i: usize| -> (f64, u64) {
        let p = &profiles[i];
        match opts.objective {
            Objective::HopBytes => (p.hop_weight as f64, 0),
            Objective::Congestion => (p.max_load as f64, p.hop_weight),
            Objective::Time if p.hop_weight as f64 <= allowed => (predicted(p), p.hop_weight),
            Objective::Time => (f64::INFINITY, p.hop_weight),
        }
    };
    let mut pick = 0;
    for i in 1..hosts.len() {
        if key(i) < key(pick) {
            pick = i;
        }
    }
    // judged by the simulator (`time`): every start, then the others allowed, fastest predicted
    // first, up to MAX_FINALISTS in all
    let by_prediction = |a: &usize, b: &usize| {
        (predicted(&profiles[*a]), *a)
            .partial_cmp(&(predicted(&profiles[*b]), *b))
            .expect("finite predictions")
    };
    let judged: Vec<usize> = match opts.objective {
        Objective::Time => {
            let mut others: Vec<usize> = (n_starts..hosts.len())
                .filter(|&i| profiles[i].hop_weight as f64 <= allowed)
                .collect();
            others.sort_by(by_prediction);
            let mut j: Vec<usize> = (0..n_starts).collect();
            j.extend(others.into_iter().take(MAX_FINALISTS - n_starts));
            j.sort_by(by_prediction);
            j
        }
        _ => vec![pick],
    };
    Finalists {
        hosts,
        profiles,
        judged,
        pick,
    }
}

/// Most placements the objective `time` has simulated: the (at most four) starts and the
/// fastest predicted of the others.
pub const MAX_FINALISTS: usize = 6;

/// With `hopBytes` the link-load search of the least found has this share of the budget
/// (`1 / LINK_SHARE`): there it only shakes the mapping out of a hop-bytes minimum.
pub const LINK_SHARE: u64 = 4;

/// Starts whose hop-bytes exceed the best start's by more than this ratio (`5 / 4`) are not
/// searched (measured on the mapping benchmark: none such came out best after the search).
pub const SEARCH_WITHIN: (u64, u64) = (5, 4);

/// With `hopBytes` the iterated local search has this many times a start's search budget.
pub const ILS_SHARE: u64 = 4;

/// Hop-bytes within this factor of the least found count as equal for the objective `time`.
pub const HOP_SLACK: f64 = 1.02;

/// A round's predicted time: `max_load * messageBytes / (bandwidth * bw_factor) + max_hops *
/// latency * latency_factor` (the busiest link's bytes at full bandwidth, plus the longest
/// route's latency, under the scenario's model).
fn predictor(net: &Platform, opts: Options) -> impl Fn(&Profile) -> f64 {
    let link = net.link_params();
    let m = ModelParams::of(opts.model.unwrap_or(Model::MaxMin));
    move |p: &Profile| {
        p.max_load as f64 * opts.message_bytes / (link.bandwidth * m.bandwidth_factor)
            + f64::from(p.max_hops) * link.latency * m.latency_factor
    }
}
