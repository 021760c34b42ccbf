//! Strip packing by shelves (Coffman, Garey, Johnson & Tarjan 1980): jobs are rectangles of
//! width `ranks` and height `time` in a strip of width `n` (the machines); the height used is
//! the makespan. Jobs are taken in order of decreasing height (time; ties by job index) and
//! put on shelves, each shelf as high as its first (tallest) job, stacked on the previous one:
//! - NFDH (next fit): the job goes on the current (top) shelf if it fits, else on a new shelf;
//! - FFDH (first fit): on the lowest shelf where it fits, else on a new shelf;
//! - BFDH (best fit): on the shelf where it leaves the least width free, else on a new shelf.
//!
//! Each job on a shelf gets the machines `x .. x + r` next to the jobs before it, so a shelf
//! never uses more than `n` machines and no machine is shared: the schedule is feasible by
//! construction (the validator checks it anyway). With release times, a shelf starts at the
//! later of the top of the stack and its first job's release, and a later job joins a shelf
//! only if it is released by the shelf's start.
//!
//! Worked case, `n = 4`, jobs (r, t) = (2, 5), (3, 4), (2, 3), (1, 2): FFDH puts (2,5) on
//! shelf 0 at x = 0; (3,4) does not fit beside it, opens shelf 1 at time 5; (2,3) fits on
//! shelf 0 at x = 2; (1,2) fits on shelf 1 at x = 3. Makespan 9 = 5 + 4. NFDH, which only
//! looks at the top shelf, opens a third shelf for (2,3): makespan 12.
//!
//! Finding the shelf is indexed, never a scan: shelf starts never decrease (each shelf starts at
//! or after the top of the previous one), so the shelves a job released at `r` may join are a
//! suffix, found by binary search. FFDH asks a max-tree of free widths for the lowest shelf of
//! that suffix with room ([`FreeTree`]); BFDH without release times takes the first element of
//! an ordered set of (free width, shelf) at or above the job's width, which is the fullest shelf
//! with room, lowest index first, exactly the scan's choice. With release times BFDH scans the
//! suffix.
//!
//! # Complexity
//! `O(m log m)` to sort, plus `O(log S)` per job for the `S <= m` shelves (NFDH: `O(1)`; BFDH
//! with release times: `O(S)`).

use super::model::{Instance, Placement, Schedule};
use serde::Serialize;
use std::collections::BTreeSet;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Packer {
    Nfdh,
    Ffdh,
    Bfdh,
}

struct Shelf {
    start: f64,
    height: f64,
    used: u32,
}

/// The shelves' free widths in a max segment tree over shelf indices, doubled as shelves open
/// (so its height follows the shelves actually open, not the jobs). A leaf holds `free + 1` for
/// an open shelf and 0 for one not yet opened, so no width, not even 0, fits an unopened shelf.
///
/// Invariant: every inner node holds the maximum of its two children.
struct FreeTree {
    leaves: usize,
    node: Vec<u32>,
}

impl FreeTree {
    fn new() -> Self {
        let leaves = 64;
        FreeTree {
            leaves,
            node: vec![0; 2 * leaves],
        }
    }

    /// Sets shelf `k`'s free width (`k` at most one past the highest shelf set so far).
    fn set(&mut self, k: usize, free: u32) {
        if k >= self.leaves {
            self.grow();
        }
        let mut i = self.leaves + k;
        self.node[i] = free + 1;
        while i > 1 {
            i /= 2;
            self.node[i] = self.node[2 * i].max(self.node[2 * i + 1]);
        }
    }

    /// Doubles the leaves, keeping every shelf's value, and rebuilds the inner nodes. `O(S)`,
    /// so `O(1)` amortized per shelf.
    fn grow(&mut self) {
        let old = self.leaves;
        let leaves = 2 * old;
        let mut node = vec![0; 2 * leaves];
        node[leaves..leaves + old].copy_from_slice(&self.node[old..2 * old]);
        for i in (1..leaves).rev() {
            node[i] = node[2 * i].max(node[2 * i + 1]);
        }
        self.leaves = leaves;
        self.node = node;
    }

    /// The lowest shelf `k >= lo` with at least `width` free, if any. `O(log S)`.
    fn first_fit(&self, lo: usize, width: u32) -> Option<usize> {
        let need = width + 1;
        if lo > 0 {
            return self.descend(1, 0, self.leaves, lo, need);
        }
        if self.node[1] < need {
            return None;
        }
        // the leftmost leaf holding at least `need`: go left whenever the left side has one
        let mut i = 1;
        while i < self.leaves {
            i = if self.node[2 * i] >= need {
                2 * i
            } else {
                2 * i + 1
            };
        }
        Some(i - self.leaves)
    }

