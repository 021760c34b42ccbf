//! The partitioning engine's scenario fields, their limits, the admission estimate and the form
//! controls. Format reference: `docs/format.md` ("Partitioning").
//!
//! ```json
//! {"version": 1, "engine": "partition", "seed": 1,
//!  "graph": {"kind": "delaunay", "n": 2000},
//!  "k": 8, "objective": "cut", "ufactor": 30, "methods": ["kway", "rb", "linear"]}
//! ```

use super::generate::{GenKind, GenSpec};
use super::{Effort, Graph, Method, Objective};
use crate::error::{check_range, Result, ScenarioError};
use crate::formats::metis;
use crate::params::{choices, static_table, table_defaults, Param};
use serde::Deserialize;
use serde_json::json;

/// Most vertices of a graph, generated or read.
pub const MAX_VERTICES: u64 = 1_000_000;
/// Most undirected edges of a graph.
pub const MAX_EDGES: u64 = 10_000_000;
/// Most vertices of a complete graph (its edges grow as `n^2 / 2`).
pub const MAX_COMPLETE_VERTICES: u64 = 3_000;
/// Most parts.
pub const MAX_PARTS: u64 = 4_096;
/// Most methods compared in one scenario (each at most once).
pub const MAX_METHODS: usize = 5;
/// Largest `ufactor` (thousandths of allowed imbalance: 1000 lets a part weigh twice its target).
pub const MAX_UFACTOR: u64 = 1_000;
/// Estimated steps of work a scenario may need (see [`estimate`]).
pub const MAX_STEPS: f64 = crate::engine::MAX_SECONDS * 1e9 / NS_PER_STEP;
/// Estimated bytes of memory a scenario may need (see [`estimate`]).
pub const MAX_MEMORY: f64 = crate::engine::MAX_BYTES;
/// Tolerance of the sum of `targets` around 1.
pub const TARGET_SUM_TOLERANCE: f64 = 1e-6;

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PartScenario {
    pub graph: GraphSpec,
    #[serde(default = "d::k")]
    pub k: u64,
    #[serde(default = "d::objective")]
    pub objective: ObjectiveId,
    #[serde(default = "d::ufactor")]
    pub ufactor: u64,
    /// Target fraction of the total vertex weight per part (empty: equal parts).
    #[serde(default)]
    pub targets: Vec<f64>,
    #[serde(default = "d::methods")]
    pub methods: Vec<MethodId>,
}

/// Serde's defaults, read from the field table ([`params`]).
pub mod d {
    use super::*;
    table_defaults!(super::table;
        k: u64 = "k",
        objective: ObjectiveId = "objective",
        ufactor: u64 = "ufactor",
        methods: Vec<MethodId> = "methods",
        wrap: bool = "graph.wrap",
    );
}

/// Where the graph comes from. Flat rather than tagged so that every error keeps its JSON path.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GraphSpec {
    pub kind: GraphKind,
    /// Vertices (binary tree, star, complete, geometric, delaunay).
    pub n: Option<u64>,
    /// Grid and cube sides.
    pub width: Option<u64>,
    pub height: Option<u64>,
    pub depth: Option<u64>,
    /// Grid and cube: wrap around (torus).
    pub wrap: Option<bool>,
    /// Random geometric graph: connection radius in the unit square (default: the generator's).
    pub radius: Option<f64>,
    /// METIS graph file or edge list, as text.
    pub text: Option<String>,
    /// Coordinates (`.xyz` text: one line of 2 or 3 numbers per vertex), for drawing.
    pub coordinates: Option<String>,
}

choices! {
    pub enum GraphKind {
        Grid2d = ("grid2d", "2D grid"),
        Cube3d = ("cube3d", "3D cube"),
        BinaryTree = ("binaryTree", "Binary tree"),
        Star = ("star", "Star"),
        Complete = ("complete", "Complete graph"),
        Geometric = ("geometric", "Random geometric graph"),
        Delaunay = ("delaunay", "2D Delaunay mesh (random points)"),
        Metis = ("metis", "METIS graph file (text)"),
        EdgeList = ("edgeList", "Edge list (text: u v [w])"),
    }
}

