//! The placement engine's scenario fields, their limits, the admission estimate and the form
//! controls. Format reference: `docs/format.md` ("Placement").
//!
//! ```json
//! {"version": 1, "engine": "place", "seed": 1,
//!  "system": {"kind": "torus3d", "x": 8, "y": 8, "z": 8},
//!  "job": {"kind": "GRID", "processes": 512, "rounds": 50, "messageBytes": 1, "wrap": true},
//!  "strategies": ["simple", "random", "optimal", "advanced", "identity"]}
//! ```

use super::jobs::{self, JobKind, MessageSpec, TaskGraph};
use super::strategy::{Objective, Shape, StrategyId};
use crate::error::{check_range, Result, ScenarioError};
use crate::netsim::{parse_fat_tree, FatTreeSpec, LinkParams, Platform, System as NetSystem};
use crate::params::{choices, static_table, table_defaults, Param};
use serde::Deserialize;
use serde_json::json;

/// Most hosts of a system.
pub const MAX_HOSTS: u64 = 16_384;
/// Most levels of a tree.
pub const MAX_LEVELS: u64 = 12;
/// Most rounds of a job.
pub const MAX_ROUNDS: u64 = 1_000;
/// Largest message (bytes, per unit of edge weight).
pub const MAX_MESSAGE_BYTES: f64 = 1e12;
/// Most task-graph edges of a job (FULL of 1,024 tasks has 523,776).
pub const MAX_TASK_EDGES: u64 = 600_000;
/// Latest start of a message of a `messages` job (s after its round begins).
pub const MAX_MESSAGE_START: f64 = 1e6;
/// Most cases (kinds x message sizes) of a sweep.
pub const MAX_CASES: usize = 64;
/// Largest `timeLimit` (s): an hour, for studies of the source's full-size experiments natively
/// or on a cluster.
pub const MAX_TIME_LIMIT: f64 = 3600.0;
/// Largest share of the hosts the background jobs may fill.
pub const MAX_FILL: f64 = 0.95;
/// Estimated steps of work a scenario may need (see [`estimate`]).
pub const MAX_STEPS: f64 = crate::engine::MAX_SECONDS * 1e9 / NS_PER_STEP;

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PlaceScenario {
    pub system: SystemSpec,
    pub job: JobSpec,
    /// Several cases at once: every kind x message size, in that order (the source's table).
    pub sweep: Option<SweepSpec>,
    #[serde(default = "d::strategies")]
    pub strategies: Vec<StrategyId>,
    /// Experiment 2: the cluster first filled with small jobs.
    pub background: Option<BackgroundSpec>,
    #[serde(default = "d::model")]
    pub model: ModelId,
    /// The source's half shuffle and power-of-two 3D Hilbert curve.
    #[serde(default = "d::source_quirks")]
    pub source_quirks: bool,
    /// Share of its bytes a message may have left and end with an earlier end (0: exact).
    #[serde(default = "d::end_tolerance")]
    pub end_tolerance: f64,
    /// The estimated native seconds a run may take ([`validate`]); the simulations' budgets
    /// grow with it ([`PlaceScenario::budget_scale`]).
    #[serde(default = "d::time_limit")]
    pub time_limit: f64,
    /// What Mapped (ours) minimizes.
    #[serde(default = "d::objective")]
    pub objective: Objective,
    /// Strategy `given`: the host of each task, in task order.
    pub placement: Option<Vec<u64>>,
}

impl PlaceScenario {
    /// What the simulations' budgets ([`super::run::SIM_BUDGET`], [`super::run::RUN_SIM_BUDGET`])
    /// and the estimate's caps on them ([`SIM_NS`], [`RUN_SIM_NS`]) are multiplied by:
    /// `timeLimit` over the default limit ([`crate::engine::MAX_SECONDS`]), so a run stops within
    /// about its limit whatever its simulations need.
    pub fn budget_scale(&self) -> f64 {
        self.time_limit / crate::engine::MAX_SECONDS
    }
}

/// Serde's defaults, read from the field table ([`params`]).
pub mod d {
    use super::*;
    table_defaults!(super::table;
        strategies: Vec<StrategyId> = "strategies",
        model: ModelId = "model",
        source_quirks: bool = "sourceQuirks",
        end_tolerance: f64 = "endTolerance",
        time_limit: f64 = "timeLimit",
        objective: Objective = "objective",
        bandwidth: f64 = "system.bandwidth",
        latency: f64 = "system.latency",
        speed: f64 = "system.speed",
        levels: u64 = "system.levels",
        down: u64 = "system.down",
        processes: u64 = "job.processes",
        rounds: u64 = "job.rounds",
        message_bytes: f64 = "job.messageBytes",
        compute: f64 = "job.compute",
        wrap: bool = "job.wrap",
        background_processes: u64 = "background.processes",
    );
}

/// The network simulator's sharing model, as the simulator names it.
pub use crate::netsim::Model as ModelId;

choices! {
    pub enum SystemKind {
        Torus2d = ("torus2d", "2D torus"),
        Torus3d = ("torus3d", "3D torus"),
        Mesh2d = ("mesh2d", "2D mesh"),
        Mesh3d = ("mesh3d", "3D mesh"),
        FatTree = ("fatTree", "Fat tree (k:k-ary n-tree)"),
        ThinTree = ("thinTree", "Thin tree (k:k'-ary n-tree, k' < k)"),
        Torus = ("torus", "Torus of any dimension (sides)"),
        Dragonfly = ("dragonfly", "Dragonfly (SimGrid DRAGONFLY)"),
        Simgrid = ("simgrid", "SimGrid platform file (XML)"),
    }
}

impl SystemKind {
    pub fn is_tree(self) -> bool {
        matches!(self, SystemKind::FatTree | SystemKind::ThinTree)
    }
    pub fn is_3d(self) -> bool {
        matches!(self, SystemKind::Torus3d | SystemKind::Mesh3d)
    }
    /// A network the strategies see through its routes ([`Shape::Net`]).
    pub fn is_net(self) -> bool {
        matches!(
            self,
            SystemKind::Torus | SystemKind::Dragonfly | SystemKind::Simgrid
        )
    }
}

/// Most hosts of a torus of any dimension, a dragonfly or a platform file: the strategies keep
/// the route length of every host pair ([`crate::place::strategy::machine::HopTable`], 32 MiB
/// at this size).
pub const MAX_NET_HOSTS: u64 = 4096;
/// Most sides of a torus of kind `torus`.
pub const MAX_TORUS_DIMS: usize = 6;

/// The machine: a torus or mesh of sides `x, y[, z]`, or a k:k'-ary n-tree (`levels`, `down`,
/// `up`) or SimGrid's `FAT_TREE` string `levels;down;up;parallel` (`simgrid`), a torus of any
/// dimension (`dims`), a dragonfly (`simgrid`: SimGrid's `DRAGONFLY` parameters), or a SimGrid
/// platform file's text (`platform`); links of `bandwidth` bytes/s and `latency` s (a platform
/// file has its own); hosts of `speed` flop/s.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SystemSpec {
    pub kind: SystemKind,
    pub x: Option<u64>,
    pub y: Option<u64>,
    pub z: Option<u64>,
    pub levels: Option<u64>,
    pub down: Option<u64>,
    pub up: Option<u64>,
    pub simgrid: Option<String>,
    /// Kind `torus`: the sides.
    pub dims: Option<Vec<u64>>,
    /// Kind `simgrid`: the platform file's text (SimGrid XML, version 4.1).
    pub platform: Option<String>,
    #[serde(default = "d::bandwidth")]
    pub bandwidth: f64,
    #[serde(default = "d::latency")]
    pub latency: f64,
    #[serde(default = "d::speed")]
    pub speed: f64,
}

