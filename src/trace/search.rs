//! Searching the task-to-node assignments for the fastest predicted run (SPEC §4).
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
//! open list would exceed [`MAX_OPEN_BYTES`]. Exhaustive search is admitted only when it fits
//! the scenario's work limit and is never stopped.

// Rank and node indices are ids here (peers, pairs, classes), not only positions in one array.
#![allow(clippy::needless_range_loop)]

use super::replay::{Compiled, LaneTables, PathProfile, Platform, Tables, LANES};
use crate::rng::Rng;
use std::cmp::Ordering;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Largest open list of branch and bound, bytes (assignments and heap entries).
pub const MAX_OPEN_BYTES: usize = 64 << 20;

/// Marks a rank not yet placed.
pub const FREE: u8 = u8::MAX;

/// An assignment and its predicted time.
#[derive(Debug, Clone, PartialEq)]
pub struct Ranked {
    pub time: f64,
    /// Node per rank.
    pub assign: Vec<u8>,
}

/// The total order of the ranking: time, then assignment lexicographically.
pub fn order(a: &Ranked, b: &Ranked) -> Ordering {
    a.time
        .total_cmp(&b.time)
        .then_with(|| a.assign.cmp(&b.assign))
}

/// The best `cap` representatives seen, in [`order`], without repeats.
#[derive(Debug, Clone)]
pub struct TopList {
    pub cap: usize,
    pub rows: Vec<Ranked>,
}

impl TopList {
    pub fn new(cap: usize) -> Self {
        TopList {
            cap: cap.max(1),
            rows: Vec::new(),
        }
    }

    /// Time of the last row when full (nothing slower can enter), else infinity.
    pub fn threshold(&self) -> f64 {
        if self.rows.len() >= self.cap {
            self.rows[self.rows.len() - 1].time
        } else {
            f64::INFINITY
        }
    }

    /// Inserts a representative unless present or not among the best `cap`.
    pub fn insert(&mut self, time: f64, assign: &[u8]) {
        if self.rows.len() >= self.cap {
            let last = &self.rows[self.rows.len() - 1];
            if time
                .total_cmp(&last.time)
                .then_with(|| assign.cmp(&last.assign[..]))
                != Ordering::Less
            {
                return;
            }
        }
        let probe = |r: &Ranked| {
            r.time
                .total_cmp(&time)
                .then_with(|| r.assign[..].cmp(assign))
        };
        match self.rows.binary_search_by(probe) {
            Ok(_) => {}
            Err(i) => {
                self.rows.insert(
                    i,
                    Ranked {
                        time,
                        assign: assign.to_vec(),
                    },
                );
                self.rows.truncate(self.cap);
            }
        }
    }

    pub fn best(&self) -> Option<&Ranked> {
        self.rows.first()
    }
}

/// Counters of a search.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Stats {
    /// Search-tree nodes bounded, or assignments evaluated.
    pub visited: u64,
    /// Exact replays.
    pub replays: u64,
    /// Relaxed replays (bounds).
    pub bound_replays: u64,
    /// Per-rank bounds ([`RankBound`]).
    pub rank_bounds: u64,
    /// Children not opened because their bound exceeded the ranking's threshold.
    pub pruned: u64,
    /// Replay steps spent.
    pub steps: u64,
}

/// Why a search stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    Complete,
    Budget,
    Memory,
}

impl Stop {
    pub fn id(self) -> &'static str {
        match self {
            Stop::Complete => "complete",
            Stop::Budget => "budget",
            Stop::Memory => "memory",
        }
    }
}

/// The result of a search.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub top: TopList,
    pub stats: Stats,
    pub stop: Stop,
    /// Whether the ranking's first row is proven the least time of all assignments.
    pub proven: bool,
    /// No assignment is faster than this.
    pub lower_bound: f64,
}

/// The problem: a compiled trace on a platform, with node classes and the rank order.
pub struct Problem<'a> {
    pub c: &'a Compiled,
    pub p: &'a Platform,
    /// Class of each node ([`classes`]).
    pub class: Vec<u32>,
    /// Ranks in search order ([`rank_order`]).
    pub order: Vec<usize>,
    /// Whether branch and bound uses [`RankBound`] and [`PathBound`] before replaying: by
    /// default when both together cost at most one replay ([`cheap_bounds_pay`]).
    pub cheap_bounds: bool,
}

impl<'a> Problem<'a> {
    pub fn new(c: &'a Compiled, p: &'a Platform) -> Self {
        Problem {
            c,
            p,
            class: classes(p),
            order: rank_order(c),
            cheap_bounds: cheap_bounds_pay(c, p),
        }
    }

    /// The representative of `assign` ([`representative`]).
    pub fn representative(&self, assign: &[u8]) -> Vec<u8> {
        representative(assign, &self.class, &self.order)
    }
}

/// Children bounded without replay after which branch and bound stops using those bounds
/// when fewer than one in 16 of them were cut by them or got a larger bound from them than
/// from their replay.
pub const CHEAP_TRIAL: u64 = 4096;

/// Replay steps one child of branch and bound may cost beyond its replay: a [`RankBound`]
/// and a [`PathBound`] with [`MAX_PATHS`] chains.
pub fn cheap_bound_steps(c: &Compiled, p: &Platform) -> u64 {
    (1 + MAX_PATHS as u64) * (c.ranks * p.n * (c.ranks + 1)) as u64
}

/// Whether the bounds without replay cost at most one replay ([`cheap_bound_steps`] at most
/// [`Compiled::steps`]): true for long traces, where they save replays; on short traces a
/// replay is cheaper than the tables.
pub fn cheap_bounds_pay(c: &Compiled, p: &Platform) -> bool {
    cheap_bound_steps(c, p) <= c.steps()
}