impl GraphKind {
    /// Whether the graph is read from `graph.text`.
    pub fn is_file(self) -> bool {
        matches!(self, GraphKind::Metis | GraphKind::EdgeList)
    }
    fn gen_kind(self) -> Option<GenKind> {
        Some(match self {
            GraphKind::Grid2d => GenKind::Grid2d,
            GraphKind::Cube3d => GenKind::Cube3d,
            GraphKind::BinaryTree => GenKind::BinaryTree,
            GraphKind::Star => GenKind::Star,
            GraphKind::Complete => GenKind::Complete,
            GraphKind::Geometric => GenKind::Geometric,
            GraphKind::Delaunay => GenKind::Delaunay,
            GraphKind::Metis | GraphKind::EdgeList => return None,
        })
    }
}

choices! {
    pub enum ObjectiveId {
        Cut = ("cut", "Edge cut"),
        Volume = ("volume", "Communication volume"),
    }
}

impl ObjectiveId {
    pub fn objective(self) -> Objective {
        match self {
            ObjectiveId::Cut => Objective::Cut,
            ObjectiveId::Volume => Objective::Volume,
        }
    }
}

choices! {
    /// The methods the page compares side by side.
    #[derive(PartialOrd, Ord)]
    pub enum MethodId {
        /// Multilevel k-way (METIS `-ptype=kway`).
        Kway = ("kway", "Multilevel k-way"),
        /// Multilevel recursive bisection (METIS `-ptype=rb`).
        Rb = ("rb", "Multilevel recursive bisection"),
        /// Multilevel k-way in the quality mode ([`Effort::Strong`]).
        Strong = ("strong", "Multilevel k-way, quality mode"),
        /// Baseline: consecutive vertex ids.
        Linear = ("linear", "Linear (consecutive ids)"),
        /// Baseline: random parts.
        Random = ("random", "Random"),
    }
}

impl MethodId {
    /// The partitioner's method and effort.
    pub fn method(self) -> (Method, Effort) {
        match self {
            MethodId::Kway => (Method::Kway, Effort::Default),
            MethodId::Rb => (Method::Rb, Effort::Default),
            MethodId::Strong => (Method::Kway, Effort::Strong),
            MethodId::Linear => (Method::Linear, Effort::Default),
            MethodId::Random => (Method::Random, Effort::Default),
        }
    }
    /// Estimated steps per element of the graph (`V + 2E`) of `n` vertices at `k` parts, for
    /// admission and progress: the multilevel methods do a bounded number of passes per level
    /// over a hierarchy about twice the graph; recursive bisection repeats that on `log2 k`
    /// levels of halves; k-way cuts its coarsest graph (a fraction `f = min(c, V) / V` of the
    /// input, `c = max(V / (20 log2 k), 30 k)`) by recursive bisection, `b(k)` levels deep, which
    /// adds `f b(k)` terms; the quality mode repeats all of it in its tries and V-cycles.
    /// Calibrated on the 100,000-vertex Delaunay mesh (700,000 elements), where a step is about
    /// 10 ns natively: k-way took 0.13 s at k = 64, 0.78 s at 1,024 and 2.8 s at 4,096 (estimated
    /// 0.46, 1.4 and 4.1 s); the quality mode 1.5 s at k = 2, 5.2 s at 256 and 16 s at 1,024
    /// (estimated 4.2, 8.3 and 27 s).
    pub fn steps_per_element(self, n: u64, k: u64) -> f64 {
        let log2k = 64 - k.max(1).leading_zeros() as u64; // bit length b(k), 1 for k = 1
        let n32 = n.clamp(1, u64::from(u32::MAX)) as u32;
        let k32 = k.clamp(1, u64::from(u32::MAX)) as u32;
        let coarsest = u64::from(super::multilevel::coarsen_to(n32, k32)).min(n.max(1));
        let f = coarsest as f64 / n.max(1) as f64 * log2k as f64;
        match self {
            // with k <= 4 a second descent redoes the initial partition and the refinement on
            // the same hierarchy (about a third of the run: `multilevel::descents_per_hierarchy`)
            MethodId::Kway => 60.0 + 40.0 * f + if k <= 4 { 30.0 } else { 0.0 },
            MethodId::Rb => 30.0 * log2k as f64 + 30.0,
            MethodId::Strong => 500.0 + 1000.0 * f,
            MethodId::Linear => 2.0,
            MethodId::Random => 4.0,
        }
    }
}

impl GraphSpec {
    /// The generator's spec (generated kinds only), after [`validate_graph`].
    pub fn gen_spec(&self) -> Option<GenSpec> {
        let kind = self.kind.gen_kind()?;
        let dims = [
            self.width.unwrap_or(1) as u32,
            self.height.unwrap_or(1) as u32,
            self.depth.unwrap_or(1) as u32,
        ];
        Some(GenSpec {
            kind,
            n: self.n.unwrap_or(0) as u32,
            dims,
            wrap: self.wrap.unwrap_or_else(d::wrap),
            radius: self.radius,
        })
    }