/// Refuses a `FAT_TREE` string whose switch counts overflow before the simulator's parser sees
/// it (its size checks multiply the `up` counts of all levels in `u64` unchecked): the product of
/// the `down`, `up` and `parallel` numbers must stay under 2^48. Text that does not parse is left
/// to the parser, whose messages say what is wrong.
fn guard_tree_size(text: &str) -> std::result::Result<(), String> {
    let mut product: u64 = 1;
    for part in text.trim().split(';').skip(1) {
        for t in part.split(',') {
            let Ok(v) = t.trim().parse::<u64>() else {
                return Ok(());
            };
            product = product
                .checked_mul(v.max(1))
                .filter(|&p| p < 1 << 48)
                .ok_or_else(|| {
                    "the tree is far too big: its down, up and parallel numbers multiply to more than 2^48".to_string()
                })?;
        }
    }
    Ok(())
}

/// The resolved machine: its shape for the strategies and, for trees, SimGrid's parameters.
#[derive(Debug, Clone, PartialEq)]
pub struct System {
    pub kind: SystemKind,
    pub shape: Shape,
    /// The network simulator's description of the same machine.
    pub net: NetSystem,
    /// A dragonfly or a platform file: the machine as SimGrid XML, which the simulator's
    /// importer routes ([`crate::netsim::Platform::from_simgrid`]).
    pub xml: Option<std::sync::Arc<str>>,
    /// A network the strategies see through its routes: the mean route length over a fixed
    /// sample of host pairs (the admission estimate's), 0 until the platform is built
    /// ([`validate_system`]).
    pub mean_hops: f64,
}

impl System {
    /// The simulator's platform of this machine, its links of `link` (a platform file has its
    /// own).
    ///
    /// # Errors
    /// What the simulator refuses (sizes, routes).
    pub fn platform(&self, link: LinkParams) -> std::result::Result<Platform, String> {
        match &self.xml {
            Some(xml) => {
                let sg = crate::formats::simgrid::parse(xml, "platform")?;
                Platform::from_simgrid(sg)
            }
            None => Platform::build(&self.net, link),
        }
    }

    /// Mean hops between two hosts drawn at random ([`mean_random_hops`]; on a network seen
    /// through its routes, the sample's mean).
    pub fn mean_hops(&self) -> f64 {
        match self.shape {
            Shape::Net { .. } => self.mean_hops.max(1.0),
            _ => mean_random_hops(&self.shape),
        }
    }
}

/// Mean route length over a fixed sample of host pairs (every pair up to 64 hosts, else 4,096
/// pairs drawn from a fixed seed).
pub fn sample_mean_hops(p: &Platform) -> f64 {
    let n = p.hosts();
    if n < 2 {
        return 1.0;
    }
    let mut route = Vec::new();
    let (mut sum, mut count) = (0u64, 0u64);
    let mut add = |a: u32, b: u32| {
        route.clear();
        p.route(a, b, &mut route);
        sum += route.len() as u64;
        count += 1;
    };
    if n <= 64 {
        for a in 0..n {
            for b in 0..n {
                if a != b {
                    add(a, b);
                }
            }
        }
    } else {
        let mut rng = crate::rng::Rng::seeded(0x6d65_616e_686f_7073);
        for _ in 0..4096 {
            let a = rng.below(u64::from(n)) as u32;
            let b = (a + 1 + rng.below(u64::from(n) - 1) as u32) % n;
            add(a, b);
        }
    }
    sum as f64 / count as f64
}

/// A dragonfly's groups of hosts from SimGrid's parameters (`groups,blue;chassis,black;
/// routers,green;nodes`): nodes a router, routers a chassis, chassis a group, groups.
fn dragonfly_groups(a: &[u32; 7]) -> Vec<u32> {
    vec![a[6], a[4], a[2], a[0]]
}

/// The host groups of a platform file: a file whose hosts are all in one torus, fat-tree or
/// dragonfly cluster has its levels (rings, switches, routers); one whose root zone holds zones
/// of as many consecutive hosts each, those zones; any other, one group of all its hosts.
fn file_groups(sg: &crate::formats::simgrid::SgPlatform) -> Vec<u32> {
    use crate::formats::simgrid::Routing;
    let n = sg.hosts.len() as u32;
    let mut structured = sg.zones.iter().filter_map(|z| match &z.routing {
        Routing::Torus(d) => Some(d.clone()),
        Routing::FatTree(t) => Some(t.down.clone()),
        Routing::Dragonfly(d) => Some(dragonfly_groups(d)),
        _ => None,
    });
    if let (Some(g), None) = (structured.next(), structured.next()) {
        if g.iter().map(|&x| u64::from(x)).product::<u64>() == u64::from(n) {
            return g;
        }
    }
    // the root's child zones, when each holds the same number of consecutive hosts
    let child_of_root = |h: u32| -> u32 {
        let mut z = sg.points[h as usize].zone;
        while let Some(p) = sg.zones[z as usize].parent {
            if p == 0 {
                return z;
            }
            z = p;
        }
        z
    };
    let zones: Vec<u32> = sg.hosts.iter().map(|&h| child_of_root(h)).collect();
    let mut runs: Vec<(u32, u32)> = Vec::new();
    for &z in &zones {
        match runs.last_mut() {
            Some((last, len)) if *last == z => *len += 1,
            _ => runs.push((z, 1)),
        }
    }
    let distinct = {
        let mut v: Vec<u32> = runs.iter().map(|r| r.0).collect();
        v.sort_unstable();
        v.dedup();
        v.len()
    };
    let size = runs[0].1;
    if runs.len() > 1 && distinct == runs.len() && runs.iter().all(|r| r.1 == size) {
        vec![size, runs.len() as u32]
    } else {
        vec![n]
    }
}

