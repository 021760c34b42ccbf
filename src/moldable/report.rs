//! The moldable report (every figure is defined in `docs/format.md`, "Engine `moldable`").

use super::bound::LowerBound;
use super::model::{Instance, Schedule};
use super::scenario::{Method, MoldableScenario};
use serde::Serialize;

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MoldableReport {
    pub machines: u32,
    pub jobs: u32,
    pub moldable_jobs: u32,
    pub variants: u32,
    /// Where the jobs came from (`jobs`, `torque`, `swf`, `random`, `guillotine`).
    pub source: &'static str,
    /// The speedup model that made SWF jobs moldable, in words; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub speedup: Option<String>,
    pub efficiency: Option<f64>,
    pub lower_bound: LowerBound,
    /// The optimum makespan when known (guillotine sets: the strip height `H`).
    pub optimum: Option<f64>,
    pub methods: Vec<MethodReport>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ga: Option<GaReport>,
    /// Every job with its variants `[ranks, time, weight]` and release.
    pub job_list: Vec<JobRow>,
}

#[derive(Debug, Clone, Serialize)]
pub struct JobRow {
    pub name: String,
    pub release: f64,
    pub variants: Vec<(u32, f64, f64)>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MethodReport {
    pub method: &'static str,
    pub label: &'static str,
    pub makespan: f64,
    /// `makespan / lowerBound.value`.
    pub ratio_to_bound: f64,
    /// `makespan / optimum`, when the optimum is known.
    pub ratio_to_optimum: Option<f64>,
    pub mean_relative_weight: f64,
    /// Busy machine time over `n x makespan`.
    pub utilization: f64,
    /// `"ok"` or the validator's first complaint.
    pub valid: String,
    pub schedule: Vec<PlacementRow>,
}

/// One job of a schedule: `[first, count]` machine runs.
#[derive(Debug, Clone, Serialize)]
pub struct PlacementRow {
    pub job: u32,
    pub variant: u32,
    pub start: f64,
    pub end: f64,
    pub ranks: u32,
    pub machines: Vec<(u32, u32)>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GaReport {
    pub population: u32,
    pub cycles: u32,
    pub crossover: f64,
    pub parts: u32,
    pub decoder: &'static str,
    pub islands: u32,
    pub exchange_every: u32,
    pub evaluations: u64,
    /// `T_FFDH`, `T_BFDH`: the heuristics with their preferred variants.
    pub ffdh: f64,
    pub bfdh: f64,
    /// `T_FFDH_INIT`, `T_BFDH_INIT`: best initial schedules built by FFDH / BFDH.
    pub init_ffdh: f64,
    pub init_bfdh: f64,
    pub init_best: f64,
    /// The source's metrics: `(T_BFDH - T)/T`, `(T_FFDH - T)/T`, `(T_BFDH_INIT - T)/T`,
    /// `(T_FFDH_INIT - T)/T`.
    pub delta1: f64,
    pub delta2: f64,
    pub delta3: f64,
    pub delta4: f64,
    /// Best makespan after each cycle (index 0: the initial population).
    pub curve: Vec<f64>,
}

/// The rows of a schedule, in job order.
pub fn schedule_rows(inst: &Instance, s: &Schedule) -> Vec<PlacementRow> {
    s.placements
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let v = inst.jobs[i].variants[p.variant as usize];
            PlacementRow {
                job: i as u32,
                variant: p.variant,
                start: p.start,
                end: p.start + v.time,
                ranks: v.ranks,
                machines: p.machines.clone(),
            }
        })
        .collect()
}

impl MethodReport {
    pub fn new(inst: &Instance, m: Method, s: &Schedule, lb: &LowerBound) -> Self {
        let makespan = s.makespan(inst);
        let area: f64 = s
            .placements
            .iter()
            .zip(&inst.jobs)
            .map(|(p, j)| j.variants[p.variant as usize].area())
            .sum();
        MethodReport {
            method: m.id(),
            label: m.label(),
            makespan,
            ratio_to_bound: if lb.value > 0.0 {
                makespan / lb.value
            } else {
                1.0
            },
            ratio_to_optimum: inst.optimum.map(|h| makespan / h),
            mean_relative_weight: inst.mean_relative_weight(&s.variants()),
            utilization: if makespan > 0.0 {
                area / (inst.machines as f64 * makespan)
            } else {
                0.0
            },
            valid: match super::validate::validate(inst, s) {
                Ok(()) => "ok".into(),
                Err(e) => e,
            },
            schedule: schedule_rows(inst, s),
        }
    }
}

/// The whole report.
pub fn build(
    inst: &Instance,
    s: &MoldableScenario,
    lower_bound: LowerBound,
    methods: Vec<MethodReport>,
    ga: Option<GaReport>,
) -> MoldableReport {
    let source = if s.jobs.is_some() {
        "jobs"
    } else if s.torque.is_some() {
        "torque"
    } else if s.swf.is_some() {
        "swf"
    } else {
        s.generate.as_ref().map_or("jobs", |g| g.kind.id())
    };
    let speedup = s.swf.as_ref().and_then(|w| w.serial_fraction).map(|f| {
        format!(
            "Amdahl's law with serial fraction {f}: variants at 1/4, 1/2, 1 and 2 times the requested processors, times T1 (s + (1 - s)/r) rounded up, weight the parallel efficiency"
        )
    });
    MoldableReport {
        machines: inst.machines,
        jobs: inst.jobs.len() as u32,
        moldable_jobs: inst.jobs.iter().filter(|j| j.variants.len() > 1).count() as u32,
        variants: inst.jobs.iter().map(|j| j.variants.len() as u32).sum(),
        source,
        speedup,
        efficiency: inst.efficiency,
        lower_bound,
        optimum: inst.optimum,
        methods,
        ga,
        job_list: inst
            .jobs
            .iter()
            .map(|j| JobRow {
                name: j.name.clone(),
                release: j.release,
                variants: j
                    .variants
                    .iter()
                    .map(|v| (v.ranks, v.time, v.weight))
                    .collect(),
            })
            .collect(),
    }
}
