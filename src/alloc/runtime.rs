//! Run time under contention: every running job's traffic goes through the flow-level network
//! simulator ([`crate::netsim`]) together with the traffic of every job running at the same
//! time, and each job's duration is stretched by its simulated communication slowdown.
//!
//! # The model (scenario option `contention`, `docs/format.md`)
//! - The machine becomes a netsim platform ([`network`]): a SimGrid platform file's (option
//!   `simgrid`), each node on the file's host of its name (a `topology.conf`'s nodes) or on its
//!   `i`-th host, the only way to simulate an irregular tree; or one with the machine's own
//!   routes ([`platform_of`]): a mesh
//!   `W x H` is netsim's `mesh2d` `W x H` (host `y * W + x`, X then Y); a tree with arities
//!   `[a0, .., aL-1]` (root first) is SimGrid's `FAT_TREE` `L; aL-1,..,a0; 1,..,1; 1,..,1` (one
//!   up-link per switch: a plain tree, routed up to the lowest common ancestor and down). Every
//!   link has the scenario's bandwidth (each direction) and latency. [`alloc_link`] maps a
//!   netsim link to the allocation engine's link id; the tests check that a job's flows use
//!   exactly the links of its traffic footprint (`metrics::traffic`).
//! - A job's traffic in one *window* of [`WINDOW`] second of its run time: each process sends
//!   `rate` bytes ([`super::npb`] profiles, or the scenario's `otherRate` for jobs without a
//!   kernel), spread evenly over its partners of the job's `comm` pattern (`all`: every other
//!   process; `neighbor`: ranks `i +- 1` and the reduction tree `i <-> (i - 1) / 2`; `none`:
//!   nothing). Process `r` runs on the job's node `r / coresPerNode`; messages between
//!   processes of one node stay off the network; the rest are summed per pair of nodes, one
//!   flow per ordered pair.
//! - `alone`: the simulated time of the job's window alone on the machine, on its own nodes.
//!   Its *communication part* is `a = min(1, alone / WINDOW)`: the share of each second of its
//!   baseline run time that moving its bytes takes.
//! - `with`: the time of the same window when every running job sends its window at the same
//!   instant. Slowdown `s = max(1, with / alone)` (1 when the job sends nothing on the network;
//!   max-min sharing is not monotone, so a rare ratio below 1 counts as 1: contention is never
//!   credited with speeding a job up).
//! - Stretch `(1 - a) + a * s`: seconds of run time per second of baseline (the job's
//!   `duration`). Event-driven: whenever the set of running jobs changes (a start or an end),
//!   every running job's remaining baseline time is advanced at its old stretch, the stretches
//!   are recomputed for the new set, and the ends are rescheduled. So a job's run time is
//!   `compute part + communication part x slowdown`, integrated over the sets it lived through.
//! - Deterministic: running jobs are taken in id order; netsim is deterministic.
//! - Bounded: the simulations and message building count their work (the simulator's work,
//!   its per-link set-up, processes enumerated) against the run's share of [`BUDGET`], which
//!   admission charges in full, and no simulation holds more than
//!   [`MAX_SIM_FLOWS`] flows; when either would be passed the run reports the time it stopped
//!   at, running jobs keep their last stretch and later jobs run at their baseline.
//!
//! # Complexity
//! Per change of the running set: building new jobs' messages `O(tasks log nodes)` (`all`:
//! `O(nodes^2)`), one alone simulation per new job and one simulation of all running jobs'
//! flows (see [`crate::netsim::maxmin`]).

use super::metrics::Comm;
use super::scenario::Job;
use crate::netsim::{
    simulate_rounds_budgeted, Budget, FatTreeSpec, JobTraffic, LinkParams, Message, Model,
    Platform, System,
};
use crate::progress::NoProgress;
use crate::topology::Topology;
use std::collections::BTreeMap;

