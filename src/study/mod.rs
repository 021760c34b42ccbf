//! Studies: one base scenario swept over fields (axes) and seeds (replicates), each point run
//! as a plain scenario, its report reduced to a few metrics, the replicates summarized.
//!
//! The pipeline, pure (no threads, no I/O, no clock: it compiles for wasm32 too):
//! 1. [`parse`]: the study document (below) to a [`Study`], every axis checked against the base
//!    engine's field table ([`axis`]), every metric path parsed ([`metrics`]); errors are
//!    [`ScenarioError`]s naming the JSON path inside the study document;
//! 2. [`admit`]: the points counted against the user's limit and each one validated by
//!    [`crate::api::check`] before anything runs;
//! 3. [`point_scenario`]: point `i` as plain scenario text (its seed by [`seed::splitmix64`]);
//!    [`run_point`] runs it and extracts its tidy rows ([`metrics::extract`]);
//! 4. [`table`]: the tidy table (CSV and JSON Lines) and the aggregate table ([`stats`]);
//!    [`journal`]: the record of finished points that resumes a run and merges shards;
//!    [`page`]: the same pieces as text for a page that runs the points on its workers.
//!
//! [`sweep`] turns a placement scenario's own `sweep` into the study that runs the same cases.
//! The native runner ([`runner`], rayon threads, files) and the CLI (`placelab study`) sit on
//! top; `docs/format.md` ("Studies") is the user's reference.
//!
//! # The study document
//! ```json
//! {
//!   "version": 1,
//!   "name": "Closed-min against mesh size",
//!   "base": { "version": 1, "engine": "allocation", ... },
//!   "axes": [
//!     {"path": "system.width", "values": [4, 8, 16]},
//!     {"path": "workload.meanInterarrival", "from": 1, "to": 100, "count": 5, "scale": "log"}
//!   ],
//!   "zip": false,
//!   "replicates": {"count": 30, "baseSeed": 1},
//!   "metrics": ["report.runs[*].summary.meanWait"]
//! }
//! ```
//! The base is given inline (`base`), as a file (`baseFile`, resolved by the caller) or as an
//! example's id (`example`, the file name in `playground-examples/` without `.json`).
//!
//! # Points
//! A *combination* takes one value of every axis: the cross product (the first axis slowest,
//! the last fastest, as nested loops in the order written) or, with `"zip": true`, the `k`-th
//! value of every axis (all axes the same length). Point `i` is replicate `i mod R` of
//! combination `i div R` (`R` replicates, 1 when absent). Its seed is
//! `splitmix64(baseSeed, i)` ([`seed`]), or `splitmix64(baseSeed, i mod R)` with
//! `"commonSeeds": true` (every combination sees the same seeds: common random numbers); with
//! no `replicates`, every point keeps the base scenario's own seed.

pub mod axis;
pub mod capture;
pub mod journal;
pub mod metrics;
pub mod page;
#[cfg(not(target_arch = "wasm32"))]
pub mod runner;
pub mod seed;
pub mod slurm;
pub mod stats;
pub mod sweep;
pub mod table;

use crate::engines::{engine_ids, ENGINES};
use crate::error::{Result, ScenarioError};
use crate::scenario::{parse_envelope, MAX_SCENARIO_BYTES};
use axis::{Axis, Step};
use metrics::{Metric, Row};
use serde_json::{json, Map, Value};

/// The only study format version so far.
pub const STUDY_VERSION: u64 = 1;
/// The CLI's default admission limit (`--max-points`): 100,000 points. At the smallest
/// examples' few milliseconds a point this is minutes on one machine; a larger study belongs on
/// shards (`--shard I/N`) or asks for it explicitly.
pub const DEFAULT_MAX_POINTS: u64 = 100_000;
/// The most replicates a study may ask for.
pub const MAX_REPLICATES: u64 = 1_000_000;
/// The columns every tidy row has, whatever the study.
pub const FIXED_COLUMNS: [&str; 5] = ["point", "replicate", "seed", "status", "error"];