    fn descend(&self, i: usize, a: usize, b: usize, lo: usize, need: u32) -> Option<usize> {
        if b <= lo || self.node[i] < need {
            return None;
        }
        if b - a == 1 {
            return Some(a);
        }
        let mid = (a + b) / 2;
        self.descend(2 * i, a, mid, lo, need)
            .or_else(|| self.descend(2 * i + 1, mid, b, lo, need))
    }
}

/// `(key, job, ranks)` of every job with its chosen variant, sorted: by decreasing time, ties
/// by index (a total order). Reading each job once, in index order, and carrying what the packing needs keeps
/// the packing loop off the jobs' scattered variant lists. Sorting `(key, index)` orders
/// exactly as comparing `t(b).total_cmp(&t(a)).then(a.cmp(&b))`: the key is
/// `total_order_key(t)` negated (`!`), and the time is `key_time(key)`.
fn by_decreasing_height(inst: &Instance, variants: &[u32]) -> Vec<(i64, u32, u32)> {
    let mut keyed: Vec<(i64, u32, u32)> = inst
        .jobs
        .iter()
        .zip(variants)
        .enumerate()
        .map(|(i, (job, &k))| {
            let v = job.variants[k as usize];
            (!total_order_key(v.time), i as u32, v.ranks)
        })
        .collect();
    keyed.sort_unstable();
    keyed
}

/// The time a key of [`by_decreasing_height`] was made from.
fn key_time(key: i64) -> f64 {
    // total_order_key is its own inverse (it keeps the sign bit and flips the others or not)
    f64::from_bits(total_order_key_bits(!key) as u64)
}

/// An integer whose order is `f64::total_cmp`'s: negative numbers' magnitude bits are flipped.
fn total_order_key(t: f64) -> i64 {
    total_order_key_bits(t.to_bits() as i64)
}

fn total_order_key_bits(b: i64) -> i64 {
    b ^ ((((b >> 63) as u64) >> 1) as i64)
}

/// Packs the jobs with the given variants; returns each job's `(start, first machine)` and the
/// makespan.
///
/// # Arguments
/// `variants[i]`: the variant of job `i`, which must fit on `n` machines.
pub fn pack_starts(inst: &Instance, variants: &[u32], packer: Packer) -> (Vec<(f64, u32)>, f64) {
    let n = inst.machines;
    let order = by_decreasing_height(inst, variants);
    let released = inst.jobs.iter().any(|j| j.release > 0.0);
    let mut shelves: Vec<Shelf> = Vec::new();
    let mut tree = FreeTree::new();
    // BFDH without release times: (free width, shelf) of every open shelf that has room (a full
    // shelf stays only if some job is 0 wide)
    let mut by_free: BTreeSet<(u32, u32)> = BTreeSet::new();
    let keep_full = order.iter().any(|&(_, _, ranks)| ranks == 0);
    let mut top = 0.0f64;
    let mut out = vec![(0.0, 0u32); inst.jobs.len()];
    for &(key, i, ranks) in &order {
        let release = if released {
            inst.jobs[i as usize].release
        } else {
            0.0
        };
        let fits = |s: &Shelf| s.used + ranks <= n && release <= s.start;
        // the shelves starting at or after the release (starts never decrease)
        let lo = if released {
            shelves.partition_point(|s| s.start < release)
        } else {
            0
        };
        let chosen = match packer {
            Packer::Nfdh => shelves
                .last()
                .filter(|s| fits(s))
                .map(|_| shelves.len() - 1),
            Packer::Ffdh => tree.first_fit(lo, ranks),
            Packer::Bfdh if !released => {
                by_free.range((ranks, 0)..).next().map(|&(_, k)| k as usize)
            }
            Packer::Bfdh => {
                let mut best: Option<usize> = None;
                for (k, s) in shelves.iter().enumerate().skip(lo) {
                    if fits(s) && best.is_none_or(|b| s.used > shelves[b].used) {
                        best = Some(k);
                    }
                }
                best
            }
        };
        let k = match chosen {
            Some(k) => k,
            None => {
                let start = top.max(release);
                let height = key_time(key);
                shelves.push(Shelf {
                    start,
                    height,
                    used: 0,
                });
                top = start + height;
                shelves.len() - 1
            }
        };
        let s = &mut shelves[k];
        out[i as usize] = (s.start, s.used);
        let before = n - s.used;
        s.used += ranks;
        debug_assert!(key_time(key) <= s.height);
        match packer {
            Packer::Ffdh => tree.set(k, n - s.used),
            Packer::Bfdh if !released => {
                by_free.remove(&(before, k as u32));
                if s.used < n || keep_full {
                    by_free.insert((n - s.used, k as u32));
                }
            }
            _ => {}
        }
    }
    (out, top)
}

