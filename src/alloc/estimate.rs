//! Admission: an upper bound of the work and memory a scenario needs, computed before running
//! from the machine, the policies and fallback, the number of jobs and their sizes (see
//! `docs/format.md`, "Limits and admission"). What is over the limits is refused with the
//! estimate; what is admitted finishes in bounded time and memory (`tests/bounds.rs` checks that
//! the estimate bounds the counters of real runs, `benches/bounds.rs` times the worst cases).
//!
//! Work is counted in *steps*: a router or link id produced by a footprint computation
//! (`routeSteps`), a node scanned by a list policy, or a word/cell operation of a rectangle
//! search (`searchSteps`). Per job of `k` nodes on a `W x H` mesh (`N` nodes, `L` links):
//!
//! - footprint `f(k)`: `min(N, k (W + H)) + min(L, k (W + H))` routers and links (the rows and
//!   columns of the job's nodes), or `3 min(N, k + W + H + 4 ceil(sqrt k) + 4)` for a closed
//!   rectangle (closed-min policies without `relax-closed`); on a tree `min(R, k l) + min(L, k l)`
//!   with `l` levels;
//! - route steps: at most `5 f(k)` for closed policies (traffic at start, region at commit and
//!   release, the contention sweep at start and end), `4 f(k)` for the others (traffic, the
//!   sweep, the final router load);
//! - search steps: `N` per placement for `sequential`, `hilbert`, `random`; for closed-min on a
//!   mesh, per machine change at most one failed search and one free-rectangle table
//!   (`2 C + 4 N`, where `C` is one shape's bitset search) plus `2 C` per placement and
//!   `2 ceil(sqrt k) + 8` per decision (listing the shapes), and
//!   `relax-closed`'s diameter search per placement; on a tree `4 (N + R)` per decision, with at
//!   most `n + (2n + 1)(1 + depth)` decisions (EASY looks `depth` jobs deep per pass);
//!   `slurmTree` `2 (N L + min(k, R) R L)` per decision (two evaluations, at most one leaf
//!   switch pick per node, each touching every switch), also per EASY feasibility probe.
//!
//! Generated workloads are bounded by the expectation of each term over the size distribution
//! (a right-endpoint sum, an upper bound for terms that grow with `k`) plus a Hoeffding margin
//! (exceeded with probability below 1e-9).

use super::rect::{relax_closed_steps, search_work_bound};
use super::scenario::Backfill;
use super::scenario::{validate_fields, MAX_NAIVE_WORK};
use super::scenario::{AllocScenario, Fallback, PolicyId, SizeDistribution, WorkloadKind};
use crate::error::{Result, ScenarioError};
use crate::topology::Topology;

/// Most steps a scenario may need over all its policies, a route step counting
/// [`ROUTE_STEP_WEIGHT`] steps: the budget ([`crate::engine::MAX_SECONDS`]) at
/// [`NS_PER_STEP`].
pub const MAX_STEPS: f64 = crate::engine::MAX_SECONDS * 1e9 / NS_PER_STEP;
/// A route step touches scattered per-router memory (a cache miss on large machines), a search
/// step is a word operation or a sequential scan: measured, one costs about 8 of the other.
pub const ROUTE_STEP_WEIGHT: f64 = 8.0;
/// A unit of the contention model's work (a flow-capacity incidence visited by the network
/// simulator, a flow rescheduled, a link's state set up, a rank enumerated) costs at most about
/// this many steps (measured on all-to-all windows of 1,024 flows on a 64 x 64 mesh and on trees).
/// Bytes per directed link of a network-simulator platform and of one simulation's arrays
/// (`crate::netsim`: route tables and link state).
pub const NETSIM_LINK_BYTES: f64 = 256.0;
pub const CONTENTION_WORK_WEIGHT: f64 = 32.0;
/// Most memory (bytes) a scenario's run may need by the estimate: the report budget plus per
/// job, per node and per link state ([`crate::engine::MAX_BYTES`]).
pub const MAX_MEMORY: f64 = crate::engine::MAX_BYTES;

