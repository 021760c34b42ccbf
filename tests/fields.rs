//! Every engine's field table is the one statement of its fields' defaults and ranges
//! (`src/params.rs`). For every engine and every field of its table, on the engine's sample
//! scenarios and `playground-examples/`:
//!
//! - a scenario that omits the field runs exactly as one that gives the table's default (the
//!   reports are identical byte for byte);
//! - a value just outside the table's range is refused, naming that field's path.
//!
//! A field no scenario can carry (no sample or example has the object it lives in) fails the
//! test, so the table stays covered as it grows.

use placelab::api;
use placelab::engines::ENGINES;
use placelab::params::Param;
use placelab::progress::NoProgress;
use serde_json::Value;

/// One step of a path: a key, or the first item of a list (`[]` in the table).
enum Step {
    Key(String),
    First,
}

fn steps(path: &str) -> Vec<Step> {
    let mut out = Vec::new();
    for part in path.split('.') {
        let key = part.trim_end_matches("[]");
        out.push(Step::Key(key.to_string()));
        for _ in 0..(part.len() - key.len()) / 2 {
            out.push(Step::First);
        }
    }
    out
}

/// The path as the parser names it: `[]` becomes `[0]`, with the `$.` prefix.
fn concrete(path: &str) -> String {
    format!("$.{}", path.replace("[]", "[0]"))
}

/// The value holding the field's last step (an object, or a list for `[]`), if the scenario
/// has it.
fn parent<'a>(doc: &'a mut Value, steps: &[Step]) -> Option<&'a mut Value> {
    let mut v = doc;
    for s in &steps[..steps.len() - 1] {
        v = match s {
            Step::Key(k) => v.as_object_mut()?.get_mut(k)?,
            Step::First => v.as_array_mut()?.first_mut()?,
        };
    }
    Some(v)
}

/// The scenario with the field set to `value` (`None`: removed), if it has the field's object
/// (for a list item: a list with a first item).
fn with_field(text: &str, path: &str, value: Option<&Value>) -> Option<String> {
    let mut doc: Value = serde_json::from_str(text).ok()?;
    let st = steps(path);
    let holder = parent(&mut doc, &st)?;
    match (st.last()?, value) {
        (Step::Key(k), Some(v)) => {
            holder.as_object_mut()?.insert(k.clone(), v.clone());
        }
        (Step::Key(k), None) => {
            holder.as_object_mut()?.remove(k);
        }
        (Step::First, Some(v)) => *holder.as_array_mut()?.first_mut()? = v.clone(),
        (Step::First, None) => return None,
    }
    Some(serde_json::to_string(&doc).unwrap())
}

/// The engine's scenarios: its samples first (small), then its playground examples and the
/// scenarios of `tests/fixtures/fields/`.
fn scenarios(engine: &str) -> Vec<String> {
    let entry = ENGINES.iter().find(|e| e.id == engine).unwrap();
    let mut out = (entry.samples)();
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/playground-examples");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    // scenarios for fields that no sample or example carries in a form the test can vary
    let extra = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/fields");
    files.extend(
        std::fs::read_dir(extra)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "json")),
    );
    files.sort();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let doc: Value = serde_json::from_str(&text).unwrap();
        if doc["engine"] == engine {
            out.push(text);
        }
    }
    out
}

/// The fields the envelope owns, not the engine's table.
fn is_envelope(p: &Param) -> bool {
    matches!(p.path, "seed" | "name" | "description")
}

