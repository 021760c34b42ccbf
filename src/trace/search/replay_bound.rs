//! The relaxed replay: the lower bound of a partial assignment by replaying the trace.

use super::FREE;
use crate::trace::replay::{Compiled, LaneTables, PathProfile, Platform, Tables, LANES};

/// Relaxed replay parameters for partial assignments: the lower bound.
///
/// # The bound and why it is admissible
/// For a partial assignment (some ranks placed, the others free), [`Bounds::partial`] replays
/// the trace with each free rank's ratio replaced by the least ratio among the nodes with a
/// free core, and each message's `a0`, `a1` replaced by the least `a0` and the least `a1` over
/// the node pairs its ranks could still get: placed ranks keep their node; a free rank ranges
/// over the nodes with a free core (its peer's own node too, through the intra-node link
/// `u -> u`, when that node has a free core); two free ranks range over two distinct nodes with
/// a free core, or one node with two free cores. This relaxes the capacity (any free core may
/// take any free rank, whatever the other free ranks take), so it only enlarges the sets the
/// minima run over. With one core per node it is the injective relaxation: free ranks over
/// the free nodes, two free ranks over distinct free nodes. In every completion of the
/// partial assignment, each ratio is at least its relaxed value, and each message costs
/// `max(0, a0 + a1 N) >= max(0, min a0 + (min a1) N)` since `N >= 0`. The replay's run time is
/// non-decreasing in every ratio and cost ([`crate::trace::replay`], "Monotonicity"), so the relaxed
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
            scratch: vec![0.0; c.scratch_len()],
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
        // free cores of each node
        let mut room = [0u32; 256];
        room[..n].copy_from_slice(&p.cores);
        for &u in assign {
            if u != FREE {
                room[u as usize] = room[u as usize].saturating_sub(1);
            }
        }
        let free: Vec<usize> = (0..n).filter(|&u| room[u] > 0).collect();
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
            if room[u] >= 2 {
                // two free ranks on one node
                ff0 = ff0.min(p.a0[u * n + u]);
                ff1 = ff1.min(p.a1[u * n + u]);
            }
        }
        // a free rank may join a placed rank on its node when the node has a free core
        for &u in &free {
            if p.cores[u] > 1 && room[u] < p.cores[u] {
                let d = u * n + u;
                self.row0[u] = self.row0[u].min(p.a0[d]);
                self.row1[u] = self.row1[u].min(p.a1[d]);
                self.col0[u] = self.col0[u].min(p.a0[d]);
                self.col1[u] = self.col1[u].min(p.a1[d]);
            }
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
        // lanes past the last assignment repeat it: its tables are filled once, not again per
        // padding lane (the tables cost `O(n^2)`, which on many nodes outweighs a replay)
        for l in 0..LANES {
            if l < assigns.len() {
                self.relaxed_tables(&assigns[l]);
            }
            lanes.set_lane(self.c, l, &self.tab);
        }
        let mut out = [0.0; LANES];
        self.c.replay_lanes(lanes, t, &mut out);
        out
    }
}