impl SystemSpec {
    /// The machine, for a spec that passed [`validate_system`].
    pub fn resolve(&self) -> std::result::Result<System, ScenarioError> {
        let kind = self.kind;
        if kind.is_net() {
            return self.resolve_net();
        }
        if kind.is_tree() {
            let tree = if let Some(t) = &self.simgrid {
                guard_tree_size(t).map_err(|m| ScenarioError::at("system.simgrid", m))?;
                parse_fat_tree(t).map_err(|m| ScenarioError::at("system.simgrid", m))?
            } else {
                let levels = self.levels.unwrap_or_else(d::levels);
                let down = self.down.unwrap_or_else(d::down);
                // a default across fields: up = down (fat) or 2 (thin)
                let up = self
                    .up
                    .unwrap_or(if kind == SystemKind::FatTree { down } else { 2 });
                check_range("system.up", up, 1, down)?;
                let hosts = down.checked_pow(levels as u32).filter(|&h| h <= MAX_HOSTS);
                if hosts.is_none() {
                    return Err(ScenarioError::at(
                        "system",
                        format!("a {down}-ary {levels}-tree has {down}^{levels} hosts; the limit is {MAX_HOSTS}"),
                    ));
                }
                FatTreeSpec::k_ary_n_tree(down as u32, up as u32, levels as u32)
                    .map_err(|m| ScenarioError::at("system", m))?
            };
            if kind == SystemKind::ThinTree && !tree.is_thin() {
                return Err(ScenarioError::at(
                    if self.simgrid.is_some() { "system.simgrid" } else { "system.up" },
                    "a thin tree has fewer links up than down at some level (up < down); this is a fat tree",
                ));
            }
            if kind == SystemKind::FatTree && tree.is_thin() {
                return Err(ScenarioError::at(
                    if self.simgrid.is_some() { "system.simgrid" } else { "system.up" },
                    "a fat tree has as many links up as down above the leaves; this is a thin tree (kind thinTree)",
                ));
            }
            if tree.levels as u64 > MAX_LEVELS {
                return Err(ScenarioError::at(
                    "system.simgrid",
                    format!("at most {MAX_LEVELS} levels, got {}", tree.levels),
                ));
            }
            let hosts = tree.hosts();
            if hosts > MAX_HOSTS {
                return Err(ScenarioError::at(
                    "system",
                    format!("the tree has {hosts} hosts; the limit is {MAX_HOSTS}"),
                ));
            }
            return Ok(System {
                kind,
                shape: Shape::Tree {
                    down: tree.down.clone(),
                },
                net: NetSystem::FatTree(tree),
                xml: None,
                mean_hops: 0.0,
            });
        }
        let side = |name: &str, v: Option<u64>| -> Result<u32> {
            let v = v.ok_or_else(|| {
                ScenarioError::at(
                    format!("system.{name}"),
                    "missing: the number of nodes along this side",
                )
            })?;
            Ok(v as u32)
        };
        let x = side("x", self.x)?;
        let y = side("y", self.y)?;
        let z = if kind.is_3d() { side("z", self.z)? } else { 1 };
        if !kind.is_3d() && self.z.is_some() {
            return Err(ScenarioError::at(
                "system.z",
                format!("a {} has no z side", kind.id()),
            ));
        }
        let hosts = u64::from(x) * u64::from(y) * u64::from(z);
        if hosts > MAX_HOSTS {
            return Err(ScenarioError::at(
                "system",
                format!("{x} x {y} x {z} = {hosts} hosts; the limit is {MAX_HOSTS}"),
            ));
        }
        Ok(System {
            kind,
            shape: Shape::Grid {
                dims: [x, y, z],
                wrap: matches!(kind, SystemKind::Torus2d | SystemKind::Torus3d),
            },
            net: match kind {
                SystemKind::Torus2d => NetSystem::Torus2d { x, y },
                SystemKind::Torus3d => NetSystem::Torus3d { x, y, z },
                SystemKind::Mesh2d => NetSystem::Mesh2d { x, y },
                _ => NetSystem::Mesh3d { x, y, z },
            },
            xml: None,
            mean_hops: 0.0,
        })
    }

    /// A torus of any dimension, a dragonfly or a platform file.
    fn resolve_net(&self) -> std::result::Result<System, ScenarioError> {
        let too_big = |hosts: u64| {
            format!(
                "{hosts} hosts; the limit for a {} is {MAX_NET_HOSTS}",
                self.kind.id()
            )
        };
        let (down, net, xml) = match self.kind {
            SystemKind::Torus => {
                let Some(dims) = &self.dims else {
                    return Err(ScenarioError::at(
                        "system.dims",
                        "missing: the sides of the torus, e.g. [4, 4, 4, 4, 2]",
                    ));
                };
                if dims.is_empty() || dims.len() > MAX_TORUS_DIMS {
                    return Err(ScenarioError::at(
                        "system.dims",
                        format!("give 1 to {MAX_TORUS_DIMS} sides, got {}", dims.len()),
                    ));
                }
                for (i, &d) in dims.iter().enumerate() {
                    check_range(&format!("system.dims[{i}]"), d, 1, MAX_NET_HOSTS)?;
                }
                let hosts = dims
                    .iter()
                    .try_fold(1u64, |a, &d| Some(a * d).filter(|&h| h <= MAX_NET_HOSTS));
                if hosts.is_none() {
                    let shown: Vec<String> = dims.iter().map(u64::to_string).collect();
                    return Err(ScenarioError::at(
                        "system.dims",
                        format!(
                            "{} is over {MAX_NET_HOSTS} hosts, the limit",
                            shown.join(" x ")
                        ),
                    ));
                }
                let dims: Vec<u32> = dims.iter().map(|&d| d as u32).collect();
                (dims.clone(), NetSystem::Torus { dims }, None)
            }
            SystemKind::Dragonfly => {
                let Some(params) = &self.simgrid else {
                    return Err(ScenarioError::at(
                        "system.simgrid",
                        "missing: SimGrid's DRAGONFLY parameters groups,blue;chassis,black;routers,green;nodes, e.g. 3,4;4,3;5,1;2",
                    ));
                };
                let a = crate::formats::simgrid::read::dragonfly_params(params)
                    .map_err(|m| ScenarioError::at("system.simgrid", m))?;
                let hosts = [a[0], a[2], a[4], a[6]]
                    .iter()
                    .map(|&x| u64::from(x))
                    .product::<u64>();
                if hosts > MAX_NET_HOSTS {
                    return Err(ScenarioError::at("system.simgrid", too_big(hosts)));
                }
                let xml = crate::formats::simgrid::write::dragonfly(
                    crate::formats::hostfile::SIMGRID_ZONE,
                    params,
                    hosts as u32,
                    LinkParams {
                        bandwidth: self.bandwidth,
                        latency: self.latency,
                    },
                    self.speed,
                );
                (
                    dragonfly_groups(&a),
                    NetSystem::Imported {
                        hosts: hosts as u32,
                    },
                    Some(xml.into()),
                )
            }
            _ => {
                let Some(text) = &self.platform else {
                    return Err(ScenarioError::at(
                        "system.platform",
                        "missing: the SimGrid platform file's text (XML, version 4.1)",
                    ));
                };
                let sg = crate::formats::simgrid::parse(text, "platform")
                    .map_err(|m| ScenarioError::at("system.platform", m))?;
                let hosts = sg.hosts.len() as u64;
                if hosts == 0 {
                    return Err(ScenarioError::at(
                        "system.platform",
                        "the platform has no host",
                    ));
                }
                if hosts > MAX_NET_HOSTS {
                    return Err(ScenarioError::at("system.platform", too_big(hosts)));
                }
                (
                    file_groups(&sg),
                    NetSystem::Imported {
                        hosts: hosts as u32,
                    },
                    Some(text.as_str().into()),
                )
            }
        };
        Ok(System {
            kind: self.kind,
            shape: Shape::Net {
                down,
                hops: Default::default(),
            },
            net,
            xml,
            mean_hops: 0.0,
        })
    }
}

/// The control job.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct JobSpec {
    pub kind: JobKind,
    /// Tasks (built-in kinds; a file gives its own count).
    #[serde(default = "d::processes")]
    pub processes: u64,
    #[serde(default = "d::rounds")]
    pub rounds: u64,
    /// Bytes per message per unit of edge weight.
    #[serde(default = "d::message_bytes")]
    pub message_bytes: f64,
    /// Flops per round per unit of vertex weight.
    #[serde(default = "d::compute")]
    pub compute: f64,
    /// GRID and CUBE: close rows and columns into rings.
    #[serde(default = "d::wrap")]
    pub wrap: bool,
    /// METIS graph or edge list text (kinds `metis`, `edgeList`).
    pub graph: Option<String>,
    /// Kind `messages`: the one-way messages of one round.
    pub messages: Option<Vec<MessageSpec>>,
}

/// Every `kinds` x `messageBytes` x `processes` case, replacing the job's kind, message size
/// and size.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SweepSpec {
    #[serde(default)]
    pub kinds: Vec<JobKind>,
    #[serde(default)]
    pub message_bytes: Vec<f64>,
    /// Job sizes (the source averages its ratios over the sizes it requests).
    #[serde(default)]
    pub processes: Vec<u64>,
}

