//! The selection report (every figure is defined in `docs/format.md`, "Engine `select`").
//! Each part is present exactly when the scenario asked for it.

use serde::Serialize;

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SelectReport {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub workstations: Option<WorkstationReport>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subsystem: Option<SubsystemReport>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub layouts: Option<LayoutsReport>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reservation: Option<super::reservation::ReservationReport>,
}

/// Workstation selection (Qi & Ju). Times are in the formulas' unit (ms with the default
/// constants).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WorkstationReport {
    pub preset: &'static str,
    pub p_set: &'static str,
    /// The formulas evaluated `[ts, tc, tr, to]`.
    pub formulas: Formulas,
    /// Every constant a formula may use, by name.
    pub constants: std::collections::BTreeMap<String, f64>,
    /// The stations in input order.
    pub stations: Vec<StationRow>,
    /// Station indices in selection order: fastest effective rate first.
    pub order: Vec<u32>,
    /// One point per P = 1..Q.
    pub curve: Vec<CurvePoint>,
    /// The P minimizing the nominal T(P); absent when no P gives a finite time.
    pub best: Option<Choice>,
    /// Every station (P = Q), when Q is allowed and finite.
    pub all: Option<Choice>,
    /// `all.t - best.t`, and as a percent of `all.t`.
    pub lost: Option<f64>,
    pub lost_percent: Option<f64>,
    /// Present when some load is a range.
    pub uncertainty: Option<Uncertainty>,
    /// The source's figures, echoed.
    pub reference: Option<Reference>,
    /// Only in a live preview (`"preview": true`): the complete report's counts, of which
    /// `curve`, `stations` and `order` keep a part (see `preview.rs`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub preview_of: Option<PreviewOf>,
}

/// The complete counts behind a preview.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PreviewOf {
    /// Points of the complete curve (Q).
    pub curve_points: u32,
    /// Stations of the complete report.
    pub stations: u32,
}

#[derive(Debug, Clone, Serialize)]
pub struct Formulas {
    pub ts: String,
    pub tc: String,
    pub tr: String,
    pub to: String,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StationRow {
    pub name: String,
    pub load: f64,
    pub load_lo: f64,
    pub load_hi: f64,
    pub speed: f64,
    /// `speed * (1 - load)` at the nominal load.
    pub rate: f64,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CurvePoint {
    pub p: u32,
    /// Whether the model allows this P (e.g. a perfect square for PMR).
    pub allowed: bool,
    pub ts: Option<f64>,
    pub tc: Option<f64>,
    pub tr: Option<f64>,
    pub to: Option<f64>,
    /// `1 / min rate` over the first P stations: the factor on To.
    pub pace: f64,
    /// `ts + tc + tr + to * pace`; absent when not allowed or not finite.
    pub t: Option<f64>,
    /// The band when loads are ranges.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub t_lo: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub t_hi: Option<f64>,
    /// Worst-case regret of choosing this P (ranges only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub regret: Option<f64>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Choice {
    pub p: u32,
    pub t: f64,
    /// Names of the chosen stations, in selection order.
    pub stations: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Uncertainty {
    /// Minimizes `tHi` (the pessimistic choice).
    pub min_upper: Option<Choice>,
    /// Minimizes the worst-case regret; `t` is that regret.
    pub min_regret: Option<Choice>,
}

/// M of N machines.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SubsystemReport {
    pub objective: &'static str,
    pub machines: u32,
    pub m: u32,
    /// The exact branch and bound; absent when N is over the exact limit.
    pub exact: Option<SubsetResult>,
    pub heuristic: SubsetResult,
    /// Machines 0..M-1.
    pub first_fit: SubsetResult,
    /// How much worse the heuristic's product is than the exact one (percent); absent without
    /// an exact result.
    pub gap_percent: Option<f64>,
    pub first_fit_gap_percent: Option<f64>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SubsetResult {
    /// Machine indices, ascending.
    pub set: Vec<u32>,
    /// Sum over chosen pairs of log10 of the distance (or bandwidth).
    pub log10_product: f64,
    /// The product itself when it fits a double.
    pub product: Option<f64>,
    /// Exact only: whether the search finished, so the set is proven optimal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proven: Option<bool>,
    /// Search nodes (exact) or evaluated swaps (heuristic).
    pub work: u64,
}

/// Multi-core layouts for an all-to-all.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LayoutsReport {
    pub message_bytes: f64,
    /// The cost table in effect, as CSV (copy, edit, paste back).
    pub table: String,
    pub ranks: Vec<RankReport>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RankReport {
    pub rank: u32,
    /// Feasible symmetric layouts, fastest first.
    pub layouts: Vec<LayoutResult>,
    pub first_fit: LayoutResult,
    /// `(firstFit.time - layouts[0].time) / firstFit.time`, in percent.
    pub gain_percent: f64,
    /// The source's figures for this rank.
    pub reference: Vec<LayoutReference>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LayoutResult {
    /// `"2x4"`: nodes x processes per node (first-fit: `"first-fit"`).
    pub label: String,
    pub nodes: u32,
    /// Processes per node, per used node.
    pub per_node: Vec<u32>,
    /// Node index of each used node.
    pub node_ids: Vec<u32>,
    /// Estimated time (microseconds).
    pub time: f64,
    pub steps: Vec<StepCost>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StepCost {
    pub step: u32,
    /// The layer of the slowest message: `socket`, `node` or `network`.
    pub layer: &'static str,
    pub cf: u32,
    /// Microseconds.
    pub time: f64,
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
