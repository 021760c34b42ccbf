//! The trace engine's scenario fields, their limits and the form (LSMG).
//!
//! Exactly one trace source: `trace` (text in one of three formats, merged or one text per
//! rank) or `generate` (one of the source's programs). The platform is a list of `nodes` (a
//! compute slowdown ratio each) and `links` (`T = a0 + a1 N` per ordered pair of nodes, given or
//! fitted from samples), with `defaultLink` for the pairs not listed. Times are in seconds,
//! sizes in bytes, compute in seconds (ALOG, text) or flops (time-independent traces,
//! generators; divided by `referenceRate`). Format reference: `docs/format.md`, "Engine
//! `trace`". The field table ([`params`]) states each field's default and range once; the rules
//! across fields, validation and admission are in [`build`], which parses or generates the
//! trace, compiles it and builds the platform ([`Built`]).

use super::factors::Factors;
use super::generate::{GenerateSpec, Program};
use super::model::{self, Origin, Trace};
use super::replay::{self, Compiled, Platform};
use super::{alog, fit, generate, search, text, ti};
use crate::error::{compact_number, Result, ScenarioError};
use crate::params::{choices, static_table, table_defaults, Param};
use serde::Deserialize;
use serde_json::json;
use std::borrow::Cow;
use std::collections::BTreeMap;

pub use super::limits::{BYTES_PER_EVENT, MAX_CORES, MAX_EVENTS, MAX_NODES, MAX_RANKS, MAX_VALUE};

/// Most link samples in all.
pub const MAX_SAMPLES: usize = 100_000;
/// Most assignments in the ranking.
pub const MAX_TOP: u32 = 1000;
/// Largest search budget, in replay steps (one step = one compute or message of one replay).
pub const MAX_BUDGET: f64 = 2e9;
/// Default search budget in replay steps.
pub const DEFAULT_BUDGET: f64 = 3e8;
/// Admission: the estimated work of the whole run (replay steps, see [`build`])
/// must stay under this.
pub const MAX_WORK: f64 = 2e9;
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
    /// With `protocol: "size"`, messages below this many bytes are eager.
    #[serde(default = "d::eager_threshold")]
    pub eager_threshold: f64,
    /// The nodes, in machinefile order; at least as many cores in all as ranks. With `simgrid`:
    /// hosts of the file chosen by name (absent or empty: every host, in file order).
    #[serde(default)]
    pub nodes: Vec<NodeSpec>,
    /// A SimGrid platform file's text (version 4.1): the nodes' speeds and cores are its hosts',
    /// every pair's link its route's ([`super::simgrid`]); `links`, `defaultLink`, `intraLink`
    /// and the nodes' `ratio` and `intra` are then not given ([`build`]).
    pub simgrid: Option<String>,
    /// Links per ordered pair of nodes, given or fitted.
    #[serde(default = "d::links")]
    pub links: Vec<LinkSpec>,
    /// The link of every ordered pair not listed in `links`; absent: every pair must be listed.
    pub default_link: Option<LinkModel>,
    /// The link between two ranks on the same node, for every node without its own `intra`
    /// (absent: the table's default).
    pub intra_link: Option<LinkModel>,
    /// SMPI's `smpi/lat-factor`, `S0:F0;S1:F1;...`: every message's latency multiplied by the
    /// factor of its size ([`super::factors`]). Absent with `simgrid`: SMPI's default
    /// ([`super::simgrid::SMPI_LAT_FACTOR`]); an empty string: none.
    pub lat_factor: Option<String>,
    /// SMPI's `smpi/bw-factor`, same form: every message's bandwidth multiplied by the factor
    /// of its size. Absent with `simgrid`: SMPI's default ([`super::simgrid::SMPI_BW_FACTOR`]).
    pub bw_factor: Option<String>,
    #[serde(default)]
    pub search: SearchSpec,
    /// Measured run times per assignment, CSV `assignment,time`: the assignment as node names
    /// per rank separated by spaces, the time in seconds.
    pub measured: Option<String>,
    /// The scenario as [`build`] made it when it was admitted, kept for the run (and a study's
    /// every replicate): a trace is parsed, compiled and its platform built once, not once for
    /// admission and again for the run. Nothing the build reads depends on the seed, which is
    /// the run's ([`crate::scenario::Meta`]).
    #[serde(skip)]
    pub built: BuiltCache,
}

/// [`TraceScenario::built`]: empty until [`build`] admits the scenario. A clone starts empty, so
/// a copy whose fields are then changed is built anew; change a scenario's fields only on such
/// a copy.
#[derive(Default)]
pub struct BuiltCache(std::cell::OnceCell<std::rc::Rc<Built>>);

impl BuiltCache {
    /// The admitted build, if [`build`] made one.
    pub fn get(&self) -> Option<&std::rc::Rc<Built>> {
        self.0.get()
    }
}

impl Clone for BuiltCache {
    fn clone(&self) -> Self {
        BuiltCache::default()
    }
}

impl std::fmt::Debug for BuiltCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.get().is_some() {
            "built"
        } else {
            "not built"
        })
    }
}

