//! Runs one policy over a workload: a job set placed in order, or a job stream simulated in
//! logical time (FCFS, optionally EASY backfilling), then measures contention by sweeping the
//! start/end events and intersecting every running job's traffic footprint.
//!
//! Invariants (property-tested): placed jobs never share a node; the machine never holds more
//! nodes than it has; jobs placed by a closed-min policy without the `relax-closed` fallback never
//! share a router or link with a job running at the same time.

use super::machine::{Footprint, Machine, Placement};
use super::metrics;
use super::policy::Placer;
use super::report::{ranges, Frame, JobReport, Omitted, RunReport, Summary};
use super::scenario::{Backfill, Job, PolicyId};
use crate::progress::Progress;
use crate::topology::Topology;
use std::collections::{BinaryHeap, VecDeque};

/// How many queued jobs EASY backfilling looks at behind the head, per scheduling pass.
pub const BACKFILL_DEPTH: usize = 64;

/// What happened to one job.
#[derive(Debug, Clone, Default)]
pub struct Outcome {
    pub placement: Option<Placement>,
    pub start: Option<f64>,
    pub end: Option<f64>,
    /// Routers and links of the job's traffic, as ascending `[first, count]` runs.
    pub traffic: Packed,
    /// Routers of every route between the job's nodes; kept only by closed policies, which must
    /// keep other regions out of it (and release it when the job ends).
    pub region: Footprint,
    pub blocked_by_fragmentation: bool,
}

/// Everything a run produced, before it becomes a report.
pub struct RunResult {
    pub outcomes: Vec<Outcome>,
    pub decisions: u64,
    /// `(time, is_start, job)` in the order they happened (ends before starts at equal times).
    pub events: Vec<(f64, bool, u32)>,
    /// Largest free closed region at the end (sets), as nodes.
    pub largest_free: usize,
    pub free_at_end: usize,
}

/// A footprint stored as runs of ids: a mesh job's routes cover row spans, so this is
/// `O(rows + columns)` per job instead of `O(routers)`.
#[derive(Debug, Clone, Default)]
pub struct Packed {
    pub routers: Vec<[u32; 2]>,
    pub links: Vec<[u32; 2]>,
    pub router_count: usize,
    pub link_count: usize,
}

impl Packed {
    fn new(f: &Footprint) -> Self {
        Packed {
            routers: ranges(&f.routers),
            links: ranges(&f.links),
            router_count: f.routers.len(),
            link_count: f.links.len(),
        }
    }
}

fn ids(runs: &[[u32; 2]]) -> impl Iterator<Item = u32> + '_ {
    runs.iter().flat_map(|r| r[0]..r[0] + r[1])
}

/// Workload mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Set,
    Stream(Backfill),
}

#[derive(PartialEq)]
struct Ending(f64, u32);
impl Eq for Ending {}
impl PartialOrd for Ending {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Ending {
    // min-heap on (time, job)
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        o.0.total_cmp(&self.0).then(o.1.cmp(&self.1))
    }
}

struct Sim<'a> {
    m: Machine,
    placer: Placer,
    jobs: &'a [Job],
    cores: usize,
    out: Vec<Outcome>,
    decisions: u64,
    events: Vec<(f64, bool, u32)>,
    running: BinaryHeap<Ending>,
}

