//! All-to-all subsystem selection (Peryshkova): choose `M` of `N` machines
//!
//! - on a homogeneous network minimizing `L(X) = prod over chosen pairs p < q of l_pq`
//!   (shortest distances, at least 1 hop), or
//! - on a hierarchical one maximizing `B(X) = prod over chosen pairs of b_pq` (bandwidths).
//!
//! Both are the same problem on weights `w_pq`: minimize `W(X) = sum over chosen pairs of w_pq`
//! with `w = ln l` or `w = ln(b_max) - ln b` (a constant shift per pair changes no choice),
//! a minimum-weight `M`-subgraph, NP-hard in general.
//!
//! **Exact search** ([`exact`]): depth-first branch and bound, branching on one candidate
//! machine (in, then out). The bound at a node with chosen set `S`, candidates `C` and
//! `r = M - |S|` machines still to choose is
//!
//! ```text
//! LB = W(S) + (sum of the r smallest c_v over v in C),
//! c_v = w(v, S) + 1/2 * (sum of the r - 1 smallest w(v, u), u in C \ {v})
//! ```
//!
//! Admissible: for any completion `T ⊂ C`, `|T| = r`, its cost is `W(S) + sum over v in T of
//! (w(v, S) + 1/2 sum over u in T \ {v} of w(v, u))`, each bracket at least `c_v`. A node is cut
//! when `LB >= best - eps` (`eps = 1e-9 (1 + |best|)`, so ties with the incumbent are cut too,
//! which is what makes symmetric hierarchies fast). The search branches on the candidate of
//! smallest `c_v` first, starting from the heuristic's set as incumbent. Before branching it
//! fixes out every candidate `v` that cannot be in a better completion: one whose `c_v` plus
//! the `r - 1` smallest other `c` already reaches the incumbent. It stops after a node budget
//! and then says the set is not proven optimal.
//!
//! **Heuristic** ([`heuristic`]): greedy growth from several start machines (each time adding
//! the machine closest to the set), then best-improvement 1-swaps until none improves; the 8
//! best local optima are then polished by 1- and 2-swaps. On 600 random checkable cases
//! (`tests/select.rs`) its worst gap to the proven optimum is 0 %; with 1-swaps alone five of
//! them were 4 % to 109 % off.
//!
//! # Complexity
//! Exact: `O(N M)` per search node, exponential nodes in the worst case. Heuristic:
//! `O(starts (N M + swaps N M))`.

use super::report::SubsetResult;
use super::scenario::{Hierarchy, Objective};

/// A symmetric weight matrix (row-major, zero diagonal) with the original values kept for the
/// report's products.
#[derive(Debug, Clone)]
pub struct Weights {
    pub n: usize,
    /// `w[i * n + j]`.
    pub w: Vec<f64>,
    /// `log10` of the original value of each pair.
    pub log10: Vec<f64>,
    pub objective: Objective,
}

impl Weights {
    /// From a validated matrix of distances (>= 1) or bandwidths (> 0).
    pub fn from_matrix(m: &[Vec<f64>], objective: Objective) -> Weights {
        let n = m.len();
        let mut vmax: f64 = 0.0;
        for (i, row) in m.iter().enumerate() {
            for (j, &v) in row.iter().enumerate() {
                if i != j {
                    vmax = vmax.max(v);
                }
            }
        }
        let shift = libm::log(vmax.max(1e-300));
        let mut w = vec![0.0; n * n];
        let mut log10 = vec![0.0; n * n];
        for i in 0..n {
            for j in 0..n {
                if i == j {
                    continue;
                }
                let v = m[i][j];
                w[i * n + j] = match objective {
                    Objective::Distance => libm::log(v),
                    Objective::Bandwidth => shift - libm::log(v),
                };
                log10[i * n + j] = libm::log10(v);
            }
        }
        Weights {
            n,
            w,
            log10,
            objective,
        }
    }

    #[inline]
    pub fn at(&self, i: usize, j: usize) -> f64 {
        self.w[i * self.n + j]
    }