/// Classes of identical nodes: `class[u]` is the smallest node index identical to `u`.
/// Node `u` and `v` are identical when `ratio`, all links to and from every third node `w`
/// and the links `u -> v`, `v -> u` are equal (bitwise): then exchanging them is a symmetry of
/// the platform, and symmetries compose, so "identical" is an equivalence.
///
/// # Complexity
/// `O(n^3)`.
pub fn classes(p: &Platform) -> Vec<u32> {
    let n = p.n;
    let same = |u: usize, v: usize| -> bool {
        if p.ratio[u].to_bits() != p.ratio[v].to_bits() {
            return false;
        }
        let eq = |i: usize, j: usize| {
            p.a0[i].to_bits() == p.a0[j].to_bits() && p.a1[i].to_bits() == p.a1[j].to_bits()
        };
        if !eq(u * n + v, v * n + u) {
            return false;
        }
        (0..n)
            .filter(|&w| w != u && w != v)
            .all(|w| eq(u * n + w, v * n + w) && eq(w * n + u, w * n + v))
    };
    let mut class = vec![0u32; n];
    let mut reps: Vec<usize> = Vec::new();
    for u in 0..n {
        match reps.iter().find(|&&r| same(r, u)) {
            Some(&r) => class[u] = r as u32,
            None => {
                class[u] = u as u32;
                reps.push(u);
            }
        }
    }
    class
}

/// The search order of ranks: most computation first, then most bytes sent and received,
/// then rank index (placing heavy ranks first tightens the bound soonest).
pub fn rank_order(c: &Compiled) -> Vec<usize> {
    let r = c.ranks;
    let mut load = vec![0.0f64; r];
    let mut bytes = vec![0.0f64; r];
    for it in &c.items {
        load[it.src as usize] += it.cs;
        load[it.dst as usize] += it.cd;
        bytes[it.src as usize] += it.bytes;
        bytes[it.dst as usize] += it.bytes;
    }
    for x in 0..r {
        load[x] += c.tail[x];
    }
    let mut o: Vec<usize> = (0..r).collect();
    o.sort_by(|&a, &b| {
        load[b]
            .total_cmp(&load[a])
            .then(bytes[b].total_cmp(&bytes[a]))
            .then(a.cmp(&b))
    });
    o
}

/// The representative of an assignment's class: for each node class, the ranks placed on it,
/// taken in search order, get the class's nodes in increasing index order, smallest first.
pub fn representative(assign: &[u8], class: &[u32], order: &[usize]) -> Vec<u8> {
    let n = class.len();
    let mut next = vec![0usize; n]; // per class representative: how many of its nodes handed out
    let members: Vec<Vec<u8>> = (0..n)
        .map(|c| {
            (0..n)
                .filter(|&u| class[u] as usize == c)
                .map(|u| u as u8)
                .collect()
        })
        .collect();
    let mut out = assign.to_vec();
    for &x in order {
        let c = class[assign[x] as usize] as usize;
        out[x] = members[c][next[c]];
        next[c] += 1;
    }
    out
}

/// Assignments in all: `n! / (n - R)!` (as a float: it may exceed 2^64).
pub fn assignments(n: usize, r: usize) -> f64 {
    (0..r).fold(1.0, |acc, i| acc * (n - i) as f64)
}

/// Assignments one representative stands for: `prod over classes of P(size, used)`, where
/// `used` ranks sit on a class of `size` nodes.
pub fn equivalents(assign: &[u8], class: &[u32]) -> f64 {
    let n = class.len();
    let mut size = vec![0usize; n];
    for &c in class {
        size[c as usize] += 1;
    }
    let mut used = vec![0usize; n];
    for &u in assign {
        used[class[u as usize] as usize] += 1;
    }
    (0..n).fold(1.0, |acc, c| acc * assignments(size[c], used[c]))
}

/// Classes of assignments (distinct up to identical nodes): the ways to give each of `r`
/// labelled ranks a class, at most `size(c)` ranks per class.
pub fn distinct(class: &[u32], r: usize) -> f64 {
    let n = class.len();
    let mut sizes: Vec<usize> = Vec::new();
    for c in 0..n {
        let s = class.iter().filter(|&&x| x as usize == c).count();
        if s > 0 {
            sizes.push(s);
        }
    }
    let binom = |a: usize, b: usize| -> f64 {
        (0..b).fold(1.0, |acc, i| acc * (a - i) as f64 / (i + 1) as f64)
    };
    let mut ways = vec![0.0f64; r + 1];
    ways[0] = 1.0;
    for s in sizes {
        let mut nw = vec![0.0f64; r + 1];
        for j in 0..=r {
            if ways[j] == 0.0 {
                continue;
            }
            for k in 0..=s.min(r - j) {
                nw[j + k] += ways[j] * binom(j + k, k);
            }
        }
        ways = nw;
    }
    ways[r]
}

/// Relaxed replay parameters for partial assignments: the lower bound.
///
/// # The bound and why it is admissible
/// For a partial assignment (some ranks placed, the others free), [`Bounds::partial`] replays
/// the trace with each free rank's ratio replaced by the least ratio among the nodes left
/// free, and each message's `a0`, `a1` replaced by the least `a0` and the least `a1` over the
/// node pairs its ranks could still get (placed ranks keep their node; free ranks range over
/// the free nodes, two free ranks over distinct free nodes). In every completion of the
/// partial assignment, each ratio is at least its relaxed value, and each message costs
/// `max(0, a0 + a1 N) >= max(0, min a0 + (min a1) N)` since `N >= 0`. The replay's run time is
/// non-decreasing in every ratio and cost ([`super::replay`], "Monotonicity"), so the relaxed
/// run time is at most the run time of every completion: the bound never exceeds the best
/// completion (admissible), and equals the exact time once every rank is placed.
pub struct Bounds<'a> {
    pub c: &'a Compiled,
    pub p: &'a Platform,
    tab: Tables,
    scratch: Vec<f64>,
    row0: Vec<f64>,
    row1: Vec<f64>,
    col0: Vec<f64>,
    col1: Vec<f64>,
}

impl<'a> Bounds<'a> {
    pub fn new(c: &'a Compiled, p: &'a Platform) -> Self {
        Bounds {
            c,
            p,
            tab: Tables::new(c.ranks),
            scratch: vec![0.0; c.ranks],
            row0: vec![0.0; p.n],
            row1: vec![0.0; p.n],
            col0: vec![0.0; p.n],
            col1: vec![0.0; p.n],
        }
    }

    /// The exact run time of a complete assignment.
    pub fn exact(&mut self, assign: &[u8]) -> f64 {
        self.c.exact_tables(self.p, assign, &mut self.tab);
        self.c.replay(&self.tab, &mut self.scratch)
    }

