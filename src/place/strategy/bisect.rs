//! Bisection start of Mapped (ours): dual recursive bipartitioning, in the manner of Scotch's
//! mapping (the facts carry over, not the code).
//!
//! The job's hosts (every free host when the job fills them, else Optimal's) and its tasks are
//! bisected together, breadth first, until every part holds one task and one host:
//! 1. **Hosts** along the machine's geometry: on a torus or mesh the longest side of the part's
//!    bounding box (on a torus the box that leaves out the widest empty arc of each ring, so a
//!    part may wrap around) is cut at its middle host, in the order of that side, then of the
//!    others; on a tree the part's hosts are cut between switch groups of the highest level they
//!    span, at the group boundary nearest the middle (one leaf switch's hosts are all alike:
//!    they are handed out in order).
//! 2. **Tasks**: the tasks of the part are bisected into two sets of exactly the two host
//!    halves' sizes, minimizing `d01 * cut + sum over tasks of the external cost`: `d01` the
//!    distance between the two halves' centres, a task's external cost the weight of each of its
//!    edges to tasks outside the part times the distance from the half to the centre of the
//!    part that task lies in now (breadth first, so every task has a part; Scotch's external
//!    gains: the bisection knows where its neighbours went). Candidates: our multilevel
//!    partitioner's bisection brought to the exact sizes (also the other way round when the
//!    halves are equal), and greedy graph growing of either side from the task that prefers it
//!    most (from a pseudo-peripheral task without outside edges); each refined by
//!    Fiduccia–Mattheyses passes of move pairs (one each way, so sizes stay exact) with exact
//!    integer gains; the least cost is kept (ties to the first).
//!
//! Distances: on a grid in half hops between the centres of the halves' bounding boxes (the
//! shorter way round a ring of a torus), on a tree the hops between the halves' first hosts, on
//! another network ([`Shape::Net`], cut as a tree's groups) the route length between the
//! halves' middle hosts.
//!
//! # Guarantees
//! Deterministic: integer costs, queues ordered by gain then task, the partitioner on the
//! scenario's seed. Every task gets its own host among the free ones (the hosts are cut, never
//! made).
//!
//! # Complexity
//! `O(log P)` levels, each bisecting the `P` tasks and `E` edges once in total: the
//! partitioner's `O((P + E) log P)` and at most [`PASSES`] refinement passes of `O((P + E) log
//! P)` for each of at most four candidates: about `O((P + E) log^2 P)`, plus the hosts'
//! `O(N log N)` sorts per level.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::advanced::rebalance;
use super::{optimal::optimal, Shape};
use crate::graph::Graph;
use crate::partition::analysis::pseudo_peripheral;
use crate::partition::{partition, Method, Options as PartOptions};
use crate::progress::NoProgress;

/// Most Fiduccia–Mattheyses passes per candidate bisection.
pub const PASSES: u32 = 8;

/// Fewest tasks a part needs for the partitioner's candidate.
const MIN_PARTITIONED: usize = 8;

/// The host of each task (`job.n()` at most the free hosts).
pub fn bisect(shape: &Shape, busy: &[bool], job: &Graph, seed: u64) -> Vec<u32> {
    let n = job.n();
    let free = busy.iter().filter(|&&b| !b).count();
    let mut hosts: Vec<u32> = if free == n as usize {
        (0..busy.len() as u32)
            .filter(|&h| !busy[h as usize])
            .collect()
    } else {
        optimal(shape, busy, n, false)
    };
    hosts.sort_unstable();
    let geo = Geometry::new(shape);
    let mut out = vec![0u32; n as usize];
    if n == 0 {
        return out;
    }
    let mut b = Bisector {
        g: job,
        geo: &geo,
        seed,
        local: vec![u32::MAX; n as usize],
        region_of: vec![0; n as usize],
        reps: vec![Rep::Host(hosts[0])],
    };
    let mut regions: Vec<(Vec<u32>, Vec<u32>)> = vec![((0..n).collect(), hosts)];
    while !regions.is_empty() {
        let mut next = Vec::new();
        for (tasks, mut hosts) in regions {
            if tasks.len() == 1 || geo.alike(&hosts) {
                for (&t, &h) in tasks.iter().zip(&hosts) {
                    out[t as usize] = h;
                }
                continue;
            }
            let (k, rep0, rep1) = geo.split(&mut hosts);
            let side = b.split_tasks(&tasks, k, rep0, rep1);
            let id = b.reps.len() as u32;
            b.reps.push(rep0);
            b.reps.push(rep1);
            let (mut t0, mut t1) = (Vec::with_capacity(k), Vec::new());
            for (&t, &s) in tasks.iter().zip(&side) {
                b.region_of[t as usize] = id + u32::from(s);
                if s == 0 {
                    t0.push(t);
                } else {
                    t1.push(t);
                }
            }
            let h1 = hosts.split_off(k);
            next.push((t0, hosts));
            next.push((t1, h1));
        }
        regions = next;
    }
    out
}

