//! The engine registry: the one list of engines the dispatcher knows.
//!
//! Adding an engine: write its module folder with a type implementing [`Engine`] (the trait, in
//! [`crate::engine`]) in its `mod.rs`, add one line
//! to [`ENGINES`], add its examples to `playground-examples/` and its drawing to
//! `www/engines/`. The parser, dispatcher, wasm boundary, worker protocol, link format and test
//! harness need no change. An engine whose scenarios may run on several workers at once says so
//! in [`Engine::split`]; the page's pool asks every scenario for its plan ([`crate::api::plan`]).

pub use crate::engine::Engine;
use crate::error::Result;
use crate::params::Param;
use crate::progress::Progress;
use crate::scenario::{parse_engine_fields, parse_envelope, Envelope, Meta, ReportEnvelope};
use crate::split::{Part, Round, Split};

/// An engine, type-erased for the registry.
pub struct EngineEntry {
    pub id: &'static str,
    pub title: &'static str,
    pub params: fn() -> Vec<Param>,
    /// Parses, validates and runs; returns the report JSON.
    pub run: fn(Envelope, &mut dyn Progress) -> Result<String>,
    /// Parses and validates, once, for runs that differ only in their seed ([`Prepared`]).
    pub prepare: fn(Envelope) -> Result<Box<dyn Prepared>>,
    /// The same, reduced by [`Engine::preview`]; the envelope says `"preview": true` when it was.
    pub run_preview: fn(Envelope, &mut dyn Progress) -> Result<String>,
    /// Parses and validates only.
    pub check: fn(Envelope) -> Result<()>,
    /// Parses, then [`Engine::estimate`] (the estimate of a scenario admission may refuse).
    pub estimate: fn(Envelope) -> Result<crate::engine::Estimate>,
    /// [`Engine::sample_scenarios`].
    pub samples: fn() -> Vec<String>,
    /// Parses and validates, then [`Engine::split`], its report the JSON [`EngineEntry::run`]
    /// returns.
    pub split: fn(Envelope) -> Result<Option<Box<dyn Split<Report = String>>>>,
}

/// The engine's typed fields of an envelope, parsed and validated: what every entry runs on.
fn admit<E: Engine>(env: Envelope) -> Result<(Meta, E::Scenario)> {
    let scenario: E::Scenario = parse_engine_fields(env.fields, &E::params())?;
    E::validate(&scenario)?;
    Ok((env.meta, scenario))
}

/// Scenario text of engine `E` parsed and validated as the dispatcher does (an other engine's
/// scenario is refused at `$.engine`), for code that needs the typed scenario itself (benchmarks,
/// tests).
///
/// # Errors
/// Every error of the scenario, at its path.
pub fn admit_text<E: Engine>(text: &str) -> Result<(Meta, E::Scenario)> {
    let env = parse_envelope(text, &engine_ids())?;
    if env.meta.engine != E::ID {
        return Err(crate::error::ScenarioError::at(
            "engine",
            format!("expected a {:?} scenario, got {:?}", E::ID, env.meta.engine),
        ));
    }
    admit::<E>(env)
}

/// The report document: the envelope around the engine's report.
fn report_doc<'a, E: Engine>(
    meta: &'a Meta,
    report: &'a E::Report,
    preview: bool,
) -> ReportEnvelope<'a, E::Report> {
    ReportEnvelope {
        version: 1,
        engine: E::ID,
        name: &meta.name,
        seed: meta.seed,
        preview,
        report,
    }
}

/// The report JSON.
fn report_json<E: Engine>(meta: &Meta, report: &E::Report, preview: bool) -> String {
    serde_json::to_string(&report_doc::<E>(meta, report, preview)).expect("reports serialize")
}