/// Seconds of baseline run time whose traffic one simulation carries.
pub const WINDOW: f64 = 1.0;
/// Work a scenario's runs may spend on the model together, split evenly between its policies:
/// the network simulator's own work (`RoundsResult::work`: flow-capacity incidences visited,
/// flows rescheduled), [`sim_overhead`] per simulation, and the processes enumerated to build
/// messages. Measured natively (all-to-all windows of up to [`MAX_SIM_FLOWS`] flows on a
/// 64 x 64 and a 16 x 16 mesh): about 50 ns per unit, so about 5 s for a whole scenario at
/// worst; admission counts it (`estimate::CONTENTION_WORK_WEIGHT`).
pub const BUDGET: u64 = 100_000_000;
/// Most flows one simulation may hold: netsim's cost per event grows with the flows sharing
/// links, so a single all-to-all window of thousands of node pairs could take minutes alone.
pub const MAX_SIM_FLOWS: u64 = 1024;

/// The netsim platform with the allocation machine's routes (module doc).
///
/// # Errors
/// A link parameter netsim refuses (the scenario checks them first).
pub fn platform_of(topo: &Topology, link: LinkParams) -> Result<Platform, String> {
    let sys = match topo {
        Topology::Mesh(m) => System::Mesh2d {
            x: m.width as u32,
            y: m.height as u32,
        },
        Topology::Tree(t) => {
            let l = t.levels();
            let arities = t
                .arities()
                .ok_or("simulates a regular tree's own routes only (one arity per level); an irregular tree (a topology.conf) needs its SimGrid platform file: give contention.simgrid")?;
            System::FatTree(FatTreeSpec {
                levels: l as u32,
                down: arities.iter().rev().map(|&a| a as u32).collect(),
                up: vec![1; l],
                parallel: vec![1; l],
            })
        }
    };
    Platform::build(&sys, link)
}

/// The contention model's network: a netsim platform and the host of each node of the machine.
pub struct Network {
    pub platform: Platform,
    /// Per node id: its host in `platform`.
    pub host_of: Vec<u32>,
}