#[test]
fn omitting_a_field_is_the_same_as_giving_its_table_default() {
    let mut uncovered = Vec::new();
    for entry in ENGINES {
        let table = (entry.params)();
        let texts = scenarios(entry.id);
        for p in table
            .iter()
            .filter(|p| !p.default.is_null() && !is_envelope(p))
        {
            // the first scenario where both forms are valid
            let pair = texts.iter().find_map(|t| {
                let without = with_field(t, p.path, None)?;
                let given = with_field(t, p.path, Some(&p.default))?;
                (api::check(&without).is_ok() && api::check(&given).is_ok())
                    .then_some((without, given))
            });
            let Some((without, given)) = pair else {
                uncovered.push(format!("{}: {}", entry.id, p.path));
                continue;
            };
            let a = api::run(&without, &mut NoProgress).unwrap();
            let b = api::run(&given, &mut NoProgress).unwrap();
            assert!(
                a == b,
                "{}: omitting {} does not run as its table default {}",
                entry.id,
                p.path,
                p.default
            );
        }
    }
    assert!(
        uncovered.is_empty(),
        "no sample or example can carry these defaulted fields (add one): {uncovered:?}"
    );
}

/// A number just below `lo` and just above `hi` for a field of `kind`.
fn just_outside(kind: &str, lo: f64, hi: f64) -> [Value; 2] {
    if kind == "int" {
        [
            serde_json::json!(lo as i64 - 1),
            serde_json::json!(hi as i64 + 1),
        ]
    } else {
        let nudge = |x: f64| (x.abs() * 1e-6).max(1e-300);
        [
            serde_json::json!(lo - nudge(lo)),
            serde_json::json!(hi + nudge(hi)),
        ]
    }
}

#[test]
fn a_value_just_outside_a_fields_range_is_refused_at_its_path() {
    let mut uncovered = Vec::new();
    for entry in ENGINES {
        let table = (entry.params)();
        let texts = scenarios(entry.id);
        for p in table.iter().filter(|p| !is_envelope(p)) {
            let (Some(lo), Some(hi)) = (p.min, p.max) else {
                continue;
            };
            let inside = if p.kind == "int" {
                serde_json::json!(lo as i64)
            } else if p.min_exclusive {
                serde_json::json!(lo + (lo.abs() * 1e-6).max(1e-300))
            } else {
                serde_json::json!(lo)
            };
            // the range refused, not something else: with the low end of the range the same
            // scenario passes, or fails elsewhere or for another reason (a field that needs a
            // companion no sample gives, say)
            let range_error = |e: &placelab::ScenarioError| {
                e.path == concrete(p.path) && e.message.starts_with("must be")
            };
            let t = texts.iter().find(|t| {
                with_field(t, p.path, Some(&inside))
                    .is_some_and(|s| api::check(&s).map_or_else(|e| !range_error(&e), |()| true))
            });
            let Some(t) = t else {
                uncovered.push(format!("{}: {}", entry.id, p.path));
                continue;
            };
            let mut outside = just_outside(p.kind, lo, hi).to_vec();
            if p.min_exclusive {
                // the end of an open range is outside it
                outside.push(serde_json::json!(lo));
            }
            for bad in outside {
                let text = with_field(t, p.path, Some(&bad)).unwrap();
                let err = api::check(&text).expect_err(&format!(
                    "{}: {} = {bad} is outside {lo}..={hi} but accepted",
                    entry.id, p.path
                ));
                assert!(
                    range_error(&err),
                    "{}: {} = {bad} not refused as out of range at {}: {err}",
                    entry.id,
                    p.path,
                    concrete(p.path)
                );
            }
        }
    }
    assert!(
        uncovered.is_empty(),
        "no sample or example can carry these ranged fields in range (add one): {uncovered:?}"
    );
}

#[test]
fn every_table_default_lies_in_its_range_and_every_option_is_listed_once() {
    for entry in ENGINES {
        for p in (entry.params)() {
            if let (Some(lo), Some(hi), Some(d)) = (p.min, p.max, p.default.as_f64()) {
                assert!(
                    lo <= d && d <= hi,
                    "{}: {} default {d} outside {lo}..={hi}",
                    entry.id,
                    p.path
                );
            }
            let mut ids: Vec<_> = p.options.iter().map(|c| c.value).collect();
            ids.sort();
            ids.dedup();
            assert_eq!(ids.len(), p.options.len(), "{}: {}", entry.id, p.path);
        }
    }
}