/// Native nanoseconds per weighted step ([`Estimate::steps`]), the allocation engine's work unit.
/// The estimate is an upper bound 1.5 to 25 times the counted work, so the unit's cost is set
/// by the families where it is tightest: the deep EASY queue on the 262,144-node tree, whose
/// footprint sorts dominate (1,293 jobs, two policies: 45 s measured against 1.4e11 estimated
/// steps, 0.32 ns each), and the saturating stream on a 4,096-node tree (6.6 s for at most 1e10
/// steps, 0.66 ns each); `cargo bench --bench bounds -- allocation` prints the worst admitted
/// scenario of each family against this constant (`docs/benchmarks.md`, "Bounds").
pub const NS_PER_STEP: f64 = 0.7;

/// Steps of building one job's footprint on a tree beyond the ids it yields: the `k l` router
/// and `k l` link ids of its `k` nodes' paths up `l` levels, sorted and deduplicated
/// (`Tree::all_pairs_footprint`): `2 k l log2(k l)`. On a large tree a big job's footprint is
/// capped by the routers and links, its sort is not (a 262,144-node job on 6 levels sorts
/// 1.6 million ids).
pub fn tree_footprint_sort(k: usize, levels: f64) -> f64 {
    let ids = k as f64 * levels;
    if k < 2 || ids < 2.0 {
        return 0.0;
    }
    2.0 * ids * libm::log2(ids)
}

/// The sizes of the jobs, in nodes, as the estimate sees them.
pub enum Sizes {
    /// Every job's node count (sets, streams, SWF logs).
    Exact(Vec<usize>),
    /// `count` jobs of `ceil(tasks / cores)` nodes, tasks drawn from `dist` over `lo..=hi`.
    Drawn {
        count: usize,
        lo: u64,
        hi: u64,
        dist: SizeDistribution,
        cores: usize,
    },
}

impl Sizes {
    /// Number of jobs.
    pub fn count(&self) -> usize {
        match self {
            Sizes::Exact(v) => v.len(),
            Sizes::Drawn { count, .. } => *count,
        }
    }

    /// The largest job's node count (for drawn sizes, the largest that can be drawn).
    pub fn max(&self) -> usize {
        match self {
            Sizes::Exact(v) => v.iter().copied().max().unwrap_or(0),
            Sizes::Drawn { lo, hi, cores, .. } => (*hi.max(lo)).div_ceil(*cores as u64) as usize,
        }
    }

    /// An upper bound of `sum over jobs of g(nodes)` for `g` non-decreasing and `>= 0`.
    pub fn sum(&self, g: impl Fn(usize) -> f64) -> f64 {
        match self {
            Sizes::Exact(v) => v.iter().map(|&k| g(k)).sum(),
            &Sizes::Drawn {
                count,
                lo,
                hi,
                dist,
                cores,
            } => {
                let nodes = |tasks: u64| tasks.div_ceil(cores as u64) as usize;
                let hi = hi.max(lo);
                let mean = match dist {
                    SizeDistribution::PowersOfTwo => {
                        let kmin = if lo <= 1 {
                            0
                        } else {
                            64 - (lo - 1).leading_zeros() as u64
                        };
                        let kmax = 63 - hi.leading_zeros() as u64;
                        if kmin > kmax {
                            g(nodes(lo))
                        } else {
                            (kmin..=kmax).map(|e| g(nodes(1 << e))).sum::<f64>()
                                / (kmax - kmin + 1) as f64
                        }
                    }
                    SizeDistribution::Uniform | SizeDistribution::LogUniform => {
                        // right endpoints of M cells of the quantile function
                        const M: u64 = 1024;
                        (1..=M)
                            .map(|i| {
                                let u = i as f64 / M as f64;
                                let t = if dist == SizeDistribution::Uniform {
                                    lo as f64 + (u * (hi - lo + 1) as f64).floor()
                                } else {
                                    // libm: the same admission natively and in wasm
                                    let (a, b) = (libm::log(lo as f64), libm::log(hi as f64 + 1.0));
                                    libm::ceil(libm::exp(a + (b - a) * u))
                                };
                                g(nodes((t as u64).clamp(lo, hi)))
                            })
                            .sum::<f64>()
                            / M as f64
                    }
                };
                let top = g(nodes(hi));
                count as f64 * mean + top * (10.4 * count as f64).sqrt()
            }
        }
    }
}

/// One policy's share of the estimate.
#[derive(Debug, Clone)]
pub struct PolicyEstimate {
    pub policy: PolicyId,
    /// Router and link ids produced by footprints over the run.
    pub route_steps: f64,
    /// Node scans and search operations of placement.
    pub search_steps: f64,
    /// Of `route_steps`, those spent while simulating (the rest in the report's sweep).
    pub sim_route_steps: f64,
    /// Work of the run-time-under-contention model (`runtime::State::work`): its budget share,
    /// which the model never passes (0 without `contention`).
    pub contention_work: f64,
}

