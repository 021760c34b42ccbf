//! `hilbert`: order the nodes along a space-filling curve (the generalized Hilbert curve on
//! meshes, leaf order on trees) and take the window of `n` free nodes whose span along the curve
//! is shortest (ties: the earliest). Nearby on the curve means nearby in the machine, so a short
//! span keeps the job compact without requiring a closed region. `O(N)`.

use crate::alloc::machine::{Machine, Placement};

/// The `n` consecutive free nodes (in curve order) with the smallest curve span.
pub fn hilbert_window(m: &Machine, n: usize, curve: &[u32], rank: &[u32]) -> Option<Placement> {
    let free: Vec<u32> = curve
        .iter()
        .copied()
        .filter(|&v| m.is_free(v as usize))
        .collect();
    if free.len() < n {
        return None;
    }
    let mut best = 0;
    let mut best_span = u32::MAX;
    for i in 0..=free.len() - n {
        let span = rank[free[i + n - 1] as usize] - rank[free[i] as usize];
        if span < best_span {
            best_span = span;
            best = i;
        }
    }
    Some(Placement {
        nodes: free[best..best + n].to_vec(),
        ..Default::default()
    })
}
