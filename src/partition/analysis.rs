//! Facts about a graph and a partition that the report and the drawing show: sizes, degrees,
//! connected components, a breadth-first order from a pseudo-peripheral vertex (and the
//! pseudo-diameter it yields), and the part-to-part (quotient) graph with a spanning tree of
//! its heaviest edges, the backbone of the drawing of a partition too large to draw vertex by
//! vertex.
//!
//! # petgraph or the CSR arrays
//! `petgraph` serves where a general, well-tested structure or algorithm is worth more than a
//! few percent of speed: [`to_petgraph`] holds a graph as a `petgraph::graph::UnGraph` (for
//! callers that edit or explore it, e.g. the page's task graphs); connected components use
//! petgraph's `UnionFind` (union by rank, path compression: `O(E α(V))`) directly over the CSR
//! edges, without building a second copy of the graph; and the quotient graph, which has only
//! `k` nodes, is an `UnGraph` on which petgraph's Kruskal (`min_spanning_tree`) finds the
//! spanning tree. The loops that run over every edge of a large graph several times (the
//! breadth-first searches of the pseudo-diameter, the degree and weight sums, the quotient
//! accumulation) stay on the flat `xadj`/`adjncy` arrays: they are cache-friendly and use `u32`
//! indices, while petgraph's adjacency lists are linked lists of edges (two `u32` links per
//! edge end) that a BFS would chase. The tests check the CSR searches against petgraph's own
//! `Bfs` and `connected_components` on random graphs.

use super::graph::Graph;
use petgraph::graph::{NodeIndex, UnGraph};
use petgraph::unionfind::UnionFind;
use std::cmp::Reverse;

/// The figures of a graph the report shows (definitions in `docs/format.md`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GraphSummary {
    pub vertices: u32,
    /// Undirected edges.
    pub edges: u64,
    /// Connected components (an isolated vertex is one).
    pub components: u32,
    /// Vertices of the largest component.
    pub largest_component: u32,
    /// Vertices without neighbours.
    pub isolated: u32,
    pub min_degree: u32,
    pub max_degree: u32,
    pub total_vertex_weight: u64,
    /// Sum of the edge weights, each undirected edge once.
    pub total_edge_weight: u64,
    /// Eccentricity of the pseudo-peripheral vertex found in the largest component (see
    /// [`pseudo_peripheral`]): a lower bound of that component's diameter, usually equal.
    pub pseudo_diameter: u32,
}

/// The graph as a petgraph `UnGraph`: node `i` is vertex `i` with its vertex weight, one edge
/// per undirected edge (`u < v`, in CSR order) with its weight.
///
/// # Complexity
/// `O(V + E)`.
pub fn to_petgraph(g: &Graph) -> UnGraph<u32, u32> {
    let mut pg = UnGraph::with_capacity(g.n() as usize, g.m() as usize);
    for v in 0..g.n() {
        pg.add_node(g.vwgt[v as usize]);
    }
    for v in 0..g.n() {
        for (&u, &w) in g.neighbors(v).iter().zip(g.edge_weights(v)) {
            if v < u {
                pg.add_edge(NodeIndex::new(v as usize), NodeIndex::new(u as usize), w);
            }
        }
    }
    pg
}

/// Connected components: `(label, count)`, where `label[v]` is the component of `v`, numbered
/// `0..count` in the order of their smallest vertex.
///
/// # Complexity
/// `O(V + E α(V))` (petgraph's union-find over the CSR edges).
pub fn components(g: &Graph) -> (Vec<u32>, u32) {
    let n = g.n();
    let mut uf: UnionFind<u32> = UnionFind::new(n as usize);
    for v in 0..n {
        for &u in g.neighbors(v) {
            if v < u {
                uf.union(v, u);
            }
        }
    }
    let roots = uf.into_labeling();
    let mut id_of_root = vec![u32::MAX; n as usize];
    let mut label = Vec::with_capacity(n as usize);
    let mut count = 0u32;
    for &r in &roots {
        let slot = &mut id_of_root[r as usize];
        if *slot == u32::MAX {
            *slot = count;
            count += 1;
        }
        label.push(*slot);
    }
    (label, count)
}

/// Breadth-first order of the vertices reachable from `start`, neighbours visited in CSR
/// order, and the depth of the last one (the eccentricity of `start` in its component).
///
/// # Complexity
/// `O(V + E)` of the component (plus `O(V)` for the marks).
pub fn bfs_order(g: &Graph, start: u32) -> (Vec<u32>, u32) {
    let mut depth = vec![u32::MAX; g.n() as usize];
    let (order, ecc, _) = bfs_with(g, start, &mut depth);
    (order, ecc)
}

