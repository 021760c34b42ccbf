//! `sequential`: the `n` lowest-numbered free nodes, the common default of batch systems and the
//! paper's baseline. `O(N)`.

use crate::alloc::machine::{Machine, Placement};

/// The `n` lowest-numbered free nodes; the caller checks that `n` are free.
pub fn sequential(m: &Machine, n: usize) -> Placement {
    let nodes: Vec<u32> = (0..m.owner.len())
        .filter(|&i| m.is_free(i))
        .take(n)
        .map(|i| i as u32)
        .collect();
    Placement {
        nodes,
        ..Default::default()
    }
}
