//! The selection engine's scenario fields, their limits and their form controls.
//! Every part is optional: `stations` (with `model`) asks for workstation selection,
//! `alltoall.subsystem` for M-of-N subsystem selection, `alltoall.layouts` for multi-core
//! layouts. Format reference: `docs/format.md`, "Engine `select`".

use super::expr::{self, Constants};
use super::report::{LayoutReference, Reference};
use crate::error::{check_number, check_range, Result, ScenarioError};
use crate::params::{choices, static_table, table_defaults, Param};
use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::json;
use std::collections::BTreeMap;
use std::fmt;

/// Most stations in a workstation selection (the report has about 280 bytes per station).
pub const MAX_STATIONS: usize = 20_000;
/// Most stations when some load is a range: the choice under uncertainty compares every pair of
/// prefix sizes, `O(Q^2)`.
pub const MAX_STATIONS_WITH_RANGES: usize = 3_000;
/// Most user constants.
pub const MAX_CONSTANTS: usize = 32;
/// Most machines of a subsystem selection.
pub const MAX_MACHINES: usize = 512;
/// Most machines for which the exact search is attempted.
pub const MAX_EXACT_MACHINES: usize = 128;
/// Largest node budget of the exact search.
pub const MAX_EXACT_NODES: u64 = 100_000_000;
/// Default node budget of the exact search.
pub const DEFAULT_EXACT_NODES: u64 = 2_000_000;
/// The exact search's budget is capped so that `nodes x N x M` (its work bound: each node scans
/// at most `M` neighbours of each of `N` machines) stays under this.
pub const MAX_EXACT_WORK: u64 = 4_000_000_000;

/// The node budget in effect: `exactNodes` (default [`DEFAULT_EXACT_NODES`]) capped by
/// [`MAX_EXACT_WORK`]` / (N M)`.
pub fn exact_budget(s: &SubsystemSpec, n: usize) -> u64 {
    let want = s.exact_nodes.unwrap_or_else(d::exact_nodes);
    want.min(MAX_EXACT_WORK / (n as u64 * s.m as u64).max(1))
}
/// Most ranks in one layout question, and most nodes of the layouts machine.
pub const MAX_RANK: u32 = 4096;
pub const MAX_LAYOUT_NODES: u32 = 4096;
/// Most rank questions in one scenario.
pub const MAX_RANKS: usize = 16;
/// Upper bound on `sum over ranks of layouts x R^2` (the step-by-step estimate).
pub const MAX_LAYOUT_WORK: u64 = 400_000_000;

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SelectScenario {
    /// The workstations; empty: no workstation selection.
    #[serde(default)]
    pub stations: Vec<Station>,
    #[serde(default)]
    pub model: ModelSpec,
    /// The source's figures for this case, echoed beside ours in the report.
    pub reference: Option<Reference>,
    pub alltoall: Option<AllToAllSpec>,
    /// The reservation protocol simulation (see [`super::reservation`]).
    pub reservation: Option<ReservationSpec>,
}

/// The reservation protocol's scenario ([`super::reservation`]). Times are logical ticks.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ReservationSpec {
    /// Number of stations.
    pub stations: u32,
    /// CPU utilization of each station in `[0, 1]` (all 0 when absent); length `stations`.
    #[serde(default)]
    pub loads: Option<Vec<f64>>,
    /// The jobs that want stations.
    pub initiators: Vec<InitiatorSpec>,
    /// Message delay range, drawn uniformly per message.
    #[serde(default)]
    pub delay: DelaySpec,
    /// Probability that a message is lost.
    #[serde(default = "d::loss")]
    pub loss: f64,
    /// Probability that a `release` is lost (defaults to `loss`).
    #[serde(default)]
    pub loss_of_release: Option<f64>,
    /// The fixes switched on.
    #[serde(default)]
    pub fixes: FixesSpec,
    /// How long an initiator collects replies (broadcast mode); default `2 delay.max + 1`.
    #[serde(default)]
    pub reply_window: Option<u64>,
    /// How long a claim waits for an answer before it is sent again (ordered claims); default
    /// `2 delay.max + 1`.
    #[serde(default)]
    pub claim_timeout: Option<u64>,
    /// Wait before a new attempt after getting too few stations; default `4 delay.max + 4`.
    #[serde(default)]
    pub retry_after: Option<u64>,
    /// Attempts after the first before an initiator gives up (starved).
    #[serde(default = "d::max_retries")]
    pub max_retries: u32,
    /// The simulation stops at this logical time.
    #[serde(default = "d::max_time")]
    pub max_time: u64,
    /// Events kept in the report's list (the rest are counted).
    #[serde(default = "d::max_events")]
    pub max_events: u32,
    /// The simulation stops after this many processed events.
    #[serde(default = "d::max_steps")]
    pub max_steps: u64,
}

/// One job wanting stations.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct InitiatorSpec {
    /// When it starts asking.
    #[serde(default = "d::start")]
    pub start: u64,
    /// How many stations it needs.
    pub wants: u32,
    /// Stations answer only if their load is below this.
    #[serde(default = "d::threshold")]
    pub threshold: f64,
    /// How long the job runs once it has its stations.
    pub hold_for: u64,
}

/// Delay range of a message.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DelaySpec {
    #[serde(default = "d::delay_min")]
    pub min: u64,
    #[serde(default = "d::delay_max")]
    pub max: u64,
}

impl Default for DelaySpec {
    fn default() -> Self {
        DelaySpec {
            min: d::delay_min(),
            max: d::delay_max(),
        }
    }
}