/// Where a part of the hosts lies: a grid point in doubled coordinates (the centre of its
/// bounding box), or a tree host.
#[derive(Debug, Clone, Copy)]
enum Rep {
    Point([u32; 3]),
    Host(u32),
}

enum Geometry {
    Grid {
        dims: [u32; 3],
        wrap: bool,
    },
    /// `size[l]`: hosts under one group of level `l`.
    Tree {
        size: Vec<u32>,
    },
    /// Another network: cut as a tree's groups, distances its route lengths.
    Net {
        size: Vec<u32>,
        hops: super::machine::HopTable,
        hosts: u32,
    },
}

impl Geometry {
    fn new(shape: &Shape) -> Geometry {
        match shape {
            Shape::Grid { dims, wrap } => Geometry::Grid {
                dims: *dims,
                wrap: *wrap,
            },
            Shape::Tree { .. } => Geometry::Tree {
                size: shape.group_sizes(),
            },
            Shape::Net { hops, .. } => Geometry::Net {
                size: shape.group_sizes(),
                hops: hops.clone(),
                hosts: shape.hosts(),
            },
        }
    }

    /// Distance between two parts: half hops on a grid, hops on a tree.
    fn dist(&self, a: Rep, b: Rep) -> i64 {
        match (self, a, b) {
            (Geometry::Grid { dims, wrap }, Rep::Point(p), Rep::Point(q)) => (0..3)
                .map(|k| {
                    let d = p[k].abs_diff(q[k]);
                    i64::from(if *wrap { d.min(2 * dims[k] - d) } else { d })
                })
                .sum(),
            (Geometry::Tree { size }, Rep::Host(x), Rep::Host(y)) => {
                if x == y {
                    return 0;
                }
                let mut l = 0;
                while x / size[l] != y / size[l] {
                    l += 1;
                }
                2 * (l as i64 + 1)
            }
            (Geometry::Net { hops, hosts, .. }, Rep::Host(x), Rep::Host(y)) => {
                i64::from(hops.get(*hosts, x, y))
            }
            _ => unreachable!("a part's place matches its machine"),
        }
    }

    /// Whether the hosts are all alike seen from outside (one leaf switch of a tree).
    fn alike(&self, hosts: &[u32]) -> bool {
        match self {
            Geometry::Grid { .. } | Geometry::Net { .. } => false,
            Geometry::Tree { size } => hosts.iter().all(|&h| h / size[0] == hosts[0] / size[0]),
        }
    }

