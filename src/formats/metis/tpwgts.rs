//! gpmetis `-tpwgts` files: target fractions of the parts.

use super::text::{err, is_comment, parse_int, shorten, Int};
use crate::graph::GraphError;

/// Parses a gpmetis `-tpwgts` file for `k` parts: lines `part = fraction` or
/// `from-to = fraction` (0-based parts, inclusive range), optionally with gpmetis's constraint
/// suffix `:0` (only constraint 0 exists here); spaces are ignored, blank lines and lines
/// starting with `%` or `#` are skipped, and a later line overrides an earlier one. Each
/// fraction must lie strictly between 0 and 1 (as gpmetis requires). Parts no line names share
/// what is left equally, as gpmetis does; when every part is named, the fractions are scaled to
/// sum to 1, as gpmetis does.
///
/// # Errors
/// The line of a malformed entry, a part `>= k`, a fraction outside `(0, 1)`; the line of the
/// last entry when the fractions sum to more than `1 + 1e-6` (gpmetis only refuses that when
/// some part is left unnamed; a sum above 1 is a mistake either way).
pub fn parse_tpwgts(text: &str, k: u32) -> Result<Vec<f64>, GraphError> {
    let mut t: Vec<Option<f64>> = vec![None; k as usize];
    let mut last_line = 1u64;
    for (i, raw) in text.lines().enumerate() {
        let ln = i as u64 + 1;
        if raw.trim().is_empty() || is_comment(raw, &['%', '#']) {
            continue;
        }
        last_line = ln;
        let line: String = raw.chars().filter(|c| !c.is_whitespace()).collect();
        let bad = || {
            err(
                ln,
                format!(
                    "expected 'part = fraction' or 'from-to = fraction' (0-based parts), found \
                     {:?}",
                    shorten(raw.trim())
                ),
            )
        };
        let (lhs, rhs) = line.split_once('=').ok_or_else(bad)?;
        let (range, con) = match lhs.split_once(':') {
            Some((r, c)) => (r, Some(c)),
            None => (lhs, None),
        };
        if let Some(c) = con {
            let only_zero = match c.split_once('-') {
                Some((a, b)) => a == "0" && b == "0",
                None => c == "0",
            };
            if !only_zero {
                return Err(err(
                    ln,
                    format!(
                        "constraint {c:?}: multi-constraint target weights are not supported \
                         (only constraint 0)"
                    ),
                ));
            }
        }
        let part = |s: &str| -> Result<u32, GraphError> {
            match parse_int(s) {
                Int::Value(p) if p < u64::from(k) => Ok(p as u32),
                Int::NotNumber => Err(bad()),
                _ => Err(err(
                    ln,
                    format!(
                        "part {} is out of range: there are k = {k} parts, numbered from 0",
                        shorten(s)
                    ),
                )),
            }
        };
        let (from, to) = match range.split_once('-') {
            // A leading '-' is a negative part, not a range.
            Some((a, b)) if !a.is_empty() => (part(a)?, part(b)?),
            _ => {
                let p = part(range)?;
                (p, p)
            }
        };
        if from > to {
            return Err(err(
                ln,
                format!("the range {from}-{to} is empty (write the smaller part first)"),
            ));
        }
        let w: f64 = match rhs.parse::<f64>() {
            Ok(w) if w > 0.0 && w < 1.0 => w,
            Ok(_) => {
                return Err(err(
                    ln,
                    format!(
                        "fraction {} is not strictly between 0 and 1 (as gpmetis requires)",
                        shorten(rhs)
                    ),
                ))
            }
            Err(_) => return Err(bad()),
        };
        for x in &mut t[from as usize..=to as usize] {
            *x = Some(w);
        }
    }
    let given: f64 = t.iter().flatten().sum();
    let left = t.iter().filter(|x| x.is_none()).count() as u32;
    if given > 1.0 + 1e-6 {
        return Err(err(
            last_line,
            format!("the target fractions sum to {given}, more than 1"),
        ));
    }
    if left == 0 {
        // gpmetis rescales when every part is named.
        return Ok(t.into_iter().map(|x| x.unwrap_or(0.0) / given).collect());
    }
    let share = (1.0 - given).max(0.0) / f64::from(left);
    Ok(t.into_iter().map(|x| x.unwrap_or(share)).collect())
}