/// The fixes we offer.
#[derive(Debug, Clone, Copy, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FixesSpec {
    /// Claim stations one at a time in the global order, waiting at busy ones once holding any.
    #[serde(default = "d::ordered_claims")]
    pub ordered_claims: bool,
    /// Grants are leases of this many ticks, renewed by the holder.
    #[serde(default)]
    pub lease_timeout: Option<u64>,
}

/// One workstation.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Station {
    /// Default `W<i+1>`.
    #[serde(default)]
    pub name: String,
    pub load: Load,
    /// Relative speed (1 = the machine the formulas describe).
    #[serde(default = "d::speed")]
    pub speed: f64,
}

/// Serde's defaults, read from the field table ([`params`]).
pub mod d {
    use super::*;
    table_defaults!(super::table;
        speed: f64 = "stations[].speed",
        preset: Preset = "model.preset",
        alpha: f64 = "model.alpha",
        beta: f64 = "model.beta",
        nstep: f64 = "model.nstep",
        t_mult: f64 = "model.tMult",
        t_add: f64 = "model.tAdd",
        objective: Objective = "alltoall.subsystem.objective",
        exact_nodes: u64 = "alltoall.subsystem.exactNodes",
        sockets_per_node: u32 = "alltoall.layouts.socketsPerNode",
        cores_per_socket: u32 = "alltoall.layouts.coresPerSocket",
        message_bytes: f64 = "alltoall.layouts.messageBytes",
        delay_min: u64 = "reservation.delay.min",
        delay_max: u64 = "reservation.delay.max",
        loss: f64 = "reservation.loss",
        ordered_claims: bool = "reservation.fixes.orderedClaims",
        max_retries: u32 = "reservation.maxRetries",
        max_time: u64 = "reservation.maxTime",
        max_events: u32 = "reservation.maxEvents",
        max_steps: u64 = "reservation.maxSteps",
        start: u64 = "reservation.initiators[].start",
        threshold: f64 = "reservation.initiators[].threshold",
    );
}

/// A CPU utilization in `[0, 1)`: one value, or a range `[lo, hi]`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Load {
    Exact(f64),
    Range(f64, f64),
}

impl Load {
    pub fn lo(self) -> f64 {
        match self {
            Load::Exact(v) => v,
            Load::Range(lo, _) => lo,
        }
    }
    pub fn hi(self) -> f64 {
        match self {
            Load::Exact(v) => v,
            Load::Range(_, hi) => hi,
        }
    }
    /// Whether the load was given as a range `[lo, hi]` (`[a, a]` included): such a scenario
    /// gets the uncertainty outputs and the station limit with ranges.
    pub fn is_range(self) -> bool {
        matches!(self, Load::Range(..))
    }
    /// The nominal load: the value, or the middle of the range.
    pub fn mid(self) -> f64 {
        match self {
            Load::Exact(v) => v,
            Load::Range(lo, hi) => (lo + hi) / 2.0,
        }
    }
}

impl<'de> Deserialize<'de> for Load {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Load;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a number or a range [lo, hi]")
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> std::result::Result<Load, E> {
                Ok(Load::Exact(v))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> std::result::Result<Load, E> {
                Ok(Load::Exact(v as f64))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> std::result::Result<Load, E> {
                Ok(Load::Exact(v as f64))
            }
            fn visit_seq<A: SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> std::result::Result<Load, A::Error> {
                let lo: f64 = seq
                    .next_element()?
                    .ok_or_else(|| de::Error::custom("a range needs two numbers [lo, hi]"))?;
                let hi: f64 = seq
                    .next_element()?
                    .ok_or_else(|| de::Error::custom("a range needs two numbers [lo, hi]"))?;
                if seq.next_element::<f64>()?.is_some() {
                    return Err(de::Error::custom(
                        "a range has exactly two numbers [lo, hi]",
                    ));
                }
                Ok(Load::Range(lo, hi))
            }
        }
        d.deserialize_any(V)
    }
}

/// The application model: a preset's formulas or the user's own.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ModelSpec {
    #[serde(default = "d::preset")]
    pub preset: Preset,
    /// Problem size (matrix order, grid points, ...); default per preset.
    #[serde(rename = "N")]
    pub n: Option<f64>,
    /// Start-up time of one message (ms).
    #[serde(default = "d::alpha")]
    pub alpha: f64,
    /// Transfer time per byte (ms/byte).
    #[serde(default = "d::beta")]
    pub beta: f64,
    /// Iterations (time steps).
    #[serde(default = "d::nstep")]
    pub nstep: f64,
    /// Time of one multiplication / addition on an idle station (ms).
    #[serde(default = "d::t_mult")]
    pub t_mult: f64,
    #[serde(default = "d::t_add")]
    pub t_add: f64,
    /// The user's named constants.
    #[serde(default)]
    pub constants: BTreeMap<String, f64>,
    /// Which `P` are allowed (presets fix it: `pmr` squares, `wave1d` any).
    pub p_set: Option<PSet>,
    /// Formulas (custom preset only).
    pub ts: Option<String>,
    pub tc: Option<String>,
    pub tr: Option<String>,
    pub to: Option<String>,
}

impl Default for ModelSpec {
    fn default() -> Self {
        ModelSpec {
            preset: d::preset(),
            n: None,
            alpha: d::alpha(),
            beta: d::beta(),
            nstep: d::nstep(),
            t_mult: d::t_mult(),
            t_add: d::t_add(),
            constants: BTreeMap::new(),
            p_set: None,
            ts: None,
            tc: None,
            tr: None,
            to: None,
        }
    }
}

choices! {
    pub enum Preset {
        /// 1D wave equation (the source's first application).
        Wave1d = ("wave1d", "1D wave equation"),
        /// Pipe-Multiply-Roll matrix multiply on a sqrt(P) x sqrt(P) grid.
        Pmr = ("pmr", "Matrix multiply, Pipe-Multiply-Roll (square P)"),
        Custom = ("custom", "My own formulas"),
    }
}

