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

/// The fit of one size range of a [`piecewise`] fit: samples of `from < N <= to` (the first
/// range from 0 inclusive; the last without `to`).
#[derive(Debug, Clone, PartialEq)]
pub struct RangeFit {
    pub from: f64,
    pub to: Option<f64>,
    pub count: u64,
    pub fit: Fit,
}

/// A link fitted per size range, and the same in SMPI's factor form: the first range's line
/// `a0 + a1 N` with `latFactor` (each range's `a0` over the first's) and `bwFactor` (the first
/// range's `a1` over each range's) at the breakpoint that opens the range, so that
/// `latFactor(N) a0 + N a1 / bwFactor(N)` ([`super::factors`]) is each range's line. The
/// strings are absent when a ratio is not a positive finite number (a range's intercept or
/// slope at or below 0).
#[derive(Debug, Clone, PartialEq)]
pub struct Piecewise {
    pub ranges: Vec<RangeFit>,
    pub lat_factor: Option<String>,
    pub bw_factor: Option<String>,
}

/// Most breakpoints of a piecewise fit.
pub const MAX_BREAKPOINTS: usize = 100;

/// Fits `T = a0 + a1 N` in each size range the `breakpoints` cut (`B_0 < B_1 < ...`, whole
/// bytes): `N <= B_0`, `B_0 < N <= B_1`, ..., `N > B_last`, the ranges SMPI's factor rule gives
/// ([`super::factors`], "The rule"), so the fit reads back as factors exactly.
///
/// # Errors
/// Breakpoints that are not whole numbers, not increasing or too many; a range whose samples
/// have fewer than two different sizes (it names the range).
///
/// # Complexity
/// `O(s log k)` for `s` samples and `k` breakpoints.
pub fn piecewise(samples: &[[f64; 2]], breakpoints: &[f64]) -> Result<Piecewise, String> {
    if breakpoints.is_empty() || breakpoints.len() > MAX_BREAKPOINTS {
        return Err(format!(
            "from 1 to {MAX_BREAKPOINTS} sizes, got {}",
            breakpoints.len()
        ));
    }
    for (i, &b) in breakpoints.iter().enumerate() {
        if !(b >= 0.0 && b.fract() == 0.0) {
            return Err(format!(
                "[{i}]: a size is a whole number of bytes, got {}",
                crate::error::compact_number(b)
            ));
        }
        if i > 0 && b <= breakpoints[i - 1] {
            return Err(format!(
                "[{i}]: sizes must increase, {} follows {}",
                crate::error::compact_number(b),
                crate::error::compact_number(breakpoints[i - 1])
            ));
        }
    }
    let k = breakpoints.len();
    let mut parts: Vec<Vec<[f64; 2]>> = vec![Vec::new(); k + 1];
    for smp in samples {
        // breakpoints strictly below the size: the range's index
        parts[breakpoints.partition_point(|&b| b < smp[0])].push(*smp);
    }
    let mut ranges = Vec::with_capacity(k + 1);
    for (j, part) in parts.iter().enumerate() {
        let from = if j == 0 { 0.0 } else { breakpoints[j - 1] };
        let to = breakpoints.get(j).copied();
        let name = match (j, to) {
            (0, Some(t)) => format!("N <= {}", crate::error::compact_number(t)),
            (_, Some(t)) => format!(
                "{} < N <= {}",
                crate::error::compact_number(from),
                crate::error::compact_number(t)
            ),
            (_, None) => format!("N > {}", crate::error::compact_number(from)),
        };
        let fit = least_squares(part).ok_or_else(|| {
            format!(
                "the range {name} has {} sample(s) and needs samples of at least two different sizes",
                part.len()
            )
        })?;
        ranges.push(RangeFit {
            from,
            to,
            count: part.len() as u64,
            fit,
        });
    }
    let base = ranges[0].fit;
    let ratios = |f: &dyn Fn(&Fit) -> f64| -> Option<String> {
        let mut out = Vec::with_capacity(k);
        for (j, r) in ranges.iter().enumerate().skip(1) {
            let v = f(&r.fit);
            if !(v.is_finite() && v > 0.0) {
                return None;
            }
            out.push(format!("{}:{}", breakpoints[j - 1], v));
        }
        Some(out.join(";"))
    };
    let lat_factor = ratios(&|f: &Fit| f.a0 / base.a0);
    let bw_factor = ratios(&|f: &Fit| base.a1 / f.a1);
    Ok(Piecewise {
        ranges,
        lat_factor,
        bw_factor,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_piecewise_line_is_recovered_per_range_and_reads_back_as_factors() {
        // a0 = 1e-4, a1 = 1e-8 up to 1000 bytes; then latency x2 and bandwidth x0.5
        let t = |n: f64| {
            if n <= 1000.0 {
                1e-4 + 1e-8 * n
            } else {
                2e-4 + 2e-8 * n
            }
        };
        let s: Vec<[f64; 2]> = (0..=40)
            .map(|i| 100.0 * i as f64)
            .map(|n| [n, t(n)])
            .collect();
        let pw = piecewise(&s, &[1000.0]).unwrap();
        assert_eq!(pw.ranges.len(), 2);
        assert_eq!((pw.ranges[0].count, pw.ranges[1].count), (11, 30));
        let lat = crate::trace::factors::Factors::parse(pw.lat_factor.as_deref().unwrap()).unwrap();
        let bw = crate::trace::factors::Factors::parse(pw.bw_factor.as_deref().unwrap()).unwrap();
        let b = pw.ranges[0].fit;
        for n in [0.0, 999.0, 1000.0, 1001.0, 4000.0] {
            let m = crate::trace::factors::message_time(b.a0, b.a1, n, Some(&lat), Some(&bw));
            assert!((m - t(n)).abs() < 1e-12, "{n}: {m} against {}", t(n));
        }
        let e = piecewise(&s, &[1000.0, 3950.0]).unwrap_err();
        assert!(e.contains("N > 3950"), "{e}");
        assert!(piecewise(&s, &[5.0, 5.0]).unwrap_err().contains("increase"));
        assert!(piecewise(&s, &[0.5]).unwrap_err().contains("whole"));
    }

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
