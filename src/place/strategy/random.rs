//! Random: `n` free nodes drawn uniformly without replacement from the seed (a partial
//! Fisher-Yates shuffle of the free list; every draw through [`crate::rng::Rng`] on `u64`).
//! `O(N)`.

use crate::rng::Rng;

/// `n` distinct free hosts in the order drawn (task `i` gets the `i`-th).
pub fn random(busy: &[bool], n: u32, seed: u64) -> Vec<u32> {
    let mut free: Vec<u32> = (0..busy.len() as u32)
        .filter(|&h| !busy[h as usize])
        .collect();
    let mut rng = Rng::seeded(seed ^ 0x7a4d_0c11);
    let n = (n as usize).min(free.len());
    for i in 0..n {
        let j = i + rng.index_below(free.len() - i);
        free.swap(i, j);
    }
    free.truncate(n);
    free
}
