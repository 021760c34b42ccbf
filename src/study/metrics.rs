//! Metrics: paths into a point's report document, with `[*]` for "every item of this list", and
//! the extraction of a report into tidy rows.
//!
//! A metric path starts at the report document (`{"version", "engine", "name", "seed",
//! "report": {...}}`), e.g. `report.runs[*].summary.meanWait` or `report.best.time`; `[n]`
//! picks one item. The `[*]` lists of a study's metrics must form one chain (each metric's
//! wildcard prefix is a prefix of the longest one, e.g. `report.cases[*].processes` beside
//! `report.cases[*].runs[*].time`): the report then gives one row per item of the longest
//! chain, and a metric with a shorter prefix repeats its item's value on every row below it.
//!
//! Each `[*]` level is a group column, named by the list's key (`runs`, `cases`), holding the
//! item's label: its first string field among `policy`, `strategy`, `method`, `name`, `id` when
//! that label is unique in the list, else the item's index (0-based).
//!
//! A metric absent from a report (another mode of the engine, a field that is null) is an
//! empty cell, never an error.

use crate::error::{Result, ScenarioError};
use serde_json::Value;

/// The fields that name a list item, in the order they are tried.
pub const LABEL_FIELDS: [&str; 5] = ["policy", "strategy", "method", "name", "id"];

/// One step of a metric path.
#[derive(Debug, Clone, PartialEq)]
pub enum Seg {
    Key(String),
    Index(usize),
    /// `[*]`: every item.
    All,
}

/// A parsed metric.
#[derive(Debug, Clone, PartialEq)]
pub struct Metric {
    /// As written; the column's name.
    pub text: String,
    pub segs: Vec<Seg>,
}

impl Metric {
    /// Number of `[*]` in the path.
    pub fn depth(&self) -> usize {
        self.segs.iter().filter(|s| **s == Seg::All).count()
    }
    /// The steps up to and including the last `[*]`.
    fn wildcard_prefix(&self) -> &[Seg] {
        match self.segs.iter().rposition(|s| *s == Seg::All) {
            Some(i) => &self.segs[..=i],
            None => &[],
        }
    }
}

/// Parses one metric path at `at` (e.g. `metrics[2]`).
///
/// # Errors
/// A [`ScenarioError`] at `at` for an empty key or a malformed index.
pub fn parse_metric(text: &str, at: &str) -> Result<Metric> {
    let bad = |m: &str| ScenarioError::at(at, format!("\"{text}\" is not a report path: {m}"));
    let mut segs = Vec::new();
    for part in text.split('.') {
        let (key, mut rest) = match part.find('[') {
            Some(i) => (&part[..i], &part[i..]),
            None => (part, ""),
        };
        if key.is_empty() {
            return Err(bad("an empty name"));
        }
        segs.push(Seg::Key(key.to_string()));
        while !rest.is_empty() {
            let close = rest.find(']').ok_or_else(|| bad("a '[' without ']'"))?;
            let inner = &rest[1..close];
            segs.push(if inner == "*" {
                Seg::All
            } else {
                Seg::Index(
                    inner
                        .parse()
                        .map_err(|_| bad("an index is a whole number or *"))?,
                )
            });
            rest = &rest[close + 1..];
            if !rest.is_empty() && !rest.starts_with('[') {
                return Err(bad("text after ']'"));
            }
        }
    }
    Ok(Metric {
        text: text.to_string(),
        segs,
    })
}

/// The group columns of `metrics`, one per `[*]` of the longest wildcard chain, named by the
/// list's key (a repeated key gets its level, `runs2`).
///
/// # Errors
/// At `metrics[i]` when metric `i`'s wildcard prefix is not part of the longest chain.
pub fn group_columns(metrics: &[Metric]) -> Result<Vec<String>> {
    let chain = longest_chain(metrics);
    for (i, m) in metrics.iter().enumerate() {
        let p = m.wildcard_prefix();
        if !chain.starts_with(p) {
            return Err(ScenarioError::at(
                format!("metrics[{i}]"),
                format!(
                    "\"{}\" lists other items than the other metrics; every [*] must lie along one chain of lists (e.g. report.runs[*].x beside report.runs[*].y)",
                    m.text
                ),
            ));
        }
    }
    let mut names: Vec<String> = Vec::new();
    for (i, s) in chain.iter().enumerate() {
        if *s == Seg::All {
            let base = match i.checked_sub(1).map(|j| &chain[j]) {
                Some(Seg::Key(k)) => k.clone(),
                _ => "item".to_string(),
            };
            let mut name = base.clone();
            let mut level = 2;
            while names.contains(&name) {
                name = format!("{base}{level}");
                level += 1;
            }
            names.push(name);
        }
    }
    Ok(names)
}