impl Preset {
    /// The preset's `N` when the scenario gives none: the source's figures (100,000 grid points,
    /// 500 x 500 matrices).
    pub fn default_n(self) -> f64 {
        match self {
            Preset::Wave1d => 100_000.0,
            Preset::Pmr => 500.0,
            Preset::Custom => 1000.0,
        }
    }
    /// The preset's formulas `[ts, tc, tr, to]` in the expression language. Communication terms
    /// between parts carry `min(P - 1, 1)`: one station exchanges nothing with itself.
    pub fn formulas(self) -> Option<[&'static str; 4]> {
        match self {
            Preset::Wave1d => Some([
                "P * (alpha + 8 * beta * N / P)",
                "2 * nstep * (alpha + 8 * beta) * min(P - 1, 1)",
                "P * (alpha + 8 * beta * N / P)",
                "nstep * (N / P) * (3 * t_mult + 4 * t_add)",
            ]),
            Preset::Pmr => Some([
                "P * (alpha + 4 * beta * N^2 / P)",
                "sqrt(P) * sqrt(P) * (alpha + 4 * beta * N^2 / P) * min(P - 1, 1)",
                "P * (alpha + 4 * beta * N^2 / P)",
                "N^3 / P * (t_mult + t_add)",
            ]),
            Preset::Custom => None,
        }
    }
    pub fn p_set(self) -> Option<PSet> {
        match self {
            Preset::Wave1d => Some(PSet::Any),
            Preset::Pmr => Some(PSet::Square),
            Preset::Custom => None,
        }
    }
}

choices! {
    /// Which numbers of stations a model allows.
    #[derive(Default)]
    pub enum PSet {
        /// What a custom model without `pSet` allows.
        #[default]
        Any = ("any", "Any"),
        Square = ("square", "Perfect squares"),
        PowerOfTwo = ("powerOfTwo", "Powers of two"),
        Even = ("even", "Even"),
    }
}

impl PSet {
    pub fn allows(self, p: u32) -> bool {
        match self {
            PSet::Any => true,
            PSet::Square => {
                let r = (p as f64).sqrt() as u32;
                (r.saturating_sub(1)..=r + 1).any(|k| k.checked_mul(k) == Some(p))
            }
            PSet::PowerOfTwo => p.is_power_of_two(),
            PSet::Even => p % 2 == 0,
        }
    }
}

/// The all-to-all parts.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AllToAllSpec {
    pub subsystem: Option<SubsystemSpec>,
    pub layouts: Option<LayoutsSpec>,
}

/// Choose `m` of `N` machines.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SubsystemSpec {
    #[serde(default = "d::objective")]
    pub objective: Objective,
    pub m: u32,
    /// Pairwise distances (or bandwidths), symmetric, `N x N`; the diagonal is ignored.
    pub matrix: Option<Vec<Vec<f64>>>,
    /// Machines as the leaves of a tree (instead of `matrix`).
    pub hierarchy: Option<Hierarchy>,
    /// Node budget of the exact search.
    pub exact_nodes: Option<u64>,
}

/// Leaves of a tree with `arities` (root first); a pair's value is `values[k]` where `k` is the
/// depth of the pair's lowest common ancestor (0 = the root).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Hierarchy {
    pub arities: Vec<u32>,
    pub values: Option<Vec<f64>>,
}

choices! {
    pub enum Objective {
        /// Minimize the product of pairwise distances (homogeneous network).
        Distance = ("distance", "Min product of distances (homogeneous)"),
        /// Maximize the product of pairwise bandwidths (hierarchical network).
        Bandwidth = ("bandwidth", "Max product of bandwidths (hierarchical)"),
    }
}

/// Multi-core layouts for an all-to-all of `ranks` processes.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LayoutsSpec {
    pub ranks: Vec<u32>,
    pub nodes: u32,
    #[serde(default = "d::sockets_per_node")]
    pub sockets_per_node: u32,
    #[serde(default = "d::cores_per_socket")]
    pub cores_per_socket: u32,
    /// Busy cores per node (taken from socket 0 up); missing nodes are idle.
    #[serde(default)]
    pub busy: Vec<u32>,
    /// Bytes each process sends to each other process.
    #[serde(default = "d::message_bytes")]
    pub message_bytes: f64,
    /// The cost table as CSV text (`layer,bytes,cf1,cf2,...` in microseconds); default: the
    /// source's InfiniBand slowdowns over the default base times.
    pub table: Option<String>,
    /// The source's layout times per rank, shown beside ours.
    #[serde(default)]
    pub reference: Vec<LayoutReference>,
}

/// The constants a formula sees: the built-ins, then the user's.
pub fn constants_of(m: &ModelSpec) -> Constants {
    let mut c = Constants::new();
    c.insert("N".into(), m.n.unwrap_or(m.preset.default_n()));
    c.insert("alpha".into(), m.alpha);
    c.insert("beta".into(), m.beta);
    c.insert("nstep".into(), m.nstep);
    c.insert("t_mult".into(), m.t_mult);
    c.insert("t_add".into(), m.t_add);
    for (k, v) in &m.constants {
        c.insert(k.clone(), *v);
    }
    c
}

/// The formula texts in effect `[ts, tc, tr, to]`.
pub fn formulas_of(m: &ModelSpec) -> [String; 4] {
    match m.preset.formulas() {
        Some(f) => f.map(String::from),
        None => [&m.ts, &m.tc, &m.tr, &m.to].map(|t| t.clone().unwrap_or_else(|| "0".into())),
    }
}

