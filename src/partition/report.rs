//! The partitioning report (see `docs/format.md`, "Partitioning report"): the graph, each
//! method's figures recounted from its part vector by [`super::metrics`], and what the page
//! needs to draw it, all within a byte cap.

use super::layout;
use super::metrics;
use super::Graph;
use serde::Serialize;

/// Most bytes of a report (the JSON envelope included): 32 MiB, as the allocation engine's.
pub const REPORT_BYTE_CAP: usize = 32 << 20;
/// Of the cap, the bytes kept for everything but part vectors and the drawing.
pub const FIXED_BYTES: usize = 1 << 20;
/// Most vertices drawn one by one (with their coordinates); bigger graphs are drawn as their
/// part-to-part graph.
pub const MAX_DRAWN_VERTICES: u32 = 250_000;
/// Most edges listed for the drawing (the first ones in vertex order); `omitted.edges` counts
/// the rest.
pub const MAX_DRAWN_EDGES: u64 = 400_000;
/// Most part-to-part edges listed per method (the heaviest ones).
pub const MAX_QUOTIENT_EDGES: usize = 20_000;

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PartReport {
    pub graph: GraphInfo,
    pub k: u32,
    pub objective: &'static str,
    pub ufactor: u32,
    /// The target fraction of each part (equal parts when the scenario gives none).
    pub targets: Vec<f64>,
    /// Largest allowed `imbalance`: `1 + ufactor / 1000`.
    pub max_imbalance: f64,
    pub runs: Vec<RunReport>,
    pub drawing: Drawing,
    pub omitted: Omitted,
}

/// The graph as read or generated.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GraphInfo {
    /// `graph.kind` of the scenario.
    pub kind: &'static str,
    pub vertices: u32,
    pub edges: u64,
    pub total_vertex_weight: u64,
    pub total_edge_weight: u64,
    pub min_degree: u32,
    pub max_degree: u32,
    /// Connected components (an isolated vertex is one).
    pub components: u32,
    /// Vertices of the largest component.
    pub largest_component: u32,
    /// Vertices without edges.
    pub isolated: u32,
    /// Eccentricity of a pseudo-peripheral vertex of the largest component (George and Liu):
    /// a lower bound of its diameter, in edges.
    pub pseudo_diameter: u32,
    /// Whether the file gave vertex weights / edge weights / vertex sizes (else all 1).
    pub vertex_weights: bool,
    pub edge_weights: bool,
    pub vertex_sizes: bool,
    /// Whether the graph has coordinates (generated geometry or `graph.coordinates`).
    pub coordinates: bool,
}

/// One method's partition.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RunReport {
    pub method: &'static str,
    pub label: &'static str,
    /// Sum of the weights of edges between parts.
    pub edge_cut: u64,
    /// Number of edges between parts.
    pub cut_edges: u64,
    /// Total communication volume (METIS `objtype=vol`).
    pub comm_volume: u64,
    /// Vertices with a neighbour in another part.
    pub boundary_vertices: u32,
    /// `max_p partWeights[p] / (targets[p] * total vertex weight)`; `null` when a part with a zero
    /// target holds weight.
    pub imbalance: f64,
    /// Whether `imbalance <= maxImbalance`.
    pub balanced: bool,
    /// Parts without any vertex.
    pub empty_parts: u32,
    /// Vertex weight of each part.
    pub part_weights: Vec<u64>,
    /// Vertex counts of the multilevel hierarchy, finest first (one entry for baselines).
    pub levels: Vec<u32>,
    /// The part of each vertex (`null` when left out to keep the report within its cap:
    /// `omitted.parts` names the method).
    pub part: Option<Vec<u32>>,
    /// The part-to-part graph, when the drawing is of `kind` `quotient`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub quotient: Option<Quotient>,
}

/// The part-to-part (quotient) graph of a partition: parts as discs, edges by cut weight.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Quotient {
    /// Drawing position of each part, `x0, y0, x1, y1, ...` from 0 to 10,000.
    pub xy: Vec<u32>,
    /// `p, q, weight` triples (`p < q`), heaviest first, at most 20,000.
    pub edges: Vec<u64>,
    /// Part pairs with cut edges left out of `edges`.
    pub omitted_edges: u64,
    /// The heaviest spanning forest of the part-to-part graph (petgraph's Kruskal,
    /// [`super::analysis::max_spanning_forest`]): `p, q, weight` triples, heaviest first, at most
    /// `k - 1`; the drawing shows them as the partition's backbone.
    pub tree: Vec<u64>,
}

/// What the page draws vertex by vertex.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Drawing {
    /// `coordinates` (the graph's own), `layout` (force-directed, seeded) or `quotient` (too big
    /// to draw vertex by vertex: each run carries its part-to-part graph).
    pub kind: &'static str,
    /// Position of each vertex, `x0, y0, x1, y1, ...`, whole numbers from 0 to 10,000 (`y` down);
    /// empty for `quotient`.
    pub xy: Vec<u32>,
    /// Edges drawn, `u0, v0, u1, v1, ...` with `u < v`, in vertex order; at most 400,000.
    pub edges: Vec<u32>,
}

/// What the report leaves out to stay within [`REPORT_BYTE_CAP`] (figures are always complete).
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Omitted {
    /// Methods whose part vector is left out (`part` is `null`).
    pub parts: Vec<&'static str>,
    /// Edges of the graph not listed in `drawing.edges`.
    pub edges: u64,
}

