//! Engine 2, partitioning: our own multilevel graph partitioner, compared with simple baselines,
//! and the graph readers and generators that feed it.
//!
//! The library entry point is [`partition`]: a [`Graph`] in CSR form and [`Options`] in, one part
//! id per vertex out. It is pure and deterministic: the same graph, options and seed give the
//! same part vector on every target. The placement engine calls it for its Advanced strategy.
//!
//! Files: [`graph`] (CSR graph and its invariants, shared with the readers: [`crate::graph`]),
//! [`metrics`] (cut, volume, balance, recounted from a part vector), [`baseline`] (linear and
//! random partitions), [`multilevel`] (the multilevel k-way and recursive-bisection partitioner,
//! the driver of: [`wgraph`] its working graph, [`coarsen`] heavy-edge matching and contraction,
//! [`initial`] greedy graph growing, [`fm2`] two-way FM, [`rb`] multilevel and recursive
//! bisection, [`kway_refine`] k-way balancing, greedy and FM refinement, [`volume`]
//! communication-volume refinement), [`generate`] (seeded graph generators), [`analysis`]
//! (components, BFS orders, pseudo-diameter, quotient graph and its spanning tree, with
//! petgraph); the engine in the page: [`scenario`] (fields, limits, admission), [`Partitioning`]
//! and [`run_capped`] (here), [`report`], [`layout`] (force-directed drawing) and [`samples`]
//! (the cross-target matrix).

pub mod analysis;
pub mod baseline;
pub mod coarsen;
pub mod fm2;
pub mod generate;
pub use crate::graph;
pub mod initial;
pub mod kway_refine;
pub mod layout;
pub mod metrics;
pub mod multilevel;
pub mod pairwise;
pub mod rb;
pub mod report;
pub mod samples;
pub mod scenario;
pub mod volume;
pub mod wgraph;

pub use graph::{Graph, GraphError};

use crate::engine::Engine;
use crate::error::Result;
use crate::params::Param;
use crate::progress::{Progress, Span};
use crate::scenario::Meta;
use report::{Drawing, GraphInfo, Omitted, PartReport, REPORT_BYTE_CAP};
use scenario::PartScenario;

/// What the partitioner minimizes (METIS `-objtype`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Objective {
    /// Total weight of cut edges (default).
    #[default]
    Cut,
    /// Total communication volume (see [`metrics::comm_volume`]).
    Volume,
}

/// How the parts are found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Method {
    /// Multilevel k-way (METIS `-ptype=kway`, the default).
    #[default]
    Kway,
    /// Multilevel recursive bisection (METIS `-ptype=rb`).
    Rb,
    /// Baseline: vertices in id order cut into consecutive runs of the target weights.
    Linear,
    /// Baseline: each vertex to a part drawn at random, weighted by the targets, from the seed.
    Random,
}

/// How hard the multilevel partitioner tries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Effort {
    /// METIS-like: one multilevel cycle, a few initial tries.
    #[default]
    Default,
    /// Quality mode: more tries, V-cycles and stronger refinement, for a smaller cut.
    Strong,
}

/// Options of one partitioning run.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    /// Number of parts, `1 <= k`. `k` may exceed `n` (some parts stay empty).
    pub k: u32,
    /// Target fraction of the total vertex weight for each part: `k` non-negative values summing
    /// to 1 (within 1e-6). Empty means equal parts.
    pub tpwgts: Vec<f64>,
    /// Allowed imbalance in thousandths (METIS `-ufactor`): part `p` may weigh up to
    /// `(1 + ufactor/1000) * tpwgts[p] * total`, or more only when a single vertex forces it.
    pub ufactor: u32,
    pub objective: Objective,
    pub method: Method,
    pub effort: Effort,
    /// Independent tries whose best is kept (METIS `-ncuts`), at least 1.
    pub ncuts: u32,
    /// Refinement passes per level (METIS `-niter`), at least 1.
    pub niter: u32,
    pub seed: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            k: 2,
            tpwgts: Vec::new(),
            ufactor: 30,
            objective: Objective::Cut,
            method: Method::Kway,
            effort: Effort::Default,
            ncuts: 1,
            niter: 10,
            seed: 1,
        }
    }
}

