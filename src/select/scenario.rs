//! The selection engine's scenario fields, their limits and their form controls.
//! Every part is optional: `stations` (with `model`) asks for workstation selection,
//! `alltoall.subsystem` for M-of-N subsystem selection, `alltoall.layouts` for multi-core
//! layouts. Format reference: `docs/format.md`, "Engine `select`".

use super::expr::{self, Constants};
use super::reservation::ReservationSpec;
use crate::error::{check_number, check_range, Result, ScenarioError};
use crate::params::Param;
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
    let want = s.exact_nodes.unwrap_or(DEFAULT_EXACT_NODES);
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
    pub reservation: Option<super::reservation::ReservationSpec>,
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
    #[serde(default = "one")]
    pub speed: f64,
}

fn one() -> f64 {
    1.0
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
    #[serde(default)]
    pub preset: Preset,
    /// Problem size (matrix order, grid points, ...); default per preset.
    #[serde(rename = "N")]
    pub n: Option<f64>,
    /// Start-up time of one message (ms).
    #[serde(default = "default_alpha")]
    pub alpha: f64,
    /// Transfer time per byte (ms/byte).
    #[serde(default = "default_beta")]
    pub beta: f64,
    /// Iterations (time steps).
    #[serde(default = "default_nstep")]
    pub nstep: f64,
    /// Time of one multiplication / addition on an idle station (ms).
    #[serde(default = "default_t_op")]
    pub t_mult: f64,
    #[serde(default = "default_t_op")]
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
            preset: Preset::default(),
            n: None,
            alpha: default_alpha(),
            beta: default_beta(),
            nstep: default_nstep(),
            t_mult: default_t_op(),
            t_add: default_t_op(),
            constants: BTreeMap::new(),
            p_set: None,
            ts: None,
            tc: None,
            tr: None,
            to: None,
        }
    }
}

/// The source's measured PVM-over-Ethernet constants.
pub fn default_alpha() -> f64 {
    5.380
}
pub fn default_beta() -> f64 {
    0.00286
}
fn default_nstep() -> f64 {
    1000.0
}
fn default_t_op() -> f64 {
    0.001
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub enum Preset {
    /// 1D wave equation.
    #[default]
    Wave1d,
    /// Pipe-Multiply-Roll matrix multiply on a sqrt(P) x sqrt(P) grid.
    Pmr,
    Custom,
}

impl Preset {
    pub const ALL: [Preset; 3] = [Preset::Wave1d, Preset::Pmr, Preset::Custom];
    pub fn id(self) -> &'static str {
        match self {
            Preset::Wave1d => "wave1d",
            Preset::Pmr => "pmr",
            Preset::Custom => "custom",
        }
    }
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

/// Which numbers of stations a model allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub enum PSet {
    #[default]
    Any,
    Square,
    PowerOfTwo,
    Even,
}

impl PSet {
    pub const ALL: [PSet; 4] = [PSet::Any, PSet::Square, PSet::PowerOfTwo, PSet::Even];
    pub fn id(self) -> &'static str {
        match self {
            PSet::Any => "any",
            PSet::Square => "square",
            PSet::PowerOfTwo => "powerOfTwo",
            PSet::Even => "even",
        }
    }
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

/// The source's figures for the case, shown beside ours (times in seconds).
#[derive(Debug, Clone, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Reference {
    #[serde(default)]
    pub label: String,
    /// Names of the stations the source selected.
    #[serde(default)]
    pub selected: Vec<String>,
    pub computed: Option<f64>,
    pub measured: Option<f64>,
    /// Measured on every station.
    pub measured_all: Option<f64>,
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
    #[serde(default)]
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

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub enum Objective {
    /// Minimize the product of pairwise distances (homogeneous network).
    #[default]
    Distance,
    /// Maximize the product of pairwise bandwidths (hierarchical network).
    Bandwidth,
}

impl Objective {
    pub const ALL: [Objective; 2] = [Objective::Distance, Objective::Bandwidth];
    pub fn id(self) -> &'static str {
        match self {
            Objective::Distance => "distance",
            Objective::Bandwidth => "bandwidth",
        }
    }
}