impl PolicyEstimate {
    /// Weighted steps: what [`MAX_STEPS`] limits.
    pub fn steps(&self) -> f64 {
        ROUTE_STEP_WEIGHT * self.route_steps
            + self.search_steps
            + CONTENTION_WORK_WEIGHT * self.contention_work
    }
}

/// The whole scenario's estimate.
#[derive(Debug, Clone)]
pub struct Estimate {
    pub policies: Vec<PolicyEstimate>,
    /// Peak memory in bytes.
    pub memory: f64,
}

impl Estimate {
    pub fn steps(&self) -> f64 {
        self.policies.iter().map(PolicyEstimate::steps).sum()
    }
}

/// The machine's sizes the bounds use.
struct Dims {
    nodes: f64,
    routers: f64,
    links: f64,
    mesh: Option<(usize, usize)>,
    levels: f64,
}

fn footprint_bound(d: &Dims, compact: bool, k: usize) -> f64 {
    let k = k as f64;
    if k < 2.0 {
        return 0.0;
    }
    match d.mesh {
        Some((w, h)) => {
            let span = k * (w + h) as f64;
            let general = d.nodes.min(span) + d.links.min(span);
            if compact {
                let area = d
                    .nodes
                    .min(k + (w + h) as f64 + 4.0 * k.sqrt().ceil() + 4.0);
                general.min(3.0 * area)
            } else {
                general
            }
        }
        None => d.routers.min(k * d.levels) + d.links.min(k * d.levels),
    }
}

/// Search steps of one `slurmTree` attempt for `k` nodes (counted the same way by the run).
pub fn slurm_tree_steps_of(nodes: f64, routers: f64, levels: f64, k: f64) -> f64 {
    2.0 * (nodes * levels + k.min(routers) * routers * levels)
}

fn slurm_tree_steps(d: &Dims, k: f64) -> f64 {
    slurm_tree_steps_of(d.nodes, d.routers, d.levels, k)
}

