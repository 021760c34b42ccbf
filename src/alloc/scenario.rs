//! The allocation engine's scenario fields, their limits and their form controls.
//! Format reference: `docs/format.md`.

use super::metrics::Comm;
use crate::error::{check_range, Result, ScenarioError};
use crate::params::{choices, static_table, table_defaults, Param};
use crate::topology::{Mesh, Topology, Tree};
use serde::Deserialize;
use serde_json::json;

/// Most compute nodes a system may have (a 512 x 512 mesh).
pub const MAX_NODES: usize = 262_144;
/// Most jobs in a workload.
pub const MAX_JOBS: usize = 100_000;
/// Most policies compared in one scenario.
pub const MAX_POLICIES: usize = 6;
/// Most snapshots for the time slider.
pub const MAX_FRAMES: usize = 1000;
/// Most tasks of one job.
pub const MAX_TASKS: u64 = 1 << 30;
/// Latest time (s) a job may arrive, and longest duration or walltime.
pub const MAX_TIME: f64 = 1e12;
/// Queued jobs EASY backfilling examines behind the head per scheduling pass, by default: the
/// default of Slurm's `bf_max_job_test`.
pub const DEFAULT_BACKFILL_DEPTH: usize = 500;
/// Upper bound on `nodes x decisions` for the naive-rescan baseline, whose decisions each rescan
/// the machine (the decisions bound: `jobs` for a set, `3 jobs + 1` for FCFS, `jobs + (2 jobs +
/// 1)(1 + depth)` with EASY; the benchmark's 300 FCFS jobs on 256 x 256 fit).
pub const MAX_NAIVE_WORK: u64 = 60_000_000;

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AllocScenario {
    pub system: SystemSpec,
    #[serde(default = "d::policies")]
    pub policies: Vec<PolicyId>,
    #[serde(default = "d::fallback")]
    pub fallback: Fallback,
    pub workload: WorkloadSpec,
    #[serde(default = "d::frames")]
    pub frames: usize,
    #[serde(default = "d::slowdown_bound")]
    pub slowdown_bound: f64,
    /// Run time under contention (off when absent or `"model": "off"`, which the form writes;
    /// see [`super::runtime`]).
    #[serde(default, deserialize_with = "contention_unless_off")]
    pub contention: Option<ContentionSpec>,
}

/// The run-time-under-contention model's options (`docs/format.md`).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ContentionSpec {
    /// netsim's sharing model: `"max-min"` or `"simgrid-lv08"`.
    #[serde(default = "d::contention_model")]
    pub model: String,
    /// Bandwidth of every link, each direction (bytes/s).
    #[serde(default = "d::bandwidth")]
    pub bandwidth: f64,
    /// Latency of every link (s).
    #[serde(default = "d::latency")]
    pub latency: f64,
    /// Bytes per second each process of a job without a `kernel` sends.
    #[serde(default = "d::other_rate")]
    pub other_rate: f64,
    /// A SimGrid platform file's text (version 4.1): the network, instead of the machine's
    /// own routes with `bandwidth` and `latency` ([`super::runtime::network`]).
    #[serde(default)]
    pub simgrid: Option<String>,
}

/// The `contention` option, `None` when absent, `null` or `"model": "off"` (the form's way of
/// switching it off).
fn contention_unless_off<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> std::result::Result<Option<ContentionSpec>, D::Error> {
    let c = Option::<ContentionSpec>::deserialize(d)?;
    Ok(c.filter(|c| c.model != CONTENTION_OFF))
}

/// The `contention.model` value that switches the model off.
pub const CONTENTION_OFF: &str = "off";

/// Serde's defaults, read from the field table ([`params`]).
pub mod d {
    use super::*;
    table_defaults!(super::table;
        policies: Vec<PolicyId> = "policies",
        fallback: Fallback = "fallback",
        frames: usize = "frames",
        slowdown_bound: f64 = "slowdownBound",
        cores_per_node: usize = "system.coresPerNode",
        bandwidth: f64 = "contention.bandwidth",
        latency: f64 = "contention.latency",
        other_rate: f64 = "contention.otherRate",
        backfill_depth: usize = "workload.backfillDepth",
        min_tasks: u64 = "workload.minTasks",
        max_tasks: u64 = "workload.maxTasks",
        mean_interarrival: f64 = "workload.meanInterarrival",
        mean_duration: f64 = "workload.meanDuration",
        backfill: Backfill = "workload.backfill",
        comm: Comm = "workload.jobs[].comm",
        switches_wait: f64 = "workload.jobs[].switchesWait",
        size_distribution: SizeDistribution = "workload.sizeDistribution",
        system_kind: SystemKind = "system.kind",
        contention_model: String = "contention.model",
    );
}