fn longest_chain(metrics: &[Metric]) -> Vec<Seg> {
    // The first longest, so an error names the later metric that leaves the chain.
    metrics
        .iter()
        .rev()
        .map(|m| m.wildcard_prefix())
        .max_by_key(|p| p.len())
        .unwrap_or(&[])
        .to_vec()
}

/// One tidy row of a report: the group labels (one per group column) and the metric values
/// (one per metric, `Null` when absent).
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub groups: Vec<Value>,
    pub values: Vec<Value>,
}

/// The rows of one report document: one per item of the longest `[*]` chain (in list order,
/// outer lists first), or one row when no metric has `[*]` or the lists are empty or absent
/// (then the group cells and the `[*]` metrics are empty).
///
/// # Complexity
/// `O(rows · metrics · path length)` plus one pass over each list for its labels.
pub fn extract(doc: &Value, metrics: &[Metric]) -> Vec<Row> {
    let chain = longest_chain(metrics);
    let depth = chain.iter().filter(|s| **s == Seg::All).count();
    // Every combination of indices along the chain, with each level's label.
    let mut tuples: Vec<(Vec<usize>, Vec<Value>)> = vec![(Vec::new(), Vec::new())];
    let mut level_start = 0;
    for _ in 0..depth {
        let end = level_start
            + chain[level_start..]
                .iter()
                .position(|s| *s == Seg::All)
                .expect("depth counts the wildcards");
        let mut next = Vec::new();
        for (idx, labels) in &tuples {
            let list = resolve(doc, &chain[..end], idx);
            let Some(Value::Array(items)) = list else {
                continue;
            };
            let item_labels = labels_of(items);
            for (i, label) in item_labels.into_iter().enumerate() {
                let mut idx = idx.clone();
                idx.push(i);
                let mut labels = labels.clone();
                labels.push(label);
                next.push((idx, labels));
            }
        }
        tuples = next;
        level_start = end + 1;
    }
    if tuples.is_empty() {
        let values = metrics
            .iter()
            .map(|m| {
                if m.depth() == 0 {
                    resolve(doc, &m.segs, &[]).cloned().unwrap_or(Value::Null)
                } else {
                    Value::Null
                }
            })
            .collect();
        return vec![Row {
            groups: vec![Value::Null; depth],
            values,
        }];
    }
    tuples
        .into_iter()
        .map(|(idx, groups)| Row {
            groups,
            values: metrics
                .iter()
                .map(|m| resolve(doc, &m.segs, &idx).cloned().unwrap_or(Value::Null))
                .collect(),
        })
        .collect()
}

/// What a projection keeps of a report: the parts on the metrics' paths (and the label fields
/// of every `[*]` list's items), each metric's value whole.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Want {
    /// The value whole, everything under it.
    pub whole: bool,
    /// An object's fields kept, each with what it keeps.
    pub keys: std::collections::BTreeMap<String, Want>,
    /// What a list's kept items keep.
    pub items: Option<Box<Want>>,
    /// Every item of the list kept (a `[*]`), else only `indices`.
    pub all_items: bool,
    pub indices: std::collections::BTreeSet<usize>,
}

impl Want {
    /// What `metrics` read of a report.
    pub fn of(metrics: &[Metric]) -> Want {
        let mut root = Want::default();
        for m in metrics {
            let mut at = &mut root;
            for s in &m.segs {
                at = match s {
                    Seg::Key(k) => at.keys.entry(k.clone()).or_default(),
                    Seg::Index(i) => {
                        at.indices.insert(*i);
                        at.items.get_or_insert_with(Default::default)
                    }
                    Seg::All => {
                        at.all_items = true;
                        let items = at.items.get_or_insert_with(Default::default);
                        for f in LABEL_FIELDS {
                            items.keys.entry(f.to_string()).or_default().whole = true;
                        }
                        items
                    }
                };
            }
            at.whole = true;
        }
        root
    }
}