/// The allowed `P` in effect.
pub fn p_set_of(m: &ModelSpec) -> PSet {
    m.preset.p_set().or(m.p_set).unwrap_or_default()
}

pub const TERM_NAMES: [&str; 4] = ["ts", "tc", "tr", "to"];

/// Native nanoseconds per unit of each part's work, set by `cargo bench --bench bounds --
/// select` on each part alone at its largest admitted size, on our shared 2-core machine (T(P)
/// 1.16 and the layouts 0.59 times the estimated time; the exact search and the protocol end
/// long before their budgets, which the estimate takes as their cost):
/// a formula instruction of T(P) (or a pair of prefix sizes compared under uncertainty),
pub const NS_PER_CURVE_STEP: f64 = 2.0;
/// a neighbour scanned by the subsystem searches (`nodes x N x M` for the exact search),
pub const NS_PER_SUBSYSTEM_STEP: f64 = 1.5;
/// a step of the layouts' rank-by-rank estimate (`layouts x R^2`),
pub const NS_PER_LAYOUT_STEP: f64 = 15.0;
/// and a step of the reservation protocol's simulation (`maxSteps`, each an event delivered).
pub const NS_PER_PROTOCOL_STEP: f64 = 300.0;

/// The estimate of each part the scenario asks for, by its JSON path, in the order they run
/// (workstation selection, subsystem, layouts, reservation): a scenario runs them all, one
/// after another, so admission sums them ([`estimate`]).
///
/// - `stations`: T(P) for `P = 1..Q`, each its four compiled formulas (`I` instructions in
///   all) and the sort, `Q (I + 8) + 4 Q log2 Q`; with a load range the choice under
///   uncertainty compares every pair of prefix sizes, `24 Q^2` more (each pair's regret over
///   the load ranges);
/// - `alltoall.subsystem`: the exact search's node budget times `N M` ([`exact_budget`], when
///   `N` is at most [`MAX_EXACT_MACHINES`]) and the greedy searches, `4 N^2 M`;
/// - `alltoall.layouts`: `sum over ranks of (divisors + 1) R^2`;
/// - `reservation`: its `maxSteps` and one step per channel (stations x initiators) set up.
///
/// Memory: the report's rows (about 300 bytes per station and point of the curve, 100 per
/// protocol event kept) and each part's tables.
pub fn estimate_parts(s: &SelectScenario) -> Vec<(&'static str, crate::engine::Estimate)> {
    use crate::engine::Estimate;
    let mut parts = Vec::new();
    if !s.stations.is_empty() {
        let q = s.stations.len() as f64;
        let constants = constants_of(&s.model);
        let instructions: f64 = formulas_of(&s.model)
            .iter()
            .map(|f| super::expr::compile(f, &constants).map_or(1, |p| p.len()) as f64)
            .sum();
        let mut work = q * (instructions + 8.0) + 4.0 * q * libm::log2(q.max(2.0));
        if s.stations.iter().any(|st| st.load.is_range()) {
            work += 24.0 * q * q;
        }
        parts.push((
            "stations",
            Estimate::new(work, NS_PER_CURVE_STEP, 600.0 * q + 65536.0),
        ));
    }
    if let Some(a) = &s.alltoall {
        if let Some(sub) = &a.subsystem {
            let n = machines_of(sub).unwrap_or(0) as f64;
            let m = sub.m as f64;
            let exact = if (n as usize) <= MAX_EXACT_MACHINES {
                exact_budget(sub, n as usize) as f64 * n * m
            } else {
                0.0
            };
            parts.push((
                "alltoall.subsystem",
                Estimate::new(
                    exact + 4.0 * n * n * m,
                    NS_PER_SUBSYSTEM_STEP,
                    64.0 * n * n + 65536.0,
                ),
            ));
        }
        if let Some(l) = &a.layouts {
            parts.push((
                "alltoall.layouts",
                Estimate::new(
                    layout_work(l) as f64,
                    NS_PER_LAYOUT_STEP,
                    64.0 * f64::from(l.nodes) * f64::from(l.sockets_per_node * l.cores_per_socket)
                        + 65536.0,
                ),
            ));
        }
    }
    if let Some(r) = &s.reservation {
        let channels = f64::from(r.stations) * r.initiators.len() as f64;
        parts.push((
            "reservation",
            Estimate::new(
                r.max_steps as f64 + channels,
                NS_PER_PROTOCOL_STEP,
                64.0 * channels + 100.0 * f64::from(r.max_events) + 65536.0,
            ),
        ));
    }
    parts
}

/// The whole scenario's estimate: its parts' ([`estimate_parts`]) summed, plus the process's
/// own few MiB (measured peaks of the smallest parts: 4 to 8 MiB).
pub fn estimate(s: &SelectScenario) -> crate::engine::Estimate {
    total(&estimate_parts(s))
}

