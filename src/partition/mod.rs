//! Engine 2, partitioning: our own multilevel graph partitioner, compared with simple baselines,
//! and the graph readers and generators that feed it.
//!
//! The library entry point is [`partition`]: a [`Graph`] in CSR form and [`Options`] in, one part
//! id per vertex out. It is pure and deterministic: the same graph, options and seed give the
//! same part vector on every target. The placement engine calls it for its Advanced strategy.
//!
//! Files: [`options`] (what [`partition`] takes and gives), [`graph`] (CSR graph and its
//! invariants, shared with the readers: [`crate::graph`]), [`metrics`] (cut, volume, balance,
//! recounted from a part vector), [`baseline`] (linear and random partitions), [`multilevel`]
//! (the multilevel k-way and recursive-bisection partitioner, the driver of: [`wgraph`] its
//! working graph, [`coarsen`] heavy-edge matching and contraction, [`initial`] greedy graph
//! growing, [`fm2`] two-way FM, [`rb`] multilevel and recursive bisection, [`kway_refine`] k-way
//! balancing, greedy and FM refinement, [`volume`] communication-volume refinement),
//! [`generate`] (seeded graph generators), [`analysis`] (components, BFS orders,
//! pseudo-diameter, quotient graph and its spanning tree, with petgraph); the engine in the page:
//! [`scenario`] (fields, limits, admission), [`Partitioning`] and [`run_capped`] (here),
//! [`report`], [`layout`] (force-directed drawing) and [`samples`] (the cross-target matrix).

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
pub mod options;
pub mod pairwise;
pub mod rb;
pub mod report;
pub mod samples;
pub mod scenario;
pub mod volume;
pub mod wgraph;

pub use graph::{Graph, GraphError};
pub use options::{Effort, Method, Objective, Options, Outcome};

use crate::engine::Engine;
use crate::error::Result;
use crate::params::Param;
use crate::progress::{Progress, Span};
use crate::scenario::Meta;
use report::{Drawing, GraphInfo, Omitted, PartReport, REPORT_BYTE_CAP};
use scenario::PartScenario;

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

    fn estimate(s: &PartScenario) -> Result<crate::engine::Estimate> {
        scenario::engine_estimate(s)
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