/// Where a base scenario that is not inline comes from; the caller reads it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum BaseSource<'a> {
    /// `"baseFile"`: a path, relative to the study file.
    File(&'a str),
    /// `"example"`: an example's id.
    Example(&'a str),
}

/// The replicates of every combination.
#[derive(Debug, Clone, PartialEq)]
pub struct Replicates {
    pub count: u64,
    pub base_seed: u64,
    /// Seeds by replicate index alone (common random numbers across combinations).
    pub common: bool,
}

/// An admitted study document.
#[derive(Debug, Clone)]
pub struct Study {
    pub name: String,
    pub description: String,
    pub engine: String,
    /// The base scenario (an object).
    pub base: Value,
    /// The base scenario's own seed.
    pub base_seed: u64,
    pub axes: Vec<Axis>,
    axis_steps: Vec<Vec<Step>>,
    pub zip: bool,
    pub replicates: Option<Replicates>,
    pub metrics: Vec<Metric>,
    /// What the metrics read of a point's report ([`capture::capture`]).
    want: metrics::Want,
    /// The group columns of the metrics' `[*]` lists.
    pub groups: Vec<String>,
    /// Number of combinations of axis values.
    pub combinations: u64,
    /// Number of points: combinations times replicates.
    pub points: u64,
    /// FNV-1a (64-bit) of this build's version and [`Study::canonical`]: what a results
    /// directory, a journal and a shard carry, so results of two studies never mix.
    pub hash: u64,
    canonical: Value,
}

impl Study {
    /// The replicates per combination.
    pub fn replicate_count(&self) -> u64 {
        self.replicates.as_ref().map_or(1, |r| r.count)
    }
    /// The study as one self-contained document (base inline, every axis as its list of
    /// values, the metrics spelled out), pretty-printed: `study.json` of a results directory,
    /// itself a valid study that [`parse`] reads back to the same hash.
    pub fn canonical(&self) -> String {
        serde_json::to_string_pretty(&self.canonical).expect("values serialize") + "\n"
    }
    /// The hash as 16 hex digits.
    pub fn hash_hex(&self) -> String {
        format!("{:016x}", self.hash)
    }
    /// The combination of point `i`.
    pub fn combination_of(&self, i: u64) -> u64 {
        i / self.replicate_count()
    }
    /// The replicate index of point `i`.
    pub fn replicate_of(&self, i: u64) -> u64 {
        i % self.replicate_count()
    }
    /// The index into each axis's values of combination `c`.
    pub fn axis_indices(&self, c: u64) -> Vec<usize> {
        if self.zip {
            return vec![c as usize; self.axes.len()];
        }
        let mut rest = c;
        let mut idx = vec![0; self.axes.len()];
        for (k, a) in self.axes.iter().enumerate().rev() {
            let n = a.values.len() as u64;
            idx[k] = (rest % n) as usize;
            rest /= n;
        }
        idx
    }
    /// The axis values of combination `c`, in axis order.
    pub fn axis_values(&self, c: u64) -> Vec<&Value> {
        self.axis_indices(c)
            .into_iter()
            .zip(&self.axes)
            .map(|(j, a)| &a.values[j])
            .collect()
    }
    /// The seed of point `i` (see the module doc).
    pub fn seed_of(&self, i: u64) -> u64 {
        match &self.replicates {
            None => self.base_seed,
            Some(r) => seed::splitmix64(r.base_seed, if r.common { i % r.count } else { i }),
        }
    }
}

fn field<'a>(obj: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    obj.get(key)
}

