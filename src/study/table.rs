//! The study's tables, as text: the tidy table (one row per point and per group item) and the
//! aggregate table (one row per combination, group and metric), each as CSV and as JSON Lines.
//!
//! Tidy columns, in order: `point`, `replicate`, `seed`, one per axis (named by its path), one
//! per group (named by the list, [`crate::study::metrics::group_columns`]), `status` (`ok` or
//! `error`), one per metric (named by its path), `error` (the message of a failed point). A
//! failed point is one row with empty groups and metrics.
//!
//! Aggregate columns: one per axis, one per group, `metric`, `n` (numeric values found),
//! `failed` (replicates of the combination that failed), `mean`, `sd`, `ciLow`, `ciHigh`,
//! `min`, `median`, `max` ([`crate::study::stats`]). Rows come by combination, then by group in
//! the order groups first appear among the replicates, then by metric in study order.
//!
//! CSV: RFC 4180 (a cell holding `,` `"` or a line break is quoted, `"` doubled), `\n` line
//! ends, an empty cell for an absent value; numbers as in JSON (shortest text that reads back to
//! the same `f64`). JSON Lines: one object per row with the CSV's columns as keys, in the same
//! order, `null` for an empty cell.

use super::metrics::Row;
use super::stats::{summarize, Summary};
use super::{Outcome, Study};
use serde_json::Value;

/// The tidy table's column names.
pub fn tidy_columns(study: &Study) -> Vec<String> {
    let mut c: Vec<String> = ["point", "replicate", "seed"].map(String::from).to_vec();
    c.extend(study.axes.iter().map(|a| a.path.clone()));
    c.extend(study.groups.iter().cloned());
    c.push("status".into());
    c.extend(study.metrics.iter().map(|m| m.text.clone()));
    c.push("error".into());
    c
}

/// The aggregate table's column names.
pub fn aggregate_columns(study: &Study) -> Vec<String> {
    let mut c: Vec<String> = study.axes.iter().map(|a| a.path.clone()).collect();
    c.extend(study.groups.iter().cloned());
    c.extend(
        [
            "metric", "n", "failed", "mean", "sd", "ciLow", "ciHigh", "min", "median", "max",
        ]
        .map(String::from),
    );
    c
}

/// The cells of point `i`'s tidy rows.
pub fn tidy_rows(study: &Study, i: u64, outcome: &Outcome) -> Vec<Vec<Value>> {
    let mut head = vec![
        Value::from(i),
        Value::from(study.replicate_of(i)),
        Value::from(study.seed_of(i)),
    ];
    head.extend(
        study
            .axis_values(study.combination_of(i))
            .into_iter()
            .cloned(),
    );
    match outcome {
        Outcome::Ok(rows) => rows
            .iter()
            .map(|r| {
                let mut cells = head.clone();
                cells.extend(r.groups.iter().cloned());
                cells.push(Value::from("ok"));
                cells.extend(r.values.iter().cloned());
                cells.push(Value::Null);
                cells
            })
            .collect(),
        Outcome::Error(message) => {
            let mut cells = head;
            cells.extend(std::iter::repeat_n(Value::Null, study.groups.len()));
            cells.push(Value::from("error"));
            cells.extend(std::iter::repeat_n(Value::Null, study.metrics.len()));
            cells.push(Value::from(message.as_str()));
            vec![cells]
        }
    }
}

