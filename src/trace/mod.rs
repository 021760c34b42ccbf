//! Engine 6, trace: replays an MPI trace on heterogeneous nodes and finds the fastest
//! task-to-node assignment (LSMG by Luo, Katagiri, Honda & Yuba).
//!
//! Pipeline: [`scenario`] (fields, limits, form) → a [`model::Trace`] from [`alog`], [`ti`] or
//! [`text`], or from [`generate`] → [`replay::compile`] (messages matched, deadlocks refused,
//! the trace flattened) → the platform (ratios, links given or fitted by [`fit`], or read from
//! a SimGrid platform file by [`simgrid`]) →
//! [`search`] (exhaustive, branch and bound, local search) → [`report`] (ranking, timeline of
//! the best, machinefile, fits, the error `a` against measured times). [`samples`] is the
//! cross-target sample matrix; [`split`] runs an exhaustive search in several workers.

pub mod alog;
pub mod collectives;
pub mod factors;
pub mod fit;
pub mod generate;
pub mod limits;
pub mod model;
pub mod replay;
pub mod report;
pub mod samples;
pub mod scenario;
pub mod search;
pub mod simgrid;
pub mod split;
pub mod text;
pub mod ti;

use crate::engine::Engine;
use crate::error::Result;
use crate::params::Param;
use crate::progress::Progress;
use crate::scenario::Meta;
use report::*;
pub use scenario::{build, Built, LinkOrigin, AUTO_EXHAUSTIVE_STEPS, MAX_MEASURED};
use scenario::{Method, TraceScenario};
use search::{Outcome, Problem};

/// The trace-prediction engine.
pub struct TracePrediction;

impl Engine for TracePrediction {
    const ID: &'static str = "trace";
    const TITLE: &'static str = "Trace prediction: the fastest task-to-node assignment";
    type Scenario = TraceScenario;
    type Report = TraceReport;

    fn params() -> Vec<Param> {
        scenario::params()
    }

    fn validate(s: &TraceScenario) -> Result<()> {
        build(s).map(|_| ())
    }

    fn estimate(s: &TraceScenario) -> Result<crate::engine::Estimate> {
        match s.built.get() {
            Some(b) => Ok(scenario::estimate(s, b)),
            None => Ok(scenario::estimate(s, &scenario::build_unadmitted(s)?)),
        }
    }

    fn run(s: &TraceScenario, meta: &Meta, progress: &mut dyn Progress) -> TraceReport {
        let b = build(s).expect("validated scenario");
        run(s, &b, meta.seed, progress)
    }

    fn sample_scenarios() -> Vec<String> {
        samples::sample_scenarios()
    }

    /// An exhaustive search in several workers when the scenario asks for them: [`split`].
    fn split(
        s: TraceScenario,
        meta: &Meta,
    ) -> Result<Option<Box<dyn crate::split::Split<Report = TraceReport>>>> {
        split::split(s, meta)
    }
}

/// Runs the search the scenario asks for; `tick(steps)` reports the work spent.
pub fn search(s: &TraceScenario, b: &Built, seed: u64, tick: &mut dyn FnMut(u64)) -> Outcome {
    let prob = Problem::searched(&b.compiled, &b.platform, s.search.rank_symmetry);
    let top = s.search.top as usize;
    let budget = s.search.budget as u64;
    match b.method {
        #[cfg(not(target_arch = "wasm32"))]
        Method::Exhaustive => {
            search::exhaustive_threads(&prob, top, rayon::current_num_threads(), tick)
        }
        #[cfg(target_arch = "wasm32")]
        Method::Exhaustive => search::exhaustive_with(&prob, top, true, tick),
        Method::LocalSearch => search::local_only(&prob, top, budget, s.search.restarts, seed),
        Method::BranchAndBound | Method::Auto => {
            search::branch_and_bound_with(&prob, top, budget, tick)
        }
    }
}

/// Progress units: the search takes the first 900 (in proportion to steps over the budget, or
/// over all assignments' steps for exhaustive search), the report the last 100.
pub(crate) const PROGRESS_UNITS: u64 = 1000;

/// Runs a built scenario.
pub fn run(s: &TraceScenario, b: &Built, seed: u64, progress: &mut dyn Progress) -> TraceReport {
    progress.tick(0, PROGRESS_UNITS);
    progress.phase("search");
    let expected = if b.method == Method::Exhaustive {
        search::assignments_on(&b.platform, b.compiled.ranks) * b.compiled.steps() as f64
    } else {
        s.search.budget
    }
    .max(1.0);
    let mut done = 0u64;
    let out = search(s, b, seed, &mut |steps| {
        let at = ((steps as f64 / expected).min(1.0) * 900.0) as u64;
        if at > done {
            done = at;
            progress.tick(done, PROGRESS_UNITS);
        }
    });
    progress.tick(900, PROGRESS_UNITS);
    progress.phase("report");
    let rep = build_report(b, &out);
    progress.tick(PROGRESS_UNITS, PROGRESS_UNITS);
    progress.phase("end");
    rep
}

