//! The journal `points.jsonl`: the record of finished points from which every other file of a
//! results directory is rebuilt. It resumes an interrupted run and merges shards.
//!
//! Line 1, the header (keys in this order):
//! `{"placelabStudy":1,"hash":"<16 hex>","points":P,"shard":[k,n],"first":a,"end":b}`: the
//! study's hash ([`crate::study::Study::hash`]), its number of points, and the shard this
//! directory holds (points `a..b`; a whole run is shard `[0,1]`).
//! Then one line per finished point, in any order while running and sorted by point once the
//! run completes: `{"point":i,"rows":[{"g":[labels...],"v":[values...]},...]}` or
//! `{"error":"message","point":i}`.
//!
//! Invariant: a line is appended whole and flushed before its point counts as done, so after an
//! interruption only the last line can be incomplete; [`read`] drops such a tail and refuses
//! anything else malformed, naming the file and line.

use super::metrics::Row;
use super::{Outcome, Study};
use serde_json::{json, Value};

/// The journal's file name in a results directory.
pub const FILE: &str = "points.jsonl";

/// What a journal header says.
#[derive(Debug, Clone, PartialEq)]
pub struct Header {
    pub hash: String,
    pub points: u64,
    pub shard: (u64, u64),
    pub first: u64,
    pub end: u64,
}

/// The header line (with its `\n`).
pub fn header_line(study: &Study, shard: (u64, u64), range: &std::ops::Range<u64>) -> String {
    format!(
        "{{\"placelabStudy\":1,\"hash\":\"{}\",\"points\":{},\"shard\":[{},{}],\"first\":{},\"end\":{}}}\n",
        study.hash_hex(),
        study.points,
        shard.0,
        shard.1,
        range.start,
        range.end
    )
}

/// The line of one finished point (with its `\n`).
pub fn point_line(i: u64, outcome: &Outcome) -> String {
    let v = match outcome {
        Outcome::Ok(rows) => json!({
            "point": i,
            "rows": rows.iter().map(|r| json!({"g": r.groups, "v": r.values})).collect::<Vec<_>>(),
        }),
        Outcome::Error(m) => json!({"error": m, "point": i}),
    };
    v.to_string() + "\n"
}

/// A journal as read: its header and its points (sorted by point, each once).
#[derive(Debug, Clone)]
pub struct Journal {
    pub header: Header,
    pub points: Vec<(u64, Outcome)>,
    /// Whether the last line was incomplete (dropped).
    pub truncated_tail: bool,
}

fn parse_header(line: &str) -> Option<Header> {
    let v: Value = serde_json::from_str(line).ok()?;
    if v.get("placelabStudy")?.as_u64()? != 1 {
        return None;
    }
    let shard = v.get("shard")?.as_array()?;
    Some(Header {
        hash: v.get("hash")?.as_str()?.to_string(),
        points: v.get("points")?.as_u64()?,
        shard: (shard.first()?.as_u64()?, shard.get(1)?.as_u64()?),
        first: v.get("first")?.as_u64()?,
        end: v.get("end")?.as_u64()?,
    })
}

fn parse_point(line: &str, study: &Study) -> Option<(u64, Outcome)> {
    let v: Value = serde_json::from_str(line).ok()?;
    let i = v.get("point")?.as_u64()?;
    if let Some(e) = v.get("error") {
        return Some((i, Outcome::Error(e.as_str()?.to_string())));
    }
    let mut rows = Vec::new();
    for r in v.get("rows")?.as_array()? {
        let groups = r.get("g")?.as_array()?.clone();
        let values = r.get("v")?.as_array()?.clone();
        if groups.len() != study.groups.len() || values.len() != study.metrics.len() {
            return None;
        }
        rows.push(Row { groups, values });
    }
    Some((i, Outcome::Ok(rows)))
}

/// Reads a journal's text (`name` for messages) for `study`.
///
/// # Errors
/// A message naming the file (and line) when the header is missing or malformed, the hash is
/// another study's, or a line other than the last is malformed, out of the shard's range or a
/// repeat of an earlier point.
pub fn read(text: &str, name: &str, study: &Study) -> Result<Journal, String> {
    let mut lines = text.split_inclusive('\n');
    let first = lines
        .next()
        .ok_or_else(|| format!("{name}: empty; not a study journal"))?;
    let header = parse_header(first.trim_end())
        .filter(|_| first.ends_with('\n'))
        .ok_or_else(|| format!("{name}:1: not a study journal header"))?;
    if header.hash != study.hash_hex() {
        return Err(format!(
            "{name}: belongs to another study (hash {}, this study's is {})",
            header.hash,
            study.hash_hex()
        ));
    }
    if header.points != study.points || header.first > header.end || header.end > study.points {
        return Err(format!(
            "{name}:1: the header's point counts do not match the study"
        ));
    }
    let rest: Vec<&str> = lines.collect();
    let mut points: Vec<(u64, Outcome)> = Vec::with_capacity(rest.len());
    let mut seen = std::collections::HashSet::new();
    let mut truncated_tail = false;
    for (k, line) in rest.iter().enumerate() {
        let last = k + 1 == rest.len();
        let parsed = if line.ends_with('\n') {
            parse_point(line.trim_end(), study)
        } else {
            None
        };
        match parsed {
            Some((i, o)) => {
                if i < header.first || i >= header.end {
                    return Err(format!(
                        "{name}:{}: point {i} is outside this shard's points {}..{}",
                        k + 2,
                        header.first,
                        header.end
                    ));
                }
                if !seen.insert(i) {
                    return Err(format!("{name}:{}: point {i} is recorded twice", k + 2));
                }
                points.push((i, o));
            }
            None if last => truncated_tail = true,
            None => return Err(format!("{name}:{}: not a point record", k + 2)),
        }
    }
    points.sort_by_key(|(i, _)| *i);
    Ok(Journal {
        header,
        points,
        truncated_tail,
    })
}

/// The whole journal text of finished points (sorted by point).
pub fn render(
    study: &Study,
    shard: (u64, u64),
    range: &std::ops::Range<u64>,
    done: &[(u64, &Outcome)],
) -> String {
    let mut s = header_line(study, shard, range);
    for (i, o) in done {
        s.push_str(&point_line(*i, o));
    }
    s
}