/// Parses and checks a study document. `resolve` reads a base given as `baseFile` or
/// `example`; its error message is reported at that field.
///
/// # Errors
/// A [`ScenarioError`] naming the JSON path in the study document (base errors under
/// `$.base`, or at `$.baseFile`/`$.example` with the file's own path in the message).
pub fn parse(
    text: &str,
    resolve: &mut dyn FnMut(BaseSource<'_>) -> std::result::Result<String, String>,
) -> Result<Study> {
    if text.len() > 2 * MAX_SCENARIO_BYTES {
        return Err(ScenarioError::at(
            "",
            format!(
                "the study is {} bytes; the limit is {} bytes",
                text.len(),
                2 * MAX_SCENARIO_BYTES
            ),
        ));
    }
    let doc = crate::json::parse(text)?;
    if doc.get("engine").is_some() {
        // A scenario, not a study: a placement scenario's own sweep runs as the study of its
        // cases ([`sweep`]); any other scenario is told what a study needs.
        return match sweep::study_of_sweep(&doc) {
            Some(study) => parse(&study.to_string(), resolve),
            None => Err(ScenarioError::at(
                "engine",
                "this is a scenario, not a study: a study names its base scenario (\"base\", \"baseFile\" or \"example\") and the fields it varies (\"axes\"); a placement scenario with a \"sweep\" is read as the study of its cases",
            )),
        };
    }
    let Value::Object(obj) = doc else {
        return Err(ScenarioError::at("", "a study must be a JSON object"));
    };
    const KEYS: [&str; 10] = [
        "version",
        "name",
        "description",
        "base",
        "baseFile",
        "example",
        "axes",
        "zip",
        "replicates",
        "metrics",
    ];
    for key in obj.keys() {
        if !KEYS.contains(&key.as_str()) {
            return Err(ScenarioError::at(
                key,
                format!("unknown field \"{key}\"; a study has {}", KEYS.join(", ")),
            ));
        }
    }
    match field(&obj, "version") {
        None => {
            return Err(ScenarioError::at(
                "version",
                "missing; write \"version\": 1",
            ))
        }
        Some(v) if v.as_u64() == Some(STUDY_VERSION) => {}
        Some(v) => {
            return Err(ScenarioError::at(
                "version",
                format!("unsupported study version {v}; this build reads version {STUDY_VERSION}"),
            ))
        }
    }
    let text_field = |key: &str| -> Result<String> {
        match field(&obj, key) {
            None => Ok(String::new()),
            Some(Value::String(s)) if s.chars().count() <= 4000 => Ok(s.clone()),
            Some(_) => Err(ScenarioError::at(
                key,
                "must be a string of at most 4000 characters",
            )),
        }
    };
    let name = text_field("name")?;
    let description = text_field("description")?;

    // The base scenario.
    let given: Vec<&str> = ["base", "baseFile", "example"]
        .into_iter()
        .filter(|k| obj.contains_key(*k))
        .collect();
    if given.len() != 1 {
        return Err(ScenarioError::at(
            given.get(1).copied().unwrap_or(""),
            "give the base scenario once: \"base\" (inline), \"baseFile\" or \"example\"",
        ));
    }
    let (base_text, where_) = match given[0] {
        "base" => {
            let b = &obj["base"];
            if !b.is_object() {
                return Err(ScenarioError::at("base", "must be a scenario object"));
            }
            (b.to_string(), "base")
        }
        key => {
            let Some(Value::String(s)) = obj.get(key) else {
                return Err(ScenarioError::at(key, "must be a string"));
            };
            let source = if key == "baseFile" {
                BaseSource::File(s)
            } else {
                BaseSource::Example(s)
            };
            (resolve(source).map_err(|m| ScenarioError::at(key, m))?, key)
        }
    };
    let rebase = |e: ScenarioError| -> ScenarioError {
        if where_ == "base" {
            ScenarioError {
                path: format!("$.base{}", &e.path[1..]),
                message: e.message,
            }
        } else {
            ScenarioError::at(where_, format!("{}: {}", e.path, e.message))
        }
    };
    let env = parse_envelope(&base_text, &engine_ids()).map_err(rebase)?;
    let base = crate::json::parse(&base_text).map_err(rebase)?;
    let engine = env.meta.engine.clone();
    let entry = ENGINES
        .iter()
        .find(|e| e.id == engine)
        .expect("engine checked by the envelope");
    let table = (entry.params)();

    // Axes.
    let mut axes = Vec::new();
    match field(&obj, "axes") {
        None => {}
        Some(Value::Array(list)) => {
            for (k, v) in list.iter().enumerate() {
                let at = format!("axes[{k}]");
                let a = axis::parse_axis(v, &at, &table)?;
                if axes.iter().any(|b: &Axis| b.path == a.path) {
                    return Err(ScenarioError::at(
                        format!("{at}.path"),
                        format!("a second axis over {}", a.path),
                    ));
                }
                axes.push(a);
            }
        }
        Some(_) => return Err(ScenarioError::at("axes", "must be a list of axes")),
    }
    let mut axis_steps = Vec::new();
    for (k, a) in axes.iter().enumerate() {
        let steps = axis::parse_path(&a.path).expect("checked by parse_axis");
        let mut probe = base.clone();
        axis::set_path(&mut probe, &steps, a.values[0].clone())
            .map_err(|m| ScenarioError::at(format!("axes[{k}].path"), m))?;
        axis_steps.push(steps);
    }
    let zip = match field(&obj, "zip") {
        None => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err(ScenarioError::at("zip", "must be true or false")),
    };
    let combinations = if zip {
        let n = axes.first().map_or(1, |a| a.values.len());
        for (k, a) in axes.iter().enumerate() {
            if a.values.len() != n {
                return Err(ScenarioError::at(
                    format!("axes[{k}]"),
                    format!(
                        "zipped axes must have as many values as the first ({n}); {} has {}",
                        a.path,
                        a.values.len()
                    ),
                ));
            }
        }
        n as u64
    } else {
        axes.iter()
            .try_fold(1u64, |acc, a| acc.checked_mul(a.values.len() as u64))
            .ok_or_else(|| {
                ScenarioError::at("axes", "the axes' cross product has more than 2^64 points")
            })?
    };

    // Replicates.
    let replicates = match field(&obj, "replicates") {
        None => None,
        Some(Value::Object(r)) => {
            for key in r.keys() {
                if !["count", "baseSeed", "commonSeeds"].contains(&key.as_str()) {
                    return Err(ScenarioError::at(
                        format!("replicates.{key}"),
                        format!(
                            "unknown field \"{key}\"; replicates have count, baseSeed, commonSeeds"
                        ),
                    ));
                }
            }
            let count = r
                .get("count")
                .and_then(Value::as_u64)
                .filter(|c| (1..=MAX_REPLICATES).contains(c))
                .ok_or_else(|| {
                    ScenarioError::at(
                        "replicates.count",
                        format!("must be a whole number from 1 to {MAX_REPLICATES}"),
                    )
                })?;
            let base_seed = match r.get("baseSeed") {
                None => env.meta.seed,
                Some(v) => v.as_u64().ok_or_else(|| {
                    ScenarioError::at(
                        "replicates.baseSeed",
                        "must be a whole number from 0 to 18446744073709551615",
                    )
                })?,
            };
            let common = match r.get("commonSeeds") {
                None => false,
                Some(Value::Bool(b)) => *b,
                Some(_) => {
                    return Err(ScenarioError::at(
                        "replicates.commonSeeds",
                        "must be true or false",
                    ))
                }
            };
            Some(Replicates {
                count,
                base_seed,
                common,
            })
        }
        Some(_) => {
            return Err(ScenarioError::at(
                "replicates",
                "must be an object such as {\"count\": 30, \"baseSeed\": 1}",
            ))
        }
    };
    let r = replicates.as_ref().map_or(1, |r| r.count);
    let points = combinations.checked_mul(r).ok_or_else(|| {
        ScenarioError::at("replicates.count", "the study has more than 2^64 points")
    })?;

    // Metrics.
    let metrics: Vec<Metric> = match field(&obj, "metrics") {
        None => metrics::headline_metrics(&engine)
            .iter()
            .map(|t| metrics::parse_metric(t, "metrics").expect("headline metrics parse"))
            .collect(),
        Some(Value::Array(list)) if !list.is_empty() => list
            .iter()
            .enumerate()
            .map(|(i, v)| match v {
                Value::String(s) => metrics::parse_metric(s, &format!("metrics[{i}]")),
                _ => Err(ScenarioError::at(
                    format!("metrics[{i}]"),
                    "must be a report path such as \"report.runs[*].summary.meanWait\"",
                )),
            })
            .collect::<Result<_>>()?,
        Some(_) => {
            return Err(ScenarioError::at(
                "metrics",
                "must be a non-empty list of report paths; leave it out for the engine's headline metrics",
            ))
        }
    };
    let groups = metrics::group_columns(&metrics)?;
    let mut columns: Vec<&str> = FIXED_COLUMNS.to_vec();
    columns.extend(axes.iter().map(|a| a.path.as_str()));
    columns.extend(groups.iter().map(String::as_str));
    for (i, m) in metrics.iter().enumerate() {
        if columns.contains(&m.text.as_str()) {
            return Err(ScenarioError::at(
                format!("metrics[{i}]"),
                format!("\"{}\" is listed twice or names another column", m.text),
            ));
        }
        columns.push(&m.text);
    }

    let canonical = json!({
        "version": STUDY_VERSION,
        "name": name,
        "description": description,
        "base": base,
        "axes": axes.iter().map(|a| json!({"path": a.path, "values": a.values})).collect::<Vec<_>>(),
        "zip": zip,
        "replicates": replicates.as_ref().map(|r| json!({"count": r.count, "baseSeed": r.base_seed, "commonSeeds": r.common})),
        "metrics": metrics.iter().map(|m| m.text.clone()).collect::<Vec<_>>(),
    });
    let mut canonical = canonical;
    if replicates.is_none() {
        canonical.as_object_mut().unwrap().remove("replicates");
    }
    let hash = fnv1a(format!("placelab {}\n{}", crate::api::version(), canonical).as_bytes());
    let want = metrics::Want::of(&metrics);
    Ok(Study {
        name,
        description,
        engine,
        base,
        base_seed: env.meta.seed,
        axes,
        axis_steps,
        zip,
        replicates,
        metrics,
        groups,
        combinations,
        points,
        hash,
        canonical,
        want,
    })
}

/// Parses a study whose base is inline (no file or example to resolve).
pub fn parse_inline(text: &str) -> Result<Study> {
    parse(text, &mut |_| {
        Err("this caller reads only studies with an inline \"base\"".to_string())
    })
}

/// FNV-1a, 64 bits.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// Point `i` as a plain scenario text: the base with each axis's value written at its path and
/// `seed` set to [`Study::seed_of`]. `placelab run` of this text gives the report the study ran.
///
/// # Panics
/// When `i >= study.points`.
pub fn point_scenario(study: &Study, i: u64) -> String {
    assert!(i < study.points, "point {i} of {}", study.points);
    // The replicates of a combination differ only in their seed: the text around the seed is
    // rendered once per combination (per thread) and the seed written between.
    thread_local! {
        static AROUND_SEED: std::cell::RefCell<Option<(u64, u64, String, String)>> =
            const { std::cell::RefCell::new(None) };
    }
    let c = study.combination_of(i);
    AROUND_SEED.with_borrow_mut(|cache| {
        if !matches!(cache, Some((h, cc, _, _)) if *h == study.hash && *cc == c) {
            let (before, after) = around_seed(study, c);
            *cache = Some((study.hash, c, before, after));
        }
        let (_, _, before, after) = cache.as_ref().expect("just filled");
        let seed = study.seed_of(i).to_string();
        let mut text = String::with_capacity(before.len() + seed.len() + after.len());
        text.push_str(before);
        text.push_str(&seed);
        text.push_str(after);
        text
    })
}

/// The text of combination `c`'s scenario before and after its seed's digits: the base with
/// each axis's value written at its path and `seed` set, written as `serde_json` writes the
/// object (`{`, then `"key":value` joined by `,`, then `}`, in the map's order).
fn around_seed(study: &Study, c: u64) -> (String, String) {
    let mut v = study.base.clone();
    for ((steps, a), j) in study
        .axis_steps
        .iter()
        .zip(&study.axes)
        .zip(study.axis_indices(c))
    {
        axis::set_path(&mut v, steps, a.values[j].clone()).expect("checked by parse");
    }
    let obj = v.as_object_mut().expect("the base is an object");
    obj.insert("seed".into(), Value::from(0u64));
    let (mut before, mut after) = (String::from("{"), String::new());
    let mut at_seed = false;
    for (k, (key, value)) in obj.iter().enumerate() {
        let out = if at_seed { &mut after } else { &mut before };
        if k > 0 {
            out.push(',');
        }
        out.push_str(&Value::from(key.as_str()).to_string());
        out.push(':');
        if key == "seed" {
            at_seed = true;
        } else {
            out.push_str(&value.to_string());
        }
    }
    after.push('}');
    (before, after)
}

/// What became of one point.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// Its tidy rows ([`metrics::extract`]).
    Ok(Vec<Row>),
    /// Why it failed: the scenario error (`$.path: message`) or the engine's panic.
    Error(String),
}

