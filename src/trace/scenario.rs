//! The trace engine's scenario fields, their limits and the form (SPEC §4, LSMG).
//!
//! Exactly one trace source: `trace` (text in one of three formats, merged or one text per
//! rank) or `generate` (one of the source's programs). The platform is a list of `nodes` (a
//! compute slowdown ratio each) and `links` (`T = a0 + a1 N` per ordered pair of nodes, given or
//! fitted from samples), with `defaultLink` for the pairs not listed. Times are in seconds,
//! sizes in bytes, compute in seconds (ALOG, text) or flops (time-independent traces,
//! generators; divided by `referenceRate`). Format reference: `docs/format.md`, "Engine
//! `trace`". Validation and admission are in [`super::build`].

use crate::params::Param;
use serde::Deserialize;
use serde_json::json;

/// Most ranks of a trace and most nodes of a platform.
pub const MAX_NODES: u32 = 64;
/// Most events (compute, send and receive records) of a trace after parsing or generation.
pub const MAX_EVENTS: u64 = 2_000_000;
/// Most link samples in all.
pub const MAX_SAMPLES: usize = 100_000;
/// Most assignments in the ranking.
pub const MAX_TOP: u32 = 1000;
/// Largest search budget, in replay steps (one step = one compute or message of one replay).
pub const MAX_BUDGET: f64 = 2e9;
/// Default search budget in replay steps.
pub const DEFAULT_BUDGET: f64 = 3e8;
/// Admission: the estimated work of the whole run (replay steps, see [`super::estimate_work`])
/// must stay under this.
pub const MAX_WORK: f64 = 2e9;
/// Largest time, size, flop count or ratio accepted anywhere.
pub const MAX_VALUE: f64 = 1e15;

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TraceScenario {
    /// A recorded trace as text.
    pub trace: Option<TraceSpec>,
    /// A generated trace of one of the source's programs.
    pub generate: Option<GenerateSpec>,
    /// Flops per second of an unloaded node (ratio 1): turns flop counts into seconds.
    #[serde(default = "default_rate")]
    pub reference_rate: f64,
    /// When a blocking send completes: `rendezvous` (default) or `eager`
    /// ([`super::replay::Protocol`]).
    #[serde(default)]
    pub protocol: super::replay::Protocol,
    /// The nodes, in machinefile order; at least as many as ranks.
    pub nodes: Vec<NodeSpec>,
    /// Links per ordered pair of nodes, given or fitted.
    #[serde(default)]
    pub links: Vec<LinkSpec>,
    /// The link of every ordered pair not listed in `links`; absent: every pair must be listed.
    pub default_link: Option<LinkModel>,
    #[serde(default)]
    pub search: SearchSpec,
    /// Measured run times per assignment, CSV `assignment,time`: the assignment as node names
    /// per rank separated by spaces, the time in seconds.
    pub measured: Option<String>,
}

fn default_rate() -> f64 {
    1e9
}

/// A recorded trace: `text` (merged, every rank in one text) or `files` (one text per rank,
/// for the time-independent format as SMPI writes it).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TraceSpec {
    pub format: TraceFormat,
    pub text: Option<String>,
    pub files: Option<Vec<String>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum TraceFormat {
    /// MPE ALOG text (the source's).
    Alog,
    /// SimGrid's time-independent trace.
    Ti,
    /// Ours (`docs/format.md`).
    Text,
}