    /// Vertices and edges the graph will have: exact for generators with a closed form, an upper
    /// bound for the random ones and for files (read from the METIS header, or counted lines).
    pub fn size_bound(&self) -> (u64, u64) {
        let n = self.n.unwrap_or(0);
        let (w, h, d) = (
            self.width.unwrap_or(1),
            self.height.unwrap_or(1),
            self.depth.unwrap_or(1),
        );
        let wrap = self.wrap.unwrap_or_else(d::wrap);
        // edges along one axis of length `s` in a row: s - 1, or s with wrap (when s > 2)
        let along = |s: u64| {
            if wrap && s > 2 {
                s
            } else {
                s.saturating_sub(1)
            }
        };
        match self.kind {
            GraphKind::Grid2d => (w * h, along(w) * h + along(h) * w),
            GraphKind::Cube3d => (
                w * h * d,
                along(w) * h * d + along(h) * w * d + along(d) * w * h,
            ),
            GraphKind::BinaryTree | GraphKind::Star => (n, n.saturating_sub(1)),
            GraphKind::Complete => (n, n * n.saturating_sub(1) / 2),
            // a Delaunay triangulation has at most 3n - 6 edges
            GraphKind::Delaunay => (n, 3 * n),
            // the expected degree of a geometric graph is n pi r^2; 4 r^2 n^2 bounds it loosely
            // (the generator's default radius keeps the expected degree below 32)
            GraphKind::Geometric => {
                let bound = match self.radius {
                    Some(r) => (4.0 * r * r * (n as f64) * (n as f64)).ceil() as u64,
                    None => 16 * n,
                };
                (n, bound.min(n * n.saturating_sub(1) / 2))
            }
            GraphKind::Metis | GraphKind::EdgeList => {
                let text = self.text.as_deref().unwrap_or("");
                // every line holds at most one vertex or edge; bytes / 2 bound the numbers
                let lines = text.lines().count() as u64;
                (lines.max(1), (text.len() as u64 / 2).max(1))
            }
        }
    }
}

/// Checks the graph fields against the kind and the size limits (before anything is built).
fn validate_graph(g: &GraphSpec) -> Result<()> {
    let present = [
        ("n", g.n.is_some()),
        ("width", g.width.is_some()),
        ("height", g.height.is_some()),
        ("depth", g.depth.is_some()),
        ("wrap", g.wrap.is_some()),
        ("radius", g.radius.is_some()),
        ("text", g.text.is_some()),
    ];
    let allowed: &[&str] = match g.kind {
        GraphKind::Grid2d => &["width", "height", "wrap"],
        GraphKind::Cube3d => &["width", "height", "depth", "wrap"],
        GraphKind::BinaryTree | GraphKind::Star | GraphKind::Complete | GraphKind::Delaunay => {
            &["n"]
        }
        GraphKind::Geometric => &["n", "radius"],
        GraphKind::Metis | GraphKind::EdgeList => &["text"],
    };
    for (f, p) in present {
        if p && !allowed.contains(&f) {
            return Err(ScenarioError::at(
                format!("graph.{f}"),
                format!(
                    "is not a field of kind \"{}\" (its fields: {})",
                    g.kind.id(),
                    allowed.join(", ")
                ),
            ));
        }
    }
    if g.coordinates.is_some() && !g.kind.is_file() {
        return Err(ScenarioError::at(
            "graph.coordinates",
            "a generated graph brings its own coordinates; coordinates go with kind \"metis\" or \"edgeList\"",
        ));
    }
    let need = |f: &str, v: Option<u64>, what: &str| {
        v.ok_or_else(|| ScenarioError::at(format!("graph.{f}"), format!("missing: {what}")))
    };
    match g.kind {
        GraphKind::Grid2d | GraphKind::Cube3d => {
            let sides = if g.kind == GraphKind::Grid2d {
                vec![("width", g.width), ("height", g.height)]
            } else {
                vec![("width", g.width), ("height", g.height), ("depth", g.depth)]
            };
            let mut total: u128 = 1;
            for (f, v) in sides {
                let v = need(f, v, "the number of vertices along this side")?;
                total *= u128::from(v);
            }
            if total > u128::from(MAX_VERTICES) {
                return Err(ScenarioError::at(
                    "graph",
                    format!("the graph has {total} vertices; the limit is {MAX_VERTICES}"),
                ));
            }
        }
        GraphKind::BinaryTree | GraphKind::Star | GraphKind::Delaunay | GraphKind::Geometric => {
            need("n", g.n, "the number of vertices")?;
        }
        GraphKind::Complete => {
            // a rule across fields: the table's range is every kind's
            let n = need("n", g.n, "the number of vertices")?;
            check_range("graph.n", n, 1, MAX_COMPLETE_VERTICES)?;
        }
        GraphKind::Metis | GraphKind::EdgeList => {
            if g.text.is_none() {
                return Err(ScenarioError::at(
                    "graph.text",
                    "missing: the text of the graph file",
                ));
            }
        }
    }
    Ok(())
}