    /// Reorders `hosts` (at least two) so that `hosts[..k]` and `hosts[k..]` are the two halves;
    /// returns `k` and the halves' places.
    fn split(&self, hosts: &mut [u32]) -> (usize, Rep, Rep) {
        match self {
            Geometry::Grid { dims, wrap } => {
                let coords = |h: u32| Shape::coords(*dims, h);
                // per side: where the part's box starts and how long it is
                let mut origin = [0u32; 3];
                let mut extent = [1u32; 3];
                for k in 0..3 {
                    let d = dims[k];
                    if d == 1 {
                        continue;
                    }
                    let mut occ = vec![false; d as usize];
                    for &h in hosts.iter() {
                        occ[coords(h)[k] as usize] = true;
                    }
                    if *wrap {
                        // the widest empty arc, the box the rest of the ring
                        let (mut best, mut best_end, mut run) = (0u32, 0u32, 0u32);
                        for i in 0..2 * d {
                            if occ[(i % d) as usize] {
                                run = 0;
                            } else {
                                run += 1;
                                if run > best && run <= d {
                                    best = run;
                                    best_end = (i + 1) % d;
                                }
                            }
                        }
                        origin[k] = if best == 0 { 0 } else { best_end };
                        extent[k] = d - best;
                    } else {
                        let lo = occ.iter().position(|&o| o).unwrap_or(0) as u32;
                        let hi = occ.iter().rposition(|&o| o).unwrap_or(0) as u32;
                        origin[k] = lo;
                        extent[k] = hi - lo + 1;
                    }
                }
                let rot = |h: u32| -> [u32; 3] {
                    let c = coords(h);
                    [0, 1, 2].map(|k| (c[k] + dims[k] - origin[k]) % dims[k])
                };
                // the longest side first (ties to the lowest), then the others, longest first
                let mut order = [0usize, 1, 2];
                order.sort_by_key(|&k| (Reverse(extent[k]), k));
                hosts.sort_unstable_by_key(|&h| {
                    let r = rot(h);
                    ([r[order[0]], r[order[1]], r[order[2]]], h)
                });
                let k = hosts.len() / 2;
                let centre = |part: &[u32]| -> Rep {
                    let mut lo = [u32::MAX; 3];
                    let mut hi = [0u32; 3];
                    for &h in part {
                        let r = rot(h);
                        for j in 0..3 {
                            lo[j] = lo[j].min(r[j]);
                            hi[j] = hi[j].max(r[j]);
                        }
                    }
                    Rep::Point([0, 1, 2].map(|j| (2 * origin[j] + lo[j] + hi[j]) % (2 * dims[j])))
                };
                (k, centre(&hosts[..k]), centre(&hosts[k..]))
            }
            Geometry::Tree { size } => {
                let k = group_cut(size, hosts);
                (k, Rep::Host(hosts[0]), Rep::Host(hosts[k]))
            }
            Geometry::Net { size, .. } => {
                let k = group_cut(size, hosts);
                let len = hosts.len();
                (
                    k,
                    Rep::Host(hosts[k / 2]),
                    Rep::Host(hosts[k + (len - k) / 2]),
                )
            }
        }
    }
}

/// Sorts `hosts` and cuts them between the groups of the highest level they span, at the
/// boundary nearest the middle (the middle when they lie in one lowest group).
fn group_cut(size: &[u32], hosts: &mut [u32]) -> usize {
    hosts.sort_unstable();
    let len = hosts.len();
    for &s in size.iter().rev().skip(1) {
        let cuts = (1..len).filter(|&i| hosts[i] / s != hosts[i - 1] / s);
        if let Some(c) = cuts.min_by_key(|&i| (i.abs_diff(len / 2), i)) {
            return c;
        }
    }
    len / 2
}

struct Bisector<'a> {
    g: &'a Graph,
    geo: &'a Geometry,
    seed: u64,
    /// Scratch: task -> index in the part being bisected, `u32::MAX` outside it.
    local: Vec<u32>,
    /// The part each task lies in now (index into `reps`).
    region_of: Vec<u32>,
    reps: Vec<Rep>,
}

/// A part's tasks as a local graph with their external costs.
struct Sub {
    xadj: Vec<usize>,
    adj: Vec<u32>,
    wgt: Vec<i64>,
    /// External cost of each task in half 1 minus in half 0.
    ext: Vec<i64>,
    d01: i64,
}

impl Sub {
    fn n(&self) -> usize {
        self.ext.len()
    }

    fn cost(&self, side: &[u8]) -> i64 {
        let mut c = 0;
        for i in 0..self.n() {
            if side[i] == 1 {
                c += self.ext[i];
            }
            for j in self.xadj[i]..self.xadj[i + 1] {
                let u = self.adj[j] as usize;
                if i < u && side[i] != side[u] {
                    c += self.d01 * self.wgt[j];
                }
            }
        }
        c
    }
}

/// A bisection in refinement: sides, internal weight to each side, gains of the unlocked tasks
/// in a max-heap per side (largest gain, then lowest task, first). The heaps are lazy: a gain
/// change pushes a new entry and leaves the old one, which [`State::top`] drops when it comes
/// up (an entry is current when its task is unlocked, on that side, with that gain). Unlocked
/// tasks never change side and the heaps are refilled with every unlocked task of their side,
/// so the current entries are exactly those of an ordered set of every unlocked task, and the
/// pops the same as from one.
struct State<'s> {
    sub: &'s Sub,
    side: Vec<u8>,
    to: [Vec<i64>; 2],
    gain: Vec<i64>,
    locked: Vec<bool>,
    queue: [BinaryHeap<(i64, Reverse<u32>)>; 2],
    count: [usize; 2],
}

