//! Per-job network metrics, computed from the machine's routes.
//!
//! - *Diameter* and *mean hops* are over every pair of the job's nodes. On a mesh the XY route's
//!   hop count is the Manhattan distance, so the diameter is `max(range(x+y), range(x-y))` and the
//!   mean uses sorted coordinates (`O(n log n)`); on a tree a pair's hops are twice the height of its
//!   LCA, counted per level (`O(n L)`). Both are checked against routing every pair in the tests.
//! - The *footprint* is the set of routers and links the job's traffic uses: every pair for
//!   `comm: all` (closed form, equal to the union of routes, tested), the routes of the ring and
//!   reduction-tree pairs for `comm: neighbor` (routed one by one), nothing for `comm: none`.
//! - *Busy region rule*: while a job runs, the routers of its footprint (its traffic, per `comm`)
//!   are busy, and closed-min policies place no closed region across a busy router. A job with
//!   `comm: none` therefore blocks only its nodes (a 1-node job on a 3x3 mesh is no longer pushed
//!   to a fallback by a quiet neighbour's unused routes; `tests/easy.rs`).
//! - *Closed*: the job's nodes plus its reserved idle nodes are exactly its bounding rectangle
//!   (mesh) or all leaves under its LCA (tree), so every route between its nodes stays in its region.

use super::machine::{Footprint, Placement};
use crate::params::choices;
use crate::topology::Topology;

choices! {
    /// The traffic that counts for contention.
    pub enum Comm {
        /// Every pair of the job's nodes (all-to-all: IS, FT).
        All = ("all", "All pairs"),
        /// Ranks `i <-> i+1` and the reduction tree `i <-> (i-1)/2` (CG, MG, LU, BT, SP).
        Neighbor = ("neighbor", "Neighbours and reduction tree"),
        /// No communication (EP).
        None = ("none", "None"),
    }
}

/// Largest hop count between two nodes of the set.
pub fn diameter(topo: &Topology, nodes: &[u32]) -> usize {
    if nodes.len() < 2 {
        return 0;
    }
    match topo {
        Topology::Mesh(m) => {
            let (mut umin, mut umax, mut vmin, mut vmax) = (i64::MAX, i64::MIN, i64::MAX, i64::MIN);
            for &n in nodes {
                let (x, y) = m.xy(n as usize);
                let (u, v) = ((x + y) as i64, x as i64 - y as i64);
                umin = umin.min(u);
                umax = umax.max(u);
                vmin = vmin.min(v);
                vmax = vmax.max(v);
            }
            (umax - umin).max(vmax - vmin) as usize
        }
        Topology::Tree(t) => {
            let (lo, hi) = (
                *nodes.iter().min().unwrap() as usize,
                *nodes.iter().max().unwrap() as usize,
            );
            t.hops(lo, hi)
        }
    }
}

fn sum_abs_pair_diffs(mut v: Vec<i64>) -> u128 {
    v.sort_unstable();
    let n = v.len() as i64;
    let s: i128 = v
        .iter()
        .enumerate()
        .map(|(k, &x)| x as i128 * (2 * k as i64 - n + 1) as i128)
        .sum();
    s as u128
}

/// Sum of hops over unordered pairs of the set.
pub fn total_pair_hops(topo: &Topology, nodes: &[u32]) -> u128 {
    if nodes.len() < 2 {
        return 0;
    }
    match topo {
        Topology::Mesh(m) => {
            let xs = nodes.iter().map(|&n| m.xy(n as usize).0 as i64).collect();
            let ys = nodes.iter().map(|&n| m.xy(n as usize).1 as i64).collect();
            sum_abs_pair_diffs(xs) + sum_abs_pair_diffs(ys)
        }
        Topology::Tree(t) => {
            // pairs whose LCA is at level l or below (same router of level l), per level
            let mut sorted = nodes.to_vec();
            sorted.sort_unstable();
            let pairs_within = |l: usize| -> u128 {
                let mut total = 0u128;
                let mut i = 0;
                while i < sorted.len() {
                    let key = t.ancestor(sorted[i] as usize, l);
                    let mut j = i;
                    while j < sorted.len() && t.ancestor(sorted[j] as usize, l) == key {
                        j += 1;
                    }
                    let c = (j - i) as u128;
                    total += c * (c - 1) / 2;
                    i = j;
                }
                total
            };
            // a pair with LCA at level l has 2 (L - l) hops: sum over levels of 2 * (pairs sharing
            // no router of level l+1 but one of level l) * (L - l) = 2 * sum_l (within(l) - within(l+1)) (L-l)
            let levels = t.levels();
            let mut sum = 0u128;
            for l in 0..levels {
                let here = pairs_within(l);
                let below = if l + 1 < levels {
                    pairs_within(l + 1)
                } else {
                    0
                };
                sum += 2 * (here - below) * (levels - l) as u128;
            }
            sum
        }
    }
}

/// Mean hops over unordered pairs (0 for fewer than two nodes).
pub fn mean_hops(topo: &Topology, nodes: &[u32]) -> f64 {
    let n = nodes.len() as u128;
    if n < 2 {
        return 0.0;
    }
    total_pair_hops(topo, nodes) as f64 / (n * (n - 1) / 2) as f64
}

