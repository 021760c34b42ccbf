//! `random`: `n` free nodes drawn uniformly without replacement from the scenario's seeded
//! generator (partial Fisher-Yates over the free list). `O(N)`.

use crate::alloc::machine::{Machine, Placement};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// `n` free nodes chosen at random; the caller checks that `n` are free.
pub fn random(m: &Machine, n: usize, rng: &mut ChaCha8Rng) -> Placement {
    let mut free = m.free_nodes();
    for i in 0..n {
        let j = rng.gen_range(i..free.len());
        free.swap(i, j);
    }
    free.truncate(n);
    Placement {
        nodes: free,
        ..Default::default()
    }
}