struct Project<'a>(&'a Want);

impl<'de> serde::de::DeserializeSeed<'de> for Project<'_> {
    type Value = Value;
    fn deserialize<D: serde::Deserializer<'de>>(
        self,
        d: D,
    ) -> std::result::Result<Value, D::Error> {
        use serde::Deserialize;
        if self.0.whole {
            Value::deserialize(d)
        } else {
            d.deserialize_any(self)
        }
    }
}

impl<'de> serde::de::Visitor<'de> for Project<'_> {
    type Value = Value;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a report")
    }
    fn visit_bool<E>(self, v: bool) -> std::result::Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> std::result::Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_u64<E>(self, v: u64) -> std::result::Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_f64<E>(self, v: f64) -> std::result::Result<Value, E> {
        Ok(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
    }
    fn visit_str<E>(self, v: &str) -> std::result::Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }
    fn visit_unit<E>(self) -> std::result::Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(
        self,
        mut seq: A,
    ) -> std::result::Result<Value, A::Error> {
        let mut out = Vec::new();
        let mut i = 0;
        loop {
            let keep = self
                .0
                .items
                .as_deref()
                .filter(|_| self.0.all_items || self.0.indices.contains(&i));
            let next = match keep {
                Some(w) => seq.next_element_seed(Project(w))?,
                None => seq
                    .next_element::<serde::de::IgnoredAny>()?
                    .map(|_| Value::Null),
            };
            match next {
                Some(v) => out.push(v),
                None => break,
            }
            i += 1;
        }
        Ok(Value::Array(out))
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(
        self,
        mut map: A,
    ) -> std::result::Result<Value, A::Error> {
        let mut out = serde_json::Map::new();
        while let Some(key) = map.next_key::<String>()? {
            match self.0.keys.get(&key) {
                Some(w) => {
                    let v = map.next_value_seed(Project(w))?;
                    out.insert(key, v);
                }
                None => {
                    map.next_value::<serde::de::IgnoredAny>()?;
                }
            }
        }
        Ok(Value::Object(out))
    }
}

/// The report text reduced to what `metrics` read, without building the rest: a report's
/// frames, schedules and drawings are skipped, not parsed into values. `extract(&project(t, m)?,
/// m)` equals `extract(&parse(t)?, m)`.
///
/// # Errors
/// The parser's message when `report` is not JSON.
pub fn project(report: &str, metrics: &[Metric]) -> std::result::Result<Value, String> {
    use serde::de::DeserializeSeed;
    let want = Want::of(metrics);
    let mut de = serde_json::Deserializer::from_str(report);
    let v = Project(&want)
        .deserialize(&mut de)
        .map_err(|e| e.to_string())?;
    de.end().map_err(|e| e.to_string())?;
    Ok(v)
}

/// Labels of a list's items: the first string field of [`LABEL_FIELDS`] when every item has
/// one and they are unique, else the indices.
fn labels_of(items: &[Value]) -> Vec<Value> {
    for field in LABEL_FIELDS {
        let labels: Vec<Option<&str>> = items
            .iter()
            .map(|it| it.get(field).and_then(Value::as_str))
            .collect();
        if labels.iter().all(Option::is_some) {
            let mut seen = std::collections::BTreeSet::new();
            if labels.iter().all(|l| seen.insert(l.unwrap())) {
                return labels
                    .into_iter()
                    .map(|l| Value::String(l.unwrap().to_string()))
                    .collect();
            }
        }
    }
    (0..items.len()).map(|i| Value::from(i as u64)).collect()
}

/// The value at `segs` inside `doc`, the `k`-th `[*]` taking `idx[k]`.
fn resolve<'a>(doc: &'a Value, segs: &[Seg], idx: &[usize]) -> Option<&'a Value> {
    let mut at = doc;
    let mut k = 0;
    for s in segs {
        at = match s {
            Seg::Key(key) => at.get(key)?,
            Seg::Index(i) => at.get(*i)?,
            Seg::All => {
                let i = *idx.get(k)?;
                k += 1;
                at.get(i)?
            }
        };
    }
    Some(at)
}

