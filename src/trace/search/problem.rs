//! The problem every search and bound reads, and the classes of identical nodes.

use super::symmetry::{self, RankSymmetry};
use super::{FREE, MAX_PATHS};
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
    /// Identical ranks the searches reduce by ([`Problem::searched`]); none from [`Problem::new`].
    pub sym: Option<RankSymmetry>,
}

impl<'a> Problem<'a> {
    pub fn new(c: &'a Compiled, p: &'a Platform) -> Self {
        Problem {
            c,
            p,
            class: classes(p),
            order: rank_order(c),
            cheap_bounds: cheap_bounds_pay(c, p),
            sym: None,
        }
    }

    /// [`Problem::new`] with the identical ranks of the trace ([`symmetry::detect`]) when
    /// `rank_symmetry`.
    pub fn searched(c: &'a Compiled, p: &'a Platform, rank_symmetry: bool) -> Self {
        let mut prob = Problem::new(c, p);
        if rank_symmetry {
            prob.sym = symmetry::detect(c, &prob.order);
        }
        prob
    }

    /// Whether placing rank `x` on node `u` keeps the partial assignment `assign` within the
    /// identical-rank reduction (always, without one).
    #[inline]
    pub fn allows_placing(&self, assign: &[u8], x: usize, u: usize) -> bool {
        self.sym
            .as_ref()
            .is_none_or(|s| s.allows_placing(assign, &self.class, x, u))
    }

    /// Whether the complete assignment `assign` is the one listed for its class: within the
    /// identical-rank reduction and the representative of its identical-node equivalents.
    pub fn listed(&self, assign: &[u8]) -> bool {
        self.sym
            .as_ref()
            .is_none_or(|s| s.allows(assign, &self.class))
            && self.representative(assign) == assign
    }

    /// The assignment listed for `assign`'s class ([`Problem::listed`]).
    pub fn canonical(&self, assign: &[u8]) -> Vec<u8> {
        match &self.sym {
            Some(s) => self.representative(&s.canonical(assign, &self.class)),
            None => self.representative(assign),
        }
    }

    /// The representative of `assign` ([`representative`]).
    pub fn representative(&self, assign: &[u8]) -> Vec<u8> {
        representative(assign, &self.class, &self.order)
    }

    /// Whether some node may hold several ranks (a core count above 1).
    pub fn multicore(&self) -> bool {
        multicore(self.p)
    }

    /// Capacity-feasible assignments in all ([`assignments_on`]).
    pub fn assignments(&self) -> f64 {
        assignments_on(self.p, self.c.ranks)
    }

    /// Classes of assignments, distinct up to identical nodes ([`distinct`], [`distinct_within`]).
    pub fn distinct(&self) -> f64 {
        if self.multicore() {
            distinct_within(&self.class, &self.p.cores, self.c.ranks)[self.c.ranks]
        } else {
            distinct(&self.class, self.c.ranks)
        }
    }
}