    /// The lower bound of a partial assignment (`FREE` for ranks not placed); exact when
    /// complete.
    pub fn partial(&mut self, assign: &[u8]) -> f64 {
        self.relaxed_tables(assign);
        self.c.replay(&self.tab, &mut self.scratch)
    }

    /// [`Bounds::partial`] with the critical path of its replay
    /// ([`Compiled::critical_path`]); with a complete assignment, the exact replay's.
    pub fn partial_path(&mut self, assign: &[u8]) -> (f64, PathProfile) {
        self.relaxed_tables(assign);
        self.c.critical_path(&self.tab)
    }

    /// Fills the tables of the relaxed replay of `assign` (see [`Bounds`]).
    fn relaxed_tables(&mut self, assign: &[u8]) {
        let p = self.p;
        let n = p.n;
        let r = self.c.ranks;
        let mut used = [false; 256];
        for &u in assign {
            if u != FREE {
                used[u as usize] = true;
            }
        }
        let free: Vec<usize> = (0..n).filter(|&u| !used[u]).collect();
        let mut min_ratio = f64::INFINITY;
        for &u in &free {
            min_ratio = min_ratio.min(p.ratio[u]);
        }
        for x in 0..r {
            self.tab.ratio[x] = if assign[x] == FREE {
                min_ratio
            } else {
                p.ratio[assign[x] as usize]
            };
        }
        // least a0, a1 from each node to the free nodes and from the free nodes to each node
        for u in 0..n {
            let (mut r0, mut r1, mut c0, mut c1) =
                (f64::INFINITY, f64::INFINITY, f64::INFINITY, f64::INFINITY);
            for &v in &free {
                if v == u {
                    continue;
                }
                r0 = r0.min(p.a0[u * n + v]);
                r1 = r1.min(p.a1[u * n + v]);
                c0 = c0.min(p.a0[v * n + u]);
                c1 = c1.min(p.a1[v * n + u]);
            }
            self.row0[u] = r0;
            self.row1[u] = r1;
            self.col0[u] = c0;
            self.col1[u] = c1;
        }
        let (mut ff0, mut ff1) = (f64::INFINITY, f64::INFINITY);
        for &u in &free {
            ff0 = ff0.min(self.row0[u]);
            ff1 = ff1.min(self.row1[u]);
        }
        for &pr in &self.c.pairs {
            let (a, b) = (pr as usize / r, pr as usize % r);
            let (ua, ub) = (assign[a], assign[b]);
            let (x0, x1) = match (ua == FREE, ub == FREE) {
                (false, false) => {
                    let k = ua as usize * n + ub as usize;
                    (p.a0[k], p.a1[k])
                }
                (false, true) => (self.row0[ua as usize], self.row1[ua as usize]),
                (true, false) => (self.col0[ub as usize], self.col1[ub as usize]),
                (true, true) => (ff0, ff1),
            };
            self.tab.a0[pr as usize] = x0;
            self.tab.a1[pr as usize] = x1;
        }
    }

    /// Bounds (or exact times, for complete assignments) of up to [`LANES`] assignments in
    /// one pass ([`Compiled::replay_lanes`]); each result is bit-identical to
    /// [`Bounds::partial`] of the same assignment.
    pub fn partial_lanes(
        &mut self,
        assigns: &[Vec<u8>],
        lanes: &mut LaneTables,
        t: &mut [f64],
    ) -> [f64; LANES] {
        debug_assert!(!assigns.is_empty() && assigns.len() <= LANES);
        for l in 0..LANES {
            let a = &assigns[l.min(assigns.len() - 1)];
            self.relaxed_tables(a);
            lanes.set_lane(self.c, l, &self.tab);
        }
        let mut out = [0.0; LANES];
        self.c.replay_lanes(lanes, t, &mut out);
        out
    }
}

/// Relative margin by which [`RankBound`] lowers its value, so that rounding never lifts it
/// above a replayed time (see [`RankBound`], "Rounding").
pub const RANK_BOUND_MARGIN: f64 = 1e-7;
const KEEP: f64 = 1.0 - RANK_BOUND_MARGIN;

/// What one rank exchanges with one peer, in both directions.
#[derive(Debug, Clone, Copy)]
struct Peer {
    y: usize,
    /// Messages and bytes the rank sends to `y`.
    n_out: f64,
    b_out: f64,
    /// Messages and bytes it receives from `y`.
    n_in: f64,
    b_in: f64,
}

/// The per-rank bound: a lower bound that needs no replay.
///
/// # The bound and why it is admissible
/// In a replay a rank's clock only moves forward: each computation adds `d x ratio`, each
/// receive ends at `e = max(r, s) + c >= r + c`, and under rendezvous each send ends at
/// `e >= s + c` (under eager at `s`). So the end of rank `x` on node `u` is at least
/// `L(x, u) = comp(x) ratio(u) + sum over its peers y of out(x, y) + in(y, x)`, where `comp(x)` is
/// all its computation, `in(y, x) = max(0, k a0(v, u) + B a1(v, u))` for the `k` messages of
/// `B` bytes in all from `y` on node `v` (a sum of `max(0, a0 + a1 N_i)` is at least the
/// `max(0, .)` of the sum), and `out(x, y)` the same for its sends under rendezvous (0 under
/// eager). A peer not yet placed takes, for `a0` and `a1` separately, the least value over
/// the free nodes other than `u` (as [`Bounds`] does), which only lowers the terms.
///
/// For a partial assignment every completion gives each free rank `x` a distinct free node,
/// and its run time is at least every rank's `L`; so it is at least
/// `max(max over placed ranks of L, B)`, where `B` is the least over injective maps of the
/// free ranks into the free nodes of the largest `L` (the bottleneck assignment). We use
/// `max` of the least `L` of each free rank (each gets some node) and, when there are exactly
/// as many free nodes as free ranks, the least `L` on each free node (each node gets some
/// rank): both at most `B`. The **filter** [`RankBound::excludes`] decides `B > threshold`
/// exactly: no matching of the free ranks into free nodes using only pairs with `L <=
/// threshold` (augmenting paths).
///
/// # Rounding
/// A replayed time is computed with one rounding per `+`, `x` and `max` along the chain of
/// events that gives it, the bound with others; each is within a relative `(events + 3) x
/// 2^-53` of the real value, below `3e-10` for the 2,000,000 events a trace may have. The bound
/// is lowered by the relative [`RANK_BOUND_MARGIN`] (`1e-7`), far more than both errors, so it
/// never exceeds the replayed time of a completion.
///
/// # Complexity
/// `O(R^2 n)` per bound (the table of `L` over free ranks and free nodes), and as much for the
/// matching of the filter.
pub struct RankBound<'a> {
    p: &'a Platform,
    ranks: usize,
    eager: bool,
    comp: Vec<f64>,
    peers: Vec<Vec<Peer>>,
    // scratch: least a0/a1 from each node to a free node and from a free node to each node
    row0: Vec<f64>,
    row1: Vec<f64>,
    col0: Vec<f64>,
    col1: Vec<f64>,
    /// `L` (lowered by the margin) of free rank `i` (in `open`) on free node `j` (in `free`):
    /// `l[i * n + j]`.
    l: Vec<f64>,
    open: Vec<usize>,
    free: Vec<usize>,
    /// Largest `L` (lowered) of the placed ranks.
    placed_max: f64,
    // matching scratch
    match_node: Vec<usize>,
    seen: Vec<u32>,
    stamp: u32,
}

