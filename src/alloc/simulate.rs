//! Runs one policy over a workload: a job set placed in order, or a job stream simulated in
//! logical time (FCFS, optionally EASY backfilling), then measures contention by sweeping the
//! start/end events and intersecting every running job's traffic footprint.
//!
//! Invariants (property-tested): placed jobs never share a node; the machine never holds more
//! nodes than it has; jobs placed by a closed-min policy without the `relax-closed` fallback never
//! share a router or link with a job running at the same time.

use super::easy::{self, Fit, Reservation, Reserved, Running};
use super::machine::{Footprint, Machine, Placement};
use super::metrics;
use super::policy::Placer;
use super::report::{ranges, Frame, JobReport, Omitted, RunReport, Summary};
use super::scenario::{Backfill, Job, PolicyId};
use crate::progress::Progress;
use crate::topology::Topology;
use std::collections::{BinaryHeap, VecDeque};

/// What happened to one job.
///
/// Only what the report needs is kept per job: the placement and times. Footprints are
/// recomputed from the nodes when needed (at release, in the contention sweep), so memory per
/// finished job is its node list, not its routes.
#[derive(Debug, Clone, Default)]
pub struct Outcome {
    pub placement: Option<Placement>,
    pub start: Option<f64>,
    pub end: Option<f64>,
    /// Number of routers and links of the job's traffic.
    pub traffic_routers: usize,
    pub traffic_links: usize,
    /// The routers the job keeps busy while it runs: those of its traffic (its `comm` pattern's
    /// routes). Held only by closed policies' running jobs, which place no closed region across a
    /// busy router; emptied when the job ends, so finished jobs keep no footprint.
    pub region: Footprint,
    pub blocked_by_fragmentation: bool,
}

/// Work counters of one run: what the admission estimate bounds (see `tests/bounds.rs`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Work {
    /// Router and link ids produced by footprint computations (traffic, regions, the sweep).
    pub route_steps: u64,
    /// Node scans of the list policies and word/cell operations of the rectangle searches.
    pub search_steps: u64,
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
    pub cores: usize,
    pub work: Work,
    /// The run-time-under-contention model's state at the end (scenario option `contention`).
    pub runtime: Option<super::runtime::State>,
}

/// Workload mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Set,
    Stream(Sched),
}

/// How a stream is scheduled: FCFS, or EASY looking at `depth` queued jobs behind the head.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sched {
    pub backfill: Backfill,
    pub depth: usize,
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
    work: Work,
    runtime: Option<super::runtime::State>,
}

