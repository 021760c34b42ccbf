//! The partitioning engine in the registry: a graph (generated, or a METIS file or edge list)
//! partitioned into `k` parts by each method of the scenario, with the figures and the drawing
//! of [`super::report`].
//!
//! Pipeline: [`super::scenario`] (fields, limits, admission) → build the graph
//! ([`super::generate`] or [`crate::formats::metis`]) → [`super::partition`] per method →
//! [`super::report`] (figures recounted by [`super::metrics`], drawing from the coordinates, a
//! [`super::layout`] or the part-to-part graph).

use super::report::{self, Drawing, GraphInfo, Omitted, PartReport, REPORT_BYTE_CAP};
use super::scenario::{self, PartScenario};
use super::{layout, partition, Options};
use crate::engines::Engine;
use crate::error::Result;
use crate::params::Param;
use crate::progress::{Progress, Span};
use crate::scenario::Meta;

/// The partitioning engine.
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
        super::samples::sample_scenarios()
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

    let sum = super::analysis::summarize(g);
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