/// The figures of one partition, all recounted from `part` by [`metrics`].
///
/// # Complexity
/// `O(V + E + k)`.
pub fn run_report(
    g: &Graph,
    part: Vec<u32>,
    levels: Vec<u32>,
    k: u32,
    targets: &[f64],
    max_imbalance: f64,
    method: (&'static str, &'static str),
) -> RunReport {
    let part_weights = metrics::part_weights(g, &part, k);
    let imbalance = metrics::imbalance(&part_weights, targets);
    let mut cut_edges = 0u64;
    let mut boundary = 0u32;
    for v in 0..g.n() {
        let pv = part[v as usize];
        let mut on_boundary = false;
        for &u in g.neighbors(v) {
            if part[u as usize] != pv {
                on_boundary = true;
                if u > v {
                    cut_edges += 1;
                }
            }
        }
        boundary += u32::from(on_boundary);
    }
    let mut sizes = vec![0u32; k as usize];
    for &p in &part {
        sizes[p as usize] += 1;
    }
    RunReport {
        method: method.0,
        label: method.1,
        edge_cut: metrics::edge_cut(g, &part),
        cut_edges,
        comm_volume: metrics::comm_volume(g, &part, k),
        boundary_vertices: boundary,
        imbalance,
        balanced: imbalance <= max_imbalance,
        empty_parts: sizes.iter().filter(|&&s| s == 0).count() as u32,
        part_weights,
        levels,
        part: Some(part),
        quotient: None,
    }
}

/// The part-to-part graph of `part` ([`super::analysis::quotient_graph`], petgraph): cut weight
/// summed per pair of parts, the heaviest [`MAX_QUOTIENT_EDGES`] pairs kept (ties by part ids),
/// and disc positions from a force layout of that graph (seeded, so the same on every target).
///
/// # Complexity
/// `O(E log E)` for the pairs, plus the layout of a `k`-vertex graph.
pub fn quotient(g: &Graph, part: &[u32], k: u32, seed: u64) -> Quotient {
    let q = super::analysis::quotient_graph(g, part, k);
    let tree = super::analysis::max_spanning_forest(&q);
    let mut merged: Vec<(u32, u32, u64)> = q
        .edge_indices()
        .map(|e| {
            let (a, b) = q.edge_endpoints(e).expect("an edge of the graph");
            (a.index() as u32, b.index() as u32, q[e])
        })
        .collect();
    let qgraph = Graph::from_edges(
        k,
        &merged
            .iter()
            .map(|&(p, q, _)| (p, q, 1))
            .collect::<Vec<_>>(),
    )
    .expect("quotient edges are distinct part pairs below k");
    let steps = if k <= layout::LAYOUT_MAX_VERTICES {
        layout::LAYOUT_STEPS
    } else {
        50
    };
    let pos = layout::force_layout(&qgraph, seed, steps);
    merged.sort_unstable_by(|a, b| b.2.cmp(&a.2).then(a.0.cmp(&b.0)).then(a.1.cmp(&b.1)));
    let omitted = merged.len().saturating_sub(MAX_QUOTIENT_EDGES) as u64;
    merged.truncate(MAX_QUOTIENT_EDGES);
    Quotient {
        xy: layout::quantize(&pos),
        edges: merged
            .into_iter()
            .flat_map(|(p, q, w)| [u64::from(p), u64::from(q), w])
            .collect(),
        omitted_edges: omitted,
        tree: tree
            .into_iter()
            .flat_map(|(p, q, w)| [u64::from(p), u64::from(q), w])
            .collect(),
    }
}

/// The edges drawn (`u < v`, vertex order, at most [`MAX_DRAWN_EDGES`]) and how many are left
/// out.
pub fn drawn_edges(g: &Graph) -> (Vec<u32>, u64) {
    let cap = MAX_DRAWN_EDGES.min(g.m()) as usize;
    let mut out = Vec::with_capacity(2 * cap);
    'all: for v in 0..g.n() {
        for &u in g.neighbors(v) {
            if u > v {
                if out.len() / 2 >= cap {
                    break 'all;
                }
                out.push(v);
                out.push(u);
            }
        }
    }
    let listed = out.len() as u64 / 2;
    (out, g.m() - listed)
}

/// Bytes of the JSON text of a list of whole numbers (digits and commas).
pub fn json_list_bytes<I: IntoIterator<Item = u64>>(values: I) -> usize {
    values
        .into_iter()
        .map(|v| {
            let mut digits = 1;
            let mut x = v;
            while x >= 10 {
                x /= 10;
                digits += 1;
            }
            digits + 1
        })
        .sum::<usize>()
        + 2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_list_bytes_counts_the_serialized_text() {
        let v: Vec<u64> = vec![0, 7, 12, 345, 1_000_000];
        assert_eq!(
            json_list_bytes(v.iter().copied()),
            serde_json::to_string(&v).unwrap().len() + 1
        );
    }

    #[test]
    fn quotient_sums_cut_weight_per_part_pair() {
        // a path 0-1-2-3 with weights 5, 6, 7 cut into parts 0 | 1 1 | 2
        let g = Graph::from_edges(4, &[(0, 1, 5), (1, 2, 6), (2, 3, 7)]).unwrap();
        let q = quotient(&g, &[0, 1, 1, 2], 3, 1);
        assert_eq!(q.edges, vec![1, 2, 7, 0, 1, 5]);
        assert_eq!(q.omitted_edges, 0);
        assert_eq!(q.xy.len(), 6);
    }
}
