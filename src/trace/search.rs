//! Searching the task-to-node assignments for the fastest predicted run (SPEC §4).
//!
//! An assignment maps each of the `R` ranks to a distinct one of the `n` nodes (`R <= n`);
//! there are `n! / (n - R)!`. Three searches share one ranking ([`TopList`]):
//!
//! - [`exhaustive`]: every assignment replayed, the source's method.
//! - [`branch_and_bound`]: best-first over partial assignments (ranks in [`rank_order`]), each
//!   bounded by [`Bounds::partial`]; a local search first gives incumbents to prune with.
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

use super::replay::{Compiled, LaneTables, Platform, Tables, LANES};
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
}

impl<'a> Problem<'a> {
    pub fn new(c: &'a Compiled, p: &'a Platform) -> Self {
        Problem {
            c,
            p,
            class: classes(p),
            order: rank_order(c),
        }
    }

    /// The representative of `assign` ([`representative`]).
    pub fn representative(&self, assign: &[u8]) -> Vec<u8> {
        representative(assign, &self.class, &self.order)
    }
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

/// Exhaustive search: every assignment in lexicographic order, replayed; representatives
/// enter the ranking.
///
/// # Complexity
/// `O(n!/(n-R)! x (M + R))`.
pub fn exhaustive(prob: &Problem, top: usize) -> Outcome {
    exhaustive_with(prob, top, true)
}

/// Exhaustive search, with `lanes` replaying [`LANES`] assignments per pass, else one at a
/// time (the plain baseline of the benchmark); both give the same outcome.
pub fn exhaustive_with(prob: &Problem, top: usize, lanes: bool) -> Outcome {
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
/// representative completions are replayed in one pass as leaves. The search is complete when no open node has a bound at most the threshold: every
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
/// At most `n!/(n-R)!` leaves; each node opened costs one replay per child, `O(M + R + n^2)`.
pub fn branch_and_bound(prob: &Problem, top: usize, budget: u64) -> Outcome {
    let c = prob.c;
    let (r, n) = (c.ranks, prob.p.n);
    let mut list = TopList::new(top);
    let mut stats = Stats::default();
    local_search(prob, 1, 0, budget / 10, &mut list, &mut stats);
    let mut b = Bounds::new(c, prob.p);
    // arena of partial assignments; heap of (bound, depth rank, sequence, arena offset)
    let mut arena: Vec<u8> = vec![FREE; r];
    let mut heap: BinaryHeap<Reverse<(u64, u32, u64, u32)>> = BinaryHeap::new();
    let root_bound = b.partial(&arena);
    stats.bound_replays += 1;
    stats.visited += 1;
    stats.steps += c.steps();
    let mut seq = 0u64;
    heap.push(Reverse((root_bound.to_bits(), r as u32, seq, 0)));
    let entry_bytes = std::mem::size_of::<Reverse<(u64, u32, u64, u32)>>() + r;
    let mut stop = Stop::Complete;
    let mut child = vec![FREE; r];
    let mut lanes = LaneTables::new(r);
    let mut lane_t = vec![0.0f64; r * LANES];
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
        let depth = prob.order.iter().take_while(|&&x| child[x] != FREE).count();
        let x = prob.order[depth];
        let mut used = [false; 256];
        for &u in &child {
            if u != FREE {
                used[u as usize] = true;
            }
        }
        // a subtree of at most LANES completions costs one pass: replay them all as leaves
        if assignments(n - depth, r - depth) <= LANES as f64 {
            let mut leaves = Vec::new();
            completions(prob, &mut child, depth, &mut leaves);
            for chunk in leaves.chunks(LANES) {
                let times = b.partial_lanes(chunk, &mut lanes, &mut lane_t);
                for (k, leaf) in chunk.iter().enumerate() {
                    stats.visited += 1;
                    stats.replays += 1;
                    stats.steps += c.steps();
                    list.insert(times[k], leaf);
                }
            }
            continue;
        }
        let mut tried_class = vec![false; n];
        let mut kids: Vec<Vec<u8>> = Vec::new();
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
        // all children replayed LANES at a time, then handled in order as one at a time
        for chunk in kids.chunks(LANES) {
            let times = b.partial_lanes(chunk, &mut lanes, &mut lane_t);
            for (k, kid) in chunk.iter().enumerate() {
                let v = times[k];
                stats.visited += 1;
                stats.steps += c.steps();
                if depth + 1 == r {
                    stats.replays += 1;
                    list.insert(v, kid);
                } else {
                    stats.bound_replays += 1;
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

/// Local search alone: no proof; the lower bound is the root's relaxed replay.
pub fn local_only(prob: &Problem, top: usize, budget: u64, restarts: u32, seed: u64) -> Outcome {
    let mut list = TopList::new(top);
    let mut stats = Stats::default();
    let mut b = Bounds::new(prob.c, prob.p);
    let root = b.partial(&vec![FREE; prob.c.ranks]);
    stats.bound_replays += 1;
    stats.steps += prob.c.steps();
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