    /// `W(set)`, summed in the set's order.
    pub fn cost(&self, set: &[u32]) -> f64 {
        let mut s = 0.0;
        for (a, &i) in set.iter().enumerate() {
            for &j in &set[a + 1..] {
                s += self.at(i as usize, j as usize);
            }
        }
        s
    }

    /// The report row of a set (sorted ascending).
    pub fn result(&self, set: &[u32], proven: Option<bool>, work: u64) -> SubsetResult {
        let mut set = set.to_vec();
        set.sort_unstable();
        let mut l = 0.0;
        for (a, &i) in set.iter().enumerate() {
            for &j in &set[a + 1..] {
                l += self.log10[i as usize * self.n + j as usize];
            }
        }
        let product = libm::pow(10.0, l);
        SubsetResult {
            set,
            log10_product: l,
            product: (product.is_finite() && product > 0.0).then_some(product),
            proven,
            work,
        }
    }
}

/// The matrix of a hierarchy: leaves of a tree with `arities` (root first); a pair whose lowest
/// common ancestor is at depth `k` gets `values[k]`, by default `2 (L - k)` hops (the tree
/// distance) for distances and `10^k` for bandwidths (closer pairs are faster).
pub fn hierarchy_matrix(h: &Hierarchy, objective: Objective) -> Vec<Vec<f64>> {
    let levels = h.arities.len();
    let n: usize = h.arities.iter().map(|&a| a as usize).product();
    let values: Vec<f64> = match &h.values {
        Some(v) => v.clone(),
        None => (0..levels)
            .map(|k| match objective {
                Objective::Distance => 2.0 * (levels - k) as f64,
                Objective::Bandwidth => libm::pow(10.0, k as f64),
            })
            .collect(),
    };
    // digits of each leaf, root level first
    let digits = |mut i: usize| {
        let mut d = vec![0usize; levels];
        for k in (0..levels).rev() {
            let a = h.arities[k] as usize;
            d[k] = i % a;
            i /= a;
        }
        d
    };
    let all: Vec<Vec<usize>> = (0..n).map(digits).collect();
    let mut m = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in 0..n {
            if i != j {
                let k = (0..levels)
                    .take_while(|&k| all[i][k] == all[j][k])
                    .count()
                    .min(levels - 1);
                m[i][j] = values[k];
            }
        }
    }
    m
}

/// Evaluated swaps after which the heuristic stops improving (it keeps what it has).
pub const MAX_SWAP_WORK: u64 = 200_000_000;