impl Sim<'_> {
    fn try_start(&mut self, j: usize, t: f64) -> bool {
        let job = &self.jobs[j];
        self.decisions += 1;
        let Some(p) = self.placer.place(&self.m, job.nodes) else {
            return false;
        };
        let traffic = Packed::new(&metrics::traffic(
            &self.m.topo,
            &p.nodes,
            job.tasks,
            self.cores,
            job.comm,
        ));
        let region = if self.placer.policy.is_closed() {
            metrics::region(&self.m.topo, &p.nodes)
        } else {
            Footprint::default()
        };
        self.m.commit(j as u32, &p, &region);
        let o = &mut self.out[j];
        o.placement = Some(p);
        o.region = region;
        o.traffic = traffic;
        o.start = Some(t);
        self.events.push((t, true, j as u32));
        true
    }
}

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
    let m = Machine::new(topo.clone());
    let mut sim = Sim {
        m,
        placer,
        jobs,
        cores,
        out: vec![Outcome::default(); jobs.len()],
        decisions: 0,
        events: Vec::new(),
        running: BinaryHeap::new(),
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
        Mode::Stream(backfill) => {
            run_stream(&mut sim, backfill, progress, progress_base, progress_total)
        }
    }
    // Non-closed policies do not track router usage while placing; load every placed job's
    // routes now so that the fragmentation measure sees the same machine for every policy.
    if !sim.placer.policy.is_closed() {
        for o in &sim.out {
            if o.placement.is_some() && o.end.is_none() {
                let nodes = &o.placement.as_ref().unwrap().nodes;
                sim.m.load_routers(&metrics::region(&sim.m.topo, nodes));
            }
        }
    }
    let largest_free = largest_free_region(&sim.m);
    RunResult {
        free_at_end: sim.m.free_count,
        outcomes: sim.out,
        decisions: sim.decisions,
        events: sim.events,
        largest_free,
    }
}

