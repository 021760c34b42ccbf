//! What an engine provides: the [`Engine`] trait. Each engine implements it in its module's
//! `mod.rs`; the registry ([`crate::engines`]) lists the engines and runs them through it.

use crate::error::{compact_number, Result, ScenarioError};
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
    /// Checks values and size limits; runs before any work starts. Admission: the scenario's
    /// [`Engine::estimate`] within the one budget ([`Estimate::admit`]).
    fn validate(scenario: &Self::Scenario) -> Result<()>;
    /// What running the scenario costs, estimated from its fields without running it: the work
    /// its run does in the engine's calibrated units, and the bytes it holds at its peak
    /// ([`Estimate`]). Pure and cheap next to the run (at most the parsing and building that
    /// [`Engine::validate`] does anyway).
    ///
    /// # Errors
    /// A scenario [`Engine::validate`] refuses for its values (not for its estimate).
    fn estimate(scenario: &Self::Scenario) -> Result<Estimate>;
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

/// The one admission budget: an admitted scenario's estimated native run time.
///
/// Goal: every admitted scenario runs in under 10 s natively, so in under 30 s in the page
/// ([`PAGE_SLOWDOWN`]), and holds under [`MAX_BYTES`]. `cargo bench --bench bounds` times the
/// worst admitted scenario of each engine against its estimate (`docs/benchmarks.md`, "Bounds").
pub const MAX_SECONDS: f64 = 10.0;
/// The one memory budget: an admitted scenario's estimated peak, bytes (768 MiB: a tab's share
/// of a 2 GiB wasm32 memory with room for the report's text).
pub const MAX_BYTES: f64 = 768.0 * 1024.0 * 1024.0;
/// How much slower the page (wasm in a Web Worker) runs an engine than the native CLI, at most:
/// the e2e benchmarks measure 1.3 to 2.6 times (`docs/benchmarks.md`).
pub const PAGE_SLOWDOWN: f64 = 3.0;

/// What a run costs, estimated before it starts ([`Engine::estimate`]).
///
/// `work` is counted in the engine's own unit (a replay step, a route step, a shelf-packing
/// step, ...) and `ns_per_unit` is that unit's cost measured on this project's 2-core machine
/// by `cargo bench --bench bounds` (each engine states its constant beside the benchmark that
/// measured it), so `work x ns_per_unit` is the estimated native run time. Estimates of the
/// parts of one scenario add up ([`Estimate::plus`]): their seconds and bytes add, and
/// `ns_per_unit` becomes the mean of the parts' weighted by their work. Plain numbers, so a
/// study can sum the estimates of its points.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Estimate {
    /// Work units the run does (an upper bound, in the engine's unit).
    pub work: f64,
    /// Calibrated native nanoseconds per work unit.
    pub ns_per_unit: f64,
    /// Peak memory, bytes.
    pub bytes: f64,
}

impl Estimate {
    /// `work` units of `ns_per_unit` each, holding `bytes` at the peak.
    pub fn new(work: f64, ns_per_unit: f64, bytes: f64) -> Estimate {
        Estimate {
            work,
            ns_per_unit,
            bytes,
        }
    }

    /// Nothing: the neutral part of a sum.
    pub fn zero() -> Estimate {
        Estimate::new(0.0, 0.0, 0.0)
    }

    /// Estimated native run time, seconds.
    pub fn seconds(&self) -> f64 {
        self.work * self.ns_per_unit * 1e-9
    }

    /// Estimated peak memory, MiB.
    pub fn mib(&self) -> f64 {
        self.bytes / 1048576.0
    }

    /// Two parts of one run, one after the other: work, time and bytes add (bytes too, as an
    /// upper bound: a part may keep what it built until the report).
    pub fn plus(self, other: Estimate) -> Estimate {
        let work = self.work + other.work;
        let nanos = self.work * self.ns_per_unit + other.work * other.ns_per_unit;
        Estimate {
            work,
            ns_per_unit: if work > 0.0 { nanos / work } else { 0.0 },
            bytes: self.bytes + other.bytes,
        }
    }

    /// Refuses, at `path`, an estimate over the budget ([`MAX_SECONDS`], [`MAX_BYTES`]):
    /// "refused before running: estimated 41 s natively (3e10 route steps of 1.4 ns); the
    /// limit is 10 s: HINT". `unit` names the work unit (plural), `what` what the work is made
    /// of (may be empty).
    ///
    /// # Errors
    /// The refusal, when over a limit.
    pub fn admit(&self, path: &str, unit: &str, what: &str, hint: &str) -> Result<()> {
        self.admit_within(MAX_SECONDS, path, unit, what, hint)
    }