/// Where a network cannot be built: the scenario path to name and the message.
pub type NetworkError = (&'static str, String);

/// The contention model's network for machine `topo` and option `c`: without a platform file,
/// [`platform_of`] (every node its own host, the links of `c.bandwidth` and `c.latency`); with
/// `c.simgrid`, the SimGrid platform file's hosts, links and routes
/// ([`crate::netsim::Platform::from_simgrid`]). A machine with named nodes (a `topology.conf`)
/// puts each node on the file's host of the same name; any other puts node `i` on the file's
/// `i`-th host. A file is the only way to simulate an irregular tree: the routes are then the
/// file's, which the user states.
///
/// # Errors
/// `contention.simgrid`: the file's (`platform:LINE:COL: ...`), a node the file has no host
/// for, fewer hosts than nodes; `contention`: an irregular tree without a file.
pub fn network(
    topo: &Topology,
    c: &super::scenario::ContentionSpec,
) -> Result<Network, NetworkError> {
    const AT: &str = "contention.simgrid";
    let Some(xml) = &c.simgrid else {
        let link = LinkParams {
            bandwidth: c.bandwidth,
            latency: c.latency,
        };
        let platform = platform_of(topo, link).map_err(|m| ("contention", m))?;
        let host_of = (0..topo.nodes() as u32).collect();
        return Ok(Network { platform, host_of });
    };
    let sg = crate::formats::simgrid::parse(xml, "platform").map_err(|m| (AT, m))?;
    let hosts = sg.hosts.len();
    let n = topo.nodes();
    let names = match topo {
        Topology::Tree(t) => t.names(),
        Topology::Mesh(_) => None,
    };
    let host_of: Vec<u32> = match names {
        Some(names) => {
            let by_name: BTreeMap<&str, u32> =
                (0..hosts as u32).map(|h| (sg.host_name(h), h)).collect();
            names
                .nodes
                .iter()
                .map(|name| {
                    by_name.get(name.as_str()).copied().ok_or_else(|| {
                        (
                            AT,
                            format!(
                                "node {name:?} of the machine is not a host of the platform file (its {hosts} hosts: {})",
                                host_list(&sg)
                            ),
                        )
                    })
                })
                .collect::<Result<_, _>>()?
        }
        None => {
            if hosts < n {
                return Err((
                    AT,
                    format!("the machine has {n} nodes and the platform file {hosts} hosts: node i runs on the file's i-th host, so it needs at least {n}"),
                ));
            }
            (0..n as u32).collect()
        }
    };
    let platform = Platform::from_simgrid(sg).map_err(|m| (AT, m))?;
    Ok(Network { platform, host_of })
}

/// The first host names of a platform file, for a message.
fn host_list(sg: &crate::formats::simgrid::SgPlatform) -> String {
    let n = sg.hosts.len() as u32;
    let mut s: Vec<&str> = (0..n.min(4)).map(|h| sg.host_name(h)).collect();
    if n > 4 {
        s.push("…");
    }
    s.join(", ")
}

/// The allocation engine's id of the physical link that netsim's directed link `l` crosses.
pub fn alloc_link(topo: &Topology, p: &Platform, l: u32) -> u32 {
    let info = p.link_info(l);
    match topo {
        Topology::Mesh(m) => {
            let (a, b) = (
                info.from.min(info.to) as usize,
                info.from.max(info.to) as usize,
            );
            let ((xa, ya), (xb, _)) = (m.xy(a), m.xy(b));
            if xa != xb {
                m.hlink(xa, ya) as u32
            } else {
                m.vlink(xa, ya) as u32
            }
        }
        Topology::Tree(t) => {
            // the lower end of the link: a host, or a switch of netsim level >= 1
            let child = if info.up { info.from } else { info.to };
            if child < p.hosts() {
                return t.leaf_link(child as usize) as u32;
            }
            let (level, pos) = p.tree_vertex(child).unwrap_or((1, 0));
            let l_alloc = t.levels() - level as usize;
            let router = t.ancestor(pos as usize * t.leaves_under(l_alloc), l_alloc);
            (router - 1) as u32
        }
    }
}

/// Work of one simulation besides the simulator's own (`RoundsResult::work`): setting up and
/// copying out its per-link arrays, one unit per directed link of the platform.
pub fn sim_overhead(p: &Platform) -> u64 {
    u64::from(p.links())
}

/// Work of building a job's messages, counted before building them.
pub fn message_work(nodes: usize, tasks: u64, comm: Comm) -> u64 {
    match comm {
        Comm::None => 0,
        Comm::All => (nodes as u64).saturating_mul(nodes as u64),
        Comm::Neighbor => tasks,
    }
}

/// Distinct partners of rank `u` among `p` ranks in the `neighbor` pattern.
fn neighbor_degree(u: u64, p: u64) -> u64 {
    let mut parts = [u64::MAX; 5];
    if u >= 1 {
        parts[0] = u - 1;
        parts[1] = (u - 1) / 2;
    }
    for (i, v) in [u + 1, 2 * u + 1, 2 * u + 2].into_iter().enumerate() {
        if v < p {
            parts[2 + i] = v;
        }
    }
    parts.sort_unstable();
    let mut n = 0;
    let mut last = u64::MAX;
    for v in parts {
        if v != u64::MAX && v != last {
            n += 1;
            last = v;
        }
    }
    n
}

/// The job's network messages of one window (module doc): one per ordered pair of its nodes
/// that exchange bytes, sorted by `(src, dst)`.
pub fn messages(nodes: &[u32], tasks: u64, cores: usize, comm: Comm, rate: f64) -> Vec<Message> {
    if nodes.len() < 2 || tasks < 2 || rate <= 0.0 {
        return Vec::new();
    }
    let bytes = rate * WINDOW;
    let idx = |rank: u64| ((rank / cores as u64) as usize).min(nodes.len() - 1);
    let mut out = Vec::new();
    match comm {
        Comm::None => {}
        Comm::All => {
            let mut count = vec![0u64; nodes.len()];
            for (i, c) in count.iter_mut().enumerate() {
                let lo = i as u64 * cores as u64;
                let hi = if i + 1 == nodes.len() {
                    tasks
                } else {
                    ((i + 1) as u64 * cores as u64).min(tasks)
                };
                *c = hi.saturating_sub(lo);
            }
            let per_pair = bytes / (tasks - 1) as f64;
            for (i, &ci) in count.iter().enumerate() {
                for (j, &cj) in count.iter().enumerate() {
                    if i != j && ci > 0 && cj > 0 {
                        out.push(Message {
                            src: nodes[i],
                            dst: nodes[j],
                            bytes: (ci * cj) as f64 * per_pair,
                        });
                    }
                }
            }
        }
        Comm::Neighbor => {
            let mut sum: BTreeMap<(u32, u32), f64> = BTreeMap::new();
            let mut add = |from: u64, to: u64| {
                let (a, b) = (nodes[idx(from)], nodes[idx(to)]);
                if a != b {
                    *sum.entry((a, b)).or_insert(0.0) +=
                        bytes / neighbor_degree(from, tasks) as f64;
                }
            };
            for r in 1..tasks {
                let (q1, q2) = (r - 1, (r - 1) / 2);
                add(r, q1);
                add(q1, r);
                if q2 != q1 {
                    add(r, q2);
                    add(q2, r);
                }
            }
            out = sum
                .into_iter()
                .map(|((src, dst), bytes)| Message { src, dst, bytes })
                .collect();
        }
    }
    out
}

/// What the model recorded about one job.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct JobStats {
    /// Whether the job's windows were simulated (false: started after the budget ran out).
    pub simulated: bool,
    /// Time of one window alone (s).
    pub alone: f64,
    /// Communication part `a` of its run time.
    pub comm_fraction: f64,
    /// Largest slowdown `s` it saw, and the run-time-weighted mean of `s`.
    pub max_slowdown: f64,
    pub mean_slowdown: f64,
    /// Network flows of its window.
    pub flows: usize,
}

