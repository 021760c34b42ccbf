//! The state of one run while it is simulated: the machine, the jobs' outcomes, the running
//! set and the work counters, changed by the placement loop (`simulate.rs`) and the EASY pass
//! (`easy.rs`) alike, and what a run hands to its report (`report.rs`).

use super::machine::{Footprint, Machine, Placement};
use super::metrics;
use super::policy::Placer;
use super::scenario::{Backfill, Job, PolicyId};
use crate::topology::Topology;
use std::collections::BinaryHeap;

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
pub(super) struct Ending(pub(super) f64, pub(super) u32);
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

pub(super) struct Sim<'a> {
    pub(super) m: Machine,
    pub(super) placer: Placer,
    pub(super) jobs: &'a [Job],
    pub(super) cores: usize,
    pub(super) out: Vec<Outcome>,
    pub(super) decisions: u64,
    pub(super) events: Vec<(f64, bool, u32)>,
    pub(super) running: BinaryHeap<Ending>,
    pub(super) work: Work,
    pub(super) runtime: Option<super::runtime::State>,
}

impl Sim<'_> {
    pub(super) fn try_start(&mut self, j: usize, t: f64) -> bool {
        self.decisions += 1;
        let n = self.jobs[j].nodes;
        self.count_search(n);
        let limit = self.placer.switch_limit(j, t - self.jobs[j].arrival);
        let Some(p) = self.placer.place_job(&self.m, n, limit) else {
            return false;
        };
        self.start_placed(j, p, t);
        true
    }

    /// Counts the search steps of one placement attempt of `n` nodes (what admission bounds).
    pub(super) fn count_search(&mut self, n: usize) {
        let policy = self.placer.policy;
        if n <= self.m.free_count && policy != PolicyId::ClosedMinNaive {
            match (&self.m.topo, policy.is_closed()) {
                (Topology::Tree(t), false) if policy == PolicyId::SlurmTree => {
                    self.work.search_steps += super::estimate::slurm_tree_steps_of(
                        t.nodes() as f64,
                        t.routers() as f64,
                        t.levels() as f64,
                        n as f64,
                    ) as u64
                }
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
    pub(super) fn busy(&mut self, j: usize, nodes: &[u32]) -> Footprint {
        let job = &self.jobs[j];
        let f = metrics::traffic(&self.m.topo, nodes, job.tasks, self.cores, job.comm);
        self.work.route_steps += (f.routers.len() + f.links.len()) as u64;
        f
    }

    /// Commits job `j` on `p` at time `t`. Busy-region rule: a closed policy's job loads the
    /// routers of its actual traffic (its `comm` pattern's routes), so a job with `comm: none`
    /// blocks only its nodes; a closed region never includes a loaded router.
    pub(super) fn start_placed(&mut self, j: usize, mut p: Placement, t: f64) {
        // a policy may hand back a list with room for the whole machine: keep only the nodes
        p.nodes.shrink_to_fit();
        p.owned_idle.shrink_to_fit();
        if let (Topology::Mesh(mesh), Some("relax-closed")) = (&self.m.topo, p.fallback) {
            let side = (mesh.width + mesh.height) as f64;
            self.work.search_steps += super::rect::relax_closed_steps(side) as u64;
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
    pub(super) fn launch(&mut self, j: usize, p: Placement, t: f64) {
        self.start_placed(j, p, t);
        let end = t + self.jobs[j].duration;
        self.out[j].end = Some(end);
        self.running.push(Ending(end, j as u32));
    }

    /// With the contention model on: the running set changed at `t`, so every running job's
    /// end is recomputed from its new stretch ([`super::runtime`]).
    pub(super) fn restretch(&mut self, t: f64) {
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
    pub(super) fn release(&mut self, j: u32) {
        let o = &mut self.out[j as usize];
        let region = std::mem::take(&mut o.region);
        let p = o.placement.take().expect("a running job");
        self.m.release(&p, &region);
        self.out[j as usize].placement = Some(p);
    }
}