/// Serde's defaults, read from the field table ([`params`]).
pub mod d {
    use super::*;
    table_defaults!(super::table;
        reference_rate: f64 = "referenceRate",
        protocol: crate::trace::replay::Protocol = "protocol",
        eager_threshold: f64 = "eagerThreshold",
        links: Vec<LinkSpec> = "links",
        ratio: f64 = "nodes[].ratio",
        cores: u32 = "nodes[].cores",
        intra_link: LinkModel = "intraLink",
        both: bool = "links[].both",
        method: Method = "search.method",
        top: u32 = "search.top",
        budget: f64 = "search.budget",
        restarts: u32 = "search.restarts",
        rank_symmetry: bool = "search.rankSymmetry",
        workers: u32 = "search.workers",
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
    /// Or the name of a trace attached beside the scenario ([`crate::attach`]): an SMPI index
    /// and its rank files, read as streams (time-independent format).
    pub attached: Option<String>,
    /// The attached trace's fingerprint (over its rank files, in the index's order).
    pub digest: Option<String>,
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
pub struct NodeSpec {
    /// Host name written into the machinefile (no spaces or commas).
    pub name: String,
    /// Compute slowdown ratio: benchmark time loaded / unloaded (at least 1 in the source);
    /// absent: the table's default, or with `simgrid` `referenceRate / host speed`.
    pub ratio: Option<f64>,
    /// Ranks the node may hold (its cores, the slots of its machinefile line); absent: the
    /// table's default, or with `simgrid` the host's cores (given: at most those).
    pub cores: Option<u32>,
    /// The link between two ranks on this node; absent: `intraLink`.
    pub intra: Option<LinkModel>,
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
    /// Sizes (bytes, increasing) that cut the samples into ranges fitted one by one, reported
    /// in SMPI's factor form ([`fit::piecewise`]).
    pub breakpoints: Option<Vec<f64>>,
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
    /// Reduce the search by the identical ranks found ([`super::search::symmetry`]).
    #[serde(default = "d::rank_symmetry")]
    pub rank_symmetry: bool,
    /// Web Workers the page runs an exhaustive search in ([`super::split`]).
    #[serde(default = "d::workers")]
    pub workers: u32,
}

impl Default for SearchSpec {
    /// Every field at its table default.
    fn default() -> Self {
        SearchSpec {
            method: d::method(),
            top: d::top(),
            budget: d::budget(),
            restarts: d::restarts(),
            rank_symmetry: d::rank_symmetry(),
            workers: d::workers(),
        }
    }
}

choices! {
    pub enum Method {
        /// Exhaustive when it costs no more than branch and bound at the budget ([`auto_method`]),
        /// else branch and bound.
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
        Param::new("generate.size", "Problem size", "int", json!(generate::DEFAULT_SIZE))
            .range(1.0, MAX_GENERATE as f64)
            .show_if_present("generate"),
        Param::new("generate.ranks", "Ranks", "int", json!(generate::DEFAULT_RANKS))
            .range(1.0, MAX_RANKS as f64)
            .show_if_present("generate"),
        Param::new("generate.width", "Block width", "int", json!(generate::DEFAULT_WIDTH))
            .range(1.0, MAX_GENERATE as f64)
            .show_if("generate.program", "luCyclic"),
        Param::new("generate.iterations", "Iterations", "int", json!(generate::DEFAULT_ITERATIONS))
            .range(1.0, MAX_GENERATE as f64)
            .show_if_any("generate.program", &["himeno", "ring"]),
        Param::rule("generate.weights[]", "int").range(1.0, MAX_SHARE as f64),
        Param::new("referenceRate", "Reference rate", "number", json!(1e9))
            .range(1.0, MAX_VALUE)
            .unit("flops/s")
            .help("speed of an unloaded node (ratio 1): turns flop counts into seconds"),
        Param::new("protocol", "Sends", "enum", json!("rendezvous"))
            .options(Protocol::options())
            .help("both: the transfer starts when send and receive are both posted"),
        Param::new("eagerThreshold", "Eager below", "number", json!(65536))
            .range(0.0, MAX_VALUE)
            .unit("bytes")
            .help("SMPI's smpi/send-is-detached-thresh: smaller messages are sent eagerly")
            .show_if("protocol", "size"),
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
        Param::new("search.rankSymmetry", "Identical ranks", "bool", json!(true)).help(
            "skip assignments that only permute identical ranks (shifts, reflections or xors of the ranks that leave the trace unchanged, found by checking it); off: every assignment is searched",
        ),
        Param::new("search.workers", "Web Workers", "int", json!(1))
            .range(1.0, crate::split::MAX_WORKERS as f64)
            .help("the page runs an exhaustive search in this many workers at once (capped by the machine's threads); natively it uses every thread; same report"),
        Param::new("simgrid", "SimGrid platform (XML)", "text", json!(null))
            .help("a SimGrid platform file (version 4.1): the nodes are its hosts (every one in file order, or those named in nodes), a node's ratio referenceRate / the host's speed, its cores the host's; each pair's link is their route's (a0 its latency, a1 1 / its bottleneck bandwidth), and SMPI's default factors apply; then no links, defaultLink or intraLink"),
        Param::new("nodes", "Nodes", "string", json!(null))
            .help("[{\"name\", \"ratio\", \"cores\"}, ...]: each node's host name, compute slowdown ratio and cores (ranks it may hold; default 1); \"intra\": {\"a0\", \"a1\"} its own link between two of its ranks; with a SimGrid platform: the hosts to use, [{\"name\"}, ...] (absent: every host)"),
        Param::rule_with_default("nodes[].ratio", "number", json!(1.0)).range_above(0.0, MAX_RATIO),
        Param::rule_with_default("nodes[].cores", "int", json!(1))
            .range(1.0, MAX_CORES as f64)
            .label("Cores")
            .unit("ranks"),
        Param::rule("nodes[].intra.a0", "number").range(0.0, MAX_VALUE),
        Param::rule("nodes[].intra.a1", "number").range(0.0, MAX_VALUE),
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
        Param::new(
            "intraLink",
            "Intra-node link",
            "string",
            json!({"a0": INTRA_A0, "a1": INTRA_A1}),
        )
        .help("{\"a0\", \"a1\"}: T = a0 + a1 N seconds for N bytes between two ranks on one node (default: shared memory, 1 µs + N / 10 GB/s); a node's \"intra\" replaces it"),
        Param::rule("intraLink.a0", "number").range(0.0, MAX_VALUE),
        Param::rule("intraLink.a1", "number").range(0.0, MAX_VALUE),
        Param::new("latFactor", "Latency factors", "string", json!(null))
            .help("SMPI's smpi/lat-factor, SIZE:FACTOR;...: a message of N bytes takes the factor of the last SIZE below N (1 up to the first) times a link's a0; every link"),
        Param::new("bwFactor", "Bandwidth factors", "string", json!(null))
            .help("SMPI's smpi/bw-factor, SIZE:FACTOR;...: a message of N bytes takes N a1 divided by the factor of the last SIZE below N (1 up to the first); every link"),
        Param::rule("links[].breakpoints[]", "number").range(0.0, MAX_VALUE),
        Param::new("seed", "Seed", "uint64", json!(1)).help("local search starts"),
    ]
}

/// The default intra-node link's latency (`intraLink.a0`, seconds): shared memory, 1 µs.
pub const INTRA_A0: f64 = 1e-6;
/// The default intra-node link's seconds per byte (`intraLink.a1`): shared memory at 10 GB/s.
pub const INTRA_A1: f64 = 1e-10;

/// `auto` runs exhaustive search when it costs at most this many replay steps, whatever the
/// budget ([`auto_method`]).
pub const AUTO_EXHAUSTIVE_STEPS: f64 = 1e7;
/// Most rows of measured times.
pub const MAX_MEASURED: usize = 100_000;

/// Where a link's numbers came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkOrigin {
    Given,
    Fit,
    Default,
    /// The route between two hosts of a platform file ([`super::simgrid`]).
    Platform,
}

/// A validated scenario, ready to search.
#[derive(Debug, Clone)]
pub struct Built {
    pub source: &'static str,
    pub program: Option<&'static str>,
    pub compiled: Compiled,
    pub platform: Platform,
    pub names: Vec<String>,
    pub origin: Vec<LinkOrigin>,
    /// Fits per ordered pair `u * n + v`, with their samples.
    pub fits: BTreeMap<usize, (fit::Fit, Vec<[f64; 2]>)>,
    /// Fits per size range of the links given `breakpoints`, per ordered pair.
    pub ranges: BTreeMap<usize, fit::Piecewise>,
    /// SMPI's latency and bandwidth factors by size (`latFactor`, `bwFactor`).
    pub factors: (Option<Factors>, Option<Factors>),
    pub method: Method,
    /// The search budget in replay steps (0 for exhaustive search, which has none).
    pub budget: f64,
    pub measured: Vec<(Vec<u8>, f64)>,
    /// [`partials`], computed once (admission bisects the budget over it).
    pub partials: std::cell::OnceCell<f64>,
}

fn parse_error(path: &str, e: model::ParseError) -> ScenarioError {
    ScenarioError::at(path, Trace::at_line(e.line, e.message))
}

/// Checks every value and limit, parses or generates the trace, compiles it, builds the
/// platform and checks the admission estimate ([`estimate`] within the budget). A refused
/// budgeted search names the largest admitted budget ([`largest_budget`]).
///
/// # Errors
/// The first problem at its JSON path; trace problems name their line.
pub fn build(s: &TraceScenario) -> Result<std::rc::Rc<Built>> {
    if let Some(b) = s.built.get() {
        return Ok(b.clone());
    }
    let b = build_unadmitted(s)?;
    let est = estimate(s, &b);
    let (what, hint) = if b.method == Method::Exhaustive {
        let all = search::assignments_on(&b.platform, b.compiled.ranks);
        (
            format!(
                "exhaustive search replays {} assignments of {} steps each",
                compact_number(all),
                compact_number(b.compiled.steps() as f64)
            ),
            "use branch and bound (\"search.method\"), fewer nodes or a shorter trace".to_string(),
        )
    } else {
        let hint = match largest_budget(&b) {
            Some(x) => format!(
                "lower \"search.budget\" to at most {}, or use fewer nodes or a shorter trace",
                compact_number(x)
            ),
            None => {
                "use fewer nodes or a shorter trace (even a budget of 1 step is over the limit)"
                    .to_string()
            }
        };
        (
            format!(
                "a budget of {} steps, {} search nodes",
                compact_number(s.search.budget),
                compact_number(libm::round(search_nodes(s, &b)))
            ),
            hint,
        )
    };
    est.admit("search", "replay steps", &what, &hint)?;
    let b = std::rc::Rc::new(b);
    // kept for the run; a scenario admitted twice keeps its first build
    let _ = s.built.0.set(b.clone());
    Ok(b)
}

/// The largest whole search budget (at least 1, at most [`MAX_BUDGET`]) whose estimate is
/// admitted, for a budgeted search (branch and bound or local search); `None` when even a
/// budget of 1 is refused. The estimate is non-decreasing in the budget, so this bisects.
pub fn largest_budget(b: &Built) -> Option<f64> {
    let admitted = |budget: f64| {
        estimate_for(b, b.method, budget)
            .admit("", "", "", "")
            .is_ok()
    };
    if !admitted(1.0) {
        return None;
    }
    let (mut lo, mut hi) = (1.0f64, MAX_BUDGET);
    if admitted(hi) {
        return Some(hi);
    }
    while hi - lo > 1.0 {
        let mid = libm::floor((lo + hi) / 2.0);
        if admitted(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    // three significant digits, rounded down, so the number printed is admitted too
    let scale = libm::pow(10.0, libm::floor(libm::log10(lo)) - 2.0).max(1.0);
    Some(libm::floor(lo / scale) * scale)
}

/// Native nanoseconds per replay step, the trace engine's work unit: at 2 ns, `cargo bench
/// --bench bounds -- trace` measured 0.68 to 1.12 times the estimated time on the admitted
/// worst cases (short traces over 64 unequal nodes by branch and bound, a long LU trace at the
/// largest budget, exhaustive search on 8 nodes) on our shared 2-core machine.
pub const NS_PER_STEP: f64 = 2.0;

/// What one event of the trace costs besides its replays, in replay steps: compiling it twice
/// (validation, then the run) and the report's passes. `scripts/bench-trace-files.py` measured
/// 1.57 s for these on ten million events (157 ns an event, 79 steps) and 1.82 s without
/// computes (91 steps); rounded up. Reading an attached trace comes before admission and is not
/// counted.
pub const EVENT_STEPS: f64 = 96.0;

/// What one child of branch and bound costs besides the replay steps it counts, per pair of
/// nodes `(u, v)` of the platform: its relaxed tables (`Bounds::partial`: the least link from
/// each node to the free nodes and back, 4 minima per pair), in replay steps. Set by `cargo
/// bench --bench bounds -- trace` on short traces (a 16- and a 32-rank matrix multiply) over
/// 64 unequal nodes, where these tables, not the replays, are the work: at 1.5 the 16-rank
/// case at its largest admitted budget (4.9e7) ran 14.6 s CPU where 10 s was estimated (1.46
/// times), the 32-rank one 0.96 times; at 3 the 16-rank case's largest budget (2.46e7) ran
/// 6.2 s CPU (`placelab run`, release build).
pub const RELAXED_PAIR_STEPS: f64 = 3.0;

/// What one child of branch and bound costs per communicating pair of ranks, in replay steps,
/// when a node has several cores: its relaxed tables and its lane write each pair's link into
/// tables of `R^2` entries, which at 1,024 ranks (16 MiB a table, 128 MiB for the lanes) miss
/// the cache on every write. Set on a 1,024-rank Himeno trace (about 6,000 pairs) over 64 nodes
/// of 16 cores by branch and bound at the default budget: 10.5 s where replay steps and the
/// node-pair tables estimated 3.1 s, about 190 µs a child, 16 steps a pair.
pub const RANK_PAIR_STEPS: f64 = 16.0;

/// What a lane of a replay pass costs, in single replays: a pass of [`replay::LANES`] replays
/// took 0.84 ms where one replay took 0.45 ms (`cargo bench --bench trace`), about a quarter of
/// a replay per lane. A chunk of fewer children than lanes still replays every lane.
pub const LANE_REPLAYS: f64 = 0.25;

/// An upper bound of the children branch and bound replays (exactly or relaxed), of the
/// leaves local search replays, and so of the search nodes: every one counts at least one
/// replay of the trace against the budget, and the last may pass it by one node's children.
/// For branch and bound it is also at most the representative partial assignments of every
/// depth (each child is one, and none is made twice) plus its local search's replays (a tenth
/// of the budget) and the root.
pub fn search_nodes(s: &TraceScenario, b: &Built) -> f64 {
    search_nodes_for(b, b.method, s.search.budget)
}

fn search_nodes_for(b: &Built, method: Method, budget: f64) -> f64 {
    if method == Method::Exhaustive {
        return 0.0;
    }
    let steps = (b.compiled.steps() as f64).max(1.0);
    let n = b.platform.n as f64;
    let by_budget = (budget + (n + 2.0) * steps) / steps + n;
    if method == Method::LocalSearch {
        return by_budget;
    }
    by_budget.min(partials(b) + 1.0 + budget / 10.0 / steps + n + 2.0)
}

/// Representative partial assignments of every depth (`sum over d of` [`search::distinct`]
/// of the first `d` ranks, [`search::distinct_within`] with several cores on a node): branch
/// and bound's children are among them, each made once.
fn partials(b: &Built) -> f64 {
    *b.partials.get_or_init(|| partials_of(b))
}

fn partials_of(b: &Built) -> f64 {
    let class = search::classes(&b.platform);
    if search::multicore(&b.platform) {
        // the first 64 depths first: past 1e10 the sum is more than any budget pays for
        // (`search_nodes_for` takes the least of the two), so the whole sum is not needed
        let r = b.compiled.ranks;
        let head = search::distinct_within(&class, &b.platform.cores, r.min(64));
        let sum: f64 = head[1..].iter().sum();
        if r <= 64 || sum >= 1e10 {
            return sum;
        }
        let ways = search::distinct_within(&class, &b.platform.cores, r);
        return ways[1..].iter().sum();
    }
    (1..=b.compiled.ranks)
        .map(|d| search::distinct(&class, d))
        .sum()
}

/// The admission estimate of a built scenario: its work in replay steps (the search's budget or
/// exhaustive search's replays, the measured rows' and the report's replays, [`EVENT_STEPS`] an
/// event of the trace) plus, for branch
/// and bound, each child's relaxed tables ([`RELAXED_PAIR_STEPS`] per pair of nodes) and the
/// lanes a short chunk of children leaves empty ([`LANE_REPLAYS`]), at [`NS_PER_STEP`];
/// memory: the open list's cap, the trace ([`BYTES_PER_EVENT`] an event, or
/// [`super::limits::BYTES_PER_EVENT_GENERAL`] with non-blocking calls or collectives) and the
/// platform's tables.
pub fn estimate(s: &TraceScenario, b: &Built) -> crate::engine::Estimate {
    estimate_for(b, b.method, s.search.budget)
}

/// [`estimate`] as if `method` ran, a budgeted one with `budget` steps.
pub fn estimate_for(b: &Built, method: Method, budget: f64) -> crate::engine::Estimate {
    let steps = b.compiled.steps() as f64;
    let n = b.platform.n;
    let search_work = match method {
        Method::Exhaustive => search::assignments_on(&b.platform, b.compiled.ranks) * steps,
        _ => (budget + (n as f64 + 2.0) * steps).min(MAX_WORK * 10.0),
    };
    // the trace compiled twice (validation, then the run) and reported, per event
    let replays = search_work
        + (b.measured.len() as f64 + 2.0) * steps
        + EVENT_STEPS * b.compiled.events as f64;
    // a chunk of children is replayed LANES wide: a node with fewer children than lanes still
    // replays every lane; with distinct nodes (no identical classes) and no bounds cutting
    // children before replay, every node has at least `classes - ranks + 1` children
    let relaxed = match method {
        Method::Exhaustive | Method::LocalSearch => 0.0,
        _ => {
            let prob = search::Problem::new(&b.compiled, &b.platform);
            let classes = 1 + prob.class.iter().copied().max().unwrap_or(0) as usize;
            let fill = if prob.cheap_bounds {
                1
            } else {
                (classes + 1)
                    .saturating_sub(b.compiled.ranks)
                    .clamp(1, replay::LANES)
            };
            // empty lanes per child, at worst over the children counts a node may have
            let lanes = replay::LANES;
            let empty = (fill..fill + lanes)
                .map(|k| (k.div_ceil(lanes) * lanes - k) as f64 / k as f64)
                .fold(0.0, f64::max);
            // with several ranks per node (up to 1,024 ranks), each child also writes its rank
            // pairs' links into tables of `R^2` entries (`LANES` of them), out of cache
            let rank_pairs = if search::multicore(&b.platform) {
                RANK_PAIR_STEPS * b.compiled.pairs.len() as f64
            } else {
                0.0
            };
            let per_child = RELAXED_PAIR_STEPS * (n * n) as f64
                + empty * LANE_REPLAYS * steps.max(1.0)
                + rank_pairs;
            // the children bounded or replayed in lanes: the root and each partial assignment
            // at most once, and no more than the budget pays for
            let steps1 = steps.max(1.0);
            let by_budget = (budget + (n as f64 + 2.0) * steps1) / steps1 + n as f64;
            by_budget.min(partials(b) + 1.0) * per_child
        }
    };
    let open = if method == Method::Exhaustive {
        0.0
    } else {
        search::MAX_OPEN_BYTES as f64
    };
    // the trace as read or generated and compiled, searched and reported (per event, measured
    // over whole runs: [`BYTES_PER_EVENT`])
    // with several ranks per node the rank-pair tables count too: 16 bytes a pair in each
    // replay's tables (a few) and the LANES-wide lane tables (left out with one core per node,
    // where the ranks are at most the 64 nodes and the tables under 1 MiB)
    let r = b.compiled.ranks as f64;
    let pair_tables = if search::multicore(&b.platform) {
        16.0 * (replay::LANES as f64 + 4.0) * r * r
    } else {
        0.0
    };
    let events = b.compiled.events as f64;
    let bytes = open
        + b.compiled.bytes_per_event * events
        + 64.0 * (n * n) as f64
        + 4.0 * 1048576.0
        + pair_tables;
    crate::engine::Estimate::new(replays + relaxed, NS_PER_STEP, bytes)
}

/// What `auto` runs: exhaustive search when its estimated work is at most
/// [`AUTO_EXHAUSTIVE_STEPS`] or at most branch and bound's at the scenario's budget (every
/// assignment, proven, for no more than branch and bound may spend), else branch and bound.
pub fn auto_method(s: &TraceScenario, b: &Built) -> Method {
    let ex = estimate_for(b, Method::Exhaustive, 0.0).work;
    let all = search::assignments_on(&b.platform, b.compiled.ranks);
    if all * b.compiled.steps() as f64 <= AUTO_EXHAUSTIVE_STEPS
        || ex <= estimate_for(b, Method::BranchAndBound, s.search.budget).work
    {
        Method::Exhaustive
    } else {
        Method::BranchAndBound
    }
}

/// [`build`] without admission: every value checked, the trace parsed or generated and
/// compiled, the platform built, the search method chosen.
///
/// # Errors
/// As [`build`], the estimate aside.
pub fn build_unadmitted(s: &TraceScenario) -> Result<Built> {
    // the nodes as given, or chosen among a platform file's hosts with their links
    let (nodes, file_links) = match &s.simgrid {
        Some(text) => {
            let (nodes, links) = file_platform(s, text)?;
            (nodes, Some(links))
        }
        None => (
            s.nodes
                .iter()
                .map(|x| Node {
                    name: x.name.clone(),
                    ratio: x.ratio.unwrap_or_else(d::ratio),
                    cores: x.cores.unwrap_or_else(d::cores),
                    intra: x.intra,
                })
                .collect(),
            None,
        ),
    };
    let n = nodes.len();
    if n == 0 || n > MAX_NODES as usize {
        return Err(ScenarioError::at(
            "nodes",
            format!("give from 1 to {MAX_NODES} nodes, got {n}"),
        ));
    }
    let mut index: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, nd) in nodes.iter().enumerate() {
        // a node taken from the file without being named in "nodes" is a host of the file
        let (p, host) = if s.nodes.is_empty() {
            ("simgrid".to_string(), format!("host {:?}: ", nd.name))
        } else {
            (format!("nodes[{i}].name"), String::new())
        };
        let name = nd.name.as_str();
        if name.is_empty() || name.chars().count() > 64 {
            return Err(ScenarioError::at(
                &p,
                format!("{host}a name of 1 to 64 characters"),
            ));
        }
        if name
            .chars()
            .any(|c| c.is_whitespace() || c == ',' || c.is_control())
        {
            return Err(ScenarioError::at(
                &p,
                format!("{host}{name:?}: no spaces or commas (names go into machinefiles and CSV)"),
            ));
        }
        if index.insert(name, i).is_some() {
            return Err(ScenarioError::at(&p, format!("{name:?} is named twice")));
        }
    }
    // the trace: an attached one is read where it is (its events are the largest thing a run
    // holds), its computes divided by the reference rate as it is compiled
    let attached: std::sync::Arc<crate::attach::AttachedTrace>;
    let (trace, source, program, rate) = match (&s.trace, &s.generate) {
        (None, None) => {
            return Err(ScenarioError::at(
                "",
                "give the trace: \"trace\" (text) or \"generate\"",
            ))
        }
        (Some(_), Some(_)) => {
            return Err(ScenarioError::at(
                "",
                "give either \"trace\" or \"generate\", not both",
            ))
        }
        (Some(t), None) => {
            if t.digest.is_some() && t.attached.is_none() {
                return Err(ScenarioError::at(
                    "trace.digest",
                    "pins an attached trace (\"attached\"); this trace is given as text",
                ));
            }
            // Time-independent traces are read in flops (rate 1) and divided by the reference
            // rate afterwards, so a text, files and an attached trace give the same bits.
            let tr: Cow<Trace> = match (&t.text, &t.files, &t.attached) {
                (Some(text), None, None) => Cow::Owned(
                    match t.format {
                        TraceFormat::Alog => alog::parse(text),
                        TraceFormat::Ti => ti::parse(text, 1.0),
                        TraceFormat::Text => text::parse(text),
                    }
                    .map_err(|e| parse_error("trace.text", e))?,
                ),
                (None, Some(files), None) => {
                    if t.format != TraceFormat::Ti {
                        return Err(ScenarioError::at(
                            "trace.files",
                            "one text per rank is for the time-independent format (\"ti\"); give \"text\"",
                        ));
                    }
                    if files.is_empty() || files.len() > MAX_RANKS as usize {
                        return Err(ScenarioError::at(
                            "trace.files",
                            format!("from 1 to {MAX_RANKS} texts, got {}", files.len()),
                        ));
                    }
                    let mut tr = Trace::new(0, Origin::Files);
                    for (i, f) in files.iter().enumerate() {
                        ti::parse_into(f, i as u32, 1.0, &mut tr)
                            .map_err(|e| parse_error(&format!("trace.files[{i}]"), e))?;
                    }
                    Cow::Owned(tr)
                }
                (None, None, Some(name)) => {
                    if t.format != TraceFormat::Ti {
                        return Err(ScenarioError::at(
                            "trace.attached",
                            "attached traces are SMPI time-independent traces (\"ti\")",
                        ));
                    }
                    attached = crate::attach::trace_for(
                        name,
                        t.digest.as_deref(),
                        "trace.attached",
                        "trace.digest",
                    )?;
                    Cow::Borrowed(&attached.trace)
                }
                _ => {
                    return Err(ScenarioError::at(
                        "trace",
                        "give exactly one of \"text\" (merged), \"files\" (one text per rank) and \"attached\" (a trace read beside the scenario)",
                    ))
                }
            };
            // time-independent traces count flops: seconds at the reference rate
            let rate = if t.format == TraceFormat::Ti {
                s.reference_rate
            } else {
                1.0
            };
            (tr, t.format.id(), None, rate)
        }
        (None, Some(g)) => {
            if let Some(w) = &g.weights {
                if w.len() != g.ranks as usize {
                    return Err(ScenarioError::at(
                        "generate.weights",
                        format!(
                            "one weight per rank: {} ranks, {} weights",
                            g.ranks,
                            w.len()
                        ),
                    ));
                }
            }
            let est = generate::estimate_events(g);
            if est > MAX_EVENTS {
                return Err(ScenarioError::at(
                    "generate",
                    format!("this program would write about {est} events; the limit is {MAX_EVENTS}: lower size, ranks or iterations"),
                ));
            }
            (
                Cow::Owned(generate::generate(g, s.reference_rate)),
                "generate",
                Some(g.program.id()),
                1.0,
            )
        }
    };
    let path0 = if s.generate.is_some() {
        "generate"
    } else {
        "trace"
    };
    if trace.events() == 0 {
        // Only init, finalize or comm_size lines (or nothing): a prediction of 0 s, "proven",
        // would say nothing about any assignment.
        return Err(ScenarioError::at(
            path0,
            "the trace has no compute and no message (only init, finalize or comm_size lines): there is nothing to predict",
        ));
    }
    if trace.events() > MAX_EVENTS {
        return Err(ScenarioError::at(
            path0,
            format!("{} events; the limit is {MAX_EVENTS}", trace.events()),
        ));
    }
    // memory before compiling: the trace's events at what compiling them costs
    let per = trace.bytes_per_event();
    let need = per * trace.events() as f64;
    if need > crate::engine::MAX_BYTES {
        return Err(ScenarioError::at(
            path0,
            format!(
                "refused before compiling: the trace's {} events need about {:.0} MiB ({per} bytes an event{}); the limit is {:.0} MiB: give a shorter trace",
                trace.events(),
                need / 1048576.0,
                if per > BYTES_PER_EVENT { " with non-blocking calls or collectives" } else { "" },
                crate::engine::MAX_BYTES / 1048576.0
            ),
        ));
    }
    let r = trace.ranks.len();
    if r > MAX_RANKS as usize {
        return Err(ScenarioError::at(
            path0,
            format!("the trace has {r} ranks; the limit is {MAX_RANKS}"),
        ));
    }
    let cores: Vec<u32> = nodes.iter().map(|x| x.cores).collect();
    let total: u64 = cores.iter().map(|&k| k as u64).sum();
    if r as u64 > total {
        let msg = if cores.iter().all(|&k| k == 1) {
            format!("the trace has {r} ranks but only {n} nodes are given; each rank needs its own node (or a core of its own: give nodes \"cores\")")
        } else {
            format!("the trace has {r} ranks but the {n} nodes have only {total} cores in all; each rank needs a core (give more nodes or more \"cores\")")
        };
        return Err(ScenarioError::at("nodes", msg));
    }
    let mut compiled = replay::compile_at(&trace, rate).map_err(|(file, line, m)| {
        ScenarioError::at(trace.path_of(file), Trace::at_line(line, m))
    })?;
    compiled.set_protocol(s.protocol, s.eager_threshold);
    // an empty string (a cleared form field) is no factors
    let factor = |text: &Option<String>, path: &str| -> Result<Option<Factors>> {
        text.as_deref()
            .filter(|t| !t.trim().is_empty())
            .map(|t| Factors::parse(t).map_err(|m| ScenarioError::at(path, m)))
            .transpose()
    };
    // with a platform file, absent factors are SMPI's defaults (what `smpirun` simulates)
    let smpi = |given: &Option<String>, default: &str| match (given, &s.simgrid) {
        (None, Some(_)) => Some(default.to_string()),
        _ => given.clone(),
    };
    let factors = (
        factor(
            &smpi(&s.lat_factor, super::simgrid::SMPI_LAT_FACTOR),
            "latFactor",
        )?,
        factor(
            &smpi(&s.bw_factor, super::simgrid::SMPI_BW_FACTOR),
            "bwFactor",
        )?,
    );
    compiled.set_factors(factors.0.as_ref(), factors.1.as_ref());
    // the platform
    let mut a0 = vec![f64::NAN; n * n];
    let mut a1 = vec![f64::NAN; n * n];
    let mut origin = vec![LinkOrigin::Default; n * n];
    let mut fits = BTreeMap::new();
    let mut ranges = BTreeMap::new();
    let mut total_samples = 0usize;
    for (i, l) in s.links.iter().enumerate() {
        let p = format!("links[{i}]");
        let node = |name: &str, f: &str| {
            index.get(name).copied().ok_or_else(|| {
                ScenarioError::at(format!("{p}.{f}"), format!("no node is named {name:?}"))
            })
        };
        let u = node(&l.from, "from")?;
        let v = node(&l.to, "to")?;
        if u == v {
            return Err(ScenarioError::at(&p, "a link joins two different nodes"));
        }
        if l.breakpoints.is_some() && l.samples.is_none() {
            return Err(ScenarioError::at(
                format!("{p}.breakpoints"),
                "cut \"samples\" into ranges: give the samples too",
            ));
        }
        let (x0, x1, f) = match (l.a0, l.a1, &l.samples) {
            (Some(x0), Some(x1), None) => (x0, x1, None),
            (None, None, Some(smp)) => {
                total_samples += smp.len();
                if total_samples > MAX_SAMPLES {
                    return Err(ScenarioError::at(
                        format!("{p}.samples"),
                        format!("at most {MAX_SAMPLES} samples in all"),
                    ));
                }
                let Some(ft) = fit::least_squares(smp) else {
                    return Err(ScenarioError::at(
                        format!("{p}.samples"),
                        "a fit needs samples of at least two different sizes",
                    ));
                };
                if let Some(bp) = &l.breakpoints {
                    let pw = fit::piecewise(smp, bp)
                        .map_err(|m| ScenarioError::at(format!("{p}.breakpoints"), m))?;
                    ranges.insert(u * n + v, pw.clone());
                    if l.both {
                        ranges.insert(v * n + u, pw);
                    }
                }
                (ft.a0, ft.a1, Some((ft, smp.clone())))
            }
            _ => {
                return Err(ScenarioError::at(
                    &p,
                    "give \"a0\" and \"a1\", or \"samples\" to fit them, not both",
                ))
            }
        };
        let dirs: &[(usize, usize)] = if l.both { &[(u, v), (v, u)] } else { &[(u, v)] };
        for &(x, y) in dirs {
            let k = x * n + y;
            if !a0[k].is_nan() {
                return Err(ScenarioError::at(
                    &p,
                    format!(
                        "the link from {:?} to {:?} is given twice",
                        nodes[x].name, nodes[y].name
                    ),
                ));
            }
            a0[k] = x0;
            a1[k] = x1;
            origin[k] = if f.is_some() {
                LinkOrigin::Fit
            } else {
                LinkOrigin::Given
            };
            if let Some(ff) = &f {
                fits.insert(k, ff.clone());
            }
        }
    }
    if let Some(fl) = &file_links {
        for (k, &(x0, x1)) in fl.iter().enumerate() {
            a0[k] = x0;
            a1[k] = x1;
            origin[k] = LinkOrigin::Platform;
        }
    }
    for u in 0..n {
        for v in 0..n {
            let k = u * n + v;
            if u == v {
                // the node's own link, between two of its ranks (read only when it has 2 cores
                // or more); a platform file's host: its route to itself
                if file_links.is_none() {
                    let l = nodes[u]
                        .intra
                        .unwrap_or_else(|| s.intra_link.unwrap_or_else(d::intra_link));
                    a0[k] = l.a0;
                    a1[k] = l.a1;
                }
                continue;
            }
            if a0[k].is_nan() {
                match s.default_link {
                    Some(d) => {
                        a0[k] = d.a0;
                        a1[k] = d.a1;
                    }
                    None => {
                        return Err(ScenarioError::at(
                            "links",
                            format!(
                                "no link from {:?} to {:?}: list it (or use \"both\") or give \"defaultLink\"",
                                nodes[u].name, nodes[v].name
                            ),
                        ))
                    }
                }
            }
        }
    }
    let platform = Platform {
        n,
        ratio: nodes.iter().map(|x| x.ratio).collect(),
        a0,
        a1,
        cores,
    };
    let names: Vec<String> = nodes.iter().map(|x| x.name.clone()).collect();
    let measured = match &s.measured {
        Some(text) => parse_measured(text, &index, r, &platform.cores)?,
        None => Vec::new(),
    };
    // the method: `auto` by estimated cost ([`auto_method`])
    let mut b = Built {
        source,
        program,
        compiled,
        platform,
        names,
        origin,
        fits,
        ranges,
        factors,
        method: s.search.method,
        budget: 0.0,
        measured,
        partials: std::cell::OnceCell::new(),
    };
    if b.method == Method::Auto {
        b.method = auto_method(s, &b);
    }
    if b.method != Method::Exhaustive {
        b.budget = s.search.budget.floor();
    }
    Ok(b)
}

/// A node as the search sees it: given in `nodes`, or a host of a platform file.
#[derive(Debug, Clone)]
struct Node {
    name: String,
    ratio: f64,
    cores: u32,
    intra: Option<LinkModel>,
}

/// The nodes and links of a platform file (`simgrid`), the links per ordered pair `u * n + v`
/// (a node's own entry, its host's route to itself, is read only with 2 cores or more).
///
/// The rule: the file gives every link and every speed, so `links`, `defaultLink`, `intraLink`
/// and the nodes' `ratio` and `intra` are refused at their paths; `nodes` absent or empty takes
/// every host in file order (a file of more than [`MAX_NODES`] hosts is refused: choose them),
/// else each node names a host (`cores` at most the host's, default the host's). A node's
/// ratio is `referenceRate / speed` (a host's speed is per core).
fn file_platform(s: &TraceScenario, text: &str) -> Result<(Vec<Node>, Vec<(f64, f64)>)> {
    let given = "comes from the platform file (\"simgrid\")";
    if !s.links.is_empty() {
        return Err(ScenarioError::at(
            "links",
            format!("every pair's link {given}: give either \"simgrid\" or \"links\""),
        ));
    }
    if s.default_link.is_some() {
        return Err(ScenarioError::at(
            "defaultLink",
            format!("every pair's link {given}: give either \"simgrid\" or \"defaultLink\""),
        ));
    }
    if s.intra_link.is_some() {
        return Err(ScenarioError::at(
            "intraLink",
            format!("the link between two ranks on one host {given} (the host's route to itself): leave \"intraLink\" out"),
        ));
    }
    for (i, nd) in s.nodes.iter().enumerate() {
        if nd.ratio.is_some() {
            return Err(ScenarioError::at(
                format!("nodes[{i}].ratio"),
                format!("a host's ratio {given} (referenceRate / its speed): leave \"ratio\" out"),
            ));
        }
        if nd.intra.is_some() {
            return Err(ScenarioError::at(
                format!("nodes[{i}].intra"),
                format!("a host's own link {given} (its route to itself): leave \"intra\" out"),
            ));
        }
    }
    let fp = super::simgrid::read(text).map_err(|m| ScenarioError::at("simgrid", m))?;
    let chosen: Vec<(usize, u32)> = if s.nodes.is_empty() {
        let h = fp.hosts.len();
        if h > MAX_NODES as usize {
            return Err(ScenarioError::at(
                "simgrid",
                format!("the platform has {h} hosts; the trace engine takes at most {MAX_NODES} nodes: choose the hosts in \"nodes\" ([{{\"name\": HOST}}, ...])"),
            ));
        }
        (0..h).map(|i| (i, fp.hosts[i].cores)).collect()
    } else {
        let by_name: std::collections::HashMap<&str, usize> = fp
            .hosts
            .iter()
            .enumerate()
            .map(|(i, h)| (h.name.as_str(), i))
            .collect();
        let mut out = Vec::with_capacity(s.nodes.len());
        for (i, nd) in s.nodes.iter().enumerate() {
            let Some(&h) = by_name.get(nd.name.as_str()) else {
                return Err(ScenarioError::at(
                    format!("nodes[{i}].name"),
                    format!(
                        "no host is named {:?} in the platform file",
                        model::short(&nd.name)
                    ),
                ));
            };
            let host = &fp.hosts[h];
            let cores = match nd.cores {
                Some(c) if c > host.cores => {
                    return Err(ScenarioError::at(
                        format!("nodes[{i}].cores"),
                        format!(
                            "host {:?} has {} cores in the platform file; give at most that",
                            host.name, host.cores
                        ),
                    ))
                }
                Some(c) => c,
                None => host.cores,
            };
            out.push((h, cores));
        }
        out
    };
    let n = chosen.len();
    if n == 0 || n > MAX_NODES as usize {
        return Err(ScenarioError::at(
            "nodes",
            format!("give from 1 to {MAX_NODES} nodes, got {n}"),
        ));
    }
    let mut nodes = Vec::with_capacity(n);
    for &(h, cores) in &chosen {
        let host = &fp.hosts[h];
        let ratio = s.reference_rate / host.speed;
        if !(ratio.is_finite() && ratio > 0.0 && ratio <= MAX_RATIO) {
            return Err(ScenarioError::at(
                "simgrid",
                format!(
                    "host {:?}: its speed, {} flops/s, is {} times slower than referenceRate ({} flops/s); a node's ratio is more than 0 and at most {}",
                    host.name,
                    compact_number(host.speed),
                    compact_number(ratio),
                    compact_number(s.reference_rate),
                    compact_number(MAX_RATIO)
                ),
            ));
        }
        nodes.push(Node {
            name: host.name.clone(),
            ratio,
            cores,
            intra: None,
        });
    }
    let mut links = vec![(0.0, 0.0); n * n];
    for (u, &(hu, cu)) in chosen.iter().enumerate() {
        for (v, &(hv, _)) in chosen.iter().enumerate() {
            // a host's route to itself only matters when it holds two ranks
            if u == v && cu < 2 {
                let d = d::intra_link();
                links[u * n + v] = (d.a0, d.a1);
                continue;
            }
            links[u * n + v] = fp
                .link(hu, hv)
                .map_err(|m| ScenarioError::at("simgrid", m))?;
        }
    }
    Ok((nodes, links))
}

/// Largest node ratio (`nodes[].ratio`'s range).
pub const MAX_RATIO: f64 = 1e6;

/// Reads `assignment,time` rows (header optional, `#` comments): the assignment is one node
/// name per rank separated by spaces (a node named at most its `cores` times), the time seconds.
fn parse_measured(
    text: &str,
    index: &BTreeMap<&str, usize>,
    r: usize,
    cores: &[u32],
) -> Result<Vec<(Vec<u8>, f64)>> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let body = raw.split('#').next().unwrap_or("").trim();
        if body.is_empty() {
            continue;
        }
        let err = |m: String| ScenarioError::at("measured", format!("line {line}: {m}"));
        let Some((a, t)) = body.rsplit_once(',') else {
            return Err(err("write `assignment,time`".into()));
        };
        let a = a.trim().trim_matches('"');
        let t = t.trim();
        if out.is_empty() && a == "assignment" && t == "time" {
            continue;
        }
        let time: f64 = t.parse().map_err(|_| {
            err(format!(
                "the time must be a number, got {:?}",
                model::short(t)
            ))
        })?;
        if !time.is_finite() || time <= 0.0 || time > MAX_VALUE {
            return Err(err(format!(
                "the time must be more than 0 and finite, got {}",
                model::short(t)
            )));
        }
        let hosts: Vec<&str> = a.split_whitespace().collect();
        if hosts.len() != r {
            return Err(err(format!(
                "the assignment names {} nodes; the trace has {r} ranks (one node name per rank)",
                hosts.len()
            )));
        }
        let mut assign = Vec::with_capacity(r);
        let mut load = vec![0u32; cores.len()];
        for h in hosts {
            let Some(&u) = index.get(h) else {
                return Err(err(format!("no node is named {:?}", model::short(h))));
            };
            load[u] += 1;
            if load[u] > cores[u] {
                return Err(err(if cores[u] == 1 {
                    format!("node {h:?} appears twice")
                } else {
                    format!("node {h:?} appears more often than its {} cores", cores[u])
                }));
            }
            assign.push(u as u8);
        }
        out.push((assign, time));
        if out.len() > MAX_MEASURED {
            return Err(err(format!("at most {MAX_MEASURED} rows")));
        }
    }
    if out.is_empty() && !text.trim().is_empty() {
        return Err(ScenarioError::at("measured", "no rows of measured times"));
    }
    Ok(out)
}