/// The model's state during one policy's run.
pub struct State {
    platform: Platform,
    host_of: Vec<u32>,
    model: Model,
    rates: Vec<f64>,
    cores: usize,
    running: Vec<u32>,
    last_t: f64,
    remaining: Vec<f64>,
    stretch: Vec<f64>,
    slowdown: Vec<f64>,
    weighted: Vec<f64>,
    msgs: BTreeMap<u32, Vec<Message>>,
    budget: u64,
    pub stats: Vec<JobStats>,
    /// Work spent (flows solved plus processes enumerated), simulations run.
    pub work: u64,
    pub simulations: u64,
    /// Time at which the budget ran out.
    pub stopped_at: Option<f64>,
}

impl State {
    /// A fresh state for `rates.len()` jobs (`rates[j]`: bytes per second per process) that may
    /// spend `budget` work.
    pub fn new(
        network: Network,
        model: Model,
        rates: Vec<f64>,
        cores: usize,
        budget: u64,
    ) -> State {
        let n = rates.len();
        State {
            platform: network.platform,
            host_of: network.host_of,
            model,
            rates,
            cores,
            running: Vec::new(),
            last_t: 0.0,
            remaining: vec![0.0; n],
            stretch: vec![1.0; n],
            slowdown: vec![1.0; n],
            weighted: vec![0.0; n],
            msgs: BTreeMap::new(),
            budget,
            stats: vec![JobStats::default(); n],
            work: 0,
            simulations: 0,
            stopped_at: None,
        }
    }

    fn stop(&mut self, t: f64) {
        if self.stopped_at.is_none() {
            self.stopped_at = Some(t);
        }
    }

    /// Simulates `jobs`' windows together; `None` when the budget runs out.
    fn simulate(&mut self, jobs: &[u32]) -> Option<Vec<f64>> {
        let traffic: Vec<JobTraffic> = jobs
            .iter()
            .map(|j| JobTraffic {
                messages: self.msgs.get(j).cloned().unwrap_or_default(),
                compute: 0.0,
                rounds: 1,
                start: 0.0,
            })
            .collect();
        let flows: u64 = traffic.iter().map(|t| t.messages.len() as u64).sum();
        let overhead = sim_overhead(&self.platform);
        let left = self.budget.saturating_sub(self.work);
        if flows > MAX_SIM_FLOWS || flows.saturating_add(overhead) > left {
            return None;
        }
        self.simulations += 1;
        self.work += overhead;
        match simulate_rounds_budgeted(
            &self.platform,
            &traffic,
            self.model,
            Budget::Work(left - overhead),
            &mut NoProgress,
        ) {
            Ok(r) => {
                self.work += r.work.max(flows);
                Some(r.job_time)
            }
            Err(_) => {
                // the simulator spent the rest of the budget (and at most one event more)
                self.work = self.budget;
                None
            }
        }
    }

