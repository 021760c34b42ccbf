//! The dispatcher: scenario text in, report JSON out. The CLI and the wasm boundary both call
//! these functions and nothing else, so one scenario gives byte-identical reports in both.

use crate::engines::{engine_ids, Prepared, ENGINES};
use crate::error::Result;
use crate::progress::Progress;
use crate::scenario::parse_envelope;
use crate::split::{Part, Plan, Split};
use crate::ScenarioError;
use serde::Serialize;

/// Runs a scenario and returns the report as compact JSON.
///
/// # Errors
/// Malformed JSON, unknown fields, wrong types, impossible values and sizes over the limits, each
/// as a [`crate::ScenarioError`] naming the JSON path.
pub fn run(text: &str, progress: &mut dyn Progress) -> Result<String> {
    let env = parse_envelope(text, &engine_ids())?;
    let entry = ENGINES
        .iter()
        .find(|e| e.id == env.meta.engine)
        .expect("engine checked by parser");
    (entry.run)(env, progress)
}

/// Runs a scenario and returns the parts of its report document that `want` keeps, as
/// [`run`]'s text would give them read back ([`crate::study::capture`]), the report never
/// written: a study point's run.
///
/// # Errors
/// Those of [`run`].
pub fn run_captured(
    text: &str,
    progress: &mut dyn Progress,
    want: &crate::study::metrics::Want,
) -> Result<serde_json::Value> {
    let env = parse_envelope(text, &engine_ids())?;
    let seed = env.meta.seed;
    Ok(prepare_envelope(env)?.run_captured(seed, progress, want))
}

/// Parses and validates a scenario once for runs under any seed ([`Prepared`]): a study's
/// replicates of one combination share it.
///
/// # Errors
/// Those of [`check`].
pub fn prepare(text: &str) -> Result<Box<dyn Prepared>> {
    prepare_envelope(parse_envelope(text, &engine_ids())?)
}

fn prepare_envelope(env: crate::scenario::Envelope) -> Result<Box<dyn Prepared>> {
    let entry = ENGINES
        .iter()
        .find(|e| e.id == env.meta.engine)
        .expect("engine checked by parser");
    (entry.prepare)(env)
}

/// Runs a scenario for a live preview: [`run`], then the engine's [`crate::engines::Engine::preview`]
/// reduction. When the engine reduced nothing the text equals [`run`]'s byte for byte; otherwise
/// the envelope carries `"preview": true`.
pub fn run_preview(text: &str, progress: &mut dyn Progress) -> Result<String> {
    let env = parse_envelope(text, &engine_ids())?;
    let entry = ENGINES
        .iter()
        .find(|e| e.id == env.meta.engine)
        .expect("engine checked by parser");
    (entry.run_preview)(env, progress)
}

/// How a scenario runs on a host with `threads` hardware threads ([`crate::split`]): on one
/// worker ([`run`]) unless its engine splits it ([`crate::engines::Engine::split`]).
///
/// # Errors
/// Those of [`run`] (the scenario is parsed and admitted as [`run`] does).
pub fn plan(text: &str, threads: u32) -> Result<Plan> {
    Ok(match split(text)? {
        Some(s) => Plan::deal(s.parts(), s.workers(), threads, s.ticks()),
        None => Plan::one(),
    })
}

/// A scenario's run split across workers ([`crate::split`]), `None` when one worker runs it
/// whole: the coordinator (where the run's progress goes) and, in each worker, the parts
/// ([`Split::part`]). Its report is byte for byte [`run`]'s.
///
/// # Errors
/// Those of [`run`].
pub fn split(text: &str) -> Result<Option<Box<dyn Split<Report = String>>>> {
    let env = parse_envelope(text, &engine_ids())?;
    let entry = ENGINES
        .iter()
        .find(|e| e.id == env.meta.engine)
        .expect("engine checked by parser");
    (entry.split)(env)
}

/// Part `index` of a split run of `text`, for a worker to host.
///
/// # Errors
/// Those of [`run`]; a scenario that does not split, or no such part, at `$`.
pub fn part(text: &str, index: u32) -> Result<Box<dyn Part>> {
    split(text)?
        .ok_or_else(|| ScenarioError::at("", "this scenario runs on one worker, in no parts"))?
        .part(index)
}

/// Parses and validates a scenario without running it.
pub fn check(text: &str) -> Result<()> {
    let env = parse_envelope(text, &engine_ids())?;
    let entry = ENGINES
        .iter()
        .find(|e| e.id == env.meta.engine)
        .expect("engine checked by parser");
    (entry.check)(env)
}

/// What running a scenario would cost, estimated without running it
/// ([`crate::engine::Estimate`]: work units, their calibrated native nanoseconds, peak bytes),
/// for a scenario admission accepts or refuses alike. Cheap and pure: it parses the scenario
/// and builds what admission builds (a trace's program, a moldable job set), nothing more, so
/// a study may sum it over its points.
///
/// # Errors
/// Malformed JSON, unknown fields, wrong types and impossible values, as [`check`]; never the
/// estimate itself (compare it with [`crate::engine::MAX_SECONDS`] and
/// [`crate::engine::MAX_BYTES`]).
pub fn estimate(text: &str) -> Result<crate::engine::Estimate> {
    let env = parse_envelope(text, &engine_ids())?;
    let entry = ENGINES
        .iter()
        .find(|e| e.id == env.meta.engine)
        .expect("engine checked by parser");
    (entry.estimate)(env)
}

#[derive(Serialize)]
struct EngineInfo {
    id: &'static str,
    title: &'static str,
    params: Vec<crate::params::Param>,
}

/// Every engine with its form controls (its field table less the rules on list items), as JSON
/// for the page.
pub fn engines_json() -> String {
    let list: Vec<EngineInfo> = ENGINES
        .iter()
        .map(|e| EngineInfo {
            id: e.id,
            title: e.title,
            // the form's controls: rules on list items have none
            params: (e.params)().into_iter().filter(|p| p.form).collect(),
        })
        .collect();
    serde_json::to_string(&list).expect("engine table serializes")
}

/// The sample scenarios of every engine ([`crate::engines::Engine::sample_scenarios`]), in
/// registry order: the cross-target matrix of `tests/matrix.rs` and the browser tests.
pub fn sample_scenarios() -> Vec<String> {
    ENGINES.iter().flat_map(|e| (e.samples)()).collect()
}

/// The bytes of a report file: the report JSON followed by exactly one `\n`. `placelab run`
/// prints exactly this, and the page's export saves exactly this, so both files have the same
/// checksum.
pub fn report_file(report: &str) -> String {
    format!("{report}\n")
}

/// FNV-1a (64-bit) of the report bytes and their length, as `"hhhhhhhhhhhhhhhh LEN"`: the
/// fingerprint that `tests/golden/` pins and that the browser tests compare against.
pub fn fingerprint(report: &str) -> String {
    let mut h = crate::formats::digest::Fnv64::default();
    h.update(report.as_bytes());
    h.fingerprint()
}

/// The crate version.
pub fn version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}
