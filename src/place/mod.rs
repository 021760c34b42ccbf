//! Engine 3, placement (Zhdanov & Korkhov): a job's task graph placed on a torus, a
//! mesh or a fat/thin tree by five strategies side by side, each evaluated by static metrics
//! and the flow-level network simulator ([`crate::netsim`]), and the ratio of each strategy's
//! time to Advanced's shown beside the source's tables.
//!
//! Pipeline: [`scenario`] (fields, limits, admission) → [`jobs`] (task graphs) →
//! [`strategy`] (one file per strategy) → [`run`] (background jobs of experiment 2, metrics,
//! simulation) → [`report`]. [`samples`] is the cross-target sample matrix.

pub mod jobs;
pub mod report;
pub mod run;
pub mod samples;
pub mod scenario;
pub mod strategy;

use crate::engine::Engine;
use crate::error::Result;
use crate::params::Param;
use crate::progress::Progress;
use crate::scenario::Meta;
use report::{PlaceReport, REPORT_BYTE_CAP};
use scenario::PlaceScenario;

/// The placement engine.
pub struct Placement;

impl Engine for Placement {
    const ID: &'static str = "place";
    const TITLE: &'static str = "Placement: task graphs on tori and trees";
    type Scenario = PlaceScenario;
    type Report = PlaceReport;

    fn params() -> Vec<Param> {
        scenario::params()
    }

    fn validate(s: &PlaceScenario) -> Result<()> {
        scenario::validate(s)
    }

    fn estimate(s: &PlaceScenario) -> Result<crate::engine::Estimate> {
        scenario::engine_estimate(s)
    }

    fn run(s: &PlaceScenario, meta: &Meta, progress: &mut dyn Progress) -> PlaceReport {
        run::run(s, meta.seed, progress, meta.report_budget(REPORT_BYTE_CAP))
    }

    fn sample_scenarios() -> Vec<String> {
        samples::sample_scenarios()
    }
}