/// BFS from `start` with `depth` all `u32::MAX` on entry (and again on return): the order, the
/// eccentricity of `start`, and the index in the order where the last level begins (BFS pushes
/// vertices by non-decreasing depth, so the last level is a suffix).
fn bfs_with(g: &Graph, start: u32, depth: &mut [u32]) -> (Vec<u32>, u32, usize) {
    let mut order = vec![start];
    depth[start as usize] = 0;
    let (mut ecc, mut last_start) = (0u32, 0usize);
    let mut head = 0;
    while head < order.len() {
        let v = order[head];
        head += 1;
        let d = depth[v as usize] + 1;
        for &u in g.neighbors(v) {
            if depth[u as usize] == u32::MAX {
                depth[u as usize] = d;
                if d > ecc {
                    ecc = d;
                    last_start = order.len();
                }
                order.push(u);
            }
        }
    }
    for &v in &order {
        depth[v as usize] = u32::MAX;
    }
    (order, ecc, last_start)
}

/// A pseudo-peripheral vertex of `start`'s component and its eccentricity (George and Liu,
/// 1979): BFS from the current vertex; among the vertices of the last level take the one of
/// least degree (smallest id on ties); repeat while the eccentricity grows. The result is a
/// vertex at one end of a long shortest path; its eccentricity is a lower bound of the
/// component's diameter (equal on paths and on grids from a corner). A BFS from it is the
/// level order that bandwidth-reducing orderings (Cuthill–McKee) and graph-growing bisection
/// start from.
///
/// # Complexity
/// `O(r (V + E))` for `r` rounds, each a BFS of the component; `r` is small (2 to 5 on meshes)
/// and at most the diameter.
pub fn pseudo_peripheral(g: &Graph, start: u32) -> (u32, u32) {
    let mut depth = vec![u32::MAX; g.n() as usize];
    let mut v = start;
    let (mut order, mut ecc, mut last) = bfs_with(g, v, &mut depth);
    loop {
        let cand = order[last..]
            .iter()
            .copied()
            .min_by_key(|&u| (g.neighbors(u).len(), u))
            .unwrap_or(v);
        let (o2, e2, l2) = bfs_with(g, cand, &mut depth);
        if e2 <= ecc {
            return (v, ecc);
        }
        (v, order, ecc, last) = (cand, o2, e2, l2);
    }
}

/// Every vertex in breadth-first order, one component after the other (components in the
/// order of their smallest vertex), each searched from a pseudo-peripheral vertex (see
/// [`pseudo_peripheral`], started from the component's smallest vertex). Vertices of a
/// component are contiguous and sweep it level by level from one end: the ordering
/// Cuthill–McKee refines, and a good starting order for layouts and graph growing.
///
/// # Complexity
/// `O(r (V + E))`, `r` the most George–Liu rounds of a component.
pub fn peripheral_bfs_order(g: &Graph) -> Vec<u32> {
    let (label, count) = components(g);
    let mut order = Vec::with_capacity(g.n() as usize);
    let mut depth = vec![u32::MAX; g.n() as usize];
    let mut next = 0u32;
    for v in 0..g.n() {
        if label[v as usize] == next {
            let (start, _) = pseudo_peripheral(g, v);
            order.extend(bfs_with(g, start, &mut depth).0);
            next += 1;
        }
    }
    debug_assert_eq!(next, count);
    order
}

/// The [`GraphSummary`] of `g`.
///
/// # Complexity
/// `O(V + E α(V))` plus the pseudo-peripheral search on the largest component,
/// `O(r (V + E))`.
///
/// # Example
/// ```
/// use placelab::partition::analysis::summarize;
/// use placelab::partition::Graph;
/// // A path 0-1-2 (edge weights 2 and 3) and an isolated vertex 3.
/// let g = Graph::from_edges(4, &[(0, 1, 2), (1, 2, 3)]).unwrap();
/// let s = summarize(&g);
/// assert_eq!((s.components, s.largest_component, s.isolated), (2, 3, 1));
/// assert_eq!((s.total_edge_weight, s.pseudo_diameter), (5, 2));
/// ```
pub fn summarize(g: &Graph) -> GraphSummary {
    let n = g.n();
    let mut s = GraphSummary {
        vertices: n,
        edges: g.m(),
        total_vertex_weight: g.total_vwgt(),
        total_edge_weight: g.adjwgt.iter().map(|&w| u64::from(w)).sum::<u64>() / 2,
        min_degree: if n == 0 { 0 } else { u32::MAX },
        ..GraphSummary::default()
    };
    for v in 0..n {
        let d = g.neighbors(v).len() as u32;
        s.min_degree = s.min_degree.min(d);
        s.max_degree = s.max_degree.max(d);
        s.isolated += u32::from(d == 0);
    }
    let (label, count) = components(g);
    s.components = count;
    let mut sizes = vec![0u32; count as usize];
    for &c in &label {
        sizes[c as usize] += 1;
    }
    // The largest component (the first one on ties) and its smallest vertex.
    if let Some((big, &size)) = sizes
        .iter()
        .enumerate()
        .max_by_key(|&(i, &sz)| (sz, Reverse(i)))
    {
        s.largest_component = size;
        let first = label.iter().position(|&c| c as usize == big).unwrap() as u32;
        s.pseudo_diameter = pseudo_peripheral(g, first).1;
    }
    s
}

