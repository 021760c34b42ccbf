//! k-way refinement: balancing and greedy boundary refinement of a k-way partition,
//! run on every level on the way up, as METIS's greedy k-way refinement.
//!
//! State: for each vertex its internal degree `id` (edge weight to its own part) and external
//! degree `ed` (to all other parts); boundary vertices are those with `ed > 0`.
//!
//! - [`balance`]: while a part exceeds its limit, moves its vertices (best cut change first) to
//!   the adjacent part with room that they are most connected to, or else to the part with the
//!   most room, or else (no part has room: indivisible vertices) to the part where they add the
//!   least excess, when that is less than the excess they remove.
//! - [`greedy`]: a pass pops boundary vertices from a max-priority queue keyed by `ed - id` (a
//!   per-pass random tie key; METIS divides `ed` by the square root of the number of adjacent
//!   parts, which measured no better here and costs a scan of the neighbours per update), and moves each to the part `q` it is most connected to among
//!   those with room, when that lowers the cut (`conn[q] > id`) or keeps it and improves the
//!   balance; a moved vertex is locked for the pass, its neighbours re-queued with their new
//!   keys. Passes repeat until one moves nothing, at most `niter` times.
//! - [`fm`]: k-way Fiduccia-Mattheyses for the quality mode: like [`greedy`] but it also makes
//!   the best negative-gain move, remembers the best cut seen and rolls back to it after `limit`
//!   moves without improvement, so it climbs out of the local minima greedy stops in.
//!
//! # Complexity
//! `O((V + E) log V)` per pass (`O(deg)` to evaluate a vertex with a dense `k`-entry table reset
//! through a touched list, `O(log V)` per queue operation).

use super::wgraph::{gain, mix, WGraph};
use std::collections::BinaryHeap;

/// Vertices of more neighbours than this (hubs) keep a single queue entry, re-keyed when it
/// reaches the top, instead of one new entry per neighbour's move: a star's refinement stays
/// `O(V log V)` per pass.
pub const HUB: u32 = 64;

/// A k-way partition with its bookkeeping.
pub struct KwayState {
    pub part: Vec<u32>,
    pub pw: Vec<u64>,
    pub id: Vec<u64>,
    pub ed: Vec<u64>,
    /// Scratch: connectivity to each part, zero outside a vertex's evaluation.
    conn: Vec<u64>,
    touched: Vec<u32>,
}

impl KwayState {
    /// The bookkeeping of `part` (each `< k`).
    pub fn new(g: &WGraph, part: Vec<u32>, k: u32) -> KwayState {
        let n = g.n() as usize;
        let mut s = KwayState {
            part,
            pw: vec![0; k as usize],
            id: vec![0; n],
            ed: vec![0; n],
            conn: vec![0; k as usize],
            touched: Vec::new(),
        };
        for v in 0..g.n() {
            let pv = s.part[v as usize];
            s.pw[pv as usize] = s.pw[pv as usize].saturating_add(g.vw[v as usize]);
            let (mut i, mut e) = (0u64, 0u64);
            for j in g.range(v) {
                if s.part[g.adj[j] as usize] == pv {
                    i = i.saturating_add(g.ew[j]);
                } else {
                    e = e.saturating_add(g.ew[j]);
                }
            }
            s.id[v as usize] = i;
            s.ed[v as usize] = e;
        }
        s
    }

    /// Fills `conn` with `v`'s edge weight to each adjacent part other than its own (listed in
    /// `touched`); call [`KwayState::clear`] after use.
    #[inline]
    fn gather(&mut self, g: &WGraph, v: u32) {
        let a = self.part[v as usize];
        for j in g.range(v) {
            let p = self.part[g.adj[j] as usize];
            if p != a {
                if self.conn[p as usize] == 0 {
                    self.touched.push(p);
                }
                self.conn[p as usize] += g.ew[j];
            }
        }
    }