/// Experiment 2: before the control job, jobs of `processes` tasks with kinds and strategies
/// drawn from the seed (STAR/GRID/CUBE/TREE x Simple/Random/Optimal/Advanced) fill `fill` of
/// the hosts; they run their rounds at the same time as the control job.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BackgroundSpec {
    pub fill: f64,
    #[serde(default = "d::background_processes")]
    pub processes: u64,
}

/// One case of the run: the job with its kind and message size.
#[derive(Debug, Clone, PartialEq)]
pub struct Case {
    pub kind: JobKind,
    pub message_bytes: f64,
    pub processes: u64,
}

/// Tasks of a `messages` job: one more than the largest task named by a message.
pub fn message_tasks(s: &PlaceScenario) -> u64 {
    s.job
        .messages
        .iter()
        .flatten()
        .map(|m| m.src.max(m.dst) + 1)
        .max()
        .unwrap_or(0)
}

/// The cases of a scenario, in order (a `messages` job has one: no sweep).
pub fn cases(s: &PlaceScenario) -> Vec<Case> {
    let Some(sw) = &s.sweep else {
        return vec![Case {
            kind: s.job.kind,
            message_bytes: s.job.message_bytes,
            processes: if s.job.kind == JobKind::Messages {
                message_tasks(s)
            } else {
                s.job.processes
            },
        }];
    };
    let kinds = if sw.kinds.is_empty() {
        vec![s.job.kind]
    } else {
        sw.kinds.clone()
    };
    let sizes = if sw.message_bytes.is_empty() {
        vec![s.job.message_bytes]
    } else {
        sw.message_bytes.clone()
    };
    let procs = if sw.processes.is_empty() {
        vec![s.job.processes]
    } else {
        sw.processes.clone()
    };
    let mut out = Vec::new();
    for &kind in &kinds {
        for &message_bytes in &sizes {
            for &processes in &procs {
                out.push(Case {
                    kind,
                    message_bytes,
                    processes,
                });
            }
        }
    }
    out
}

/// The task graph of a case; a `messages` job's is [`jobs::message_graph`], its message size
/// the bytes per unit of edge weight.
pub fn build_job(s: &PlaceScenario, c: &Case) -> Result<TaskGraph> {
    build_case(s, c).map(|(g, _)| g)
}

/// The task graph of a case and the bytes per unit of its edge weights (the case's message size,
/// or a `messages` job's unit).
pub fn build_case(s: &PlaceScenario, c: &Case) -> Result<(TaskGraph, f64)> {
    if c.kind == JobKind::Messages {
        let msgs = s.job.messages.as_deref().unwrap_or(&[]);
        return jobs::message_graph(c.processes as u32, msgs)
            .map_err(|e| ScenarioError::at("job.messages", e.to_string()));
    }
    build_graph(s, c).map(|g| (g, c.message_bytes))
}

fn build_graph(s: &PlaceScenario, c: &Case) -> Result<TaskGraph> {
    let kind = c.kind;
    jobs::task_graph(kind, c.processes as u32, s.job.wrap, s.job.graph.as_deref()).map_err(|e| {
        let at = if kind.is_file() { "job.graph" } else { "job" };
        ScenarioError::at(at, e.to_string())
    })
}

/// Checks the system's fields.
pub fn validate_system(s: &SystemSpec) -> Result<System> {
    // the fields of the other kinds
    let own: &[&str] = match s.kind {
        SystemKind::Torus => &["dims"],
        SystemKind::Dragonfly => &["simgrid"],
        SystemKind::Simgrid => &["platform"],
        _ => &[],
    };
    let given = [
        ("x", s.x.is_some()),
        ("y", s.y.is_some()),
        ("z", s.z.is_some()),
        ("levels", s.levels.is_some()),
        ("down", s.down.is_some()),
        ("up", s.up.is_some()),
        ("simgrid", s.simgrid.is_some()),
        ("dims", s.dims.is_some()),
        ("platform", s.platform.is_some()),
    ];
    if s.kind.is_net() {
        if let Some((name, _)) = given.iter().find(|(n, g)| *g && !own.contains(n)) {
            return Err(ScenarioError::at(
                format!("system.{name}"),
                format!("a {} is given by {} alone, not {name}", s.kind.id(), own[0]),
            ));
        }
        return s.resolve();
    }
    for name in ["dims", "platform"] {
        if given.iter().any(|(n, g)| *g && *n == name) {
            return Err(ScenarioError::at(
                format!("system.{name}"),
                format!(
                    "{name} belongs to kind {}",
                    if name == "dims" { "torus" } else { "simgrid" }
                ),
            ));
        }
    }
    if s.kind.is_tree() {
        for (name, v) in [("x", s.x), ("y", s.y), ("z", s.z)] {
            if v.is_some() {
                return Err(ScenarioError::at(
                    format!("system.{name}"),
                    format!(
                        "a {} has levels, down and up (or simgrid), not sides",
                        s.kind.id()
                    ),
                ));
            }
        }
        if s.simgrid.is_some() && (s.levels.is_some() || s.down.is_some() || s.up.is_some()) {
            return Err(ScenarioError::at(
                "system.simgrid",
                "give either simgrid or levels/down/up, not both",
            ));
        }
    } else {
        for (name, v) in [("levels", s.levels), ("down", s.down), ("up", s.up)] {
            if v.is_some() {
                return Err(ScenarioError::at(
                    format!("system.{name}"),
                    format!(
                        "a {} has sides x, y{}, not tree levels",
                        s.kind.id(),
                        if s.kind.is_3d() { ", z" } else { "" }
                    ),
                ));
            }
        }
        if s.simgrid.is_some() {
            return Err(ScenarioError::at(
                "system.simgrid",
                "only trees take SimGrid's FAT_TREE parameters",
            ));
        }
    }
    s.resolve()
}

/// The admission estimate of one scenario: steps of work, what the run does.
///
/// Per case and strategy: placing `20 N + 40 (P + 2E) log2 P` steps (the curve, the windows,
/// the partitioning levels of Advanced, Identity's block search at `N P / 8` worst), and
/// simulating [`simulation_ns`] per round simulated (1 without a background: every round is the
/// same). A simulation stops at its budget of recomputed flows and a run's simulations at
/// their shared one ([`super::run::SIM_BUDGET`], [`super::run::RUN_SIM_BUDGET`]), so the
/// recomputations are counted at most at what those budgets cost ([`SIM_NS`], [`RUN_SIM_NS`]);
/// the flows' starts and first solves, which no budget stops, always in full.
#[derive(Debug, Clone, PartialEq)]
pub struct Estimate {
    pub steps: f64,
}

/// Mean hops of the route between two hosts drawn at random: per ring of `d` hosts `d / 4`
/// (`(d^2 - 1) / (4 d)` for odd `d`), per line `(d^2 - 1) / (3 d)`; on a tree, up to the top
/// and down (two per level).
pub fn mean_random_hops(shape: &Shape) -> f64 {
    match shape {
        Shape::Grid { dims, wrap } => dims
            .iter()
            .map(|&d| {
                let d = f64::from(d);
                if *wrap {
                    if d as u64 % 2 == 0 {
                        d / 4.0
                    } else {
                        (d * d - 1.0) / (4.0 * d)
                    }
                } else {
                    (d * d - 1.0) / (3.0 * d)
                }
            })
            .sum::<f64>()
            .max(1.0),
        Shape::Tree { down } => 2.0 * down.len() as f64,
        // a stand-in: the estimate takes a network's sampled mean ([`System::mean_hops`])
        Shape::Net { down, .. } => 2.0 * down.len() as f64,
    }
}

