//! The trace engine's scenario fields, their limits and the form (SPEC §4, LSMG).
//!
//! Exactly one trace source: `trace` (text in one of three formats, merged or one text per
//! rank) or `generate` (one of the source's programs). The platform is a list of `nodes` (a
//! compute slowdown ratio each) and `links` (`T = a0 + a1 N` per ordered pair of nodes, given or
//! fitted from samples), with `defaultLink` for the pairs not listed. Times are in seconds,
//! sizes in bytes, compute in seconds (ALOG, text) or flops (time-independent traces,
//! generators; divided by `referenceRate`). Format reference: `docs/format.md`, "Engine
//! `trace`". The field table ([`params`]) states each field's default and range once; the rules
//! across fields, validation and admission are in [`super::build`].

use crate::params::{choices, static_table, table_defaults, Param};
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
/// Largest problem size, block width and iteration count of a generated trace.
pub const MAX_GENERATE: u32 = 100_000;
/// Largest data share of one rank of a generated trace.
pub const MAX_SHARE: u32 = 1_000_000;
/// Most local search restarts.
pub const MAX_RESTARTS: u32 = 1000;

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TraceScenario {
    /// A recorded trace as text.
    pub trace: Option<TraceSpec>,
    /// A generated trace of one of the source's programs.
    pub generate: Option<GenerateSpec>,
    /// Flops per second of an unloaded node (ratio 1): turns flop counts into seconds.
    #[serde(default = "d::reference_rate")]
    pub reference_rate: f64,
    /// When a blocking send completes: `rendezvous` or `eager` ([`super::replay::Protocol`]).
    #[serde(default = "d::protocol")]
    pub protocol: super::replay::Protocol,
    /// The nodes, in machinefile order; at least as many as ranks.
    pub nodes: Vec<NodeSpec>,
    /// Links per ordered pair of nodes, given or fitted.
    #[serde(default = "d::links")]
    pub links: Vec<LinkSpec>,
    /// The link of every ordered pair not listed in `links`; absent: every pair must be listed.
    pub default_link: Option<LinkModel>,
    #[serde(default)]
    pub search: SearchSpec,
    /// Measured run times per assignment, CSV `assignment,time`: the assignment as node names
    /// per rank separated by spaces, the time in seconds.
    pub measured: Option<String>,
}

