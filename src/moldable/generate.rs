//! Job sets built from other data: random moldable sets (the source's test sets are not
//! published; ours are described below) and jobs read from SWF logs, made moldable by Amdahl's
//! law.
//!
//! Amdahl: a job that runs `t` on `p` processors with serial fraction `s` does work
//! `T1 = t / (s + (1 - s) / p)` and runs `T(r) = T1 (s + (1 - s) / r)` on `r` processors; its
//! parallel efficiency `T1 / (r T(r))` is the variant's weight. Its area `r T(r) =
//! T1 (s r + 1 - s)` grows with `r`, so wider variants are faster but cost more machine time.

use super::model::{Job, Variant};
use crate::formats::swf::SwfLog;
use crate::rng::Rng;

/// Variants of a job that runs `t` on `p` processors: `r = p/4, p/2, p, 2p` (those from 1 to
/// `n`, distinct), times by Amdahl with serial fraction `s`, rounded up to whole units (at
/// least 1), weights their parallel efficiency. The requested `(p, t)` is always the first
/// variant and keeps its time exactly.
pub fn amdahl_variants(p: u32, t: f64, s: f64, n: u32) -> Vec<Variant> {
    let p = p.max(1);
    let t1 = t / (s + (1.0 - s) / p as f64);
    let eff = |r: u32, tr: f64| t1 / (r as f64 * tr);
    let mut out = vec![Variant {
        ranks: p,
        time: t,
        weight: eff(p, t).min(1.0),
    }];
    for r in [p / 4, p / 2, p.saturating_mul(2)] {
        if r < 1 || r > n || out.iter().any(|v| v.ranks == r) {
            continue;
        }
        let tr = (t1 * (s + (1.0 - s) / r as f64)).ceil().max(1.0);
        out.push(Variant {
            ranks: r,
            time: tr,
            weight: eff(r, tr).min(1.0),
        });
    }
    out
}

/// Jobs of an SWF log: requested (else allocated) processors and run time; with a serial
/// fraction, the Amdahl variants of [`amdahl_variants`]; with `releases`, submit times
/// (shifted so the first job arrives at 0) as release times. Jobs wider than `n` keep their
/// variants (the validation refuses a job none of whose variants fits).
pub fn from_swf(log: &SwfLog, n: u32, serial_fraction: Option<f64>, releases: bool) -> Vec<Job> {
    log.jobs
        .iter()
        .map(|j| {
            let p = j.requested_processors.min(u32::MAX as u64) as u32;
            let variants = match serial_fraction {
                Some(s) => amdahl_variants(p, j.run_time, s, n),
                None => vec![Variant {
                    ranks: p,
                    time: j.run_time,
                    weight: 1.0,
                }],
            };
            Job {
                name: format!("{}", j.id),
                variants,
                release: if releases { j.arrival } else { 0.0 },
            }
        })
        .collect()
}

/// A random moldable set of `m` jobs for `n` machines, seeded: each job draws a base width
/// `p` uniform in `1 ..= max(1, n / 32)`, a base time uniform in `1 ..= 100`, a serial
/// fraction uniform in `[0, 0.2)`, and `q` uniform in `1 ..= max_variants`; its variants are
/// the first `q` Amdahl variants ([`amdahl_variants`]) of `(p, t)`.
pub fn random_set(n: u32, m: u32, max_variants: u32, seed: u64) -> Vec<Job> {
    let mut rng = Rng::seeded(seed ^ 0x6d6f_6c64_6162_6c65);
    let wmax = (n / 32).max(1) as u64;
    (0..m)
        .map(|i| {
            let p = rng.in_range(1, wmax) as u32;
            let t = rng.in_range(1, 100) as f64;
            let s = rng.unit_f64() * 0.2;
            let q = rng.in_range(1, max_variants.max(1) as u64) as usize;
            let mut variants = amdahl_variants(p, t, s, n);
            variants.truncate(q);
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
    fn amdahl_variants_keep_the_request_and_never_shrink_the_area() {
        let v = amdahl_variants(8, 100.0, 0.1, 1024);
        assert_eq!((v[0].ranks, v[0].time), (8, 100.0));
        let ranks: Vec<u32> = v.iter().map(|x| x.ranks).collect();
        assert_eq!(ranks, vec![8, 2, 4, 16]);
        // T1 = 100 / (0.1 + 0.9 / 8) = 470.58..; T(2) = T1 * 0.55 = 258.8 -> 259
        assert_eq!(v[1].time, 259.0);
        let a8 = v[0].area();
        assert!(v[3].area() >= a8 && v[3].time < 100.0);
        assert!(v.iter().all(|x| x.weight > 0.0 && x.weight <= 1.0));
        // a serial job (s = 1) gains nothing from more ranks
        let s = amdahl_variants(4, 10.0, 1.0, 8);
        assert!(s.iter().all(|x| x.time >= 10.0));
    }
}