fn run_stream(
    sim: &mut Sim,
    backfill: Backfill,
    progress: &mut dyn Progress,
    base: u64,
    total: u64,
) {
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
    loop {
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
            let (p, r) = (o.placement.clone().unwrap(), o.region.clone());
            sim.m.release(&p, &r);
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
            if sim.try_start(head, t) {
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
        if backfill == Backfill::Easy && queue.len() > 1 {
            easy_backfill(sim, &mut queue, t, &mut done);
        }
        if done % 16 == 0 {
            progress.tick(base + done, total);
        }
    }
    // jobs still queued when nothing runs any more could never start
    progress.tick(base + n as u64, total);
}

/// EASY: the head gets a reservation at the *shadow time*, the earliest time enough nodes will be
/// free by the running jobs' walltimes; a later job may start now if it fits now and either ends
/// before the shadow time or uses only nodes the head will not need then. The reservation counts
/// nodes; on a mesh the head may still find them fragmented, which is reported.
fn easy_backfill(sim: &mut Sim, queue: &mut VecDeque<usize>, t: f64, done: &mut u64) {
    let head = queue[0];
    let need = sim.jobs[head].nodes;
    let mut ends: Vec<(f64, usize)> = sim
        .running
        .iter()
        .map(|e| {
            let j = e.1 as usize;
            let o = &sim.out[j];
            let p = o.placement.as_ref().unwrap();
            (
                o.start.unwrap() + sim.jobs[j].walltime,
                p.nodes.len() + p.owned_idle.len(),
            )
        })
        .collect();
    ends.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut free = sim.m.free_count;
    let mut shadow = f64::INFINITY;
    for (te, k) in ends {
        free += k;
        if free >= need {
            shadow = te;
            break;
        }
    }
    let mut extra = free.saturating_sub(need);
    let mut i = 1;
    let mut looked = 0;
    while i < queue.len() && looked < BACKFILL_DEPTH {
        looked += 1;
        let j = queue[i];
        let job = &sim.jobs[j];
        let ends_in_time = t + job.walltime <= shadow;
        if job.nodes <= sim.m.free_count
            && (ends_in_time || job.nodes <= extra)
            && sim.try_start(j, t)
        {
            if !ends_in_time {
                let p = sim.out[j].placement.as_ref().unwrap();
                extra = extra.saturating_sub(p.nodes.len() + p.owned_idle.len());
            }
            let end = t + job.duration;
            sim.out[j].end = Some(end);
            sim.running.push(Ending(end, j as u32));
            queue.remove(i);
            *done += 1;
        } else {
            i += 1;
        }
    }
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

/// Indexed set of ids: O(1) insert/remove, sorted snapshot on demand.
struct IdSet {
    items: Vec<u32>,
    pos: Vec<u32>,
}
impl IdSet {
    fn new(n: usize) -> Self {
        IdSet {
            items: Vec::new(),
            pos: vec![u32::MAX; n],
        }
    }
    fn insert(&mut self, v: u32) {
        if self.pos[v as usize] == u32::MAX {
            self.pos[v as usize] = self.items.len() as u32;
            self.items.push(v);
        }
    }
    fn remove(&mut self, v: u32) {
        let p = self.pos[v as usize];
        if p != u32::MAX {
            let last = *self.items.last().unwrap();
            self.items.swap_remove(p as usize);
            if last != v {
                self.pos[last as usize] = p;
            }
            self.pos[v as usize] = u32::MAX;
        }
    }
    fn sorted(&self) -> Vec<u32> {
        let mut v = self.items.clone();
        v.sort_unstable();
        v
    }
}

/// Most shared ids a run lists per job in total; past it, lists are dropped (counts stay).
pub const SHARED_ID_BUDGET: usize = 500_000;
/// Most ids (running jobs, contended routers and links) all frames of a run may hold; past it,
/// every other frame is dropped until they fit.
pub const FRAME_ID_BUDGET: usize = 1_000_000;
/// Most node ranges a run lists; past it, node lists are dropped (counts stay).
pub const NODE_RANGE_BUDGET: usize = 2_000_000;

/// Per-job shared ids, each `(job, id)` recorded once, with a budget on what is stored.
struct Shared {
    ids: Vec<Vec<u32>>,
    counts: Vec<usize>,
    stored: usize,
    omitted: bool,
}
impl Shared {
    fn new(jobs: usize) -> Self {
        Shared {
            ids: vec![Vec::new(); jobs],
            counts: vec![0; jobs],
            stored: 0,
            omitted: false,
        }
    }
    fn add(&mut self, job: u32, id: u32) {
        self.counts[job as usize] += 1;
        if self.stored < SHARED_ID_BUDGET {
            self.ids[job as usize].push(id);
            self.stored += 1;
        } else {
            self.omitted = true;
        }
    }
}

/// Users of each resource (router or link) among running jobs, tracking which are contended.
/// Each user carries a mark: whether this resource is already recorded as shared for it.
struct Usage {
    users: Vec<Vec<(u32, bool)>>,
    contended: IdSet,
    ever: Vec<bool>,
}
impl Usage {
    fn new(n: usize) -> Self {
        Usage {
            users: vec![Vec::new(); n],
            contended: IdSet::new(n),
            ever: vec![false; n],
        }
    }
    fn start(&mut self, j: u32, ids: impl Iterator<Item = u32>, shared: &mut Shared) {
        for r in ids {
            let u = &mut self.users[r as usize];
            let busy = !u.is_empty();
            if busy {
                shared.add(j, r);
                for (k, marked) in u.iter_mut() {
                    if !*marked {
                        *marked = true;
                        shared.add(*k, r);
                    }
                }
                self.contended.insert(r);
                self.ever[r as usize] = true;
            }
            u.push((j, busy));
        }
    }
    fn end(&mut self, j: u32, ids: impl Iterator<Item = u32>) {
        for r in ids {
            let u = &mut self.users[r as usize];
            if let Some(p) = u.iter().position(|x| x.0 == j) {
                u.swap_remove(p);
            }
            if u.len() < 2 {
                self.contended.remove(r);
            }
        }
    }
}

/// Turns a run into its report: per-job metrics, contention from the event sweep, frames.
#[allow(clippy::too_many_arguments)]
pub fn report(
    topo: &Topology,
    jobs: &[Job],
    policy: PolicyId,
    res: RunResult,
    mode: Mode,
    frames: usize,
    slowdown_bound: f64,
) -> RunReport {
    let n_jobs = jobs.len();
    let mut shared_r = Shared::new(n_jobs);
    let mut shared_l = Shared::new(n_jobs);
    let mut ru = Usage::new(topo.routers());
    let mut lu = Usage::new(topo.links());
    let mut running = IdSet::new(n_jobs);
    let mut busy = 0usize;
    let horizon = res.events.iter().map(|e| e.0).fold(0.0f64, f64::max);
    let frame_times: Vec<f64> = match mode {
        Mode::Set => Vec::new(),
        Mode::Stream(_) => (0..frames)
            .map(|k| (k as f64 + 0.5) * horizon / frames as f64)
            .collect(),
    };
    let mut out_frames = Vec::new();
    let mut fi = 0;
    let snap = |time: f64, running: &IdSet, busy: usize, ru: &Usage, lu: &Usage| Frame {
        time,
        running: running.sorted(),
        busy_nodes: busy,
        contended_routers: ru.contended.sorted(),
        contended_links: lu.contended.sorted(),
    };
    for &(t, is_start, j) in &res.events {
        while fi < frame_times.len() && frame_times[fi] < t {
            out_frames.push(snap(frame_times[fi], &running, busy, &ru, &lu));
            fi += 1;
        }
        let o = &res.outcomes[j as usize];
        let held = o.placement.as_ref().map_or(0, |p| p.nodes.len());
        if is_start {
            ru.start(j, ids(&o.traffic.routers), &mut shared_r);
            lu.start(j, ids(&o.traffic.links), &mut shared_l);
            running.insert(j);
            busy += held;
        } else {
            ru.end(j, ids(&o.traffic.routers));
            lu.end(j, ids(&o.traffic.links));
            running.remove(j);
            busy -= held;
        }
    }
    if mode == Mode::Set {
        out_frames.push(snap(0.0, &running, busy, &ru, &lu));
    }
    while fi < frame_times.len() {
        out_frames.push(snap(frame_times[fi], &running, busy, &ru, &lu));
        fi += 1;
    }

    let stream = matches!(mode, Mode::Stream(_));
    let mut reports = Vec::with_capacity(n_jobs);
    let (mut placed, mut contended, mut idle, mut closed_jobs) = (0, 0, 0, 0);
    let (mut sum_d, mut sum_h) = (0.0, 0.0);
    let (mut sum_wait, mut max_wait, mut sum_bsld, mut frag_blocks) = (0.0, 0.0f64, 0.0, 0);
    let mut work = 0.0;
    let first_arrival = jobs.iter().map(|j| j.arrival).fold(f64::INFINITY, f64::min);
    for (i, job) in jobs.iter().enumerate() {
        let o = &res.outcomes[i];
        let mut sr = if shared_r.omitted {
            Vec::new()
        } else {
            std::mem::take(&mut shared_r.ids[i])
        };
        sr.sort_unstable();
        let mut sl = if shared_l.omitted {
            Vec::new()
        } else {
            std::mem::take(&mut shared_l.ids[i])
        };
        sl.sort_unstable();
        let (sr_count, sl_count) = (shared_r.counts[i], shared_l.counts[i]);
        if o.blocked_by_fragmentation {
            frag_blocks += 1;
        }
        let (nodes, owned_idle, fallback) = match &o.placement {
            Some(p) => (p.nodes.as_slice(), p.owned_idle.len(), p.fallback),
            None => (&[][..], 0, None),
        };
        let is_placed = o.placement.is_some();
        let diameter = metrics::diameter(topo, nodes);
        let mean_hops = metrics::mean_hops(topo, nodes);
        let closed = o
            .placement
            .as_ref()
            .is_some_and(|p| metrics::is_closed(topo, p));
        if is_placed {
            placed += 1;
            idle += owned_idle;
            sum_d += diameter as f64;
            sum_h += mean_hops;
            if sr_count + sl_count > 0 {
                contended += 1;
            }
            if closed {
                closed_jobs += 1;
            }
        }
        let (wait, bsld) = match (stream, o.start) {
            (true, Some(s)) => {
                let w = s - job.arrival;
                let b = ((w + job.duration) / job.duration.max(slowdown_bound)).max(1.0);
                sum_wait += w;
                max_wait = max_wait.max(w);
                sum_bsld += b;
                work += nodes.len() as f64 * job.duration;
                (Some(w), Some(b))
            }
            _ => (None, None),
        };
        reports.push(JobReport {
            id: i,
            name: job.name.clone(),
            tasks: job.tasks,
            nodes: job.nodes,
            node_ranges: ranges(nodes),
            placed: is_placed,
            fallback,
            owned_idle,
            diameter,
            mean_hops,
            closed,
            routers: o.traffic.router_count,
            links: o.traffic.link_count,
            shared_router_count: sr_count,
            shared_link_count: sl_count,
            shared_routers: sr,
            shared_links: sl,
            arrival: stream.then_some(job.arrival),
            start: stream.then_some(o.start),
            end: stream.then_some(o.end),
            wait: stream.then_some(wait),
            bounded_slowdown: stream.then_some(bsld),
        });
    }
    let nodes_total = topo.nodes() as f64;
    let pf = placed.max(1) as f64;
    let makespan = horizon
        - if first_arrival.is_finite() {
            first_arrival
        } else {
            0.0
        };
    let utilization = if stream {
        if makespan > 0.0 {
            work / (nodes_total * makespan)
        } else {
            0.0
        }
    } else {
        reports
            .iter()
            .filter(|r| r.placed)
            .map(|r| r.nodes)
            .sum::<usize>() as f64
            / nodes_total
    };
    let summary = Summary {
        placed,
        unplaced: n_jobs - placed,
        decisions: res.decisions,
        utilization,
        fragmentation: (!stream).then(|| {
            if res.free_at_end == 0 {
                0.0
            } else {
                1.0 - res.largest_free.min(res.free_at_end) as f64 / res.free_at_end as f64
            }
        }),
        contended_jobs: contended,
        shared_routers: ru.ever.iter().filter(|&&e| e).count(),
        shared_links: lu.ever.iter().filter(|&&e| e).count(),
        mean_diameter: sum_d / pf,
        mean_hops: sum_h / pf,
        owned_idle: idle,
        closed_jobs,
        makespan: stream.then_some(makespan),
        mean_wait: stream.then_some(sum_wait / pf),
        max_wait: stream.then_some(max_wait),
        mean_bounded_slowdown: stream.then_some(sum_bsld / pf),
        fragmentation_blocks: stream.then_some(frag_blocks),
    };
    // keep the report bounded: node lists and frames within their budgets
    let node_ranges: usize = reports.iter().map(|r| r.node_ranges.len()).sum();
    let node_ranges_omitted = node_ranges > NODE_RANGE_BUDGET;
    if node_ranges_omitted {
        reports.iter_mut().for_each(|r| r.node_ranges = Vec::new());
    }
    let frame_ids = |f: &[Frame]| {
        f.iter()
            .map(|x| x.running.len() + x.contended_routers.len() + x.contended_links.len())
            .sum::<usize>()
    };
    let mut frames_thinned = false;
    while out_frames.len() > 1 && frame_ids(&out_frames) > FRAME_ID_BUDGET {
        out_frames = out_frames.into_iter().step_by(2).collect();
        frames_thinned = true;
    }
    RunReport {
        policy: policy.id(),
        label: policy.label(),
        jobs: reports,
        summary,
        frames: out_frames,
        omitted: Omitted {
            shared_ids: shared_r.omitted || shared_l.omitted,
            node_ranges: node_ranges_omitted,
            frames_thinned,
        },
    }
}
