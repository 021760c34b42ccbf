//! The placement engine's `sweep` as a study. A placement scenario with
//! `"sweep": {"kinds": [...], "messageBytes": [...], "processes": [...]}` runs every combination
//! of the lists (kind outermost, then message size, then size) as cases of one report, each
//! case with the scenario's own seed. [`study_of_sweep`] writes the study that runs the same
//! cases as points: the base is the scenario without its `sweep`, the non-empty lists are the
//! axes `job.kind`, `job.messageBytes` and `job.processes` in that order (their cross product
//! is the sweep's order, the last axis fastest), with no replicates (every point keeps the
//! scenario's seed), and the metrics are each run's `time`, `ratio` (to Advanced) and
//! `hopBytes`. Point `c` of the study is case `c` of the sweep, run for run (tested in
//! `tests/study_examples.rs`), so `placelab study` can be given a sweep scenario as it is, and
//! old scenarios and links with a `sweep` keep running as before.

use serde_json::{json, Map, Value};

/// The study of a placement scenario with a `sweep` (see the module doc), as a study document;
/// `None` when `scenario` is not a placement scenario with a `sweep` object.
pub fn study_of_sweep(scenario: &Value) -> Option<Value> {
    let obj = scenario.as_object()?;
    if obj.get("engine")?.as_str()? != "place" {
        return None;
    }
    let sweep = obj.get("sweep")?.as_object()?;
    let mut base: Map<String, Value> = obj.clone();
    base.remove("sweep");
    let mut axes = Vec::new();
    for (key, path) in [
        ("kinds", "job.kind"),
        ("messageBytes", "job.messageBytes"),
        ("processes", "job.processes"),
    ] {
        if let Some(values) = sweep.get(key).and_then(Value::as_array) {
            if !values.is_empty() {
                axes.push(json!({"path": path, "values": values}));
            }
        }
    }
    let name = obj
        .get("name")
        .and_then(Value::as_str)
        .map_or_else(|| "sweep".to_string(), |n| format!("{n} (its sweep)"));
    Some(json!({
        "version": 1,
        "name": name,
        "base": Value::Object(base),
        "axes": axes,
        "metrics": [
            "report.cases[*].runs[*].time",
            "report.cases[*].runs[*].ratio",
            "report.cases[*].runs[*].hopBytes"
        ]
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sweep_lists_become_axes_in_the_sweeps_order() {
        let s = json!({"version": 1, "engine": "place", "seed": 3,
            "system": {"kind": "torus2d", "x": 4, "y": 4},
            "job": {"kind": "GRID", "processes": 8},
            "sweep": {"kinds": ["STAR", "GRID"], "messageBytes": [], "processes": [4, 8]}});
        let st = study_of_sweep(&s).unwrap();
        assert_eq!(
            st["axes"][0],
            json!({"path": "job.kind", "values": ["STAR", "GRID"]})
        );
        assert_eq!(
            st["axes"][1],
            json!({"path": "job.processes", "values": [4, 8]})
        );
        assert!(st["base"].get("sweep").is_none());
        assert_eq!(st["base"]["seed"], 3);
        assert!(st.get("replicates").is_none());
        assert!(study_of_sweep(&json!({"engine": "allocation", "sweep": {}})).is_none());
        assert!(study_of_sweep(&json!({"engine": "place"})).is_none());
    }
}