impl<'a> RankBound<'a> {
    pub fn new(c: &Compiled, p: &'a Platform) -> Self {
        let r = c.ranks;
        let mut comp = c.tail.clone();
        let mut cnt = vec![0.0f64; r * r];
        let mut bytes = vec![0.0f64; r * r];
        for it in &c.items {
            comp[it.src as usize] += it.cs;
            comp[it.dst as usize] += it.cd;
            cnt[it.pair as usize] += 1.0;
            bytes[it.pair as usize] += it.bytes;
        }
        let peers = (0..r)
            .map(|x| {
                (0..r)
                    .filter(|&y| y != x && (cnt[x * r + y] > 0.0 || cnt[y * r + x] > 0.0))
                    .map(|y| Peer {
                        y,
                        n_out: cnt[x * r + y],
                        b_out: bytes[x * r + y],
                        n_in: cnt[y * r + x],
                        b_in: bytes[y * r + x],
                    })
                    .collect()
            })
            .collect();
        let n = p.n;
        RankBound {
            p,
            ranks: r,
            eager: c.protocol == super::replay::Protocol::Eager,
            comp,
            peers,
            row0: vec![0.0; n],
            row1: vec![0.0; n],
            col0: vec![0.0; n],
            col1: vec![0.0; n],
            l: vec![0.0; r * n],
            open: Vec::with_capacity(r),
            free: Vec::with_capacity(n),
            placed_max: 0.0,
            match_node: vec![usize::MAX; n],
            seen: vec![0; n],
            stamp: 0,
        }
    }

    /// Replay steps one bound is counted as: `R x n x (R + 1)`, the terms of its table.
    pub fn steps(&self) -> u64 {
        (self.ranks * self.p.n * (self.ranks + 1)) as u64
    }

    /// `L(x, u)` with the current partial assignment `assign` (rows/cols filled).
    fn l_of(&self, assign: &[u8], x: usize, u: usize) -> f64 {
        let p = self.p;
        let n = p.n;
        let pos = |v: f64| if v > 0.0 { v } else { 0.0 };
        let mut sum = self.comp[x] * p.ratio[u];
        for q in &self.peers[x] {
            let (o0, o1, i0, i1) = if assign[q.y] == FREE {
                (self.row0[u], self.row1[u], self.col0[u], self.col1[u])
            } else {
                let v = assign[q.y] as usize;
                (
                    p.a0[u * n + v],
                    p.a1[u * n + v],
                    p.a0[v * n + u],
                    p.a1[v * n + u],
                )
            };
            if !self.eager && q.n_out > 0.0 {
                sum += pos(q.n_out * o0 + q.b_out * o1);
            }
            if q.n_in > 0.0 {
                sum += pos(q.n_in * i0 + q.b_in * i1);
            }
        }
        sum
    }

    /// Fills the table of `L` for `assign` and returns the bound (module doc of
    /// [`RankBound`]), lowered by the margin.
    pub fn bound(&mut self, assign: &[u8]) -> f64 {
        let p = self.p;
        let n = p.n;
        let mut used = [false; 256];
        for &u in assign {
            if u != FREE {
                used[u as usize] = true;
            }
        }
        self.free.clear();
        self.free.extend((0..n).filter(|&u| !used[u]));
        self.open.clear();
        self.open
            .extend((0..self.ranks).filter(|&x| assign[x] == FREE));
        for u in 0..n {
            let (mut r0, mut r1, mut c0, mut c1) =
                (f64::INFINITY, f64::INFINITY, f64::INFINITY, f64::INFINITY);
            for &v in &self.free {
                if v == u {
                    continue;
                }
                r0 = r0.min(p.a0[u * n + v]);
                r1 = r1.min(p.a1[u * n + v]);
                c0 = c0.min(p.a0[v * n + u]);
                c1 = c1.min(p.a1[v * n + u]);
            }
            // no other free node: no free peer can be there either (terms unused)
            self.row0[u] = if r0.is_finite() { r0 } else { 0.0 };
            self.row1[u] = if r1.is_finite() { r1 } else { 0.0 };
            self.col0[u] = if c0.is_finite() { c0 } else { 0.0 };
            self.col1[u] = if c1.is_finite() { c1 } else { 0.0 };
        }
        let mut placed_max = 0.0f64;
        for x in 0..self.ranks {
            if assign[x] != FREE {
                placed_max = placed_max.max(self.l_of(assign, x, assign[x] as usize) * KEEP);
            }
        }
        self.placed_max = placed_max;
        let (k, f) = (self.open.len(), self.free.len());
        let mut best = placed_max;
        let mut col_min = vec![f64::INFINITY; f];
        for i in 0..k {
            let x = self.open[i];
            let mut row_min = f64::INFINITY;
            for j in 0..f {
                let v = self.l_of(assign, x, self.free[j]) * KEEP;
                self.l[i * n + j] = v;
                row_min = row_min.min(v);
                col_min[j] = col_min[j].min(v);
            }
            best = best.max(row_min);
        }
        if k == f && k > 0 {
            for v in col_min {
                best = best.max(v);
            }
        }
        best
    }

