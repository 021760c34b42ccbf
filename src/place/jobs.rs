//! Jobs: weighted task graphs. A vertex is a task (process), its weight the
//! compute it does per round in units of `compute`; an edge is a pair of tasks exchanging data,
//! its weight the volume per round in units of `messageBytes`, sent once in each direction.
//!
//! Built-ins, on the partitioning engine's generators ([`crate::partition::generate`]):
//! - `STAR`: every task exchanges with task 0;
//! - `GRID`: 2D nearest neighbour on the most square `a x b = P` (`a <= b`, `a` the largest
//!   divisor of `P` not above `sqrt P`), task `x + a * y`; `wrap` closes rows and columns of
//!   side 3 or more into rings;
//! - `CUBE`: 3D nearest neighbour on the most cubic `a x b x c = P` (`a` the largest divisor not
//!   above `cbrt P`, then `b x c` the most square factors of `P / a`), task `x + a (y + b z)`;
//! - `TREE`: binary heap tree, parent of `i > 0` is `(i - 1) / 2`;
//! - `FULL`: all to all;
//! - `graph`: a METIS graph file or an edge list (vertex weights and edge weights honoured).
//!
//! The source sizes GRID as `floor(sqrt P)^2` and CUBE as `round(cbrt P)^3` tasks and leaves the
//! others idle; factoring `P` keeps every requested process busy and equals the source's shape
//! whenever `P` is a square (cube), as in all of its experiments' sizes that are powers of 4 (8).
//!
//! # Complexity
//! `O(P + E)` to build, `E` the task graph's edges (`P^2 / 2` for FULL).

use crate::formats::metis;
use crate::graph::{Graph, GraphError};
use crate::partition::generate::{generate, GenKind, GenSpec};

crate::params::choices! {
    /// The task graph families.
    pub enum JobKind {
        Star = ("STAR", "STAR", "STAR (all to task 0)"),
        Grid = ("GRID", "GRID", "GRID (2D nearest neighbour)"),
        Cube = ("CUBE", "CUBE", "CUBE (3D nearest neighbour)"),
        Tree = ("TREE", "TREE", "TREE (binary tree)"),
        Full = ("FULL", "FULL", "FULL (all to all)"),
        /// A METIS graph file in `graph`.
        Metis = ("metis", "METIS graph file (text)"),
        /// An edge list (`u v [w]` lines, 0-based) in `graph`.
        EdgeList = ("edgeList", "Edge list (text: u v [w])"),
    }
}

impl JobKind {
    /// Whether the graph is read from the job's `graph` text.
    pub fn is_file(self) -> bool {
        matches!(self, JobKind::Metis | JobKind::EdgeList)
    }
}

/// A job's task graph and, for GRID and CUBE, its shape (for the Identity strategy).
#[derive(Debug, Clone, PartialEq)]
pub struct TaskGraph {
    pub graph: Graph,
    /// Sides `[a, b, c]` of a GRID (`c = 1`) or CUBE, task `x + a (y + b z)`.
    pub shape: Option<[u32; 3]>,
    /// Whether the shape's rings are closed.
    pub wrap: bool,
}

/// The largest divisor of `p` whose `k`-th power is at most `p`.
fn root_divisor(p: u32, k: u32) -> u32 {
    let mut best = 1;
    let mut d = 1u32;
    while u64::from(d).pow(k) <= u64::from(p) {
        if p % d == 0 {
            best = d;
        }
        d += 1;
    }
    best
}

/// The most square `[a, b]`, `a * b = p`, `a <= b`.
pub fn grid_shape(p: u32) -> [u32; 2] {
    let a = root_divisor(p, 2);
    [a, p / a]
}

/// The most cubic `[a, b, c]`, `a * b * c = p`, `a <= b <= c`.
pub fn cube_shape(p: u32) -> [u32; 3] {
    let a = root_divisor(p, 3);
    let [b, c] = grid_shape(p / a);
    [a, b, c]
}

