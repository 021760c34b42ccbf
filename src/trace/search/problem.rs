//! The problem every search and bound reads, and the classes of identical nodes.

use super::MAX_PATHS;
use crate::trace::replay::{Compiled, Platform};

/// The problem: a compiled trace on a platform, with node classes and the rank order.
pub struct Problem<'a> {
    pub c: &'a Compiled,
    pub p: &'a Platform,
    /// Class of each node ([`classes`]).
    pub class: Vec<u32>,
    /// Ranks in search order ([`rank_order`]).
    pub order: Vec<usize>,
    /// Whether branch and bound uses [`super::RankBound`] and [`super::PathBound`] before replaying: by
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

/// Replay steps one child of branch and bound may cost beyond its replay: a [`super::RankBound`]
/// and a [`super::PathBound`] with [`MAX_PATHS`] chains.
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
    let (load, _) = c.rank_work();
    let mut bytes = vec![0.0f64; r];
    for it in c.items() {
        bytes[it.src as usize] += it.bytes;
        bytes[it.dst as usize] += it.bytes;
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
