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
    let mut s = String::new();
    push_csv_cell(&mut s, v);
    s
}

/// Appends one CSV cell to `s`: empty for `null`, a string's text, anything else as JSON; quoted
/// (`"` doubled) when it holds `,` `"` or a line break.
pub fn push_csv_cell(s: &mut String, v: &Value) {
    let text = match v {
        Value::Null => return,
        Value::String(t) => t.as_str(),
        Value::Number(_) | Value::Bool(_) => return push_json(s, v),
        other => &other.to_string(),
    };
    if text.contains([',', '"', '\n', '\r']) {
        s.push('"');
        for (k, part) in text.split('"').enumerate() {
            if k > 0 {
                s.push_str("\"\"");
            }
            s.push_str(part);
        }
        s.push('"');
    } else {
        s.push_str(text);
    }
}

/// Appends `v` as compact JSON to `s`: exactly `v.to_string()`, without the temporary string
/// for the common cells (numbers, strings, booleans, null).
pub fn push_json(s: &mut String, v: &Value) {
    use std::fmt::Write;
    match v {
        Value::Null => s.push_str("null"),
        Value::Bool(b) => s.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => {
            let _ = write!(s, "{n}");
        }
        Value::String(t) => push_json_str(s, t),
        other => s.push_str(&other.to_string()),
    }
}

/// Appends `t` as a JSON string, escaped as `serde_json` escapes it: `"` and `\\` with a
/// backslash, `\\b \\t \\n \\f \\r` by name, the other control characters as `\\u00xx`,
/// everything else as is.
pub fn push_json_str(s: &mut String, t: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    s.push('"');
    let mut from = 0;
    for (at, byte) in t.bytes().enumerate() {
        let escape: &str = match byte {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0c => "\\f",
            0..=0x1f => "",
            _ => continue,
        };
        s.push_str(&t[from..at]);
        if escape.is_empty() {
            s.push_str("\\u00");
            s.push(HEX[(byte >> 4) as usize] as char);
            s.push(HEX[(byte & 0xf) as usize] as char);
        } else {
            s.push_str(escape);
        }
        from = at + 1;
    }
    s.push_str(&t[from..]);
    s.push('"');
}

/// A CSV line (with its `\n`).
pub fn csv_line(cells: &[Value]) -> String {
    let mut s = String::new();
    push_csv_line(&mut s, cells.iter());
    s
}

fn push_csv_line<'a>(s: &mut String, cells: impl Iterator<Item = &'a Value>) {
    for (k, c) in cells.enumerate() {
        if k > 0 {
            s.push(',');
        }
        push_csv_cell(s, c);
    }
    s.push('\n');
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

/// The JSON Lines keys of `columns`: each column as a JSON string followed by `:`.
pub fn jsonl_keys(columns: &[String]) -> Vec<String> {
    columns
        .iter()
        .map(|c| {
            let mut k = String::new();
            push_json_str(&mut k, c);
            k.push(':');
            k
        })
        .collect()
}

/// A JSON Lines line (with its `\n`): the columns as keys, in order.
pub fn jsonl_line(columns: &[String], cells: &[Value]) -> String {
    let mut s = String::new();
    push_jsonl_line(&mut s, &jsonl_keys(columns), cells.iter());
    s
}

fn push_jsonl_line<'a>(s: &mut String, keys: &[String], cells: impl Iterator<Item = &'a Value>) {
    s.push('{');
    for (k, (key, v)) in keys.iter().zip(cells).enumerate() {
        if k > 0 {
            s.push(',');
        }
        s.push_str(key);
        push_json(s, v);
    }
    s.push_str("}\n");
}

