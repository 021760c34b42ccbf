//! Workstation selection (Qi & Ju): which of `Q` loaded workstations should an SPMD job use.
//!
//! Model: a job split into `P` equal parts runs in synchronized iterations, so the
//! slowest chosen station paces everyone:
//!
//! ```text
//! T(G) = Ts(P) + Tc(P) + Tr(P) + To(P) * pace(G),   pace(G) = max over i in G of 1 / r_i,
//! r_i  = speed_i * (1 - eta_i)                        (the station's effective rate)
//! ```
//!
//! With every speed 1 this is the source's `To(P) / (1 - eta(G))`, `eta(G)` the largest load.
//!
//! **Theorem (least-loaded prefix).** For a fixed size `P`, `T(G)` depends on `G` only through
//! `pace(G)`, which is smallest for the `P` stations of highest rate. So sorting stations by rate
//! (descending: least loaded first when speeds are equal) and evaluating `T` on each prefix finds
//! the optimum over all `2^Q - 1` subsets. `tests/select.rs` checks this against brute force.
//!
//! **Uncertainty.** A load given as `[lo, hi]` makes each rate an interval; stations are ordered
//! by their nominal (middle) rate, and for each prefix `T_lo(P)` uses every load at `lo`,
//! `T_hi(P)` every load at `hi`. Two robust choices are reported:
//! - *min upper*: the `P` minimizing `T_hi(P)`, the best guarantee;
//! - *min regret*: the `P` minimizing `R(P) = max over loads s in the box, over prefixes P' of
//!   T(P, s) - T(P', s)`: how much worse than the best prefix (in hindsight) it can be.
//!
//! `R(P)` is computed exactly: for a competitor `P'` the two prefixes nest, so with `a` the
//! smaller prefix's pace (any value in `[max lo, max hi]` over its stations) and `e` the pace of
//! the extra stations of the larger one (any value in its own interval, independently), the
//! larger prefix's pace is `max(a, e)` and `T(P, s) - T(P', s)` is a function of `(a, e)` that
//! is linear on each of the two pieces of the box cut by the line `a = e`. Its maximum is at a
//! vertex of a piece: `a` in `{a_lo, a_hi, e_lo, e_hi}` (clamped into its interval) times `e`
//! in `{e_lo, e_hi, a_lo, a_hi}` (clamped) covers them all, and every candidate is a feasible
//! point, so [`regret`] takes the largest of those 16 values. Paces of a station's interval
//! are `1 / (speed (1 - lo))` to `1 / (speed (1 - hi))`.
//!
//! # Complexity
//! `O(Q log Q + Q L)` for the curve (`L` instructions of the compiled formulas), plus `O(Q^2)`
//! for the regret when loads are ranges.

use super::expr::{Constants, Program};
use super::report::{Choice, CurvePoint, StationRow, Uncertainty};
use super::scenario::{PSet, Station};

/// The four compiled terms.
pub struct Terms {
    pub ts: Program,
    pub tc: Program,
    pub tr: Program,
    pub to: Program,
}

impl Terms {
    /// Compiles the four formulas (texts already validated).
    ///
    /// # Errors
    /// The first formula that does not parse or names an unknown constant, with its index.
    pub fn compile(
        f: &[String; 4],
        c: &Constants,
    ) -> Result<Terms, (usize, super::expr::ExprError)> {
        let one = |i: usize| super::expr::compile(&f[i], c).map_err(|e| (i, e));
        Ok(Terms {
            ts: one(0)?,
            tc: one(1)?,
            tr: one(2)?,
            to: one(3)?,
        })
    }

    /// `[ts, tc, tr, to]` at `p`.
    pub fn at(&self, p: f64, scratch: &mut Vec<f64>) -> [f64; 4] {
        [
            self.ts.eval(p, scratch),
            self.tc.eval(p, scratch),
            self.tr.eval(p, scratch),
            self.to.eval(p, scratch),
        ]
    }
}

/// A station's rate `speed * (1 - load)`.
pub fn rate(speed: f64, load: f64) -> f64 {
    speed * (1.0 - load)
}

/// Station indices fastest first: by nominal rate descending, ties by input order.
pub fn selection_order(stations: &[Station]) -> Vec<u32> {
    let mut order: Vec<u32> = (0..stations.len() as u32).collect();
    order.sort_by(|&a, &b| {
        let ra = rate(stations[a as usize].speed, stations[a as usize].load.mid());
        let rb = rate(stations[b as usize].speed, stations[b as usize].load.mid());
        rb.total_cmp(&ra).then(a.cmp(&b))
    });
    order
}

