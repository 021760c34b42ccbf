//! The engine registry: the one list of engines the dispatcher knows.
//!
//! Adding an engine: write its module folder with a type implementing [`Engine`] (the trait, in
//! [`crate::engine`]) in its `mod.rs`, add one line
//! to [`ENGINES`], add its examples to `playground-examples/` and its drawing to
//! `www/engines/`. The parser, dispatcher, wasm boundary, worker protocol, link format and test
//! harness need no change.

pub use crate::engine::Engine;
use crate::error::Result;
use crate::params::Param;
use crate::progress::Progress;
use crate::scenario::{parse_engine_fields, Envelope, ReportEnvelope};

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

/// Every engine, in the order the page lists them and the module docs number them (1
/// allocation, 2 partitioning, 3 placement, 4 selection, 5 moldable, 6 trace).
pub const ENGINES: &[EngineEntry] = &[
    entry::<crate::alloc::Allocation>(),
    entry::<crate::partition::Partitioning>(),
    entry::<crate::place::Placement>(),
    entry::<crate::select::Selection>(),
    entry::<crate::moldable::Moldable>(),
    entry::<crate::trace::TracePrediction>(),
];

/// Ids of all engines.
pub fn engine_ids() -> Vec<&'static str> {
    ENGINES.iter().map(|e| e.id).collect()
}