/// Message size (bytes) from which a round's transfers overlap fully: below it flows end
/// within their latencies and fewer completion events share the links (measured, `placelab
/// netsim --job full --tasks 128 --placement random` on the 16^3 torus: 1 kB recomputes each
/// flow once, 10 kB a tenth of what 1 MB does, 100 kB as much as 1 MB).
pub const OVERLAP_BYTES: f64 = 100_000.0;

/// What one simulation costs: how many flows each start or end makes the simulator recompute,
/// which grows with the flows `F`, their overlap and how scattered they are, and what each
/// recomputed flow costs, which grows with its route of `h` links. Nanoseconds:
/// `g F^1.5 h LATENCY_NS` whatever the message size (a flow starts and ends within its
/// latency, solved once with the flows that start with it), plus `phi k g RECOMPUTED_PER_FLOW
/// F^1.5 (FLOW_NS + HOP_NS h)` with `phi = min(1, bytes / OVERLAP_BYTES)`, `k` the job's and
/// the machine's factors and `g` the placement's (below). Measured with `placelab netsim` (one round, LV08, 2 cores;
/// `docs/benchmarks.md`, Bounds): the scattered (random) FULL job at 1 MB recomputes 1.7 to 4.1
/// `F^1.5` flows on the 16^3 and 64x64 tori (240 to 16,256 flows), at 1.1 to 4.5 us each (the
/// first 500,000 of a simulation by scanning its capacities, the slower method); at 1 byte each
/// flow is solved once, at 0.66 to 1.1 us per flow and link with 16,384 to 65,280 flows and
/// about 0.2 us with 1,900 (the source's experiment 2 on the 8^3 torus).
pub const RECOMPUTED_PER_FLOW: f64 = 3.0;
/// See [`RECOMPUTED_PER_FLOW`].
pub const FLOW_NS: f64 = 1000.0;
/// See [`RECOMPUTED_PER_FLOW`].
pub const HOP_NS: f64 = 100.0;
/// See [`RECOMPUTED_PER_FLOW`].
pub const LATENCY_NS: f64 = 8.0;

/// The job's factor `k` in [`simulation_ns`]: FULL, graph files and message lists 1 (the
/// envelope); measured on random placements against `RECOMPUTED_PER_FLOW F^1.5`: GRID 0.15 to
/// 0.47 (0.5), CUBE 0.14 to 0.88 (0.7), TREE 0.19 (0.5), STAR 0.09 (0.15: every flow meets at
/// task 0's links, whatever the placement). Background jobs count as 0.5.
fn kind_factor(kind: JobKind) -> f64 {
    match kind {
        JobKind::Full | JobKind::Metis | JobKind::EdgeList | JobKind::Messages => 1.0,
        JobKind::Star => 0.15,
        JobKind::Cube => 0.7,
        JobKind::Grid | JobKind::Tree => 0.5,
    }
}

/// The machine's factor in [`simulation_ns`]: tori and meshes 1; trees 0.25 (measured on the
/// 16,384-host fat tree, random placements: FULL 0.09 of the tori's, GRID 0.18 to 1.2); other
/// networks 1, as tori.
fn shape_factor(shape: &Shape) -> f64 {
    match shape {
        Shape::Grid { .. } | Shape::Net { .. } => 1.0,
        Shape::Tree { .. } => 0.25,
    }
}

/// The placement's factor `k` in [`simulation_ns`]: a scattered placement (Random, or a given
/// one, which may be anything) 1; the compact strategies 0.5 (their recomputed flows measured
/// against Random's on the same job: 0.01 for an aligned GRID, 0.11 to 0.22 for FULL, 0.6 for
/// TREE, 0.8 for a CUBE that does not fit the machine's sides).
fn strategy_factor(st: StrategyId) -> f64 {
    match st {
        StrategyId::Random | StrategyId::Given => 1.0,
        _ => 0.5,
    }
}

/// The latency term's placement factor for a compact placement of a job other than FULL, a
/// file or a message list: measured, Simple's 1-byte simulation of a CUBE of 4,096 tasks on the
/// 64x64 torus takes 0.04 s where a scattered FULL job of as many flows would take 0.5 s.
const COMPACT_SPARSE_LATENCY: f64 = 0.1;

/// Native nanoseconds one simulation takes at most: its budget of recomputed flows
/// ([`super::run::SIM_BUDGET`]) at 1.5 us each (measured: 1.1 to 1.7 us per recomputed flow on
/// scattered FULL jobs of 1 MB messages, where the budget binds).
pub const SIM_NS: f64 = super::run::SIM_BUDGET as f64 * 1200.0;
/// The same for a run's simulations together ([`super::run::RUN_SIM_BUDGET`]).
pub const RUN_SIM_NS: f64 = super::run::RUN_SIM_BUDGET as f64 * 1200.0;

/// Estimated native nanoseconds of one simulated round on `shape` of `flows` flows of
/// `bytes`-byte messages, with the job's and the placement's factors (see
/// [`RECOMPUTED_PER_FLOW`]; the placement's also scales the latency term: a compact placement's
/// flows start together in fewer components).
pub fn simulation_ns(
    sys: &System,
    flows: f64,
    bytes: f64,
    kind: f64,
    placement: f64,
) -> SimulationNs {
    let shape = &sys.shape;
    let h = sys.mean_hops();
    let phi = (bytes / OVERLAP_BYTES).min(1.0);
    let f15 = flows * flows.sqrt();
    let recomputed = phi * kind * placement * shape_factor(shape) * RECOMPUTED_PER_FLOW * f15;
    // a compact placement of a sparse job starts its flows in many small components
    let latency = if placement < 1.0 && kind < 1.0 {
        COMPACT_SPARSE_LATENCY
    } else {
        placement
    };
    SimulationNs {
        latency: latency * f15 * h * LATENCY_NS,
        recomputed: recomputed * (FLOW_NS + HOP_NS * h),
    }
}

/// [`simulation_ns`]'s two terms: the flows' starts, routes and first solves, which no budget
/// stops, and the recomputations while they overlap, which the simulation budgets stop.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SimulationNs {
    pub latency: f64,
    pub recomputed: f64,
}

/// Task edges of a case, at most: FULL `P (P - 1) / 2`, GRID `2 P`, CUBE `3 P`, STAR and TREE
/// `P - 1`, a file or a message list its own (the scenario's `task_edges`).
fn case_edges(c: &Case, task_edges: u64) -> f64 {
    let p = c.processes as f64;
    match c.kind {
        JobKind::Full => (c.processes * c.processes.saturating_sub(1) / 2) as f64,
        JobKind::Metis | JobKind::EdgeList | JobKind::Messages => task_edges as f64,
        JobKind::Grid => 2.0 * p,
        JobKind::Cube => 3.0 * p,
        JobKind::Star | JobKind::Tree => (p - 1.0).max(0.0),
    }
}

