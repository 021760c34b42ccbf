//! Advanced (system and task topology), the source's three steps:
//! 1. the nodes Optimal chooses;
//! 2. a nearest-neighbour tree over them with the nodes as leaves: on trees the switch hierarchy
//!    itself (children = the switch groups below that hold chosen nodes; on other networks their
//!    groups of hosts, [`Shape::Net`]); on grids recursive
//!    halving of the node list sorted by Hilbert position (the best of the four constructions
//!    the authors compared);
//! 3. the task graph mapped onto that tree recursively: at a vertex with `k` children of `c_i`
//!    leaves, our partitioner ([`crate::partition::partition`], multilevel recursive bisection:
//!    on the source's examples it gives Advanced slightly shorter times than k-way) cuts the
//!    (sub)graph into `k` parts with targets `c_i / sum c` (unequal where the children differ),
//!    message volumes as edge weights, minimum edge cut; a greedy pass then moves the best-gain vertices from
//!    over-full to under-full parts so each part has exactly `c_i` tasks; recurse to the leaves.
//!
//! The source passes no edge weights to METIS; we pass the volumes, so a METIS job with heavy
//! edges keeps them inside a switch or a half.
//!
//! # Complexity
//! Optimal, then `O(log P)` levels (grids; `L` on trees) each partitioning `P` tasks in total:
//! about `O((P + E) log P)`.

use super::super::jobs::TaskGraph;
use super::{curve_rank, optimal::optimal, Options, Shape};
use crate::graph::Graph;
use crate::partition::{partition, Method, Options as PartOptions};
use crate::progress::NoProgress;

/// The host of each task.
pub fn advanced(shape: &Shape, busy: &[bool], job: &TaskGraph, opts: Options) -> Vec<u32> {
    let g = &job.graph;
    let n = g.n();
    let mut leaves = optimal(shape, busy, n, opts.source_quirks);
    let split = match shape {
        Shape::Grid { .. } => {
            let rank = curve_rank(shape, opts.source_quirks);
            leaves.sort_unstable_by_key(|&h| rank[h as usize]);
            Split::Halves
        }
        Shape::Tree { .. } | Shape::Net { .. } => {
            leaves.sort_unstable();
            Split::Groups(shape.group_sizes())
        }
    };
    let mut out = vec![0u32; n as usize];
    let mut m = Mapper {
        g,
        split,
        seed: opts.seed,
        local: vec![u32::MAX; n as usize],
        dist: match shape {
            Shape::Grid { dims, wrap } => {
                let (dims, wrap) = (*dims, *wrap);
                Some(Box::new(move |a, b| Shape::grid_hops(dims, wrap, a, b)))
            }
            Shape::Tree { .. } => None,
            Shape::Net { hops, .. } => {
                let (hops, hosts) = (hops.clone(), shape.hosts());
                Some(Box::new(move |a, b| hops.get(hosts, a, b)))
            }
        },
    };
    let tasks: Vec<u32> = (0..n).collect();
    m.map(&tasks, &leaves, &mut out);
    out
}

enum Split {
    Halves,
    /// Hosts under a group of each level.
    Groups(Vec<u32>),
}

struct Mapper<'a> {
    g: &'a Graph,
    split: Split,
    seed: u64,
    /// Scratch: global task -> local index, `u32::MAX` outside the current subgraph.
    local: Vec<u32>,
    /// Hops between two hosts, on grids and other networks (orientation of halves).
    dist: Option<Box<dyn Fn(u32, u32) -> u32 + 'a>>,
}