impl Sim<'_> {
    fn try_start(&mut self, j: usize, t: f64) -> bool {
        self.decisions += 1;
        let n = self.jobs[j].nodes;
        self.count_search(n);
        let Some(p) = self.placer.place(&self.m, n) else {
            return false;
        };
        self.start_placed(j, p, t);
        true
    }

    /// Counts the search steps of one placement attempt of `n` nodes (what admission bounds).
    fn count_search(&mut self, n: usize) {
        let policy = self.placer.policy;
        if n <= self.m.free_count && policy != PolicyId::ClosedMinNaive {
            match (&self.m.topo, policy.is_closed()) {
                // the list policies scan the node list once per placement
                (_, false) => self.work.search_steps += self.m.owner.len() as u64,
                // the tree policies compute every router's capacity, again with a fallback,
                // each pass weighted 2 (measured: a pass costs about two node scans)
                (Topology::Tree(t), true) => {
                    self.work.search_steps += 4 * (t.nodes() + t.routers()) as u64
                }
                // mesh searches count their own operations (Grid::work); listing the shapes
                (Topology::Mesh(_), true) => {
                    self.work.search_steps +=
                        2 * super::policy::closed_min_mesh::ceil_sqrt(n) as u64 + 8
                }
            }
        }
    }

    /// The routers and links job `j` keeps busy on placement `nodes`: its traffic's.
    fn busy(&mut self, j: usize, nodes: &[u32]) -> Footprint {
        let job = &self.jobs[j];
        let f = metrics::traffic(&self.m.topo, nodes, job.tasks, self.cores, job.comm);
        self.work.route_steps += (f.routers.len() + f.links.len()) as u64;
        f
    }

    /// Commits job `j` on `p` at time `t`. Busy-region rule: a closed policy's job loads the
    /// routers of its actual traffic (its `comm` pattern's routes), so a job with `comm: none`
    /// blocks only its nodes; a closed region never includes a loaded router.
    fn start_placed(&mut self, j: usize, mut p: Placement, t: f64) {
        // a policy may hand back a list with room for the whole machine: keep only the nodes
        p.nodes.shrink_to_fit();
        p.owned_idle.shrink_to_fit();
        if let (Topology::Mesh(mesh), Some("relax-closed")) = (&self.m.topo, p.fallback) {
            let side = (mesh.width + mesh.height) as f64;
            self.work.search_steps += super::estimate::relax_closed_steps(side) as u64;
        }
        let traffic = self.busy(j, &p.nodes);
        let region = if self.placer.policy.is_closed() {
            Footprint {
                routers: traffic.routers.clone(),
                links: Vec::new(),
            }
        } else {
            Footprint::default()
        };
        self.m.commit(j as u32, &p, &region);
        let o = &mut self.out[j];
        o.placement = Some(p);
        o.region = region;
        o.traffic_routers = traffic.routers.len();
        o.traffic_links = traffic.links.len();
        o.start = Some(t);
        self.events.push((t, true, j as u32));
    }

    /// Starts job `j` on `p` at time `t` and schedules its end.
    fn launch(&mut self, j: usize, p: Placement, t: f64) {
        self.start_placed(j, p, t);
        let end = t + self.jobs[j].duration;
        self.out[j].end = Some(end);
        self.running.push(Ending(end, j as u32));
    }

    /// With the contention model on: the running set changed at `t`, so every running job's
    /// end is recomputed from its new stretch ([`super::runtime`]).
    fn restretch(&mut self, t: f64) {
        let Some(rt) = self.runtime.as_mut() else {
            return;
        };
        let mut running: Vec<u32> = self.running.iter().map(|e| e.1).collect();
        running.sort_unstable();
        let out = &self.out;
        let ends = rt.update(t, &running, self.jobs, |j| {
            out[j as usize]
                .placement
                .as_ref()
                .map_or(&[][..], |p| &p.nodes[..])
        });
        self.running.clear();
        for (j, end) in ends {
            self.out[j as usize].end = Some(end);
            self.running.push(Ending(end, j));
        }
    }

    /// Frees job `j`'s nodes and the busy routers it held (a finished job keeps no footprint).
    fn release(&mut self, j: u32) {
        let o = &mut self.out[j as usize];
        let region = std::mem::take(&mut o.region);
        let p = o.placement.take().expect("a running job");
        self.m.release(&p, &region);
        self.out[j as usize].placement = Some(p);
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

/// EASY state kept between scheduling passes, so that a pass costs what changed since the last.
///
/// The kept reservation is one of EASY's rules (see [`Easy::reservation`]). The caches never
/// change a decision: a feasibility summary is kept until a job is
/// released (starts only make the machine busier, so an old summary still rules out every job
/// it ruled out, and a job it lets through is then searched for); a failed search is remembered
/// until a job is released.
#[derive(Default)]
struct Easy {
    /// The head's reservation: made when a job becomes the head, and made again only when a
    /// running job ends before its walltime. While every job ends at its walltime the kept one
    /// stays exact: releasing running jobs only frees nodes and routers, every policy's search
    /// succeeds on a machine if it succeeds on a busier one, and a job backfilled since either
    /// ends by the shadow time or avoids the reservation (its spare nodes are deducted), so the
    /// shadow time a new computation would find is the same and the reserved placement is still
    /// available then.
    reservation: Option<Reservation>,
    /// Bumped by every release of a real job.
    releases: u64,
    /// Bumped by every new reservation.
    serial: u64,
    /// Feasibility on the machine as it is, keyed by `releases`.
    fit_now: Option<(u64, Fit)>,
    /// Feasibility with the reservation held, keyed by `(releases, serial)`.
    fit_held: Option<(u64, u64, Fit)>,
    /// Job sizes whose search failed, keyed like the summaries.
    failed_now: (u64, Vec<usize>),
    failed_held: (u64, u64, Vec<usize>),
}

impl Easy {
    /// Whether the policy may place `n` nodes on the machine as it is (never a false "no").
    fn fits_now(&mut self, sim: &Sim, n: usize) -> bool {
        if self.fit_now.as_ref().is_none_or(|f| f.0 != self.releases) {
            self.fit_now = Some((self.releases, Fit::of(&sim.m, &sim.placer)));
        }
        if self.failed_now.0 != self.releases {
            self.failed_now = (self.releases, Vec::new());
        }
        !self.failed_now.1.contains(&n)
            && self
                .fit_now
                .as_ref()
                .unwrap()
                .1
                .fits(&sim.m, &sim.placer, n)
    }

    /// The policy's placement for `n` nodes now, after [`Easy::fits_now`] said yes.
    fn place_now(&mut self, sim: &mut Sim, n: usize) -> Option<Placement> {
        let p = sim.placer.place(&sim.m, n);
        if p.is_none() {
            self.failed_now.1.push(n);
        }
        p
    }

    /// The policy's placement for `n` nodes with the reserved placement held.
    fn place_held(
        &mut self,
        sim: &mut Sim,
        n: usize,
        placement: &Placement,
        blocking: &Footprint,
    ) -> Option<Placement> {
        let key = (self.releases, self.serial);
        if self.failed_held.0 != key.0 || self.failed_held.1 != key.1 {
            self.failed_held = (key.0, key.1, Vec::new());
        }
        if self.failed_held.2.contains(&n) {
            return None;
        }
        if self.fit_held.as_ref().is_none_or(|f| (f.0, f.1) != key) {
            let taken = easy::hold(&mut sim.m, placement, blocking);
            self.fit_held = Some((key.0, key.1, Fit::of(&sim.m, &sim.placer)));
            easy::unhold(&mut sim.m, &taken, blocking);
        }
        // the caller checked that `n` nodes are free beside the reservation, which is all the
        // summary reads of the machine besides itself
        let p = if self
            .fit_held
            .as_ref()
            .unwrap()
            .2
            .fits(&sim.m, &sim.placer, n)
        {
            let taken = easy::hold(&mut sim.m, placement, blocking);
            let p = sim.placer.place(&sim.m, n);
            easy::unhold(&mut sim.m, &taken, blocking);
            p
        } else {
            None
        };
        if p.is_none() {
            self.failed_held.2.push(n);
        }
        p
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

/// The head's reservation on the machine as it is now (rules in [`crate::alloc::easy`]).
fn reserve(sim: &mut Sim, head: usize) -> Reservation {
    let n = sim.jobs[head].nodes;
    let mut running: Vec<Running> = sim
        .running
        .iter()
        .map(|e| {
            let j = e.1 as usize;
            let o = &sim.out[j];
            Running {
                job: e.1,
                wall_end: o.start.unwrap() + sim.jobs[j].walltime,
                placement: o.placement.as_ref().unwrap(),
                region: &o.region,
            }
        })
        .collect();
    let (shadow, reserved) = if sim.placer.policy.is_closed() {
        easy::reserve_region(&mut sim.m, &mut sim.placer, n, &mut running)
    } else {
        easy::reserve_count(sim.m.free_count, n, &mut running)
    };
    Reservation {
        head,
        shadow,
        reserved,
    }
}

/// EASY backfilling, one pass at time `t` (rules in [`crate::alloc::easy`]): up to `depth` queued
/// jobs behind the head are examined in queue order; each starts now if it cannot delay the
/// head's reservation. Every examined job counts as one decision.
fn easy_backfill(
    sim: &mut Sim,
    queue: &mut VecDeque<usize>,
    t: f64,
    done: &mut u64,
    depth: usize,
    easy: &mut Easy,
) {
    let head = queue[0];
    let mut res = match easy.reservation.take() {
        Some(r) if r.head == head => r,
        _ => {
            easy.serial += 1;
            reserve(sim, head)
        }
    };
    let mut i = 1;
    let mut looked = 0;
    while i < queue.len() && looked < depth {
        looked += 1;
        sim.decisions += 1;
        let j = queue[i];
        let n = sim.jobs[j].nodes;
        let ends_in_time = t + sim.jobs[j].walltime <= res.shadow;
        let placed = if n > sim.m.free_count || !easy.fits_now(sim, n) {
            None
        } else if ends_in_time {
            easy.place_now(sim, n)
        } else {
            match &res.reserved {
                Reserved::Nothing => None, // no shadow time: every job ends in time
                Reserved::Count { spare } => {
                    if n <= *spare {
                        easy.place_now(sim, n)
                    } else {
                        None
                    }
                }
                Reserved::Region {
                    placement,
                    blocking,
                } => {
                    if n + easy::free_part(&sim.m, placement) > sim.m.free_count {
                        None
                    } else {
                        easy.place_held(sim, n, placement, blocking)
                            // a relax-closed placement ignores routers: its traffic must still
                            // avoid the reserved region
                            .filter(|q| {
                                q.fallback != Some("relax-closed")
                                    || easy::avoids(&sim.busy(j, &q.nodes).routers, blocking)
                            })
                    }
                }
            }
        };
        if let Some(p) = placed {
            if !ends_in_time {
                if let Reserved::Count { spare } = &mut res.reserved {
                    *spare -= p.nodes.len() + p.owned_idle.len();
                }
            }
            sim.launch(j, p, t);
            queue.remove(i);
            *done += 1;
        } else {
            i += 1;
        }
    }
    easy.reservation = Some(res);
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

/// How many bytes of a report one run may spend on per-job rows and on frames (see
/// [`super::REPORT_BYTE_CAP`]). Rows past the budget are left out (the first ones kept), frames
/// are thinned evenly; counts and summaries always cover every job.
#[derive(Debug, Clone, Copy)]
pub struct ReportBudget {
    pub row_bytes: usize,
    pub frame_bytes: usize,
}

/// Contention of running jobs, one resource kind (routers or links), in `O(1)` per footprint id.
///
/// A resource `r` is *shared* for job `j` when another job using `r` runs at some moment during
/// `j`'s run: either one was already running when `j` started (`count[r] > 0` then, remembered
/// in `j`'s start bitset), or one started later, before `j` ended (the latest start on `r`,
/// `last[r]`, is newer than `j`'s start when `j` ends). Memory is per resource plus one bit per
/// footprint id of each *running* job, never per finished job.
struct Contention {
    /// Per resource: running jobs using it, and the start number of the latest one to start.
    state: Vec<[u32; 2]>,
    ever: Vec<bool>,
    contended: IdSet,
}

impl Contention {
    fn new(n: usize) -> Self {
        Contention {
            state: vec![[0, 0]; n],
            ever: vec![false; n],
            contended: IdSet::new(n),
        }
    }
    /// Job with start number `seq` starts on `ids`; bit `i` of `mark` (from `offset`): id `i`
    /// was busy already.
    fn start(&mut self, seq: u32, ids: &[u32], mark: &mut [u64], offset: usize) {
        for (i, &r) in ids.iter().enumerate() {
            let r = r as usize;
            let st = &mut self.state[r];
            st[0] += 1;
            st[1] = seq;
            if st[0] > 1 {
                let bit = offset + i;
                mark[bit / 64] |= 1 << (bit % 64);
                self.ever[r] = true;
                if st[0] == 2 {
                    self.contended.insert(r as u32);
                }
            }
        }
    }
    /// The job ends; returns how many of its ids were shared during its run.
    fn end(&mut self, seq: u32, ids: &[u32], mark: &[u64], offset: usize) -> usize {
        let mut shared = 0;
        for (i, &r) in ids.iter().enumerate() {
            let r = r as usize;
            let bit = offset + i;
            let st = &mut self.state[r];
            if mark[bit / 64] >> (bit % 64) & 1 == 1 || st[1] > seq {
                shared += 1;
            }
            st[0] -= 1;
            if st[0] == 1 {
                self.contended.remove(r as u32);
            }
        }
        shared
    }
}

/// Frames kept within a byte budget while the sweep runs: every `stride`-th requested frame;
/// when the kept ones outgrow the budget the stride doubles and the others are dropped, so
/// the frames stay evenly spaced and memory stays within the budget.
struct FrameKeeper {
    budget: usize,
    stride: usize,
    bytes: usize,
    kept: Vec<(usize, Frame, usize)>,
}

impl FrameKeeper {
    fn wants(&self, index: usize) -> bool {
        self.stride != 0 && index % self.stride == 0
    }
    fn push(&mut self, index: usize, frame: Frame, requested: usize) {
        let len = serde_json::to_vec(&frame).map_or(0, |v| v.len()) + 1;
        self.kept.push((index, frame, len));
        self.bytes += len;
        while self.bytes > self.budget && self.stride != 0 {
            self.stride *= 2;
            if self.stride > requested.max(1) {
                // even a single frame does not fit
                self.stride = 0;
            }
            let stride = self.stride;
            self.kept.retain(|k| stride != 0 && k.0 % stride == 0);
            self.bytes = self.kept.iter().map(|k| k.2).sum();
        }
    }
}

/// Turns a run into its report: per-job metrics, contention from the event sweep, frames.
/// `progress(f)` is told the fraction `f` of this report done (the sweep, then the rows).
#[allow(clippy::too_many_arguments)]
pub fn report(
    topo: &Topology,
    jobs: &[Job],
    policy: PolicyId,
    mut res: RunResult,
    mode: Mode,
    frames: usize,
    slowdown_bound: f64,
    budget: ReportBudget,
    progress: &mut dyn FnMut(f64),
) -> RunReport {
    let n_jobs = jobs.len();
    let mut cr = Contention::new(topo.routers());
    let mut cl = Contention::new(topo.links());
    let mut shared_counts = vec![(0usize, 0usize); n_jobs];
    let mut seq_of = vec![0u32; n_jobs];
    let mut marks: Vec<Vec<u64>> = vec![Vec::new(); n_jobs];
    let mut next_seq = 0u32;
    let mut running = IdSet::new(n_jobs);
    let mut busy = 0usize;
    let horizon = res.events.iter().map(|e| e.0).fold(0.0f64, f64::max);
    let requested = match mode {
        Mode::Set => 1,
        Mode::Stream(_) => frames,
    };
    let frame_times: Vec<f64> = match mode {
        Mode::Set => Vec::new(),
        Mode::Stream(_) => (0..frames)
            .map(|k| (k as f64 + 0.5) * horizon / frames as f64)
            .collect(),
    };
    let mut keeper = FrameKeeper {
        budget: budget.frame_bytes,
        stride: 1,
        bytes: 0,
        kept: Vec::new(),
    };
    let mut fi = 0;
    let snap = |time: f64, running: &IdSet, busy: usize, cr: &Contention, cl: &Contention| Frame {
        time,
        running: running.sorted(),
        busy_nodes: busy,
        contended_routers: cr.contended.sorted(),
        contended_links: cl.contended.sorted(),
    };
    let cores = res.cores;
    let mut route_steps = 0u64;
    let footprint = |j: usize, o: &Outcome, steps: &mut u64| -> Footprint {
        let nodes = &o.placement.as_ref().expect("placed").nodes;
        let job = &jobs[j];
        let f = metrics::traffic(topo, nodes, job.tasks, cores, job.comm);
        *steps += (f.routers.len() + f.links.len()) as u64;
        f
    };
    let n_events = res.events.len().max(1);
    for (k, &(t, is_start, j)) in res.events.iter().enumerate() {
        while fi < frame_times.len() && frame_times[fi] < t {
            if keeper.wants(fi) {
                keeper.push(
                    fi,
                    snap(frame_times[fi], &running, busy, &cr, &cl),
                    requested,
                );
            }
            fi += 1;
        }
        let ju = j as usize;
        let o = &res.outcomes[ju];
        let held = o.placement.as_ref().map_or(0, |p| p.nodes.len());
        let f = footprint(ju, o, &mut route_steps);
        let nr = f.routers.len();
        if is_start {
            next_seq += 1;
            seq_of[ju] = next_seq;
            let mut mark = vec![0u64; (nr + f.links.len()).div_ceil(64)];
            cr.start(next_seq, &f.routers, &mut mark, 0);
            cl.start(next_seq, &f.links, &mut mark, nr);
            marks[ju] = mark;
            running.insert(j);
            busy += held;
        } else {
            let mark = std::mem::take(&mut marks[ju]);
            shared_counts[ju] = (
                cr.end(seq_of[ju], &f.routers, &mark, 0),
                cl.end(seq_of[ju], &f.links, &mark, nr),
            );
            running.remove(j);
            busy -= held;
        }
        if k % 256 == 0 {
            progress(0.5 * k as f64 / n_events as f64);
        }
    }
    if mode == Mode::Set {
        keeper.push(0, snap(0.0, &running, busy, &cr, &cl), requested);
    }
    while fi < frame_times.len() {
        if keeper.wants(fi) {
            keeper.push(
                fi,
                snap(frame_times[fi], &running, busy, &cr, &cl),
                requested,
            );
        }
        fi += 1;
    }
    // jobs still running when the events end (every job of a set) end now
    let still: Vec<u32> = running.sorted();
    for j in still {
        let ju = j as usize;
        let f = footprint(ju, &res.outcomes[ju], &mut route_steps);
        let mark = std::mem::take(&mut marks[ju]);
        let nr = f.routers.len();
        shared_counts[ju] = (
            cr.end(seq_of[ju], &f.routers, &mark, 0),
            cl.end(seq_of[ju], &f.links, &mark, nr),
        );
    }
    res.work.route_steps += route_steps;
    let out_frames: Vec<Frame> = keeper.kept.into_iter().map(|k| k.1).collect();
    let frames_omitted = requested - out_frames.len();
    progress(0.5);

    let stream = matches!(mode, Mode::Stream(_));
    let mut reports = Vec::with_capacity(n_jobs);
    let (mut placed, mut contended, mut idle, mut closed_jobs) = (0, 0, 0, 0);
    let (mut sum_d, mut sum_h) = (0.0, 0.0);
    let (mut sum_wait, mut max_wait, mut sum_bsld, mut frag_blocks) = (0.0, 0.0f64, 0.0, 0);
    let mut work = 0.0;
    let mut placed_nodes = 0usize;
    let mut row_bytes_left = budget.row_bytes;
    let mut rows_omitted = 0usize;
    let first_arrival = jobs.iter().map(|j| j.arrival).fold(f64::INFINITY, f64::min);
    for (i, job) in jobs.iter().enumerate() {
        let o = &res.outcomes[i];
        let (sr_count, sl_count) = shared_counts[i];
        if i % 1024 == 0 {
            progress(0.5 + 0.5 * i as f64 / n_jobs.max(1) as f64);
        }
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
        if is_placed {
            placed_nodes += nodes.len();
        }
        if row_bytes_left == 0 {
            rows_omitted += 1;
            continue;
        }
        let row = JobReport {
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
            routers: o.traffic_routers,
            links: o.traffic_links,
            shared_router_count: sr_count,
            shared_link_count: sl_count,
            arrival: stream.then_some(job.arrival),
            start: stream.then_some(o.start),
            end: stream.then_some(o.end),
            wait: stream.then_some(wait),
            bounded_slowdown: stream.then_some(bsld),
            contention: None,
        };
        let len = serde_json::to_vec(&row).map_or(0, |v| v.len()) + 1;
        if len > row_bytes_left {
            // this row and every later one are left out: the rows kept are the first ones
            row_bytes_left = 0;
            rows_omitted += 1;
            continue;
        }
        row_bytes_left -= len;
        reports.push(row);
    }
    let nodes_total = topo.nodes() as f64;
    let pf = placed.max(1) as f64;
    // 0 when no job started (no events): never negative
    let makespan = (horizon
        - if first_arrival.is_finite() {
            first_arrival
        } else {
            0.0
        })
    .max(0.0);
    let utilization = if stream {
        if makespan > 0.0 {
            work / (nodes_total * makespan)
        } else {
            0.0
        }
    } else {
        placed_nodes as f64 / nodes_total
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
        shared_routers: cr.ever.iter().filter(|&&e| e).count(),
        shared_links: cl.ever.iter().filter(|&&e| e).count(),
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
    progress(1.0);
    RunReport {
        policy: policy.id(),
        label: policy.label(),
        jobs: reports,
        summary,
        frames: out_frames,
        omitted: Omitted {
            job_rows: rows_omitted,
            frames: frames_omitted,
        },
        contention: None,
        work: res.work,
    }
}
