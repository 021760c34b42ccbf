//! Summary statistics of one group's replicates: `n`, mean, sample standard deviation, the 95 %
//! confidence interval of the mean by Student's t, min, median and max.
//!
//! Definitions (what `docs/format.md` promises, so a user can recompute every cell):
//! - `mean = (x_1 + ... + x_n) / n`, summed in replicate order with Neumaier's compensated
//!   summation, so the result does not depend on threads or on the order points finished;
//! - `sd = sqrt(sum (x_i - mean)^2 / (n - 1))` (sample standard deviation, `n >= 2`);
//! - `ci = mean ± t(0.975, n - 1) · sd / sqrt(n)` (`n >= 2`), where `t(p, ν)` is the quantile of
//!   Student's t distribution with `ν` degrees of freedom ([`student_t_quantile`]);
//! - `median`: the middle value of the sorted values, or the mean of the two middle ones.
//!
//! Invariants (checked by a property test): `min <= median <= max`, `min <= mean <= max`, and
//! the interval contains the mean.

/// The statistics of a list of values; `None` where undefined (no values, or `sd` and `ci` with
/// fewer than two).
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    pub n: usize,
    pub mean: Option<f64>,
    pub sd: Option<f64>,
    pub ci_low: Option<f64>,
    pub ci_high: Option<f64>,
    pub min: Option<f64>,
    pub median: Option<f64>,
    pub max: Option<f64>,
}

/// Sums `xs` in order with Neumaier's compensation (Kahan's, also exact when a term is larger
/// than the running sum).
pub fn ordered_sum(xs: &[f64]) -> f64 {
    let mut sum = 0.0f64;
    let mut c = 0.0f64;
    for &x in xs {
        let t = sum + x;
        if sum.abs() >= x.abs() {
            c += (sum - t) + x;
        } else {
            c += (x - t) + sum;
        }
        sum = t;
    }
    sum + c
}

/// The [`Summary`] of `xs` (finite numbers, in replicate order).
///
/// # Complexity
/// `O(n log n)` for the median's sort.
pub fn summarize(xs: &[f64]) -> Summary {
    let n = xs.len();
    if n == 0 {
        return Summary {
            n,
            mean: None,
            sd: None,
            ci_low: None,
            ci_high: None,
            min: None,
            median: None,
            max: None,
        };
    }
    let mut sorted = xs.to_vec();
    sorted.sort_by(f64::total_cmp);
    let min = sorted[0];
    let max = sorted[n - 1];
    // The rounded mean of values all equal may differ from them in the last bit; it never
    // leaves [min, max] in exact arithmetic, so clamp the rounding away.
    let mean = (ordered_sum(xs) / n as f64).clamp(min, max);
    let median = if n % 2 == 1 {
        sorted[n / 2]
    } else {
        (sorted[n / 2 - 1] / 2.0 + sorted[n / 2] / 2.0).clamp(min, max)
    };
    let (sd, ci_low, ci_high) = if n >= 2 {
        let squares: Vec<f64> = xs.iter().map(|x| (x - mean) * (x - mean)).collect();
        let sd = (ordered_sum(&squares) / (n - 1) as f64).sqrt();
        let half = student_t_quantile(0.975, (n - 1) as f64) * sd / (n as f64).sqrt();
        (Some(sd), Some(mean - half), Some(mean + half))
    } else {
        (None, None, None)
    };
    Summary {
        n,
        mean: Some(mean),
        sd,
        ci_low,
        ci_high,
        min: Some(min),
        median: Some(median),
        max: Some(max),
    }
}

/// The quantile `t` with `P(T <= t) = p` of Student's t distribution with `df` degrees of freedom
/// (`0 < p < 1`, `df > 0`): `t(0.975, 1) = 12.706`, `t(0.975, 10) = 2.228`.
///
/// Solved by safeguarded Newton iteration on [`student_t_cdf`] (bisection whenever a Newton step
/// leaves the bracket), to a relative precision of about `1e-12`.
pub fn student_t_quantile(p: f64, df: f64) -> f64 {
    assert!(
        p > 0.0 && p < 1.0 && df > 0.0,
        "t quantile of p={p}, df={df}"
    );
    if p < 0.5 {
        return -student_t_quantile(1.0 - p, df);
    }
    if p == 0.5 {
        return 0.0;
    }
    // Bracket: F(0) = 0.5 < p; double hi until F(hi) >= p.
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    while student_t_cdf(hi, df) < p {
        lo = hi;
        hi *= 2.0;
        if hi > 1e300 {
            return f64::INFINITY;
        }
    }
    let mut t = (lo + hi) / 2.0;
    for _ in 0..200 {
        let f = student_t_cdf(t, df) - p;
        if f == 0.0 {
            return t;
        }
        if f < 0.0 {
            lo = t;
        } else {
            hi = t;
        }
        let newton = t - f / student_t_pdf(t, df);
        let next = if newton > lo && newton < hi {
            newton
        } else {
            (lo + hi) / 2.0
        };
        if (next - t).abs() <= 1e-14 * t.abs().max(1.0) {
            return next;
        }
        t = next;
    }
    t
}

