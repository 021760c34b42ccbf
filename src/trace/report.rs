//! The trace engine's report: every figure is defined in `docs/format.md`, "Engine `trace`".
//! Reports hold no wall-clock times (they must be byte-identical on every target); the page
//! times the run itself.

use serde::Serialize;

/// Most timeline segments in a report; the rest are counted, not listed.
pub const MAX_TIMELINE_SEGMENTS: usize = 20_000;
/// Most samples of one fitted link repeated in the report (for the drawing).
pub const MAX_FIT_SAMPLES: usize = 1000;
/// Most predicted-versus-measured pairs in the report.
pub const MAX_PAIRS: usize = 5000;

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TraceReport {
    /// `alog`, `ti`, `text` or `generate`.
    pub source: &'static str,
    /// The generator's program id, when generated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub program: Option<&'static str>,
    pub trace: TraceSummary,
    pub nodes: Vec<NodeRow>,
    pub links: Vec<LinkRow>,
    /// SMPI's size-dependent factors applied to every message, when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub factors: Option<FactorsRow>,
    pub search: SearchRow,
    pub ranking: Vec<RankedRow>,
    pub best: BestRow,
    pub timeline: Timeline,
    /// Present when measured times were supplied.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub measured: Option<MeasuredRow>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TraceSummary {
    /// The send protocol of the replay (`rendezvous` or `eager`).
    pub protocol: super::replay::Protocol,
    pub ranks: u32,
    /// Compute, send and receive records after merging adjacent computes.
    pub events: u64,
    /// Matched send/receive pairs.
    pub messages: u64,
    /// Bytes of all messages.
    pub bytes: f64,
    /// Sum of all compute, in seconds on an unloaded node.
    pub compute: f64,
    pub per_rank: Vec<RankSummary>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RankSummary {
    pub rank: u32,
    /// Compute seconds on an unloaded node.
    pub compute: f64,
    pub sends: u64,
    pub recvs: u64,
    pub bytes_sent: f64,
    pub bytes_received: f64,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeRow {
    pub name: String,
    pub ratio: f64,
    /// Symmetry class: nodes of one class are identical (same ratio, cores and links both ways).
    pub class: u32,
    /// Ranks the node may hold (written only when more than 1).
    #[serde(skip_serializing_if = "is_one")]
    pub cores: u32,
    /// The node's intra-node link (only with more than one core).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub intra: Option<IntraRow>,
}

fn is_one(x: &u32) -> bool {
    *x == 1
}

/// `T = a0 + a1 N` between two ranks on one node.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct IntraRow {
    pub a0: f64,
    pub a1: f64,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LinkRow {
    /// Node indices.
    pub from: u32,
    pub to: u32,
    pub a0: f64,
    pub a1: f64,
    /// `given`, `fit`, `default` or `platform` (a SimGrid platform file's route).
    pub origin: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fit: Option<FitRow>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FitRow {
    /// Samples used.
    pub count: u64,
    /// Root mean square of the residuals `T_i - (a0 + a1 N_i)`, seconds.
    pub rms: f64,
    /// Largest absolute residual, seconds.
    pub max_residual: f64,
    /// Coefficient of determination (1 when every sample has the same time).
    pub r2: f64,
    /// The samples `[N, T]` (at most [`MAX_FIT_SAMPLES`], evenly picked).
    pub samples: Vec<[f64; 2]>,
    /// With `breakpoints`: the fit of each size range.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ranges: Option<Vec<RangeRow>>,
    /// With `breakpoints`: the ranges as SMPI's `smpi/lat-factor` over the first range's line
    /// (absent when a ratio is not positive).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lat_factor: Option<String>,
    /// With `breakpoints`: the ranges as SMPI's `smpi/bw-factor`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bw_factor: Option<String>,
}

/// One size range of a link fitted per range: samples of `from < N <= to` (the first from 0
/// inclusive; the last has no `to`).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RangeRow {
    pub from: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to: Option<f64>,
    pub count: u64,
    pub a0: f64,
    pub a1: f64,
    pub rms: f64,
    pub r2: f64,
}

/// SMPI's factors by message size as the scenario gave them (`latFactor`, `bwFactor`), each
/// message costing `latFactor(N) a0 + N a1 / bwFactor(N)`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FactorsRow {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lat_factor: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bw_factor: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchRow {
    /// The method that ran: `exhaustive`, `branchAndBound` or `localSearch`.
    pub method: &'static str,
    /// Assignments in all: `n! / (n - r)!`.
    pub assignments: f64,
    /// Assignments distinct up to identical nodes.
    pub distinct: f64,
    /// Symmetry classes of nodes.
    pub classes: u32,
    /// Search-tree nodes bounded (branch and bound) or assignments looked at (others).
    pub visited: u64,
    /// Complete replays (leaves and local search moves).
    pub replays: u64,
    /// Bound evaluations that were partial replays.
    pub bound_replays: u64,
    /// Subtrees cut by the bound.
    pub pruned: u64,
    /// Replay steps spent, the unit of `budget`.
    pub steps: u64,
    pub budget: f64,
    /// Whether `best.time` is proven to be the least over all assignments.
    pub proven: bool,
    /// `complete` or `budget`.
    pub stopped: &'static str,
    /// No assignment is faster than this (seconds).
    pub lower_bound: f64,
    /// `(best - lowerBound) / best`; 0 when proven.
    pub gap: f64,
    /// The identical ranks the search was reduced by, when some were found.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub identical_ranks: Option<IdenticalRanks>,
}

/// Permutations of the ranks that leave the trace unchanged, and the condition the searched
/// assignments meet: `pivot`'s node has the least class of the nodes of `orbit`'s ranks.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct IdenticalRanks {
    /// The permutations found (they generate the group), as named in `docs/format.md`.
    pub generators: Vec<String>,
    pub pivot: u32,
    /// The ranks some found permutation maps `pivot` to, ascending.
    pub orbit: Vec<u32>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RankedRow {
    /// Position from 1.
    pub position: u32,
    /// Node index per rank.
    pub assignment: Vec<u32>,
    /// Node names per rank, separated by spaces.
    pub hosts: String,
    /// Predicted run time, seconds.
    pub time: f64,
    /// Assignments this row stands for (itself and those differing by identical nodes).
    pub equivalents: f64,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BestRow {
    pub assignment: Vec<u32>,
    pub hosts: String,
    pub time: f64,
    /// The identity assignment, ranks in order on the nodes' cores in order (rank `i` on node
    /// `i` with one core per node; [`super::search::identity`]): the predicted time, and how
    /// much slower than the best.
    pub identity_time: f64,
    pub identity_ratio: f64,
    /// One host name per line, rank order (MPICH machinefile): a node holding several ranks
    /// is named once per rank, on the lines of its ranks.
    pub machinefile: String,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Timeline {
    pub makespan: f64,
    /// Node index per rank.
    pub nodes: Vec<u32>,
    /// In order of start time, then rank.
    pub segments: Vec<Segment>,
    /// Segments of the whole replay.
    pub total: u64,
    /// Whether segments were left out (only those starting before `shownUntil` are listed).
    pub truncated: bool,
    pub shown_until: f64,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Segment {
    pub rank: u32,
    /// `compute`, `send`, `recv` or `wait`.
    pub kind: &'static str,
    pub start: f64,
    pub end: f64,
    /// The other rank of a `send`, `recv` or `wait`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub peer: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bytes: Option<f64>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MeasuredRow {
    /// Rows of the CSV.
    pub rows: u32,
    /// `n`: the predicted best (its hosts) and its measured time `t_n` (null if not measured).
    pub predicted_best: String,
    pub predicted_best_measured: Option<f64>,
    /// `m`: the measured best and `t_m`.
    pub measured_best: String,
    pub measured_best_time: f64,
    /// `a = |t_n - t_m| / t_m`, null when `t_n` is not measured.
    pub a: Option<f64>,
    /// Position of the measured best in our ranking over the measured assignments (1 = ours).
    pub measured_best_predicted_position: u32,
    /// Mean of `|predicted - measured| / measured` over the rows.
    pub mean_relative_error: f64,
    /// Spearman rank correlation of predicted and measured times (null under 2 rows).
    pub rank_correlation: Option<f64>,
    /// Each measured assignment: hosts, predicted and measured seconds, in CSV order.
    pub pairs: Vec<Pair>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Pair {
    pub hosts: String,
    pub predicted: f64,
    pub measured: f64,
}