    /// After [`RankBound::bound`] of the same assignment: whether every completion is
    /// slower than `threshold` by this bound, i.e. the free ranks cannot all get distinct
    /// free nodes with `L` (lowered) at most `threshold`. Also true when a placed rank's `L`
    /// is above it.
    pub fn excludes(&mut self, threshold: f64) -> bool {
        if self.placed_max > threshold {
            return true;
        }
        let (k, f, n) = (self.open.len(), self.free.len(), self.p.n);
        self.match_node[..f]
            .iter_mut()
            .for_each(|m| *m = usize::MAX);
        for i in 0..k {
            self.stamp = self.stamp.wrapping_add(1);
            if self.stamp == 0 {
                self.seen.iter_mut().for_each(|s| *s = 0);
                self.stamp = 1;
            }
            if !self.augment(i, threshold, n, f) {
                return true;
            }
        }
        false
    }

    /// Kuhn's augmenting path from free rank `i` over pairs with `L <= lim`.
    fn augment(&mut self, i: usize, lim: f64, n: usize, f: usize) -> bool {
        for j in 0..f {
            if self.l[i * n + j] > lim || self.seen[j] == self.stamp {
                continue;
            }
            self.seen[j] = self.stamp;
            let m = self.match_node[j];
            if m == usize::MAX || self.augment(m, lim, n, f) {
                self.match_node[j] = i;
                return true;
            }
        }
        false
    }
}

/// Least total cost of giving each of `rows` rows a distinct one of `cols` columns
/// (`rows <= cols`), cost `a[i * stride + j]`: the Hungarian method with potentials.
///
/// # Complexity
/// `O(rows^2 cols)`.
pub fn assignment_cost(a: &[f64], stride: usize, rows: usize, cols: usize) -> f64 {
    if rows == 0 {
        return 0.0;
    }
    let inf = f64::INFINITY;
    let mut u = vec![0.0f64; rows + 1];
    let mut v = vec![0.0f64; cols + 1];
    let mut p = vec![0usize; cols + 1];
    let mut way = vec![0usize; cols + 1];
    for i in 1..=rows {
        p[0] = i;
        let mut j0 = 0usize;
        let mut minv = vec![inf; cols + 1];
        let mut used = vec![false; cols + 1];
        loop {
            used[j0] = true;
            let i0 = p[j0];
            let mut delta = inf;
            let mut j1 = 0usize;
            for j in 1..=cols {
                if !used[j] {
                    let cur = a[(i0 - 1) * stride + j - 1] - u[i0] - v[j];
                    if cur < minv[j] {
                        minv[j] = cur;
                        way[j] = j0;
                    }
                    if minv[j] < delta {
                        delta = minv[j];
                        j1 = j;
                    }
                }
            }
            for j in 0..=cols {
                if used[j] {
                    u[p[j]] += delta;
                    v[j] -= delta;
                } else {
                    minv[j] -= delta;
                }
            }
            j0 = j1;
            if p[j0] == 0 {
                break;
            }
        }
        loop {
            let j1 = way[j0];
            p[j0] = p[j1];
            j0 = j1;
            if j0 == 0 {
                break;
            }
        }
    }
    (1..=cols)
        .filter(|&j| p[j] != 0)
        .map(|j| a[(p[j] - 1) * stride + j - 1])
        .sum()
}

/// The critical-path bound: lower bounds from chains of dependencies of earlier replays.
///
/// # The bound and why it is admissible
/// A chain of the replay ([`Compiled::critical_path`]) is a sequence of computations and
/// transfers each of which starts when the previous one ends; every replay, whatever the
/// assignment, ends no earlier than the chain's length under that assignment:
/// `sum over ranks x of w(x) ratio(node x) + sum over rank pairs of max(0, k a0 + B a1)` for the
/// chain's computation `w(x)` of each rank and its `k` messages of `B` bytes in all between
/// each ordered pair (a sum of `max(0, a0 + a1 N_i)` is at least the `max(0, .)` of the sum).
/// For a partial assignment, terms of placed ranks and of pairs of placed ranks are exact;
/// a pair of two free ranks takes the least `a0` and the least `a1` between distinct free
/// nodes; the terms of each free rank `x` on a free node `v` (its computation and its
/// messages with placed ranks) form a cost `C(x, v)`, and the least sum of `C` over injective
/// maps of the free ranks into the free nodes (an assignment problem,
/// [`assignment_cost`]) bounds them in every completion. The bound is the largest over the
/// kept chains, lowered by [`RANK_BOUND_MARGIN`] for rounding (as [`RankBound`]).
///
/// The chains kept: the critical path of the root's relaxed replay and of each new best
/// assignment found, at most [`MAX_PATHS`] (the latest replace the oldest but the root's).
///
/// # Complexity
/// `O(P (R^2 n + R^2 n))` per bound for `P` chains (costs, then the assignment problem).
pub struct PathBound<'a> {
    p: &'a Platform,
    ranks: usize,
    paths: Vec<PathProfile>,
    cost: Vec<f64>,
}

/// Chains kept by [`PathBound`].
pub const MAX_PATHS: usize = 4;

impl<'a> PathBound<'a> {
    pub fn new(c: &Compiled, p: &'a Platform) -> Self {
        PathBound {
            p,
            ranks: c.ranks,
            paths: Vec::new(),
            cost: vec![0.0; c.ranks * p.n],
        }
    }

    /// Keeps a chain (the oldest but the first is dropped beyond [`MAX_PATHS`]).
    pub fn add(&mut self, path: PathProfile) {
        if self.paths.len() >= MAX_PATHS {
            self.paths.remove(1);
        }
        self.paths.push(path);
    }

    /// Replay steps one bound is counted as: `R x n x (R + 1)` per chain.
    pub fn steps(&self) -> u64 {
        (self.paths.len() * self.ranks * self.p.n * (self.ranks + 1)) as u64
    }

