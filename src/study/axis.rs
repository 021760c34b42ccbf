//! One axis of a study: a scenario field and the values it takes, checked against the engine's
//! field table ([`crate::params::Param`]).
//!
//! An axis is written three ways:
//! - `{"path": "system.width", "values": [4, 8, 16]}`: the values as given;
//! - `{"path": ..., "from": a, "to": b, "step": s}`: `v_i = a + i·s` for `i = 0, 1, ...` while
//!   `v_i` does not pass `b` (with a tolerance of `1e-9·s`, so `0.1` steps reach `1`), each
//!   rounded to 12 significant digits (so `0.1 + 2·0.1` is written `0.3`); `s` may be negative
//!   when `b < a`;
//! - `{"path": ..., "from": a, "to": b, "count": n, "scale": "log"}`: `n` values spaced evenly
//!   on a log scale, `v_i = a·(b/a)^(i/(n-1))`, the first exactly `a` and the last exactly `b`
//!   (`a, b > 0`); `"scale": "linear"` spaces them evenly. For a whole-number field each value
//!   is rounded to the nearest whole number and repeats are dropped (`1..64`, 12 values on a
//!   log scale, gives 1 2 3 5 7 10 14 21 30 44 64: 11, fewer than asked).
//!
//! Invariant: every value of an admitted axis has the field's kind and lies in its range; the
//! engine's own validation still judges rules across fields, point by point.

use crate::error::{compact_number, Result, ScenarioError};
use crate::params::Param;
use serde_json::Value;

/// The most values one axis may have.
pub const MAX_AXIS_VALUES: usize = 1_000_000;

/// An axis: the scenario path and its values, in order.
#[derive(Debug, Clone, PartialEq)]
pub struct Axis {
    pub path: String,
    pub values: Vec<Value>,
}

/// One step of a scenario path: an object key or a list index.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    Key(String),
    Index(usize),
}

/// Splits `system.width` or `stations[3].load` into its steps.
///
/// # Errors
/// A message (the caller adds the JSON path) for an empty key or a malformed index.
pub fn parse_path(path: &str) -> std::result::Result<Vec<Step>, String> {
    let mut steps = Vec::new();
    for part in path.split('.') {
        let (key, mut rest) = match part.find('[') {
            Some(i) => (&part[..i], &part[i..]),
            None => (part, ""),
        };
        if key.is_empty() {
            return Err(format!("\"{path}\" is not a field path (an empty name)"));
        }
        steps.push(Step::Key(key.to_string()));
        while !rest.is_empty() {
            let close = rest
                .find(']')
                .ok_or_else(|| format!("\"{path}\": a '[' without ']'"))?;
            let index: usize = rest[1..close]
                .parse()
                .map_err(|_| format!("\"{path}\": a list index must be a whole number"))?;
            steps.push(Step::Index(index));
            rest = &rest[close + 1..];
            if !rest.is_empty() && !rest.starts_with('[') {
                return Err(format!("\"{path}\" is not a field path"));
            }
        }
    }
    Ok(steps)
}

/// The path as the field table writes it: every list index as `[]`.
pub fn table_pattern(steps: &[Step]) -> String {
    let mut s = String::new();
    for step in steps {
        match step {
            Step::Key(k) => {
                if !s.is_empty() {
                    s.push('.');
                }
                s.push_str(k);
            }
            Step::Index(_) => s.push_str("[]"),
        }
    }
    s
}

/// Writes `value` at `steps` inside `root`, creating missing objects on the way; a list index
/// must exist.
pub fn set_path(root: &mut Value, steps: &[Step], value: Value) -> std::result::Result<(), String> {
    let mut at = root;
    for (i, step) in steps.iter().enumerate() {
        let last = i + 1 == steps.len();
        at = match step {
            Step::Key(k) => {
                let Value::Object(map) = at else {
                    return Err(format!(
                        "the base scenario has no object where \"{k}\" goes"
                    ));
                };
                if last {
                    map.insert(k.clone(), value);
                    return Ok(());
                }
                map.entry(k.clone())
                    .or_insert_with(|| Value::Object(Default::default()))
            }
            Step::Index(n) => {
                let Value::Array(list) = at else {
                    return Err(format!("the base scenario has no list where [{n}] goes"));
                };
                let len = list.len();
                let slot = list.get_mut(*n).ok_or_else(|| {
                    format!("the base scenario's list has {len} items, so no item [{n}]")
                })?;
                if last {
                    *slot = value;
                    return Ok(());
                }
                slot
            }
        };
    }
    Ok(())
}

