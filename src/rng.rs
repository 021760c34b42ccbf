//! The one seeded random generator of the project, identical on every target.
//!
//! Rule: every random draw in the crate goes through [`Rng`], and every draw is defined on
//! fixed-width integers (`u32`, `u64`) only. Platform-width integers (`usize`, 32 bits in wasm32
//! and 64 bits natively) never reach the generator: a draw over `usize` values makes the two
//! targets consume different random words and so choose differently for the same seed. Callers
//! that index a slice convert the length to `u64` and the result back (see [`Rng::index_below`]).
//!
//! The stream is ChaCha8 (`rand_chacha`), seeded from a `u64` by `rand_core`'s
//! `seed_from_u64`; bounded integers use Lemire's multiply-and-reject method on `u64`, and
//! reals the top 53 bits of a `u64`. `tests` pins the first draws of a seed, so any platform
//! difference shows as a failing test (the browser tests compare whole reports as well).

use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A seeded generator; the same seed gives the same draws on every target.
#[derive(Debug, Clone)]
pub struct Rng(ChaCha8Rng);

impl Rng {
    /// The generator of `seed`.
    pub fn seeded(seed: u64) -> Self {
        Rng(ChaCha8Rng::seed_from_u64(seed))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A uniform integer in `0..n` (Lemire's method: one 64x64->128 multiply, rejecting the
    /// `2^64 mod n` low products that would bias the result). Panics if `n == 0`.
    pub fn below(&mut self, n: u64) -> u64 {
        assert!(n > 0, "below(0) has no values");
        let mut m = u128::from(self.next_u64()) * u128::from(n);
        if (m as u64) < n {
            let threshold = n.wrapping_neg() % n;
            while (m as u64) < threshold {
                m = u128::from(self.next_u64()) * u128::from(n);
            }
        }
        (m >> 64) as u64
    }

    /// A uniform integer in `lo..=hi` (`lo <= hi`); the whole `u64` range is allowed.
    pub fn in_range(&mut self, lo: u64, hi: u64) -> u64 {
        assert!(lo <= hi, "empty range {lo}..={hi}");
        match (hi - lo).checked_add(1) {
            Some(span) => lo + self.below(span),
            None => self.next_u64(),
        }
    }

    /// A uniform index in `0..len`, drawn as [`Rng::below`]`(len as u64)` so that it does not
    /// depend on the width of `usize`.
    pub fn index_below(&mut self, len: usize) -> usize {
        self.below(len as u64) as usize
    }

    /// A uniform real in `[0, 1)`: the top 53 bits of a `u64` times `2^-53`.
    pub fn unit_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}

/// The first draws of seed 1 through every method (3 words, 8 `below(10)`, 3 `below` of a
/// bound above 2^63, 3 `in_range(5, 9)`, 3 `unit_f64` as bits): the sequence that
/// [`PINNED_PROBE`] pins natively and the browser tests check in wasm.
pub fn probe() -> Vec<u64> {
    let mut r = Rng::seeded(1);
    let mut out: Vec<u64> = (0..3).map(|_| r.next_u64()).collect();
    out.extend((0..8).map(|_| r.below(10)));
    out.extend((0..3).map(|_| r.below((1 << 63) + 12345)));
    out.extend((0..3).map(|_| r.in_range(5, 9)));
    out.extend((0..3).map(|_| r.unit_f64().to_bits()));
    out
}

/// [`probe`] as computed on x86_64: a change of generator, seeding or method, or a target that
/// draws differently, fails the tests.
pub const PINNED_PROBE: [u64; 20] = [
    7_424_550_030_962_593_201,
    1_482_817_706_323_250_795,
    11_004_592_982_271_133_285,
    2,
    2,
    7,
    4,
    1,
    8,
    7,
    4,
    2_434_209_917_963_664_778,
    4_182_427_744_225_956_814,
    2_584_653_788_615_328_017,
    9,
    9,
    9,
    4_593_968_638_165_319_456,
    4_599_862_882_459_709_476,
    4_602_323_976_005_164_046,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_equal_the_pinned_sequence() {
        assert_eq!(probe(), PINNED_PROBE.to_vec());
    }

    #[test]
    fn bounded_draws_stay_in_bounds_and_cover_them() {
        let mut r = Rng::seeded(7);
        let mut seen = [0u32; 7];
        for _ in 0..7000 {
            seen[r.below(7) as usize] += 1;
        }
        assert!(seen.iter().all(|&c| c > 800), "{seen:?}");
        for _ in 0..1000 {
            let v = r.in_range(3, 4);
            assert!((3..=4).contains(&v));
            let u = r.unit_f64();
            assert!((0.0..1.0).contains(&u));
        }
        assert_eq!(r.in_range(9, 9), 9);
        let _ = r.in_range(0, u64::MAX);
    }

    #[test]
    fn same_seed_same_draws_different_seed_different_draws() {
        let a: Vec<u64> = {
            let mut r = Rng::seeded(9_007_199_254_740_993);
            (0..4).map(|_| r.next_u64()).collect()
        };
        let b: Vec<u64> = {
            let mut r = Rng::seeded(9_007_199_254_740_993);
            (0..4).map(|_| r.next_u64()).collect()
        };
        let c: Vec<u64> = {
            let mut r = Rng::seeded(9_007_199_254_740_992);
            (0..4).map(|_| r.next_u64()).collect()
        };
        assert_eq!(a, b);
        assert_ne!(a, c);
    }
}
