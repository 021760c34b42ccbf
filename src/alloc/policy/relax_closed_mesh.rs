//! Fallback `relax-closed` on a mesh: `n` free nodes with the smallest possible diameter,
//! closed or not (contention may then appear, and is reported).
//!
//! With XY routing the hop count is the Manhattan distance, and in rotated coordinates
//! `u = x + y`, `v = x - y` the Manhattan diameter of a set is `max(range u, range v)`. So the
//! smallest diameter `D` for `n` nodes is the smallest `D` such that some `(D+1) x (D+1)` window in
//! `(u, v)` holds `n` free nodes: a binary search on `D`, each step a summed-area-table sweep over
//! the rotated grid, `O((W + H)^2 log(W + H))`. Exact (checked by brute force on small meshes);
//! for example 5 nodes in a plus shape reach diameter 2 where the best rectangle needs 3.

use crate::alloc::machine::{Machine, Placement};
use crate::topology::Topology;

/// `n` free nodes of minimum Manhattan diameter; `None` if fewer than `n` are free.
pub fn relax_closed(m: &Machine, n: usize) -> Option<Placement> {
    let Topology::Mesh(mesh) = &m.topo else {
        unreachable!()
    };
    if m.free_count < n {
        return None;
    }
    let (w, h) = (mesh.width, mesh.height);
    let s = w + h - 1; // u in 0..=w+h-2, v' = x - y + h - 1 in 0..=w+h-2
    let mut sat = vec![0u32; (s + 1) * (s + 1)];
    for y in 0..h {
        for x in 0..w {
            if m.is_free(mesh.id(x, y)) {
                sat[(x + y + 1) * (s + 1) + (x + h - 1 - y) + 1] = 1;
            }
        }
    }
    for u in 1..=s {
        for v in 1..=s {
            let i = u * (s + 1) + v;
            sat[i] += sat[i - 1] + sat[i - (s + 1)] - sat[i - (s + 1) - 1];
        }
    }
    let count = |u0: usize, v0: usize, d: usize| -> u32 {
        let (u1, v1) = ((u0 + d + 1).min(s), (v0 + d + 1).min(s));
        sat[u1 * (s + 1) + v1] + sat[u0 * (s + 1) + v0]
            - sat[u0 * (s + 1) + v1]
            - sat[u1 * (s + 1) + v0]
    };
    let find = |d: usize| -> Option<(usize, usize)> {
        for u0 in 0..s {
            for v0 in 0..s {
                if count(u0, v0, d) as usize >= n {
                    return Some((u0, v0));
                }
            }
        }
        None
    };
    let (mut lo, mut hi) = (0usize, s);
    while lo < hi {
        let mid = (lo + hi) / 2;
        if find(mid).is_some() {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    let (u0, v0) = find(lo)?;
    // the n free nodes of the window nearest its centre (ties: lower id)
    let (cu2, cv2) = (2 * u0 + lo, 2 * v0 + lo);
    let mut cands: Vec<(usize, u32)> = Vec::new();
    for y in 0..h {
        for x in 0..w {
            let (u, v) = (x + y, x + h - 1 - y);
            if u >= u0 && u <= u0 + lo && v >= v0 && v <= v0 + lo && m.is_free(mesh.id(x, y)) {
                let dist = (2 * u).abs_diff(cu2).max((2 * v).abs_diff(cv2));
                cands.push((dist, mesh.id(x, y) as u32));
            }
        }
    }
    cands.sort_unstable();
    let nodes = cands.into_iter().take(n).map(|(_, id)| id).collect();
    Some(Placement {
        nodes,
        owned_idle: Vec::new(),
        fallback: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::alloc::machine::Footprint;
    use crate::topology::Mesh;

    fn diameter(mesh: &Mesh, nodes: &[u32]) -> usize {
        let mut d = 0;
        for &a in nodes {
            for &b in nodes {
                d = d.max(mesh.hops(a as usize, b as usize));
            }
        }
        d
    }

    #[test]
    fn plus_shape_beats_rectangles() {
        let mesh = Mesh::new(5, 5);
        let m = Machine::new(Topology::Mesh(mesh));
        let p = relax_closed(&m, 5).unwrap();
        assert_eq!(diameter(&mesh, &p.nodes), 2);
    }

    /// Exhaustive search over all node subsets of a 4x3 mesh with some nodes taken.
    #[test]
    fn minimum_diameter_matches_brute_force() {
        let mesh = Mesh::new(4, 3);
        let mut state = 7u64;
        for _ in 0..60 {
            let mut m = Machine::new(Topology::Mesh(mesh));
            let mut taken = Vec::new();
            for i in 0..12u32 {
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1);
                if (state >> 40) % 3 == 0 {
                    taken.push(i);
                }
            }
            m.commit(
                0,
                &Placement {
                    nodes: taken,
                    ..Default::default()
                },
                &Footprint::default(),
            );
            let free = m.free_nodes();
            for n in 1..=free.len() {
                let got = relax_closed(&m, n).unwrap();
                assert_eq!(got.nodes.len(), n);
                assert!(got.nodes.iter().all(|&v| m.is_free(v as usize)));
                let mut brute = usize::MAX;
                for mask in 0u32..(1 << free.len()) {
                    if mask.count_ones() as usize == n {
                        let set: Vec<u32> = (0..free.len())
                            .filter(|&i| mask >> i & 1 == 1)
                            .map(|i| free[i])
                            .collect();
                        brute = brute.min(diameter(&mesh, &set));
                    }
                }
                assert_eq!(diameter(&mesh, &got.nodes), brute);
            }
        }
    }
}
