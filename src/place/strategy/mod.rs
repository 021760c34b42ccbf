//! Placement strategies: which free node each task of a job gets.
//!
//! Every strategy sees the machine only through [`Shape`] (the grid sides or the tree's
//! per-level arities, with SimGrid's node numbering) and the busy mask, and returns one host per
//! task, all distinct and all free (tested by a property test over random occupancy), or says
//! why it cannot place the job ([`Placement::NotPlaced`]: too few free nodes; Identity when
//! the job has no grid shape matching a free block).
//!
//! - [`simple`]: the first free nodes in numbering order;
//! - [`random`]: free nodes drawn at random from the seed;
//! - [`optimal`]: system topology only: the min-span window of free nodes along the generalized
//!   Hilbert curve (grids), the lowest switch with enough free nodes, fullest children first
//!   (trees);
//! - [`advanced`]: Optimal's nodes, a nearest-neighbour tree over them, and the task graph
//!   mapped onto it by recursive partitioning with our partitioner;
//! - [`identity`]: a GRID or CUBE job laid on a free block of the machine's own shape;
//! - `given`: the scenario's `placement`, as it is (the run checks it against the busy
//!   nodes; [`place`] itself has no placement to give and says so);
//! - [`mapped`] (ours): the best of the others' placements, a fold of a task grid onto the
//!   machine's sides ([`fold`]) and a dual recursive bipartitioning ([`bisect`]), improved by a
//!   swap-based local search ([`swap`]) on hop-bytes or link congestion, exact on small jobs
//!   ([`exhaustive`]).
//!
//! The source's quirks ([`Options::source_quirks`]): Simple and grid-Optimal shuffle the first
//! half of their chosen nodes before giving them to tasks in order, and 3D grids are ordered by
//! the power-of-two Hilbert curve ([`crate::topology::hilbert3d::hilbert3d_pow2`]).

pub mod advanced;
pub mod bisect;
pub mod bound;
pub mod exhaustive;
pub mod fold;
pub mod identity;
pub mod machine;
pub mod mapped;
pub mod optimal;
pub mod perturb;
pub mod random;
pub mod simple;
pub mod swap;

pub use machine::{curve_rank, Options, Shape};
pub use mapped::Objective;

use super::jobs::TaskGraph;
use crate::rng::Rng;

crate::params::choices! {
    /// The strategies.
    #[derive(PartialOrd, Ord)]
    pub enum StrategyId {
        Simple = ("simple", "Simple", "Simple (numbering order)"),
        Random = ("random", "Random"),
        Optimal = ("optimal", "Optimal", "Optimal (Hilbert window / lowest switch)"),
        Advanced = ("advanced", "Advanced", "Advanced (recursive partitioning)"),
        Identity = ("identity", "Identity", "Identity (shape-matched)"),
        Mapped = ("mapped", "Mapped (ours)", "Mapped (ours: best placement found, local search)"),
        /// The scenario's own `placement` (host of each task), checked, not computed.
        Given = ("given", "Given", "Given (the scenario's placement)"),
    }
}

/// The strategies of a scenario that names none: the source's five. Mapped (ours) is asked for
/// by name, so a scenario written before it existed runs as it did.
pub const DEFAULT: [StrategyId; 5] = [
    StrategyId::Simple,
    StrategyId::Random,
    StrategyId::Optimal,
    StrategyId::Advanced,
    StrategyId::Identity,
];

/// A strategy's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Placement {
    /// Host of each task.
    Placed(Vec<u32>),
    /// Why the job was not placed.
    NotPlaced(String),
}

/// Places `job` on the free nodes of `shape` (`busy[h]` true for a taken host) with `strategy`;
/// `net` is the same machine as the simulator routes it (Mapped's congestion objective).
///
/// # Complexity
/// Simple, Random: `O(N)`; Optimal: `O(N)` (grids, after the `O(N)` curve) or `O(N L)` (trees
/// of `L` levels); Advanced: Optimal plus `O(log P)` levels of partitioning of `P` tasks;
/// Identity: `O(N P)` at worst (each block position checked); Mapped: see [`mapped`].
pub fn place(
    strategy: StrategyId,
    shape: &Shape,
    net: &crate::netsim::Platform,
    busy: &[bool],
    job: &TaskGraph,
    opts: Options,
) -> Placement {
    let n = job.graph.n();
    let free = busy.iter().filter(|&&b| !b).count() as u64;
    if u64::from(n) > free {
        return Placement::NotPlaced(format!("{n} tasks but only {free} free nodes"));
    }
    let hosts = match strategy {
        StrategyId::Simple => {
            let mut h = simple::simple(busy, n);
            if opts.source_quirks {
                half_shuffle(&mut h, opts.seed);
            }
            h
        }
        StrategyId::Random => random::random(busy, n, opts.seed),
        StrategyId::Optimal => {
            let mut h = optimal::optimal(shape, busy, n, opts.source_quirks);
            if opts.source_quirks && matches!(shape, Shape::Grid { .. }) {
                half_shuffle(&mut h, opts.seed);
            }
            h
        }
        StrategyId::Advanced => advanced::advanced(shape, busy, job, opts),
        StrategyId::Identity => match identity::identity(shape, busy, job) {
            Ok(h) => h,
            Err(why) => return Placement::NotPlaced(why),
        },
        StrategyId::Mapped => mapped::mapped(shape, net, busy, job, opts),
        StrategyId::Given => {
            return Placement::NotPlaced("a given placement comes from the scenario".into())
        }
    };
    Placement::Placed(hosts)
}

/// The source's quirk: the first half of the chosen nodes shuffled (seeded Fisher-Yates).
pub fn half_shuffle(h: &mut [u32], seed: u64) {
    let half = h.len() / 2;
    let mut rng = Rng::seeded(seed ^ 0x5eed_4a1f);
    for i in (1..half).rev() {
        let j = rng.index_below(i + 1);
        h.swap(i, j);
    }
}