/// Greedy growth from evenly spaced start machines (every machine when `N M` is small, at most
/// `2e7 / (4 N M)` of them otherwise), then best-improvement 1-swap local search on each; the
/// best set found (ties: the first found). Deterministic.
///
/// # Returns
/// The set (ascending) and the number of swap evaluations.
pub fn heuristic(wt: &Weights, m: usize) -> (Vec<u32>, u64) {
    let n = wt.n;
    // every machine as a start when that is cheap, else evenly spaced ones
    let budget: u64 = 20_000_000;
    let per_start = (n as u64) * (m as u64) * 4;
    let starts = ((budget / per_start.max(1)) as usize).clamp(1, n);
    let mut optima: Vec<(f64, Vec<u32>)> = Vec::new();
    let mut work = 0u64;
    let mut ws = vec![0.0; n];
    let mut inside = vec![false; n];
    for s in 0..starts {
        let start = s * n / starts;
        ws.iter_mut().for_each(|x| *x = 0.0);
        inside.iter_mut().for_each(|x| *x = false);
        let mut set = Vec::with_capacity(m);
        let add = |v: usize, set: &mut Vec<u32>, ws: &mut [f64], inside: &mut [bool]| {
            set.push(v as u32);
            inside[v] = true;
            for (u, x) in ws.iter_mut().enumerate() {
                *x += wt.at(u, v);
            }
        };
        add(start, &mut set, &mut ws, &mut inside);
        while set.len() < m {
            let mut pick = usize::MAX;
            for u in 0..n {
                if !inside[u] && (pick == usize::MAX || ws[u] < ws[pick]) {
                    pick = u;
                }
            }
            add(pick, &mut set, &mut ws, &mut inside);
        }
        // best-improvement 1-swaps: out v in set, in u outside; the change is
        // ws[u] - w(u, v) - ws[v]; the whole heuristic stops improving after MAX_SWAP_WORK
        while work < MAX_SWAP_WORK {
            let mut bestd = -1e-12;
            let mut mv = None;
            for (slot, &v) in set.iter().enumerate() {
                let v = v as usize;
                for u in 0..n {
                    if inside[u] {
                        continue;
                    }
                    let d = ws[u] - wt.at(u, v) - ws[v];
                    if d < bestd {
                        bestd = d;
                        mv = Some((slot, u));
                    }
                }
            }
            work += (m * (n - m)) as u64;
            let Some((slot, u)) = mv else { break };
            let v = set[slot] as usize;
            set[slot] = u as u32;
            inside[v] = false;
            inside[u] = true;
            for (x, xw) in ws.iter_mut().enumerate() {
                *xw += wt.at(x, u) - wt.at(x, v);
            }
        }
        set.sort_unstable();
        let c = wt.cost(&set);
        if !optima.iter().any(|(_, o)| *o == set) {
            optima.push((c, set));
        }
    }
    // the best few local optima, improved further by 2-swaps (two out, two in)
    optima.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    optima.truncate(POLISHED);
    let mut best: Option<(f64, Vec<u32>)> = None;
    for (_, set) in optima {
        let set = polish(wt, set, &mut work);
        let c = wt.cost(&set);
        if best.as_ref().is_none_or(|(b, _)| c < *b - eps(*b)) {
            best = Some((c, set));
        }
    }
    let (_, set) = best.expect("at least one start");
    (set, work)
}

/// Local optima of the 1-swap search that the 2-swap search polishes.
const POLISHED: usize = 8;

/// Alternating descent: best-improvement 1-swaps, then the first improving 2-swap (two machines
/// out, two in; the change is `ws[u1] + ws[u2] + w(u1, u2) - ws[v1] - ws[v2] + w(v1, v2) -
/// w(u1, v1) - w(u1, v2) - w(u2, v1) - w(u2, v2)`), until neither improves or the work budget
/// is spent. Returns the set ascending.
fn polish(wt: &Weights, mut set: Vec<u32>, work: &mut u64) -> Vec<u32> {
    let n = wt.n;
    let m = set.len();
    let mut inside = vec![false; n];
    let mut ws = vec![0.0; n];
    for &v in &set {
        inside[v as usize] = true;
        for (x, xw) in ws.iter_mut().enumerate() {
            *xw += wt.at(x, v as usize);
        }
    }
    let swap = |set: &mut Vec<u32>, inside: &mut [bool], ws: &mut [f64], slot: usize, u: usize| {
        let v = set[slot] as usize;
        set[slot] = u as u32;
        inside[v] = false;
        inside[u] = true;
        for (x, xw) in ws.iter_mut().enumerate() {
            *xw += wt.at(x, u) - wt.at(x, v);
        }
    };
    let outside = |inside: &[bool]| (0..n).filter(|&u| !inside[u]).collect::<Vec<usize>>();
    'descent: while *work < MAX_SWAP_WORK {
        // 1-swaps
        let mut bestd = -1e-12;
        let mut mv = None;
        for (slot, &v) in set.iter().enumerate() {
            for u in 0..n {
                if !inside[u] {
                    let d = ws[u] - wt.at(u, v as usize) - ws[v as usize];
                    if d < bestd {
                        bestd = d;
                        mv = Some((slot, u));
                    }
                }
            }
        }
        *work += (m * (n - m)) as u64;
        if let Some((slot, u)) = mv {
            swap(&mut set, &mut inside, &mut ws, slot, u);
            continue;
        }
        // 2-swaps: the first improving one
        let out = outside(&inside);
        for s1 in 0..m {
            for s2 in s1 + 1..m {
                let (v1, v2) = (set[s1] as usize, set[s2] as usize);
                let base = -ws[v1] - ws[v2] + wt.at(v1, v2);
                for (k, &u1) in out.iter().enumerate() {
                    let a = base + ws[u1] - wt.at(u1, v1) - wt.at(u1, v2);
                    for &u2 in &out[k + 1..] {
                        let d = a + ws[u2] + wt.at(u1, u2) - wt.at(u2, v1) - wt.at(u2, v2);
                        if d < -1e-12 {
                            *work += 1;
                            swap(&mut set, &mut inside, &mut ws, s1, u1);
                            swap(&mut set, &mut inside, &mut ws, s2, u2);
                            continue 'descent;
                        }
                    }
                }
                *work += (out.len() * out.len() / 2) as u64;
                if *work >= MAX_SWAP_WORK {
                    break 'descent;
                }
            }
        }
        break;
    }
    set.sort_unstable();
    set
}

