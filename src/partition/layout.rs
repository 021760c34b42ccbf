//! A deterministic force-directed layout (Fruchterman & Reingold, 1991) for drawing graphs that
//! come without coordinates, and the quantized drawing coordinates the report carries.
//!
//! The model: vertices repel each other with force `d0^2 / d` and edges pull their ends together
//! with force `d^2 / d0`, where `d0 = 1 / sqrt(n)` is the ideal edge length in the unit square;
//! each step moves every vertex along its net force by at most a temperature `t` that falls
//! linearly to zero, and a weak pull towards the centre (gravity `d0` times the distance) keeps
//! separate components off the sides of the square. Repulsion is only counted between vertices of neighbouring cells of a grid
//! of side `2 d0` (the grid variant of the original paper), so one step costs `O(V + E)` on
//! graphs whose vertices spread out, instead of `O(V^2)`.
//!
//! Determinism: starting positions come from [`crate::rng::Rng`] (the scenario's seed), every
//! loop runs in index order, and the arithmetic is `+ - * /` and `sqrt` on `f64` only, whose
//! results IEEE 754 fixes exactly on every target; grid cells come from truncating casts. So the
//! page and the command line draw the same picture and the report stays byte-identical.

use super::Graph;
use crate::rng::Rng;

/// Largest graph laid out by [`force_layout`] (the engine draws bigger graphs without
/// coordinates as their part-to-part graph).
pub const LAYOUT_MAX_VERTICES: u32 = 3_000;
/// Steps of the layout.
pub const LAYOUT_STEPS: u32 = 250;
/// Drawing coordinates are whole numbers from 0 to this, on both axes (aspect ratio kept).
pub const DRAW_SCALE: f64 = 10_000.0;

/// Positions in the unit square for the vertices of `g`, from `seed`.
///
/// # Arguments
/// - `g`: any graph satisfying [`Graph::check`] (edge weights are ignored: an edge is an edge);
/// - `seed`: the starting positions' seed;
/// - `steps`: how many moves (each `O(V + E)` on spread-out graphs).
///
/// # Returns
/// `[x, y]` per vertex, in `[-1, 2]` (mostly in the unit square; [`quantize`] rescales).
///
/// # Complexity
/// `O(steps * (V + E + R))` time, where `R` counts the pairs of vertices in neighbouring grid
/// cells (about `9 * 4` per vertex once the layout spreads), and `O(V)` memory besides `g`.
///
/// # Example
/// ```
/// use placelab::partition::{layout::force_layout, Graph};
/// // a path 0 - 1 - 2: the middle vertex ends up between the others
/// let g = Graph::from_edges(3, &[(0, 1, 1), (1, 2, 1)]).unwrap();
/// let p = force_layout(&g, 1, 200);
/// let d = |a: [f64; 2], b: [f64; 2]| ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sqrt();
/// assert!(d(p[0], p[2]) > d(p[0], p[1]));
/// ```
pub fn force_layout(g: &Graph, seed: u64, steps: u32) -> Vec<[f64; 2]> {
    let n = g.n() as usize;
    let mut rng = Rng::seeded(seed ^ 0x1a70_0f00_d5ee_d000);
    let mut pos: Vec<[f64; 2]> = (0..n).map(|_| [rng.unit_f64(), rng.unit_f64()]).collect();
    if n < 2 {
        return pos.into_iter().map(|_| [0.5, 0.5]).collect();
    }
    let d0 = 1.0 / (n as f64).sqrt();
    let d0sq = d0 * d0;
    let cell = 2.0 * d0;
    // cells per side: the unit square split into cells of side `cell` (at least one)
    let side = ((1.0 / cell) as usize).max(1);
    let cell_of = |x: f64| -> usize { ((x * side as f64) as usize).min(side - 1) };
    let mut disp = vec![[0.0f64; 2]; n];
    let mut start = vec![0u32; side * side + 1];
    let mut members = vec![0u32; n];
    let mut cells = vec![0u32; n];
    for step in 0..steps {
        let temp = 0.1 * (1.0 - step as f64 / steps as f64) + 0.001;
        // counting sort of the vertices into grid cells (index order inside a cell)
        start.iter_mut().for_each(|s| *s = 0);
        for v in 0..n {
            let c = cell_of(pos[v][1]) * side + cell_of(pos[v][0]);
            cells[v] = c as u32;
            start[c + 1] += 1;
        }
        for c in 0..side * side {
            start[c + 1] += start[c];
        }
        {
            let mut fill: Vec<u32> = start[..side * side].to_vec();
            for (v, &c) in cells.iter().enumerate() {
                members[fill[c as usize] as usize] = v as u32;
                fill[c as usize] += 1;
            }
        }
        disp.iter_mut().for_each(|d| *d = [0.0, 0.0]);
        // repulsion from the vertices of the 3 x 3 neighbouring cells, within `cell`
        for v in 0..n {
            let c = cells[v] as usize;
            let (cx, cy) = (c % side, c / side);
            let [vx, vy] = pos[v];
            let mut fx = 0.0;
            let mut fy = 0.0;
            for ny in cy.saturating_sub(1)..=(cy + 1).min(side - 1) {
                for nx in cx.saturating_sub(1)..=(cx + 1).min(side - 1) {
                    let nc = ny * side + nx;
                    for &u in &members[start[nc] as usize..start[nc + 1] as usize] {
                        let u = u as usize;
                        if u == v {
                            continue;
                        }
                        let mut dx = vx - pos[u][0];
                        let mut dy = vy - pos[u][1];
                        let mut dsq = dx * dx + dy * dy;
                        if dsq == 0.0 {
                            // coincident vertices: apart along a direction fixed by their ids
                            dx = if v < u { 1e-6 } else { -1e-6 };
                            dy = dx * 0.5;
                            dsq = dx * dx + dy * dy;
                        }
                        if dsq < cell * cell {
                            // force d0^2 / d along the unit vector (dx, dy) / d
                            let f = d0sq / dsq;
                            fx += dx * f;
                            fy += dy * f;
                        }
                    }
                }
            }
            disp[v][0] += fx;
            disp[v][1] += fy;
        }
        // attraction along the edges: force d^2 / d0 along the unit vector, each edge once
        for v in 0..g.n() {
            for &u in g.neighbors(v) {
                if u <= v {
                    continue;
                }
                let (a, b) = (v as usize, u as usize);
                let dx = pos[a][0] - pos[b][0];
                let dy = pos[a][1] - pos[b][1];
                let d = (dx * dx + dy * dy).sqrt();
                let f = d / d0;
                disp[a][0] -= dx * f;
                disp[a][1] -= dy * f;
                disp[b][0] += dx * f;
                disp[b][1] += dy * f;
            }
        }
        // move by at most `temp`; a weak pull to the centre (gravity `d0` per unit of distance)
        // keeps separate components together; no walls (a wall flattens what it stops), only
        // a far bound against runaways (cells beyond the square count as its border cells)
        for v in 0..n {
            let dx = disp[v][0] + (0.5 - pos[v][0]) * d0;
            let dy = disp[v][1] + (0.5 - pos[v][1]) * d0;
            let len = (dx * dx + dy * dy).sqrt();
            if len > 0.0 {
                let s = if len > temp { temp / len } else { 1.0 };
                pos[v][0] = (pos[v][0] + dx * s).clamp(-1.0, 2.0);
                pos[v][1] = (pos[v][1] + dy * s).clamp(-1.0, 2.0);
            }
        }
    }
    pos
}