/// Runs point `i` and extracts its rows; a refused scenario is an [`Outcome::Error`].
pub fn run_point(study: &Study, i: u64) -> Outcome {
    // The replicates of a combination differ only in their seed: the scenario is parsed and
    // validated once per combination (per thread) and run under each point's seed, which gives
    // the report of the point's own text ([`crate::engines::Prepared`]).
    type Cached = (
        u64,
        u64,
        std::result::Result<Box<dyn crate::engines::Prepared>, String>,
    );
    thread_local! {
        static PREPARED: std::cell::RefCell<Option<Cached>> = const { std::cell::RefCell::new(None) };
    }
    let c = study.combination_of(i);
    PREPARED.with_borrow_mut(|cache| {
        if !matches!(cache, Some((h, cc, _)) if *h == study.hash && *cc == c) {
            let prepared =
                crate::api::prepare(&point_scenario(study, i)).map_err(|e| e.to_string());
            *cache = Some((study.hash, c, prepared));
        }
        match &cache.as_ref().expect("just filled").2 {
            Err(e) => Outcome::Error(e.clone()),
            Ok(p) => {
                let doc = p.run_captured(
                    study.seed_of(i),
                    &mut crate::progress::NoProgress,
                    &study.want,
                );
                Outcome::Ok(metrics::extract(&doc, &study.metrics))
            }
        }
    })
}