/// The exact search's result.
pub struct Exact {
    pub set: Vec<u32>,
    pub proven: bool,
    pub nodes: u64,
}

/// Branch and bound (see the module doc) from the incumbent `start`, within `budget` nodes.
/// `progress(nodes)` is called every 65,536 nodes.
pub fn exact(
    wt: &Weights,
    m: usize,
    start: &[u32],
    budget: u64,
    progress: &mut dyn FnMut(u64),
) -> Exact {
    let n = wt.n;
    // each machine's neighbours by weight ascending (ties by index), for the bound
    let sorted: Vec<Vec<u32>> = (0..n)
        .map(|v| {
            let mut o: Vec<u32> = (0..n as u32).filter(|&u| u as usize != v).collect();
            o.sort_by(|&a, &b| {
                wt.at(v, a as usize)
                    .total_cmp(&wt.at(v, b as usize))
                    .then(a.cmp(&b))
            });
            o
        })
        .collect();
    let mut st = Search {
        wt,
        m,
        sorted,
        best: wt.cost(start),
        best_set: {
            let mut s = start.to_vec();
            s.sort_unstable();
            s
        },
        chosen: Vec::with_capacity(m),
        cand: vec![true; n],
        ws: vec![0.0; n],
        nodes: 0,
        budget,
        out_of_budget: false,
        progress,
        cv: Vec::with_capacity(n),
    };
    st.dive(0.0, n);
    Exact {
        set: st.best_set,
        proven: !st.out_of_budget,
        nodes: st.nodes,
    }
}

struct Search<'a> {
    wt: &'a Weights,
    m: usize,
    sorted: Vec<Vec<u32>>,
    best: f64,
    best_set: Vec<u32>,
    chosen: Vec<u32>,
    /// Whether each machine is still a candidate (not chosen, not excluded).
    cand: Vec<bool>,
    /// `w(v, chosen)` for every machine.
    ws: Vec<f64>,
    nodes: u64,
    budget: u64,
    out_of_budget: bool,
    progress: &'a mut dyn FnMut(u64),
    /// Scratch for the bound: `(c_v, v)`.
    cv: Vec<(f64, u32)>,
}