/// The whole curve and the choices drawn from it.
pub struct PrefixCurve {
    pub rows: Vec<StationRow>,
    pub order: Vec<u32>,
    pub curve: Vec<CurvePoint>,
    pub best: Option<Choice>,
    pub all: Option<Choice>,
    pub uncertainty: Option<Uncertainty>,
}

/// `a + b + c + d * pace`, or `None` when not finite.
fn total(t: [f64; 4], pace: f64) -> Option<f64> {
    let v = t[0] + t[1] + t[2] + t[3] * pace;
    v.is_finite().then_some(v)
}

fn finite(v: f64) -> Option<f64> {
    v.is_finite().then_some(v)
}

/// Evaluates `T(P)` on every prefix and picks the minimum (ties: the smaller P).
///
/// # Arguments
/// `stations` validated (loads in `[0, 0.99]`, speeds positive); `terms` compiled; `p_set` the
/// allowed sizes; `progress(done)` is called every 4096 stations.
pub fn select(
    stations: &[Station],
    terms: &Terms,
    p_set: PSet,
    progress: &mut dyn FnMut(u64),
) -> PrefixCurve {
    let q = stations.len();
    let order = selection_order(stations);
    // one rule with the station limit (`MAX_STATIONS_WITH_RANGES`): a load written as a range
    // is a range, `[a, a]` included, and gets the uncertainty outputs
    let ranged = stations.iter().any(|s| s.load.is_range());
    let mut scratch = Vec::with_capacity(64);
    let mut curve = Vec::with_capacity(q);
    // paces of the prefix: nominal, best case (low loads), worst case (high loads)
    let (mut pace, mut pace_lo, mut pace_hi) = (0.0f64, 0.0f64, 0.0f64);
    let mut raw: Vec<[f64; 4]> = Vec::with_capacity(if ranged { q } else { 0 });
    for (k, &i) in order.iter().enumerate() {
        let s = &stations[i as usize];
        pace = pace.max(1.0 / rate(s.speed, s.load.mid()));
        pace_lo = pace_lo.max(1.0 / rate(s.speed, s.load.lo()));
        pace_hi = pace_hi.max(1.0 / rate(s.speed, s.load.hi()));
        let p = k as u32 + 1;
        let allowed = p_set.allows(p);
        let t = terms.at(p as f64, &mut scratch);
        if ranged {
            raw.push(t);
        }
        curve.push(CurvePoint {
            p,
            allowed,
            ts: finite(t[0]),
            tc: finite(t[1]),
            tr: finite(t[2]),
            to: finite(t[3]),
            pace,
            t: if allowed { total(t, pace) } else { None },
            t_lo: if ranged && allowed {
                total(t, pace_lo)
            } else {
                None
            },
            t_hi: if ranged && allowed {
                total(t, pace_hi)
            } else {
                None
            },
            regret: None,
        });
        if p % 4096 == 0 {
            progress(p as u64);
        }
    }
    let names: Vec<String> = order
        .iter()
        .map(|&i| station_name(stations, i as usize))
        .collect();
    let choice = |p: u32, t: f64| Choice {
        p,
        t,
        stations: names[..p as usize].to_vec(),
    };
    let argmin = |curve: &[CurvePoint], f: &dyn Fn(&CurvePoint) -> Option<f64>| {
        let mut best: Option<(u32, f64)> = None;
        for pt in curve {
            if let Some(v) = f(pt) {
                if best.is_none_or(|(_, b)| v < b) {
                    best = Some((pt.p, v));
                }
            }
        }
        best
    };
    let best = argmin(&curve, &|pt| pt.t).map(|(p, t)| choice(p, t));
    let all = curve
        .last()
        .and_then(|pt| pt.t)
        .map(|t| choice(q as u32, t));
    let uncertainty = if ranged {
        let r = regret(stations, &order, &raw, p_set);
        for (pt, r) in curve.iter_mut().zip(&r) {
            pt.regret = *r;
        }
        Some(Uncertainty {
            min_upper: argmin(&curve, &|pt| pt.t_hi).map(|(p, t)| choice(p, t)),
            min_regret: argmin(&curve, &|pt| pt.regret).map(|(p, t)| choice(p, t)),
        })
    } else {
        None
    };
    let rows = stations
        .iter()
        .enumerate()
        .map(|(i, s)| StationRow {
            name: station_name(stations, i),
            load: s.load.mid(),
            load_lo: s.load.lo(),
            load_hi: s.load.hi(),
            speed: s.speed,
            rate: rate(s.speed, s.load.mid()),
        })
        .collect();
    PrefixCurve {
        rows,
        order,
        curve,
        best,
        all,
        uncertainty,
    }
}