/// Multi-core layouts for an all-to-all of `ranks` processes.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LayoutsSpec {
    pub ranks: Vec<u32>,
    pub nodes: u32,
    #[serde(default = "two")]
    pub sockets_per_node: u32,
    #[serde(default = "four")]
    pub cores_per_socket: u32,
    /// Busy cores per node (taken from socket 0 up); missing nodes are idle.
    #[serde(default)]
    pub busy: Vec<u32>,
    /// Bytes each process sends to each other process.
    #[serde(default = "default_message")]
    pub message_bytes: f64,
    /// The cost table as CSV text (`layer,bytes,cf1,cf2,...` in microseconds); default: the
    /// source's InfiniBand slowdowns over the default base times.
    pub table: Option<String>,
    /// The source's layout times per rank, shown beside ours.
    #[serde(default)]
    pub reference: Vec<LayoutReference>,
}

fn two() -> u32 {
    2
}
fn four() -> u32 {
    4
}
fn default_message() -> f64 {
    16_777_216.0
}

/// The source's time for one layout (seconds).
#[derive(Debug, Clone, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LayoutReference {
    pub rank: u32,
    pub nodes: u32,
    pub ppn: u32,
    pub simulated: Option<f64>,
    pub measured: Option<f64>,
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

/// Checks values and limits (see `docs/format.md`, "Limits").
pub fn validate(s: &SelectScenario) -> Result<()> {
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
    if let Some(r) = &s.reference {
        for (k, v) in [
            ("computed", r.computed),
            ("measured", r.measured),
            ("measuredAll", r.measured_all),
        ] {
            if let Some(v) = v {
                check_number(&format!("reference.{k}"), v, 0.0, 1e12)?;
            }
        }
    }
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
    let ranged = s
        .stations
        .iter()
        .any(|st| matches!(st.load, Load::Range(..)));
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
        check_number(&format!("{p}.speed"), st.speed, 1e-3, 1e3)?;
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
    if let Some(n) = m.n {
        check_number("model.N", n, 0.0, 1e12)?;
    }
    check_number("model.alpha", m.alpha, 0.0, 1e9)?;
    check_number("model.beta", m.beta, 0.0, 1e9)?;
    check_number("model.nstep", m.nstep, 0.0, 1e12)?;
    check_number("model.tMult", m.t_mult, 0.0, 1e9)?;
    check_number("model.tAdd", m.t_add, 0.0, 1e9)?;
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
            for (i, &a) in h.arities.iter().enumerate() {
                check_range(
                    &format!("alltoall.subsystem.hierarchy.arities[{i}]"),
                    a,
                    1,
                    MAX_MACHINES as u32,
                )?;
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
    if let Some(b) = s.exact_nodes {
        check_range(&format!("{base}.exactNodes"), b, 0, MAX_EXACT_NODES)?;
    }
    Ok(())
}

fn validate_layouts(l: &LayoutsSpec) -> Result<()> {
    let base = "alltoall.layouts";
    check_range(&format!("{base}.nodes"), l.nodes, 1, MAX_LAYOUT_NODES)?;
    check_range(&format!("{base}.socketsPerNode"), l.sockets_per_node, 1, 64)?;
    check_range(
        &format!("{base}.coresPerSocket"),
        l.cores_per_socket,
        1,
        1024,
    )?;
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
        check_range(&format!("{base}.ranks[{i}]"), r, 2, MAX_RANK)?;
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
    check_number(&format!("{base}.messageBytes"), l.message_bytes, 1.0, 1e12)?;
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
    for (i, r) in l.reference.iter().enumerate() {
        for (k, v) in [("simulated", r.simulated), ("measured", r.measured)] {
            if let Some(v) = v {
                check_number(&format!("{base}.reference[{i}].{k}"), v, 0.0, 1e9)?;
            }
        }
    }
    Ok(())
}

/// The form controls.
pub fn params() -> Vec<Param> {
    vec![
        Param::new("model.preset", "Application model", "enum", json!("wave1d"))
            .options(&[
                ("wave1d", "1D wave equation"),
                ("pmr", "Matrix multiply, Pipe-Multiply-Roll (square P)"),
                ("custom", "My own formulas"),
            ])
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
            json!(default_alpha()),
        )
        .range(0.0, 1e9)
        .unit("ms")
        .show_if_present("stations"),
        Param::new(
            "model.beta",
            "Time per byte β",
            "number",
            json!(default_beta()),
        )
        .range(0.0, 1e9)
        .unit("ms/byte")
        .show_if_present("stations"),
        Param::new(
            "model.nstep",
            "Steps nstep",
            "number",
            json!(default_nstep()),
        )
        .range(0.0, 1e12)
        .show_if_present("stations"),
        Param::new(
            "model.tMult",
            "Multiply time t_mult",
            "number",
            json!(default_t_op()),
        )
        .range(0.0, 1e9)
        .unit("ms")
        .show_if_present("stations"),
        Param::new(
            "model.tAdd",
            "Add time t_add",
            "number",
            json!(default_t_op()),
        )
        .range(0.0, 1e9)
        .unit("ms")
        .show_if_present("stations"),
        Param::new("model.pSet", "Allowed P", "enum", json!(null))
            .options(&[
                ("any", "Any"),
                ("square", "Perfect squares"),
                ("powerOfTwo", "Powers of two"),
                ("even", "Even"),
            ])
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
        .options(&[
            ("distance", "Min product of distances (homogeneous)"),
            ("bandwidth", "Max product of bandwidths (hierarchical)"),
        ])
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
            json!(default_message()),
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
        Param::new("reservation.stations", "Stations", "int", json!(null))
            .range(1.0, super::reservation::MAX_STATIONS as f64)
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
        .range(1.0, 1e9)
        .unit("ticks")
        .empty("no leases")
        .help("grants expire unless renewed, so a lost release frees its station")
        .show_if_present("reservation"),
        Param::new("reservation.maxRetries", "Retries", "int", json!(10))
            .range(0.0, super::reservation::MAX_RETRIES as f64)
            .show_if_present("reservation"),
        Param::new("reservation.maxTime", "Stop at time", "int", json!(100_000))
            .range(1.0, super::reservation::MAX_TIME as f64)
            .unit("ticks")
            .show_if_present("reservation"),
        Param::new("seed", "Seed", "uint64", json!(1)),
    ]
}