/// Whether some node of `p` has more than one core.
pub fn multicore(p: &Platform) -> bool {
    p.cores.iter().any(|&k| k > 1)
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
///
/// With several cores on a node they are never used: both solve matchings of the free ranks
/// into distinct free nodes (one rank per node) and price an unplaced peer only on other nodes,
/// which a node holding several ranks breaks; the relaxed replay ([`super::Bounds`]) alone
/// bounds branch and bound there.
pub fn cheap_bounds_pay(c: &Compiled, p: &Platform) -> bool {
    !multicore(p) && cheap_bound_steps(c, p) <= c.steps()
}

/// Classes of identical nodes: `class[u]` is the smallest node index identical to `u`.
/// Node `u` and `v` are identical when `ratio`, `cores`, all links to and from every third node
/// `w` and the links `u -> v`, `v -> u` are equal (bitwise), and, when they have more than one
/// core, their intra-node links `u -> u`, `v -> v` too: then exchanging them is a symmetry of
/// the platform (it maps capacity-feasible assignments to capacity-feasible ones with the same
/// replay numbers), and symmetries compose, so "identical" is an equivalence.
///
/// # Complexity
/// `O(n^3)`.
pub fn classes(p: &Platform) -> Vec<u32> {
    let n = p.n;
    let same = |u: usize, v: usize| -> bool {
        if p.ratio[u].to_bits() != p.ratio[v].to_bits() || p.cores[u] != p.cores[v] {
            return false;
        }
        let eq = |i: usize, j: usize| {
            p.a0[i].to_bits() == p.a0[j].to_bits() && p.a1[i].to_bits() == p.a1[j].to_bits()
        };
        if !eq(u * n + v, v * n + u) {
            return false;
        }
        if p.cores[u] > 1 && !eq(u * n + u, v * n + v) {
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

/// The representative of an assignment's class: taking the ranks in search order, the nodes of
/// each node class are renamed in order of first use, the first node used getting the class's
/// smallest index, the next one its second smallest, and so on (ranks sharing a node keep
/// sharing the renamed one). With one core per node every rank uses a new node, so the ranks
/// placed on a class get its nodes in increasing index order.
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
    let mut renamed = vec![FREE; n];
    let mut out = assign.to_vec();
    for &x in order {
        let u = assign[x] as usize;
        if renamed[u] == FREE {
            let c = class[u] as usize;
            renamed[u] = members[c][next[c]];
            next[c] += 1;
        }
        out[x] = renamed[u];
    }
    out
}

/// Assignments in all: `n! / (n - R)!` (as a float: it may exceed 2^64).
pub fn assignments(n: usize, r: usize) -> f64 {
    (0..r).fold(1.0, |acc, i| acc * (n - i) as f64)
}

/// Assignments one representative stands for: `prod over classes of P(size, used)`, where
/// `used` distinct nodes of a class of `size` nodes hold ranks (the used nodes may be any
/// `used` of the class, in any order; with one core per node, `used` is the ranks on the class).
pub fn equivalents(assign: &[u8], class: &[u32]) -> f64 {
    let n = class.len();
    let mut size = vec![0usize; n];
    for &c in class {
        size[c as usize] += 1;
    }
    let mut seen = vec![false; n];
    let mut used = vec![0usize; n];
    for &u in assign {
        if !seen[u as usize] {
            seen[u as usize] = true;
            used[class[u as usize] as usize] += 1;
        }
    }
    (0..n).fold(1.0, |acc, c| acc * assignments(size[c], used[c]))
}

/// Capacity-feasible assignments of `r` ranks on `p` in all: `n! / (n - r)!` with one core per
/// node ([`assignments`]), else `r!` times the coefficient of `x^r` in `prod over nodes u of
/// sum_{k <= cores(u)} x^k / k!` ([`within_capacity`]).
pub fn assignments_on(p: &Platform, r: usize) -> f64 {
    if multicore(p) {
        within_capacity(p.cores.iter().map(|&k| k as usize), r)
    } else {
        assignments(p.n, r)
    }
}

/// Maps of `r` labelled ranks to nodes of capacities `caps`, at most `cap` ranks on a node of
/// capacity `cap` (as a float: it may exceed 2^64, and is infinite past `f64::MAX`).
///
/// # Complexity
/// `O(n r min(cap, r))`.
pub fn within_capacity(caps: impl Iterator<Item = usize>, r: usize) -> f64 {
    // ways[j]: maps of j labelled ranks onto the nodes so far; a node taking k of the j + k
    // ranks multiplies by C(j + k, k)
    let mut ways = vec![0.0f64; r + 1];
    ways[0] = 1.0;
    for cap in caps {
        let mut nw = vec![0.0f64; r + 1];
        for j in 0..=r {
            if ways[j] == 0.0 {
                continue;
            }
            let mut binom = 1.0f64;
            for k in 0..=cap.min(r - j) {
                if k > 0 {
                    binom = binom * (j + k) as f64 / k as f64;
                }
                nw[j + k] += ways[j] * binom;
            }
        }
        ways = nw;
    }
    ways[r]
}

/// Classes of assignments (distinct up to identical nodes), one core per node: the ways to give
/// each of `r` labelled ranks a class, at most `size(c)` ranks per class.
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

/// Classes of capacity-feasible assignments (distinct up to identical nodes) of the first `d`
/// ranks, for every `d` from 0 to `r` (entry `d`): the ways to give each labelled rank a class,
/// times, for a class of `s` nodes of `k` cores holding `m` ranks, the partitions of those
/// ranks into at most `s` blocks of at most `k` ranks (the nodes of a class are
/// interchangeable, so a partition is one class of assignments). With one core per node the
/// partitions are 1 (`m <= s`), and entry `d` is [`distinct`] of `d`, bit for bit.
///
/// # Complexity
/// `O(classes x r x min(s k, r))` and, per class, `O(r x min(s, r) x min(k, r))` for the
/// partitions.
pub fn distinct_within(class: &[u32], cores: &[u32], r: usize) -> Vec<f64> {
    let n = class.len();
    let binom = |a: usize, b: usize| -> f64 {
        (0..b).fold(1.0, |acc, i| acc * (a - i) as f64 / (i + 1) as f64)
    };
    let mut ways = vec![0.0f64; r + 1];
    ways[0] = 1.0;
    for c in 0..n {
        let s = class.iter().filter(|&&x| x as usize == c).count();
        if s == 0 {
            continue;
        }
        let k = cores[c] as usize;
        let parts = partitions(s, k, r);
        let mut nw = vec![0.0f64; r + 1];
        for j in 0..=r {
            if ways[j] == 0.0 {
                continue;
            }
            // C(j + m, m), kept from m - 1 (with one core per node, as [`distinct`] computes it)
            let mut c = 1.0f64;
            for m in 0..=(s * k).min(r - j) {
                if m > 0 {
                    c = c * (j + m) as f64 / m as f64;
                }
                if parts[m] == 0.0 {
                    continue;
                }
                let w = if k == 1 {
                    binom(j + m, m)
                } else {
                    c * parts[m]
                };
                nw[j + m] += ways[j] * w;
            }
        }
        ways = nw;
    }
    ways
}

/// Partitions of `m` labelled ranks into at most `s` unlabelled blocks of at most `k` ranks, for
/// `m` from 0 to `r` (entry `m`): `T(m, b) = sum over i <= k of C(m - 1, i - 1) T(m - i, b - 1)`,
/// the block of the last rank holding `i` ranks.
fn partitions(s: usize, k: usize, r: usize) -> Vec<f64> {
    if k == 1 {
        return (0..=r).map(|m| if m <= s { 1.0 } else { 0.0 }).collect();
    }
    let s = s.min(r);
    // t[b][m]: exactly b blocks
    let mut prev = vec![0.0f64; r + 1];
    prev[0] = 1.0;
    let mut total = prev.clone();
    for _b in 1..=s {
        let mut cur = vec![0.0f64; r + 1];
        for m in 1..=r {
            // C(m - 1, i - 1) for i = 1, 2, ...
            let mut binom = 1.0f64;
            let mut acc = 0.0f64;
            for i in 1..=k.min(m) {
                if i > 1 {
                    binom = binom * (m - i + 1) as f64 / (i - 1) as f64;
                }
                if prev[m - i] != 0.0 {
                    acc += binom * prev[m - i];
                }
            }
            cur[m] = acc;
        }
        for m in 0..=r {
            total[m] += cur[m];
        }
        prev = cur;
    }
    total
}

/// The identity assignment: ranks in order on the nodes' cores in order (node 0's cores first),
/// as a launcher fills a machinefile's slots; rank `i` on node `i` with one core per node.
/// The platform must hold the ranks (`r` at most the cores in all).
pub fn identity(p: &Platform, r: usize) -> Vec<u8> {
    (0..p.n)
        .flat_map(|u| std::iter::repeat_n(u as u8, p.cores[u] as usize))
        .take(r)
        .collect()
}
