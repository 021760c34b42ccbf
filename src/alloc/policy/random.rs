//! `random`: `n` free nodes drawn uniformly without replacement from the scenario's seeded
//! generator (partial Fisher-Yates over the free list, each draw a `u64` bound, see
//! [`crate::rng`]). `O(N)`.

use crate::alloc::machine::{Machine, Placement};
use crate::rng::Rng;

/// `n` free nodes chosen at random; the caller checks that `n` are free.
pub fn random(m: &Machine, n: usize, rng: &mut Rng) -> Placement {
    let mut free = m.free_nodes();
    for i in 0..n {
        let j = i + rng.index_below(free.len() - i);
        free.swap(i, j);
    }
    free.truncate(n);
    Placement {
        nodes: free,
        ..Default::default()
    }
}