/// Reads and checks the axis object at `$.axes[k]` against the engine's field `table`.
///
/// # Errors
/// A [`ScenarioError`] at the axis (or its offending value): an unknown field path, a value of
/// the wrong kind or outside the field's range (naming the axis and the value), a malformed
/// range.
pub fn parse_axis(v: &Value, at: &str, table: &[Param]) -> Result<Axis> {
    let Value::Object(obj) = v else {
        return Err(ScenarioError::at(at, "an axis must be an object with \"path\" and \"values\" (or \"from\", \"to\" and \"step\" or \"count\")"));
    };
    for key in obj.keys() {
        if !["path", "values", "from", "to", "step", "count", "scale"].contains(&key.as_str()) {
            return Err(ScenarioError::at(
                format!("{at}.{key}"),
                format!("unknown field \"{key}\"; an axis has path, values, from, to, step, count, scale"),
            ));
        }
    }
    let path = match obj.get("path") {
        Some(Value::String(s)) => s.clone(),
        Some(_) => return Err(ScenarioError::at(format!("{at}.path"), "must be a string")),
        None => {
            return Err(ScenarioError::at(
                format!("{at}.path"),
                "missing; the scenario field this axis varies, e.g. \"system.width\"",
            ))
        }
    };
    let steps = parse_path(&path).map_err(|m| ScenarioError::at(format!("{at}.path"), m))?;
    if matches!(steps.first(), Some(Step::Key(k)) if ["seed", "version", "engine", "name", "description"].contains(&k.as_str()))
    {
        return Err(ScenarioError::at(
            format!("{at}.path"),
            format!(
                "\"{path}\" is part of the envelope, not an axis; seeds come from \"replicates\""
            ),
        ));
    }
    let pattern = table_pattern(&steps);
    let param = table.iter().find(|p| p.path == pattern).ok_or_else(|| {
        let fields: Vec<&str> = table
            .iter()
            .filter(|p| p.form && p.path != "seed")
            .map(|p| p.path)
            .collect();
        ScenarioError::at(
            format!("{at}.path"),
            format!(
                "the engine has no field \"{path}\"; its fields: {}",
                fields.join(", ")
            ),
        )
    })?;
    let values = if let Some(list) = obj.get("values") {
        for key in ["from", "to", "step", "count", "scale"] {
            if obj.contains_key(key) {
                return Err(ScenarioError::at(
                    format!("{at}.{key}"),
                    "an axis has either \"values\" or a range (\"from\", \"to\", ...), not both",
                ));
            }
        }
        let Value::Array(list) = list else {
            return Err(ScenarioError::at(
                format!("{at}.values"),
                "must be a list of values",
            ));
        };
        if list.is_empty() {
            return Err(ScenarioError::at(
                format!("{at}.values"),
                "must hold at least one value",
            ));
        }
        if list.len() > MAX_AXIS_VALUES {
            return Err(ScenarioError::at(
                format!("{at}.values"),
                format!("at most {MAX_AXIS_VALUES} values"),
            ));
        }
        list.clone()
    } else {
        range_values(obj, at, param)?
    };
    for (i, value) in values.iter().enumerate() {
        check_value(value, param, &path).map_err(|m| {
            let where_ = if obj.contains_key("values") {
                format!("{at}.values[{i}]")
            } else {
                at.to_string()
            };
            ScenarioError::at(where_, m)
        })?;
    }
    let mut seen = std::collections::BTreeSet::new();
    for (i, value) in values.iter().enumerate() {
        if !seen.insert(value.to_string()) {
            return Err(ScenarioError::at(
                format!("{at}.values[{i}]"),
                format!("axis {path}: the value {value} is listed twice"),
            ));
        }
    }
    Ok(Axis { path, values })
}

fn number_at(obj: &serde_json::Map<String, Value>, at: &str, key: &str) -> Result<f64> {
    match obj.get(key) {
        Some(v) => v
            .as_f64()
            .filter(|x| x.is_finite())
            .ok_or_else(|| ScenarioError::at(format!("{at}.{key}"), "must be a number")),
        None => Err(ScenarioError::at(
            format!("{at}.{key}"),
            "missing; an axis has \"values\", or \"from\", \"to\" and \"step\" or \"count\"",
        )),
    }
}

/// Rounds to 12 significant decimal digits, so sums of decimal steps read as written.
fn round12(x: f64) -> f64 {
    if x == 0.0 {
        return 0.0;
    }
    format!("{x:.11e}").parse().unwrap_or(x)
}

