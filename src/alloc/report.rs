//! The allocation report (see `docs/format.md`) and its assembly from a run: contention from a
//! sweep of the start/end events, frames within a byte budget, per-job rows.

use super::machine::Footprint;
use super::metrics;
use super::scenario::{Job, PolicyId};
use super::state::{Mode, Outcome, RunResult, Work};
use crate::topology::Topology;
use serde::Serialize;

/// Most bytes of a report (the JSON envelope included): 32 MiB. Counts and summaries are always
/// complete; per-job rows (the first ones kept) and frames give way (see [`Omitted`]).
pub const REPORT_BYTE_CAP: usize = 32 << 20;

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AllocReport {
    pub topology: TopologyInfo,
    pub workload: &'static str,
    pub fallback: &'static str,
    pub runs: Vec<RunReport>,
    /// The run-time-under-contention model's parameters (only with the `contention` option).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contention: Option<ContentionInfo>,
    /// The imported log (workload kind `swf` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub log: Option<LogInfo>,
}

/// An imported SWF log: which file, what was replayed, what its header says.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LogInfo {
    /// The attached file's name (`workload.swfFile`); absent for a log given as text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// FNV-1a 64 of the log's bytes, and their count.
    pub digest: String,
    /// Jobs replayed.
    pub replayed: usize,
    /// Job lines after the replayed ones (beyond `maxJobs`), not replayed.
    pub kept_not_replayed: u64,
    /// Job lines skipped: unknown or non-positive run time or size.
    pub skipped: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub computer: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_nodes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_procs: Option<u64>,
}

/// A log job's user, queue and partition (SWF fields 12, 15, 16), where known.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct LogIds {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub user: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub queue: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub partition: Option<u32>,
}

/// The contention model's parameters and the NPB profiles the workload uses.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ContentionInfo {
    pub model: &'static str,
    /// Every link's bandwidth and latency: absent with a platform file (its links have their own).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bandwidth: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub latency: Option<f64>,
    /// The SimGrid platform file's network, when one is given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub platform: Option<ContentionPlatform>,
    pub other_rate: f64,
    pub window: f64,
    pub budget: u64,
    pub max_flows: u64,
    pub profiles: Vec<ProfileRow>,
}

/// The network of a SimGrid platform file (option `contention.simgrid`).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ContentionPlatform {
    /// The file's hosts and netsim's directed links (a SPLITDUPLEX link is two).
    pub hosts: u32,
    pub links: u32,
    /// Per node of the machine: the index of its host among the file's hosts (file order).
    pub node_hosts: Vec<u32>,
}

/// One NPB kernel and class ([`super::npb::Profile`]).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ProfileRow {
    pub kernel: &'static str,
    pub class: String,
    pub processes: u64,
    pub comm: &'static str,
    pub bytes_per_second: f64,
    pub paper_baseline: f64,
}

/// What the contention model did in one policy's run.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RunContention {
    pub simulations: u64,
    pub work: u64,
    pub stopped_at: Option<f64>,
    pub unsimulated_jobs: usize,
    pub kernels: Vec<KernelRow>,
}

/// Run times of the jobs of one NPB kernel, class and size in one run.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct KernelRow {
    pub kernel: &'static str,
    pub class: String,
    pub tasks: u64,
    pub jobs: usize,
    pub baseline: f64,
    pub run_time: f64,
    pub stretch: f64,
    pub comm_fraction: f64,
    pub mean_slowdown: f64,
    pub max_slowdown: f64,
}

