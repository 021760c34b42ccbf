//! What an engine provides: the [`Engine`] trait. Each engine implements it in its module's
//! `mod.rs`; the registry ([`crate::engines`]) lists the engines and runs them through it.

use crate::error::Result;
use crate::params::Param;
use crate::progress::Progress;
use crate::scenario::Meta;
use crate::split::Split;
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
    /// A run of this admitted scenario split across several workers ([`crate::split`]: its
    /// parts, and the coordinator that merges their answers into the report [`Engine::run`]
    /// gives), or `None` when one worker runs it whole. Default: `None` (the engine does not
    /// split).
    ///
    /// # Errors
    /// What [`Engine::run`] would refuse for this seed.
    #[allow(clippy::type_complexity)]
    fn split(
        _scenario: Self::Scenario,
        _meta: &Meta,
    ) -> Result<Option<Box<dyn Split<Report = Self::Report>>>> {
        Ok(None)
    }
}