    /// The bound of `assign` (`FREE` for ranks not placed); 0 without chains.
    pub fn bound(&mut self, assign: &[u8]) -> f64 {
        let p = self.p;
        let (n, r) = (p.n, self.ranks);
        let pos = |v: f64| if v > 0.0 { v } else { 0.0 };
        let mut used = [false; 256];
        for &u in assign {
            if u != FREE {
                used[u as usize] = true;
            }
        }
        let free: Vec<usize> = (0..n).filter(|&u| !used[u]).collect();
        let open: Vec<usize> = (0..r).filter(|&x| assign[x] == FREE).collect();
        let (mut ff0, mut ff1) = (f64::INFINITY, f64::INFINITY);
        for &u in &free {
            for &v in &free {
                if u != v {
                    ff0 = ff0.min(p.a0[u * n + v]);
                    ff1 = ff1.min(p.a1[u * n + v]);
                }
            }
        }
        let mut best = 0.0f64;
        for path in &self.paths {
            let mut fixed = 0.0f64;
            for x in 0..r {
                if assign[x] != FREE {
                    fixed += path.w[x] * p.ratio[assign[x] as usize];
                }
            }
            for a in 0..r {
                for b in 0..r {
                    let k = path.count[a * r + b];
                    if k == 0.0 {
                        continue;
                    }
                    let by = path.bytes[a * r + b];
                    match (assign[a] == FREE, assign[b] == FREE) {
                        (false, false) => {
                            let l = assign[a] as usize * n + assign[b] as usize;
                            fixed += pos(k * p.a0[l] + by * p.a1[l]);
                        }
                        (true, true) if ff0.is_finite() => fixed += pos(k * ff0 + by * ff1),
                        _ => {}
                    }
                }
            }
            for (i, &x) in open.iter().enumerate() {
                for (j, &v) in free.iter().enumerate() {
                    let mut s = path.w[x] * p.ratio[v];
                    for y in 0..r {
                        if assign[y] == FREE {
                            continue;
                        }
                        let u = assign[y] as usize;
                        let (k, by) = (path.count[x * r + y], path.bytes[x * r + y]);
                        if k > 0.0 {
                            s += pos(k * p.a0[v * n + u] + by * p.a1[v * n + u]);
                        }
                        let (k, by) = (path.count[y * r + x], path.bytes[y * r + x]);
                        if k > 0.0 {
                            s += pos(k * p.a0[u * n + v] + by * p.a1[u * n + v]);
                        }
                    }
                    self.cost[i * n + j] = s;
                }
            }
            let total = fixed + assignment_cost(&self.cost, n, open.len(), free.len());
            best = best.max(total);
        }
        best * KEEP
    }
}

/// Exhaustive search: every assignment in lexicographic order, replayed; representatives
/// enter the ranking.
///
/// # Complexity
/// `O(n!/(n-R)! x (M + R))`.
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
    let mut assign = vec![0u8; r];
    let mut used = vec![false; n];
    // iterative DFS over injective maps in lexicographic order
    let mut next = vec![0usize; r + 1];
    let mut depth = 0usize;
    let mut batch: Vec<Vec<u8>> = Vec::with_capacity(LANES);
    let mut lane_tab = LaneTables::new(r);
    let mut lane_t = vec![0.0f64; r * LANES];
    let mut flush = |batch: &mut Vec<Vec<u8>>, b: &mut Bounds, list: &mut TopList| {
        if batch.is_empty() {
            return;
        }
        let times = b.partial_lanes(batch, &mut lane_tab, &mut lane_t);
        for (k, a) in batch.iter().enumerate() {
            if prob.representative(a) == *a {
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
                if prob.representative(&assign) == assign {
                    list.insert(t, &assign);
                }
            }
            depth -= 1;
            used[assign[depth] as usize] = false;
            continue;
        }
        let mut u = next[depth];
        while u < n && used[u] {
            u += 1;
        }
        if u >= n {
            next[depth] = 0;
            if depth == 0 {
                break;
            }
            depth -= 1;
            used[assign[depth] as usize] = false;
            continue;
        }
        assign[depth] = u as u8;
        used[u] = true;
        next[depth] = u + 1;
        depth += 1;
        next[depth] = 0;
    }
    flush(&mut batch, &mut b, &mut list);
    let lb = list.best().map_or(0.0, |x| x.time);
    Outcome {
        top: list,
        stats,
        stop: Stop::Complete,
        proven: true,
        lower_bound: lb,
    }
}

/// The greedy start: ranks in search order (heaviest first) on nodes by increasing ratio
/// (ties by index).
pub fn greedy(prob: &Problem) -> Vec<u8> {
    let n = prob.p.n;
    let mut nodes: Vec<usize> = (0..n).collect();
    nodes.sort_by(|&a, &b| prob.p.ratio[a].total_cmp(&prob.p.ratio[b]).then(a.cmp(&b)));
    let mut assign = vec![0u8; prob.c.ranks];
    for (k, &x) in prob.order.iter().enumerate() {
        assign[x] = nodes[k] as u8;
    }
    assign
}

/// Local search: from the greedy start, then from `restarts - 1` random starts drawn from
/// `seed`, first-improvement hill climbing over swaps of two ranks' nodes and moves of one
/// rank to a free node (in a fixed order), until no neighbour is faster or `budget` steps are
/// spent. Every assignment evaluated is offered to `list` (as its representative).
///
/// # Complexity
/// `O(restarts x climbs x (R^2 + R n) x (M + R))`.
pub fn local_search(
    prob: &Problem,
    restarts: u32,
    seed: u64,
    budget: u64,
    list: &mut TopList,
    stats: &mut Stats,
) -> bool {
    let c = prob.c;
    let (r, n) = (c.ranks, prob.p.n);
    let mut b = Bounds::new(c, prob.p);
    let mut rng = Rng::seeded(seed);
    let eval = |a: &[u8], b: &mut Bounds, stats: &mut Stats, list: &mut TopList| -> f64 {
        let t = b.exact(a);
        stats.replays += 1;
        stats.visited += 1;
        stats.steps += c.steps();
        list.insert(t, &prob.representative(a));
        t
    };
    for k in 0..restarts.max(1) {
        if stats.steps >= budget {
            return false;
        }
        let mut cur = if k == 0 {
            greedy(prob)
        } else {
            let mut nodes: Vec<u8> = (0..n as u8).collect();
            for i in (1..n).rev() {
                let j = rng.below(i as u64 + 1) as usize;
                nodes.swap(i, j);
            }
            nodes[..r].to_vec()
        };
        let mut t = eval(&cur, &mut b, stats, list);
        'climb: loop {
            let mut used = [false; 256];
            for &u in &cur {
                used[u as usize] = true;
            }
            for i in 0..r {
                for j in i + 1..r {
                    if prob.class[cur[i] as usize] == prob.class[cur[j] as usize] {
                        continue;
                    }
                    if stats.steps >= budget {
                        return false;
                    }
                    cur.swap(i, j);
                    let t2 = eval(&cur, &mut b, stats, list);
                    if t2 < t {
                        t = t2;
                        continue 'climb;
                    }
                    cur.swap(i, j);
                }
                for u in 0..n {
                    if used[u] || prob.class[u] == prob.class[cur[i] as usize] {
                        continue;
                    }
                    if stats.steps >= budget {
                        return false;
                    }
                    let old = cur[i];
                    cur[i] = u as u8;
                    let t2 = eval(&cur, &mut b, stats, list);
                    if t2 < t {
                        t = t2;
                        continue 'climb;
                    }
                    cur[i] = old;
                }
            }
            break;
        }
    }
    true
}