/// The admission of a study: how many points, which ones the engine refuses.
#[derive(Debug, Clone)]
pub struct Admission {
    pub points: u64,
    /// Points whose scenario [`crate::api::check`] refuses, with the error; they become error
    /// rows.
    pub invalid: Vec<(u64, ScenarioError)>,
    /// The estimated native run time of the admitted points of the range on one core, seconds:
    /// the sum of each point's [`crate::api::estimate`].
    pub seconds: f64,
    /// Each admitted point of the range with its estimated seconds, in point order.
    pub estimated: Vec<(u64, f64)>,
}

/// The CLI's default for the study-wide work limit (`--max-seconds`): 8 hours of estimated
/// native run time on one core, a night's work for one machine. Each point is also bounded on
/// its own by its engine's admission (10 s).
pub const DEFAULT_MAX_SECONDS: f64 = 8.0 * 3600.0;

/// Admits points `range` of a study: refuses it when the study has more than `max_points`
/// points, then validates each point of `range` (all of them, or one shard's) with
/// [`crate::api::check`].
///
/// # Errors
/// At `$` with the total when over the limit; at `$` naming the first point's error when every
/// point in `range` is refused (nothing would run).
///
/// Also sums each admitted point's estimated run time ([`crate::api::estimate`]) for
/// [`check_work_limit`].
///
/// # Complexity
/// One [`crate::api::check`] and [`crate::api::estimate`] per combination in `range`, not per
/// point.
pub fn admit(study: &Study, max_points: u64, range: std::ops::Range<u64>) -> Result<Admission> {
    check_limit(study, max_points)?;
    // A point's validity does not depend on its seed (an engine validates its scenario's
    // fields; the seed is the run's, not a field), so each combination is checked once, at its
    // first point in the range: the replicates of a combination are consecutive points.
    // The same holds for the work estimate.
    let mut last: Option<(u64, std::result::Result<f64, ScenarioError>)> = None;
    let mut admission = Admission::new(study.points);
    for i in range.clone() {
        let c = study.combination_of(i);
        if last.as_ref().map(|(lc, _)| *lc) != Some(c) {
            last = Some((c, judge_point(study, i)));
        }
        if let Some((_, judged)) = &last {
            admission.add(i, judged);
        }
    }
    refuse_if_all_invalid(study, &range, &admission.invalid)?;
    Ok(admission)
}