/// One job under the contention model.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JobContention {
    pub simulated: bool,
    pub flows: usize,
    pub alone: f64,
    pub comm_fraction: f64,
    pub mean_slowdown: f64,
    pub max_slowdown: f64,
    pub run_time: Option<f64>,
    pub stretch: Option<f64>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TopologyInfo {
    pub kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub width: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub height: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub arities: Option<Vec<usize>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level_sizes: Option<Vec<usize>>,
    /// An imported tree's switches, by router id: name, parent id (the root's is itself),
    /// level, first node and node count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub switches: Option<Vec<SwitchInfo>>,
    /// An imported tree's node names, by node id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_names: Option<Vec<String>>,
    pub cores_per_node: usize,
    pub nodes: usize,
    pub routers: usize,
    pub links: usize,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RunReport {
    pub policy: &'static str,
    pub label: &'static str,
    pub jobs: Vec<JobReport>,
    pub summary: Summary,
    pub frames: Vec<Frame>,
    /// What was left out to keep the report within its byte cap (counts are always complete).
    pub omitted: Omitted,
    /// The contention model's account of the run (only with the `contention` option).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contention: Option<RunContention>,
    /// Work counters of the run (not serialized: they are for the bounds tests and benchmarks).
    #[serde(skip)]
    pub work: Work,
}

/// What a run's report leaves out to stay within [`REPORT_BYTE_CAP`].
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Omitted {
    /// Per-job rows left out: the run lists the first `jobs.len()` jobs in input order and
    /// omits the next `jobRows` (the summary still counts every job).
    pub job_rows: usize,
    /// Requested frames left out (the kept ones stay evenly spaced).
    pub frames: usize,
}

/// One switch of an imported tree (empty name: the virtual root over several top-level
/// switches).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SwitchInfo {
    pub name: String,
    pub parent: usize,
    pub level: usize,
    pub first_node: usize,
    pub node_count: usize,
}

/// The names of `nodes` as one hostlist expression, if the machine names its nodes.
pub fn host_names(topo: &crate::topology::Topology, nodes: &[u32]) -> Option<String> {
    match topo {
        crate::topology::Topology::Tree(t) => t.names().map(|names| {
            let list: Vec<&str> = nodes
                .iter()
                .map(|&n| names.nodes[n as usize].as_str())
                .collect();
            crate::formats::hostlist::compress(&list)
        }),
        crate::topology::Topology::Mesh(_) => None,
    }
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JobReport {
    pub id: usize,
    pub name: String,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub ids: Option<LogIds>,
    pub tasks: u64,
    pub nodes: usize,
    pub node_ranges: Vec<[u32; 2]>,
    /// The nodes by name as a Slurm hostlist (machines with named nodes only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hosts: Option<String>,
    pub placed: bool,
    pub fallback: Option<&'static str>,
    pub owned_idle: usize,
    pub diameter: usize,
    pub mean_hops: f64,
    pub closed: bool,
    pub routers: usize,
    pub links: usize,
    pub shared_router_count: usize,
    pub shared_link_count: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub arrival: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start: Option<Option<f64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end: Option<Option<f64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wait: Option<Option<f64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bounded_slowdown: Option<Option<f64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contention: Option<JobContention>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    pub placed: usize,
    pub unplaced: usize,
    pub decisions: u64,
    pub utilization: f64,
    pub fragmentation: Option<f64>,
    pub contended_jobs: usize,
    pub shared_routers: usize,
    pub shared_links: usize,
    pub mean_diameter: f64,
    pub mean_hops: f64,
    pub owned_idle: usize,
    pub closed_jobs: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub makespan: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mean_wait: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_wait: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mean_bounded_slowdown: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fragmentation_blocks: Option<usize>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Frame {
    pub time: f64,
    pub running: Vec<u32>,
    pub busy_nodes: usize,
    pub contended_routers: Vec<u32>,
    pub contended_links: Vec<u32>,
}

/// Ascending ids as `[first, count]` runs.
pub fn ranges(sorted: &[u32]) -> Vec<[u32; 2]> {
    let mut out: Vec<[u32; 2]> = Vec::new();
    for &v in sorted {
        match out.last_mut() {
            Some(r) if r[0] + r[1] == v => r[1] += 1,
            _ => out.push([v, 1]),
        }
    }
    out
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
/// [`REPORT_BYTE_CAP`]). Rows past the budget are left out (the first ones kept), frames
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

/// The bytes of `value`'s compact JSON, counted as they are written, never held.
fn json_len<T: Serialize>(value: &T) -> usize {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0 += buf.len();
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut n = Count(0);
    serde_json::to_writer(&mut n, value).map_or(0, |()| n.0)
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
        let len = json_len(&frame) + 1;
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
            ids: job.ids,
            tasks: job.tasks,
            nodes: job.nodes,
            node_ranges: ranges(nodes),
            hosts: host_names(topo, nodes),
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
        let len = json_len(&row) + 1;
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