impl Options {
    /// The target fractions, `k` of them (equal parts when `tpwgts` is empty).
    pub fn targets(&self) -> Vec<f64> {
        if self.tpwgts.is_empty() {
            vec![1.0 / f64::from(self.k.max(1)); self.k.max(1) as usize]
        } else {
            self.tpwgts.clone()
        }
    }
}

/// The result of [`partition`].
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// Part of each vertex, each `< k`.
    pub part: Vec<u32>,
    /// Vertex counts of the multilevel hierarchy, finest first (one entry for baselines).
    pub levels: Vec<u32>,
}

/// Partitions `g` into `opts.k` parts. `g` must satisfy [`Graph::check`] and `opts` the rules
/// documented on [`Options`] (the engine's validation and the CLI check both before calling).
pub fn partition(g: &Graph, opts: &Options, progress: &mut dyn Progress) -> Outcome {
    match opts.method {
        Method::Linear => baseline::linear(g, opts),
        Method::Random => baseline::random(g, opts),
        Method::Kway | Method::Rb => multilevel::partition(g, opts, progress),
    }
}

/// The partitioning engine in the registry: a graph (generated, or a METIS file or edge list)
/// partitioned into `k` parts by each method of the scenario, with the figures and the drawing
/// of [`report`].
///
/// Pipeline: [`scenario`] (fields, limits, admission) → build the graph ([`generate`] or
/// [`crate::formats::metis`]) → [`partition`] per method → [`report`] (figures recounted by
/// [`metrics`], drawing from the coordinates, a [`layout`] or the part-to-part graph).
pub struct Partitioning;

impl Engine for Partitioning {
    const ID: &'static str = "partition";
    const TITLE: &'static str = "Partitioning: multilevel graph partitioner";
    type Scenario = PartScenario;
    type Report = PartReport;

    fn params() -> Vec<Param> {
        scenario::params()
    }

    fn validate(s: &PartScenario) -> Result<()> {
        scenario::validate(s)
    }

    fn run(s: &PartScenario, meta: &Meta, progress: &mut dyn Progress) -> PartReport {
        run_capped(s, meta.seed, progress, meta.report_budget(REPORT_BYTE_CAP))
    }

    fn sample_scenarios() -> Vec<String> {
        samples::sample_scenarios()
    }
}