/// A scenario parsed and validated once, to be run under any seed: a study's replicates differ
/// only in their seed, which no engine's parsing or validation reads (it is the run's, in
/// [`Meta`], not a field), so a run of a prepared scenario under seed `s` is the run of its
/// text with `"seed": s`, report for report.
pub trait Prepared {
    /// Runs under `seed`; returns the parts of the report document a study's metrics read
    /// ([`crate::study::capture`]), the report never written as text.
    fn run_captured(
        &self,
        seed: u64,
        progress: &mut dyn Progress,
        want: &crate::study::metrics::Want,
    ) -> serde_json::Value;
}

struct PreparedOf<E: Engine> {
    meta: Meta,
    scenario: E::Scenario,
}

impl<E: Engine> Prepared for PreparedOf<E> {
    fn run_captured(
        &self,
        seed: u64,
        progress: &mut dyn Progress,
        want: &crate::study::metrics::Want,
    ) -> serde_json::Value {
        let meta = Meta {
            seed,
            ..self.meta.clone()
        };
        let report = E::run(&self.scenario, &meta, progress);
        crate::study::capture::capture(&report_doc::<E>(&meta, &report, false), want)
            .expect("reports serialize")
    }
}

fn prepare_entry<E: Engine + 'static>(env: Envelope) -> Result<Box<dyn Prepared>> {
    let (meta, scenario) = admit::<E>(env)?;
    Ok(Box::new(PreparedOf::<E> { meta, scenario }))
}

fn run_entry<E: Engine, const PREVIEW: bool>(
    env: Envelope,
    progress: &mut dyn Progress,
) -> Result<String> {
    let (meta, scenario) = admit::<E>(env)?;
    let mut report = E::run(&scenario, &meta, progress);
    let preview = PREVIEW && E::preview(&mut report);
    Ok(report_json::<E>(&meta, &report, preview))
}

fn check_entry<E: Engine>(env: Envelope) -> Result<()> {
    admit::<E>(env).map(|_| ())
}

fn estimate_entry<E: Engine>(env: Envelope) -> Result<crate::engine::Estimate> {
    let scenario: E::Scenario = parse_engine_fields(env.fields, &E::params())?;
    E::estimate(&scenario)
}

/// A split run whose report is the JSON of [`EngineEntry::run`].
struct Enveloped<E: Engine> {
    meta: Meta,
    inner: Box<dyn Split<Report = E::Report>>,
}

impl<E: Engine> Split for Enveloped<E> {
    type Report = String;
    fn parts(&self) -> u32 {
        self.inner.parts()
    }
    fn workers(&self) -> u32 {
        self.inner.workers()
    }
    fn ticks(&self) -> u64 {
        self.inner.ticks()
    }
    fn part(&self, index: u32) -> Result<Box<dyn Part>> {
        self.inner.part(index)
    }
    fn next(&mut self, answers: &[Vec<u32>], progress: &mut dyn Progress) -> Result<Round<String>> {
        Ok(match self.inner.next(answers, progress)? {
            Round::Mail(mail) => Round::Mail(mail),
            Round::Done(report) => Round::Done(report_json::<E>(&self.meta, &report, false)),
        })
    }
}

#[allow(clippy::type_complexity)]
fn split_entry<E: Engine + 'static>(
    env: Envelope,
) -> Result<Option<Box<dyn Split<Report = String>>>> {
    let (meta, scenario) = admit::<E>(env)?;
    Ok(E::split(scenario, &meta)?
        .map(|inner| Box::new(Enveloped::<E> { meta, inner }) as Box<dyn Split<Report = String>>))
}

/// Builds the registry entry of an engine.
pub const fn entry<E: Engine + 'static>() -> EngineEntry {
    EngineEntry {
        id: E::ID,
        title: E::TITLE,
        params: E::params,
        run: run_entry::<E, false>,
        prepare: prepare_entry::<E>,
        run_preview: run_entry::<E, true>,
        check: check_entry::<E>,
        estimate: estimate_entry::<E>,
        samples: E::sample_scenarios,
        split: split_entry::<E>,
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