/// Each engine's default metrics, used when a study lists none: the figures its page shows
/// first. A test checks that every path exists in a report of one of the engine's sample
/// scenarios (an engine with several modes lists the headline of each; a mode's absent
/// metrics are empty cells).
pub fn headline_metrics(engine: &str) -> &'static [&'static str] {
    match engine {
        "allocation" => &[
            "report.runs[*].summary.utilization",
            "report.runs[*].summary.meanDiameter",
            "report.runs[*].summary.meanHops",
            "report.runs[*].summary.meanWait",
            "report.runs[*].summary.meanBoundedSlowdown",
        ],
        "partition" => &[
            "report.runs[*].edgeCut",
            "report.runs[*].commVolume",
            "report.runs[*].imbalance",
        ],
        "place" => &[
            "report.cases[*].processes",
            "report.cases[*].runs[*].time",
            "report.cases[*].runs[*].ratio",
            "report.cases[*].runs[*].hopBytes",
        ],
        "select" => &[
            "report.workstations.best.p",
            "report.workstations.best.t",
            "report.workstations.lostPercent",
            "report.subsystem.gapPercent",
            "report.reservation.endTime",
        ],
        "moldable" => &[
            "report.methods[*].makespan",
            "report.methods[*].ratioToBound",
            "report.methods[*].utilization",
        ],
        "trace" => &[
            "report.best.time",
            "report.best.identityRatio",
            "report.search.gap",
        ],
        _ => &[],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn metrics(list: &[&str]) -> Vec<Metric> {
        list.iter()
            .map(|t| parse_metric(t, "metrics").unwrap())
            .collect()
    }

    #[test]
    fn wildcards_give_one_row_per_item_with_its_label() {
        let doc = json!({"report": {"total": 7, "runs": [
            {"policy": "a", "x": 1}, {"policy": "b", "x": 2.5}]}});
        let m = metrics(&["report.runs[*].x", "report.total"]);
        assert_eq!(group_columns(&m).unwrap(), ["runs"]);
        let rows = extract(&doc, &m);
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[1].groups, [json!("b")]);
        assert_eq!(rows[1].values, [json!(2.5), json!(7)]);
    }

    #[test]
    fn nested_lists_broadcast_the_outer_values() {
        let doc = json!({"report": {"cases": [
            {"kind": "STAR", "n": 4, "runs": [{"strategy": "s", "t": 1}, {"strategy": "r", "t": 2}]},
            {"kind": "STAR", "n": 8, "runs": [{"strategy": "s", "t": 3}]}]}});
        let m = metrics(&["report.cases[*].n", "report.cases[*].runs[*].t"]);
        assert_eq!(group_columns(&m).unwrap(), ["cases", "runs"]);
        let rows = extract(&doc, &m);
        assert_eq!(rows.len(), 3);
        // "kind" repeats, so the cases are labelled by index.
        assert_eq!(rows[2].groups, [json!(1), json!("s")]);
        assert_eq!(rows[2].values, [json!(8), json!(3)]);
    }

    #[test]
    fn a_projection_extracts_what_the_whole_report_does() {
        let doc = json!({"report": {"frames": [[1, 2], {"big": "x"}], "best": {"t": 3.5, "u": [1]},
            "cases": [{"kind": "A", "n": 4, "runs": [{"strategy": "s", "t": 1, "skip": [0]}]},
                      {"kind": "A", "n": 8, "runs": []}],
            "list": [10, 20, 30]}});
        let m = metrics(&[
            "report.cases[*].n",
            "report.cases[*].runs[*].t",
            "report.best",
            "report.best.t",
            "report.list[1]",
            "report.absent",
        ]);
        let text = doc.to_string();
        let p = project(&text, &m).unwrap();
        assert_eq!(extract(&p, &m), extract(&doc, &m));
        assert!(p["report"].get("frames").is_none());
        assert!(project("{", &m).is_err());
    }

    #[test]
    fn absent_values_are_empty_and_foreign_chains_refused() {
        let doc = json!({"report": {}});
        let rows = extract(&doc, &metrics(&["report.runs[*].x", "report.y"]));
        assert_eq!(
            rows,
            [Row {
                groups: vec![Value::Null],
                values: vec![Value::Null, Value::Null]
            }]
        );
        let e = group_columns(&metrics(&["report.runs[*].x", "report.cases[*].y"])).unwrap_err();
        assert_eq!(e.path, "$.metrics[1]");
        assert!(parse_metric("report..x", "metrics[0]").is_err());
        assert!(parse_metric("report.x[a]", "metrics[0]").is_err());
    }
}