    /// After [`KwayState::gather`]: among the adjacent parts that can take `vw` more weight
    /// within `maxw`, the one `v` is most connected to, ties going to the part that is lighter
    /// relative to its limit ([`lighter`]); returned as `(connection, part)`.
    #[inline]
    fn best_receiver(&self, maxw: &[u64], vw: u64) -> Option<(u64, u32)> {
        let mut best: Option<(u64, u32)> = None;
        for &q in &self.touched {
            if self.pw[q as usize] + vw <= maxw[q as usize] {
                let c = self.conn[q as usize];
                if best.is_none_or(|(bc, bq)| {
                    c > bc
                        || (c == bc
                            && lighter(
                                self.pw[q as usize],
                                maxw[q as usize],
                                self.pw[bq as usize],
                                maxw[bq as usize],
                            ))
                }) {
                    best = Some((c, q));
                }
            }
        }
        best
    }

    #[inline]
    fn clear(&mut self) {
        for &p in &self.touched {
            self.conn[p as usize] = 0;
        }
        self.touched.clear();
    }

    /// Moves `v` to part `to`, updating part weights and the degrees of `v` and its neighbours.
    pub fn move_to(&mut self, g: &WGraph, v: u32, to: u32) {
        let vi = v as usize;
        let a = self.part[vi];
        if a == to {
            return;
        }
        self.pw[a as usize] -= g.vw[vi];
        self.pw[to as usize] += g.vw[vi];
        self.part[vi] = to;
        let (mut i, mut e) = (0u64, 0u64);
        for j in g.range(v) {
            let u = g.adj[j] as usize;
            let w = g.ew[j];
            let pu = self.part[u];
            if pu == to {
                i += w;
                self.id[u] += w;
                self.ed[u] -= w;
            } else {
                e += w;
                if pu == a {
                    self.id[u] -= w;
                    self.ed[u] += w;
                }
            }
        }
        self.id[vi] = i;
        self.ed[vi] = e;
    }

    /// Total weight of the cut edges.
    pub fn cut(&self) -> u64 {
        self.ed.iter().fold(0u64, |a, &e| a.saturating_add(e)) / 2
    }

    /// Amount by which the parts exceed their limits.
    pub fn over(&self, maxw: &[u64]) -> u64 {
        self.pw
            .iter()
            .zip(maxw)
            .fold(0u64, |a, (&w, &m)| a.saturating_add(w.saturating_sub(m)))
    }
}

/// `a / ma < b / mb` for part weights against limits, without division (a zero limit counts
/// as infinitely full when it holds anything).
#[inline]
fn lighter(a: u64, ma: u64, b: u64, mb: u64) -> bool {
    u128::from(a) * u128::from(mb) < u128::from(b) * u128::from(ma)
}

/// Moves vertices out of parts above their limits (module doc). Stops when every part is within
/// its limit or a round moves nothing.
pub fn balance(g: &WGraph, s: &mut KwayState, maxw: &[u64], salt: u64) {
    let k = s.pw.len() as u32;
    for round in 0..16u64 {
        if s.over(maxw) == 0 {
            return;
        }
        // Candidates: positive-weight vertices of overweight parts, best cut change first.
        let mut cand: Vec<(i64, u64, u32)> = Vec::new();
        for v in 0..g.n() {
            let p = s.part[v as usize];
            if s.pw[p as usize] > maxw[p as usize] && g.vw[v as usize] > 0 {
                s.gather(g, v);
                let best = s
                    .touched
                    .iter()
                    .map(|&q| s.conn[q as usize])
                    .max()
                    .unwrap_or(0);
                s.clear();
                cand.push((
                    gain(best, s.id[v as usize]),
                    mix(salt ^ round, u64::from(v)),
                    v,
                ));
            }
        }
        cand.sort_unstable_by(|a, b| b.cmp(a));
        let mut moved = 0u32;
        for &(_, _, v) in &cand {
            let vi = v as usize;
            let a = s.part[vi];
            if s.pw[a as usize] <= maxw[a as usize] {
                continue;
            }
            let vw = g.vw[vi];
            s.gather(g, v);
            let best = s.best_receiver(maxw, vw);
            s.clear();
            let to = match best {
                Some((_, q)) => Some(q),
                None => {
                    // The part with the most room that takes it.
                    let mut pick: Option<u32> = None;
                    for q in 0..k {
                        if q != a && s.pw[q as usize] + vw <= maxw[q as usize] {
                            let room = maxw[q as usize] - s.pw[q as usize];
                            if pick.is_none_or(|r| room > maxw[r as usize] - s.pw[r as usize]) {
                                pick = Some(q);
                            }
                        }
                    }
                    pick.or_else(|| least_excess_receiver(s, maxw, a, vw))
                }
            };
            if let Some(q) = to {
                s.move_to(g, v, q);
                moved += 1;
            }
        }
        if moved == 0 {
            return;
        }
    }
}

