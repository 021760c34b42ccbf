//! Least-squares fit of a link's cost `T = a0 + a1 N` to measured `(N, T)` samples (the
//! source measures sizes 0 to 1000 step 25, 5000 repetitions each, and fits this line).
//!
//! With means `N̄`, `T̄`: `a1 = Σ (N_i - N̄)(T_i - T̄) / Σ (N_i - N̄)^2`, `a0 = T̄ - a1 N̄`; this
//! minimises `Σ (T_i - a0 - a1 N_i)^2` and needs two distinct sizes. Sums run in sample order
//! with `+ - * /` only, so the fit is the same on every target.
//!
//! # Complexity
//! `O(s)` for `s` samples.

/// A fitted line and its quality.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fit {
    pub a0: f64,
    pub a1: f64,
    /// Root mean square residual, seconds.
    pub rms: f64,
    /// Largest absolute residual, seconds.
    pub max_residual: f64,
    /// `1 - SS_res / SS_tot` (1 when every time is equal).
    pub r2: f64,
}

/// Fits `T = a0 + a1 N`; None when fewer than two distinct sizes are given.
pub fn least_squares(samples: &[[f64; 2]]) -> Option<Fit> {
    let k = samples.len() as f64;
    if samples.len() < 2 {
        return None;
    }
    let mean_n = samples.iter().map(|s| s[0]).sum::<f64>() / k;
    let mean_t = samples.iter().map(|s| s[1]).sum::<f64>() / k;
    let mut sxx = 0.0;
    let mut sxy = 0.0;
    let mut stt = 0.0;
    for s in samples {
        let dn = s[0] - mean_n;
        let dt = s[1] - mean_t;
        sxx += dn * dn;
        sxy += dn * dt;
        stt += dt * dt;
    }
    if sxx <= 0.0 || !sxx.is_finite() {
        return None;
    }
    let a1 = sxy / sxx;
    let a0 = mean_t - a1 * mean_n;
    let mut ss = 0.0;
    let mut max_residual: f64 = 0.0;
    for s in samples {
        let r = s[1] - (a0 + a1 * s[0]);
        ss += r * r;
        max_residual = max_residual.max(r.abs());
    }
    let rms = (ss / k).sqrt();
    let r2 = if stt > 0.0 { 1.0 - ss / stt } else { 1.0 };
    Some(Fit {
        a0,
        a1,
        rms,
        max_residual,
        r2,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_line_is_recovered_with_zero_residual() {
        let s: Vec<[f64; 2]> = (0..=40)
            .map(|i| {
                let n = 25.0 * i as f64;
                [n, 1e-4 + 2e-8 * n]
            })
            .collect();
        let f = least_squares(&s).unwrap();
        assert!((f.a0 - 1e-4).abs() < 1e-15);
        assert!((f.a1 - 2e-8).abs() < 1e-18);
        assert!(f.rms < 1e-15 && f.r2 > 0.999_999);
    }

    #[test]
    fn noisy_fit_minimises_squares_and_needs_two_sizes() {
        let s = [[0.0, 1.0], [1.0, 3.0], [2.0, 4.0]];
        let f = least_squares(&s).unwrap();
        assert!((f.a1 - 1.5).abs() < 1e-12);
        assert!((f.a0 - (8.0 / 3.0 - 1.5)).abs() < 1e-12);
        // moving either coefficient a little increases the sum of squares
        let ss = |a0: f64, a1: f64| {
            s.iter()
                .map(|p| (p[1] - a0 - a1 * p[0]).powi(2))
                .sum::<f64>()
        };
        let best = ss(f.a0, f.a1);
        for (d0, d1) in [(1e-3, 0.0), (-1e-3, 0.0), (0.0, 1e-3), (0.0, -1e-3)] {
            assert!(ss(f.a0 + d0, f.a1 + d1) > best);
        }
        assert!(least_squares(&[[5.0, 1.0], [5.0, 2.0]]).is_none());
        assert!(least_squares(&[[5.0, 1.0]]).is_none());
    }
}