/// A graph built from its spec, with drawing coordinates when it has them.
pub struct Built {
    pub graph: Graph,
    /// One point per vertex (z = 0 in 2D), empty when the graph has none.
    pub coords: Vec<[f64; 3]>,
    /// The file declared vertex weights / edge weights / vertex sizes (generated graphs: none).
    pub has_vwgt: bool,
    pub has_adjwgt: bool,
    pub has_vsize: bool,
}

/// Builds the graph of a scenario whose fields passed [`validate_graph`]: generated from `seed`
/// or read from `graph.text`, and its coordinates from `graph.coordinates`.
///
/// # Errors
/// A file error at `$.graph.text` whose message opens with the file's line (`line 7: ...`); a
/// coordinates error at `$.graph.coordinates` likewise; a generator refusal at `$.graph`.
pub fn build_graph(g: &GraphSpec, seed: u64) -> Result<Built> {
    let mut built = if let Some(spec) = g.gen_spec() {
        let gen = super::generate::generate(&spec, seed)
            .map_err(|e| ScenarioError::at("graph", e.to_string()))?;
        Built {
            graph: gen.graph,
            coords: gen.coords,
            has_vwgt: false,
            has_adjwgt: false,
            has_vsize: false,
        }
    } else {
        let text = g.text.as_deref().unwrap_or("");
        let file = if g.kind == GraphKind::Metis {
            metis::parse_metis(text)
        } else {
            metis::parse_edge_list(text)
        }
        .map_err(|e| ScenarioError::at("graph.text", e.to_string()))?;
        Built {
            graph: file.graph,
            coords: Vec::new(),
            has_vwgt: file.has_vwgt,
            has_adjwgt: file.has_adjwgt,
            has_vsize: file.has_vsize,
        }
    };
    let n = u64::from(built.graph.n());
    if n > MAX_VERTICES {
        return Err(ScenarioError::at(
            "graph.text",
            format!("the graph has {n} vertices; the limit is {MAX_VERTICES}"),
        ));
    }
    if built.graph.m() > MAX_EDGES {
        return Err(ScenarioError::at(
            "graph.text",
            format!(
                "the graph has {} edges; the limit is {MAX_EDGES}",
                built.graph.m()
            ),
        ));
    }
    if let Some(xyz) = &g.coordinates {
        built.coords = metis::parse_xyz(xyz, built.graph.n())
            .map_err(|e| ScenarioError::at("graph.coordinates", e.to_string()))?;
    }
    Ok(built)
}

/// The admission estimate of one scenario: steps of work and bytes of memory, upper bounds of
/// what the run does (see `docs/format.md`, "Limits and admission").
#[derive(Debug, Clone, PartialEq)]
pub struct Estimate {
    /// Steps of building the graph (generating or reading it) and drawing it.
    pub build_steps: f64,
    /// Steps of each method, in the order of `methods`.
    pub method_steps: Vec<f64>,
    pub memory: f64,
}

impl Estimate {
    pub fn steps(&self) -> f64 {
        self.build_steps + self.method_steps.iter().sum::<f64>()
    }
}