fn range_values(
    obj: &serde_json::Map<String, Value>,
    at: &str,
    param: &Param,
) -> Result<Vec<Value>> {
    let whole = param.kind == "int";
    if !whole && param.kind != "number" {
        return Err(ScenarioError::at(
            at,
            format!(
                "{} is a field of kind {}; a range (from, to) needs a number field: list its \"values\"",
                param.path, param.kind
            ),
        ));
    }
    let from = number_at(obj, at, "from")?;
    let to = number_at(obj, at, "to")?;
    let raw: Vec<f64> = match (obj.get("step"), obj.get("count")) {
        (Some(_), Some(_)) => {
            return Err(ScenarioError::at(
                format!("{at}.count"),
                "give either \"step\" or \"count\", not both",
            ))
        }
        (Some(_), None) => {
            if obj.contains_key("scale") {
                return Err(ScenarioError::at(
                    format!("{at}.scale"),
                    "\"scale\" goes with \"count\"; a \"step\" is always linear",
                ));
            }
            let step = number_at(obj, at, "step")?;
            if step == 0.0 || (to - from) * step < 0.0 {
                return Err(ScenarioError::at(
                    format!("{at}.step"),
                    format!(
                        "a step of {} never goes from {} to {}",
                        compact_number(step),
                        compact_number(from),
                        compact_number(to)
                    ),
                ));
            }
            let n = ((to - from) / step + 1e-9).floor() + 1.0;
            if n > MAX_AXIS_VALUES as f64 {
                return Err(ScenarioError::at(
                    format!("{at}.step"),
                    format!(
                        "the range has {} values; at most {MAX_AXIS_VALUES}",
                        compact_number(n)
                    ),
                ));
            }
            (0..n as usize)
                .map(|i| round12(from + i as f64 * step))
                .collect()
        }
        (None, Some(c)) => {
            let count = c.as_u64().filter(|&c| c >= 1).ok_or_else(|| {
                ScenarioError::at(format!("{at}.count"), "must be a whole number from 1")
            })?;
            if count > MAX_AXIS_VALUES as u64 {
                return Err(ScenarioError::at(
                    format!("{at}.count"),
                    format!("at most {MAX_AXIS_VALUES} values"),
                ));
            }
            let log = match obj.get("scale") {
                None => false,
                Some(Value::String(s)) if s == "linear" => false,
                Some(Value::String(s)) if s == "log" => true,
                Some(_) => {
                    return Err(ScenarioError::at(
                        format!("{at}.scale"),
                        "must be \"linear\" or \"log\"",
                    ))
                }
            };
            if log && (from <= 0.0 || to <= 0.0) {
                return Err(ScenarioError::at(
                    at,
                    "a log scale needs \"from\" and \"to\" above 0",
                ));
            }
            let n = count as usize;
            (0..n)
                .map(|i| {
                    if i == 0 {
                        from
                    } else if i + 1 == n {
                        to
                    } else {
                        let f = i as f64 / (n - 1) as f64;
                        round12(if log {
                            from * (to / from).powf(f)
                        } else {
                            from + (to - from) * f
                        })
                    }
                })
                .collect()
        }
        (None, None) => return Err(ScenarioError::at(at, "a range needs \"step\" or \"count\"")),
    };
    let mut out: Vec<Value> = Vec::with_capacity(raw.len());
    for x in raw {
        let v = if whole {
            let r = if obj.contains_key("count") {
                x.round()
            } else {
                x
            };
            if r.fract() != 0.0 {
                return Err(ScenarioError::at(
                    at,
                    format!(
                        "{} takes whole numbers; the range gives {}",
                        param.path,
                        compact_number(r)
                    ),
                ));
            }
            if r < 0.0 {
                Value::from(r as i64)
            } else {
                Value::from(r as u64)
            }
        } else {
            serde_json::Number::from_f64(x)
                .map(Value::Number)
                .unwrap_or(Value::Null)
        };
        if out.last() != Some(&v) {
            out.push(v);
        }
    }
    Ok(out)
}