/// The quotient graph of a partition: node `p` is part `p` with its total vertex weight; an
/// edge joins two parts when some edge of `g` crosses between them, weighted by the total
/// weight of the crossing edges (so the edge weights sum to the edge cut). Edges are added in
/// order of `(p, q)`, `p < q`.
///
/// # Complexity
/// `O(V + E + k + Q log Q)` for `Q` quotient edges.
pub fn quotient_graph(g: &Graph, part: &[u32], k: u32) -> UnGraph<u64, u64> {
    let mut pairs: Vec<(u32, u32, u64)> = Vec::new();
    let mut weights = vec![0u64; k as usize];
    for v in 0..g.n() {
        let pv = part[v as usize];
        weights[pv as usize] += u64::from(g.vwgt[v as usize]);
        for (&u, &w) in g.neighbors(v).iter().zip(g.edge_weights(v)) {
            let pu = part[u as usize];
            if v < u && pu != pv {
                pairs.push((pv.min(pu), pv.max(pu), u64::from(w)));
            }
        }
    }
    let mut q = UnGraph::with_capacity(k as usize, 0);
    for &w in &weights {
        q.add_node(w);
    }
    for (a, b, w) in sum_pairs(pairs) {
        q.add_edge(NodeIndex::new(a as usize), NodeIndex::new(b as usize), w);
    }
    q
}

/// The quotient's edges from one `(a, b, w)` per cut edge: one `(a, b, total weight)` per pair,
/// sorted by `(a, b)` (the weights saturate instead of overflowing).
pub fn sum_pairs(mut pairs: Vec<(u32, u32, u64)>) -> Vec<(u32, u32, u64)> {
    pairs.sort_unstable_by_key(|&(a, b, _)| (a, b));
    let mut out: Vec<(u32, u32, u64)> = Vec::new();
    for (a, b, w) in pairs {
        match out.last_mut() {
            Some(last) if (last.0, last.1) == (a, b) => last.2 = last.2.saturating_add(w),
            _ => out.push((a, b, w)),
        }
    }
    out
}

/// A maximum-weight spanning forest of the quotient graph: the heaviest part-to-part
/// connections that keep every connected group of parts connected, as `(p, q, weight)` with
/// `p < q`, heaviest first. A drawing places parts joined by these edges close together.
/// petgraph's `min_spanning_tree` (Kruskal) runs on the key `(Reverse(weight), p, q)`, a total
/// order, so ties are broken by part ids and the forest is the same on every target.
///
/// # Complexity
/// `O(V + E + Q log Q)`.
pub fn quotient_spanning_tree(g: &Graph, part: &[u32], k: u32) -> Vec<(u32, u32, u64)> {
    max_spanning_forest(&quotient_graph(g, part, k))
}

/// [`quotient_spanning_tree`] of a quotient graph already built by [`quotient_graph`].
pub fn max_spanning_forest(q: &UnGraph<u64, u64>) -> Vec<(u32, u32, u64)> {
    let keyed = q.map(
        |_, &w| w,
        |e, &w| {
            let (a, b) = q.edge_endpoints(e).unwrap();
            (Reverse(w), a.index() as u32, b.index() as u32)
        },
    );
    let mut out: Vec<(u32, u32, u64)> = petgraph::algo::min_spanning_tree(&keyed)
        .filter_map(|el| match el {
            petgraph::data::Element::Edge { weight, .. } => Some((weight.1, weight.2, weight.0 .0)),
            petgraph::data::Element::Node { .. } => None,
        })
        .collect();
    out.sort_unstable_by_key(|&(a, b, w)| (Reverse(w), a, b));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(n: u32) -> Graph {
        let e: Vec<(u32, u32, u32)> = (1..n).map(|i| (i - 1, i, 1)).collect();
        Graph::from_edges(n, &e).unwrap()
    }

    #[test]
    fn a_path_has_its_length_as_pseudo_diameter_from_any_start() {
        let g = path(9);
        for s in 0..9 {
            let (v, d) = pseudo_peripheral(&g, s);
            assert_eq!(d, 8);
            assert!(v == 0 || v == 8);
        }
    }

    #[test]
    fn summary_of_two_paths_and_an_isolated_vertex() {
        let e = [(0, 1, 2), (1, 2, 3), (3, 4, 1)];
        let g = Graph::from_edges(6, &e).unwrap();
        let s = summarize(&g);
        assert_eq!(
            s,
            GraphSummary {
                vertices: 6,
                edges: 3,
                components: 3,
                largest_component: 3,
                isolated: 1,
                min_degree: 0,
                max_degree: 2,
                total_vertex_weight: 6,
                total_edge_weight: 6,
                pseudo_diameter: 2,
            }
        );
    }
}