/// When no part can take `vw` within its limit (indivisible vertices: 66 vertices of weight 3
/// in 9 parts of limit 22 need three parts of 24), the part where taking it adds the least
/// excess (the lightest on ties), if that is less than the excess it removes from part `a`:
/// each such move lowers the total excess, so balancing ends with the least excess vertex
/// moves can reach instead of leaving one part 5 over.
fn least_excess_receiver(s: &KwayState, maxw: &[u64], a: u32, vw: u64) -> Option<u32> {
    let ai = a as usize;
    let relieved = vw.min(s.pw[ai].saturating_sub(maxw[ai]));
    let added = |q: usize| (s.pw[q] + vw).saturating_sub(maxw[q]) - s.pw[q].saturating_sub(maxw[q]);
    (0..s.pw.len())
        .filter(|&q| q != ai)
        .min_by_key(|&q| (added(q), s.pw[q], q))
        .filter(|&q| added(q) < relieved)
        .map(|q| q as u32)
}

/// Greedy k-way refinement passes (module doc). A move may overfill its target by up to
/// `slack * gain` (METIS's fudge factor, used on coarse levels); a vertex is taken from the queue
/// at most once per pass; zero-gain moves are made when they relieve an overweight part or
/// improve the balance, and every other time otherwise (this lets boundaries slide along
/// plateaus, where positive moves appear). Moves never bring a part with internal edges below
/// `minw`. Returns the number of moves made.
pub fn greedy(
    g: &WGraph,
    s: &mut KwayState,
    maxw: &[u64],
    minw: &[u64],
    slack: u64,
    niter: u32,
    salt: u64,
) -> u64 {
    let n = g.n();
    // 0: not queued, 1: queued, 2: taken this pass.
    let mut status = vec![0u8; n as usize];
    let mut stamp = vec![0u32; n as usize];
    let mut total_moves = 0u64;
    let mut heap: BinaryHeap<(i64, u64, u32, u32)> = BinaryHeap::new();
    let mut touched_v: Vec<u32> = Vec::new();
    for pass in 0..niter.max(1) {
        let ps = mix(salt, u64::from(pass) + 1);
        heap.clear();
        for &v in &touched_v {
            status[v as usize] = 0;
        }
        touched_v.clear();
        let old_cut = s.cut();
        for v in 0..n {
            let vi = v as usize;
            if s.ed[vi] > 0 && s.ed[vi] >= s.id[vi] {
                heap.push((
                    gain(s.ed[vi], s.id[vi]),
                    mix(ps, u64::from(v)),
                    v,
                    stamp[vi],
                ));
                status[vi] = 1;
                touched_v.push(v);
            }
        }
        let mut moves = 0u64;
        let mut taken = 0u64;
        while let Some((key, tie, v, st)) = heap.pop() {
            let vi = v as usize;
            if status[vi] != 1 || st != stamp[vi] {
                continue;
            }
            if g.degree(v) > HUB && key != gain(s.ed[vi], s.id[vi]) {
                // A hub keeps one entry, re-keyed when it surfaces.
                heap.push((gain(s.ed[vi], s.id[vi]), tie, v, st));
                continue;
            }
            status[vi] = 2;
            taken += 1;
            if s.ed[vi] == 0 {
                continue;
            }
            let a = s.part[vi];
            let vw = g.vw[vi];
            let id = s.id[vi];
            if id > 0 && s.pw[a as usize].saturating_sub(vw) < minw[a as usize] {
                continue;
            }
            s.gather(g, v);
            let mut best: Option<(u64, u32)> = None;
            for &q in &s.touched {
                let c = s.conn[q as usize];
                if c < id {
                    continue;
                }
                let room = maxw[q as usize].saturating_add(slack.saturating_mul(c - id));
                if s.pw[q as usize] + vw > room {
                    continue;
                }
                if best.is_none_or(|(bc, bq)| {
                    c > bc
                        || (c == bc
                            && lighter(
                                s.pw[q as usize],
                                maxw[q as usize],
                                s.pw[bq as usize],
                                maxw[bq as usize],
                            ))
                }) {
                    best = Some((c, q));
                }
            }
            s.clear();
            let Some((c, q)) = best else { continue };
            let good = c > id
                || (c == id
                    && (s.pw[a as usize] >= maxw[a as usize]
                        || lighter(
                            s.pw[q as usize] + vw,
                            maxw[q as usize],
                            s.pw[a as usize],
                            maxw[a as usize],
                        )
                        || taken % 2 == 0));
            if !good {
                continue;
            }
            s.move_to(g, v, q);
            moves += 1;
            for j in g.range(v) {
                let u = g.adj[j];
                let ui = u as usize;
                if status[ui] == 2 || (status[ui] == 1 && g.degree(u) > HUB) {
                    continue;
                }
                stamp[ui] = stamp[ui].wrapping_add(1);
                if s.ed[ui] > 0 && s.ed[ui] >= s.id[ui] {
                    if status[ui] == 0 {
                        touched_v.push(u);
                    }
                    status[ui] = 1;
                    heap.push((
                        gain(s.ed[ui], s.id[ui]),
                        mix(ps, u64::from(u)),
                        u,
                        stamp[ui],
                    ));
                }
            }
        }
        total_moves += moves;
        if moves == 0 || s.cut() == old_cut {
            break;
        }
    }
    total_moves
}