fn total(parts: &[(&'static str, crate::engine::Estimate)]) -> crate::engine::Estimate {
    parts.iter().fold(
        crate::engine::Estimate::new(0.0, 0.0, 6.0 * 1048576.0),
        |a, (_, e)| a.plus(*e),
    )
}

/// The layouts' estimated steps: `sum over ranks of (divisors + 1) R^2`.
fn layout_work(l: &LayoutsSpec) -> u64 {
    l.ranks
        .iter()
        .map(|&r| {
            let divisors = (1..=r).filter(|d| r % d == 0).count() as u64 + 1;
            divisors * u64::from(r) * u64::from(r)
        })
        .sum()
}

/// Checks values and limits (see `docs/format.md`, "Limits"), then admission: the sum of the
/// parts' estimates ([`estimate`]) within the budget ([`crate::engine::MAX_SECONDS`]).
pub fn validate(s: &SelectScenario) -> Result<()> {
    validate_fields(s)?;
    let parts = estimate_parts(s);
    let total = total(&parts);
    let what = parts
        .iter()
        .map(|(p, e)| format!("{p} {} s", crate::engine::seconds_words(e.seconds())))
        .collect::<Vec<_>>()
        .join(", ");
    // the refusal names the most expensive part's path
    let path = parts
        .iter()
        .max_by(|a, b| a.1.seconds().total_cmp(&b.1.seconds()))
        .map_or("", |(p, _)| p);
    total.admit(
        path,
        "work units",
        &format!("parts run one after another: {what}"),
        "ask for fewer parts, or smaller ones",
    )
}

/// Checks every value and limit, admission aside.
pub fn validate_fields(s: &SelectScenario) -> Result<()> {
    if s.stations.is_empty() && s.alltoall.is_none() && s.reservation.is_none() {
        return Err(ScenarioError::at(
            "stations",
            "nothing to do: give stations (workstation selection), alltoall or reservation",
        ));
    }
    if let Some(r) = &s.reservation {
        validate_reservation(r, "reservation")?;
    }
    validate_stations(s)?;
    validate_model(&s.model)?;
    if let Some(a) = &s.alltoall {
        if a.subsystem.is_none() && a.layouts.is_none() {
            return Err(ScenarioError::at(
                "alltoall",
                "give subsystem, layouts or both",
            ));
        }
        if let Some(sub) = &a.subsystem {
            validate_subsystem(sub)?;
        }
        if let Some(l) = &a.layouts {
            validate_layouts(l)?;
        }
    }
    Ok(())
}

fn validate_stations(s: &SelectScenario) -> Result<()> {
    check_range("stations.length", s.stations.len(), 0, MAX_STATIONS)
        .map_err(|e| ScenarioError::at("stations", e.message))?;
    let ranged = s.stations.iter().any(|st| st.load.is_range());
    if ranged && s.stations.len() > MAX_STATIONS_WITH_RANGES {
        return Err(ScenarioError::at(
            "stations",
            format!(
                "{} stations with load ranges; the limit with ranges is {MAX_STATIONS_WITH_RANGES} (without ranges {MAX_STATIONS})",
                s.stations.len()
            ),
        ));
    }
    for (i, st) in s.stations.iter().enumerate() {
        let p = format!("stations[{i}]");
        if st.name.chars().count() > 64 {
            return Err(ScenarioError::at(
                format!("{p}.name"),
                "at most 64 characters",
            ));
        }
        match st.load {
            Load::Exact(v) => check_load(&format!("{p}.load"), v)?,
            Load::Range(lo, hi) => {
                check_load(&format!("{p}.load[0]"), lo)?;
                check_load(&format!("{p}.load[1]"), hi)?;
                if lo > hi {
                    return Err(ScenarioError::at(
                        format!("{p}.load"),
                        format!("the range [{lo}, {hi}] is reversed; write [low, high]"),
                    ));
                }
            }
        }
    }
    Ok(())
}

fn check_load(path: &str, v: f64) -> Result<()> {
    if !v.is_finite() || !(0.0..=0.99).contains(&v) {
        return Err(ScenarioError::at(
            path,
            format!(
                "a CPU utilization must be from 0 to 0.99 (a fraction, not percent), got {}",
                crate::error::compact_number(v)
            ),
        ));
    }
    Ok(())
}

fn validate_model(m: &ModelSpec) -> Result<()> {
    check_range(
        "model.constants.length",
        m.constants.len(),
        0,
        MAX_CONSTANTS,
    )
    .map_err(|e| ScenarioError::at("model.constants", e.message))?;
    for (k, v) in &m.constants {
        let path = format!("model.constants.{k}");
        let valid = k
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && k.len() <= 32
            && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !valid {
            return Err(ScenarioError::at(
                "model.constants",
                format!("the constant name {k:?} must be letters, digits and _ (at most 32), starting with a letter or _"),
            ));
        }
        if expr::BUILTIN_NAMES.contains(&k.as_str()) {
            return Err(ScenarioError::at(
                path,
                format!(
                    "{k} is a built-in name; set it with model.{}",
                    builtin_field(k)
                ),
            ));
        }
        if [
            "sqrt", "log", "ln", "log2", "exp", "ceil", "floor", "abs", "min", "max",
        ]
        .contains(&k.as_str())
        {
            return Err(ScenarioError::at(path, format!("{k} is a function name")));
        }
        check_number(&path, *v, -1e300, 1e300)?;
    }
    if m.preset != Preset::Custom {
        for (name, f) in TERM_NAMES.iter().zip([&m.ts, &m.tc, &m.tr, &m.to]) {
            if f.is_some() {
                return Err(ScenarioError::at(
                    format!("model.{name}"),
                    format!(
                        "formulas are for the custom preset; the {} preset has its own (set \"preset\": \"custom\")",
                        m.preset.id()
                    ),
                ));
            }
        }
        if let (Some(want), Some(got)) = (m.preset.p_set(), m.p_set) {
            if want != got {
                return Err(ScenarioError::at(
                    "model.pSet",
                    format!("the {} preset allows {} P only", m.preset.id(), want.id()),
                ));
            }
        }
    }
    let c = constants_of(m);
    for (name, text) in TERM_NAMES.iter().zip(formulas_of(m)) {
        expr::compile(&text, &c)
            .map_err(|e| ScenarioError::at(format!("model.{name}"), e.to_string()))?;
    }
    Ok(())
}

fn builtin_field(k: &str) -> &'static str {
    match k {
        "N" => "N",
        "alpha" => "alpha",
        "beta" => "beta",
        "nstep" => "nstep",
        "t_mult" => "tMult",
        "t_add" => "tAdd",
        _ => "P (P is the variable)",
    }
}

/// The number of machines of a subsystem question, or an error at the field that is wrong.
pub fn machines_of(s: &SubsystemSpec) -> Result<usize> {
    match (&s.matrix, &s.hierarchy) {
        (Some(_), Some(_)) => Err(ScenarioError::at(
            "alltoall.subsystem.hierarchy",
            "give matrix or hierarchy, not both",
        )),
        (None, None) => Err(ScenarioError::at(
            "alltoall.subsystem.matrix",
            "missing: give a matrix or a hierarchy",
        )),
        (Some(m), None) => Ok(m.len()),
        (None, Some(h)) => {
            check_range(
                "alltoall.subsystem.hierarchy.arities.length",
                h.arities.len(),
                1,
                8,
            )
            .map_err(|e| ScenarioError::at("alltoall.subsystem.hierarchy.arities", e.message))?;
            let mut n: u64 = 1;
            for &a in &h.arities {
                n = n.saturating_mul(a as u64);
            }
            if n > MAX_MACHINES as u64 {
                return Err(ScenarioError::at(
                    "alltoall.subsystem.hierarchy.arities",
                    format!("the hierarchy has {n} machines; the limit is {MAX_MACHINES}"),
                ));
            }
            Ok(n as usize)
        }
    }
}

#[allow(clippy::needless_range_loop)] // reads or writes both [i][j] and [j][i]
fn validate_subsystem(s: &SubsystemSpec) -> Result<()> {
    let base = "alltoall.subsystem";
    let n = machines_of(s)?;
    check_range(&format!("{base}.machines"), n, 2, MAX_MACHINES).map_err(|e| {
        ScenarioError::at(
            if s.matrix.is_some() {
                format!("{base}.matrix")
            } else {
                format!("{base}.hierarchy")
            },
            format!("the number of machines {}", e.message),
        )
    })?;
    check_range(&format!("{base}.m"), s.m as usize, 2, n)?;
    let (lo, what) = match s.objective {
        Objective::Distance => (1.0, "a distance must be at least 1 (hops)"),
        Objective::Bandwidth => (1e-9, "a bandwidth must be positive"),
    };
    let check = |path: String, v: f64| -> Result<()> {
        if !v.is_finite() || v < lo || v > 1e12 {
            return Err(ScenarioError::at(
                path,
                format!(
                    "{what} and at most 1e12, got {}",
                    crate::error::compact_number(v)
                ),
            ));
        }
        Ok(())
    };
    if let Some(m) = &s.matrix {
        for (i, row) in m.iter().enumerate() {
            if row.len() != n {
                return Err(ScenarioError::at(
                    format!("{base}.matrix[{i}]"),
                    format!("row {i} has {} values; the matrix is {n} x {n}", row.len()),
                ));
            }
        }
        for i in 0..n {
            for j in 0..n {
                if i == j {
                    continue;
                }
                check(format!("{base}.matrix[{i}][{j}]"), m[i][j])?;
                if m[i][j] != m[j][i] {
                    return Err(ScenarioError::at(
                        format!("{base}.matrix[{i}][{j}]"),
                        format!(
                            "the matrix must be symmetric: [{i}][{j}] = {} but [{j}][{i}] = {}",
                            m[i][j], m[j][i]
                        ),
                    ));
                }
            }
        }
    }
    if let Some(h) = &s.hierarchy {
        if let Some(v) = &h.values {
            if v.len() != h.arities.len() {
                return Err(ScenarioError::at(
                    format!("{base}.hierarchy.values"),
                    format!(
                        "one value per level: {} arities but {} values",
                        h.arities.len(),
                        v.len()
                    ),
                ));
            }
            for (i, &x) in v.iter().enumerate() {
                check(format!("{base}.hierarchy.values[{i}]"), x)?;
            }
        }
    }
    Ok(())
}

fn validate_layouts(l: &LayoutsSpec) -> Result<()> {
    let base = "alltoall.layouts";
    check_range(&format!("{base}.ranks.length"), l.ranks.len(), 1, MAX_RANKS)
        .map_err(|e| ScenarioError::at(format!("{base}.ranks"), e.message))?;
    let cores = l.sockets_per_node * l.cores_per_socket;
    if l.busy.len() > l.nodes as usize {
        return Err(ScenarioError::at(
            format!("{base}.busy"),
            format!("{} entries for {} nodes", l.busy.len(), l.nodes),
        ));
    }
    for (i, &b) in l.busy.iter().enumerate() {
        check_range(&format!("{base}.busy[{i}]"), b, 0, cores)?;
    }
    let free: u64 = (0..l.nodes as usize)
        .map(|i| (cores - l.busy.get(i).copied().unwrap_or(0)) as u64)
        .sum();
    let mut work: u64 = 0;
    for (i, &r) in l.ranks.iter().enumerate() {
        if r as u64 > free {
            return Err(ScenarioError::at(
                format!("{base}.ranks[{i}]"),
                format!("{r} processes but only {free} free cores"),
            ));
        }
        let divisors = (1..=r).filter(|d| r % d == 0).count() as u64 + 1;
        work += divisors * (r as u64) * (r as u64);
    }
    if work > MAX_LAYOUT_WORK {
        return Err(ScenarioError::at(
            format!("{base}.ranks"),
            format!("refused before running: estimated {work:.1e} steps (limit {MAX_LAYOUT_WORK:.0e}); ask for fewer or smaller ranks"),
        ));
    }
    if let Some(t) = &l.table {
        super::layouts::CostTable::parse(t).map_err(|(line, msg)| {
            let msg = if line == 0 {
                msg
            } else {
                format!("line {line}: {msg}")
            };
            ScenarioError::at(format!("{base}.table"), msg)
        })?;
    }
    Ok(())
}

/// The selection engine's field table: each field's path, label, kind, default, range and
/// options, stated once (see [`crate::params`]).
pub fn params() -> Vec<Param> {
    table().to_vec()
}

/// The field table, built once.
pub fn table() -> &'static [Param] {
    static_table!(build_table)
}