/// Estimates the work and memory of a scenario from the graph's size bound (`(n, m)`), `k` and
/// the methods.
///
/// - work: building costs `20 (V + 2E)` steps (a Delaunay mesh `40 V log2 V` more); each method
///   [`MethodId::steps_per_element`]` * (V + 2E)` plus `k` per level; the force layout
///   `LAYOUT_STEPS * 40 V + E` when it runs;
/// - memory: the CSR graph `4 (V + 1) + 8 * 2E + 8 V` bytes, four times over (the coarser levels
///   and the partitioner's work arrays), the coordinates `24 V`, and `8 V` per method (part
///   vectors and gains).
pub fn estimate(n: u64, m: u64, k: u64, methods: &[MethodId], kind: GraphKind) -> Estimate {
    let (nf, mf, kf) = (n as f64, m as f64, k as f64);
    let elements = nf + 2.0 * mf;
    let mut build = 20.0 * elements;
    if kind == GraphKind::Delaunay {
        let log2n = 64 - n.max(1).leading_zeros();
        build += 40.0 * nf * f64::from(log2n);
    }
    if n <= u64::from(super::layout::LAYOUT_MAX_VERTICES) {
        build += f64::from(super::layout::LAYOUT_STEPS) * (40.0 * nf + mf);
    }
    let method_steps = methods
        .iter()
        .map(|m| {
            let pairs = if *m == MethodId::Strong {
                STRONG_PAIR_STEPS * kf * kf
            } else {
                0.0
            };
            m.steps_per_element(n, k) * elements + 20.0 * kf + pairs
        })
        .collect();
    let graph_bytes = 4.0 * (nf + 1.0) + 16.0 * mf + 8.0 * nf;
    // measured peaks (`cargo bench --bench bounds -- partition`) reach 1.9 times the arrays
    // counted here, plus the process's own few MiB
    let memory = 2.0
        * (4.0 * graph_bytes + 24.0 * nf + 8.0 * nf * methods.len() as f64 + 16.0 * kf)
        + 8.0 * 1048576.0;
    Estimate {
        build_steps: build,
        method_steps,
        memory,
    }
}

/// Checks the fields that need no graph: `k`, `ufactor`, `targets`, `methods`, and the graph
/// fields against its kind and the limits.
pub fn validate_fields(s: &PartScenario) -> Result<()> {
    validate_graph(&s.graph)?;
    if s.methods.is_empty() || s.methods.len() > MAX_METHODS {
        return Err(ScenarioError::at(
            "methods",
            format!("give 1 to {MAX_METHODS} methods, got {}", s.methods.len()),
        ));
    }
    for (i, m) in s.methods.iter().enumerate() {
        if s.methods[..i].contains(m) {
            return Err(ScenarioError::at(
                format!("methods[{i}]"),
                format!("\"{}\" is listed twice", m.id()),
            ));
        }
    }
    if !s.targets.is_empty() {
        if s.targets.len() as u64 != s.k {
            return Err(ScenarioError::at(
                "targets",
                format!(
                    "give one target fraction per part: k = {}, got {}",
                    s.k,
                    s.targets.len()
                ),
            ));
        }
        let mut sum = 0.0;
        for &t in &s.targets {
            sum += t;
        }
        if (sum - 1.0).abs() > TARGET_SUM_TOLERANCE {
            return Err(ScenarioError::at(
                "targets",
                format!("the target fractions must sum to 1, got {sum}"),
            ));
        }
    }
    Ok(())
}

/// The quality mode's steps per pair of parts, `32 k^2` besides its steps per element: with
/// parts of a few vertices (k = 4,096 on a 10,503-vertex Delaunay mesh) the per-element count
/// alone estimated 10 s where the run took 18.6 s (`cargo bench --bench bounds -- partition`);
/// on the 100,000-vertex mesh at k <= 1,024 the term adds under 2 %.
pub const STRONG_PAIR_STEPS: f64 = 32.0;

/// Native nanoseconds per estimated step ([`Estimate::steps`]), the partitioning engine's work
/// unit (measured on the 100,000-vertex Delaunay mesh, see [`MethodId::steps_per_element`]):
/// `cargo bench --bench bounds -- partition` measured 0.76 to 1.14 times the estimated time on
/// the largest admitted graphs (the quality mode at k = 4,096, all five methods at k = 64,
/// k-way on a binary tree at k = 4,096) on our shared 2-core machine.
pub const NS_PER_STEP: f64 = 10.0;

impl Estimate {
    /// The engine-wide estimate ([`crate::engine::Estimate`]): steps at [`NS_PER_STEP`].
    pub fn shared(&self) -> crate::engine::Estimate {
        crate::engine::Estimate::new(self.steps(), NS_PER_STEP, self.memory)
    }
}

/// Refuses, before running, a scenario whose estimate is over the budget
/// ([`crate::engine::MAX_SECONDS`], [`crate::engine::MAX_BYTES`]).
fn admit(est: &Estimate, s: &PartScenario, n: u64, m: u64) -> Result<()> {
    let per = s
        .methods
        .iter()
        .zip(&est.method_steps)
        .map(|(m, st)| format!("{} {st:.1e}", m.id()))
        .collect::<Vec<_>>()
        .join(", ");
    est.shared().admit(
        "graph",
        "steps",
        &format!(
            "{n} vertices and {m} edges; building and drawing {:.1e}, per method: {per}",
            est.build_steps
        ),
        "use a smaller graph or fewer methods",
    )
}