/// The machine. Flat rather than tagged so that every error keeps its exact JSON path.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SystemSpec {
    #[serde(default = "d::system_kind")]
    pub kind: SystemKind,
    pub width: Option<usize>,
    pub height: Option<usize>,
    pub arities: Option<Vec<usize>>,
    pub arity: Option<usize>,
    pub levels: Option<usize>,
    /// The text of a Slurm `topology.conf` (kind `slurmTopology`).
    pub topology_conf: Option<String>,
    #[serde(default = "d::cores_per_node")]
    pub cores_per_node: usize,
}

choices! {
    pub enum SystemKind {
        Mesh = ("mesh", "2D mesh (XY routing)"),
        Tree = ("tree", "Tree (up/down routing)"),
        /// A tree read from Slurm's `topology.conf` (irregular arities, named nodes).
        SlurmTopology = ("slurmTopology", "Slurm topology.conf (tree)"),
    }
}

choices! {
    /// Allocation policies, in the order samples and tests run them all.
    pub enum PolicyId {
        Sequential = ("sequential", "Sequential"),
        ClosedMinPaper = ("closed-min-paper", "Closed-min (paper)"),
        ClosedMinBest = ("closed-min-best", "Closed-min (best)"),
        /// Same choices as `closed-min-best`, found by rescanning every origin: the benchmark
        /// baseline.
        ClosedMinNaive = (
            "closed-min-naive",
            "Closed-min (naive rescan)",
            "Closed-min (naive rescan, benchmark baseline)"
        ),
        Hilbert = ("hilbert", "Hilbert window"),
        Random = ("random", "Random"),
        /// What Slurm 22.05's select/cons_tres picks with topology/tree (trees only).
        SlurmTree = ("slurmTree", "Slurm topology/tree", "Slurm topology/tree (cons_tres, trees only)"),
    }
}

impl PolicyId {
    /// Whether the policy runs on meshes too (`slurmTree` needs a tree).
    pub fn on_meshes(self) -> bool {
        self != PolicyId::SlurmTree
    }

    /// Whether the policy looks for closed regions (and so uses the fallback).
    pub fn is_closed(self) -> bool {
        matches!(
            self,
            PolicyId::ClosedMinPaper | PolicyId::ClosedMinBest | PolicyId::ClosedMinNaive
        )
    }
}