/// Runs every method of a validated scenario, keeping the report's JSON within `cap` bytes.
///
/// Progress units are the admission estimate's steps ([`scenario::estimate`]): building and
/// drawing the graph, then each method in turn, so the bar moves in proportion to the work.
pub fn run_capped(
    s: &PartScenario,
    seed: u64,
    progress: &mut dyn Progress,
    cap: usize,
) -> PartReport {
    let built = scenario::build_graph(&s.graph, seed).expect("validated");
    let g = &built.graph;
    let n = g.n();
    let k = s.k as u32;
    let est = scenario::estimate(u64::from(n), g.m(), s.k, &s.methods, s.graph.kind);
    let units: Vec<u64> = std::iter::once(est.build_steps)
        .chain(est.method_steps.iter().copied())
        .map(|x| x.ceil().max(1.0) as u64)
        .collect();
    let total: u64 = units.iter().sum();
    progress.tick(0, total);

    let sum = analysis::summarize(g);
    let info = GraphInfo {
        kind: s.graph.kind.id(),
        vertices: sum.vertices,
        edges: sum.edges,
        total_vertex_weight: sum.total_vertex_weight,
        total_edge_weight: sum.total_edge_weight,
        min_degree: sum.min_degree,
        max_degree: sum.max_degree,
        components: sum.components,
        largest_component: sum.largest_component,
        isolated: sum.isolated,
        pseudo_diameter: sum.pseudo_diameter,
        vertex_weights: built.has_vwgt,
        edge_weights: built.has_adjwgt,
        vertex_sizes: built.has_vsize,
        coordinates: !built.coords.is_empty(),
    };

    // The drawing: the graph's own coordinates, else a force layout of a small graph, else the
    // part-to-part graph of each run.
    let drawing = if !built.coords.is_empty() && n <= report::MAX_DRAWN_VERTICES {
        let pts: Vec<[f64; 2]> = built.coords.iter().map(|&p| layout::project(p)).collect();
        let (edges, _) = report::drawn_edges(g);
        Drawing {
            kind: "coordinates",
            xy: layout::quantize(&pts),
            edges,
        }
    } else if n <= layout::LAYOUT_MAX_VERTICES {
        let pts = layout::force_layout(g, seed, layout::LAYOUT_STEPS);
        let (edges, _) = report::drawn_edges(g);
        Drawing {
            kind: "layout",
            xy: layout::quantize(&pts),
            edges,
        }
    } else {
        Drawing {
            kind: "quotient",
            xy: Vec::new(),
            edges: Vec::new(),
        }
    };
    let mut omitted = Omitted {
        parts: Vec::new(),
        edges: g.m() - drawing.edges.len() as u64 / 2,
    };
    let mut base = units[0];
    progress.tick(base, total);

    let targets = if s.targets.is_empty() {
        vec![1.0 / f64::from(k); k as usize]
    } else {
        s.targets.clone()
    };
    let max_imbalance = 1.0 + s.ufactor as f64 / 1000.0;
    // part vectors share what the cap leaves after the drawing and the fixed part
    let drawing_bytes = report::json_list_bytes(drawing.xy.iter().map(|&x| u64::from(x)))
        + report::json_list_bytes(drawing.edges.iter().map(|&x| u64::from(x)));
    let mut part_budget = cap.saturating_sub(report::FIXED_BYTES + drawing_bytes);

    let mut runs = Vec::with_capacity(s.methods.len());
    for (i, &m) in s.methods.iter().enumerate() {
        progress.phase(m.id());
        let (method, effort) = m.method();
        let opts = Options {
            k,
            tpwgts: s.targets.clone(),
            ufactor: s.ufactor as u32,
            objective: s.objective.objective(),
            method,
            effort,
            seed,
            ..Options::default()
        };
        let outcome = partition(
            g,
            &opts,
            &mut Span {
                progress: &mut *progress,
                base,
                span: units[i + 1],
                total,
            },
        );
        base += units[i + 1];
        progress.tick(base.min(total), total);
        let mut run = report::run_report(
            g,
            outcome.part,
            outcome.levels,
            k,
            &targets,
            max_imbalance,
            (m.id(), m.label()),
        );
        if drawing.kind == "quotient" {
            let part = run.part.as_deref().unwrap_or(&[]);
            run.quotient = Some(report::quotient(g, part, k, seed));
        }
        // the part-to-part graph always stays (at most 20,000 pairs); part vectors give way
        if let Some(q) = &run.quotient {
            let qbytes = report::json_list_bytes(q.edges.iter().copied())
                + report::json_list_bytes(q.xy.iter().map(|&x| u64::from(x)));
            part_budget = part_budget.saturating_sub(qbytes);
        }
        let bytes = report::json_list_bytes(
            run.part
                .as_deref()
                .unwrap_or(&[])
                .iter()
                .map(|&p| u64::from(p)),
        );
        if bytes > part_budget {
            run.part = None;
            omitted.parts.push(m.id());
        } else {
            part_budget -= bytes;
        }
        runs.push(run);
    }
    progress.phase("end");
    progress.tick(total, total);
    PartReport {
        graph: info,
        k,
        objective: s.objective.id(),
        ufactor: s.ufactor as u32,
        targets,
        max_imbalance,
        runs,
        drawing,
        omitted,
    }
}