/// The admission estimate of a scenario ([`estimate`] of its graph's size bound, or of the
/// file's graph as read).
///
/// # Errors
/// What [`validate`] refuses besides the estimate.
pub fn engine_estimate(s: &PartScenario) -> Result<crate::engine::Estimate> {
    validate_fields(s)?;
    let (n, m) = if s.graph.kind.is_file() {
        let built = build_graph(&s.graph, 0)?;
        (u64::from(built.graph.n()), built.graph.m())
    } else {
        s.graph.size_bound()
    };
    Ok(estimate(n, m, s.k, &s.methods, s.graph.kind).shared())
}

/// Checks the whole scenario before any work starts: the fields, the estimate from the graph's
/// size bound, and for files the file itself (read once here; its errors name their line).
pub fn validate(s: &PartScenario) -> Result<()> {
    validate_fields(s)?;
    let (n, m) = s.graph.size_bound();
    if !s.graph.kind.is_file() && m > MAX_EDGES {
        return Err(ScenarioError::at(
            "graph",
            format!("the graph would have up to {m} edges; the limit is {MAX_EDGES}"),
        ));
    }
    admit(&estimate(n, m, s.k, &s.methods, s.graph.kind), s, n, m)?;
    if s.graph.kind.is_file() {
        // files are read here so that their errors come before any work; generated graphs are
        // checked by their fields alone (the generator cannot fail on valid fields)
        let built = build_graph(&s.graph, 0)?;
        let (n, m) = (u64::from(built.graph.n()), built.graph.m());
        admit(&estimate(n, m, s.k, &s.methods, s.graph.kind), s, n, m)?;
    }
    Ok(())
}

const GRID_KINDS: &[&str] = &["grid2d", "cube3d"];
const N_KINDS: &[&str] = &["delaunay", "geometric", "binaryTree", "star", "complete"];

/// The partitioning engine's field table: each field's path, label, kind, default, range and
/// options, stated once (see [`crate::params`]).
pub fn params() -> Vec<Param> {
    table().to_vec()
}

/// The field table, built once.
pub fn table() -> &'static [Param] {
    static_table!(build_table)
}

fn build_table() -> Vec<Param> {
    let sizes = |p: Param| p.range(1.0, MAX_VERTICES as f64).unit("vertices");
    vec![
        Param::new("graph.kind", "Graph", "enum", json!(null)).options(GraphKind::options()),
        sizes(Param::new("graph.n", "Vertices", "int", json!(null)))
            .help("a complete graph has up to 3,000")
            .show_if_any("graph.kind", N_KINDS),
        sizes(Param::new("graph.width", "Width", "int", json!(null)))
            .show_if_any("graph.kind", GRID_KINDS),
        sizes(Param::new("graph.height", "Height", "int", json!(null)))
            .show_if_any("graph.kind", GRID_KINDS),
        sizes(Param::new("graph.depth", "Depth", "int", json!(null)))
            .show_if("graph.kind", "cube3d"),
        Param::new("graph.wrap", "Wrap around (torus)", "bool", json!(false))
            .show_if_any("graph.kind", GRID_KINDS),
        Param::new("graph.radius", "Radius", "number", json!(null))
            .range(1e-6, 1.5)
            .empty("the generator's default")
            .help("random geometric graph: vertices closer than this (unit square) are joined")
            .show_if("graph.kind", "geometric"),
        Param::new("k", "Parts k", "int", json!(8)).range(1.0, MAX_PARTS as f64),
        Param::new("objective", "Objective", "enum", json!("cut")).options(ObjectiveId::options()),
        Param::new("ufactor", "Imbalance tolerance", "int", json!(30))
            .range(1.0, MAX_UFACTOR as f64)
            .unit("‰")
            .help("a part may weigh up to (1 + ufactor/1000) times its target, as METIS -ufactor"),
        Param::new(
            "methods",
            "Methods (side by side)",
            "multi",
            json!(["kway", "rb", "linear"]),
        )
        .options(MethodId::options()),
        Param::rule("targets[]", "number").range(0.0, 1.0),
        Param::new("seed", "Seed", "uint64", json!(1))
            .help("a whole number from 0 to 18446744073709551615"),
    ]
}