choices! {
    /// What a closed-min policy does when no closed minimum-diameter region is free.
    pub enum Fallback {
        /// Queue until jobs leave (streams); a set reports the job as not placed.
        Wait = ("wait", "Wait (queue)"),
        /// Any free nodes with the smallest diameter; contention may appear and is reported.
        RelaxClosed = ("relax-closed", "Relax closedness"),
        /// A larger free closed region (more nodes, larger diameter).
        RelaxMinimal = ("relax-minimal", "Relax minimality"),
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WorkloadSpec {
    pub kind: WorkloadKind,
    #[serde(default)]
    pub jobs: Vec<JobSpec>,
    #[serde(default = "d::backfill")]
    pub backfill: Backfill,
    /// EASY only: how many queued jobs behind the head each scheduling pass examines
    /// (Slurm's `bf_max_job_test`); default in the field table.
    pub backfill_depth: Option<usize>,
    // generated streams
    pub count: Option<usize>,
    pub min_tasks: Option<u64>,
    pub max_tasks: Option<u64>,
    pub size_distribution: Option<SizeDistribution>,
    pub mean_interarrival: Option<f64>,
    pub mean_duration: Option<f64>,
    // imported logs
    /// The text of a Standard Workload Format log (kind `swf`).
    pub swf: Option<String>,
    /// Or the name of a log attached beside the scenario ([`crate::attach`]), for logs of any
    /// size.
    pub swf_file: Option<String>,
    /// The attached log's fingerprint (`"hhhhhhhhhhhhhhhh BYTES"`): another file is refused.
    pub swf_digest: Option<String>,
    /// At most this many jobs are read from the log (default: all, up to the job limit).
    pub max_jobs: Option<usize>,
}

impl WorkloadSpec {
    /// An imported workload's log: the scenario's text, or the attached file it names
    /// ([`crate::attach`]), its fingerprint checked.
    ///
    /// # Errors
    /// Neither or both given, a bad log line, a log not attached or another file.
    pub fn swf_log(&self) -> Result<std::sync::Arc<crate::formats::swf::SwfLog>> {
        crate::attach::SwfSource {
            text: self.swf.as_deref(),
            file: self.swf_file.as_deref(),
            digest: self.swf_digest.as_deref(),
            paths: ["workload.swf", "workload.swfFile", "workload.swfDigest"],
        }
        .log(self.max_jobs.unwrap_or(MAX_JOBS))
    }

    /// The path errors about the log's content name.
    pub fn log_path(&self) -> &'static str {
        if self.swf_file.is_some() {
            "workload.swfFile"
        } else {
            "workload.swf"
        }
    }

    /// The jobs of `log` replayed: the first `maxJobs`.
    pub fn swf_jobs<'a>(
        &self,
        log: &'a crate::formats::swf::SwfLog,
    ) -> &'a [crate::formats::swf::SwfJob] {
        &log.jobs[..log.jobs.len().min(self.max_jobs.unwrap_or(MAX_JOBS))]
    }

    /// The backfill depth in effect.
    pub fn backfill_depth(&self) -> usize {
        self.backfill_depth.unwrap_or_else(d::backfill_depth)
    }
    /// A generated workload's smallest job (tasks), its default when absent.
    pub fn min_tasks(&self) -> u64 {
        self.min_tasks.unwrap_or_else(d::min_tasks)
    }
    /// A generated workload's largest job (tasks), its default when absent.
    pub fn max_tasks(&self) -> u64 {
        self.max_tasks.unwrap_or_else(d::max_tasks)
    }
    /// A generated workload's mean inter-arrival time (s), its default when absent.
    pub fn mean_interarrival(&self) -> f64 {
        self.mean_interarrival.unwrap_or_else(d::mean_interarrival)
    }
    /// A generated workload's mean duration (s), its default when absent.
    pub fn mean_duration(&self) -> f64 {
        self.mean_duration.unwrap_or_else(d::mean_duration)
    }
    /// A generated workload's size distribution, its default when absent.
    pub fn size_distribution(&self) -> SizeDistribution {
        self.size_distribution.unwrap_or_else(d::size_distribution)
    }
}

choices! {
    pub enum WorkloadKind {
        Set = ("set", "Job set (placed in order)"),
        Stream = ("stream", "Job stream (arrivals, durations)"),
        Generated = ("generated", "Generated stream (seeded)"),
        /// A Standard Workload Format log replayed as a stream.
        Swf = ("swf", "Imported SWF log"),
    }
}

choices! {
    pub enum Backfill {
        None = ("none", "FCFS"),
        Easy = ("easy", "EASY backfilling"),
    }
}