impl TraceFormat {
    pub const ALL: [TraceFormat; 3] = [TraceFormat::Alog, TraceFormat::Ti, TraceFormat::Text];
    pub fn id(self) -> &'static str {
        match self {
            TraceFormat::Alog => "alog",
            TraceFormat::Ti => "ti",
            TraceFormat::Text => "text",
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GenerateSpec {
    pub program: Program,
    /// Problem size: matrix order (LU, matmul) or grid points per side (Himeno).
    #[serde(default = "default_size")]
    pub size: u32,
    #[serde(default = "four")]
    pub ranks: u32,
    /// Block width of the block-cyclic LU (the source: 5).
    #[serde(default = "five")]
    pub width: u32,
    /// Data shares per rank of the uneven programs; default 4:2:1:1 repeated.
    pub weights: Option<Vec<u32>>,
    /// Himeno iterations.
    #[serde(default = "ten")]
    pub iterations: u32,
}

fn default_size() -> u32 {
    1000
}
fn four() -> u32 {
    4
}
fn five() -> u32 {
    5
}
fn ten() -> u32 {
    10
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Program {
    /// LU decomposition, rows dealt in blocks of `width` cyclically.
    LuCyclic,
    /// LU decomposition, contiguous equal row blocks.
    LuBlock,
    /// LU decomposition, contiguous row blocks in proportion to `weights`.
    LuUneven,
    /// Matrix multiplication, row blocks in proportion to `weights`.
    Matmul,
    /// A Himeno-like Jacobi stencil, slabs with halo exchange.
    Himeno,
}

impl Program {
    pub const ALL: [Program; 5] = [
        Program::LuCyclic,
        Program::LuBlock,
        Program::LuUneven,
        Program::Matmul,
        Program::Himeno,
    ];
    pub fn id(self) -> &'static str {
        match self {
            Program::LuCyclic => "luCyclic",
            Program::LuBlock => "luBlock",
            Program::LuUneven => "luUneven",
            Program::Matmul => "matmul",
            Program::Himeno => "himeno",
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NodeSpec {
    /// Host name written into the machinefile (no spaces or commas).
    pub name: String,
    /// Compute slowdown ratio: benchmark time loaded / unloaded (at least 1 in the source).
    #[serde(default = "one")]
    pub ratio: f64,
}

fn one() -> f64 {
    1.0
}

/// The link from node `from` to node `to`: `a0` and `a1` given, or `samples` fitted by least
/// squares. `both`: the same link from `to` to `from`.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LinkSpec {
    pub from: String,
    pub to: String,
    pub a0: Option<f64>,
    pub a1: Option<f64>,
    /// Measured `[size in bytes, time in seconds]` pairs.
    pub samples: Option<Vec<[f64; 2]>>,
    #[serde(default)]
    pub both: bool,
}

/// `T = a0 + a1 N` seconds for `N` bytes.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LinkModel {
    pub a0: f64,
    pub a1: f64,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SearchSpec {
    #[serde(default = "auto")]
    pub method: Method,
    /// Assignments listed in the ranking.
    #[serde(default = "top24")]
    pub top: u32,
    /// Work budget in replay steps; the search stops there and reports the gap.
    #[serde(default = "budget")]
    pub budget: f64,
    /// Local search restarts (seeded by `seed`).
    #[serde(default = "eight")]
    pub restarts: u32,
}

fn auto() -> Method {
    Method::Auto
}
fn top24() -> u32 {
    24
}
fn budget() -> f64 {
    DEFAULT_BUDGET
}
fn eight() -> u32 {
    8
}

impl Default for SearchSpec {
    fn default() -> Self {
        SearchSpec {
            method: auto(),
            top: top24(),
            budget: budget(),
            restarts: eight(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Method {
    /// Exhaustive when every assignment fits in a small budget, else branch and bound.
    Auto,
    /// Every assignment replayed (the source's).
    Exhaustive,
    /// Branch and bound with symmetry reduction, local search for the first incumbent.
    BranchAndBound,
    /// Seeded local search only (no proof).
    LocalSearch,
}

impl Method {
    pub const ALL: [Method; 4] = [
        Method::Auto,
        Method::Exhaustive,
        Method::BranchAndBound,
        Method::LocalSearch,
    ];
    pub fn id(self) -> &'static str {
        match self {
            Method::Auto => "auto",
            Method::Exhaustive => "exhaustive",
            Method::BranchAndBound => "branchAndBound",
            Method::LocalSearch => "localSearch",
        }
    }
}

/// Form controls.
pub fn params() -> Vec<Param> {
    vec![
        Param::new("trace.format", "Trace format", "enum", json!("alog"))
            .options(&[
                ("alog", "MPE ALOG text"),
                ("ti", "SimGrid time-independent"),
                ("text", "Plain text (ours)"),
            ])
            .show_if_present("trace"),
        Param::new("generate.program", "Program", "enum", json!("luCyclic"))
            .options(&[
                ("luCyclic", "LU, block-cyclic"),
                ("luBlock", "LU, block"),
                ("luUneven", "LU, uneven block"),
                ("matmul", "Matrix multiply, uneven"),
                ("himeno", "Himeno-like stencil"),
            ])
            .show_if_present("generate"),
        Param::new("generate.size", "Problem size", "int", json!(1000))
            .range(1.0, 100_000.0)
            .show_if_present("generate"),
        Param::new("generate.ranks", "Ranks", "int", json!(4))
            .range(1.0, MAX_NODES as f64)
            .show_if_present("generate"),
        Param::new("generate.width", "Block width", "int", json!(5))
            .range(1.0, 100_000.0)
            .show_if("generate.program", "luCyclic"),
        Param::new("generate.iterations", "Iterations", "int", json!(10))
            .range(1.0, 100_000.0)
            .show_if("generate.program", "himeno"),
        Param::new("referenceRate", "Reference rate", "number", json!(1e9))
            .range(1.0, MAX_VALUE)
            .unit("flops/s")
            .help("speed of an unloaded node (ratio 1): turns flop counts into seconds"),
        Param::new("protocol", "Sends", "enum", json!("rendezvous"))
            .options(&[
                ("rendezvous", "Rendezvous (send waits for the transfer)"),
                ("eager", "Eager (send returns at once)"),
            ])
            .help("both: the transfer starts when send and receive are both posted"),
        Param::new("search.method", "Search", "enum", json!("auto")).options(&[
            ("auto", "Automatic"),
            ("exhaustive", "Exhaustive (all n!)"),
            ("branchAndBound", "Branch and bound"),
            ("localSearch", "Local search"),
        ]),
        Param::new("search.top", "Ranking length", "int", json!(24)).range(1.0, MAX_TOP as f64),
        Param::new(
            "search.budget",
            "Work budget",
            "number",
            json!(DEFAULT_BUDGET),
        )
        .range(1.0, MAX_BUDGET)
        .unit("replay steps"),
        Param::new("search.restarts", "Local search restarts", "int", json!(8)).range(1.0, 1000.0),
        Param::new("nodes", "Nodes", "string", json!([{"name": "node0", "ratio": 1}]))
            .help("[{\"name\", \"ratio\"}, ...]: each node's host name and compute slowdown ratio"),
        Param::new("links", "Links", "string", json!([])).help(
            "[{\"from\", \"to\", \"a0\", \"a1\"} or {\"from\", \"to\", \"samples\": [[N, T], ...]}, ...]; long sample lists are edited in the raw JSON",
        ),
        Param::new("defaultLink", "Default link", "string", json!(null))
            .help("{\"a0\", \"a1\"}: T = a0 + a1 N seconds for N bytes, every pair not in the links"),
        Param::new("seed", "Seed", "uint64", json!(1)).help("local search starts"),
    ]
}