/// The density of Student's t with `df` degrees of freedom at `t`.
pub fn student_t_pdf(t: f64, df: f64) -> f64 {
    let ln = libm::lgamma((df + 1.0) / 2.0)
        - libm::lgamma(df / 2.0)
        - 0.5 * (df * std::f64::consts::PI).ln()
        - (df + 1.0) / 2.0 * (t * t / df).ln_1p();
    ln.exp()
}

/// `P(T <= t)` for Student's t with `df` degrees of freedom:
/// `1 - I_x(df/2, 1/2) / 2` with `x = df / (df + t^2)` for `t >= 0` (symmetric below 0), where
/// `I` is the regularized incomplete beta function ([`incomplete_beta`]).
pub fn student_t_cdf(t: f64, df: f64) -> f64 {
    let x = df / (df + t * t);
    let tail = 0.5 * incomplete_beta(x, df / 2.0, 0.5);
    if t >= 0.0 {
        1.0 - tail
    } else {
        tail
    }
}

/// The regularized incomplete beta function `I_x(a, b)`, by the continued fraction of
/// Numerical Recipes (§6.4, modified Lentz), using the symmetry `I_x(a,b) = 1 - I_{1-x}(b,a)`
/// where the fraction converges slowly.
pub fn incomplete_beta(x: f64, a: f64, b: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let ln_front =
        libm::lgamma(a + b) - libm::lgamma(a) - libm::lgamma(b) + a * x.ln() + b * (-x).ln_1p();
    let front = ln_front.exp();
    if x < (a + 1.0) / (a + b + 2.0) {
        front * beta_fraction(x, a, b) / a
    } else {
        1.0 - front * beta_fraction(1.0 - x, b, a) / b
    }
}

fn beta_fraction(x: f64, a: f64, b: f64) -> f64 {
    const TINY: f64 = 1e-300;
    let (qab, qap, qam) = (a + b, a + 1.0, a - 1.0);
    let mut c = 1.0;
    let mut d = 1.0 - qab * x / qap;
    if d.abs() < TINY {
        d = TINY;
    }
    d = 1.0 / d;
    let mut h = d;
    // one step of Lentz's method with the partial numerator `aa`: the new `d * c` factor of `h`
    let mut step = |aa: f64| {
        d = 1.0 + aa * d;
        if d.abs() < TINY {
            d = TINY;
        }
        c = 1.0 + aa / c;
        if c.abs() < TINY {
            c = TINY;
        }
        d = 1.0 / d;
        d * c
    };
    for m in 1..=400 {
        let m = m as f64;
        let m2 = 2.0 * m;
        h *= step(m * (b - m) * x / ((qam + m2) * (a + m2)));
        let del = step(-(a + m) * (qab + m) * x / ((a + m2) * (qap + m2)));
        h *= del;
        if (del - 1.0).abs() < 1e-16 {
            break;
        }
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn t_quantiles_match_the_printed_tables() {
        // Two-sided 95 % critical values as printed in every statistics table.
        for (df, t) in [
            (1.0, 12.706_204_736),
            (2.0, 4.302_652_730),
            (3.0, 3.182_446_305),
            (5.0, 2.570_581_836),
            (10.0, 2.228_138_852),
            (29.0, 2.045_229_642),
            (30.0, 2.042_272_456),
            (100.0, 1.983_971_519),
            (1e6, 1.959_966_4),
        ] {
            let got = student_t_quantile(0.975, df);
            assert!((got - t).abs() < 1e-6 * t, "df={df}: {got} vs {t}");
        }
        // Other levels and the lower tail.
        assert!((student_t_quantile(0.95, 4.0) - 2.131_846_786).abs() < 1e-8);
        assert!((student_t_quantile(0.995, 7.0) - 3.499_483_297).abs() < 1e-7);
        assert!((student_t_quantile(0.025, 10.0) + 2.228_138_852).abs() < 1e-8);
        // df = 1 is the Cauchy distribution: t = tan(pi (p - 1/2)).
        let cauchy = (std::f64::consts::PI * 0.4).tan();
        assert!((student_t_quantile(0.9, 1.0) - cauchy).abs() < 1e-9);
    }

    #[test]
    fn summary_of_known_values() {
        let s = summarize(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]);
        assert_eq!(s.n, 8);
        assert_eq!(s.mean, Some(5.0));
        assert!((s.sd.unwrap() - (32.0f64 / 7.0).sqrt()).abs() < 1e-12);
        assert_eq!(s.median, Some(4.5));
        assert_eq!((s.min, s.max), (Some(2.0), Some(9.0)));
        let half = 2.364_624_252 * (32.0f64 / 7.0).sqrt() / 8f64.sqrt();
        assert!((s.ci_high.unwrap() - (5.0 + half)).abs() < 1e-8);
        let one = summarize(&[3.5]);
        assert_eq!((one.mean, one.sd, one.ci_low), (Some(3.5), None, None));
        assert_eq!(summarize(&[]).mean, None);
    }

    #[test]
    fn compensated_sum_is_exact_where_naive_is_not() {
        assert_eq!(ordered_sum(&[1e16, 1.0, -1e16]), 1.0);
    }
}
