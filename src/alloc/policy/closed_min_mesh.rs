//! Closed minimum graph partitioning on a 2D mesh (Zhang & Lin, Fig. 3), with our improvements.
//!
//! Theorem 3: the smallest diameter of a rectangle holding `n` nodes is
//! `ceil(sqrt n) + ceil(n / ceil(sqrt n)) - 2`, reached by the paper's template
//! `ceil(sqrt n) x ceil(n / ceil(sqrt n))` (width x height). Checked against exhaustive search.
//!
//! - `closed-min-paper`: the template only, first fit. The paper asks for a subgraph matching the
//!   template, and the template turned a quarter turn matches it too, so both orientations are
//!   tried: origins are scanned in node order (`y * width + x`, row by row from `(0, 0)`), and at
//!   each origin the template (`ceil(sqrt n)` wide) is tried before its rotation. A 2-node job on
//!   an empty `1 x N` mesh thus gets the `1 x 2` rotation of its `2 x 1` template.
//! - `closed-min-best`: every shape `a x b` with `a + b - 2` equal to that minimum and `a * b >= n`,
//!   in both orientations, least waste first (for `n = 7`: 2x4 wastes 1 node where 3x3 wastes 2),
//!   then the bottom-left-stable origin with the most perimeter contact ([`crate::alloc::rect`]).
//! - `closed-min-naive`: the same choice by rescanning every cell (benchmark baseline).
//!
//! The job takes the first `n` cells of its rectangle in row-major order; the rest of the
//! rectangle is reserved for it (owned but idle), so its region stays closed.

use crate::alloc::machine::{Machine, Placement};
use crate::alloc::rect::{best_fit, best_fit_naive, first_fit, tallest_per_width, Grid, Rect};
use crate::alloc::scenario::PolicyId;
use crate::topology::{Mesh, Topology};

/// `ceil(sqrt n)` in integers (exact, no floating point).
pub fn ceil_sqrt(n: usize) -> usize {
    let mut r = (n as f64).sqrt() as usize;
    while r * r > n {
        r -= 1;
    }
    while r * r < n {
        r += 1;
    }
    r
}

/// Theorem 3's template `(width, height)` for `n >= 1` nodes.
pub fn template(n: usize) -> (usize, usize) {
    let a = ceil_sqrt(n);
    (a, n.div_ceil(a))
}

/// The shapes `closed-min-paper` tries, in order: the template, then its rotation (if different).
pub fn paper_shapes(n: usize) -> Vec<(usize, usize)> {
    let (a, b) = template(n);
    if a == b {
        vec![(a, b)]
    } else {
        vec![(a, b), (b, a)]
    }
}

/// Whether `closed-min-paper` could place `n` nodes on the empty mesh (some orientation of the
/// template fits inside it).
pub fn paper_fits_empty(n: usize, mesh: &Mesh) -> bool {
    paper_shapes(n)
        .iter()
        .any(|&(a, b)| a <= mesh.width && b <= mesh.height)
}

/// The paper's first fit with rotation: the lowest origin id at which either orientation is
/// available, the template's own orientation first at equal origins.
pub fn paper_first_fit(avail: &Grid, n: usize) -> Option<Rect> {
    paper_shapes(n)
        .iter()
        .filter_map(|&(a, b)| first_fit(avail, a, b))
        .min_by_key(|r| r.y * avail.width + r.x)
}

/// Theorem 3's minimum rectangle diameter for `n >= 1` nodes.
pub fn min_rect_diameter(n: usize) -> usize {
    let (a, b) = template(n);
    a + b - 2
}

/// Every `(width, height)` of minimum diameter that holds `n` nodes and fits the mesh, grouped by
/// waste ascending (each inner list in a fixed order: wider first). On a mesh too narrow for
/// Theorem 3's shapes the minimum is taken over the rectangles that fit (e.g. 36 nodes on 8x5
/// need the whole 8x5, diameter 11, where 6x6 would have 10).
pub fn min_diameter_shapes(n: usize, mesh: &Mesh) -> Vec<Vec<(usize, usize)>> {
    let Some(d) = (1..=mesh.width.min(n))
        .filter(|&a| n.div_ceil(a) <= mesh.height)
        .map(|a| a + n.div_ceil(a) - 2)
        .min()
    else {
        return Vec::new();
    };
    let mut shapes: Vec<(usize, usize, usize)> = Vec::new();
    for a in 1..=d + 1 {
        let b = d + 2 - a;
        if a * b >= n && a <= mesh.width && b <= mesh.height {
            shapes.push((a * b - n, a, b));
        }
    }
    shapes.sort_by(|p, q| p.0.cmp(&q.0).then(q.1.cmp(&p.1)));
    let mut groups: Vec<Vec<(usize, usize)>> = Vec::new();
    let mut last = usize::MAX;
    for (waste, a, b) in shapes {
        if waste != last {
            groups.push(Vec::new());
            last = waste;
        }
        groups.last_mut().unwrap().push((a, b));
    }
    groups
}

