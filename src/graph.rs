//! The graph shared by the graph readers ([`crate::formats::metis`]), the generators, the
//! partitioner and the placement engine: an undirected graph in compressed sparse row form, the layout METIS
//! uses (`xadj`, `adjncy`, `vwgt`, `adjwgt`), on fixed-width integers so that a graph and every
//! loop over it are the same on every target (`usize` is 32 bits in wasm).
//!
//! Invariants (checked by [`Graph::check`], kept by every constructor):
//! - `xadj.len() == n + 1`, `xadj[0] == 0`, non-decreasing, `xadj[n] == adjncy.len()`;
//! - neighbours of `v` are `adjncy[xadj[v]..xadj[v+1]]`, each `< n`, never `v`, no duplicates;
//! - symmetry: `u` lists `v` with weight `w` iff `v` lists `u` with weight `w`;
//! - `vwgt.len() == vsize.len() == n`, `adjwgt.len() == adjncy.len()`; weights are positive
//!   (edge weights >= 1, vertex weights >= 0 as METIS allows, vertex sizes >= 0).
//! - total vertex weight and total edge weight fit in `u64` (weights are `u32`).

/// Undirected weighted graph in CSR form.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Graph {
    pub xadj: Vec<u32>,
    pub adjncy: Vec<u32>,
    pub vwgt: Vec<u32>,
    pub adjwgt: Vec<u32>,
    /// Vertex sizes (METIS `vsize`): the data a vertex sends to each other part it touches, used
    /// by the communication-volume objective. All 1 when the graph gives none.
    pub vsize: Vec<u32>,
}

/// A problem building a graph; `line` is 1-based when it comes from a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GraphError {
    pub line: Option<u64>,
    pub message: String,
}

impl std::fmt::Display for GraphError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            Some(l) => write!(f, "line {l}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl Graph {
    /// Number of vertices.
    pub fn n(&self) -> u32 {
        (self.xadj.len().max(1) - 1) as u32
    }
    /// Number of undirected edges.
    pub fn m(&self) -> u64 {
        self.adjncy.len() as u64 / 2
    }
    /// Neighbours of `v`.
    pub fn neighbors(&self, v: u32) -> &[u32] {
        &self.adjncy[self.xadj[v as usize] as usize..self.xadj[v as usize + 1] as usize]
    }
    /// Weights of the edges to [`Graph::neighbors`]`(v)`, in the same order.
    pub fn edge_weights(&self, v: u32) -> &[u32] {
        &self.adjwgt[self.xadj[v as usize] as usize..self.xadj[v as usize + 1] as usize]
    }
    /// Sum of vertex weights.
    pub fn total_vwgt(&self) -> u64 {
        self.vwgt.iter().map(|&w| u64::from(w)).sum()
    }

    /// Builds a graph from undirected edges `(u, v, w)` (each listed once, either direction) over
    /// `n` vertices with unit vertex weights and sizes. Refuses self-loops, ids `>= n`, zero
    /// weights and duplicate edges, naming the offending edge's index.
    pub fn from_edges(n: u32, edges: &[(u32, u32, u32)]) -> Result<Graph, GraphError> {
        let err = |i: usize, message: String| GraphError {
            line: None,
            message: format!("edge {i}: {message}"),
        };
        let mut deg = vec![0u32; n as usize];
        for (i, &(u, v, w)) in edges.iter().enumerate() {
            if u >= n || v >= n {
                return Err(err(i, format!("vertex {} is not below n = {n}", u.max(v))));
            }
            if u == v {
                return Err(err(i, format!("self-loop on vertex {u}")));
            }
            if w == 0 {
                return Err(err(i, "edge weight 0 (weights are at least 1)".into()));
            }
            deg[u as usize] += 1;
            deg[v as usize] += 1;
        }
        let mut xadj = Vec::with_capacity(n as usize + 1);
        xadj.push(0u32);
        let mut acc = 0u64;
        for &d in &deg {
            acc += u64::from(d);
            if acc > u64::from(u32::MAX) {
                return Err(GraphError {
                    line: None,
                    message: "more than 2^32 - 1 adjacency entries".into(),
                });
            }
            xadj.push(acc as u32);
        }
        let mut fill: Vec<u32> = xadj[..n as usize].to_vec();
        let mut adjncy = vec![0u32; acc as usize];
        let mut adjwgt = vec![0u32; acc as usize];
        for &(u, v, w) in edges {
            for (a, b) in [(u, v), (v, u)] {
                let p = fill[a as usize] as usize;
                adjncy[p] = b;
                adjwgt[p] = w;
                fill[a as usize] += 1;
            }
        }
        // Sort each adjacency list (deterministic order) and look for duplicates.
        for v in 0..n as usize {
            let (s, e) = (xadj[v] as usize, xadj[v + 1] as usize);
            let mut pairs: Vec<(u32, u32)> = adjncy[s..e]
                .iter()
                .copied()
                .zip(adjwgt[s..e].iter().copied())
                .collect();
            pairs.sort_unstable();
            for w in pairs.windows(2) {
                if w[0].0 == w[1].0 {
                    return Err(GraphError {
                        line: None,
                        message: format!("duplicate edge between vertices {v} and {}", w[0].0),
                    });
                }
            }
            for (i, (a, b)) in pairs.into_iter().enumerate() {
                adjncy[s + i] = a;
                adjwgt[s + i] = b;
            }
        }
        Ok(Graph {
            xadj,
            adjncy,
            vwgt: vec![1; n as usize],
            adjwgt,
            vsize: vec![1; n as usize],
        })
    }

    /// Checks every invariant in the module doc; `Err` names the first broken one.
    pub fn check(&self) -> Result<(), String> {
        let n = self.xadj.len().checked_sub(1).ok_or("xadj is empty")?;
        if self.xadj[0] != 0 || self.xadj[n] as usize != self.adjncy.len() {
            return Err("xadj does not span adjncy".into());
        }
        if self.vwgt.len() != n || self.vsize.len() != n || self.adjwgt.len() != self.adjncy.len() {
            return Err("weight arrays have the wrong length".into());
        }
        for v in 0..n {
            if self.xadj[v] > self.xadj[v + 1] {
                return Err(format!("xadj decreases at {v}"));
            }
            let nb = self.neighbors(v as u32);
            let ws = self.edge_weights(v as u32);
            for (i, (&u, &w)) in nb.iter().zip(ws).enumerate() {
                if u as usize >= n || u as usize == v || w == 0 {
                    return Err(format!("bad edge {v}-{u} (weight {w})"));
                }
                if nb[..i].contains(&u) {
                    return Err(format!("duplicate edge {v}-{u}"));
                }
                let back = self.neighbors(u).iter().position(|&x| x as usize == v);
                match back {
                    Some(p) if self.edge_weights(u)[p] == w => {}
                    _ => return Err(format!("edge {v}-{u} is not symmetric")),
                }
            }
        }
        Ok(())
    }
}