/// 3D coordinates seen in an oblique projection (depth drawn up and to the right); 2D
/// coordinates (`z == 0`) unchanged.
pub fn project(p: [f64; 3]) -> [f64; 2] {
    [p[0] + 0.42 * p[2], p[1] - 0.27 * p[2]]
}

/// Whole-number drawing coordinates, `x0, y0, x1, y1, ...`, each from 0 to [`DRAW_SCALE`]: the
/// bounding box of `points` scaled by one factor (aspect ratio kept), `y` pointing down as
/// given. Non-finite coordinates are drawn at 0.
pub fn quantize(points: &[[f64; 2]]) -> Vec<u32> {
    let finite = |v: f64| if v.is_finite() { v } else { 0.0 };
    let mut lo = [f64::INFINITY; 2];
    let mut hi = [f64::NEG_INFINITY; 2];
    for p in points {
        for a in 0..2 {
            let v = finite(p[a]);
            lo[a] = lo[a].min(v);
            hi[a] = hi[a].max(v);
        }
    }
    let span = (hi[0] - lo[0]).max(hi[1] - lo[1]);
    let scale = if span > 0.0 && span.is_finite() {
        DRAW_SCALE / span
    } else {
        0.0
    };
    let mut out = Vec::with_capacity(points.len() * 2);
    for p in points {
        for a in 0..2 {
            let v = (finite(p[a]) - lo[a]) * scale + 0.5;
            out.push(v.clamp(0.0, DRAW_SCALE) as u32);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ring(n: u32) -> Graph {
        let edges: Vec<(u32, u32, u32)> = (0..n).map(|i| (i, (i + 1) % n, 1)).collect();
        Graph::from_edges(n, &edges).unwrap()
    }

    #[test]
    fn layout_is_the_same_for_the_same_seed_and_differs_for_another() {
        let g = ring(40);
        assert_eq!(force_layout(&g, 5, 50), force_layout(&g, 5, 50));
        assert_ne!(force_layout(&g, 5, 50), force_layout(&g, 6, 50));
    }

    #[test]
    fn neighbours_end_closer_than_the_average_pair() {
        let g = ring(60);
        let p = force_layout(&g, 3, LAYOUT_STEPS);
        let d =
            |a: usize, b: usize| ((p[a][0] - p[b][0]).powi(2) + (p[a][1] - p[b][1]).powi(2)).sqrt();
        let edge_mean: f64 = (0..60).map(|i| d(i, (i + 1) % 60)).sum::<f64>() / 60.0;
        let mut all = 0.0;
        for a in 0..60 {
            for b in a + 1..60 {
                all += d(a, b);
            }
        }
        let all_mean = all / (60.0 * 59.0 / 2.0);
        assert!(edge_mean * 3.0 < all_mean, "{edge_mean} vs {all_mean}");
        assert!(p
            .iter()
            .all(|q| (-1.0..=2.0).contains(&q[0]) && (-1.0..=2.0).contains(&q[1])));
    }

    #[test]
    fn quantized_coordinates_span_the_scale_and_keep_the_aspect_ratio() {
        let q = quantize(&[[0.0, 0.0], [2.0, 1.0], [1.0, 0.5]]);
        assert_eq!(q, vec![0, 0, 10_000, 5_000, 5_000, 2_500]);
        assert_eq!(quantize(&[[3.0, 3.0]]), vec![0, 0]);
        assert_eq!(
            quantize(&[[f64::NAN, 1.0], [1.0, 2.0]]),
            vec![0, 0, 10_000, 10_000]
        );
    }

    #[test]
    fn tiny_graphs_are_laid_out_without_dividing_by_zero() {
        let g = Graph::from_edges(1, &[]).unwrap();
        assert_eq!(force_layout(&g, 1, 10), vec![[0.5, 0.5]]);
        let g = Graph::from_edges(0, &[]).unwrap();
        assert!(force_layout(&g, 1, 10).is_empty());
    }
}
