//! Identity (shape-matched): a GRID or CUBE job whose task grid fits a block of free nodes of a
//! torus or mesh is laid on that block as it is, task `(x, y, z)` on the block's node
//! `(x, y, z)` (in the first of the six axis orders that fits). Every task-graph edge then
//! spans one hop, except the closing edges of a wrapped task grid laid on a block smaller than
//! the machine. On a whole machine of the job's shape this is the honest upper bound of
//! placement quality (a CUBE of 4096 on 16x16x16 averages 1.00 hop per edge).
//!
//! Blocks are tried in node-number order of their first corner; on a torus a block may wrap
//! around. Other jobs and trees: not applicable (the report says why).
//!
//! # Complexity
//! `O(N P)` at worst (each corner, each of 6 orientations, checks up to `P` nodes), `O(P)` on a
//! free machine.

use super::super::jobs::TaskGraph;
use super::Shape;

/// The hosts of the tasks, or why the job cannot be laid as it is.
pub fn identity(shape: &Shape, busy: &[bool], job: &TaskGraph) -> Result<Vec<u32>, String> {
    let Shape::Grid { dims, wrap } = shape else {
        return Err(match shape {
            Shape::Net { .. } => "Identity needs a torus or mesh of 2 or 3 sides".into(),
            _ => "Identity needs a torus or mesh".into(),
        });
    };
    let Some(s) = job.shape else {
        return Err("Identity needs a GRID or CUBE job".into());
    };
    let fits: Vec<[usize; 3]> = super::machine::AXIS_PERMS
        .into_iter()
        .filter(|p| (0..3).all(|k| s[p[k]] <= dims[k]))
        .collect();
    if fits.is_empty() {
        return Err(format!(
            "the task grid {}x{}x{} fits no block of the {}x{}x{} machine",
            s[0], s[1], s[2], dims[0], dims[1], dims[2]
        ));
    }
    let n = busy.len() as u32;
    for corner in 0..n {
        let c = Shape::coords(*dims, corner);
        for p in &fits {
            // machine axis k carries job axis p[k]
            let side = [s[p[0]], s[p[1]], s[p[2]]];
            if !wrap && (0..3).any(|k| c[k] + side[k] > dims[k]) {
                continue;
            }
            if let Some(h) = lay(*dims, c, p, s, busy) {
                return Ok(h);
            }
        }
    }
    Err("no free block of the task grid's shape".into())
}

fn lay(
    dims: [u32; 3],
    corner: [u32; 3],
    p: &[usize; 3],
    s: [u32; 3],
    busy: &[bool],
) -> Option<Vec<u32>> {
    let total = s[0] * s[1] * s[2];
    let mut hosts = Vec::with_capacity(total as usize);
    for t in 0..total {
        let j = [t % s[0], (t / s[0]) % s[1], t / (s[0] * s[1])];
        let m: Vec<u32> = (0..3).map(|k| (corner[k] + j[p[k]]) % dims[k]).collect();
        let h = m[0] + dims[0] * (m[1] + dims[1] * m[2]);
        if busy[h as usize] {
            return None;
        }
        hosts.push(h);
    }
    Some(hosts)
}