    /// The running set is now `running` (ascending job ids) at time `t`: advances the jobs that
    /// ran since the last change, prices the new ones, recomputes every stretch, and returns
    /// each running job's new end. `placement(j)` gives job `j`'s nodes.
    pub fn update<'p>(
        &mut self,
        t: f64,
        running: &[u32],
        jobs: &[Job],
        placement: impl Fn(u32) -> &'p [u32],
    ) -> Vec<(u32, f64)> {
        let dt = (t - self.last_t).max(0.0);
        for &j in &self.running {
            let k = j as usize;
            self.remaining[k] = (self.remaining[k] - dt / self.stretch[k]).max(0.0);
            self.weighted[k] += dt * self.slowdown[k];
        }
        self.msgs.retain(|j, _| running.binary_search(j).is_ok());
        for &j in running {
            if self.running.binary_search(&j).is_ok() {
                continue;
            }
            let k = j as usize;
            let job = &jobs[k];
            self.remaining[k] = job.duration;
            self.stretch[k] = 1.0;
            self.slowdown[k] = 1.0;
            self.stats[k].max_slowdown = 1.0;
            if self.stopped_at.is_some() {
                continue;
            }
            let nodes = placement(j);
            let w = message_work(nodes.len(), job.tasks, job.comm);
            if w > self.budget.saturating_sub(self.work) {
                self.stop(t);
                continue;
            }
            self.work += w;
            let hosts: Vec<u32> = nodes.iter().map(|&u| self.host_of[u as usize]).collect();
            let m = messages(&hosts, job.tasks, self.cores, job.comm, self.rates[k]);
            self.stats[k].flows = m.len();
            self.msgs.insert(j, m);
            let alone = if self.msgs[&j].is_empty() {
                Some(vec![0.0])
            } else {
                self.simulate(&[j])
            };
            match alone {
                Some(a) => {
                    let st = &mut self.stats[k];
                    st.simulated = true;
                    st.alone = a[0];
                    st.comm_fraction = (a[0] / WINDOW).min(1.0);
                }
                None => {
                    self.msgs.remove(&j);
                    self.stop(t);
                }
            }
        }
        if self.stopped_at.is_none() {
            let talking: Vec<u32> = running
                .iter()
                .copied()
                .filter(|j| self.msgs.get(j).is_some_and(|m| !m.is_empty()))
                .collect();
            let with = if talking.is_empty() {
                Some(Vec::new())
            } else {
                self.simulate(&talking)
            };
            match with {
                Some(times) => {
                    for (&j, &tw) in talking.iter().zip(&times) {
                        let k = j as usize;
                        let alone = self.stats[k].alone;
                        let s = if alone > 0.0 {
                            (tw / alone).max(1.0)
                        } else {
                            1.0
                        };
                        let a = self.stats[k].comm_fraction;
                        self.slowdown[k] = s;
                        self.stretch[k] = (1.0 - a) + a * s;
                        let st = &mut self.stats[k];
                        st.max_slowdown = st.max_slowdown.max(s);
                    }
                }
                None => self.stop(t),
            }
        }
        self.running = running.to_vec();
        self.last_t = t;
        running
            .iter()
            .map(|&j| (j, t + self.remaining[j as usize] * self.stretch[j as usize]))
            .collect()
    }

    /// Closes the books of job `j`, which ran from `start` to `end`.
    pub fn finish(&mut self, j: u32, start: f64, end: f64) {
        let k = j as usize;
        let run = end - start;
        self.stats[k].mean_slowdown = if run > 0.0 {
            self.weighted[k] / run
        } else {
            1.0
        };
    }
}