impl<'s> State<'s> {
    fn new(sub: &'s Sub, side: Vec<u8>) -> State<'s> {
        let n = sub.n();
        let mut to = [vec![0i64; n], vec![0i64; n]];
        let mut count = [0usize; 2];
        for i in 0..n {
            count[side[i] as usize] += 1;
            for j in sub.xadj[i]..sub.xadj[i + 1] {
                to[side[sub.adj[j] as usize] as usize][i] += sub.wgt[j];
            }
        }
        let mut s = State {
            sub,
            side,
            to,
            gain: vec![0; n],
            locked: vec![false; n],
            queue: [BinaryHeap::new(), BinaryHeap::new()],
            count,
        };
        for i in 0..n {
            s.gain[i] = s.gain_of(i);
        }
        s
    }

    /// Cost decrease of moving task `i` to the other side.
    fn gain_of(&self, i: usize) -> i64 {
        let d = self.sub.d01 * (self.to[1][i] - self.to[0][i]) - self.sub.ext[i];
        if self.side[i] == 0 {
            d
        } else {
            -d
        }
    }

    fn fill(&mut self, sides: &[usize]) {
        let mut entries = [Vec::new(), Vec::new()];
        for i in 0..self.sub.n() {
            if !self.locked[i] && sides.contains(&(self.side[i] as usize)) {
                entries[self.side[i] as usize].push((self.gain[i], Reverse(i as u32)));
            }
        }
        self.queue = entries.map(BinaryHeap::from);
    }

    /// Moves `i` to the other side, updating its unlocked neighbours' gains.
    fn flip(&mut self, i: usize) {
        let (from, to) = (self.side[i] as usize, 1 - self.side[i] as usize);
        self.side[i] = to as u8;
        self.count[from] -= 1;
        self.count[to] += 1;
        self.gain[i] = -self.gain[i];
        let sub = self.sub;
        for j in sub.xadj[i]..sub.xadj[i + 1] {
            let u = sub.adj[j] as usize;
            self.to[from][u] -= sub.wgt[j];
            self.to[to][u] += sub.wgt[j];
            let g = self.gain_of(u);
            if !self.locked[u] && g != self.gain[u] {
                self.queue[self.side[u] as usize].push((g, Reverse(u as u32)));
            }
            self.gain[u] = g;
        }
    }

    /// The unlocked task of largest gain on side `s` (the lowest of equal gains) and its gain;
    /// drops the stale entries above it.
    fn top(&mut self, s: usize) -> Option<(i64, u32)> {
        while let Some(&(g, Reverse(u))) = self.queue[s].peek() {
            let ui = u as usize;
            if !self.locked[ui] && self.side[ui] as usize == s && self.gain[ui] == g {
                return Some((g, u));
            }
            self.queue[s].pop();
        }
        None
    }

    /// Takes the unlocked task of largest gain on side `s`, locks and moves it; its gain.
    fn take(&mut self, s: usize) -> Option<(usize, i64)> {
        let (g, i) = self.top(s)?;
        self.queue[s].pop();
        self.locked[i as usize] = true;
        self.flip(i as usize);
        Some((i as usize, g))
    }

    /// Greedy graph growing: every task on side `1 - p` but `seed`, then the best-gain task
    /// moved to side `p` until it holds `target`.
    fn grow(sub: &'s Sub, seed: usize, p: usize, target: usize) -> State<'s> {
        let mut s = State::new(sub, vec![1 - p as u8; sub.n()]);
        s.fill(&[1 - p]);
        s.locked[seed] = true;
        s.flip(seed);
        while s.count[p] < target {
            s.take(1 - p);
        }
        s
    }

    /// Fiduccia–Mattheyses passes of move pairs (sizes stay exact); the best prefix of each
    /// pass kept; stops when a pass gains nothing.
    fn refine(&mut self) {
        let n = self.sub.n();
        for _ in 0..PASSES {
            self.locked.iter_mut().for_each(|l| *l = false);
            self.fill(&[0, 1]);
            let mut moves: Vec<usize> = Vec::new();
            let (mut sum, mut best, mut best_len, mut idle) = (0i64, 0i64, 0usize, 0usize);
            let patience = 32 + n / 8;
            while let (Some(a), Some(b)) = (self.top(0), self.top(1)) {
                let first = if a.0 >= b.0 { 0 } else { 1 };
                let (i, gi) = self.take(first).expect("a task on that side");
                let Some((j, gj)) = self.take(1 - first) else {
                    self.flip(i);
                    break;
                };
                moves.push(i);
                moves.push(j);
                sum += gi + gj;
                if sum > best {
                    (best, best_len, idle) = (sum, moves.len(), 0);
                } else {
                    idle += 1;
                    if idle > patience {
                        break;
                    }
                }
            }
            for &i in moves[best_len..].iter().rev() {
                self.flip(i);
            }
            if best <= 0 {
                break;
            }
        }
    }
}

impl Bisector<'_> {
    /// Side (0 or 1) of each of `tasks`: exactly `k` on side 0, the half at `rep0`.
    fn split_tasks(&mut self, tasks: &[u32], k: usize, rep0: Rep, rep1: Rep) -> Vec<u8> {
        let n = tasks.len();
        for (i, &t) in tasks.iter().enumerate() {
            self.local[t as usize] = i as u32;
        }
        let mut sub = Sub {
            xadj: Vec::with_capacity(n + 1),
            adj: Vec::new(),
            wgt: Vec::new(),
            ext: vec![0; n],
            d01: self.geo.dist(rep0, rep1),
        };
        sub.xadj.push(0);
        let mut edges = Vec::new();
        for (i, &t) in tasks.iter().enumerate() {
            for (&u, &w) in self.g.neighbors(t).iter().zip(self.g.edge_weights(t)) {
                let j = self.local[u as usize];
                if j != u32::MAX {
                    sub.adj.push(j);
                    sub.wgt.push(i64::from(w));
                    if (i as u32) < j {
                        edges.push((i as u32, j, w));
                    }
                } else {
                    let r = self.reps[self.region_of[u as usize] as usize];
                    sub.ext[i] += i64::from(w) * (self.geo.dist(rep1, r) - self.geo.dist(rep0, r));
                }
            }
            sub.xadj.push(sub.adj.len());
        }
        for &t in tasks {
            self.local[t as usize] = u32::MAX;
        }
        let target = [k, n - k];
        let mut candidates: Vec<Vec<u8>> = Vec::new();
        // our multilevel partitioner's bisection, made exact (both ways round when it can be;
        // not on the few tasks the growing alone bisects well)
        let graph = Graph::from_edges(n as u32, &edges).expect("a subgraph of a valid graph");
        if n >= MIN_PARTITIONED {
            let opts = PartOptions {
                k: 2,
                tpwgts: vec![k as f64 / n as f64, (n - k) as f64 / n as f64],
                ufactor: 10,
                method: Method::Rb,
                seed: self.seed,
                ..PartOptions::default()
            };
            let mut part = partition(&graph, &opts, &mut NoProgress).part;
            rebalance(&graph, &mut part, &target);
            candidates.push(part.iter().map(|&p| p as u8).collect());
            if 2 * k == n {
                candidates.push(part.iter().map(|&p| 1 - p as u8).collect());
            }
        }
        // greedy growing of either side from the task that prefers it most
        let (seed0, seed1) = if sub.ext.iter().any(|&e| e != 0) {
            let most = |sign: i64| {
                (0..n)
                    .max_by_key(|&i| (sign * sub.ext[i], Reverse(i)))
                    .expect("a task")
            };
            (most(1), most(-1))
        } else {
            let (p, _) = pseudo_peripheral(&graph, 0);
            (p as usize, p as usize)
        };
        let mut best: Option<(i64, Vec<u8>)> = None;
        let mut consider = |s: State| {
            let c = sub.cost(&s.side);
            if best.as_ref().is_none_or(|b| c < b.0) {
                best = Some((c, s.side));
            }
        };
        for side in candidates {
            let mut s = State::new(&sub, side);
            s.refine();
            consider(s);
        }
        for (seed, p) in [(seed0, 0), (seed1, 1)] {
            let mut s = State::grow(&sub, seed, p, target[p]);
            s.refine();
            consider(s);
        }
        best.expect("a candidate").1
    }
}