/// Checks the reservation protocol's values and size limits. Errors name the JSON path under `path` (e.g.
/// `reservation.initiators[2].wants` for `path = "reservation"`).
///
/// # Errors
/// A [`ScenarioError`] at the first bad value.
pub fn validate_reservation(spec: &ReservationSpec, path: &str) -> Result<()> {
    use super::reservation::{
        MAX_CHANNELS, MAX_EVENT_ROWS, MAX_INITIATORS, MAX_RETRIES, MAX_STATIONS, MAX_STEPS,
        MAX_TIME,
    };
    let at = |field: &str| {
        if path.is_empty() {
            field.to_string()
        } else {
            format!("{path}.{field}")
        }
    };
    check_range(&at("stations"), spec.stations, 1, MAX_STATIONS)?;
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
        for (i, &l) in loads.iter().enumerate() {
            check_number(&at(&format!("loads[{i}]")), l, 0.0, 1.0)?;
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
        check_range(&format!("{p}.start"), s.start, 0, MAX_TIME)?;
        check_range(&format!("{p}.wants"), s.wants, 1, spec.stations)?;
        check_number(&format!("{p}.threshold"), s.threshold, 0.0, 1.0)?;
        check_range(&format!("{p}.holdFor"), s.hold_for, 1, MAX_TIME)?;
    }
    check_range(&at("delay.min"), spec.delay.min, 0, MAX_TIME)?;
    check_range(&at("delay.max"), spec.delay.max, spec.delay.min, MAX_TIME)?;
    check_number(&at("loss"), spec.loss, 0.0, 1.0)?;
    if let Some(l) = spec.loss_of_release {
        check_number(&at("lossOfRelease"), l, 0.0, 1.0)?;
    }
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
    if let Some(w) = spec.reply_window {
        check_range(&at("replyWindow"), w, 1, MAX_TIME)?;
    }
    if let Some(w) = spec.claim_timeout {
        check_range(&at("claimTimeout"), w, 1, MAX_TIME)?;
    }
    if let Some(w) = spec.retry_after {
        check_range(&at("retryAfter"), w, 1, MAX_TIME)?;
    }
    check_range(&at("maxRetries"), spec.max_retries, 0, MAX_RETRIES)?;
    check_range(&at("maxTime"), spec.max_time, 1, MAX_TIME)?;
    check_range(&at("maxEvents"), spec.max_events, 0, MAX_EVENT_ROWS)?;
    check_range(&at("maxSteps"), spec.max_steps, 1, MAX_STEPS)?;
    Ok(())
}
