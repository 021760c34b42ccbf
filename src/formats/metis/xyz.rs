//! METIS `.xyz` files: vertex coordinates, one line per vertex.

use super::text::{err, is_comment, shorten};
use crate::graph::GraphError;

/// Parses METIS-style coordinates (`.xyz`): one line per vertex, in vertex order, with 1 to 3
/// whitespace-separated reals (missing coordinates are 0). Lines starting with `%` or `#` are
/// comments; blank lines after the `n` coordinate lines are ignored.
///
/// # Errors
/// The line of: a blank line or a line with 0 or more than 3 fields among the first `n`, a
/// value that is not a finite real, a line beyond the `n` vertices; when the file is short, the
/// line just past its end.
pub fn parse_xyz(text: &str, n: u32) -> Result<Vec<[f64; 3]>, GraphError> {
    let mut out: Vec<[f64; 3]> = Vec::with_capacity((n as usize).min(text.len() / 2 + 1));
    let mut last = 0u64;
    for (i, line) in text.lines().enumerate() {
        let ln = i as u64 + 1;
        last = ln;
        if is_comment(line, &['%', '#']) {
            continue;
        }
        if out.len() == n as usize {
            if line.trim().is_empty() {
                continue;
            }
            return Err(err(
                ln,
                format!("this line comes after the coordinates of all n = {n} vertices"),
            ));
        }
        let f: Vec<&str> = line.split_ascii_whitespace().take(4).collect();
        if f.is_empty() || f.len() > 3 {
            return Err(err(
                ln,
                format!(
                    "coordinate line {} of {n} has {} fields; expected 1 to 3 numbers (x [y [z]])",
                    out.len() + 1,
                    if f.len() > 3 { "more than 3" } else { "no" }
                ),
            ));
        }
        let mut c = [0.0f64; 3];
        for (k, t) in f.iter().enumerate() {
            match t.parse::<f64>() {
                Ok(x) if x.is_finite() => c[k] = x,
                _ => {
                    return Err(err(
                        ln,
                        format!("coordinate {:?} is not a finite number", shorten(t)),
                    ))
                }
            }
        }
        out.push(c);
    }
    if out.len() < n as usize {
        return Err(err(
            last + 1,
            format!(
                "the file ends after {} coordinate lines; the graph has n = {n} vertices",
                out.len()
            ),
        ));
    }
    Ok(out)
}