/// The estimate for a validated machine and job sizes.
pub fn estimate(s: &AllocScenario, topo: &Topology, sizes: &Sizes) -> Estimate {
    let d = Dims {
        nodes: topo.nodes() as f64,
        routers: topo.routers() as f64,
        links: topo.links() as f64,
        mesh: match topo {
            Topology::Mesh(m) => Some((m.width, m.height)),
            Topology::Tree(_) => None,
        },
        levels: match topo {
            Topology::Mesh(_) => 0.0,
            Topology::Tree(t) => t.levels() as f64,
        },
    };
    let n = sizes.count() as f64;
    let stream = s.workload.kind != WorkloadKind::Set;
    let versions = if stream { 2.0 * n + 1.0 } else { n + 1.0 };
    let decisions = decisions_bound(s, sizes.count());
    let kmax = sizes.max() as f64;
    let mut policies = Vec::new();
    for &policy in &s.policies {
        let closed = policy.is_closed();
        let compact = closed && s.fallback != Fallback::RelaxClosed;
        let fp = sizes.sum(|k| footprint_bound(&d, compact, k));
        let search = if policy == PolicyId::SlurmTree {
            // per decision, twice (Slurm's test 0 and test 1): the free counts (`N L`), then at
            // most `min(k, R)` leaf picks, each scanning and updating every switch (`R L`); EASY
            // asks the policy itself for every feasibility probe (see below)
            let per = slurm_tree_steps(&d, kmax);
            let mut s_slurm = decisions * per;
            if stream && s.workload.backfill == Backfill::Easy {
                let probes = 2.0 * (n.min(d.nodes) + 1.0).log2().ceil() + 3.0;
                s_slurm += (2.0 * n + 1.0) * probes * per;
            }
            s_slurm
        } else if !closed {
            n * d.nodes
        } else if policy == PolicyId::ClosedMinNaive {
            // the naive rescan is not counted: it has its own limit (MAX_NAIVE_WORK)
            0.0
        } else {
            match d.mesh {
                Some((w, h)) => {
                    let c = search_work_bound(w, h, w, h) as f64;
                    // per change: one failed search and one table (4 steps a cell); per
                    // placement: the searches that succeed; per decision: listing the shapes
                    let mut s_mesh = versions * (2.0 * c + 4.0 * d.nodes)
                        + n * 2.0 * c
                        + decisions * (2.0 * kmax.sqrt().ceil() + 8.0);
                    if s.fallback == Fallback::RelaxClosed {
                        let side = (w + h) as f64;
                        s_mesh += n * relax_closed_steps(side);
                    }
                    s_mesh
                }
                None => decisions * 4.0 * (d.nodes + d.routers),
            }
        };
        // EASY with a closed policy: each reservation (at most one per new queue head and one per
        // job ending before its walltime, so `2 n + 1`) releases and restores up to every running
        // job (`R <= min(n, nodes)`) and gallops then bisects over their end groups, building a
        // feasibility table (the cost of a failed search) for each probe: at most
        // `2 ceil(log2(R + 1)) + 3` tables and `2 (nodes + routers)` node and router updates.
        let easy_closed = stream
            && s.workload.backfill == Backfill::Easy
            && closed
            && policy != PolicyId::ClosedMinNaive;
        let search = if easy_closed {
            let r = n.min(d.nodes);
            let probes = 2.0 * (r + 1.0).log2().ceil() + 3.0;
            let table = match d.mesh {
                Some((w, h)) => 2.0 * search_work_bound(w, h, w, h) as f64 + 4.0 * d.nodes,
                None => 4.0 * (d.nodes + d.routers),
            };
            search + (2.0 * n + 1.0) * (probes * table + 2.0 * (d.nodes + d.routers))
        } else {
            search
        };
        // traffic at start, the sweep's start and end, and either the region at commit and
        // release (closed) or the final router load of jobs still running (the others)
        let sim_passes = if closed { 3.0 } else { 2.0 };
        // on a tree, each footprint also sorts its ids (`tree_footprint_sort`)
        let sorts = match d.mesh {
            Some(_) => 0.0,
            None => (sim_passes + 2.0) * sizes.sum(|k| tree_footprint_sort(k, d.levels)),
        };
        // EASY with a list policy: a feasibility summary (`easy::Fit::of`, a scan of the nodes
        // and routers) of the machine as it is and one with the reservation held, per release
        // (at most one per job end and new head, `2 n + 1`)
        let easy_list = stream
            && s.workload.backfill == Backfill::Easy
            && !closed
            && s.workload.backfill_depth() > 0;
        let search = search
            + sorts
            + if easy_list {
                (2.0 * n + 1.0) * 2.0 * (d.nodes + d.routers)
            } else {
                0.0
            };
        policies.push(PolicyEstimate {
            policy,
            route_steps: (sim_passes + 2.0) * fp,
            search_steps: search,
            sim_route_steps: sim_passes * fp,
            contention_work: contention_work(s),
        });
    }
    // memory: report structures and text (the byte cap, about 5 times over), per job state
    // (job, outcome, events, node lists and reserved nodes), per node/router/link arrays, one
    // footprint being built, running jobs' sweep marks
    let held = sizes.sum(|k| {
        let k = k as f64;
        match d.mesh {
            Some((w, h)) => d
                .nodes
                .min(k + (w + h) as f64 + 4.0 * k.sqrt().ceil() + 4.0),
            None => d.nodes.min(2.0 * k),
        }
    });
    let cap = super::report::REPORT_BYTE_CAP as f64;
    let marks = policies
        .iter()
        .map(|p| p.route_steps / 4.0)
        .fold(0.0, f64::max)
        / 8.0;
    // the contention model: the platform (per policy a copy) and one simulation's per-link arrays
    let netsim = if s.contention.is_some() {
        NETSIM_LINK_BYTES * 2.0 * d.links
    } else {
        0.0
    };
    let memory = 5.0 * cap
        + netsim
        + marks
        + n * 300.0
        + 4.0 * held
        + 48.0 * (d.nodes + d.routers + d.links)
        + 8.0 * (d.routers + d.links);
    Estimate { policies, memory }
}

/// The contention model's work in one policy's run: at most its share of
/// [`super::runtime::BUDGET`] (the model stops before passing it), 0 without the option.
pub fn contention_work(s: &AllocScenario) -> f64 {
    if s.contention.is_none() {
        return 0.0;
    }
    (super::runtime::BUDGET / s.policies.len().max(1) as u64) as f64
}