/// Checks one value against the field's kind, range and options; the message names the axis
/// path and the value.
fn check_value(v: &Value, p: &Param, path: &str) -> std::result::Result<(), String> {
    let range = |x: f64| -> std::result::Result<(), String> {
        let below = p.min.is_some_and(|m| x < m);
        let above = p.max.is_some_and(|m| x > m);
        if below || above {
            return Err(format!(
                "axis {path}: {} is outside the field's range {} to {}",
                compact_number(x),
                p.min.map_or("-inf".into(), compact_number),
                p.max.map_or("inf".into(), compact_number)
            ));
        }
        Ok(())
    };
    let options: Vec<&str> = p.options.iter().map(|c| c.value).collect();
    match p.kind {
        "int" => match v.as_f64() {
            Some(x) if x.fract() == 0.0 && (v.is_u64() || v.is_i64()) => range(x),
            _ => Err(format!("axis {path}: {v} is not a whole number")),
        },
        "number" => match v.as_f64() {
            Some(x) => range(x),
            None => Err(format!("axis {path}: {v} is not a number")),
        },
        "bool" => match v {
            Value::Bool(_) => Ok(()),
            _ => Err(format!("axis {path}: {v} is not true or false")),
        },
        "enum" => match v.as_str() {
            Some(s) if options.contains(&s) => Ok(()),
            _ => Err(format!(
                "axis {path}: {v} is not one of {}",
                options.join(", ")
            )),
        },
        "multi" => match v {
            Value::Array(items)
                if items
                    .iter()
                    .all(|i| i.as_str().is_some_and(|s| options.contains(&s))) =>
            {
                Ok(())
            }
            _ => Err(format!(
                "axis {path}: {v} is not a list of {}",
                options.join(", ")
            )),
        },
        // Free text and structured fields: the engine's validation judges each point.
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> Vec<Param> {
        vec![
            Param::new("system.width", "Width", "int", Value::Null).range(1.0, 512.0),
            Param::new("rate", "Rate", "number", Value::Null).range(0.0, 1.0),
            Param::new("mode", "Mode", "enum", Value::Null).options(&[("a", "A"), ("b", "B")]),
            Param::rule("jobs[].tasks", "int").range(1.0, 64.0),
        ]
    }

    fn axis(text: &str) -> Result<Axis> {
        parse_axis(&crate::json::parse(text).unwrap(), "axes[0]", &table())
    }

    #[test]
    fn ranges_give_their_documented_values() {
        let a = axis(r#"{"path":"rate","from":0,"to":1,"step":0.1}"#).unwrap();
        assert_eq!(a.values.len(), 11);
        assert_eq!(a.values[3], serde_json::json!(0.3));
        assert_eq!(a.values[10], serde_json::json!(1.0));
        let a =
            axis(r#"{"path":"system.width","from":1,"to":64,"count":12,"scale":"log"}"#).unwrap();
        let got: Vec<u64> = a.values.iter().map(|v| v.as_u64().unwrap()).collect();
        assert_eq!(got, [1, 2, 3, 5, 7, 10, 14, 21, 30, 44, 64]);
        let a = axis(r#"{"path":"system.width","from":16,"to":4,"step":-4}"#).unwrap();
        assert_eq!(a.values, [16, 12, 8, 4].map(Value::from).to_vec());
    }

    #[test]
    fn unknown_paths_and_bad_values_name_the_axis() {
        let e = axis(r#"{"path":"system.widht","values":[1]}"#).unwrap_err();
        assert_eq!(e.path, "$.axes[0].path");
        assert!(e.message.contains("system.width"), "{}", e.message);
        let e = axis(r#"{"path":"system.width","values":[4, 600]}"#).unwrap_err();
        assert_eq!(e.path, "$.axes[0].values[1]");
        assert_eq!(
            e.message,
            "axis system.width: 600 is outside the field's range 1 to 512"
        );
        let e = axis(r#"{"path":"mode","values":["a","c"]}"#).unwrap_err();
        assert_eq!(e.path, "$.axes[0].values[1]");
        assert!(e.message.contains("one of a, b"));
        let e = axis(r#"{"path":"system.width","from":1,"to":2,"step":0.5}"#).unwrap_err();
        assert!(e.message.contains("whole numbers"), "{}", e.message);
        assert_eq!(
            axis(r#"{"path":"jobs[2].tasks","values":[65]}"#)
                .unwrap_err()
                .path,
            "$.axes[0].values[0]"
        );
        assert_eq!(
            axis(r#"{"path":"seed","values":[1]}"#).unwrap_err().path,
            "$.axes[0].path"
        );
    }

    #[test]
    fn paths_with_list_items_are_set_in_place() {
        let mut v = serde_json::json!({"jobs": [{"tasks": 1}, {"tasks": 2}]});
        set_path(
            &mut v,
            &parse_path("jobs[1].tasks").unwrap(),
            Value::from(9),
        )
        .unwrap();
        assert_eq!(v["jobs"][1]["tasks"], 9);
        assert!(set_path(
            &mut v,
            &parse_path("jobs[5].tasks").unwrap(),
            Value::from(9)
        )
        .is_err());
        set_path(&mut v, &parse_path("system.width").unwrap(), Value::from(3)).unwrap();
        assert_eq!(v["system"]["width"], 3);
    }
}