fn build_table() -> Vec<Param> {
    use super::reservation::limits::MAX_TIME as RES_MAX_TIME;
    vec![
        Param::rule_with_default("stations[].speed", "number", json!(1.0)).range(1e-3, 1e3),
        Param::new("model.preset", "Application model", "enum", json!("wave1d"))
            .options(Preset::options())
            .show_if_present("stations"),
        Param::new("model.N", "Problem size N", "number", json!(null))
            .range(0.0, 1e12)
            .empty("preset default")
            .help("grid points (wave), matrix order (PMR)")
            .show_if_present("stations"),
        Param::new(
            "model.alpha",
            "Message start-up α",
            "number",
            // the source's measured PVM-over-Ethernet constants
            json!(5.380),
        )
        .range(0.0, 1e9)
        .unit("ms")
        .show_if_present("stations"),
        Param::new("model.beta", "Time per byte β", "number", json!(0.00286))
            .range(0.0, 1e9)
            .unit("ms/byte")
            .show_if_present("stations"),
        Param::new("model.nstep", "Steps nstep", "number", json!(1000.0))
            .range(0.0, 1e12)
            .show_if_present("stations"),
        Param::new(
            "model.tMult",
            "Multiply time t_mult",
            "number",
            json!(0.001),
        )
        .range(0.0, 1e9)
        .unit("ms")
        .show_if_present("stations"),
        Param::new("model.tAdd", "Add time t_add", "number", json!(0.001))
            .range(0.0, 1e9)
            .unit("ms")
            .show_if_present("stations"),
        Param::new("model.pSet", "Allowed P", "enum", json!(null))
            .options(PSet::options())
            .empty("any")
            .show_if("model.preset", "custom"),
        Param::new("model.ts", "Ts(P), loading", "string", json!(null))
            .empty("0")
            .show_if("model.preset", "custom"),
        Param::new("model.tc", "Tc(P), communication", "string", json!(null))
            .empty("0")
            .show_if("model.preset", "custom"),
        Param::new("model.tr", "Tr(P), collection", "string", json!(null))
            .empty("0")
            .show_if("model.preset", "custom"),
        Param::new(
            "model.to",
            "To(P), compute on idle stations",
            "string",
            json!(null),
        )
        .empty("0")
        .show_if("model.preset", "custom"),
        Param::new(
            "alltoall.subsystem.objective",
            "Subsystem objective",
            "enum",
            json!("distance"),
        )
        .options(Objective::options())
        .show_if_present("alltoall.subsystem"),
        Param::new(
            "alltoall.subsystem.m",
            "Machines wanted M",
            "int",
            json!(null),
        )
        .range(2.0, MAX_MACHINES as f64)
        .show_if_present("alltoall.subsystem"),
        Param::new(
            "alltoall.subsystem.exactNodes",
            "Exact search budget",
            "int",
            json!(DEFAULT_EXACT_NODES),
        )
        .range(0.0, MAX_EXACT_NODES as f64)
        .unit("nodes")
        .show_if_present("alltoall.subsystem"),
        Param::new("alltoall.layouts.nodes", "Nodes", "int", json!(null))
            .range(1.0, MAX_LAYOUT_NODES as f64)
            .show_if_present("alltoall.layouts"),
        Param::new(
            "alltoall.layouts.socketsPerNode",
            "Sockets per node",
            "int",
            json!(2),
        )
        .range(1.0, 64.0)
        .show_if_present("alltoall.layouts"),
        Param::new(
            "alltoall.layouts.coresPerSocket",
            "Cores per socket",
            "int",
            json!(4),
        )
        .range(1.0, 1024.0)
        .show_if_present("alltoall.layouts"),
        Param::new(
            "alltoall.layouts.messageBytes",
            "Message size m",
            "number",
            json!(16_777_216.0),
        )
        .range(1.0, 1e12)
        .unit("bytes")
        .show_if_present("alltoall.layouts"),
        Param::new(
            "alltoall.layouts.table",
            "Cost table t(layer, m, cf)",
            "string",
            json!(null),
        )
        .empty("source's InfiniBand slowdowns")
        .help("CSV lines layer,bytes,t(cf=1),t(cf=2),... in microseconds")
        .show_if_present("alltoall.layouts"),
        Param::rule("alltoall.layouts.ranks[]", "int").range(2.0, MAX_RANK as f64),
        // at most the node's cores, socketsPerNode x coresPerSocket (checked by `validate`)
        Param::rule("alltoall.layouts.busy[]", "int").range(0.0, 64.0 * 1024.0),
        Param::rule("alltoall.layouts.reference[].simulated", "number").range(0.0, 1e9),
        Param::rule("alltoall.layouts.reference[].measured", "number").range(0.0, 1e9),
        Param::rule("alltoall.subsystem.hierarchy.arities[]", "int")
            .range(1.0, MAX_MACHINES as f64),
        Param::rule("reference.computed", "number").range(0.0, 1e12),
        Param::rule("reference.measured", "number").range(0.0, 1e12),
        Param::rule("reference.measuredAll", "number").range(0.0, 1e12),
        Param::new("reservation.stations", "Stations", "int", json!(null))
            .range(1.0, super::reservation::limits::MAX_STATIONS as f64)
            .show_if_present("reservation"),
        Param::new(
            "reservation.delay.min",
            "Message delay, least",
            "int",
            json!(1),
        )
        .range(0.0, 1e9)
        .unit("ticks")
        .show_if_present("reservation"),
        Param::new(
            "reservation.delay.max",
            "Message delay, most",
            "int",
            json!(5),
        )
        .range(0.0, 1e9)
        .unit("ticks")
        .show_if_present("reservation"),
        Param::new("reservation.loss", "Message loss", "number", json!(0.0))
            .range(0.0, 1.0)
            .help("probability that a message is lost")
            .show_if_present("reservation"),
        Param::new(
            "reservation.lossOfRelease",
            "Release loss",
            "number",
            json!(null),
        )
        .range(0.0, 1.0)
        .empty("as message loss")
        .help("probability that a release is lost: the station stays held")
        .show_if_present("reservation"),
        Param::new(
            "reservation.fixes.orderedClaims",
            "Fix: ordered claims",
            "bool",
            json!(false),
        )
        .help("claim stations one at a time in a global order (no starving partial holds)")
        .show_if_present("reservation"),
        Param::new(
            "reservation.fixes.leaseTimeout",
            "Fix: lease timeout",
            "int",
            json!(null),
        )
        // the least any delay admits (delay.max = 0); `validate_reservation` checks the bound
        // across fields, max(4 (delay.max + 1), 3 delay.max + 5)
        .range(5.0, RES_MAX_TIME as f64)
        .unit("ticks")
        .empty("no leases")
        .help("grants expire unless renewed, so a lost release frees its station")
        .show_if_present("reservation"),
        Param::new("reservation.maxRetries", "Retries", "int", json!(10))
            .range(0.0, super::reservation::limits::MAX_RETRIES as f64)
            .show_if_present("reservation"),
        Param::new("reservation.maxTime", "Stop at time", "int", json!(100_000))
            .range(1.0, super::reservation::limits::MAX_TIME as f64)
            .unit("ticks")
            .show_if_present("reservation"),
        Param::rule("reservation.loads[]", "number").range(0.0, 1.0),
        Param::rule_with_default("reservation.initiators[].start", "int", json!(0))
            .range(0.0, RES_MAX_TIME as f64),
        Param::rule_with_default("reservation.initiators[].threshold", "number", json!(1.0))
            .range(0.0, 1.0),
        Param::rule("reservation.initiators[].holdFor", "int").range(1.0, RES_MAX_TIME as f64),
        // at most the protocol's stations (checked by `validate`)
        Param::rule("reservation.initiators[].wants", "int")
            .range(1.0, super::reservation::limits::MAX_STATIONS as f64),
        Param::rule("reservation.replyWindow", "int").range(1.0, RES_MAX_TIME as f64),
        Param::rule("reservation.claimTimeout", "int").range(1.0, RES_MAX_TIME as f64),
        Param::rule("reservation.retryAfter", "int").range(1.0, RES_MAX_TIME as f64),
        Param::rule_with_default("reservation.maxEvents", "int", json!(5_000))
            .range(0.0, super::reservation::limits::MAX_EVENT_ROWS as f64),
        Param::rule_with_default("reservation.maxSteps", "int", json!(5_000_000))
            .range(1.0, super::reservation::limits::MAX_STEPS as f64),
        Param::new("seed", "Seed", "uint64", json!(1)),
    ]
}