impl Mapper<'_> {
    /// The children of a tree vertex whose leaves are `leaves` (sorted), as lengths.
    fn children(&self, leaves: &[u32]) -> Vec<usize> {
        match &self.split {
            Split::Halves => {
                let h = leaves.len() / 2;
                vec![h, leaves.len() - h]
            }
            Split::Groups(size) => {
                for &s in size.iter().rev().skip(1) {
                    let first = leaves[0] / s;
                    if leaves.iter().any(|&h| h / s != first) {
                        let mut lens = vec![];
                        let mut start = 0;
                        for i in 1..=leaves.len() {
                            if i == leaves.len() || leaves[i] / s != leaves[start] / s {
                                lens.push(i - start);
                                start = i;
                            }
                        }
                        return lens;
                    }
                }
                vec![1; leaves.len()]
            }
        }
    }

    /// Maps `tasks` onto `leaves` level by level (breadth first), so that when a vertex's two
    /// halves could go either way round, the orientation is chosen that puts each half nearer
    /// the regions its outside neighbours already occupy (not on trees: the children of a
    /// switch are all alike seen from outside).
    fn map(&mut self, tasks: &[u32], leaves: &[u32], out: &mut [u32]) {
        let n = leaves.len();
        // the representative host of each task's current region (its middle leaf)
        let mut rep = vec![leaves[n / 2]; out.len()];
        let mut regions: Vec<(Vec<u32>, usize, usize)> = vec![(tasks.to_vec(), 0, n)];
        while !regions.is_empty() {
            let mut next = Vec::new();
            for (tasks, start, len) in regions {
                let own = &leaves[start..start + len];
                if len == 1 {
                    out[tasks[0] as usize] = own[0];
                    continue;
                }
                let lens = self.children(own);
                if lens.iter().all(|&l| l == 1) {
                    // leaves of one switch (or a pair): all alike from outside
                    for (&t, &h) in tasks.iter().zip(own) {
                        out[t as usize] = h;
                    }
                    continue;
                }
                let parts = self.cut(&tasks, &lens);
                let mut groups: Vec<Vec<u32>> = vec![Vec::new(); lens.len()];
                for (&t, &p) in tasks.iter().zip(&parts) {
                    groups[p as usize].push(t);
                }
                let mut starts = Vec::with_capacity(lens.len());
                let mut s = start;
                for &l in &lens {
                    starts.push(s);
                    s += l;
                }
                let reps: Vec<u32> = starts
                    .iter()
                    .zip(&lens)
                    .map(|(&s, &l)| leaves[s + l / 2])
                    .collect();
                if let (Some(dist), [a, b]) = (&self.dist, lens.as_slice()) {
                    if a == b {
                        let region = rep[tasks[0] as usize];
                        let pull = |group: &[u32], at: u32| -> u64 {
                            let mut c = 0u64;
                            for &t in group {
                                let nb = self.g.neighbors(t).iter().zip(self.g.edge_weights(t));
                                for (&u, &w) in nb {
                                    let r = rep[u as usize];
                                    if r != region {
                                        c += u64::from(w) * u64::from(dist(at, r));
                                    }
                                }
                            }
                            c
                        };
                        let same = pull(&groups[0], reps[0]) + pull(&groups[1], reps[1]);
                        let swap = pull(&groups[0], reps[1]) + pull(&groups[1], reps[0]);
                        if swap < same {
                            groups.swap(0, 1);
                        }
                    }
                }
                for ((group, &s), (&l, &r)) in
                    groups.into_iter().zip(&starts).zip(lens.iter().zip(&reps))
                {
                    for &t in &group {
                        rep[t as usize] = r;
                    }
                    next.push((group, s, l));
                }
            }
            regions = next;
        }
    }

    /// Parts of `tasks` with exactly `lens[p]` tasks in part `p`.
    fn cut(&mut self, tasks: &[u32], lens: &[usize]) -> Vec<u32> {
        for (i, &t) in tasks.iter().enumerate() {
            self.local[t as usize] = i as u32;
        }
        let mut edges = Vec::new();
        for (i, &t) in tasks.iter().enumerate() {
            for (&u, &w) in self.g.neighbors(t).iter().zip(self.g.edge_weights(t)) {
                let j = self.local[u as usize];
                if j != u32::MAX && (i as u32) < j {
                    edges.push((i as u32, j, w));
                }
            }
        }
        for &t in tasks {
            self.local[t as usize] = u32::MAX;
        }
        let sub =
            Graph::from_edges(tasks.len() as u32, &edges).expect("a subgraph of a valid graph");
        let total = tasks.len() as f64;
        let opts = PartOptions {
            k: lens.len() as u32,
            tpwgts: lens.iter().map(|&l| l as f64 / total).collect(),
            ufactor: 10,
            method: Method::Rb,
            seed: self.seed,
            ..PartOptions::default()
        };
        let mut part = partition(&sub, &opts, &mut NoProgress).part;
        rebalance(&sub, &mut part, lens);
        part
    }
}

/// Moves vertices until part `p` has exactly `target[p]` vertices: each move takes, from an
/// over-full part, the vertex and under-full destination of largest gain (edge weight to the
/// destination minus edge weight kept in its part; ties to the lowest vertex, then part).
/// `O(moves * V * deg)`; the partitioner's imbalance bound keeps the moves few.
pub fn rebalance(g: &Graph, part: &mut [u32], target: &[usize]) {
    let k = target.len();
    let mut count = vec![0usize; k];
    for &p in part.iter() {
        count[p as usize] += 1;
    }
    let mut conn = vec![0i64; k];
    loop {
        let Some(from) = (0..k).find(|&p| count[p] > target[p]) else {
            return;
        };
        let mut best: Option<(i64, u32, usize)> = None;
        for v in 0..g.n() {
            if part[v as usize] as usize != from {
                continue;
            }
            conn.iter_mut().for_each(|c| *c = 0);
            for (&u, &w) in g.neighbors(v).iter().zip(g.edge_weights(v)) {
                conn[part[u as usize] as usize] += i64::from(w);
            }
            for q in 0..k {
                if count[q] < target[q] {
                    let gain = conn[q] - conn[from];
                    if best.is_none_or(|b| gain > b.0) {
                        best = Some((gain, v, q));
                    }
                }
            }
        }
        let (_, v, q) = best.expect("an over-full part implies an under-full one");
        part[v as usize] = q as u32;
        count[from] -= 1;
        count[q] += 1;
    }
}