    /// [`Estimate::admit`] under a limit of `limit` seconds instead of [`MAX_SECONDS`] (an
    /// engine whose scenario states its own limit).
    ///
    /// # Errors
    /// The refusal, when over a limit.
    pub fn admit_within(
        &self,
        limit: f64,
        path: &str,
        unit: &str,
        what: &str,
        hint: &str,
    ) -> Result<()> {
        let of = if what.is_empty() {
            String::new()
        } else {
            format!("; {what}")
        };
        if !(self.seconds() <= limit) {
            return Err(ScenarioError::at(
                path,
                format!(
                    "refused before running: estimated {} s natively ({} {unit} of {} ns{of}); the limit is {} s: {hint}",
                    seconds_words(self.seconds()),
                    sig3(self.work),
                    sig3(self.ns_per_unit),
                    compact_number(limit)
                ),
            ));
        }
        if !(self.bytes <= MAX_BYTES) {
            return Err(ScenarioError::at(
                path,
                format!(
                    "refused before running: estimated {:.0} MiB of memory{of}; the limit is {:.0} MiB: {hint}",
                    self.mib(),
                    MAX_BYTES / 1048576.0
                ),
            ));
        }
        Ok(())
    }
}

/// `x` with 3 significant digits for messages, without trailing zeros or binary noise:
/// `0.7`, `3.82`, `4.58e9`, `1.4e11`.
fn sig3(x: f64) -> String {
    if !x.is_finite() {
        return x.to_string();
    }
    let trim = |t: String| {
        if t.contains('.') {
            t.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            t
        }
    };
    if x != 0.0 && !(1e-3..1e4).contains(&x.abs()) {
        let t = format!("{x:.2e}");
        let (m, e) = t.split_once('e').unwrap_or((&t, "0"));
        format!("{}e{e}", trim(m.to_string()))
    } else {
        let digits = if x.abs() >= 100.0 {
            0
        } else if x.abs() >= 10.0 {
            1
        } else {
            2
        };
        trim(format!("{x:.digits$}"))
    }
}

/// Seconds for a message: `0.12`, `4.5`, `41`, `3.2e5`.
pub fn seconds_words(s: f64) -> String {
    if !s.is_finite() || s >= 1e4 {
        sig3(s)
    } else if s >= 10.0 {
        format!("{s:.0}")
    } else if s >= 1.0 {
        format!("{s:.1}")
    } else {
        format!("{s:.2}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn message_numbers_have_three_digits_and_no_binary_noise() {
        assert_eq!(sig3(0.7000000000000001), "0.7");
        assert_eq!(sig3(3.8200000000000003), "3.82");
        assert_eq!(sig3(2.0), "2");
        assert_eq!(sig3(4.58e9), "4.58e9");
        assert_eq!(sig3(1.4e11), "1.4e11");
        assert_eq!(sig3(4918163.0), "4.92e6");
        assert_eq!(seconds_words(98.2), "98");
        assert_eq!(seconds_words(3.2e5), "3.2e5");
    }

    #[test]
    fn parts_add_their_seconds_and_bytes() {
        let a = Estimate::new(1e9, 2.0, 10.0);
        let b = Estimate::new(3e9, 1.0, 5.0);
        let c = a.plus(b);
        assert_eq!(c.work, 4e9);
        assert!((c.seconds() - 5.0).abs() < 1e-12);
        assert_eq!(c.bytes, 15.0);
        assert!(c.admit("x", "steps", "", "").is_ok());
        let e = Estimate::new(6e9, 2.0, 0.0)
            .admit("workload", "steps", "per policy", "use less")
            .unwrap_err();
        assert_eq!(e.path, "$.workload");
        assert_eq!(
            e.message,
            "refused before running: estimated 12 s natively (6e9 steps of 2 ns; per policy); the limit is 10 s: use less"
        );
        let e = Estimate::new(1.0, 1.0, 2.0 * MAX_BYTES)
            .admit("", "steps", "", "smaller")
            .unwrap_err();
        assert!(
            e.message.contains("MiB of memory; the limit is 768 MiB"),
            "{e}"
        );
    }
}