/// Point `i`'s admission: its scenario's estimated native seconds ([`crate::api::estimate`]),
/// or why the engine refuses it ([`crate::api::check`]). The same for every replicate of a
/// combination: neither depends on the seed.
pub fn judge_point(study: &Study, i: u64) -> std::result::Result<f64, ScenarioError> {
    let text = point_scenario(study, i);
    crate::api::check(&text)
        .and_then(|()| crate::api::estimate(&text))
        .map(|e| e.seconds())
}

impl Admission {
    /// The admission of a study of `points` points before any point is judged.
    pub fn new(points: u64) -> Admission {
        Admission {
            points,
            invalid: Vec::new(),
            seconds: 0.0,
            estimated: Vec::new(),
        }
    }

    /// The costliest admitted point and its estimated seconds (the first of equals).
    pub fn costliest(&self) -> Option<(u64, f64)> {
        self.estimated
            .iter()
            .copied()
            .reduce(|best, x| if x.1 > best.1 { x } else { best })
    }

    /// The order the page and the native runner hand points out: the admitted points costliest
    /// first by their estimates (ties in point order), then the refused ones, which only write
    /// their error rows. Longest first keeps the workers busy to the end: a long point started last
    /// would keep the study waiting while the others idle (Graham's LPT rule: the makespan is
    /// within 4/3 of the best order's, against 2 for an arbitrary order). The results do not
    /// depend on the order: each point's seed is its own and the tables are kept by point.
    pub fn costliest_first(&self) -> Vec<u64> {
        let mut order = self.estimated.clone();
        order.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        let mut points: Vec<u64> = order.into_iter().map(|(i, _)| i).collect();
        points.extend(self.invalid.iter().map(|(i, _)| *i));
        points
    }

    /// Counts point `i` with its judgement ([`judge_point`]).
    pub fn add(&mut self, i: u64, judged: &std::result::Result<f64, ScenarioError>) {
        match judged {
            Err(e) => self.invalid.push((i, e.clone())),
            Ok(t) => {
                self.estimated.push((i, *t));
                self.seconds += t;
            }
        }
    }
}