choices! {
    pub enum SizeDistribution {
        Uniform = ("uniform", "Uniform"),
        LogUniform = ("logUniform", "Log-uniform"),
        PowersOfTwo = ("powersOfTwo", "Powers of two"),
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct JobSpec {
    #[serde(default)]
    pub name: String,
    pub tasks: u64,
    #[serde(default = "d::comm")]
    pub comm: Comm,
    pub arrival: Option<f64>,
    pub duration: Option<f64>,
    pub walltime: Option<f64>,
    /// An NPB kernel and class, `"IS.C"`: its traffic profile ([`super::npb`]) drives the
    /// contention model; its pattern must be the job's `comm`.
    pub kernel: Option<String>,
    /// Most leaf switches the job accepts (Slurm's `--switches=N`; policy `slurmTree` only).
    pub switches: Option<u32>,
    /// How long (s) the job waits for its `switches` before taking any nodes (Slurm's
    /// `--switches=N@max-time`); default in the field table.
    pub switches_wait: Option<f64>,
}

/// Refuses the first of `fields` (`(name, present)`) that is present, at `prefix.name`, saying
/// `why`.
fn refuse_present(prefix: &str, fields: &[(&str, bool)], why: &str) -> Result<()> {
    match fields.iter().find(|(_, present)| *present) {
        Some((f, _)) => Err(ScenarioError::at(format!("{prefix}.{f}"), why)),
        None => Ok(()),
    }
}

impl AllocScenario {
    /// The machine: [`SystemSpec::build`], except that a mesh given without width and height
    /// that replays an SWF log takes its size from the log's header ([`log_mesh`]).
    ///
    /// # Errors
    /// Those of [`SystemSpec::build`]; a log whose header gives no machine size.
    pub fn machine(&self) -> Result<Topology> {
        let sys = &self.system;
        let sized_by_log = sys.kind == SystemKind::Mesh
            && sys.width.is_none()
            && sys.height.is_none()
            && self.workload.kind == WorkloadKind::Swf;
        if !sized_by_log {
            return sys.build();
        }
        let log = self.workload.swf_log()?;
        let h = &log.header;
        let nodes = h
            .max_nodes
            .or_else(|| h.max_procs.map(|p| p.div_ceil(sys.cores_per_node as u64)))
            .ok_or_else(|| {
                ScenarioError::at(
                    "system.width",
                    "missing: give width and height, or replay a log whose header says \
                     \"; MaxNodes:\" or \"; MaxProcs:\"",
                )
            })?;
        let (w, h) = log_mesh(nodes).ok_or_else(|| {
            ScenarioError::at(
                "system.width",
                format!(
                    "the log's machine has {nodes} nodes, which no mesh of sides at most 512 \
                     holds exactly: give width and height"
                ),
            )
        })?;
        SystemSpec {
            width: Some(w),
            height: Some(h),
            ..sys.clone()
        }
        .build()
    }
}

/// The most nearly square mesh with exactly `nodes` nodes, `(width, height)` with `width >=
/// height` and both at most 512 (an SWF log's `MaxNodes: 128` gives 16 x 8, `430` gives
/// 43 x 10); `None` when no such mesh exists (e.g. a prime above 512).
pub fn log_mesh(nodes: u64) -> Option<(usize, usize)> {
    let mut h = (nodes as f64).sqrt() as u64 + 1;
    while h > 0 && (h * h > nodes || nodes % h != 0) {
        h -= 1;
    }
    let w = nodes.checked_div(h)?;
    (w <= 512).then_some((w as usize, h as usize))
}

impl SystemSpec {
    /// Builds the topology, checking every field against the system kind and the limits.
    pub fn build(&self) -> Result<Topology> {
        if self.kind != SystemKind::SlurmTopology && self.topology_conf.is_some() {
            return Err(ScenarioError::at(
                "system.topologyConf",
                "is a field of kind \"slurmTopology\"",
            ));
        }
        match self.kind {
            SystemKind::SlurmTopology => {
                refuse_present(
                    "system",
                    &[
                        ("width", self.width.is_some()),
                        ("height", self.height.is_some()),
                        ("arities", self.arities.is_some()),
                        ("arity", self.arity.is_some()),
                        ("levels", self.levels.is_some()),
                    ],
                    "is not a field of kind \"slurmTopology\": the topology.conf gives the tree",
                )?;
                let text = self.topology_conf.as_deref().ok_or_else(|| {
                    ScenarioError::at(
                        "system.topologyConf",
                        "missing: the text of a Slurm topology.conf",
                    )
                })?;
                slurm_tree(text)
                    .map(Topology::Tree)
                    .map_err(|e| ScenarioError::at("system.topologyConf", e))
            }
            SystemKind::Mesh => {
                refuse_present(
                    "system",
                    &[
                        ("arities", self.arities.is_some()),
                        ("arity", self.arity.is_some()),
                        ("levels", self.levels.is_some()),
                    ],
                    "is a tree field; a mesh has width and height",
                )?;
                let w = self.width.ok_or_else(|| {
                    ScenarioError::at("system.width", "missing: a mesh needs width and height")
                })?;
                let h = self.height.ok_or_else(|| {
                    ScenarioError::at("system.height", "missing: a mesh needs width and height")
                })?;
                Ok(Topology::Mesh(Mesh::new(w, h)))
            }
            SystemKind::Tree => {
                refuse_present(
                    "system",
                    &[
                        ("width", self.width.is_some()),
                        ("height", self.height.is_some()),
                    ],
                    "is a mesh field; a tree has arities (or arity and levels)",
                )?;
                let arities = match (&self.arities, self.arity, self.levels) {
                    (Some(a), None, None) => a.clone(),
                    (None, Some(k), Some(l)) => vec![k; l],
                    (Some(_), _, _) => {
                        return Err(ScenarioError::at(
                            "system.arity",
                            "give either arities or arity and levels, not both",
                        ))
                    }
                    (None, None, _) => {
                        return Err(ScenarioError::at(
                            "system.arities",
                            "missing: a tree needs arities, e.g. [2, 2, 8]",
                        ))
                    }
                    (None, Some(_), None) => {
                        return Err(ScenarioError::at(
                            "system.levels",
                            "missing: arity needs levels",
                        ))
                    }
                };
                check_range("system.arities.length", arities.len(), 1, 8)
                    .map_err(|e| ScenarioError::at("system.arities", e.message))?;
                // counted in u128: 8 levels of arity 1024 are 2^80 nodes, reported exactly
                let mut nodes: u128 = 1;
                for &a in &arities {
                    nodes *= a as u128;
                }
                if nodes > MAX_NODES as u128 {
                    return Err(ScenarioError::at(
                        "system.arities",
                        format!("the tree has {nodes} nodes; the limit is {MAX_NODES}"),
                    ));
                }
                Ok(Topology::Tree(Tree::new(&arities)))
            }
        }
    }
}

/// The tree of a Slurm `topology.conf`: its switches as routers (several top-level switches
/// joined under a virtual root), its nodes in tree order (see [`crate::formats::topology_conf`]).
///
/// # Errors
/// The file's own errors, more than [`MAX_NODES`] nodes, or leaf switches at different depths.
pub fn slurm_tree(text: &str) -> std::result::Result<Tree, String> {
    use crate::topology::tree::RouterSpec;
    let conf = crate::formats::topology_conf::parse(text, MAX_NODES as u64)?;
    let mut routers: Vec<RouterSpec> = conf
        .switches
        .iter()
        .enumerate()
        .map(|(i, s)| RouterSpec {
            children: s.children.clone(),
            leaves: s.nodes.len(),
            name: s.name.clone(),
            file_index: i as u32,
        })
        .collect();
    let root = if let [r] = conf.roots[..] {
        r
    } else {
        routers.push(RouterSpec {
            children: conf.roots.clone(),
            leaves: 0,
            name: String::new(),
            file_index: u32::MAX,
        });
        routers.len() - 1
    };
    Tree::irregular(&routers, root, conf.nodes)
}

/// A job after validation, in logical time.
#[derive(Debug, Clone, PartialEq)]
pub struct Job {
    pub name: String,
    pub tasks: u64,
    /// `ceil(tasks / coresPerNode)`.
    pub nodes: usize,
    pub comm: Comm,
    pub arrival: f64,
    pub duration: f64,
    pub walltime: f64,
    /// An imported log's user, queue and partition of the job.
    pub ids: Option<super::report::LogIds>,
}

/// Checks every field and rule of the scenario, admission aside; returns its machine.
pub fn validate_fields(s: &AllocScenario) -> Result<crate::topology::Topology> {
    let topo = s.machine()?;
    if let Topology::Mesh(_) = topo {
        if let Some(i) = s.policies.iter().position(|p| !p.on_meshes()) {
            return Err(ScenarioError::at(
                format!("policies[{i}]"),
                format!("{:?} runs on trees only", s.policies[i].id()),
            ));
        }
    }
    if s.policies.is_empty() || s.policies.len() > MAX_POLICIES {
        return Err(ScenarioError::at(
            "policies",
            format!(
                "give 1 to {MAX_POLICIES} policies, got {}",
                s.policies.len()
            ),
        ));
    }
    let w = &s.workload;
    let stream_only = [
        ("count", w.count.is_some()),
        ("minTasks", w.min_tasks.is_some()),
        ("maxTasks", w.max_tasks.is_some()),
        ("sizeDistribution", w.size_distribution.is_some()),
        ("meanInterarrival", w.mean_interarrival.is_some()),
        ("meanDuration", w.mean_duration.is_some()),
    ];
    if w.kind != WorkloadKind::Swf {
        refuse_present(
            "workload",
            &[
                ("swf", w.swf.is_some()),
                ("swfFile", w.swf_file.is_some()),
                ("swfDigest", w.swf_digest.is_some()),
                ("maxJobs", w.max_jobs.is_some()),
            ],
            "is a field of imported logs (kind \"swf\")",
        )?;
    }
    let count = match w.kind {
        WorkloadKind::Swf => {
            if let Some((f, _)) = stream_only.iter().find(|(_, p)| *p) {
                return Err(ScenarioError::at(
                    format!("workload.{f}"),
                    "is a field of generated workloads (kind \"generated\")",
                ));
            }
            if !w.jobs.is_empty() {
                return Err(ScenarioError::at(
                    "workload.jobs",
                    "an imported log brings its own jobs",
                ));
            }
            let log = w.swf_log()?;
            if log.jobs.is_empty() {
                return Err(ScenarioError::at(
                    w.log_path(),
                    "the log has no job that can be replayed",
                ));
            }
            w.swf_jobs(&log).len()
        }
        WorkloadKind::Set | WorkloadKind::Stream => {
            if let Some((f, _)) = stream_only.iter().find(|(_, p)| *p) {
                return Err(ScenarioError::at(
                    format!("workload.{f}"),
                    "is a field of generated workloads (kind \"generated\")",
                ));
            }
            if w.kind == WorkloadKind::Set && w.backfill != Backfill::None {
                return Err(ScenarioError::at(
                    "workload.backfill",
                    "applies to streams only",
                ));
            }
            if w.kind == WorkloadKind::Set && w.backfill_depth.is_some() {
                return Err(ScenarioError::at(
                    "workload.backfillDepth",
                    "applies to streams only",
                ));
            }
            if w.jobs.is_empty() {
                return Err(ScenarioError::at("workload.jobs", "give at least one job"));
            }
            w.jobs.len()
        }
        WorkloadKind::Generated => {
            if !w.jobs.is_empty() {
                return Err(ScenarioError::at(
                    "workload.jobs",
                    "a generated workload makes its own jobs; use kind \"stream\" to list them",
                ));
            }
            let count = w.count.ok_or_else(|| {
                ScenarioError::at("workload.count", "missing: how many jobs to generate")
            })?;
            // a rule across fields: the table gives each its own range
            check_range("workload.maxTasks", w.max_tasks(), w.min_tasks(), MAX_TASKS)?;
            count
        }
    };
    if count > MAX_JOBS {
        return Err(ScenarioError::at(
            "workload.jobs",
            format!("{count} jobs; the limit is {MAX_JOBS}"),
        ));
    }
    if let Some(c) = &s.contention {
        validate_contention(c, s)?;
        super::runtime::network(&topo, c).map_err(|(at, m)| ScenarioError::at(at, m))?;
    }
    for (i, j) in w.jobs.iter().enumerate() {
        let p = format!("workload.jobs[{i}]");
        if let Some(k) = &j.kernel {
            let prof = super::npb::profile(k).ok_or_else(|| {
                ScenarioError::at(
                    format!("{p}.kernel"),
                    format!(
                        "unknown NPB kernel and class {k:?}; give one of {}",
                        super::npb::names()
                    ),
                )
            })?;
            if prof.comm != j.comm {
                return Err(ScenarioError::at(
                    format!("{p}.comm"),
                    format!(
                        "{k} communicates as comm {:?}, got {:?}",
                        prof.comm.id(),
                        j.comm.id()
                    ),
                ));
            }
        }
        if j.switches_wait.is_some() && j.switches.is_none() {
            return Err(ScenarioError::at(
                format!("{p}.switchesWait"),
                "applies to a job with switches",
            ));
        }
        if j.switches.is_some() && w.backfill == Backfill::Easy {
            return Err(ScenarioError::at(
                format!("{p}.switches"),
                "needs backfill \"none\" (EASY reservations do not model switch limits)",
            ));
        }
        if j.name.chars().count() > 100 {
            return Err(ScenarioError::at(
                format!("{p}.name"),
                "at most 100 characters",
            ));
        }
        match w.kind {
            WorkloadKind::Set => {
                for (f, v) in [
                    ("arrival", j.arrival),
                    ("duration", j.duration),
                    ("walltime", j.walltime),
                ] {
                    if v.is_some() {
                        return Err(ScenarioError::at(
                            format!("{p}.{f}"),
                            "a set has no times; use kind \"stream\"",
                        ));
                    }
                }
            }
            _ => {
                j.arrival.ok_or_else(|| {
                    ScenarioError::at(
                        format!("{p}.arrival"),
                        "missing: a stream job needs arrival and duration (s)",
                    )
                })?;
                let d = j.duration.ok_or_else(|| {
                    ScenarioError::at(
                        format!("{p}.duration"),
                        "missing: a stream job needs arrival and duration (s)",
                    )
                })?;
                if let Some(wt) = j.walltime {
                    // a rule across fields: at least the duration
                    crate::error::check_number(&format!("{p}.walltime"), wt, d, MAX_TIME)?;
                }
            }
        }
    }
    Ok(topo)
}

/// Checks the `contention` option: a known model, link parameters netsim accepts, a stream
/// without EASY backfilling (whose reservations trust walltimes that stretched jobs overrun).
fn validate_contention(c: &ContentionSpec, s: &AllocScenario) -> Result<()> {
    if crate::netsim::Model::from_id(&c.model).is_none() {
        return Err(ScenarioError::at(
            "contention.model",
            format!(
                "unknown model {:?}; give \"max-min\", \"simgrid-lv08\" or \"off\"",
                c.model
            ),
        ));
    }
    if s.workload.kind == WorkloadKind::Set {
        return Err(ScenarioError::at(
            "contention",
            "applies to job streams (a set has no run times); use workload kind \"stream\"",
        ));
    }
    if s.workload.backfill == Backfill::Easy {
        return Err(ScenarioError::at(
            "contention",
            "needs backfill \"none\": EASY reservations trust walltimes, which stretched jobs overrun",
        ));
    }
    Ok(())
}

/// The allocation engine's field table: each field's path, label, kind, default, range and
/// options, stated once (see [`crate::params`]).
pub fn params() -> Vec<Param> {
    table().to_vec()
}

/// The field table, built once.
pub fn table() -> &'static [Param] {
    static_table!(build_table)
}

fn build_table() -> Vec<Param> {
    vec![
        Param::new("system.kind", "System", "enum", json!("mesh")).options(SystemKind::options()),
        Param::new("system.width", "Mesh width k1", "int", json!(null))
            .range(1.0, 512.0)
            .unit("nodes")
            .empty("from an SWF log's header (MaxNodes)")
            .show_if("system.kind", "mesh"),
        Param::new("system.height", "Mesh height k2", "int", json!(null))
            .range(1.0, 512.0)
            .unit("nodes")
            .empty("from an SWF log's header (MaxNodes)")
            .show_if("system.kind", "mesh"),
        Param::new(
            "system.arities",
            "Tree arities (root first)",
            "string",
            json!(null),
        )
        .help("one arity per level, e.g. [2, 2, 8]: root -> 2 -> 2 -> 8 nodes")
        .show_if("system.kind", "tree"),
        Param::new(
            "system.topologyConf",
            "Slurm topology.conf",
            "text",
            json!(null),
        )
        .help("the file's text: one SwitchName= line per switch (Nodes= for a leaf switch, Switches= above); paste it or open the file")
        .show_if("system.kind", "slurmTopology"),
        Param::rule("system.arities[]", "int").range(2.0, 1024.0),
        Param::rule("system.arity", "int").range(2.0, 1024.0),
        Param::rule("system.levels", "int").range(1.0, 8.0),
        Param::new("system.coresPerNode", "Cores per node", "int", json!(1)).range(1.0, 1024.0),
        Param::new(
            "policies",
            "Policies (side by side)",
            "multi",
            json!(["sequential", "closed-min-best"]),
        )
        .options(PolicyId::options()),
        Param::new(
            "fallback",
            "When no closed region fits",
            "enum",
            json!("wait"),
        )
        .options(Fallback::options()),
        Param::new("workload.kind", "Workload", "enum", json!(null))
            .options(WorkloadKind::options()),
        Param::new("workload.backfill", "Backfilling", "enum", json!("none"))
            .options(Backfill::options())
            .show_unless("workload.kind", "set"),
        Param::new(
            "workload.backfillDepth",
            "Backfill depth",
            "int",
            json!(DEFAULT_BACKFILL_DEPTH),
        )
        .range(1.0, MAX_JOBS as f64)
        .unit("jobs")
        .help("queued jobs examined behind the head per pass, as Slurm's bf_max_job_test")
        .show_if("workload.backfill", "easy"),
        Param::new("workload.count", "Jobs to generate", "int", json!(null))
            .range(1.0, MAX_JOBS as f64)
            .show_if("workload.kind", "generated"),
        Param::new("workload.minTasks", "Smallest job", "int", json!(1))
            .range(1.0, MAX_TASKS as f64)
            .unit("tasks")
            .show_if("workload.kind", "generated"),
        Param::new("workload.maxTasks", "Largest job", "int", json!(64))
            .range(1.0, MAX_TASKS as f64)
            .unit("tasks")
            .show_if("workload.kind", "generated"),
        Param::new(
            "workload.sizeDistribution",
            "Job sizes",
            "enum",
            json!("uniform"),
        )
        .options(SizeDistribution::options())
        .show_if("workload.kind", "generated"),
        Param::new(
            "workload.meanInterarrival",
            "Mean inter-arrival",
            "number",
            json!(10.0),
        )
        .range(0.0, MAX_TIME)
        .unit("s")
        .show_if("workload.kind", "generated"),
        Param::new(
            "workload.meanDuration",
            "Mean duration",
            "number",
            json!(100.0),
        )
        .range(1e-6, MAX_TIME)
        .unit("s")
        .show_if("workload.kind", "generated"),
        Param::new(
            "workload.maxJobs",
            "Jobs read from the log",
            "int",
            json!(null),
        )
        .range(1.0, MAX_JOBS as f64)
        .empty("all (up to 100,000)")
        .show_if("workload.kind", "swf"),
        Param::rule("workload.jobs[].tasks", "int").range(1.0, MAX_TASKS as f64),
        Param::rule_with_default("workload.jobs[].comm", "enum", json!("all"))
            .options(Comm::options()),
        Param::rule("workload.jobs[].arrival", "number").range(0.0, MAX_TIME),
        Param::rule("workload.jobs[].switches", "int").range(1.0, 65_535.0),
        // Slurm's default max_switch_wait
        Param::rule_with_default("workload.jobs[].switchesWait", "number", json!(300.0))
            .range(0.0, MAX_TIME),
        Param::rule("workload.jobs[].duration", "number").range(1e-9, MAX_TIME),
        Param::new("frames", "Time-slider snapshots", "int", json!(120))
            .range(0.0, MAX_FRAMES as f64)
            .show_unless("workload.kind", "set"),
        Param::new("slowdownBound", "Bounded-slowdown τ", "number", json!(10.0))
            .range(1e-9, 1e12)
            .unit("s")
            .show_unless("workload.kind", "set"),
        Param::new(
            "contention.model",
            "Run time under contention",
            "enum",
            json!(CONTENTION_OFF),
        )
        .options(&[
            (CONTENTION_OFF, "Off (durations as given)"),
            ("simgrid-lv08", "On: SimGrid LV08 sharing"),
            ("max-min", "On: plain max-min sharing"),
        ])
        .help("simulate every running job's traffic together and stretch its duration by the slowdown (job streams without EASY backfilling)"),
        Param::new(
            "contention.bandwidth",
            "Link bandwidth",
            "number",
            json!(6.34e9),
        )
        .range(1.0, 1e15)
        .unit("B/s")
        // Tianhe-1A's measured MPI bandwidth, one direction: 6,340 MB/s (Xie et al., "Tianhe-1A
        // interconnect and message-passing services", IEEE Micro 32(1), 2012)
        .help("every link, each direction (default: Tianhe-1A's measured MPI bandwidth)")
        .show_if_any("contention.model", CONTENTION_ON),
        Param::new(
            "contention.latency",
            "Link latency",
            "number",
            // 2 us per link: an assumption of the order of a low-latency interconnect's (a
            // window of 1 s makes latency nearly irrelevant)
            json!(2e-6),
        )
        .range(0.0, 1.0)
        .unit("s")
        .show_if_any("contention.model", CONTENTION_ON),
        Param::new(
            "contention.otherRate",
            "Traffic of jobs without a kernel",
            "number",
            // other users' jobs: 50 MB/s per process, about the middle of the NPB profiles (an
            // assumption)
            json!(50e6),
        )
        .range(0.0, 1e12)
        .unit("B/s per process")
        .show_if_any("contention.model", CONTENTION_ON),
        Param::new("contention.simgrid", "SimGrid platform (XML)", "text", json!(null))
            .help("a SimGrid platform file (version 4.1) as the network: its links and routes instead of the machine's with the bandwidth and latency above; a topology.conf's nodes run on the file's hosts of the same names, any other machine's node i on the file's i-th host")
            .show_if_any("contention.model", CONTENTION_ON),
        Param::new("seed", "Seed", "uint64", json!(1))
            .help("a whole number from 0 to 18446744073709551615"),
    ]
}

/// The `contention.model` values that switch the model on.
const CONTENTION_ON: &[&str] = &["simgrid-lv08", "max-min"];
