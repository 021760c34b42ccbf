//! A lower bound on the makespan of any schedule:
//! - area bound: every job occupies at least its smallest area `min_k r^k t^k`, and `n`
//!   machines give `n` area per time unit, so `T >= sum_i min_k (r t) / n`;
//! - longest job: job `i` ends no earlier than `release_i + min_k t^k`.
//!
//! `LB = max(area, longest)`. On guillotine instances the area bound equals the optimum `H`.
//!
//! # Complexity
//! `O(sum of q_i)`.

use super::model::Instance;
use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LowerBound {
    pub area: f64,
    pub longest: f64,
    pub value: f64,
}

/// The lower bound of an instance (variants wider than `n` ignored).
pub fn lower_bound(inst: &Instance) -> LowerBound {
    let n = inst.machines;
    let mut area = 0.0;
    let mut longest = 0.0f64;
    for j in &inst.jobs {
        let fit = j.variants.iter().filter(|v| v.ranks <= n);
        let a = fit.clone().map(|v| v.area()).fold(f64::INFINITY, f64::min);
        let t = fit.map(|v| v.time).fold(f64::INFINITY, f64::min);
        if a.is_finite() {
            area += a;
            longest = longest.max(j.release + t);
        }
    }
    let area = area / n as f64;
    LowerBound {
        area,
        longest,
        value: area.max(longest),
    }
}