/// The study-wide work limit: refuses an admission whose estimated run time on one core is over
/// `max_seconds`, with the total and the costliest point.
///
/// # Errors
/// At `$`, naming the estimate, the costliest point and the limit.
pub fn check_work_limit(study: &Study, admission: &Admission, max_seconds: f64) -> Result<()> {
    if admission.seconds <= max_seconds {
        return Ok(());
    }
    let costliest = admission.costliest().map_or(String::new(), |(i, t)| {
        format!(
            "; the costliest, point {i} ({}), {} s",
            describe_point(study, i),
            crate::engine::seconds_words(t)
        )
    });
    Err(ScenarioError::at(
        "",
        format!(
            "the study's points are estimated at {} s of one core{costliest}; the limit is {} s (raise it with --max-seconds, or run shards)",
            crate::engine::seconds_words(admission.seconds),
            crate::engine::seconds_words(max_seconds)
        ),
    ))
}

/// The admission limit alone.
pub fn check_limit(study: &Study, max_points: u64) -> Result<()> {
    if study.points > max_points {
        return Err(ScenarioError::at(
            "",
            format!(
                "the study has {} points ({} combinations x {} replicates); the limit is {max_points} (raise it with --max-points, or run shards)",
                study.points,
                study.combinations,
                study.replicate_count()
            ),
        ));
    }
    Ok(())
}

/// Refuses a range in which every point is invalid, naming the first point's error.
pub fn refuse_if_all_invalid(
    study: &Study,
    range: &std::ops::Range<u64>,
    invalid: &[(u64, ScenarioError)],
) -> Result<()> {
    if !range.is_empty() && invalid.len() as u64 == range.end - range.start {
        let (i, e) = &invalid[0];
        return Err(ScenarioError::at(
            "",
            format!(
                "every point is refused by the engine, e.g. point {i} ({}): {e}",
                describe_point(study, *i)
            ),
        ));
    }
    Ok(())
}

/// `system.width=4, seed=123` for messages.
pub fn describe_point(study: &Study, i: u64) -> String {
    let mut parts: Vec<String> = study
        .axes
        .iter()
        .zip(study.axis_values(study.combination_of(i)))
        .map(|(a, v)| format!("{}={v}", a.path))
        .collect();
    parts.push(format!("seed={}", study.seed_of(i)));
    parts.join(", ")
}

