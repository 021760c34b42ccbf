//! What a page running a study one point at a time needs, as plain text in and out (pure, like
//! the rest of [`crate::study`]): the study's outline, one point's record, the tables of the
//! points that finished, the statistics of value lists, and the layout of a tidy table read back
//! from a file. The page runs points on several workers, each calling [`point_record`]; the
//! records' journal lines go to [`tables`], which reads them as [`journal::read`] reads a results
//! directory's journal and renders them with [`table::render_all`], so the page's files are the
//! CLI's, byte for byte, whatever the number of workers or the order points finished.

use super::metrics::{group_columns, parse_metric};
use super::stats::summarize;
use super::{journal, run_point, table, Study};
use crate::error::{Result, ScenarioError};
use serde_json::{json, Value};

/// The study as the page shows it: `{name, engine, points, combinations, replicates, hash,
/// axes: [{path, values}], groups, metrics, tidyColumns}`.
pub fn outline(study: &Study) -> String {
    json!({
        "name": study.name,
        "engine": study.engine,
        "points": study.points,
        "combinations": study.combinations,
        "replicates": study.replicate_count(),
        "hash": study.hash_hex(),
        "axes": study.axes.iter().map(|a| json!({"path": a.path, "values": a.values})).collect::<Vec<_>>(),
        "groups": study.groups,
        "metrics": study.metrics.iter().map(|m| m.text.as_str()).collect::<Vec<_>>(),
        "tidyColumns": table::tidy_columns(study),
    })
    .to_string()
}

/// Runs point `i` ([`run_point`]); returns `{"point": i, "line": <its journal line>, "csv": <its
/// tidy CSV rows>}` (both texts end with `\n`; the CSV rows are the ones `tidy.csv` holds for the
/// point).
///
/// # Panics
/// When `i >= study.points`.
pub fn point_record(study: &Study, i: u64) -> String {
    let outcome = run_point(study, i);
    let csv: String = table::tidy_rows(study, i, &outcome)
        .iter()
        .map(|cells| table::csv_line(cells))
        .collect();
    json!({"point": i, "line": journal::point_line(i, &outcome), "csv": csv}).to_string()
}

/// The four tables (`{tidyCsv, tidyJsonl, aggregateCsv, aggregateJsonl}`) of the points whose
/// journal lines `lines` holds (in any order, each once): the files `placelab study` writes for
/// the same points.
///
/// # Errors
/// At `$` when a line is not a point record of this study, or a point is given twice.
pub fn tables(study: &Study, lines: &str) -> Result<String> {
    let text = journal::header_line(study, (0, 1), &(0..study.points)) + lines;
    let j =
        journal::read(&text, "the finished points", study).map_err(|m| ScenarioError::at("", m))?;
    let done: Vec<(u64, &super::Outcome)> = j.points.iter().map(|(i, o)| (*i, o)).collect();
    let [tidy_csv, tidy_jsonl, aggregate_csv, aggregate_jsonl] = table::render_all(study, &done);
    Ok(json!({
        "tidyCsv": tidy_csv,
        "tidyJsonl": tidy_jsonl,
        "aggregateCsv": aggregate_csv,
        "aggregateJsonl": aggregate_jsonl,
    })
    .to_string())
}

/// The [`summarize`] of each list of a JSON list of number lists (each in replicate order, as
/// the aggregate table takes them), as `[{n, mean, sd, ciLow, ciHigh, min, median, max}, ...]`
/// (`null` where undefined). Non-numbers and non-finite numbers are left out, as in the
/// aggregate table.
///
/// # Errors
/// At `$` when the text is not a list of lists.
pub fn summaries(lists: &str) -> Result<String> {
    // checked (errors at their path), then read with every number exact, as the aggregate
    // table reads the journal's (serde_json's default reader can be a unit in the last place
    // off, and the charts' means would then differ from the table's)
    crate::json::parse(lists)?;
    let v = super::journal::exact::parse(lists)
        .ok_or_else(|| ScenarioError::at("", "expected a list of number lists"))?;
    let Value::Array(lists) = v else {
        return Err(ScenarioError::at("", "expected a list of number lists"));
    };
    let mut out = Vec::with_capacity(lists.len());
    for (k, list) in lists.iter().enumerate() {
        let Value::Array(xs) = list else {
            return Err(ScenarioError::at(
                format!("[{k}]"),
                "expected a list of numbers",
            ));
        };
        let xs: Vec<f64> = xs
            .iter()
            .filter_map(Value::as_f64)
            .filter(|x| x.is_finite())
            .collect();
        let s = summarize(&xs);
        out.push(json!({
            "n": s.n, "mean": s.mean, "sd": s.sd, "ciLow": s.ci_low, "ciHigh": s.ci_high,
            "min": s.min, "median": s.median, "max": s.max,
        }));
    }
    Ok(Value::Array(out).to_string())
}

