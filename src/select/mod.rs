//! Engine 4, selection: which machines should one job get.
//!
//! Pipeline: [`scenario`] (fields, limits, form; formulas in the [`expr`] language) →
//! - [`qiju`]: workstation selection (Qi & Ju): `T(P)` over the least-loaded prefixes, with
//!   speeds and load ranges;
//! - [`subsystem`]: M of N machines minimizing the product of pairwise distances or maximizing
//!   the product of bandwidths (branch and bound, heuristic);
//! - [`layouts`]: multi-core layouts for an all-to-all, estimated step by step with contention;
//! - [`reservation`]: the reservation protocol, simulated in logical time;
//! - [`preview`]: the T(P) curve thinned for drawing while the user types;
//!
//! → [`report`]. [`samples`] is the cross-target sample matrix.

pub mod expr;
pub mod layouts;
pub mod preview;
pub mod qiju;
pub mod report;
pub mod reservation;
pub mod samples;
pub mod scenario;
pub mod subsystem;

use crate::engine::Engine;
use crate::error::Result;
use crate::params::Param;
use crate::progress::Progress;
use crate::scenario::Meta;
use report::{
    Formulas, LayoutsReport, RankReport, SelectReport, SubsystemReport, WorkstationReport,
};
use scenario::{LayoutsSpec, SelectScenario, SubsystemSpec};

/// The selection engine.
pub struct Selection;

impl Engine for Selection {
    const ID: &'static str = "select";
    const TITLE: &'static str = "Selection: which machines should one job get";
    type Scenario = SelectScenario;
    type Report = SelectReport;

    fn params() -> Vec<Param> {
        scenario::params()
    }

    fn validate(s: &SelectScenario) -> Result<()> {
        scenario::validate(s)
    }

    fn estimate(s: &SelectScenario) -> Result<crate::engine::Estimate> {
        scenario::validate_fields(s)?;
        Ok(scenario::estimate(s))
    }

    fn run(s: &SelectScenario, meta: &Meta, progress: &mut dyn Progress) -> SelectReport {
        run(s, meta.seed, progress)
    }

    fn sample_scenarios() -> Vec<String> {
        samples::sample_scenarios()
    }

    /// Thins the T(P) curve and the station rows of large workstation sets ([`preview`]).
    fn preview(r: &mut SelectReport) -> bool {
        r.workstations.as_mut().is_some_and(preview::reduce)
    }
}

/// Progress units of each part: `(workstations, subsystem, layouts)`; the reservation
/// simulation, last, takes [`RESERVATION_UNITS`].
fn phases(s: &SelectScenario) -> (u64, u64, u64) {
    let q = s.stations.len() as u64;
    let ws = if q == 0 { 0 } else { q + 1 };
    let a = s.alltoall.as_ref();
    let sub = if a.and_then(|a| a.subsystem.as_ref()).is_some() {
        1000
    } else {
        0
    };
    let lay = a
        .and_then(|a| a.layouts.as_ref())
        .map_or(0, |l| l.ranks.len() as u64);
    (ws, sub, lay)
}

/// Runs every part the validated scenario asks for. Only the reservation simulation draws
/// from the seed; the other parts are deterministic.
pub fn run(s: &SelectScenario, seed: u64, progress: &mut dyn Progress) -> SelectReport {
    let (ws_units, sub_units, lay_units) = phases(s);
    let res_units = if s.reservation.is_some() {
        RESERVATION_UNITS
    } else {
        0
    };
    let total = (ws_units + sub_units + lay_units + res_units).max(1);
    let mut done = 0u64;
    let workstations = if s.stations.is_empty() {
        None
    } else {
        let r = workstations(s, &mut |d| progress.tick(d.min(ws_units), total));
        done += ws_units;
        progress.tick(done, total);
        Some(r)
    };
    let a = s.alltoall.as_ref();
    let subsystem = a.and_then(|a| a.subsystem.as_ref()).map(|sub| {
        let base = done;
        let r = subsystem_report(sub, &mut |f| {
            progress.tick(base + (f.clamp(0.0, 1.0) * sub_units as f64) as u64, total)
        });
        done += sub_units;
        progress.tick(done, total);
        r
    });
    let layouts = a.and_then(|a| a.layouts.as_ref()).map(|l| {
        let r = layouts_report(l, &mut |k| progress.tick(done + k, total));
        done += lay_units;
        r
    });
    let reservation = s.reservation.as_ref().map(|spec| {
        let mut sub = SubProgress {
            progress: &mut *progress,
            base: done,
            span: res_units,
            total,
        };
        reservation::simulate(spec, seed, &mut sub)
    });
    progress.tick(total, total);
    SelectReport {
        workstations,
        subsystem,
        layouts,
        reservation,
    }
}

/// Progress units of the reservation simulation.
const RESERVATION_UNITS: u64 = 1000;

