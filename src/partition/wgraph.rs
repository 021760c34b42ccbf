//! The working graph of the multilevel partitioner: the CSR layout of [`Graph`] with 64-bit
//! vertex weights, sizes and edge weights, so that contracting a graph (which sums the weights of
//! merged vertices and of merged parallel edges) never overflows.
//!
//! Invariants: the same as [`Graph`]'s (no self-loops, no duplicate neighbours, symmetric), except
//! that adjacency lists need not be sorted and edge weights are `>= 1` as `u64`.

use super::Graph;

/// Undirected weighted graph in CSR form with `u64` weights.
#[derive(Debug, Clone, Default)]
pub struct WGraph {
    pub xadj: Vec<u32>,
    pub adj: Vec<u32>,
    pub ew: Vec<u64>,
    pub vw: Vec<u64>,
    pub vs: Vec<u64>,
}

impl WGraph {
    /// The working copy of `g`.
    pub fn from_graph(g: &Graph) -> WGraph {
        WGraph {
            xadj: g.xadj.clone(),
            adj: g.adjncy.clone(),
            ew: g.adjwgt.iter().map(|&w| u64::from(w)).collect(),
            vw: g.vwgt.iter().map(|&w| u64::from(w)).collect(),
            vs: g.vsize.iter().map(|&w| u64::from(w)).collect(),
        }
    }

    /// Number of vertices.
    pub fn n(&self) -> u32 {
        (self.xadj.len().max(1) - 1) as u32
    }

    /// Range of `v`'s entries in `adj` / `ew`.
    #[inline]
    pub fn range(&self, v: u32) -> std::ops::Range<usize> {
        self.xadj[v as usize] as usize..self.xadj[v as usize + 1] as usize
    }

    /// Number of neighbours of `v`.
    #[inline]
    pub fn degree(&self, v: u32) -> u32 {
        self.xadj[v as usize + 1] - self.xadj[v as usize]
    }

    /// Sum of vertex weights.
    pub fn total(&self) -> u64 {
        self.vw.iter().fold(0u64, |a, &w| a.saturating_add(w))
    }

    /// Heaviest vertex weight (0 for an empty graph).
    pub fn max_vw(&self) -> u64 {
        self.vw.iter().copied().max().unwrap_or(0)
    }

    /// The subgraph induced by the vertices `v` with `part[v] == p`, and for each of its vertices
    /// the id in `self`. Edges leaving the subgraph are dropped.
    ///
    /// # Complexity
    /// `O(V + E)`.
    pub fn induced(&self, part: &[u8], p: u8) -> (WGraph, Vec<u32>) {
        let n = self.n();
        let mut local = vec![u32::MAX; n as usize];
        let mut ids = Vec::new();
        for v in 0..n {
            if part[v as usize] == p {
                local[v as usize] = ids.len() as u32;
                ids.push(v);
            }
        }
        let mut sub = WGraph {
            xadj: Vec::with_capacity(ids.len() + 1),
            ..WGraph::default()
        };
        sub.xadj.push(0);
        for &v in &ids {
            for i in self.range(v) {
                let u = self.adj[i];
                if part[u as usize] == p {
                    sub.adj.push(local[u as usize]);
                    sub.ew.push(self.ew[i]);
                }
            }
            sub.xadj.push(sub.adj.len() as u32);
            sub.vw.push(self.vw[v as usize]);
            sub.vs.push(self.vs[v as usize]);
        }
        (sub, ids)
    }

    /// The subgraph induced by `ids` (increasing vertex ids), vertex `i` of it being `ids[i]`:
    /// the same graph as [`WGraph::induced`] on a mask of `ids`, built in `O(|ids| + their
    /// degrees)`. `local` is scratch of `n` entries, all `u32::MAX`, and is left so.
    pub fn induced_by(&self, ids: &[u32], local: &mut [u32]) -> WGraph {
        for (i, &v) in ids.iter().enumerate() {
            local[v as usize] = i as u32;
        }
        let mut sub = WGraph {
            xadj: Vec::with_capacity(ids.len() + 1),
            ..WGraph::default()
        };
        sub.xadj.push(0);
        for &v in ids {
            for i in self.range(v) {
                let l = local[self.adj[i] as usize];
                if l != u32::MAX {
                    sub.adj.push(l);
                    sub.ew.push(self.ew[i]);
                }
            }
            sub.xadj.push(sub.adj.len() as u32);
            sub.vw.push(self.vw[v as usize]);
            sub.vs.push(self.vs[v as usize]);
        }
        for &v in ids {
            local[v as usize] = u32::MAX;
        }
        sub
    }

    /// Edge cut of a part vector (weights summed once per undirected edge).
    pub fn cut<P: Copy + PartialEq>(&self, part: &[P]) -> u64 {
        let mut cut = 0u64;
        for v in 0..self.n() {
            for i in self.range(v) {
                let u = self.adj[i];
                if u > v && part[u as usize] != part[v as usize] {
                    cut = cut.saturating_add(self.ew[i]);
                }
            }
        }
        cut
    }
}

/// A 64-bit mix of `salt` and `x` (SplitMix64's finalizer): the tie-breaking key of a vertex in
/// the priority queues, identical on every target and cheaper than a generator draw per push.
#[inline]
pub fn mix(salt: u64, x: u64) -> u64 {
    let mut z = salt ^ x.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A gain as a signed number: `a - b` for edge-weight sums, saturated instead of overflowing.
#[inline]
pub fn gain(a: u64, b: u64) -> i64 {
    let a = a.min(i64::MAX as u64) as i64;
    let b = b.min(i64::MAX as u64) as i64;
    a - b
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The list-built subgraph is the mask-built one, and the scratch is left clean.
    #[test]
    fn the_subgraph_of_a_vertex_list_is_the_subgraph_of_its_mask() {
        let edges: Vec<(u32, u32, u32)> = (0..30u32)
            .flat_map(|v| [(v, (v * 7 + 3) % 30, 1 + v % 4), (v, (v + 1) % 30, 2)])
            .filter(|&(a, b, _)| a != b)
            .collect();
        let mut seen = std::collections::BTreeSet::new();
        let edges: Vec<_> = edges
            .into_iter()
            .filter(|&(a, b, _)| seen.insert((a.min(b), a.max(b))))
            .collect();
        let g = WGraph::from_graph(&Graph::from_edges(30, &edges).unwrap());
        let mask: Vec<u8> = (0..30u32).map(|v| u8::from(v % 3 != 1)).collect();
        let (want, ids) = g.induced(&mask, 1);
        let mut local = vec![u32::MAX; 30];
        let have = g.induced_by(&ids, &mut local);
        assert_eq!(
            (&have.xadj, &have.adj, &have.ew, &have.vw, &have.vs),
            (&want.xadj, &want.adj, &want.ew, &want.vw, &want.vs)
        );
        assert!(local.iter().all(|&l| l == u32::MAX));
    }
}