/// The points of shard `k` of `n` (`k < n`): a contiguous block, `[k·P/n, (k+1)·P/n)`.
pub fn shard_range(points: u64, k: u64, n: u64) -> std::ops::Range<u64> {
    let at = |j: u64| ((points as u128 * j as u128) / n as u128) as u64;
    at(k)..at(k + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    const BASE: &str = r#"{"version":1,"engine":"allocation","seed":7,
        "system":{"kind":"mesh","width":4,"height":4},
        "workload":{"kind":"set","jobs":[{"tasks":4},{"tasks":4}]}}"#;

    fn study(rest: &str) -> Result<Study> {
        parse_inline(&format!(r#"{{"version":1,"base":{BASE}{rest}}}"#))
    }

    #[test]
    fn a_point_text_is_the_base_with_its_axis_values_and_seed_written() {
        let s = study(
            r#","axes":[{"path":"system.width","values":[4,5]},{"path":"workload.jobs[1].tasks","values":[2,3]}],"replicates":{"count":3,"baseSeed":5}"#,
        )
        .unwrap();
        // out of order, so the per-thread text of a combination is remade and reused
        for i in [0, 1, 7, 2, 11, 10, 3, 3, 0] {
            let mut v = s.base.clone();
            v["system"]["width"] = s.axes[0].values[s.axis_indices(s.combination_of(i))[0]].clone();
            v["workload"]["jobs"][1]["tasks"] =
                s.axes[1].values[s.axis_indices(s.combination_of(i))[1]].clone();
            v["seed"] = Value::from(s.seed_of(i));
            assert_eq!(point_scenario(&s, i), v.to_string(), "point {i}");
        }
    }

    #[test]
    fn points_cross_first_axis_slowest_replicates_innermost() {
        let s = study(
            r#","axes":[{"path":"system.width","values":[2,4]},{"path":"system.height","values":[3,5,7]}],
               "replicates":{"count":2,"baseSeed":9}"#,
        )
        .unwrap();
        assert_eq!((s.combinations, s.points), (6, 12));
        // point 7 = combination 3 (width 4, height 3), replicate 1
        assert_eq!(
            s.axis_values(s.combination_of(7)),
            [&Value::from(4), &Value::from(3)]
        );
        assert_eq!(s.replicate_of(7), 1);
        assert_eq!(s.seed_of(7), seed::splitmix64(9, 7));
        let v: Value = serde_json::from_str(&point_scenario(&s, 7)).unwrap();
        assert_eq!(v["system"]["width"], 4);
        assert_eq!(v["system"]["height"], 3);
        assert_eq!(v["seed"], seed::splitmix64(9, 7));
    }

    #[test]
    fn zip_pairs_values_and_without_replicates_the_base_seed_stays() {
        let s = study(
            r#","zip":true,"axes":[{"path":"system.width","values":[2,4]},{"path":"system.height","values":[3,5]}]"#,
        )
        .unwrap();
        assert_eq!(s.points, 2);
        assert_eq!(s.axis_values(1), [&Value::from(4), &Value::from(5)]);
        assert_eq!(s.seed_of(1), 7);
        let e = study(
            r#","zip":true,"axes":[{"path":"system.width","values":[2,4]},{"path":"system.height","values":[3]}]"#,
        )
        .unwrap_err();
        assert_eq!(e.path, "$.axes[1]");
    }

    #[test]
    fn errors_name_their_path_in_the_study() {
        assert_eq!(study(r#","bogus":1"#).unwrap_err().path, "$.bogus");
        assert_eq!(
            parse_inline(r#"{"version":1,"base":{"version":1,"engine":"nope"}}"#)
                .unwrap_err()
                .path,
            "$.base.engine"
        );
        assert_eq!(
            study(r#","axes":[{"path":"system.depth","values":[1]}]"#)
                .unwrap_err()
                .path,
            "$.axes[0].path"
        );
        assert_eq!(
            study(r#","replicates":{"count":0}"#).unwrap_err().path,
            "$.replicates.count"
        );
        assert_eq!(study(r#","metrics":[]"#).unwrap_err().path, "$.metrics");
    }

    #[test]
    fn canonical_form_reads_back_to_the_same_hash() {
        let s = study(r#","axes":[{"path":"system.width","from":2,"to":8,"step":2}],"replicates":{"count":3}"#)
            .unwrap();
        let again = parse_inline(&s.canonical()).unwrap();
        assert_eq!(s.hash, again.hash);
        assert_eq!(again.replicates.unwrap().base_seed, 7);
        let other = study(r#","replicates":{"count":4}"#).unwrap();
        assert_ne!(s.hash, other.hash);
    }

    #[test]
    fn admission_refuses_over_the_limit_with_the_total() {
        let s = study(r#","replicates":{"count":50}"#).unwrap();
        let e = admit(&s, 10, 0..s.points).unwrap_err();
        assert!(e.message.contains("50 points"), "{}", e.message);
        assert!(admit(&s, 50, 0..s.points).unwrap().invalid.is_empty());
    }

    #[test]
    fn the_run_order_is_every_point_costliest_estimate_first_ties_and_refused_last() {
        let a = Admission {
            points: 6,
            invalid: vec![(2, ScenarioError::at("system", "refused"))],
            seconds: 9.0,
            estimated: vec![(0, 1.0), (1, 3.0), (3, 3.0), (4, 0.5), (5, 2.0)],
        };
        assert_eq!(a.costliest_first(), vec![1, 3, 5, 0, 4, 2]);
        assert_eq!(a.costliest(), Some((1, 3.0)));
        // a real study: a permutation of its points, estimates never rising along it
        let s = study(
            r#","axes":[{"path":"system.width","values":[4,16,8]}],"replicates":{"count":2}"#,
        )
        .unwrap();
        let a = admit(&s, 100, 0..s.points).unwrap();
        let order = a.costliest_first();
        let mut sorted = order.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..s.points).collect::<Vec<_>>());
        let est = |i: u64| a.estimated.iter().find(|e| e.0 == i).unwrap().1;
        assert!(
            order.windows(2).all(|w| est(w[0]) >= est(w[1])),
            "{order:?}"
        );
        assert!(
            est(order[0]) > est(order[5]),
            "the widths' estimates differ"
        );
    }

    #[test]
    fn shards_cover_every_point_once() {
        let mut next = 0;
        for k in 0..7 {
            let r = shard_range(100, k, 7);
            assert_eq!(r.start, next);
            next = r.end;
        }
        assert_eq!(next, 100);
    }
}