/// Serde's defaults, read from the field table ([`params`]).
pub mod d {
    use super::*;
    table_defaults!(super::table;
        reference_rate: f64 = "referenceRate",
        protocol: crate::trace::replay::Protocol = "protocol",
        links: Vec<LinkSpec> = "links",
        size: u32 = "generate.size",
        ranks: u32 = "generate.ranks",
        width: u32 = "generate.width",
        iterations: u32 = "generate.iterations",
        ratio: f64 = "nodes[].ratio",
        both: bool = "links[].both",
        method: Method = "search.method",
        top: u32 = "search.top",
        budget: f64 = "search.budget",
        restarts: u32 = "search.restarts",
    );
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

choices! {
    pub enum TraceFormat {
        /// MPE ALOG text (the source's).
        Alog = ("alog", "MPE ALOG text"),
        /// SimGrid's time-independent trace.
        Ti = ("ti", "SimGrid time-independent"),
        /// Ours (`docs/format.md`).
        Text = ("text", "Plain text (ours)"),
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GenerateSpec {
    pub program: Program,
    /// Problem size: matrix order (LU, matmul) or grid points per side (Himeno).
    #[serde(default = "d::size")]
    pub size: u32,
    #[serde(default = "d::ranks")]
    pub ranks: u32,
    /// Block width of the block-cyclic LU (the source: 5).
    #[serde(default = "d::width")]
    pub width: u32,
    /// Data shares per rank of the uneven programs; default 4:2:1:1 repeated.
    pub weights: Option<Vec<u32>>,
    /// Himeno iterations.
    #[serde(default = "d::iterations")]
    pub iterations: u32,
}

choices! {
    pub enum Program {
        /// LU decomposition, rows dealt in blocks of `width` cyclically.
        LuCyclic = ("luCyclic", "LU, block-cyclic"),
        /// LU decomposition, contiguous equal row blocks.
        LuBlock = ("luBlock", "LU, block"),
        /// LU decomposition, contiguous row blocks in proportion to `weights`.
        LuUneven = ("luUneven", "LU, uneven block"),
        /// Matrix multiplication, row blocks in proportion to `weights`.
        Matmul = ("matmul", "Matrix multiply, uneven"),
        /// A Himeno-like Jacobi stencil, slabs with halo exchange.
        Himeno = ("himeno", "Himeno-like stencil"),
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NodeSpec {
    /// Host name written into the machinefile (no spaces or commas).
    pub name: String,
    /// Compute slowdown ratio: benchmark time loaded / unloaded (at least 1 in the source).
    #[serde(default = "d::ratio")]
    pub ratio: f64,
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
    #[serde(default = "d::both")]
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
    #[serde(default = "d::method")]
    pub method: Method,
    /// Assignments listed in the ranking.
    #[serde(default = "d::top")]
    pub top: u32,
    /// Work budget in replay steps; the search stops there and reports the gap.
    #[serde(default = "d::budget")]
    pub budget: f64,
    /// Local search restarts (seeded by `seed`).
    #[serde(default = "d::restarts")]
    pub restarts: u32,
}

impl Default for SearchSpec {
    /// Every field at its table default.
    fn default() -> Self {
        SearchSpec {
            method: d::method(),
            top: d::top(),
            budget: d::budget(),
            restarts: d::restarts(),
        }
    }
}

choices! {
    pub enum Method {
        /// Exhaustive when every assignment fits in a small budget, else branch and bound.
        Auto = ("auto", "Automatic"),
        /// Every assignment replayed (the source's).
        Exhaustive = ("exhaustive", "Exhaustive (all n!)"),
        /// Branch and bound with symmetry reduction, local search for the first incumbent.
        BranchAndBound = ("branchAndBound", "Branch and bound"),
        /// Seeded local search only (no proof).
        LocalSearch = ("localSearch", "Local search"),
    }
}

/// The trace engine's field table: each field's path, label, kind, default, range and
/// options, stated once (see [`crate::params`]).
pub fn params() -> Vec<Param> {
    table().to_vec()
}

/// The field table, built once.
pub fn table() -> &'static [Param] {
    static_table!(build_table)
}

fn build_table() -> Vec<Param> {
    use super::replay::Protocol;
    vec![
        Param::new("trace.format", "Trace format", "enum", json!(null))
            .options(TraceFormat::options())
            .show_if_present("trace"),
        Param::new("generate.program", "Program", "enum", json!(null))
            .options(Program::options())
            .show_if_present("generate"),
        Param::new("generate.size", "Problem size", "int", json!(1000))
            .range(1.0, MAX_GENERATE as f64)
            .show_if_present("generate"),
        Param::new("generate.ranks", "Ranks", "int", json!(4))
            .range(1.0, MAX_NODES as f64)
            .show_if_present("generate"),
        Param::new("generate.width", "Block width", "int", json!(5))
            .range(1.0, MAX_GENERATE as f64)
            .show_if("generate.program", "luCyclic"),
        Param::new("generate.iterations", "Iterations", "int", json!(10))
            .range(1.0, MAX_GENERATE as f64)
            .show_if("generate.program", "himeno"),
        Param::rule("generate.weights[]", "int").range(1.0, MAX_SHARE as f64),
        Param::new("referenceRate", "Reference rate", "number", json!(1e9))
            .range(1.0, MAX_VALUE)
            .unit("flops/s")
            .help("speed of an unloaded node (ratio 1): turns flop counts into seconds"),
        Param::new("protocol", "Sends", "enum", json!("rendezvous"))
            .options(Protocol::options())
            .help("both: the transfer starts when send and receive are both posted"),
        Param::new("search.method", "Search", "enum", json!("auto")).options(Method::options()),
        Param::new("search.top", "Ranking length", "int", json!(24)).range(1.0, MAX_TOP as f64),
        Param::new(
            "search.budget",
            "Work budget",
            "number",
            json!(DEFAULT_BUDGET),
        )
        .range(1.0, MAX_BUDGET)
        .unit("replay steps"),
        Param::new("search.restarts", "Local search restarts", "int", json!(8))
            .range(1.0, MAX_RESTARTS as f64),
        Param::new("nodes", "Nodes", "string", json!(null))
            .help("[{\"name\", \"ratio\"}, ...]: each node's host name and compute slowdown ratio"),
        // a ratio is more than 0, which a closed range cannot say: `super::build` checks it
        Param::rule_with_default("nodes[].ratio", "number", json!(1.0)),
        Param::new("links", "Links", "string", json!([])).help(
            "[{\"from\", \"to\", \"a0\", \"a1\"} or {\"from\", \"to\", \"samples\": [[N, T], ...]}, ...]; long sample lists are edited in the raw JSON",
        ),
        Param::rule("links[].a0", "number").range(0.0, MAX_VALUE),
        Param::rule("links[].a1", "number").range(0.0, MAX_VALUE),
        Param::rule("links[].samples[][]", "number").range(0.0, MAX_VALUE),
        Param::rule_with_default("links[].both", "bool", json!(false)),
        Param::new("defaultLink", "Default link", "string", json!(null))
            .help("{\"a0\", \"a1\"}: T = a0 + a1 N seconds for N bytes, every pair not in the links"),
        Param::rule("defaultLink.a0", "number").range(0.0, MAX_VALUE),
        Param::rule("defaultLink.a1", "number").range(0.0, MAX_VALUE),
        Param::new("seed", "Seed", "uint64", json!(1)).help("local search starts"),
    ]
}