/// Maps a part's own `(done, total)` onto `span` units of the whole run from `base`.
struct SubProgress<'a> {
    progress: &'a mut dyn Progress,
    base: u64,
    span: u64,
    total: u64,
}

impl Progress for SubProgress<'_> {
    fn tick(&mut self, done: u64, total: u64) {
        let f = if total == 0 {
            1.0
        } else {
            (done as f64 / total as f64).clamp(0.0, 1.0)
        };
        self.progress
            .tick(self.base + (f * self.span as f64) as u64, self.total);
    }
}

/// The workstation part of a validated scenario.
pub fn workstations(s: &SelectScenario, progress: &mut dyn FnMut(u64)) -> WorkstationReport {
    let m = &s.model;
    let constants = scenario::constants_of(m);
    let f = scenario::formulas_of(m);
    let terms = qiju::Terms::compile(&f, &constants).expect("validated formulas");
    let p_set = scenario::p_set_of(m);
    let sel = qiju::select(&s.stations, &terms, p_set, progress);
    let (lost, lost_percent) = match (&sel.best, &sel.all) {
        (Some(b), Some(a)) => (
            Some(a.t - b.t),
            (a.t != 0.0).then(|| (a.t - b.t) / a.t * 100.0),
        ),
        _ => (None, None),
    };
    let [ts, tc, tr, to] = f;
    WorkstationReport {
        preset: m.preset.id(),
        p_set: p_set.id(),
        formulas: Formulas { ts, tc, tr, to },
        constants,
        stations: sel.rows,
        order: sel.order,
        curve: sel.curve,
        best: sel.best,
        all: sel.all,
        lost,
        lost_percent,
        uncertainty: sel.uncertainty,
        reference: s.reference.clone(),
        preview_of: None,
    }
}

/// The subsystem part; `progress(fraction)`.
pub fn subsystem_report(sub: &SubsystemSpec, progress: &mut dyn FnMut(f64)) -> SubsystemReport {
    let matrix = match (&sub.matrix, &sub.hierarchy) {
        (Some(m), _) => m.clone(),
        (None, Some(h)) => subsystem::hierarchy_matrix(h, sub.objective),
        (None, None) => unreachable!("validated: matrix or hierarchy"),
    };
    let wt = subsystem::Weights::from_matrix(&matrix, sub.objective);
    let m = sub.m as usize;
    let (heur, swaps) = subsystem::heuristic(&wt, m);
    progress(0.05);
    let first: Vec<u32> = (0..m as u32).collect();
    let exact = (wt.n <= scenario::MAX_EXACT_MACHINES).then(|| {
        let budget = scenario::exact_budget(sub, wt.n);
        subsystem::exact(&wt, m, &heur, budget, &mut |nodes| {
            progress(0.05 + 0.95 * nodes as f64 / budget.max(1) as f64)
        })
    });
    let gap = |set: &[u32]| {
        exact
            .as_ref()
            .filter(|e| e.proven)
            .map(|e| subsystem::gap_percent(wt.cost(set), wt.cost(&e.set)).max(0.0))
    };
    SubsystemReport {
        objective: sub.objective.id(),
        machines: wt.n as u32,
        m: sub.m,
        gap_percent: gap(&heur),
        first_fit_gap_percent: gap(&first),
        exact: exact
            .as_ref()
            .map(|e| wt.result(&e.set, Some(e.proven), e.nodes)),
        heuristic: wt.result(&heur, None, swaps),
        first_fit: wt.result(&first, None, 0),
    }
}

/// The layouts part; `progress(ranks done)`.
pub fn layouts_report(l: &LayoutsSpec, progress: &mut dyn FnMut(u64)) -> LayoutsReport {
    let text = l.table.clone().unwrap_or_else(layouts::default_table);
    let table = layouts::CostTable::parse(&text).expect("validated table");
    let mc = layouts::Machine {
        nodes: l.nodes,
        sockets: l.sockets_per_node,
        cores_per_socket: l.cores_per_socket,
        busy: l.busy.clone(),
    };
    let mut ranks = Vec::new();
    for (k, &r) in l.ranks.iter().enumerate() {
        let (list, ff) = layouts::rank_layouts(&table, &mc, r, l.message_bytes);
        let gain = match list.first() {
            Some(b) if ff.time > 0.0 => (ff.time - b.time) / ff.time * 100.0,
            _ => 0.0,
        };
        ranks.push(RankReport {
            rank: r,
            layouts: list,
            first_fit: ff,
            gain_percent: gain,
            reference: l
                .reference
                .iter()
                .filter(|x| x.rank == r)
                .cloned()
                .collect(),
        });
        progress(k as u64 + 1);
    }
    LayoutsReport {
        message_bytes: l.message_bytes,
        table: text,
        ranks,
    }
}