/// Checks the reservation protocol's values and size limits. Errors name the JSON path under `path` (e.g.
/// `reservation.initiators[2].wants` for `path = "reservation"`).
///
/// # Errors
/// A [`ScenarioError`] at the first bad value.
pub fn validate_reservation(spec: &ReservationSpec, path: &str) -> Result<()> {
    use super::reservation::limits::{MAX_CHANNELS, MAX_INITIATORS, MAX_TIME};
    let at = |field: &str| {
        if path.is_empty() {
            field.to_string()
        } else {
            format!("{path}.{field}")
        }
    };
    if let Some(loads) = &spec.loads {
        if loads.len() != spec.stations as usize {
            return Err(ScenarioError::at(
                at("loads"),
                format!(
                    "must list one load per station ({}), got {}",
                    spec.stations,
                    loads.len()
                ),
            ));
        }
    }
    let n = spec.initiators.len();
    if n == 0 || n > MAX_INITIATORS as usize {
        return Err(ScenarioError::at(
            at("initiators"),
            format!("must list from 1 to {MAX_INITIATORS} initiators, got {n}"),
        ));
    }
    if n as u64 * u64::from(spec.stations) > MAX_CHANNELS {
        return Err(ScenarioError::at(
            at("initiators"),
            format!(
                "stations x initiators must be at most {MAX_CHANNELS}, got {} x {n}",
                spec.stations
            ),
        ));
    }
    for (i, s) in spec.initiators.iter().enumerate() {
        let p = at(&format!("initiators[{i}]"));
        check_range(&format!("{p}.wants"), s.wants, 1, spec.stations)?;
    }
    check_range(&at("delay.max"), spec.delay.max, spec.delay.min, MAX_TIME)?;
    if let Some(l) = spec.fixes.lease_timeout {
        let d = spec.delay.max;
        let lo = (4 * (d + 1)).max(3 * d + 5);
        if l < lo || l > MAX_TIME {
            return Err(ScenarioError::at(
                at("fixes.leaseTimeout"),
                format!(
                    "must be a whole number from {lo} (the larger of 4 x (delay.max + 1) and 3 x delay.max + 5, so renewals come back before the lease ends) to {MAX_TIME}, got {l}"
                ),
            ));
        }
    }
    Ok(())
}