/// Packs the jobs and returns the schedule with concrete machine sets.
pub fn pack(inst: &Instance, variants: &[u32], packer: Packer) -> Schedule {
    let (starts, _) = pack_starts(inst, variants, packer);
    Schedule {
        placements: starts
            .iter()
            .enumerate()
            .map(|(i, &(start, x))| {
                let k = variants[i];
                Placement {
                    variant: k,
                    start,
                    machines: vec![(x, inst.jobs[i].variants[k as usize].ranks)],
                }
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The definition, by scanning every shelf: the reference the indexed search must equal.
    fn pack_by_scan(inst: &Instance, variants: &[u32], packer: Packer) -> (Vec<(f64, u32)>, f64) {
        let n = inst.machines;
        let mut shelves: Vec<Shelf> = Vec::new();
        let mut top = 0.0f64;
        let mut out = vec![(0.0, 0u32); inst.jobs.len()];
        let t = |i: u32| inst.jobs[i as usize].variants[variants[i as usize] as usize].time;
        let mut order: Vec<u32> = (0..inst.jobs.len() as u32).collect();
        order.sort_by(|&a, &b| t(b).total_cmp(&t(a)).then(a.cmp(&b)));
        for i in order {
            let job = &inst.jobs[i as usize];
            let v = job.variants[variants[i as usize] as usize];
            let fits = |s: &Shelf| s.used + v.ranks <= n && job.release <= s.start;
            let chosen = match packer {
                Packer::Nfdh => shelves
                    .last()
                    .filter(|s| fits(s))
                    .map(|_| shelves.len() - 1),
                Packer::Ffdh => shelves.iter().position(fits),
                Packer::Bfdh => {
                    let mut best: Option<usize> = None;
                    for (k, s) in shelves.iter().enumerate() {
                        if fits(s) && best.is_none_or(|b| s.used > shelves[b].used) {
                            best = Some(k);
                        }
                    }
                    best
                }
            };
            let k = chosen.unwrap_or_else(|| {
                let start = top.max(job.release);
                shelves.push(Shelf {
                    start,
                    height: v.time,
                    used: 0,
                });
                top = start + v.time;
                shelves.len() - 1
            });
            out[i as usize] = (shelves[k].start, shelves[k].used);
            shelves[k].used += v.ranks;
        }
        (out, top)
    }

    proptest! {
        #[test]
        fn the_sort_key_orders_as_total_cmp(a in any::<f64>(), b in any::<f64>()) {
            prop_assert_eq!(total_order_key(a).cmp(&total_order_key(b)), a.total_cmp(&b));
            prop_assert_eq!(key_time(!total_order_key(a)).to_bits(), a.to_bits());
        }

        #[test]
        fn indexed_shelf_search_places_every_job_where_the_scan_does(
            n in 1u32..40,
            jobs in proptest::collection::vec((0u32..40, 1u32..30, 0u32..4), 0..120),
            released in any::<bool>(),
        ) {
            let mut inst = Instance::rigid(
                n,
                &jobs.iter().map(|&(r, t, _)| (r.min(n), t as f64)).collect::<Vec<_>>(),
            );
            if released {
                for (j, &(_, _, rel)) in inst.jobs.iter_mut().zip(&jobs) {
                    j.release = (rel * 7) as f64;
                }
            }
            let v = vec![0; jobs.len()];
            for packer in [Packer::Nfdh, Packer::Ffdh, Packer::Bfdh] {
                prop_assert_eq!(pack_starts(&inst, &v, packer), pack_by_scan(&inst, &v, packer));
            }
        }
    }

    #[test]
    fn worked_case_of_the_module_doc() {
        let inst = Instance::rigid(4, &[(2, 5.0), (3, 4.0), (2, 3.0), (1, 2.0)]);
        let v = vec![0; 4];
        let (s, t) = pack_starts(&inst, &v, Packer::Ffdh);
        assert_eq!(t, 9.0);
        assert_eq!(s, vec![(0.0, 0), (5.0, 0), (0.0, 2), (5.0, 3)]);
        // NFDH cannot go back to shelf 0 for (2,3): it opens a third shelf at 9, 3 high
        let (s, t) = pack_starts(&inst, &v, Packer::Nfdh);
        assert_eq!(t, 12.0);
        assert_eq!(s[2], (9.0, 0));
    }

    #[test]
    fn best_fit_prefers_the_fullest_shelf() {
        // shelves: s0 = {(2,9)} with 2 used, s1 = {(3,8)} with 3 used; the job (1,1) goes on s0
        // under FFDH (first) and on s1 under BFDH (least width left)
        let inst = Instance::rigid(4, &[(2, 9.0), (3, 8.0), (1, 1.0)]);
        let (ff, _) = pack_starts(&inst, &[0, 0, 0], Packer::Ffdh);
        let (bf, _) = pack_starts(&inst, &[0, 0, 0], Packer::Bfdh);
        assert_eq!(ff[2], (0.0, 2));
        assert_eq!(bf[2], (9.0, 3));
    }
}