/// Builds the task graph of `kind` with `p` tasks (`graph` text for the file kinds).
///
/// # Errors
/// A generator refusal, or a file error whose message opens with the line (`line 7: ...`).
pub fn task_graph(
    kind: JobKind,
    p: u32,
    wrap: bool,
    text: Option<&str>,
) -> Result<TaskGraph, GraphError> {
    let gen = |kind: GenKind, dims: [u32; 3], n: u32| {
        generate(
            &GenSpec {
                kind,
                n,
                dims,
                wrap,
                radius: None,
            },
            1,
        )
        .map(|g| g.graph)
    };
    Ok(match kind {
        JobKind::Star => TaskGraph {
            graph: gen(GenKind::Star, [1, 1, 1], p)?,
            shape: None,
            wrap: false,
        },
        JobKind::Tree => TaskGraph {
            graph: gen(GenKind::BinaryTree, [1, 1, 1], p)?,
            shape: None,
            wrap: false,
        },
        JobKind::Full => TaskGraph {
            graph: gen(GenKind::Complete, [1, 1, 1], p)?,
            shape: None,
            wrap: false,
        },
        JobKind::Grid => {
            let [a, b] = grid_shape(p);
            TaskGraph {
                graph: gen(GenKind::Grid2d, [a, b, 1], p)?,
                shape: Some([a, b, 1]),
                wrap,
            }
        }
        JobKind::Cube => {
            let s = cube_shape(p);
            TaskGraph {
                graph: gen(GenKind::Cube3d, s, p)?,
                shape: Some(s),
                wrap,
            }
        }
        JobKind::Metis | JobKind::EdgeList => {
            let t = text.unwrap_or("");
            let file = if kind == JobKind::Metis {
                metis::parse_metis(t)?
            } else {
                metis::parse_edge_list(t)?
            };
            TaskGraph {
                graph: file.graph,
                shape: None,
                wrap: false,
            }
        }
    })
}

/// The messages of one round: `(from task, to task, bytes)`, both directions of every edge,
/// `bytes = edge weight * message_bytes`, in the order of the CSR arrays (deterministic).
pub fn round_messages(g: &Graph, message_bytes: f64) -> Vec<(u32, u32, f64)> {
    let mut out = Vec::with_capacity(g.adjncy.len());
    for v in 0..g.n() {
        for (&u, &w) in g.neighbors(v).iter().zip(g.edge_weights(v)) {
            out.push((v, u, f64::from(w) * message_bytes));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_are_the_most_square_and_cubic_factorizations() {
        assert_eq!(grid_shape(512), [16, 32]);
        assert_eq!(grid_shape(1024), [32, 32]);
        assert_eq!(grid_shape(7), [1, 7]);
        assert_eq!(cube_shape(512), [8, 8, 8]);
        assert_eq!(cube_shape(4096), [16, 16, 16]);
        assert_eq!(cube_shape(1024), [8, 8, 16]);
        assert_eq!(cube_shape(12), [2, 2, 3]);
    }

    #[test]
    fn built_in_graphs_have_the_documented_edges() {
        let g = task_graph(JobKind::Grid, 16, true, None).unwrap();
        assert_eq!(g.graph.m(), 32); // 4x4 torus: 2 edges per task
        let g = task_graph(JobKind::Grid, 16, false, None).unwrap();
        assert_eq!(g.graph.m(), 24);
        let g = task_graph(JobKind::Cube, 27, true, None).unwrap();
        assert_eq!(g.graph.m(), 81);
        let g = task_graph(JobKind::Star, 10, false, None).unwrap();
        assert_eq!(g.graph.neighbors(0).len(), 9);
        let g = task_graph(JobKind::Tree, 7, false, None).unwrap();
        assert_eq!(g.graph.neighbors(2), &[0, 5, 6]);
        let g = task_graph(JobKind::Full, 6, false, None).unwrap();
        assert_eq!(g.graph.m(), 15);
    }

    #[test]
    fn metis_weights_become_volumes_and_compute() {
        let text = "3 2 011\n2 2 5\n1 1 5 3 7\n4 2 7\n";
        let g = task_graph(JobKind::Metis, 0, false, Some(text)).unwrap();
        assert_eq!(g.graph.vwgt, vec![2, 1, 4]);
        let m = round_messages(&g.graph, 10.0);
        assert_eq!(m.len(), 4);
        assert!(m.contains(&(0, 1, 50.0)) && m.contains(&(2, 1, 70.0)));
        let e = task_graph(JobKind::Metis, 0, false, Some("3 2\n2\n1\n")).unwrap_err();
        assert!(e.line.is_some());
    }
}