/// One CSV cell.
pub fn csv_cell(v: &Value) -> String {
    let text = match v {
        Value::Null => return String::new(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text
    }
}

/// A CSV line (with its `\n`).
pub fn csv_line(cells: &[Value]) -> String {
    let mut s = cells.iter().map(csv_cell).collect::<Vec<_>>().join(",");
    s.push('\n');
    s
}

/// The CSV header line.
pub fn csv_header(columns: &[String]) -> String {
    csv_line(
        &columns
            .iter()
            .map(|c| Value::from(c.as_str()))
            .collect::<Vec<_>>(),
    )
}

/// A JSON Lines line (with its `\n`): the columns as keys, in order.
pub fn jsonl_line(columns: &[String], cells: &[Value]) -> String {
    let mut s = String::from("{");
    for (k, (c, v)) in columns.iter().zip(cells).enumerate() {
        if k > 0 {
            s.push(',');
        }
        s.push_str(&serde_json::to_string(c).expect("strings serialize"));
        s.push(':');
        s.push_str(&v.to_string());
    }
    s.push_str("}\n");
    s
}

fn num(x: Option<f64>) -> Value {
    x.and_then(serde_json::Number::from_f64)
        .map_or(Value::Null, Value::Number)
}

/// The aggregate rows of the finished points `done` (point index and outcome, sorted by
/// point): per combination, group and metric, the [`Summary`] of the numeric values over the
/// replicates, in replicate order.
///
/// # Complexity
/// `O(rows · metrics)` plus the medians' sorts.
pub fn aggregate_rows(study: &Study, done: &[(u64, &Outcome)]) -> Vec<Vec<Value>> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < done.len() {
        let c = study.combination_of(done[at].0);
        let end = at
            + done[at..]
                .iter()
                .position(|(i, _)| study.combination_of(*i) != c)
                .unwrap_or(done.len() - at);
        let points = &done[at..end];
        let failed = points
            .iter()
            .filter(|(_, o)| matches!(o, Outcome::Error(_)))
            .count();
        // Groups in order of first appearance; each with its rows in replicate order.
        let mut groups: Vec<(&Vec<Value>, Vec<&Row>)> = Vec::new();
        for (_, o) in points {
            if let Outcome::Ok(rows) = o {
                for r in rows {
                    match groups.iter_mut().find(|(g, _)| **g == r.groups) {
                        Some((_, list)) => list.push(r),
                        None => groups.push((&r.groups, vec![r])),
                    }
                }
            }
        }
        let empty = vec![Value::Null; study.groups.len()];
        if groups.is_empty() {
            groups.push((&empty, Vec::new()));
        }
        let axes: Vec<Value> = study.axis_values(c).into_iter().cloned().collect();
        for (g, rows) in &groups {
            for (m, metric) in study.metrics.iter().enumerate() {
                let xs: Vec<f64> = rows
                    .iter()
                    .filter_map(|r| r.values[m].as_f64())
                    .filter(|x| x.is_finite())
                    .collect();
                let s: Summary = summarize(&xs);
                let mut cells = axes.clone();
                cells.extend(g.iter().cloned());
                cells.push(Value::from(metric.text.as_str()));
                cells.push(Value::from(s.n as u64));
                cells.push(Value::from(failed as u64));
                for x in [s.mean, s.sd, s.ci_low, s.ci_high, s.min, s.median, s.max] {
                    cells.push(num(x));
                }
                out.push(cells);
            }
        }
        at = end;
    }
    out
}

/// The four files' texts of a finished set of points (sorted by point): `tidy.csv`,
/// `tidy.jsonl`, `aggregate.csv`, `aggregate.jsonl`.
pub fn render_all(study: &Study, done: &[(u64, &Outcome)]) -> [String; 4] {
    let tc = tidy_columns(study);
    let ac = aggregate_columns(study);
    let mut csv = csv_header(&tc);
    let mut jsonl = String::new();
    for (i, o) in done {
        for cells in tidy_rows(study, *i, o) {
            csv.push_str(&csv_line(&cells));
            jsonl.push_str(&jsonl_line(&tc, &cells));
        }
    }
    let mut acsv = csv_header(&ac);
    let mut ajsonl = String::new();
    for cells in aggregate_rows(study, done) {
        acsv.push_str(&csv_line(&cells));
        ajsonl.push_str(&jsonl_line(&ac, &cells));
    }
    [csv, jsonl, acsv, ajsonl]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_quotes_only_what_needs_it() {
        assert_eq!(csv_cell(&Value::from("a,b")), "\"a,b\"");
        assert_eq!(csv_cell(&Value::from("say \"hi\"")), "\"say \"\"hi\"\"\"");
        assert_eq!(csv_cell(&Value::from(1.5)), "1.5");
        assert_eq!(csv_cell(&Value::Null), "");
        assert_eq!(csv_cell(&Value::Bool(true)), "true");
    }
}