/// Routers and links of every route between two of the nodes (the traffic of `comm: all`; for a
/// closed placement, inside its rectangle or subtree).
pub fn region(topo: &Topology, nodes: &[u32]) -> Footprint {
    let (routers, links) = match topo {
        Topology::Mesh(m) => m.all_pairs_footprint(nodes),
        Topology::Tree(t) => t.all_pairs_footprint(nodes),
    };
    Footprint { routers, links }
}

/// Routers and links used by the job's traffic, with ranks placed `cores` per node in node order.
pub fn traffic(topo: &Topology, nodes: &[u32], tasks: u64, cores: usize, comm: Comm) -> Footprint {
    match comm {
        Comm::All => region(topo, nodes),
        Comm::None => Footprint::default(),
        Comm::Neighbor => {
            let node_of =
                |rank: u64| nodes[((rank / cores as u64) as usize).min(nodes.len() - 1)] as usize;
            let (mut routers, mut links) = (Vec::new(), Vec::new());
            let mut seen = std::collections::BTreeSet::new();
            for r in 1..tasks {
                for other in [r - 1, (r - 1) / 2] {
                    let (a, b) = (node_of(other), node_of(r));
                    if a != b && seen.insert((a.min(b), a.max(b))) {
                        topo.route(a, b, &mut routers, &mut links);
                        topo.route(b, a, &mut routers, &mut links);
                    }
                }
            }
            routers.sort_unstable();
            routers.dedup();
            links.sort_unstable();
            links.dedup();
            Footprint { routers, links }
        }
    }
}

/// Whether the job's region (nodes plus reserved idle nodes) is closed: a full rectangle on a mesh,
/// every leaf under the LCA on a tree. A single node is closed.
pub fn is_closed(topo: &Topology, p: &Placement) -> bool {
    let held = p.nodes.len() + p.owned_idle.len();
    if p.nodes.len() < 2 {
        return true;
    }
    match topo {
        Topology::Mesh(m) => {
            let (mut x0, mut x1, mut y0, mut y1) = (usize::MAX, 0, usize::MAX, 0);
            for &n in p.nodes.iter() {
                let (x, y) = m.xy(n as usize);
                x0 = x0.min(x);
                x1 = x1.max(x);
                y0 = y0.min(y);
                y1 = y1.max(y);
            }
            let inside = p.owned_idle.iter().all(|&n| {
                let (x, y) = m.xy(n as usize);
                x >= x0 && x <= x1 && y >= y0 && y <= y1
            });
            inside && held == (x1 - x0 + 1) * (y1 - y0 + 1)
        }
        Topology::Tree(t) => {
            let lo = *p.nodes.iter().min().unwrap() as usize;
            let hi = *p.nodes.iter().max().unwrap() as usize;
            let l = t.lca_level(lo, hi);
            let (first, count) = t.leaf_range(t.ancestor(lo, l));
            held == count
                && p.nodes
                    .iter()
                    .chain(&p.owned_idle)
                    .all(|&v| (v as usize) >= first && (v as usize) < first + count)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology::{Mesh, Tree};

    fn brute(topo: &Topology, nodes: &[u32]) -> (usize, u128) {
        let (mut d, mut s) = (0, 0u128);
        for (i, &a) in nodes.iter().enumerate() {
            for &b in &nodes[i + 1..] {
                let (mut r, mut l) = (Vec::new(), Vec::new());
                topo.route(a as usize, b as usize, &mut r, &mut l);
                d = d.max(l.len());
                s += l.len() as u128;
            }
        }
        (d, s)
    }

    #[test]
    fn metrics_equal_routing_every_pair() {
        let topos = [
            Topology::Mesh(Mesh::new(7, 5)),
            Topology::Tree(Tree::new(&[2, 3, 4])),
            Topology::Tree(Tree::new(&[4, 4])),
            Topology::Tree(crate::topology::tree::tests::irregular_sample()),
        ];
        let mut s = 99u64;
        for topo in &topos {
            for _ in 0..200 {
                let nodes: Vec<u32> = (0..topo.nodes() as u32)
                    .filter(|_| {
                        s ^= s << 13;
                        s ^= s >> 7;
                        s ^= s << 17;
                        s % 4 == 0
                    })
                    .collect();
                if nodes.len() < 2 {
                    continue;
                }
                let (d, sum) = brute(topo, &nodes);
                assert_eq!(diameter(topo, &nodes), d);
                assert_eq!(total_pair_hops(topo, &nodes), sum);
                // the traffic of "neighbor" is a subset of the region
                let reg = region(topo, &nodes);
                let nb = traffic(topo, &nodes, nodes.len() as u64 * 2, 2, Comm::Neighbor);
                assert!(nb
                    .routers
                    .iter()
                    .all(|r| reg.routers.binary_search(r).is_ok()));
                assert!(nb.links.iter().all(|r| reg.links.binary_search(r).is_ok()));
            }
        }
    }
}