impl Search<'_> {
    /// `cost` is `W(chosen)`, `ncand` the number of candidates.
    fn dive(&mut self, cost: f64, ncand: usize) {
        let r = self.m - self.chosen.len();
        if r == 0 {
            if cost < self.best - eps(self.best) {
                self.best = cost;
                let mut s = self.chosen.clone();
                s.sort_unstable();
                self.best_set = s;
            }
            return;
        }
        if ncand < r || self.out_of_budget {
            return;
        }
        self.nodes += 1;
        if self.nodes % 65_536 == 0 {
            (self.progress)(self.nodes);
        }
        if self.nodes > self.budget {
            self.out_of_budget = true;
            return;
        }
        // c_v for every candidate
        let mut cv = std::mem::take(&mut self.cv);
        cv.clear();
        let n = self.wt.n;
        let cand = &self.cand;
        for v in 0..n {
            if !cand[v] {
                continue;
            }
            let row = &self.wt.w[v * n..(v + 1) * n];
            let mut half = 0.0;
            let mut k = 0;
            if r > 1 {
                for &u in &self.sorted[v] {
                    if cand[u as usize] {
                        half += row[u as usize];
                        k += 1;
                        if k == r - 1 {
                            break;
                        }
                    }
                }
            }
            cv.push((self.ws[v] + 0.5 * half, v as u32));
        }
        let cmp = |a: &(f64, u32), b: &(f64, u32)| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1));
        if r < cv.len() {
            cv.select_nth_unstable_by(r - 1, cmp);
        }
        cv[..r].sort_by(cmp);
        let lb = cost + cv[..r].iter().map(|x| x.0).sum::<f64>();
        let pick = cv[0].1 as usize;
        let cut = self.best - eps(self.best);
        if lb >= cut {
            self.cv = cv;
            return;
        }
        // Fixing: a candidate v outside the r - 1 smallest can only join a completion whose
        // bound is at least cost + (sum of the r - 1 smallest c) + c_v; if that reaches the
        // incumbent, v is in no better completion below this node, so it stops being a
        // candidate here (restored on the way back).
        let head = lb - cv[r - 1].0;
        let mut fixed = Vec::new();
        for &(c, v) in &cv[r - 1..] {
            if head + c >= cut {
                fixed.push(v);
            }
        }
        self.cv = cv;
        for &v in &fixed {
            self.cand[v as usize] = false;
        }
        let ncand = ncand - fixed.len();
        if ncand >= r {
            // in
            self.cand[pick] = false;
            self.chosen.push(pick as u32);
            let add = self.ws[pick];
            let prow = &self.wt.w[pick * n..(pick + 1) * n];
            for (x, &w) in self.ws.iter_mut().zip(prow) {
                *x += w;
            }
            self.dive(cost + add, ncand - 1);
            let prow = &self.wt.w[pick * n..(pick + 1) * n];
            for (x, &w) in self.ws.iter_mut().zip(prow) {
                *x -= w;
            }
            self.chosen.pop();
            // out
            self.dive(cost, ncand - 1);
            self.cand[pick] = true;
        }
        for &v in &fixed {
            self.cand[v as usize] = true;
        }
    }
}

fn eps(best: f64) -> f64 {
    1e-9 * (1.0 + best.abs())
}

/// The optimum by enumerating every `M`-subset (test oracle and benchmark baseline); ties:
/// the lexicographically first set.
///
/// # Complexity
/// `O(C(N, M) M^2)`.
pub fn brute_force(wt: &Weights, m: usize) -> Vec<u32> {
    let n = wt.n;
    let mut idx: Vec<usize> = (0..m).collect();
    let mut best = f64::INFINITY;
    let mut best_set = Vec::new();
    loop {
        let set: Vec<u32> = idx.iter().map(|&i| i as u32).collect();
        let c = wt.cost(&set);
        if best_set.is_empty() || c < best - eps(best) {
            best = c;
            best_set = set;
        }
        // next combination: the rightmost index that can still move
        let mut i = m;
        while i > 0 && idx[i - 1] == i - 1 + n - m {
            i -= 1;
        }
        if i == 0 {
            return best_set;
        }
        idx[i - 1] += 1;
        for j in i..m {
            idx[j] = idx[j - 1] + 1;
        }
    }
}

/// How much worse `cost` is than `exact_cost`, in percent of the product: for distances
/// `L_h / L_e - 1`, for bandwidths `B_e / B_h - 1` (both `exp(W_h - W_e) - 1`).
pub fn gap_percent(cost: f64, exact_cost: f64) -> f64 {
    (libm::exp(cost - exact_cost) - 1.0) * 100.0
}