/// Appends the tidy rows of the finished points `done` (sorted by point) to `csv` and
/// `jsonl` (no header): what [`tidy_rows`] gives, one [`csv_line`] and one [`jsonl_line`] a
/// row, written without building the rows. `keys`: [`jsonl_keys`] of [`tidy_columns`].
pub fn push_tidy(
    study: &Study,
    keys: &[String],
    done: &[(u64, &Outcome)],
    csv: &mut String,
    jsonl: &mut String,
) {
    use std::fmt::Write;
    let empty_groups = vec![Value::Null; study.groups.len()];
    let empty_values = vec![Value::Null; study.metrics.len()];
    let (ok, error) = (Value::from("ok"), Value::from("error"));
    for (i, o) in done {
        let head = [
            Value::from(*i),
            Value::from(study.replicate_of(*i)),
            Value::from(study.seed_of(*i)),
        ];
        let axes = study.axis_values(study.combination_of(*i));
        let mut row = |groups: &[Value], status: &Value, values: &[Value], message: &Value| {
            let cells = head
                .iter()
                .chain(axes.iter().copied())
                .chain(groups)
                .chain(std::iter::once(status))
                .chain(values)
                .chain(std::iter::once(message));
            jsonl.push('{');
            for (k, (key, v)) in keys.iter().zip(cells).enumerate() {
                if k > 0 {
                    csv.push(',');
                    jsonl.push(',');
                }
                jsonl.push_str(key);
                if let Value::Number(n) = v {
                    // A number's text is the same in both files (and never quoted): format once.
                    let at = csv.len();
                    let _ = write!(csv, "{n}");
                    jsonl.push_str(&csv[at..]);
                } else {
                    push_csv_cell(csv, v);
                    push_json(jsonl, v);
                }
            }
            csv.push('\n');
            jsonl.push_str("}\n");
        };
        match o {
            Outcome::Ok(rows) => {
                for r in rows {
                    row(&r.groups, &ok, &r.values, &Value::Null);
                }
            }
            Outcome::Error(m) => row(
                &empty_groups,
                &error,
                &empty_values,
                &Value::String(m.clone()),
            ),
        }
    }
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

/// Appends the aggregate rows of `done` (sorted by point, whole combinations) to `csv` and
/// `jsonl` (no header). `keys`: [`jsonl_keys`] of [`aggregate_columns`].
pub fn push_aggregate(
    study: &Study,
    keys: &[String],
    done: &[(u64, &Outcome)],
    csv: &mut String,
    jsonl: &mut String,
) {
    for cells in aggregate_rows(study, done) {
        push_csv_line(csv, cells.iter());
        push_jsonl_line(jsonl, keys, cells.iter());
    }
}

/// The four files' texts of a finished set of points (sorted by point): `tidy.csv`,
/// `tidy.jsonl`, `aggregate.csv`, `aggregate.jsonl`.
pub fn render_all(study: &Study, done: &[(u64, &Outcome)]) -> [String; 4] {
    let tc = tidy_columns(study);
    let ac = aggregate_columns(study);
    let mut csv = csv_header(&tc);
    let mut jsonl = String::new();
    push_tidy(study, &jsonl_keys(&tc), done, &mut csv, &mut jsonl);
    let mut acsv = csv_header(&ac);
    let mut ajsonl = String::new();
    push_aggregate(study, &jsonl_keys(&ac), done, &mut acsv, &mut ajsonl);
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
        assert_eq!(csv_cell(&Value::from("a\"b,c\"")), "\"a\"\"b,c\"\"\"");
        assert_eq!(csv_cell(&serde_json::json!([1, "x"])), "\"[1,\"\"x\"\"]\"");
    }

    #[test]
    fn push_json_writes_what_serde_json_writes() {
        let mut all: String = (0u8..0x80).map(char::from).collect();
        all.push_str("é∑😀\u{2028}\u{7f}");
        let values = [
            Value::from(all),
            Value::from(""),
            Value::from(-0.0),
            Value::from(0.1 + 0.2),
            Value::from(1e300),
            Value::from(5e-324),
            Value::from(16.0),
            Value::from(u64::MAX),
            Value::from(i64::MIN),
            Value::Null,
            Value::Bool(false),
            serde_json::json!({"b": [1, 2.5, null], "a": "x\ny"}),
        ];
        for v in &values {
            let mut s = String::new();
            push_json(&mut s, v);
            assert_eq!(s, v.to_string());
        }
    }

    #[test]
    fn push_tidy_writes_the_lines_of_tidy_rows() {
        let study = crate::study::parse_inline(
            r#"{"version":1,"base":{"version":1,"engine":"allocation","seed":7,
                "system":{"kind":"mesh","width":4,"height":4},
                "workload":{"kind":"set","jobs":[{"tasks":4}]}},
              "axes":[{"path":"system.width","values":[4,5]}],
              "replicates":{"count":2,"baseSeed":3},
              "metrics":["report.runs[*].summary.meanWait","report.runs[*].policy"]}"#,
        )
        .unwrap();
        let row = |g: &str, v: Value| crate::study::metrics::Row {
            groups: vec![Value::from(g)],
            values: vec![v, Value::from("a,\"b\"")],
        };
        let outcomes = [
            Outcome::Ok(vec![
                row("x", Value::from(0.1 + 0.2)),
                row("y", Value::Null),
            ]),
            Outcome::Error("refused, \"badly\"\nhere".into()),
            Outcome::Ok(vec![]),
            Outcome::Ok(vec![row("z", Value::from(3u64))]),
        ];
        let done: Vec<(u64, &Outcome)> = outcomes
            .iter()
            .enumerate()
            .map(|(i, o)| (i as u64, o))
            .collect();
        let columns = tidy_columns(&study);
        let (mut csv, mut jsonl) = (String::new(), String::new());
        push_tidy(&study, &jsonl_keys(&columns), &done, &mut csv, &mut jsonl);
        let (mut want_csv, mut want_jsonl) = (String::new(), String::new());
        for (i, o) in &done {
            for cells in tidy_rows(&study, *i, o) {
                want_csv.push_str(
                    &cells
                        .iter()
                        .map(|c| {
                            let t = match c {
                                Value::Null => String::new(),
                                Value::String(t) => t.clone(),
                                c => c.to_string(),
                            };
                            if t.contains([',', '"', '\n', '\r']) {
                                format!("\"{}\"", t.replace('"', "\"\""))
                            } else {
                                t
                            }
                        })
                        .collect::<Vec<_>>()
                        .join(","),
                );
                want_csv.push('\n');
                let mut m = String::from("{");
                for (k, (c, v)) in columns.iter().zip(&cells).enumerate() {
                    if k > 0 {
                        m.push(',');
                    }
                    m.push_str(&serde_json::to_string(c).unwrap());
                    m.push(':');
                    m.push_str(&v.to_string());
                }
                want_jsonl.push_str(&m);
                want_jsonl.push_str("}\n");
            }
        }
        assert_eq!(csv, want_csv);
        assert_eq!(jsonl, want_jsonl);
        assert_eq!(csv.lines().count(), 5);
    }

    #[test]
    fn jsonl_keys_escape_the_column_names() {
        let keys = jsonl_keys(&["a\"b".to_string(), "report.runs[*].x".to_string()]);
        assert_eq!(keys, ["\"a\\\"b\":", "\"report.runs[*].x\":"]);
    }
}
