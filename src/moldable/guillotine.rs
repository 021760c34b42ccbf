//! Instances with a known optimum: a strip of `n` machines by `H` time units is cut into `m`
//! rectangles by guillotine cuts (each cut goes straight across one piece), and each piece
//! `(w, h)` becomes a job whose first variant is `(ranks w, time h)`. Placing every piece where
//! it was cut is a schedule of makespan `H` using all `n H` area, and no schedule does better:
//! the pieces' areas sum to `n H`, so the area bound is `H` (and every other variant has an area
//! at least the piece's, so the bound stays `H` whatever variants a scheduler picks). Hence
//! `makespan / H` is exactly a heuristic's distance from the optimum.
//!
//! Cutting: while there are fewer than `m` pieces, a random piece that can still be cut is cut
//! across its relatively longer side (width over `n` against height over `H`) with probability
//! 3/4, else across the other, at a uniform whole position. Extra variants: up to
//! `max_variants - 1` per job, with ranks `ceil(w/2)` or `min(n, 2w)` (one at random, then the
//! other) and time `ceil(w h (1 + e) / r)`, `e` uniform in `[0, 0.25)`, weight `w h / (r t)`.
//!
//! # Complexity
//! `O(m)` expected draws.

use super::model::{Job, Variant};
use crate::rng::Rng;

/// The pieces `(x, y, w, h)` of a guillotine cut of `n x height` into `m` pieces
/// (`m <= n * height`).
pub fn cut(n: u32, height: u32, m: u32, rng: &mut Rng) -> Vec<(u32, u32, u32, u32)> {
    let mut pieces = vec![(0u32, 0u32, n, height)];
    while (pieces.len() as u32) < m {
        let start = rng.index_below(pieces.len());
        let Some(idx) = (0..pieces.len())
            .map(|k| (start + k) % pieces.len())
            .find(|&k| pieces[k].2 > 1 || pieces[k].3 > 1)
        else {
            break;
        };
        let (x, y, w, h) = pieces[idx];
        let rel_w = w as f64 / n as f64;
        let rel_h = h as f64 / height as f64;
        let longer_is_w = rel_w >= rel_h;
        let across_w = if w < 2 {
            false
        } else if h < 2 {
            true
        } else if rng.below(4) < 3 {
            longer_is_w
        } else {
            !longer_is_w
        };
        if across_w {
            let c = rng.in_range(1, (w - 1) as u64) as u32;
            pieces[idx] = (x, y, c, h);
            pieces.push((x + c, y, w - c, h));
        } else {
            let c = rng.in_range(1, (h - 1) as u64) as u32;
            pieces[idx] = (x, y, w, c);
            pieces.push((x, y + c, w, h - c));
        }
    }
    pieces
}

/// A guillotine job set of `m` jobs with optimum makespan `height` (see the module doc).
pub fn generate(n: u32, height: u32, m: u32, max_variants: u32, seed: u64) -> Vec<Job> {
    let mut rng = Rng::seeded(seed ^ 0x6775_696c_6c6f_7469);
    let pieces = cut(n, height, m, &mut rng);
    pieces
        .iter()
        .enumerate()
        .map(|(i, &(_, _, w, h))| {
            let mut variants = vec![Variant {
                ranks: w,
                time: h as f64,
                weight: 1.0,
            }];
            let mut widths = [w.div_ceil(2), w.saturating_mul(2).min(n)];
            if rng.below(2) == 1 {
                widths.swap(0, 1);
            }
            for &r in widths.iter().take(max_variants.saturating_sub(1) as usize) {
                if variants.iter().any(|v| v.ranks == r) {
                    continue;
                }
                let e = rng.unit_f64() * 0.25;
                let area = w as f64 * h as f64;
                let t = (area * (1.0 + e) / r as f64).ceil().max(1.0);
                variants.push(Variant {
                    ranks: r,
                    time: t,
                    weight: area / (r as f64 * t),
                });
            }
            Job {
                name: format!("J{}", i + 1),
                variants,
                release: 0.0,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_tile_the_strip_exactly() {
        let mut rng = Rng::seeded(5);
        let (n, h) = (64u32, 50u32);
        let pieces = cut(n, h, 200, &mut rng);
        assert_eq!(pieces.len(), 200);
        let mut grid = vec![0u8; (n * h) as usize];
        for &(x, y, w, hh) in &pieces {
            for yy in y..y + hh {
                for xx in x..x + w {
                    grid[(yy * n + xx) as usize] += 1;
                }
            }
        }
        assert!(grid.iter().all(|&c| c == 1));
    }

    #[test]
    fn variants_never_have_less_area_than_their_piece() {
        let jobs = generate(128, 100, 300, 3, 9);
        let total: f64 = jobs.iter().map(|j| j.variants[0].area()).sum();
        assert_eq!(total, 128.0 * 100.0);
        for j in &jobs {
            let a = j.variants[0].area();
            assert!(j.variants.iter().all(|v| v.area() >= a && v.ranks <= 128));
        }
        assert!(jobs.iter().any(|j| j.variants.len() == 3));
    }
}