/// The station's name, `W<i+1>` when it has none.
pub fn station_name(stations: &[Station], i: usize) -> String {
    if stations[i].name.is_empty() {
        format!("W{}", i + 1)
    } else {
        stations[i].name.clone()
    }
}

/// Worst-case regret of each prefix size over the box of loads (see the module doc); `None`
/// for sizes not allowed or not finite.
///
/// # Complexity
/// `O(Q^2)` competitor pairs, 16 candidate points each.
pub fn regret(
    stations: &[Station],
    order: &[u32],
    raw: &[[f64; 4]],
    p_set: PSet,
) -> Vec<Option<f64>> {
    let q = order.len();
    // pace intervals of each station in selection order: [1/r(lo), 1/r(hi)]
    let lo: Vec<f64> = order
        .iter()
        .map(|&i| 1.0 / rate(stations[i as usize].speed, stations[i as usize].load.lo()))
        .collect();
    let hi: Vec<f64> = order
        .iter()
        .map(|&i| 1.0 / rate(stations[i as usize].speed, stations[i as usize].load.hi()))
        .collect();
    // prefix maxima of lo and hi; suffix-range maxima come from running maxima in the loop
    let mut pre_lo = vec![0.0; q + 1];
    let mut pre_hi = vec![0.0; q + 1];
    for k in 0..q {
        pre_lo[k + 1] = f64::max(pre_lo[k], lo[k]);
        pre_hi[k + 1] = f64::max(pre_hi[k], hi[k]);
    }
    let a_of = |p: usize| raw[p - 1][0] + raw[p - 1][1] + raw[p - 1][2];
    let b_of = |p: usize| raw[p - 1][3];
    let ok = |p: usize| p_set.allows(p as u32) && raw[p - 1].iter().all(|v| v.is_finite());
    let mut out = vec![None; q];
    for p in 1..=q {
        if !ok(p) {
            continue;
        }
        let mut worst = 0.0f64;
        let mut finite_all = true;
        let mut consider = |p2: usize, e_lo: f64, e_hi: f64| {
            let (small, large) = if p2 < p { (p2, p) } else { (p, p2) };
            debug_assert!(small < large);
            let (s_lo, s_hi) = (pre_lo[small], pre_hi[small]);
            // the vertices of the two linear pieces of the difference over the box
            // [s_lo, s_hi] x [e_lo, e_hi], cut by the line a = e
            let a_c = [s_lo, s_hi, e_lo.clamp(s_lo, s_hi), e_hi.clamp(s_lo, s_hi)];
            let e_c = [e_lo, e_hi, s_lo.clamp(e_lo, e_hi), s_hi.clamp(e_lo, e_hi)];
            let mut m = f64::NEG_INFINITY;
            for a in a_c {
                for e in e_c {
                    let b = a.max(e);
                    let (pace_p, pace_p2) = if p < p2 { (a, b) } else { (b, a) };
                    let d = a_of(p) + b_of(p) * pace_p - (a_of(p2) + b_of(p2) * pace_p2);
                    m = m.max(d);
                }
            }
            if !m.is_finite() {
                finite_all = false;
            }
            worst = worst.max(m);
        };
        // larger competitors: the extra stations are p..p2, running maxima as p2 grows
        let (mut e_lo, mut e_hi) = (0.0f64, 0.0f64);
        for p2 in p + 1..=q {
            e_lo = e_lo.max(lo[p2 - 1]);
            e_hi = e_hi.max(hi[p2 - 1]);
            if ok(p2) {
                consider(p2, e_lo, e_hi);
            }
        }
        // smaller competitors: the extra stations are p2..p, running maxima as p2 shrinks
        let (mut e_lo, mut e_hi) = (0.0f64, 0.0f64);
        for p2 in (1..p).rev() {
            e_lo = e_lo.max(lo[p2]);
            e_hi = e_hi.max(hi[p2]);
            if ok(p2) {
                consider(p2, e_lo, e_hi);
            }
        }
        if finite_all {
            out[p - 1] = Some(worst);
        }
    }
    out
}
