//! The engine registry: the one list of engines the dispatcher knows.
//!
//! Adding an engine: write its module folder with a type implementing [`Engine`], add one line
//! to [`ENGINES`], add its examples to `playground-examples/` and its drawing to
//! `www/engines/`. The parser, dispatcher, wasm boundary, worker protocol, link format and test
//! harness need no change.

use crate::error::Result;
use crate::params::Param;
use crate::progress::Progress;
use crate::scenario::{parse_engine_fields, Envelope, Meta, ReportEnvelope};
use serde::de::DeserializeOwned;
use serde::Serialize;

/// What an engine provides.
pub trait Engine {
    /// Id used in `"engine": ...`.
    const ID: &'static str;
    /// Title shown in the page.
    const TITLE: &'static str;
    /// The engine's typed scenario fields (camelCase, unknown fields denied).
    type Scenario: DeserializeOwned;
    /// The engine's report.
    type Report: Serialize;
    /// Form controls for the page.
    fn params() -> Vec<Param>;
    /// Checks values and size limits; runs before any work starts.
    fn validate(scenario: &Self::Scenario) -> Result<()>;
    /// Runs the scenario. Pure: no I/O, no clock; every random choice from `meta.seed`.
    fn run(scenario: &Self::Scenario, meta: &Meta, progress: &mut dyn Progress) -> Self::Report;
    /// Small scenario texts that together use every option of the engine's `enum` and `multi`
    /// parameters, for several seeds. The native tests pin their reports' fingerprints in
    /// `tests/fixtures/matrix.json`, and the browser tests check that wasm gives the same reports,
    /// so a new engine is compared across targets without any change to the harness.
    fn sample_scenarios() -> Vec<String>;
    /// For views that re-run as the user types (`LIVE`): reduces `report` in place to what the
    /// drawing needs (e.g. a 10,000-point curve thinned to the points a chart can show), so a
    /// keystroke's preview crosses the boundary quickly; the page asks for the complete report
    /// once typing pauses. Returns whether anything was reduced (when not, the preview *is* the
    /// complete report, byte for byte). Default: never reduces.
    fn preview(_report: &mut Self::Report) -> bool {
        false
    }
}

/// An engine, type-erased for the registry.
pub struct EngineEntry {
    pub id: &'static str,
    pub title: &'static str,
    pub params: fn() -> Vec<Param>,
    /// Parses, validates and runs; returns the report JSON.
    pub run: fn(Envelope, &mut dyn Progress) -> Result<String>,
    /// The same, reduced by [`Engine::preview`]; the envelope says `"preview": true` when it was.
    pub run_preview: fn(Envelope, &mut dyn Progress) -> Result<String>,
    /// Parses and validates only.
    pub check: fn(Envelope) -> Result<()>,
    /// [`Engine::sample_scenarios`].
    pub samples: fn() -> Vec<String>,
}

fn run_entry<E: Engine, const PREVIEW: bool>(
    env: Envelope,
    progress: &mut dyn Progress,
) -> Result<String> {
    let scenario: E::Scenario = parse_engine_fields(env.fields, &E::params())?;
    E::validate(&scenario)?;
    let mut report = E::run(&scenario, &env.meta, progress);
    let preview = PREVIEW && E::preview(&mut report);
    let doc = ReportEnvelope {
        version: 1,
        engine: E::ID,
        name: &env.meta.name,
        seed: env.meta.seed,
        preview,
        report: &report,
    };
    Ok(serde_json::to_string(&doc).expect("reports serialize"))
}

fn check_entry<E: Engine>(env: Envelope) -> Result<()> {
    let scenario: E::Scenario = parse_engine_fields(env.fields, &E::params())?;
    E::validate(&scenario)
}

/// Builds the registry entry of an engine.
pub const fn entry<E: Engine>() -> EngineEntry {
    EngineEntry {
        id: E::ID,
        title: E::TITLE,
        params: E::params,
        run: run_entry::<E, false>,
        run_preview: run_entry::<E, true>,
        check: check_entry::<E>,
        samples: E::sample_scenarios,
    }
}

/// Every engine, in the order the page lists them.
pub const ENGINES: &[EngineEntry] = &[
    entry::<crate::alloc::Allocation>(),
    entry::<crate::partition::engine::Partitioning>(),
    entry::<crate::place::Placement>(),
    entry::<crate::select::Selection>(),
    entry::<crate::moldable::Moldable>(),
    entry::<crate::trace::TracePrediction>(),
];

/// Ids of all engines.
pub fn engine_ids() -> Vec<&'static str> {
    ENGINES.iter().map(|e| e.id).collect()
}