/// Estimates a scenario's work from its sizes.
pub fn estimate(s: &PlaceScenario, sys: &System, processes: u64, task_edges: u64) -> Estimate {
    let n = f64::from(sys.shape.hosts());
    let bg_flows = s
        .background
        .as_ref()
        .map_or(0.0, |b| n * b.fill * 2.0 * 3.0);
    let strategies = s.strategies.len() as f64;
    // without a background one round is simulated (every round is the same)
    let rounds = if s.background.is_some() {
        s.job.rounds as f64
    } else {
        1.0
    };
    // the largest message of a message list sets its overlap
    let list_bytes = s
        .job
        .messages
        .iter()
        .flatten()
        .map(|m| m.bytes)
        .fold(0.0, f64::max);
    let with_mapped = s.strategies.contains(&StrategyId::Mapped);
    // Mapped's finalists simulated for `time`, its own simulation among them: a placement is
    // simulated once per case, so Mapped's starts that the scenario also runs (the same
    // placements unless the source's quirks change them) cost nothing more
    let mut extra_sims = 1;
    if with_mapped && s.objective == Objective::Time {
        use super::strategy::mapped::{MAX_FINALISTS, STARTS};
        let shared = STARTS
            .iter()
            .filter(|st| {
                s.strategies.contains(st) && (!s.source_quirks || **st == StrategyId::Identity)
            })
            .count();
        extra_sims = MAX_FINALISTS - shared;
    }
    // the strategies whose placements are simulated, Mapped's finalists beyond its own among
    // the compact ones
    let mut sims: Vec<f64> = s.strategies.iter().map(|&st| strategy_factor(st)).collect();
    for _ in 1..extra_sims {
        sims.push(strategy_factor(StrategyId::Mapped));
    }
    let mut steps = 0.0;
    let (mut fixed_ns, mut sim_ns) = (0.0, 0.0);
    for c in &cases(s) {
        // a graph file's tasks are the scenario's, at most
        let tasks = if c.kind.is_file() {
            processes
        } else {
            c.processes
        };
        let edges = case_edges(c, task_edges);
        let p = tasks as f64;
        let log2p = f64::from(64 - (tasks.max(2)).leading_zeros());
        let place = 20.0 * n + 40.0 * (p + 2.0 * edges) * log2p + n * p / 8.0;
        // Advanced's recursive partitioning, run by Advanced and by Mapped as one of its starts
        let advanced = match sys.shape {
            Shape::Grid { .. } | Shape::Net { .. } => ADVANCED_STEPS_GRID,
            Shape::Tree { .. } => ADVANCED_STEPS_TREE,
        } * (p + 2.0 * edges)
            * log2p;
        steps += strategies * place;
        if s.strategies.contains(&StrategyId::Advanced) {
            steps += advanced;
        }
        if with_mapped {
            use super::strategy::bisect::PASSES;
            use super::strategy::mapped::search_budget;
            let searches = match s.objective {
                // five on hop-bytes and one wider, one on link loads per finalist (four
                // starts, the bisection, five improved, one wider, one exact)
                Objective::Congestion => 18.0,
                // and the iterated local search's budget
                Objective::HopBytes => 8.0,
                Objective::Time => 7.0,
            };
            // the bisection start: per level the partitioner (as Advanced's) and at most four
            // candidates of PASSES refinement passes over ordered sets
            let bisection =
                (40.0 + 4.0 * f64::from(PASSES) * 2.0 * log2p) * (p + 2.0 * edges) * log2p;
            // the fold start: the grid recognized (a few side triples), each candidate's points
            // and hop-bytes, the least few laid on free blocks (Identity's search)
            let fold = {
                use super::strategy::fold::{MAX_CANDIDATES, MAX_INTERLEAVES, MAX_LAID};
                (8.0 + 4.0 * (MAX_CANDIDATES + MAX_INTERLEAVES) as f64) * (p + 2.0 * edges)
                    + MAX_LAID as f64 * n * p / 8.0
            };
            steps += 4.0 * place
                + advanced
                + bisection
                + fold
                + searches * STEPS_PER_SEARCH_UNIT * search_budget(tasks, edges as u64) as f64;
        }
        let (job_flows, bytes) = if c.kind == JobKind::Messages {
            (edges, list_bytes)
        } else {
            (2.0 * edges, c.message_bytes)
        };
        let flows = job_flows + bg_flows;
        let kind = (job_flows * kind_factor(c.kind) + bg_flows * 0.5) / flows.max(1.0);
        for &k in &sims {
            let one = simulation_ns(sys, flows, bytes, kind, k);
            fixed_ns += rounds * one.latency;
            sim_ns += (rounds * one.recomputed).min(SIM_NS * s.budget_scale());
        }
    }
    if let Shape::Net { .. } = sys.shape {
        // the route table, and Mapped's nearest hosts per case
        steps += n * n * STEPS_PER_ROUTE;
        if with_mapped {
            steps += cases(s).len() as f64 * n * n * STEPS_PER_NEAR;
        }
    }
    Estimate {
        steps: steps + (fixed_ns + sim_ns.min(RUN_SIM_NS * s.budget_scale())) / NS_PER_STEP,
    }
}

/// Steps per host pair of a network's route table ([`crate::place::strategy::machine::HopTable`]):
/// one route each. Measured on 4,096 hosts (one Simple run of 16 tasks, user CPU): 71 ns a pair
/// on the 8,2;8,2;16,1;4 dragonfly, 57 ns on the 4^6 torus (its closed form).
const STEPS_PER_ROUTE: f64 = 200.0;
/// Steps per host pair of Mapped's nearest hosts on such a network (a row scan and selection).
const STEPS_PER_NEAR: f64 = 20.0;

/// Steps per task-graph edge (`P + 2E`) and bisection level (`log2 P`) of Advanced's recursive
/// partitioning onto the machine's halves (tori and meshes) or switch groups (trees), besides
/// the placing every strategy is counted: measured (one strategy, 1-byte messages, user CPU),
/// 2.4 to 4 us on the 8^3 and 16^3 tori (GRID, CUBE and TREE jobs of 512 to 4,096 tasks), 0.75
/// to 0.9 us on the 16,384-host fat tree.
const ADVANCED_STEPS_GRID: f64 = 5000.0;
/// See [`ADVANCED_STEPS_GRID`].
const ADVANCED_STEPS_TREE: f64 = 1500.0;

/// Estimated steps per unit of Mapped's search work (an adjacency entry read and its hop count,
/// or a route link for link loads). Measured, Mapped alone on 4,096-task jobs of 1-byte
/// messages on the 16^3 torus (user CPU against the estimate): at 20 the estimate was 1.2 (TREE),
/// 1.6 (GRID) and 2.2 (CUBE) times the run, its searches stopping short of their budget.
const STEPS_PER_SEARCH_UNIT: f64 = 10.0;

/// Native nanoseconds per estimated step ([`Estimate::steps`]), the placement engine's work
/// unit: `cargo bench --bench bounds -- place` measured 0.44 (a 16^3 torus, every strategy) to
/// 0.81 (a 16,384-host fat tree, 1 MB messages) times the estimated time on the largest
/// admitted scenarios on our shared 2-core machine.
pub const NS_PER_STEP: f64 = 0.5;

/// Bytes per host and per task edge of a run (the platform's links and routes, the flows of
/// one round), for the memory estimate.
const HOST_BYTES: f64 = 2048.0;
const EDGE_BYTES: f64 = 2048.0;

/// Checks the whole scenario before any work starts: its fields, then the estimate within the
/// scenario's `timeLimit` (by default [`crate::engine::MAX_SECONDS`], every engine's budget).
pub fn validate(s: &PlaceScenario) -> Result<()> {
    let est = engine_estimate(s)?;
    est.admit_within(
        s.time_limit,
        "job",
        "steps",
        "",
        "use fewer processes, rounds, cases or strategies",
    )
}

/// The admission estimate of a scenario whose fields are valid: [`estimate`]'s steps at
/// [`NS_PER_STEP`]; memory: the platform and the largest case's flows.
///
/// # Errors
/// What [`validate`] refuses besides the estimate.
pub fn engine_estimate(s: &PlaceScenario) -> Result<crate::engine::Estimate> {
    let (sys, procs, edges) = validate_fields(s)?;
    let est = estimate(s, &sys, procs, edges);
    let hosts = f64::from(sys.shape.hosts());
    // a network's route table (2 bytes a host pair) and Mapped's nearest hosts
    let table = match sys.shape {
        Shape::Net { .. } => hosts * hosts * 2.0 + hosts * 64.0,
        _ => 0.0,
    };
    Ok(crate::engine::Estimate::new(
        est.steps,
        NS_PER_STEP,
        HOST_BYTES * hosts + EDGE_BYTES * edges as f64 + 4.0 * 1048576.0 + table,
    ))
}