/// Which columns of a tidy table's header (`columns`, a JSON list of names) are axes, groups and
/// metrics: `{axes, groups, metrics}`. The header is `point, replicate, seed`, the axes, the
/// groups, `status`, the metrics, `error` ([`table::tidy_columns`]); the groups are the ones the
/// metrics' `[*]` lists name ([`group_columns`]), so the rest between `seed` and `status` are the
/// axes.
///
/// # Errors
/// At `$` naming what is missing when the header is not a tidy table's.
pub fn tidy_layout(columns: &str) -> Result<String> {
    let v: Value = crate::json::parse(columns)?;
    let names: Vec<&str> = v
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let not_tidy = |what: &str| {
        ScenarioError::at(
            "",
            format!("not a study's tidy table ({what}); its header is point,replicate,seed,<axes>,<groups>,status,<metrics>,error"),
        )
    };
    if names.len() < 5 || names[..3] != ["point", "replicate", "seed"] {
        return Err(not_tidy("it does not start with point,replicate,seed"));
    }
    if names.last() != Some(&"error") {
        return Err(not_tidy("it does not end with error"));
    }
    let status = names
        .iter()
        .position(|c| *c == "status")
        .ok_or_else(|| not_tidy("no status column"))?;
    let metrics = names[status + 1..names.len() - 1]
        .iter()
        .enumerate()
        .map(|(k, m)| parse_metric(m, &format!("[{}]", status + 1 + k)))
        .collect::<Result<Vec<_>>>()?;
    if metrics.is_empty() {
        return Err(not_tidy("no metric columns"));
    }
    let groups = group_columns(&metrics)?;
    let between = &names[3..status];
    if groups.len() > between.len() || between[between.len() - groups.len()..] != groups[..] {
        return Err(not_tidy(&format!(
            "the metrics' lists name the groups {}, which are not the columns before status",
            groups.join(", ")
        )));
    }
    Ok(json!({
        "axes": between[..between.len() - groups.len()],
        "groups": groups,
        "metrics": names[status + 1..names.len() - 1],
    })
    .to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::study::parse_inline;

    const STUDY: &str = r#"{"version":1,"base":{"version":1,"engine":"allocation","seed":7,
        "system":{"kind":"mesh","width":4,"height":4},
        "workload":{"kind":"set","jobs":[{"tasks":4},{"tasks":4}]}},
        "axes":[{"path":"system.width","values":[4,8]}],"replicates":{"count":2,"baseSeed":3}}"#;

    #[test]
    fn records_in_any_order_give_the_cli_tables() {
        let s = parse_inline(STUDY).unwrap();
        let outcomes: Vec<_> = (0..s.points)
            .map(|i| super::super::run_point(&s, i))
            .collect();
        let done: Vec<_> = outcomes
            .iter()
            .enumerate()
            .map(|(i, o)| (i as u64, o))
            .collect();
        let want = table::render_all(&s, &done);
        let mut lines = String::new();
        let mut csv = table::csv_header(&table::tidy_columns(&s));
        let records: Vec<Value> = (0..s.points)
            .map(|i| serde_json::from_str(&point_record(&s, i)).unwrap())
            .collect();
        for r in &records {
            csv.push_str(r["csv"].as_str().unwrap());
        }
        for r in records.iter().rev() {
            lines.push_str(r["line"].as_str().unwrap());
        }
        let got: Value = serde_json::from_str(&tables(&s, &lines).unwrap()).unwrap();
        assert_eq!(got["tidyCsv"], want[0]);
        assert_eq!(got["aggregateCsv"], want[2]);
        assert_eq!(csv, want[0]);
        assert!(tables(&s, "{\"nope\":1}\n{\"point\":0,\"error\":\"x\"}\n").is_err());
    }

    #[test]
    fn the_layout_of_a_tidy_header_splits_axes_from_groups() {
        let s = parse_inline(STUDY).unwrap();
        let cols = serde_json::to_string(&table::tidy_columns(&s)).unwrap();
        let got: Value = serde_json::from_str(&tidy_layout(&cols).unwrap()).unwrap();
        assert_eq!(got["axes"], json!(["system.width"]));
        assert_eq!(got["groups"], json!(["runs"]));
        assert_eq!(got["metrics"].as_array().unwrap().len(), s.metrics.len());
        assert!(tidy_layout(r#"["a","b"]"#).is_err());
    }

    #[test]
    fn summaries_read_every_number_exactly() {
        // serde_json's default reader takes this text one unit in the last place low
        let out = summaries("[[0.039031385567010315]]").unwrap();
        assert!(out.contains("\"mean\":0.039031385567010315,"), "{out}");
    }

    #[test]
    fn summaries_match_the_aggregate_statistics() {
        let got: Value =
            serde_json::from_str(&summaries("[[1,2,3],[],[5,\"x\"]]").unwrap()).unwrap();
        assert_eq!(got[0]["mean"], 2.0);
        assert_eq!(got[0]["n"], 3);
        assert!(got[0]["ciLow"].as_f64().unwrap() < 2.0);
        assert_eq!(got[1]["mean"], Value::Null);
        assert_eq!(got[2]["n"], 1);
        assert!(summaries("{}").is_err());
    }
}
