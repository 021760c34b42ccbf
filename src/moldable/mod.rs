//! Engine 5, moldable: schedules a set of rigid and moldable jobs on `n` machines (Peryshkova),
//! minimizing the makespan.
//!
//! Pipeline: [`scenario`] (fields, limits, admission; jobs from a list, [`torque`] requests,
//! SWF logs or [`generate`]/[`guillotine`] sets) → [`model`] →
//! - [`shelf`]: NFDH, FFDH and BFDH strip packing;
//! - [`ga`]: the genetic algorithm (shelf decoder, or [`list`] scheduling with backfilling);
//!
//! every schedule checked by [`validate`] and compared with the [`bound`] → [`report`];
//! [`mod@run`] runs the methods (the GA here, or its islands on several workers: [`parallel`]).
//! [`samples`] is the cross-target sample matrix.

pub mod bound;
pub mod ga;
pub mod generate;
pub mod guillotine;
pub mod limits;
pub mod list;
pub mod model;
pub mod parallel;
pub mod report;
pub mod run;
pub mod samples;
pub mod scenario;
pub mod shelf;
pub mod torque;
pub mod validate;

use crate::engine::Engine;
use crate::error::Result;
use crate::params::Param;
use crate::progress::Progress;
use crate::scenario::Meta;
use report::MoldableReport;
pub use run::{assemble, ga_params, partial_doc, partial_every, run};
use scenario::MoldableScenario;

/// The moldable scheduling engine.
pub struct Moldable;

impl Engine for Moldable {
    const ID: &'static str = "moldable";
    const TITLE: &'static str = "Moldable job sets: strip packing and a genetic algorithm";
    type Scenario = MoldableScenario;
    type Report = MoldableReport;

    fn params() -> Vec<Param> {
        scenario::params()
    }

    fn validate(s: &MoldableScenario) -> Result<()> {
        scenario::validate(s)
    }

    fn estimate(s: &MoldableScenario) -> Result<crate::engine::Estimate> {
        let inst = scenario::instance(s, 0)?;
        Ok(scenario::estimate(&inst, s))
    }

    fn run(s: &MoldableScenario, meta: &Meta, progress: &mut dyn Progress) -> MoldableReport {
        // validated (admission on the set of seed 0): build the set of this seed without it
        let inst = scenario::instance(s, meta.seed).expect("validated scenario");
        run(&inst, s, meta.seed, progress)
    }

    fn sample_scenarios() -> Vec<String> {
        samples::sample_scenarios()
    }

    /// The GA's islands in several workers when the scenario asks for them: [`parallel`].
    fn split(
        s: MoldableScenario,
        meta: &Meta,
    ) -> Result<Option<Box<dyn crate::split::Split<Report = MoldableReport>>>> {
        parallel::split(s, meta)
    }
}
