//! STUB (h6-web only, replaced by h6-graphs' generators on merge).

use super::{Graph, GraphError};
use crate::rng::Rng;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GenKind { Grid2d, Cube3d, BinaryTree, Star, Complete, Geometric, Delaunay }

#[derive(Debug, Clone)]
pub struct GenSpec { pub kind: GenKind, pub n: u32, pub dims: [u32; 3], pub wrap: bool, pub radius: Option<f64> }

pub struct Generated { pub graph: Graph, pub coords: Vec<[f64; 3]> }

pub fn generate(spec: &GenSpec, seed: u64) -> Result<Generated, GraphError> {
    let mut edges = Vec::new();
    let mut coords = Vec::new();
    let n;
    match spec.kind {
        GenKind::Grid2d | GenKind::Cube3d => {
            let [w, h, d] = if spec.kind == GenKind::Grid2d { [spec.dims[0], spec.dims[1], 1] } else { spec.dims };
            n = w * h * d;
            let id = |x: u32, y: u32, z: u32| (z * h + y) * w + x;
            for z in 0..d { for y in 0..h { for x in 0..w {
                coords.push([x as f64, y as f64, z as f64]);
                let v = id(x, y, z);
                if x + 1 < w { edges.push((v, id(x + 1, y, z), 1)); } else if spec.wrap && w > 2 { edges.push((id(0, y, z), v, 1)); }
                if y + 1 < h { edges.push((v, id(x, y + 1, z), 1)); } else if spec.wrap && h > 2 { edges.push((id(x, 0, z), v, 1)); }
                if z + 1 < d { edges.push((v, id(x, y, z + 1), 1)); } else if spec.wrap && d > 2 { edges.push((id(x, y, 0), v, 1)); }
            }}}
        }
        GenKind::BinaryTree => { n = spec.n; for v in 1..n { edges.push(((v - 1) / 2, v, 1)); } }
        GenKind::Star => { n = spec.n; for v in 1..n { edges.push((0, v, 1)); } }
        GenKind::Complete => { n = spec.n; for a in 0..n { for b in a + 1..n { edges.push((a, b, 1)); } } }
        GenKind::Geometric | GenKind::Delaunay => {
            n = spec.n;
            let mut rng = Rng::seeded(seed);
            for _ in 0..n { coords.push([rng.unit_f64(), rng.unit_f64(), 0.0]); }
            let r = spec.radius.unwrap_or(1.6 / (n as f64).sqrt());
            for a in 0..n as usize { for b in a + 1..n as usize {
                let dx = coords[a][0] - coords[b][0]; let dy = coords[a][1] - coords[b][1];
                if dx * dx + dy * dy < r * r { edges.push((a as u32, b as u32, 1)); }
            }}
        }
    }
    Ok(Generated { graph: Graph::from_edges(n, &edges)?, coords })
}
