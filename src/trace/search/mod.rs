//! Searching the task-to-node assignments for the fastest predicted run.
//!
//! An assignment maps each of the `R` ranks to a distinct one of the `n` nodes (`R <= n`);
//! there are `n! / (n - R)!`. Three searches share one ranking ([`TopList`]):
//!
//! - [`exhaustive`]: every assignment replayed, the source's method.
//! - [`branch_and_bound`]: best-first over partial assignments (ranks in [`rank_order`]), each
//!   bounded by [`Bounds::partial`] (a relaxed replay) and, on long traces, first by two
//!   bounds that need no replay, [`RankBound`] and [`PathBound`]; a local search first gives
//!   incumbents to prune with.
//! - [`local_search`]: seeded hill climbing by swaps and moves, with restarts.
//!
//! # Identical nodes and the representative of a class of assignments
//! Two nodes are identical when they have the same ratio and the same links to and from every
//! other node, and the links between them are the same both ways ([`classes`]). Swapping two
//! identical nodes in an assignment changes no number of the replay, so both assignments have
//! bit-identical predicted times. The ranking therefore lists each class of such assignments
//! once, by its **representative**: taking the ranks in search order ([`rank_order`]), the
//! ranks placed on nodes of one class get that class's nodes smallest index first
//! ([`representative`]); `equivalents` says how many assignments the row stands for.
//!
//! # Identical ranks
//! Permutations of the ranks that leave the compiled trace unchanged leave every predicted
//! time unchanged too ([`symmetry`]). When some are found ([`Problem::searched`]), every
//! search looks only at assignments meeting [`symmetry::RankSymmetry::allows`], which keeps
//! at least one assignment of each class of equivalents: the answers and proofs are those of
//! the whole search, and the ranking lists only such assignments (`equivalents` still counts
//! identical nodes only).
//!
//! # Tie order
//! Rows are ordered by predicted time, then by the assignment (node index per rank, rank 0
//! first) lexicographically. Every search evaluates times with the same replay
//! ([`super::replay::Compiled::replay`]), so equal times are equal bits and the order is total
//! and the same for every search.
//!
//! # Work budget
//! Work is counted in replay steps (messages plus ranks per replay, bounds included). Branch
//! and bound and local search stop once `budget` steps are spent (checked after each replay,
//! so the count may pass it by one node's children); branch and bound also stops when its
//! open list would exceed [`MAX_OPEN_BYTES`]. Both replay the greedy assignment first whatever
//! the budget, so even a budget below one bound pass reports a real best time and a ranking.
//! Exhaustive search is admitted only when it fits the scenario's work limit and is never
//! stopped.

// Rank and node indices are ids here (peers, pairs, classes), not only positions in one array.
#![allow(clippy::needless_range_loop)]

mod branch_and_bound;
mod exhaustive;
mod local_search;
mod path_bound;
mod problem;
mod rank_bound;
mod ranking;
mod replay_bound;
pub mod symmetry;

pub use branch_and_bound::*;
pub use exhaustive::*;
pub use local_search::*;
pub use path_bound::*;
pub use problem::*;
pub use rank_bound::*;
pub use ranking::*;
pub use replay_bound::*;