/// Most placement decisions of a run of `jobs` jobs: one per job for a set; for a stream, each
/// scheduling pass (at most one per arrival or end, `2 jobs + 1`) tries the queue's head and,
/// with EASY, up to `depth` queued jobs, besides the tries that start a job.
pub fn decisions_bound(s: &AllocScenario, jobs: usize) -> f64 {
    let n = jobs as f64;
    if s.workload.kind == WorkloadKind::Set {
        return n;
    }
    let depth = if s.workload.backfill == Backfill::Easy {
        s.workload.backfill_depth() as f64
    } else {
        0.0
    };
    n + (2.0 * n + 1.0) * (1.0 + depth)
}

/// The job sizes (nodes) the admission estimate sees, for a scenario whose workload fields are
/// valid.
pub fn sizes_of(s: &AllocScenario) -> Sizes {
    let cores = s.system.cores_per_node as u64;
    let w = &s.workload;
    match w.kind {
        WorkloadKind::Generated => Sizes::Drawn {
            count: w.count.unwrap_or(0),
            lo: w.min_tasks(),
            hi: w.max_tasks(),
            dist: w.size_distribution(),
            cores: s.system.cores_per_node,
        },
        WorkloadKind::Swf => Sizes::Exact(
            w.swf_log()
                .map(|log| {
                    w.swf_jobs(&log)
                        .iter()
                        .map(|j| j.processors.div_ceil(cores).min(u32::MAX as u64) as usize)
                        .collect()
                })
                .unwrap_or_default(),
        ),
        _ => Sizes::Exact(
            w.jobs
                .iter()
                .map(|j| j.tasks.div_ceil(cores) as usize)
                .collect(),
        ),
    }
}

/// Refuses, before running, a scenario whose fields are valid and whose estimate
/// ([`engine_estimate`]) is over the budget, or whose naive rescan is over its own limit
/// ([`crate::engine::MAX_SECONDS`], [`crate::engine::MAX_BYTES`]; `docs/format.md`, "Limits and
/// admission").
pub fn admit(s: &AllocScenario, topo: &Topology) -> Result<()> {
    let sizes = sizes_of(s);
    if let Some(i) = s
        .policies
        .iter()
        .position(|&p| p == PolicyId::ClosedMinNaive)
    {
        let naive = topo.nodes() as f64 * decisions_bound(s, sizes.count());
        if naive > MAX_NAIVE_WORK as f64 {
            return Err(ScenarioError::at(
                format!("policies[{i}]"),
                format!("refused before running: the naive rescan is a benchmark baseline limited to nodes x decisions <= {MAX_NAIVE_WORK} (here {naive:.1e}); use closed-min-best, which makes the same choices"),
            ));
        }
    }
    let est = estimate(s, topo, &sizes);
    let parts = est
        .policies
        .iter()
        .map(|p| format!("{} {:.1e}", p.policy.id(), p.steps()))
        .collect::<Vec<_>>()
        .join(", ");
    let total = crate::engine::Estimate::new(est.steps(), NS_PER_STEP, est.memory);
    let contention: f64 = est
        .policies
        .iter()
        .map(|p| CONTENTION_WORK_WEIGHT * p.contention_work)
        .sum();
    let without = crate::engine::Estimate::new(est.steps() - contention, NS_PER_STEP, 0.0);
    if contention > 0.0
        && total.admit("", "", "", "").is_err()
        && without.admit("", "", "", "").is_ok()
    {
        return total.admit(
            "contention",
            "steps",
            &format!("of which {contention:.1e} for the run time under contention (its budget); per policy: {parts}"),
            "use fewer policies, a smaller machine or fewer jobs, or leave the model off",
        );
    }
    total.admit(
        "workload",
        "steps",
        &format!("per policy: {parts}"),
        "use a smaller machine, fewer or smaller jobs, or fewer policies",
    )
}

/// The admission estimate of a scenario whose fields are valid ([`validate_fields`]): the
/// weighted steps of every policy at [`NS_PER_STEP`],
/// and the peak memory.
pub fn engine_estimate(s: &AllocScenario) -> Result<crate::engine::Estimate> {
    let topo = validate_fields(s)?;
    let est = estimate(s, &topo, &sizes_of(s));
    Ok(crate::engine::Estimate::new(
        est.steps(),
        NS_PER_STEP,
        est.memory,
    ))
}