/// Branch and bound, best first.
///
/// Search-tree nodes are partial assignments placing the first `d` ranks of [`rank_order`].
/// A node's children place the next rank on a free node; of each class of identical nodes
/// only the free node of smallest index is tried, which yields exactly the representatives
/// ([`representative`]). Children placing the last rank are complete: they are replayed
/// exactly and offered to the ranking. Other children are bounded ([`Bounds::partial`]) and
/// kept when the bound is at most the ranking's threshold (the time of its last row once it
/// holds `top` rows), then opened in order of least bound (then deeper first, then first
/// made). A node whose subtree holds at most [`LANES`] completions is not split: all its
/// representative completions are replayed in one pass as leaves. With
/// [`Problem::cheap_bounds`], every child (leaves too) first gets the larger of
/// [`RankBound::bound`] and [`PathBound::bound`] and is cut without replay when that is above
/// the threshold (or ties it and may not enter) or [`RankBound::excludes`] it; a kept child's
/// bound is the largest of the three. After [`CHEAP_TRIAL`] such children, if fewer than one
/// in 16 was cut by them or got a larger bound from them, they are no longer used. All are admissible, so cutting stays exact. The search
/// is complete when no open node has a bound at most the threshold: every
/// assignment not replayed then lies in a subtree whose bound, hence whose every completion,
/// is slower than the last row, so the ranking is exactly the `top` best representatives
/// and its first row is proven optimal. Stopped by the budget, the lower bound is the least
/// of the best time and the open nodes' bounds.
///
/// First, a [`local_search`] climb from the greedy start only (at most a tenth of the
/// budget) gives incumbents: best-first search opens the same nodes with or without them
/// (exactly those whose bound is below the answer), so more restarts would only cost work;
/// the incumbents matter when the budget stops the search, as its best found.
///
/// # Complexity
/// At most `n!/(n-R)!` leaves; each node opened costs one replay per child not cut by the
/// bounds without replay, `O(M + R + n^2)`, and with them `O(R^2 n)` per child.
pub fn branch_and_bound(prob: &Problem, top: usize, budget: u64) -> Outcome {
    branch_and_bound_with(prob, top, budget, &mut |_| {})
}

