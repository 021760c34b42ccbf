//! A random trace platform shared by the trace search tests and the non-blocking replay tests.

use placelab::rng::Rng;
use placelab::trace::replay::Platform;

/// A random platform of `n` nodes; with `kinds` small, many nodes are identical (values drawn
/// from few choices so that ties happen): links depend only on the kinds of their ends.
pub fn random_platform(rng: &mut Rng, n: usize, kinds: u64) -> Platform {
    let kind: Vec<u64> = (0..n).map(|_| rng.below(kinds)).collect();
    let ratio: Vec<f64> = kind.iter().map(|&k| 1.0 + k as f64).collect();
    let mut a0 = vec![0.0; n * n];
    let mut a1 = vec![0.0; n * n];
    let pick = |ka: u64, kb: u64| ((ka * 7 + kb * 3) % 5) as f64;
    for u in 0..n {
        for v in 0..n {
            if u != v {
                a0[u * n + v] = 0.25 * pick(kind[u], kind[v]);
                a1[u * n + v] = 0.001 * pick(kind[v], kind[u]);
            }
        }
    }
    Platform {
        n,
        ratio,
        a0,
        a1,
        cores: vec![1; n],
    }
}