fn hosts(b: &Built, assign: &[u8]) -> String {
    assign
        .iter()
        .map(|&u| b.names[u as usize].as_str())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Thins samples to at most `cap`, evenly.
fn thin(s: &[[f64; 2]], cap: usize) -> Vec<[f64; 2]> {
    if s.len() <= cap {
        return s.to_vec();
    }
    (0..cap).map(|i| s[i * s.len() / cap]).collect()
}

/// Builds the report from a search outcome.
pub fn build_report(b: &Built, out: &Outcome) -> TraceReport {
    let c = &b.compiled;
    let p = &b.platform;
    let n = p.n;
    let r = c.ranks;
    let mut prob = Problem::new(c, p);
    prob.sym = out.symmetry.clone();
    // trace summary
    let mut per: Vec<RankSummary> = (0..r)
        .map(|x| RankSummary {
            rank: x as u32,
            compute: 0.0,
            sends: 0,
            recvs: 0,
            bytes_sent: 0.0,
            bytes_received: 0.0,
        })
        .collect();
    let mut bytes = 0.0;
    let (work, _) = c.rank_work();
    for (x, pr) in per.iter_mut().enumerate() {
        pr.compute = work[x];
    }
    for it in c.items() {
        let (a, d) = (it.src as usize, it.dst as usize);
        per[a].sends += 1;
        per[d].recvs += 1;
        per[a].bytes_sent += it.bytes;
        per[d].bytes_received += it.bytes;
        bytes += it.bytes;
    }
    let compute = per.iter().map(|x| x.compute).sum();
    let trace = TraceSummary {
        protocol: c.protocol(),
        ranks: r as u32,
        events: c.events,
        messages: c.messages,
        bytes,
        compute,
        per_rank: per,
    };
    let nodes = (0..n)
        .map(|u| NodeRow {
            name: b.names[u].clone(),
            ratio: p.ratio[u],
            class: prob.class[u],
            cores: p.cores[u],
            intra: (p.cores[u] > 1).then(|| IntraRow {
                a0: p.a0[u * n + u],
                a1: p.a1[u * n + u],
            }),
        })
        .collect();
    let mut links = Vec::new();
    for u in 0..n {
        for v in 0..n {
            if u == v {
                continue;
            }
            let k = u * n + v;
            links.push(LinkRow {
                from: u as u32,
                to: v as u32,
                a0: p.a0[k],
                a1: p.a1[k],
                origin: match b.origin[k] {
                    LinkOrigin::Given => "given",
                    LinkOrigin::Fit => "fit",
                    LinkOrigin::Default => "default",
                    LinkOrigin::Platform => "platform",
                },
                fit: b.fits.get(&k).map(|(f, smp)| {
                    let pw = b.ranges.get(&k);
                    FitRow {
                        count: smp.len() as u64,
                        rms: f.rms,
                        max_residual: f.max_residual,
                        r2: f.r2,
                        samples: thin(smp, MAX_FIT_SAMPLES),
                        ranges: pw.map(|pw| {
                            pw.ranges
                                .iter()
                                .map(|r| RangeRow {
                                    from: r.from,
                                    to: r.to,
                                    count: r.count,
                                    a0: r.fit.a0,
                                    a1: r.fit.a1,
                                    rms: r.fit.rms,
                                    r2: r.fit.r2,
                                })
                                .collect()
                        }),
                        lat_factor: pw.and_then(|pw| pw.lat_factor.clone()),
                        bw_factor: pw.and_then(|pw| pw.bw_factor.clone()),
                    }
                }),
            });
        }
    }
    let identity = search::identity(p, r);
    let best = out.top.best().cloned().unwrap_or(search::Ranked {
        time: 0.0,
        assign: identity.clone(),
    });
    let gap = if out.proven || best.time <= 0.0 {
        0.0
    } else {
        (best.time - out.lower_bound) / best.time
    };
    let search_row = SearchRow {
        method: b.method.id(),
        assignments: prob.assignments(),
        distinct: prob.distinct(),
        classes: {
            let mut cl: Vec<u32> = prob.class.clone();
            cl.sort_unstable();
            cl.dedup();
            cl.len() as u32
        },
        visited: out.stats.visited,
        replays: out.stats.replays,
        bound_replays: out.stats.bound_replays,
        pruned: out.stats.pruned,
        steps: out.stats.steps,
        budget: b.budget,
        proven: out.proven,
        stopped: out.stop.id(),
        lower_bound: out.lower_bound,
        gap,
        identical_ranks: out.symmetry.as_ref().map(|sym| IdenticalRanks {
            generators: sym.generators.iter().map(|g| g.name()).collect(),
            pivot: sym.pivot as u32,
            orbit: sym.orbit.clone(),
        }),
    };
    let ranking = out
        .top
        .rows
        .iter()
        .enumerate()
        .map(|(i, row)| RankedRow {
            position: i as u32 + 1,
            assignment: row.assign.iter().map(|&u| u as u32).collect(),
            hosts: hosts(b, &row.assign),
            time: row.time,
            equivalents: search::equivalents(&row.assign, &prob.class),
        })
        .collect();
    let identity_time = c.time_of(p, &identity);
    let machinefile: String = best
        .assign
        .iter()
        .map(|&u| format!("{}\n", b.names[u as usize]))
        .collect();
    let best_row = BestRow {
        assignment: best.assign.iter().map(|&u| u as u32).collect(),
        hosts: hosts(b, &best.assign),
        time: best.time,
        identity_time,
        identity_ratio: if best.time > 0.0 {
            identity_time / best.time
        } else {
            1.0
        },
        machinefile,
    };
    let (segs, total, shown_until, makespan) =
        replay::timeline(c, p, &best.assign, MAX_TIMELINE_SEGMENTS);
    let timeline = Timeline {
        makespan,
        nodes: best.assign.iter().map(|&u| u as u32).collect(),
        truncated: (segs.len() as u64) < total,
        segments: segs
            .iter()
            .map(|s| Segment {
                rank: s.rank,
                kind: replay::KIND_NAMES[s.kind as usize],
                start: s.start,
                end: s.end,
                peer: (s.peer != u32::MAX).then_some(s.peer),
                bytes: (s.kind == 1 || s.kind == 2).then_some(s.bytes),
            })
            .collect(),
        total,
        shown_until,
    };
    let measured = (!b.measured.is_empty()).then(|| measured_row(b, &prob, &best));
    let factors = match &b.factors {
        (None, None) => None,
        (lat, bw) => Some(FactorsRow {
            lat_factor: lat.as_ref().map(|f| f.smpi()),
            bw_factor: bw.as_ref().map(|f| f.smpi()),
        }),
    };
    TraceReport {
        source: b.source,
        program: b.program,
        trace,
        nodes,
        links,
        factors,
        search: search_row,
        ranking,
        best: best_row,
        timeline,
        measured,
    }
}

/// Average ranks (1-based, ties share their mean rank) of `v` in increasing order.
fn ranks_of(v: &[f64]) -> Vec<f64> {
    let mut idx: Vec<usize> = (0..v.len()).collect();
    idx.sort_by(|&a, &b| v[a].total_cmp(&v[b]).then(a.cmp(&b)));
    let mut out = vec![0.0; v.len()];
    let mut i = 0;
    while i < idx.len() {
        let mut j = i;
        while j + 1 < idx.len() && v[idx[j + 1]] == v[idx[i]] {
            j += 1;
        }
        let mean = (i + j) as f64 / 2.0 + 1.0;
        for &k in &idx[i..=j] {
            out[k] = mean;
        }
        i = j + 1;
    }
    out
}

fn measured_row(b: &Built, prob: &Problem, best: &search::Ranked) -> MeasuredRow {
    let c = &b.compiled;
    let p = &b.platform;
    let pred: Vec<f64> = b.measured.iter().map(|(a, _)| c.time_of(p, a)).collect();
    let meas: Vec<f64> = b.measured.iter().map(|(_, t)| *t).collect();
    // t_n: the predicted best's measured time (same assignment, else an equivalent one)
    let rep = prob.canonical(&best.assign);
    let tn = b
        .measured
        .iter()
        .find(|(a, _)| *a == best.assign)
        .or_else(|| b.measured.iter().find(|(a, _)| prob.canonical(a) == rep))
        .map(|(_, t)| *t);
    let mut m = 0usize;
    for i in 1..meas.len() {
        if meas[i] < meas[m] {
            m = i;
        }
    }
    let tm = meas[m];
    let position = 1
        + (0..pred.len())
            .filter(|&i| {
                pred[i]
                    .total_cmp(&pred[m])
                    .then_with(|| b.measured[i].0.cmp(&b.measured[m].0))
                    == std::cmp::Ordering::Less
            })
            .count() as u32;
    let k = pred.len() as f64;
    let mre = pred
        .iter()
        .zip(&meas)
        .map(|(pp, mm)| (pp - mm).abs() / mm)
        .sum::<f64>()
        / k;
    let rank_correlation = if pred.len() >= 2 {
        let (rp, rm) = (ranks_of(&pred), ranks_of(&meas));
        let mean = (k + 1.0) / 2.0;
        let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
        for i in 0..pred.len() {
            let (x, y) = (rp[i] - mean, rm[i] - mean);
            sxy += x * y;
            sxx += x * x;
            syy += y * y;
        }
        (sxx > 0.0 && syy > 0.0).then(|| sxy / (sxx * syy).sqrt())
    } else {
        None
    };
    MeasuredRow {
        rows: b.measured.len() as u32,
        predicted_best: hosts(b, &best.assign),
        predicted_best_measured: tn,
        measured_best: hosts(b, &b.measured[m].0),
        measured_best_time: tm,
        a: tn.map(|t| (t - tm).abs() / tm),
        measured_best_predicted_position: position,
        mean_relative_error: mre,
        rank_correlation,
        pairs: b
            .measured
            .iter()
            .zip(pred.iter())
            .take(MAX_PAIRS)
            .map(|((a, t), pp)| Pair {
                hosts: hosts(b, a),
                predicted: *pp,
                measured: *t,
            })
            .collect(),
    }
}
