//! Running a scenario's methods on its instance: the shelf packers, then the GA run here
//! ([`run()`]) or its outcome merged from islands run elsewhere ([`super::parallel`]), all
//! assembled into one report ([`assemble`]).

use super::model::{Instance, Schedule};
use super::report::{self, GaReport, MethodReport, MoldableReport};
use super::scenario::{Method, MoldableScenario};
use super::shelf::{self, Packer};
use super::{bound, ga};
use crate::progress::Progress;

/// Every this many cycles (at least) the GA's state is offered to [`Progress::partial`]:
/// about 50 live updates per run.
pub fn partial_every(cycles: u32) -> u32 {
    (cycles / 50).max(1)
}

/// The GA's parameters of a scenario.
pub fn ga_params(s: &MoldableScenario) -> ga::GaParams {
    ga::GaParams::of(&s.ga)
}

/// Runs the methods of a scenario on its instance (the GA's islands one after another).
pub fn run(
    inst: &Instance,
    s: &MoldableScenario,
    seed: u64,
    progress: &mut dyn Progress,
) -> MoldableReport {
    let params = ga_params(s);
    assemble(inst, s, progress, &mut |progress, lb, total| {
        let every = partial_every(s.ga.cycles);
        let mut curve_so_far: Vec<f64> = Vec::new();
        ga::run(inst, params, seed, &mut |v, best| {
            curve_so_far.push(best.makespan);
            progress.tick(3 + v as u64, total);
            if progress.wants_partial() && v % every == 0 && v < s.ga.cycles {
                let doc = partial_doc(inst, s, lb, v, best, &curve_so_far);
                progress.partial(&doc);
            }
        })
    })
}

/// The partial result the page draws while the GA runs: the best schedule after cycle `v` and
/// the curve so far.
pub fn partial_doc(
    inst: &Instance,
    s: &MoldableScenario,
    lower_bound: f64,
    v: u32,
    best: &ga::Individual,
    curve: &[f64],
) -> serde_json::Value {
    let sched = ga::decode_schedule(inst, best, s.ga.decoder);
    let rows = report::schedule_rows(inst, &sched);
    serde_json::json!({
        "engine": "moldable", "method": "ga", "cycle": v, "cycles": s.ga.cycles,
        "machines": inst.machines, "lowerBound": lower_bound,
        "makespan": best.makespan, "curve": curve, "schedule": rows,
    })
}

/// The report of a scenario whose GA outcome comes from `ga(progress, lower bound, total
/// ticks)` (run here, or merged from islands run elsewhere: [`super::parallel`]).
pub fn assemble(
    inst: &Instance,
    s: &MoldableScenario,
    progress: &mut dyn Progress,
    ga: &mut dyn FnMut(&mut dyn Progress, f64, u64) -> ga::GaOutcome,
) -> MoldableReport {
    let ga_units = if s.methods.contains(&Method::Ga) {
        s.ga.cycles as u64 + 1
    } else {
        0
    };
    let total = 3 + ga_units;
    let lb = bound::lower_bound(inst);
    let pref = inst.preferred_variants();
    let ffdh = shelf::pack(inst, &pref, Packer::Ffdh);
    let bfdh = shelf::pack(inst, &pref, Packer::Bfdh);
    progress.tick(2, total);
    let mut methods = Vec::new();
    let mut ga_report = None;
    for &m in &s.methods {
        let schedule: Schedule = match m {
            Method::Nfdh => shelf::pack(inst, &pref, Packer::Nfdh),
            Method::Ffdh => ffdh.clone(),
            Method::Bfdh => bfdh.clone(),
            Method::Ga => {
                progress.phase("ga");
                let params = ga_params(s);
                let out = ga(progress, lb.value, total);
                let t = out.best.makespan;
                let t_ff = ffdh.makespan(inst);
                let t_bf = bfdh.makespan(inst);
                ga_report = Some(GaReport {
                    population: params.population,
                    cycles: params.cycles,
                    crossover: params.crossover,
                    parts: params.parts,
                    decoder: params.decoder.id(),
                    islands: params.islands,
                    exchange_every: params.exchange_every,
                    evaluations: out.evaluations,
                    ffdh: t_ff,
                    bfdh: t_bf,
                    init_ffdh: out.init_ffdh,
                    init_bfdh: out.init_bfdh,
                    init_best: out.init_best,
                    delta1: (t_bf - t) / t,
                    delta2: (t_ff - t) / t,
                    delta3: (out.init_bfdh - t) / t,
                    delta4: (out.init_ffdh - t) / t,
                    curve: out.curve,
                });
                out.schedule
            }
        };
        methods.push(MethodReport::new(inst, m, &schedule, &lb));
    }
    progress.tick(total, total);
    progress.phase("end");
    report::build(inst, s, lb, methods, ga_report)
}
