//! Plain edge lists: one `u v [w]` line per edge, 0-based ids.

use super::graph_file::GraphFile;
use super::text::{err, is_comment, parse_int, parse_u32, shorten, Int};
use crate::graph::{Graph, GraphError};

/// The largest vertex id an edge list may use: its graph has `max id + 1` vertices, so a single
/// line `0 4000000000` must not allocate billions of them (the generators' limit, 2^22).
pub const EDGE_LIST_MAX_ID: u64 = (1 << 22) - 1;

/// Parses an edge list: one edge per line, `u v` or `u v w`, with **0-based** vertex ids and an
/// optional weight (at least 1, default 1); blank lines and lines starting with `#` or `%` are
/// skipped. The graph has `max id + 1` vertices (ids never mentioned are isolated vertices),
/// unit vertex weights and sizes. Each undirected edge is listed once, or once in each
/// direction with the same weight.
///
/// # Errors
/// The line of: a line without 2 or 3 fields, an id or weight that is not a whole number, a
/// negative id, an id above [`EDGE_LIST_MAX_ID`], a weight of 0, a self-loop, an edge listed
/// twice in the same direction or three times, an edge whose reverse has another weight (the
/// later line of the two); a file with no edge at all (line 1).
///
/// # Complexity
/// `O(E log E)` (the edges are sorted once to find repeats).
pub fn parse_edge_list(text: &str) -> Result<GraphFile, GraphError> {
    // (min id, max id, line, weight, listed as min->max)
    let mut rows: Vec<(u32, u32, u64, u32, bool)> = Vec::new();
    let mut has_adjwgt = false;
    let mut max_id: Option<u32> = None;
    for (i, line) in text.lines().enumerate() {
        let ln = i as u64 + 1;
        if line.trim().is_empty() || is_comment(line, &['#', '%']) {
            continue;
        }
        let f: Vec<&str> = line.split_ascii_whitespace().take(4).collect();
        if f.len() < 2 || f.len() > 3 {
            return Err(err(
                ln,
                format!(
                    "an edge line is 'u v' or 'u v w' (0-based vertex ids, optional weight), \
                     this one has {} fields",
                    if f.len() > 3 {
                        "more than 3".to_string()
                    } else {
                        f.len().to_string()
                    }
                ),
            ));
        }
        let mut id = |tok: &str| -> Result<u32, GraphError> {
            match parse_int(tok) {
                Int::Value(x) if x <= EDGE_LIST_MAX_ID => {
                    let x = x as u32;
                    max_id = Some(max_id.map_or(x, |m| m.max(x)));
                    Ok(x)
                }
                Int::Value(_) | Int::TooLarge => Err(err(
                    ln,
                    format!(
                        "vertex id {} is above the largest id an edge list may use \
                         ({EDGE_LIST_MAX_ID})",
                        shorten(tok)
                    ),
                )),
                Int::Negative => Err(err(
                    ln,
                    format!("vertex id {tok} is negative (edge-list ids are 0-based: 0, 1, ...)"),
                )),
                Int::NotNumber => Err(err(
                    ln,
                    format!(
                        "vertex id {:?} is not a whole number (edge-list ids are 0-based: 0, \
                         1, ...)",
                        shorten(tok)
                    ),
                )),
            }
        };
        let u = id(f[0])?;
        let v = id(f[1])?;
        let w = match f.get(2) {
            Some(t) => {
                has_adjwgt = true;
                parse_u32(t, ln, "the edge weight", 1)?
            }
            None => 1,
        };
        if u == v {
            return Err(err(
                ln,
                format!("edge {u} {v} is a self-loop (not allowed; ids are 0-based)"),
            ));
        }
        rows.push((u.min(v), u.max(v), ln, w, u < v));
    }
    let Some(max_id) = max_id else {
        return Err(err(
            1,
            "the edge list has no edge (expected lines 'u v [w]' with 0-based ids)",
        ));
    };
    rows.sort_unstable();
    let mut edges: Vec<(u32, u32, u32)> = Vec::with_capacity(rows.len());
    let mut first_error: Option<GraphError> = None;
    let mut keep = |e: GraphError| {
        if first_error.as_ref().is_none_or(|f| e.line < f.line) {
            first_error = Some(e);
        }
    };
    let mut i = 0;
    while i < rows.len() {
        let mut j = i + 1;
        while j < rows.len() && rows[j].0 == rows[i].0 && rows[j].1 == rows[i].1 {
            j += 1;
        }
        let (a, b, l0, w0, d0) = rows[i];
        match j - i {
            1 => {}
            2 => {
                let (_, _, l1, w1, d1) = rows[i + 1];
                if d0 == d1 {
                    keep(err(
                        l1,
                        format!(
                            "edge {a}-{b} is listed again in the same direction (first on line \
                             {l0}); list an edge once, or once in each direction"
                        ),
                    ));
                } else if w0 != w1 {
                    keep(err(
                        l1,
                        format!(
                            "edge {a}-{b} has weight {w1} here but weight {w0} in the other \
                             direction on line {l0}"
                        ),
                    ));
                }
            }
            _ => keep(err(
                rows[i + 2].2,
                format!(
                    "edge {a}-{b} is listed a third time (lines {l0} and {} already list it)",
                    rows[i + 1].2
                ),
            )),
        }
        edges.push((a, b, w0));
        i = j;
    }
    if let Some(e) = first_error {
        return Err(e);
    }
    let graph = Graph::from_edges(max_id + 1, &edges).map_err(|e| GraphError {
        line: None,
        message: e.message,
    })?;
    Ok(GraphFile {
        graph,
        has_vwgt: false,
        has_adjwgt,
        has_vsize: false,
    })
}
