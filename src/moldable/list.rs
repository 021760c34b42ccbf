//! List scheduling with backfilling: the GA's alternative decoder (ours, not the source's).
//! Jobs are taken in the chromosome's order; each starts at the earliest time, not before its
//! release, at which `r` machines stay free for its whole run, given the jobs placed before it
//! (so a later job may fill a hole left earlier: backfilling). Machine sets need not be
//! contiguous, so a start time is feasible exactly when the count of busy machines never goes
//! over `n - r`; concrete machines are then assigned by [`assign_machines`].
//!
//! The capacity profile is a step function kept as sorted breakpoints `(time, busy)`; `busy`
//! holds from that time to the next breakpoint and the last breakpoint has `busy = 0` forever.
//!
//! Worked case, `n = 4`, order (3, 4), (2, 2), (1, 4): the first job takes [0, 4) on 3
//! machines; (2, 2) needs 2 free, so starts at 4; (1, 4) fits beside the first at 0.
//! Makespan 6.
//!
//! # Complexity
//! `O(B)` per job for the search and the insertion, `B <= 2m + 1` breakpoints: `O(m^2)` worst
//! case; segments that are full from time 0 on are skipped for good.

use super::model::{Instance, Placement, Schedule};
use std::collections::BTreeMap;

/// Reusable buffers of the decoder.
#[derive(Default)]
pub struct ListDecoder {
    times: Vec<f64>,
    busy: Vec<u32>,
    starts: Vec<f64>,
}

impl ListDecoder {
    /// Start times of every job (indexed by job) and the makespan.
    pub fn decode(&mut self, inst: &Instance, order: &[u32], variants: &[u32]) -> f64 {
        let n = inst.machines;
        self.times.clear();
        self.busy.clear();
        self.times.push(0.0);
        self.busy.push(0);
        self.starts.clear();
        self.starts.resize(inst.jobs.len(), 0.0);
        let mut floor = 0usize; // segments before it are full
        let mut makespan = 0.0f64;
        for &i in order {
            let job = &inst.jobs[i as usize];
            let v = job.variants[variants[i as usize] as usize];
            let cap = n - v.ranks;
            // first candidate: the segment holding the release, from the floor on
            let mut k = floor;
            while k + 1 < self.times.len() && self.times[k + 1] <= job.release {
                k += 1;
            }
            let mut s = self.times[k].max(job.release);
            let mut j = k;
            loop {
                if j >= self.times.len() || self.times[j] >= s + v.time {
                    break;
                }
                if self.busy[j] > cap {
                    // blocked: restart just after this segment
                    s = self.times[j + 1];
                    j += 1;
                    continue;
                }
                j += 1;
            }
            let e = s + v.time;
            self.starts[i as usize] = s;
            makespan = makespan.max(e);
            let a = self.split_at(s);
            let b = self.split_at(e);
            for x in &mut self.busy[a..b] {
                *x += v.ranks;
            }
            while floor + 1 < self.times.len() && self.busy[floor] >= n {
                floor += 1;
            }
        }
        makespan
    }

    /// Index of the breakpoint at time `t`, inserted (copying the busy count of the segment it
    /// splits) when absent.
    fn split_at(&mut self, t: f64) -> usize {
        let idx = self.times.partition_point(|&x| x < t);
        if idx < self.times.len() && self.times[idx] == t {
            return idx;
        }
        // t lies inside segment idx - 1 (idx >= 1 since times[0] = 0 <= t), or past the end
        let busy = self.busy[idx - 1];
        self.times.insert(idx, t);
        self.busy.insert(idx, busy);
        idx
    }

    /// The starts of the last decoding, by job.
    pub fn starts(&self) -> &[f64] {
        &self.starts
    }
}

/// Gives each job concrete machines for given start times: a sweep in time order (ends before
/// starts at the same instant; starts by job index) hands each starting job the lowest free
/// machines. Feasible whenever the busy count never exceeds `n`, which the list decoder ensures.
///
/// # Complexity
/// `O(m log m + sum of the runs handed out)`.
pub fn assign_machines(inst: &Instance, starts: &[f64], variants: &[u32]) -> Schedule {
    // events: (time, 0 = end / 1 = start, job)
    let mut events: Vec<(f64, u8, u32)> = Vec::with_capacity(2 * starts.len());
    for (i, &s) in starts.iter().enumerate() {
        let t = inst.jobs[i].variants[variants[i] as usize].time;
        events.push((s, 1, i as u32));
        events.push((s + t, 0, i as u32));
    }
    events.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    // free runs: first -> count, merged on release
    let mut free: BTreeMap<u32, u32> = BTreeMap::new();
    free.insert(0, inst.machines);
    let mut held: Vec<Vec<(u32, u32)>> = vec![Vec::new(); starts.len()];
    for &(_, kind, i) in &events {
        let i = i as usize;
        if kind == 1 {
            let mut need = inst.jobs[i].variants[variants[i] as usize].ranks;
            let mut runs = Vec::new();
            while need > 0 {
                let Some((&first, &count)) = free.iter().next() else {
                    break; // infeasible starts: the validator reports the missing machines
                };
                free.remove(&first);
                let take = count.min(need);
                runs.push((first, take));
                if take < count {
                    free.insert(first + take, count - take);
                }
                need -= take;
            }
            held[i] = runs;
        } else {
            for &(first, count) in &held[i] {
                release_run(&mut free, first, count);
            }
        }
    }
    Schedule {
        placements: held
            .into_iter()
            .enumerate()
            .map(|(i, machines)| Placement {
                variant: variants[i],
                start: starts[i],
                machines,
            })
            .collect(),
    }
}

fn release_run(free: &mut BTreeMap<u32, u32>, mut first: u32, mut count: u32) {
    if let Some((&pf, &pc)) = free.range(..first).next_back() {
        if pf + pc == first {
            free.remove(&pf);
            first = pf;
            count += pc;
        }
    }
    if let Some(&nc) = free.get(&(first + count)) {
        free.remove(&(first + count));
        count += nc;
    }
    free.insert(first, count);
}

/// Decodes an order and variants into a complete schedule.
pub fn schedule(inst: &Instance, order: &[u32], variants: &[u32]) -> Schedule {
    let mut d = ListDecoder::default();
    d.decode(inst, order, variants);
    assign_machines(inst, d.starts(), variants)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn worked_case_of_the_module_doc_backfills() {
        let inst = Instance::rigid(4, &[(3, 4.0), (2, 2.0), (1, 4.0)]);
        let mut d = ListDecoder::default();
        let t = d.decode(&inst, &[0, 1, 2], &[0, 0, 0]);
        assert_eq!(t, 6.0);
        assert_eq!(d.starts(), &[0.0, 4.0, 0.0]);
        let s = assign_machines(&inst, d.starts(), &[0, 0, 0]);
        assert_eq!(s.placements[0].machines, vec![(0, 3)]);
        assert_eq!(s.placements[2].machines, vec![(3, 1)]);
        assert_eq!(s.placements[1].machines, vec![(0, 2)]);
    }

    #[test]
    fn a_hole_is_filled_only_when_the_job_fits_in_it() {
        // (4,1) then (4,1) then (2,3): holes none; (1, 1) released at 0 cannot start before 2
        let inst = Instance::rigid(4, &[(4, 1.0), (2, 3.0), (4, 1.0), (2, 1.0)]);
        let mut d = ListDecoder::default();
        d.decode(&inst, &[0, 1, 2, 3], &[0, 0, 0, 0]);
        assert_eq!(d.starts(), &[0.0, 1.0, 4.0, 1.0]);
    }
}