/// k-way FM passes with hill climbing and rollback (module doc). Never returns a state with a
/// larger cut or more overweight than it was given. States are ranked by (overweight, cut) when
/// `balance_first`, else by (cut, overweight): on coarse levels the balance may wait for the
/// finer ones, and a cut given up for it there is seldom won back.
pub fn fm(g: &WGraph, s: &mut KwayState, maxw: &[u64], niter: u32, salt: u64, balance_first: bool) {
    let n = g.n();
    let limit = (n / 50).clamp(25, 400) as usize;
    let mut locked = vec![false; n as usize];
    let mut popped: Vec<u32> = Vec::new();
    let mut queued = vec![false; n as usize];
    let mut heap: BinaryHeap<(i64, u64, u32)> = BinaryHeap::new();
    let mut moves: Vec<(u32, u32)> = Vec::new();
    for pass in 0..niter.max(1) {
        let ps = mix(salt, u64::from(pass) + 7);
        heap.clear();
        queued.fill(false);
        for v in 0..n {
            if s.ed[v as usize] > 0 {
                queued[v as usize] = true;
                heap.push((
                    gain(s.ed[v as usize], s.id[v as usize]),
                    mix(ps, u64::from(v)),
                    v,
                ));
            }
        }
        let rank = |over: u64, cut: u64| {
            if balance_first {
                (over, cut)
            } else {
                (cut, over)
            }
        };
        let start = rank(s.over(maxw), s.cut());
        let mut cut = s.cut();
        let mut best = start;
        let mut best_len = 0usize;
        moves.clear();
        while let Some((key, tie, v)) = heap.pop() {
            let vi = v as usize;
            if locked[vi] || s.ed[vi] == 0 {
                continue;
            }
            if key != gain(s.ed[vi], s.id[vi]) {
                if g.degree(v) > HUB && queued[vi] {
                    // A hub keeps one entry, re-keyed when it surfaces.
                    heap.push((gain(s.ed[vi], s.id[vi]), tie, v));
                }
                continue;
            }
            queued[vi] = false;
            // Taken once per pass, moved or not (a hub re-queued by each leaf's move would
            // otherwise be scanned again and again).
            locked[vi] = true;
            popped.push(v);
            let a = s.part[vi];
            let vw = g.vw[vi];
            s.gather(g, v);
            let best_q = s.best_receiver(maxw, vw);
            s.clear();
            let Some((c, q)) = best_q else { continue };
            let id = s.id[vi];
            s.move_to(g, v, q);
            moves.push((v, a));
            cut = (cut + id).saturating_sub(c);
            let cur = rank(s.over(maxw), cut);
            if cur < best {
                best = cur;
                best_len = moves.len();
            } else if moves.len() - best_len > limit {
                break;
            }
            for j in g.range(v) {
                let u = g.adj[j];
                let ui = u as usize;
                if !locked[ui] && s.ed[ui] > 0 && !(queued[ui] && g.degree(u) > HUB) {
                    queued[ui] = true;
                    heap.push((gain(s.ed[ui], s.id[ui]), mix(ps, u64::from(u)), u));
                }
            }
        }
        for &(v, a) in moves[best_len..].iter().rev() {
            s.move_to(g, v, a);
        }
        for &v in &popped {
            locked[v as usize] = false;
        }
        popped.clear();
        if best >= start {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 8 isolated vertices of weight 3 in 3 parts of limit 8: no part can take a vertex within
    /// its limit, yet 4-2-2 (4 over) balances to 3-3-2 (1 + 1 over), the least reachable.
    #[test]
    fn balancing_indivisible_vertices_lowers_the_total_excess() {
        let g = WGraph {
            xadj: vec![0; 9],
            vw: vec![3; 8],
            vs: vec![1; 8],
            ..WGraph::default()
        };
        let mut s = KwayState::new(&g, vec![0, 0, 0, 0, 1, 1, 2, 2], 3);
        let maxw = [8, 8, 8];
        assert_eq!(s.over(&maxw), 4);
        balance(&g, &mut s, &maxw, 1);
        assert_eq!(s.over(&maxw), 2, "{:?}", s.pw);
        let mut pw = s.pw.clone();
        pw.sort_unstable();
        assert_eq!(pw, vec![6, 9, 9]);
    }

    /// A `w` x `h` grid of unit vertices and edges.
    fn grid(w: u32, h: u32) -> WGraph {
        let mut g = WGraph {
            xadj: vec![0],
            ..WGraph::default()
        };
        for y in 0..h {
            for x in 0..w {
                let mut nb = Vec::new();
                if x > 0 {
                    nb.push(y * w + x - 1);
                }
                if x + 1 < w {
                    nb.push(y * w + x + 1);
                }
                if y > 0 {
                    nb.push((y - 1) * w + x);
                }
                if y + 1 < h {
                    nb.push((y + 1) * w + x);
                }
                g.ew.extend(nb.iter().map(|_| 1u64));
                g.adj.extend(nb);
                g.xadj.push(g.adj.len() as u32);
                g.vw.push(1);
                g.vs.push(1);
            }
        }
        g
    }

    /// Columns `0..split` of an 8 x 8 grid in part 0, the rest in part 1: a straight cut of 8.
    fn columns(split: u32) -> (WGraph, KwayState) {
        let g = grid(8, 8);
        let part = (0..64).map(|v| u32::from(v % 8 >= split)).collect();
        let s = KwayState::new(&g, part, 2);
        (g, s)
    }

    #[test]
    fn fm_ranking_cut_first_never_gives_back_cut_for_balance() {
        // Part 0 holds 40 of 64 vertices, 7 above its limit of 33.
        let (g, mut s) = columns(5);
        let maxw = [33u64, 33];
        assert_eq!((s.cut(), s.over(&maxw)), (8, 7));
        fm(&g, &mut s, &maxw, 4, 7, false);
        assert!(s.cut() <= 8, "cut {} grew above 8", s.cut());
        assert!(s.over(&maxw) <= 7);
    }

    #[test]
    fn fm_ranking_balance_first_trades_cut_for_balance() {
        let (g, mut s) = columns(5);
        let maxw = [33u64, 33];
        fm(&g, &mut s, &maxw, 4, 7, true);
        assert!(
            s.over(&maxw) < 7,
            "overweight {} not reduced",
            s.over(&maxw)
        );
    }
}