/// Checks every field and rule, admission aside; returns the system, the most processes and
/// the most task edges of a case.
fn validate_fields(s: &PlaceScenario) -> Result<(System, u64, u64)> {
    let mut sys = validate_system(&s.system)?;
    // the simulator's own limits (tree sizes, links, a file's routes) are checked by building
    // the platform
    let link = LinkParams {
        bandwidth: s.system.bandwidth,
        latency: s.system.latency,
    };
    let p = sys.platform(link).map_err(|m| {
        ScenarioError::at(
            if sys.kind == SystemKind::Simgrid {
                "system.platform"
            } else {
                "system"
            },
            m,
        )
    })?;
    if let Shape::Net { .. } = sys.shape {
        sys.mean_hops = sample_mean_hops(&p);
    }
    let hosts = u64::from(sys.shape.hosts());
    let j = &s.job;
    if j.kind == JobKind::Messages {
        validate_messages(s, hosts)?;
    } else if j.messages.is_some() {
        return Err(ScenarioError::at(
            "job.messages",
            format!(
                "a {} job has no message list; messages belong to kind messages",
                j.kind.id()
            ),
        ));
    }
    if j.kind == JobKind::Messages {
        if j.graph.is_some() {
            return Err(ScenarioError::at(
                "job.graph",
                "a messages job is its message list; graph text belongs to kinds metis and edgeList",
            ));
        }
    } else if !j.kind.is_file() {
        check_range("job.processes", j.processes, 1, hosts)?;
        if j.graph.is_some() {
            return Err(ScenarioError::at(
                "job.graph",
                format!(
                    "a {} job is generated; graph text belongs to kinds metis and edgeList",
                    j.kind.id()
                ),
            ));
        }
    } else if j.graph.is_none() {
        return Err(ScenarioError::at(
            "job.graph",
            "missing: the METIS graph or edge list text",
        ));
    }
    if s.strategies.is_empty() || s.strategies.len() > StrategyId::ALL.len() {
        return Err(ScenarioError::at(
            "strategies",
            format!("give 1 to {} strategies", StrategyId::ALL.len()),
        ));
    }
    for (i, st) in s.strategies.iter().enumerate() {
        if s.strategies[..i].contains(st) {
            return Err(ScenarioError::at(
                format!("strategies[{i}]"),
                format!("\"{}\" is listed twice", st.id()),
            ));
        }
    }
    if let Some(sw) = &s.sweep {
        for (i, k) in sw.kinds.iter().enumerate() {
            if k.is_given() {
                return Err(ScenarioError::at(
                    format!("sweep.kinds[{i}]"),
                    "a sweep varies the built-in kinds STAR, GRID, CUBE, TREE, FULL",
                ));
            }
        }
        for (i, &p) in sw.processes.iter().enumerate() {
            check_range(&format!("sweep.processes[{i}]"), p, 1, hosts)?;
        }
        if j.kind.is_file() && !sw.processes.is_empty() {
            return Err(ScenarioError::at(
                "sweep.processes",
                "a graph file has its own number of tasks",
            ));
        }
        let c = sw.kinds.len().max(1) * sw.message_bytes.len().max(1) * sw.processes.len().max(1);
        if c > MAX_CASES {
            return Err(ScenarioError::at(
                "sweep",
                format!("{c} cases (kinds x message sizes x processes); the limit is {MAX_CASES}"),
            ));
        }
    }
    if let Some(b) = &s.background {
        check_range("background.processes", b.processes, 1, hosts)?;
    }
    let given = s.strategies.contains(&StrategyId::Given);
    match (&s.placement, given) {
        (None, true) => {
            return Err(ScenarioError::at(
                "placement",
                "missing: strategy given needs the host of each task",
            ))
        }
        (Some(_), false) => {
            return Err(ScenarioError::at(
                "placement",
                "a placement is read by strategy given: add \"given\" to strategies",
            ))
        }
        _ => {}
    }
    for (i, &h) in s.placement.iter().flatten().enumerate() {
        if h >= hosts {
            return Err(ScenarioError::at(
                format!("placement[{i}]"),
                format!("host {h}: the system's hosts are 0 to {}", hosts - 1),
            ));
        }
    }
    // task graphs: edges bound before building, files read here so their errors come first
    let mut edges = 0u64;
    let mut procs = 0u64;
    for c in cases(s) {
        procs = procs.max(c.processes);
        let e = match c.kind {
            JobKind::Full => c.processes * (c.processes - 1) / 2,
            JobKind::Metis | JobKind::EdgeList => {
                let g = build_job(s, &c)?;
                if u64::from(g.graph.n()) > hosts {
                    return Err(ScenarioError::at(
                        "job.graph",
                        format!(
                            "the graph has {} tasks; the system has {hosts} hosts",
                            g.graph.n()
                        ),
                    ));
                }
                if g.graph.n() == 0 {
                    return Err(ScenarioError::at("job.graph", "the graph has no vertex"));
                }
                g.graph.m()
            }
            // every message a flow (more than the pairs the strategies see)
            JobKind::Messages => j.messages.as_ref().map_or(0, |m| m.len() as u64),
            _ => 3 * c.processes,
        };
        if let Some(pl) = &s.placement {
            let tasks = match c.kind {
                JobKind::Metis | JobKind::EdgeList => u64::from(build_job(s, &c)?.graph.n()),
                _ => c.processes,
            };
            if pl.len() as u64 != tasks {
                return Err(ScenarioError::at(
                    "placement",
                    format!(
                        "{} hosts for a {} job of {tasks} tasks: give one host per task",
                        pl.len(),
                        c.kind.id()
                    ),
                ));
            }
        }
        if e > MAX_TASK_EDGES {
            return Err(ScenarioError::at(
                "job",
                format!(
                    "the {} job has {e} edges; the limit is {MAX_TASK_EDGES}",
                    c.kind.id()
                ),
            ));
        }
        edges = edges.max(e);
    }
    Ok((sys, procs, edges))
}

/// Checks a `messages` job: a list of 1 to [`MAX_TASK_EDGES`] messages, its tasks (one more
/// than the largest id) no more than the hosts, no sweep nor background (its messages carry
/// their own start times; the background's rounds have none). Bytes and start ranges are the
/// field table's.
fn validate_messages(s: &PlaceScenario, hosts: u64) -> Result<()> {
    let Some(msgs) = &s.job.messages else {
        return Err(ScenarioError::at(
            "job.messages",
            "missing: the list of messages {\"src\", \"dst\", \"bytes\", \"start\"}",
        ));
    };
    if msgs.is_empty() || msgs.len() as u64 > MAX_TASK_EDGES {
        return Err(ScenarioError::at(
            "job.messages",
            format!("give 1 to {MAX_TASK_EDGES} messages, got {}", msgs.len()),
        ));
    }
    for (i, m) in msgs.iter().enumerate() {
        for (name, t) in [("src", m.src), ("dst", m.dst)] {
            if t >= hosts {
                return Err(ScenarioError::at(
                    format!("job.messages[{i}].{name}"),
                    format!(
                        "task {t} makes a job of {} tasks; the system has {hosts} hosts (tasks are 0 to {})",
                        t + 1,
                        hosts - 1
                    ),
                ));
            }
        }
    }
    if s.sweep.is_some() {
        return Err(ScenarioError::at(
            "sweep",
            "a messages job is one case: it cannot be swept",
        ));
    }
    if s.background.is_some() {
        return Err(ScenarioError::at(
            "background",
            "a messages job is simulated alone: its messages have start times, the background's rounds none",
        ));
    }
    Ok(())
}

