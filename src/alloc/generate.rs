//! Seeded synthetic job streams: Poisson arrivals, exponential durations, job sizes uniform,
//! log-uniform or powers of two. Every draw goes through [`crate::rng::Rng`] (fixed-width
//! integers) and `libm`, so that native and wasm draw identical numbers.

use super::metrics::Comm;
use super::scenario::{Job, SizeDistribution, WorkloadSpec};
use crate::rng::Rng;

/// Generates `spec.count` jobs with `cores` cores per node.
pub fn generate(spec: &WorkloadSpec, cores: usize, rng: &mut Rng) -> Vec<Job> {
    let count = spec.count.unwrap_or(0);
    let lo = spec.min_tasks();
    let hi = spec.max_tasks().max(lo);
    let inter = spec.mean_interarrival();
    let dur = spec.mean_duration();
    let dist = spec.size_distribution();
    let mut t = 0.0;
    let mut jobs = Vec::with_capacity(count);
    for i in 0..count {
        let tasks = match dist {
            SizeDistribution::Uniform => rng.in_range(lo, hi),
            SizeDistribution::LogUniform => {
                let (a, b) = (libm::log(lo as f64), libm::log(hi as f64 + 1.0));
                let v = libm::exp(a + (b - a) * rng.unit_f64()).floor() as u64;
                v.clamp(lo, hi)
            }
            SizeDistribution::PowersOfTwo => {
                let kmin = 64 - (lo - 1).leading_zeros() as u64; // ceil(log2 lo)
                let kmin = if lo <= 1 { 0 } else { kmin };
                let kmax = 63 - hi.leading_zeros() as u64; // floor(log2 hi)
                if kmin > kmax {
                    lo
                } else {
                    1u64 << rng.in_range(kmin, kmax)
                }
            }
        };
        let u = rng.unit_f64();
        let d = (-dur * libm::log(1.0 - u)).max(dur * 1e-3);
        jobs.push(Job {
            name: format!("j{i}"),
            tasks,
            nodes: tasks.div_ceil(cores as u64) as usize,
            comm: Comm::All,
            arrival: t,
            duration: d,
            walltime: d,
            ids: None,
        });
        let u = rng.unit_f64();
        t += -inter * libm::log(1.0 - u);
    }
    jobs
}
