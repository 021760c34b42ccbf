//! Placement strategies (SPEC §2, "Strategies"): which free node each task of a job gets.
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
//! - [`identity`]: a GRID or CUBE job laid on a free block of the machine's own shape.
//!
//! The source's quirks ([`Options::source_quirks`]): Simple and grid-Optimal shuffle the first
//! half of their chosen nodes before giving them to tasks in order, and 3D grids are ordered by
//! the power-of-two Hilbert curve ([`crate::topology::hilbert3d::hilbert3d_pow2`]).

pub mod advanced;
pub mod identity;
pub mod optimal;
pub mod random;
pub mod simple;

use super::jobs::TaskGraph;
use crate::rng::Rng;

/// The machine as the strategies see it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shape {
    /// A torus or mesh `dims[0] x dims[1] x dims[2]` (`dims[2] = 1` in 2D); node
    /// `x + dims[0] * (y + dims[1] * z)`.
    Grid { dims: [u32; 3], wrap: bool },
    /// A k-ary n-tree: `down[l]` children per switch of level `l` (level 0 holds the hosts);
    /// hosts `[j * B, (j + 1) * B)` lie under the same level-`l` switch group, `B` the product
    /// of `down[0..=l]`.
    Tree { down: Vec<u32> },
}

impl Shape {
    /// Number of hosts.
    pub fn hosts(&self) -> u32 {
        match self {
            Shape::Grid { dims, .. } => dims[0] * dims[1] * dims[2],
            Shape::Tree { down } => down.iter().product(),
        }
    }
    /// Hops between hosts `a` and `b` of a grid by dimension-order routing (the shorter way
    /// around each ring of a torus).
    pub fn grid_hops(dims: [u32; 3], wrap: bool, a: u32, b: u32) -> u32 {
        let (ca, cb) = (Self::coords(dims, a), Self::coords(dims, b));
        (0..3)
            .map(|k| {
                let d = ca[k].abs_diff(cb[k]);
                if wrap {
                    d.min(dims[k] - d)
                } else {
                    d
                }
            })
            .sum()
    }
    /// Coordinates of host `h` on a grid.
    pub fn coords(dims: [u32; 3], h: u32) -> [u32; 3] {
        [
            h % dims[0],
            (h / dims[0]) % dims[1],
            h / (dims[0] * dims[1]),
        ]
    }
}

crate::params::choices! {
    /// The strategies.
    #[derive(PartialOrd, Ord)]
    pub enum StrategyId {
        Simple = ("simple", "Simple", "Simple (numbering order)"),
        Random = ("random", "Random"),
        Optimal = ("optimal", "Optimal", "Optimal (Hilbert window / lowest switch)"),
        Advanced = ("advanced", "Advanced", "Advanced (recursive partitioning)"),
        Identity = ("identity", "Identity", "Identity (shape-matched)"),
    }
}

/// Options shared by the strategies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Options {
    pub seed: u64,
    /// Reproduce the source's half shuffle and power-of-two 3D Hilbert curve.
    pub source_quirks: bool,
}

/// A strategy's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Placement {
    /// Host of each task.
    Placed(Vec<u32>),
    /// Why the job was not placed.
    NotPlaced(String),
}

/// Places `job` on the free nodes of `shape` (`busy[h]` true for a taken host) with `strategy`.
///
/// # Complexity
/// Simple, Random: `O(N)`; Optimal: `O(N)` (grids, after the `O(N)` curve) or `O(N L)` (trees
/// of `L` levels); Advanced: Optimal plus `O(log P)` levels of partitioning of `P` tasks;
/// Identity: `O(N P)` at worst (each block position checked).
pub fn place(
    strategy: StrategyId,
    shape: &Shape,
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

/// Positions of every host along the machine's curve: the generalized Hilbert curve on grids
/// (or the source's power-of-two curve in 3D with `quirks`), the numbering on trees.
pub fn curve_rank(shape: &Shape, quirks: bool) -> Vec<u32> {
    match shape {
        Shape::Grid { dims, .. } if dims[2] == 1 => {
            crate::topology::hilbert::hilbert_rank(dims[0] as usize, dims[1] as usize)
        }
        Shape::Grid { dims, .. } => {
            if quirks {
                let c = crate::topology::hilbert3d::hilbert3d_pow2(dims[0], dims[1], dims[2]);
                let mut rank = vec![0u32; c.len()];
                for (k, p) in c.iter().enumerate() {
                    rank[(p[0] + dims[0] * (p[1] + dims[1] * p[2])) as usize] = k as u32;
                }
                rank
            } else {
                crate::topology::hilbert3d::hilbert3d_rank(dims[0], dims[1], dims[2])
            }
        }
        Shape::Tree { .. } => (0..shape.hosts()).collect(),
    }
}