const GRIDS: &[&str] = &["torus2d", "torus3d", "mesh2d", "mesh3d"];
const TREES: &[&str] = &["fatTree", "thinTree"];
/// The kinds whose links are the scenario's (a platform file has its own).
const BUILT: &[&str] = &[
    "torus2d",
    "torus3d",
    "mesh2d",
    "mesh3d",
    "fatTree",
    "thinTree",
    "torus",
    "dragonfly",
];

/// The placement engine's field table: each field's path, label, kind, default, range and
/// options, stated once (see [`crate::params`]).
pub fn params() -> Vec<Param> {
    table().to_vec()
}

/// The field table, built once.
pub fn table() -> &'static [Param] {
    static_table!(build_table)
}

fn build_table() -> Vec<Param> {
    let side = |path, label| {
        Param::new(path, label, "int", json!(null))
            .range(1.0, MAX_HOSTS as f64)
            .unit("nodes")
    };
    vec![
        Param::new("system.kind", "System", "enum", json!(null)).options(SystemKind::options()),
        side("system.x", "Side x").show_if_any("system.kind", GRIDS),
        side("system.y", "Side y").show_if_any("system.kind", GRIDS),
        side("system.z", "Side z").show_if_any("system.kind", &["torus3d", "mesh3d"]),
        Param::new("system.levels", "Switch levels n", "int", json!(2))
            .range(1.0, MAX_LEVELS as f64)
            .show_if_any("system.kind", TREES),
        Param::new("system.down", "Links down k", "int", json!(4))
            .range(2.0, 64.0)
            .show_if_any("system.kind", TREES),
        Param::new("system.up", "Links up k'", "int", json!(null))
            .range(1.0, 64.0)
            .empty("k (fat), 2 (thin)")
            .show_if_any("system.kind", TREES),
        Param::new("system.simgrid", "SimGrid parameters", "string", json!(null))
            .empty("from n, k, k'")
            .help("a tree's FAT_TREE levels;down;up;parallel, e.g. 6;4,4,4,4,4,4;1,4,4,4,4,4;1,1,1,1,1,1; a dragonfly's DRAGONFLY groups,blue;chassis,black;routers,green;nodes, e.g. 3,4;4,3;5,1;2")
            .show_if_any("system.kind", &["fatTree", "thinTree", "dragonfly"]),
        Param::new("system.dims", "Sides", "string", json!(null))
            .help("[4, 4, 4, 4, 2]: 1 to 6 sides (a Blue Gene/Q's 5, Tofu's 6), at most 4,096 hosts")
            .show_if_any("system.kind", &["torus"]),
        Param::rule("system.dims[]", "int").range(1.0, MAX_NET_HOSTS as f64),
        Param::new("system.platform", "SimGrid platform (XML)", "text", json!(null))
            .help("a SimGrid platform file (version 4.1): zones, clusters, hosts, links and routes; its links replace the bandwidth and latency below; at most 4,096 hosts")
            .show_if_any("system.kind", &["simgrid"]),
        Param::new("system.bandwidth", "Link bandwidth", "number", json!(125e6))
            .range(1.0, 1e15)
            .unit("B/s")
            .show_if_any("system.kind", BUILT),
        Param::new("system.latency", "Link latency", "number", json!(50e-6))
            .range(0.0, 10.0)
            .unit("s")
            .show_if_any("system.kind", BUILT),
        Param::new("system.speed", "Node speed", "number", json!(1e9))
            .range(1.0, 1e18)
            .unit("flop/s")
            .help("every node's, a platform file's too (its hosts' own speeds are not read)"),
        Param::new("job.kind", "Job", "enum", json!(null)).options(JobKind::options()),
        Param::new("job.processes", "Processes", "int", json!(64))
            .range(1.0, MAX_HOSTS as f64)
            .show_if_any("job.kind", &["GRID", "CUBE", "STAR", "TREE", "FULL"]),
        Param::new("job.wrap", "Wrap around (task torus)", "bool", json!(false))
            .show_if_any("job.kind", &["GRID", "CUBE"]),
        Param::new("job.rounds", "Rounds", "int", json!(50)).range(1.0, MAX_ROUNDS as f64),
        Param::new("job.messageBytes", "Message size", "number", json!(1))
            .range(0.0, MAX_MESSAGE_BYTES)
            .unit("bytes")
            .help("per message, per unit of edge weight"),
        Param::new("job.compute", "Compute per round", "number", json!(0))
            .range(0.0, 1e18)
            .unit("flop"),
        Param::new(
            "strategies",
            "Strategies (side by side)",
            "multi",
            json!(super::strategy::DEFAULT.map(StrategyId::id)),
        )
        .options(StrategyId::options()),
        Param::new("model", "Network model", "enum", json!("simgrid-lv08"))
            .options(ModelId::options()),
        Param::new("endTolerance", "Ends batched within", "number", json!(0))
            .range(0.0, 0.05)
            .unit("of a message")
            .help("a message with at most this share of its bytes left ends with an earlier one, in one recomputation: 0 is exact; 0.01 made the scattered (Random) 4,096-task GRID with 1 MB messages 2.1x faster on the 16x16x16 torus and 4.3x on the 64x64 one, within 0.3 % of the exact time"),
        Param::new("timeLimit", "Time limit", "number", json!(crate::engine::MAX_SECONDS))
            .range(0.1, MAX_TIME_LIMIT)
            .unit("s")
            .help("the estimated native seconds a run may take: a larger scenario is refused before it runs, and the simulations' budgets of recomputed flows grow in proportion; the default is every engine's limit, and a run asking for more takes as long in the page too (with progress and Stop)"),
        Param::new("objective", "Mapped's objective", "enum", json!("time"))
            .options(Objective::options())
            .help("what Mapped (ours) minimizes: the simulated time, hop-bytes, or the most bytes on one link"),
        Param::new("sourceQuirks", "Source quirks", "bool", json!(false)).help(
            "the source's half shuffle (Simple, torus Optimal) and power-of-two 3D Hilbert curve",
        ),
        Param::rule("sweep.messageBytes[]", "number").range(0.0, MAX_MESSAGE_BYTES),
        // at most the system's hosts (checked by `validate`)
        Param::rule("sweep.processes[]", "int").range(1.0, MAX_HOSTS as f64),
        // kind messages; src and dst at most the hosts (checked by `validate`)
        Param::rule("job.messages[].src", "int").range(0.0, (MAX_HOSTS - 1) as f64),
        Param::rule("job.messages[].dst", "int").range(0.0, (MAX_HOSTS - 1) as f64),
        Param::rule("job.messages[].bytes", "number").range(0.0, MAX_MESSAGE_BYTES),
        Param::rule_with_default("job.messages[].start", "number", json!(0))
            .range(0.0, MAX_MESSAGE_START),
        // strategy given; hosts below the system's (checked by `validate`)
        Param::rule("placement[]", "int").range(0.0, (MAX_HOSTS - 1) as f64),
        Param::rule("background.fill", "number").range(0.0, MAX_FILL),
        // the range across fields (at most the system's hosts) is checked by `validate`
        Param::rule_with_default("background.processes", "int", json!(32))
            .range(1.0, MAX_HOSTS as f64),
        Param::new("seed", "Seed", "uint64", json!(1))
            .help("a whole number from 0 to 18446744073709551615"),
    ]
}
