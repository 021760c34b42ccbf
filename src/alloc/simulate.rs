//! Runs one policy over a workload: a job set placed in order, or a job stream simulated in
//! logical time (FCFS, optionally EASY backfilling with [`super::easy`]). The run's contention
//! (a sweep of the start/end events intersecting every running job's traffic footprint) is
//! measured by [`super::report::report`].
//!
//! Invariants (property-tested): placed jobs never share a node; the machine never holds more
//! nodes than it has; jobs placed by a closed-min policy without the `relax-closed` fallback never
//! share a router or link with a job running at the same time.

use super::easy::{easy_backfill, Easy};
use super::machine::Machine;
use super::policy::Placer;
use super::scenario::{Backfill, Job};
use super::state::{Ending, Sim};
pub use super::state::{Mode, Outcome, RunResult, Sched, Work};
use crate::progress::Progress;
use crate::topology::Topology;
use std::collections::{BinaryHeap, VecDeque};

/// Runs `jobs` under `policy` on `topo`; progress counts from `progress_base` of `progress_total`.
#[allow(clippy::too_many_arguments)]
pub fn simulate(
    topo: &Topology,
    cores: usize,
    jobs: &[Job],
    placer: Placer,
    mode: Mode,
    progress: &mut dyn Progress,
    progress_base: u64,
    progress_total: u64,
) -> RunResult {
    simulate_with(
        topo,
        cores,
        jobs,
        placer,
        mode,
        progress,
        progress_base,
        progress_total,
        None,
    )
}

/// [`simulate`] with the run-time-under-contention model (`runtime`, streams only): job ends
/// follow the model's stretches instead of `start + duration`.
#[allow(clippy::too_many_arguments)]
pub fn simulate_with(
    topo: &Topology,
    cores: usize,
    jobs: &[Job],
    placer: Placer,
    mode: Mode,
    progress: &mut dyn Progress,
    progress_base: u64,
    progress_total: u64,
    runtime: Option<super::runtime::State>,
) -> RunResult {
    let mut m = Machine::new(topo.clone());
    if let Some(g) = m.avail.as_mut() {
        // the free-rectangle table pays off only when a pass tries many jobs on one state
        g.tables = matches!(mode, Mode::Stream(s) if s.backfill == Backfill::Easy);
    }
    let mut sim = Sim {
        m,
        placer,
        jobs,
        cores,
        out: vec![Outcome::default(); jobs.len()],
        decisions: 0,
        events: Vec::new(),
        running: BinaryHeap::new(),
        work: Work::default(),
        runtime,
    };
    match mode {
        Mode::Set => {
            for j in 0..jobs.len() {
                sim.try_start(j, 0.0);
                if j % 64 == 0 {
                    progress.tick(progress_base + j as u64, progress_total);
                }
            }
        }
        Mode::Stream(sched) => run_stream(&mut sim, sched, progress, progress_base, progress_total),
    }
    // Non-closed policies do not track router usage while placing; load every placed job's
    // busy routers now so that the fragmentation measure sees the same machine for every policy.
    if !sim.placer.policy.is_closed() {
        for j in 0..sim.out.len() {
            let o = &sim.out[j];
            if let (Some(p), None) = (&o.placement, o.end) {
                let nodes = p.nodes.clone();
                let busy = sim.busy(j, &nodes);
                sim.m.load_routers(&busy);
            }
        }
    }
    let largest_free = largest_free_region(&sim.m);
    if let Some(g) = &sim.m.avail {
        sim.work.search_steps += g.work.get();
    }
    RunResult {
        free_at_end: sim.m.free_count,
        outcomes: sim.out,
        decisions: sim.decisions,
        events: sim.events,
        largest_free,
        cores,
        work: sim.work,
        runtime: sim.runtime,
    }
}

fn run_stream(sim: &mut Sim, sched: Sched, progress: &mut dyn Progress, base: u64, total: u64) {
    let n = sim.jobs.len();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| {
        sim.jobs[a]
            .arrival
            .total_cmp(&sim.jobs[b].arrival)
            .then(a.cmp(&b))
    });
    let mut next = 0;
    let mut queue: VecDeque<usize> = VecDeque::new();
    let mut done = 0u64;
    let mut easy = Easy::default();
    loop {
        let events_before = sim.events.len();
        let t_arr = order.get(next).map(|&j| sim.jobs[j].arrival);
        let t_end = sim.running.peek().map(|e| e.0);
        let t = match (t_arr, t_end) {
            (None, None) => break,
            (Some(a), None) => a,
            (None, Some(e)) => e,
            (Some(a), Some(e)) => a.min(e),
        };
        while sim.running.peek().is_some_and(|e| e.0 <= t) {
            let Ending(te, j) = sim.running.pop().unwrap();
            let o = &sim.out[j as usize];
            if te != o.start.unwrap() + sim.jobs[j as usize].walltime {
                // it ended before its walltime: the reservation assumed otherwise
                easy.reservation = None;
            }
            sim.release(j);
            easy.releases += 1;
            sim.events.push((te, false, j));
        }
        while next < n && sim.jobs[order[next]].arrival <= t {
            let j = order[next];
            next += 1;
            // a job that cannot fit even the empty machine is refused at once, not queued
            // (it would block everyone behind it until the machine drains)
            if sim.placer.can_ever_fit(&sim.m.topo, sim.jobs[j].nodes) {
                queue.push_back(j);
            } else {
                done += 1;
            }
        }
        // FCFS: start the head while it fits
        while let Some(&head) = queue.front() {
            let need = sim.jobs[head].nodes;
            // a kept reservation says when the head fits first: before that it cannot start
            let waits = easy
                .reservation
                .as_ref()
                .is_some_and(|r| r.head == head && t < r.shadow && r.shadow.is_finite());
            if waits {
                sim.decisions += 1;
            }
            if !waits && sim.try_start(head, t) {
                queue.pop_front();
                let end = t + sim.jobs[head].duration;
                sim.out[head].end = Some(end);
                sim.running.push(Ending(end, head as u32));
                done += 1;
            } else if sim.running.is_empty() {
                // nothing will ever leave (e.g. a closed policy with no region of that size):
                // this job can never start
                queue.pop_front();
                done += 1;
            } else {
                if sim.m.free_count >= need {
                    sim.out[head].blocked_by_fragmentation = true;
                }
                break;
            }
        }
        if sched.backfill == Backfill::Easy && queue.len() > 1 {
            easy_backfill(sim, &mut queue, t, &mut done, sched.depth, &mut easy);
        }
        if sim.events.len() != events_before {
            sim.restretch(t);
        }
        if done % 16 == 0 {
            progress.tick(base + done, total);
        }
    }
    // jobs still queued when nothing runs any more could never start
    progress.tick(base + n as u64, total);
}

/// Size of the largest job a closed placement could still take: the largest available rectangle
/// (mesh) or the largest usable-router capacity (tree).
fn largest_free_region(m: &Machine) -> usize {
    match &m.topo {
        Topology::Mesh(_) => super::rect::largest_free_rectangle(m.avail.as_ref().unwrap()),
        Topology::Tree(t) => {
            let cap = super::policy::closed_min_tree::capacities(m, t, true);
            let single = usize::from(m.free_count > 0);
            cap.into_iter().max().unwrap_or(0).max(single)
        }
    }
}