/// [`branch_and_bound`], calling `tick(steps spent)` after every node opened (for a progress
/// bar; the outcome does not depend on it).
pub fn branch_and_bound_with(
    prob: &Problem,
    top: usize,
    budget: u64,
    tick: &mut dyn FnMut(u64),
) -> Outcome {
    let c = prob.c;
    let (r, n) = (c.ranks, prob.p.n);
    let mut list = TopList::new(top);
    let mut stats = Stats::default();
    local_search(prob, 1, 0, budget / 10, &mut list, &mut stats);
    let mut b = Bounds::new(c, prob.p);
    let mut rb = RankBound::new(c, prob.p);
    let mut pb = PathBound::new(c, prob.p);
    // arena of partial assignments; heap of (bound, depth rank, sequence, arena offset)
    let mut arena: Vec<u8> = vec![FREE; r];
    let mut heap: BinaryHeap<Reverse<(u64, u32, u64, u32)>> = BinaryHeap::new();
    let (relaxed, root_path) = b.partial_path(&arena);
    if prob.cheap_bounds {
        pb.add(root_path);
    }
    let mut best_seen: Option<Vec<u8>> = None;
    let mut add_best_path =
        |list: &TopList, pb: &mut PathBound, b: &mut Bounds, stats: &mut Stats| {
            if let Some(best) = list.best() {
                if best_seen.as_deref() != Some(&best.assign[..]) {
                    best_seen = Some(best.assign.clone());
                    pb.add(b.partial_path(&best.assign).1);
                    stats.steps += c.steps();
                }
            }
        };
    let mut cheap = prob.cheap_bounds;
    // children the bounds without replay cut or whose bound they raised above the replay's
    let mut useful = 0u64;
    if cheap {
        add_best_path(&list, &mut pb, &mut b, &mut stats);
    }
    let mut root_bound = relaxed;
    stats.bound_replays += 1;
    stats.visited += 1;
    stats.steps += c.steps();
    if cheap {
        root_bound = root_bound.max(rb.bound(&arena)).max(pb.bound(&arena));
        stats.rank_bounds += 1;
        stats.steps += rb.steps() + pb.steps();
    }
    let mut seq = 0u64;
    heap.push(Reverse((root_bound.to_bits(), r as u32, seq, 0)));
    let entry_bytes = std::mem::size_of::<Reverse<(u64, u32, u64, u32)>>() + r;
    let mut stop = Stop::Complete;
    let mut child = vec![FREE; r];
    let mut lanes = LaneTables::new(r);
    let mut lane_t = vec![0.0f64; r * LANES];
    let mut kids: Vec<Vec<u8>> = Vec::new();
    let mut kid_rank: Vec<f64> = Vec::new();
    while let Some(&Reverse((bits, _, _, off))) = heap.peek() {
        let bound = f64::from_bits(bits);
        if bound > list.threshold() {
            break;
        }
        let off = off as usize;
        child.copy_from_slice(&arena[off..off + r]);
        if !may_enter(&list, bound, &child, n) {
            heap.pop();
            stats.pruned += 1;
            continue;
        }
        if stats.steps >= budget {
            stop = Stop::Budget;
            break;
        }
        if (arena.len() + heap.len() * entry_bytes) > MAX_OPEN_BYTES {
            stop = Stop::Memory;
            break;
        }
        heap.pop();
        tick(stats.steps);
        let depth = prob.order.iter().take_while(|&&x| child[x] != FREE).count();
        let x = prob.order[depth];
        let mut used = [false; 256];
        for &u in &child {
            if u != FREE {
                used[u as usize] = true;
            }
        }
        kids.clear();
        // a subtree of at most LANES completions costs one pass: replay them all as leaves
        let whole = assignments(n - depth, r - depth) <= LANES as f64;
        if whole {
            completions(prob, &mut child, depth, &mut kids);
        } else {
            let mut tried_class = vec![false; n];
            for u in 0..n {
                let cl = prob.class[u] as usize;
                if used[u] || tried_class[cl] {
                    continue;
                }
                tried_class[cl] = true;
                child[x] = u as u8;
                kids.push(child.clone());
            }
            child[x] = FREE;
        }
        let leaves = whole || depth + 1 == r;
        // the per-rank bound first: what it excludes needs no replay
        kid_rank.clear();
        let mut k = 0;
        if cheap {
            add_best_path(&list, &mut pb, &mut b, &mut stats);
        }
        for i in 0..kids.len() {
            stats.visited += 1;
            let mut v = 0.0;
            if cheap {
                v = rb.bound(&kids[i]).max(pb.bound(&kids[i]));
                stats.rank_bounds += 1;
                stats.steps += rb.steps() + pb.steps();
            }
            let th = list.threshold();
            if cheap && (!may_enter(&list, v, &kids[i], n) || (v <= th && rb.excludes(th))) {
                stats.pruned += 1;
                useful += 1;
                continue;
            }
            kids.swap(k, i);
            kid_rank.push(v);
            k += 1;
        }
        kids.truncate(k);
        // the others replayed LANES at a time, then handled in order as one at a time
        for (ci, chunk) in kids.chunks(LANES).enumerate() {
            let times = b.partial_lanes(chunk, &mut lanes, &mut lane_t);
            for (k, kid) in chunk.iter().enumerate() {
                stats.steps += c.steps();
                if leaves {
                    stats.replays += 1;
                    list.insert(times[k], kid);
                } else {
                    stats.bound_replays += 1;
                    if kid_rank[ci * LANES + k] > times[k] {
                        useful += 1;
                    }
                    let v = times[k].max(kid_rank[ci * LANES + k]);
                    if !may_enter(&list, v, kid, n) {
                        stats.pruned += 1;
                    } else {
                        seq += 1;
                        let o = arena.len() as u32;
                        arena.extend_from_slice(kid);
                        heap.push(Reverse((v.to_bits(), (r - depth - 1) as u32, seq, o)));
                    }
                }
            }
        }
        // bounds that rarely help cost more than they save (balanced traces): stop using them
        if cheap && stats.rank_bounds >= CHEAP_TRIAL && useful * 16 < stats.rank_bounds {
            cheap = false;
        }
    }
    let best = list.best().map_or(f64::INFINITY, |x| x.time);
    let lower_bound = match stop {
        Stop::Complete => best,
        _ => {
            let open = heap
                .peek()
                .map_or(f64::INFINITY, |Reverse((bits, ..))| f64::from_bits(*bits));
            best.min(open).max(root_bound.min(best))
        }
    };
    // proven: nothing is faster than the best (ties may remain unexplored when stopped)
    let proven = lower_bound >= best;
    Outcome {
        top: list,
        stats,
        stop,
        proven,
        lower_bound,
    }
}

/// Every representative completion of `assign`, whose ranks `order[..depth]` are placed:
/// the next rank in search order takes, of each class, its free node of smallest index.
fn completions(prob: &Problem, assign: &mut [u8], depth: usize, out: &mut Vec<Vec<u8>>) {
    if depth == assign.len() {
        out.push(assign.to_vec());
        return;
    }
    let n = prob.p.n;
    let x = prob.order[depth];
    let mut used = [false; 256];
    for &u in assign.iter() {
        if u != FREE {
            used[u as usize] = true;
        }
    }
    let mut tried = vec![false; n];
    for u in 0..n {
        let cl = prob.class[u] as usize;
        if used[u] || tried[cl] {
            continue;
        }
        tried[cl] = true;
        assign[x] = u as u8;
        completions(prob, assign, depth + 1, out);
    }
    assign[x] = FREE;
}

/// Whether a subtree with bound `lb` whose placed ranks are those of `partial` may still hold
/// an assignment that enters the ranking: its bound is below the threshold, or equal to it and
/// its lexicographically least completion (free ranks, by index, take the least free node
/// not yet taken) precedes the last row (a tie enters only when it precedes in [`order`]).
fn may_enter(list: &TopList, lb: f64, partial: &[u8], n: usize) -> bool {
    let th = list.threshold();
    if lb < th {
        return true;
    }
    if lb > th {
        return false;
    }
    let last = &list.rows[list.rows.len() - 1].assign;
    let mut used = [false; 256];
    for &u in partial {
        if u != FREE {
            used[u as usize] = true;
        }
    }
    let mut least = Vec::with_capacity(partial.len());
    for &u in partial {
        if u != FREE {
            least.push(u);
        } else {
            let v = (0..n).find(|&v| !used[v]).unwrap_or(0);
            used[v] = true;
            least.push(v as u8);
        }
    }
    least[..] < last[..]
}

/// Local search alone: no proof unless the best found meets the root's bound (the larger of
/// the relaxed replay and the per-rank bound), which is the lower bound.
pub fn local_only(prob: &Problem, top: usize, budget: u64, restarts: u32, seed: u64) -> Outcome {
    let mut list = TopList::new(top);
    let mut stats = Stats::default();
    let mut b = Bounds::new(prob.c, prob.p);
    let mut rb = RankBound::new(prob.c, prob.p);
    let empty = vec![FREE; prob.c.ranks];
    let root = b.partial(&empty).max(rb.bound(&empty));
    stats.bound_replays += 1;
    stats.rank_bounds += 1;
    stats.steps += prob.c.steps() + rb.steps();
    let done = local_search(prob, restarts, seed, budget, &mut list, &mut stats);
    let best = list.best().map_or(f64::INFINITY, |x| x.time);
    Outcome {
        top: list,
        stats,
        stop: if done { Stop::Complete } else { Stop::Budget },
        proven: root >= best,
        lower_bound: root.min(best),
    }
}
