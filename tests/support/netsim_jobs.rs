//! Jobs for the simulator's tests: a wrapped 2D grid's messages, and scattered hosts.

use placelab::netsim::Message;
use placelab::rng::Rng;

/// `p` tasks of a wrapped 2D grid (both ways) on `hosts`.
pub fn grid(hosts: &[u32], bytes: f64) -> Vec<Message> {
    let p = hosts.len() as u32;
    let mut side = 1;
    while (side + 1) * (side + 1) <= p {
        side += 1;
    }
    let mut out = Vec::new();
    for t in 0..side * side {
        let (x, y) = (t % side, t / side);
        for u in [(x + 1) % side + side * y, x + side * ((y + 1) % side)] {
            if u != t {
                for (a, b) in [(t, u), (u, t)] {
                    out.push(Message {
                        src: hosts[a as usize],
                        dst: hosts[b as usize],
                        bytes,
                    });
                }
            }
        }
    }
    out
}

/// `k` distinct hosts of `0..n`, seeded.
pub fn scattered(n: u32, k: usize, seed: u64) -> Vec<u32> {
    let mut all: Vec<u32> = (0..n).collect();
    let mut rng = Rng::seeded(seed);
    for i in 0..k {
        let j = i + rng.below((all.len() - i) as u64) as usize;
        all.swap(i, j);
    }
    all.truncate(k);
    all
}