fn mesh_of(m: &Machine) -> Mesh {
    match &m.topo {
        Topology::Mesh(mesh) => *mesh,
        Topology::Tree(_) => unreachable!("mesh policy on a tree"),
    }
}

/// Takes the first `n` cells of `r` in row-major order; reserves the rest.
pub fn fill_rect(mesh: &Mesh, r: Rect, n: usize) -> Placement {
    let mut nodes = Vec::with_capacity(n);
    let mut idle = Vec::new();
    for y in r.y..r.y + r.h {
        for x in r.x..r.x + r.w {
            let id = mesh.id(x, y) as u32;
            if nodes.len() < n {
                nodes.push(id);
            } else {
                idle.push(id);
            }
        }
    }
    Placement {
        nodes,
        owned_idle: idle,
        fallback: None,
    }
}

/// A closed region of minimum diameter for `n` nodes, or `None` if none is available now.
pub fn closed_min(m: &Machine, n: usize, policy: PolicyId) -> Option<Placement> {
    let mesh = mesh_of(m);
    let avail = m.avail.as_ref().unwrap();
    let rect = match policy {
        PolicyId::ClosedMinPaper => paper_first_fit(avail, n),
        _ => {
            let search = if policy == PolicyId::ClosedMinNaive {
                best_fit_naive
            } else {
                best_fit
            };
            min_diameter_shapes(n, &mesh)
                .iter()
                .find_map(|group| search(avail, group).map(|(r, _)| r))
        }
    }?;
    Some(fill_rect(&mesh, rect, n))
}

/// Fallback `relax-minimal`: the available rectangle with the fewest nodes that still holds `n`
/// (then the smallest diameter), placed as `closed-min-best` places (the paper variant scans
/// first-fit). Closed, contention-free, but a larger diameter.
pub fn relax_minimal(m: &Machine, n: usize, policy: PolicyId) -> Option<Placement> {
    let mesh = mesh_of(m);
    let avail = m.avail.as_ref().unwrap();
    let tall = tallest_per_width(avail);
    let mut best: Option<(usize, usize)> = None; // (area, diameter)
    let mut shapes = Vec::new();
    for a in 1..=mesh.width {
        let b = n.div_ceil(a);
        if b == 0 || b > tall[a - 1] {
            continue;
        }
        let key = (a * b, a + b - 2);
        if best.is_none_or(|k| key < k) {
            best = Some(key);
            shapes.clear();
        }
        if Some(key) == best {
            shapes.push((a, b));
        }
    }
    let rect = if policy == PolicyId::ClosedMinPaper {
        shapes.iter().find_map(|&(a, b)| first_fit(avail, a, b))
    } else {
        best_fit(avail, &shapes).map(|(r, _)| r)
    }?;
    Some(fill_rect(&mesh, rect, n))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Theorem 3 against exhaustive search over every rectangle shape.
    #[test]
    fn theorem3_is_the_smallest_rectangle_diameter() {
        for n in 1..=400usize {
            let brute = (1..=n).map(|a| a + n.div_ceil(a) - 2).min().unwrap();
            assert_eq!(min_rect_diameter(n), brute, "n = {n}");
            let (a, b) = template(n);
            assert!(a * b >= n);
        }
        assert_eq!(template(7), (3, 3));
        let groups = min_diameter_shapes(7, &Mesh::new(10, 10));
        assert_eq!(
            groups[0],
            vec![(4, 2), (2, 4)],
            "least waste first, both orientations"
        );
        assert_eq!(groups[1], vec![(3, 3)]);
    }

    #[test]
    fn ceil_sqrt_is_exact() {
        for n in 0..10_000usize {
            let r = ceil_sqrt(n);
            assert!(r * r >= n && (r == 0 || (r - 1) * (r - 1) < n));
        }
    }
}
