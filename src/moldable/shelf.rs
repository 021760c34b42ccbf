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
//! # Complexity
//! `O(m log m)` to sort, plus `O(S)` per job to scan the `S <= m` shelves (NFDH: `O(1)`).

use super::model::{Instance, Placement, Schedule};
use serde::Serialize;

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

/// Job indices by decreasing time of their chosen variant, ties by index (a total order).
pub fn decreasing_height(inst: &Instance, variants: &[u32]) -> Vec<u32> {
    let t = |i: u32| inst.jobs[i as usize].variants[variants[i as usize] as usize].time;
    let mut order: Vec<u32> = (0..inst.jobs.len() as u32).collect();
    order.sort_by(|&a, &b| t(b).total_cmp(&t(a)).then(a.cmp(&b)));
    order
}

/// Packs the jobs with the given variants; returns each job's `(start, first machine)` and the
/// makespan.
///
/// # Arguments
/// `variants[i]`: the variant of job `i`, which must fit on `n` machines.
pub fn pack_starts(inst: &Instance, variants: &[u32], packer: Packer) -> (Vec<(f64, u32)>, f64) {
    let n = inst.machines;
    let order = decreasing_height(inst, variants);
    let mut shelves: Vec<Shelf> = Vec::new();
    let mut top = 0.0f64;
    let mut out = vec![(0.0, 0u32); inst.jobs.len()];
    for &i in &order {
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
        let k = match chosen {
            Some(k) => k,
            None => {
                let start = top.max(job.release);
                shelves.push(Shelf {
                    start,
                    height: v.time,
                    used: 0,
                });
                top = start + v.time;
                shelves.len() - 1
            }
        };
        let s = &mut shelves[k];
        out[i as usize] = (s.start, s.used);
        s.used += v.ranks;
        debug_assert!(v.time <= s.height);
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
