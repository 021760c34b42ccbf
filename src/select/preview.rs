//! The live preview of a workstation report: what the T(P) chart needs while the user types.
//!
//! A chart a thousand pixels wide cannot show 10,000 values of P, yet shipping all of them (the
//! complete report is about 250 bytes per station) costs more than evaluating them. The preview
//! keeps every P the drawing can tell apart: the curve is cut into [`BUCKETS`] runs of
//! consecutive drawable points, and each run keeps its first and last point and the points
//! where `T`, the band's `tLo` and `tHi` reach their minimum and maximum (min/max decimation, as
//! time-series charts do), plus P = 1, the chosen P, the choices under the band and P = Q.
//!
//! Invariants (tested): every kept point is the complete report's point for that P, unchanged;
//! the minimum and maximum of `T` over the drawable points are kept; P = Q is kept, so the
//! chart's axis still runs to Q; at most `8 * BUCKETS + 5` points remain. Station rows are
//! cut to the first [`STATIONS`] in input order and the selection order to its first
//! [`STATIONS`] (what the page's tables show); `previewOf` gives the complete counts.
//!
//! # Complexity
//! O(Q) time, O(kept) extra memory.

use super::report::{CurvePoint, PreviewOf, WorkstationReport};

/// Runs of the curve kept as extremes (the chart is at most a few thousand pixels wide).
pub const BUCKETS: usize = 512;
/// Station rows kept (the page's stations table shows at most this many).
pub const STATIONS: usize = 500;

/// Whether a point is drawn: allowed by the model with a finite total.
fn drawable(c: &CurvePoint) -> bool {
    c.allowed && c.t.is_some_and(f64::is_finite)
}

/// Reduces `ws` for a live preview; returns false (and leaves it untouched) when it is already
/// small enough to cross whole.
pub fn reduce(ws: &mut WorkstationReport) -> bool {
    let q = ws.curve.len();
    if q <= 8 * BUCKETS && ws.stations.len() <= STATIONS {
        return false;
    }
    ws.preview_of = Some(PreviewOf {
        curve_points: q as u32,
        stations: ws.stations.len() as u32,
    });
    if q > 8 * BUCKETS {
        let keep = kept_points(ws);
        let curve = std::mem::take(&mut ws.curve);
        ws.curve = keep.into_iter().map(|i| curve[i].clone()).collect();
    }
    ws.stations.truncate(STATIONS);
    ws.order.truncate(STATIONS);
    true
}

/// Indices into `ws.curve` (ascending, distinct) that the preview keeps.
fn kept_points(ws: &WorkstationReport) -> Vec<usize> {
    let curve = &ws.curve;
    let q = curve.len();
    let drawn: Vec<usize> = (0..q).filter(|&i| drawable(&curve[i])).collect();
    let mut keep: Vec<usize> = Vec::with_capacity(8 * BUCKETS + 5);
    let marks = [
        Some(1),
        ws.best.as_ref().map(|c| c.p),
        ws.uncertainty
            .as_ref()
            .and_then(|u| u.min_upper.as_ref().map(|c| c.p)),
        ws.uncertainty
            .as_ref()
            .and_then(|u| u.min_regret.as_ref().map(|c| c.p)),
        Some(q as u32),
    ];
    for p in marks.into_iter().flatten() {
        if p >= 1 && (p as usize) <= q {
            keep.push(p as usize - 1);
        }
    }
    let per = drawn.len().div_ceil(BUCKETS).max(1);
    for run in drawn.chunks(per) {
        keep.push(run[0]);
        keep.push(run[run.len() - 1]);
        for value in [
            |c: &CurvePoint| c.t,
            |c: &CurvePoint| c.t_lo,
            |c: &CurvePoint| c.t_hi,
        ] {
            let mut lo: Option<(f64, usize)> = None;
            let mut hi: Option<(f64, usize)> = None;
            for &i in run {
                let Some(v) = value(&curve[i]).filter(|v| v.is_finite()) else {
                    continue;
                };
                if lo.is_none_or(|(m, _)| v < m) {
                    lo = Some((v, i));
                }
                if hi.is_none_or(|(m, _)| v > m) {
                    hi = Some((v, i));
                }
            }
            keep.extend(lo.map(|(_, i)| i));
            keep.extend(hi.map(|(_, i)| i));
        }
    }
    keep.sort_unstable();
    keep.dedup();
    keep
}
