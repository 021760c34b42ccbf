//! Engine 5, trace: replays an MPI trace on heterogeneous nodes and finds the fastest
//! task-to-node assignment (SPEC §4; LSMG by Luo, Katagiri, Honda & Yuba).
//!
//! Pipeline: [`scenario`] (fields, limits, form) → a [`model::Trace`] from [`alog`], [`ti`] or
//! [`text`], or from [`generate`] → [`replay::compile`] (messages matched, deadlocks refused,
//! the trace flattened) → the platform (ratios, links given or fitted by [`fit`]) →
//! [`search`] (exhaustive, branch and bound, local search) → [`report`] (ranking, timeline of
//! the best, machinefile, fits, the error `a` against measured times). [`samples`] is the
//! cross-target sample matrix.

pub mod alog;
pub mod fit;
pub mod generate;
pub mod model;
pub mod replay;
pub mod report;
pub mod samples;
pub mod scenario;
pub mod search;
pub mod text;
pub mod ti;

use crate::engines::Engine;
use crate::error::{check_number, compact_number, Result, ScenarioError};
use crate::params::Param;
use crate::progress::Progress;
use crate::scenario::Meta;
use model::{Origin, Trace};
use replay::{Compiled, Platform};
use report::*;
use scenario::{
    Method, TraceFormat, TraceScenario, MAX_EVENTS, MAX_NODES, MAX_SAMPLES, MAX_VALUE, MAX_WORK,
};
use search::{Outcome, Problem};
use std::collections::BTreeMap;

/// `auto` runs exhaustive search when it costs at most this many replay steps.
pub const AUTO_EXHAUSTIVE_STEPS: f64 = 1e7;
/// Most rows of measured times.
pub const MAX_MEASURED: usize = 100_000;

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

    fn run(s: &TraceScenario, meta: &Meta, progress: &mut dyn Progress) -> TraceReport {
        let b = build(s).expect("validated scenario");
        run(s, &b, meta.seed, progress)
    }

    fn sample_scenarios() -> Vec<String> {
        samples::sample_scenarios()
    }
}

/// Where a link's numbers came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkOrigin {
    Given,
    Fit,
    Default,
}

/// A validated scenario, ready to search.
#[derive(Debug, Clone)]
pub struct Built {
    pub source: &'static str,
    pub program: Option<&'static str>,
    pub compiled: Compiled,
    pub platform: Platform,
    pub names: Vec<String>,
    pub origin: Vec<LinkOrigin>,
    /// Fits per ordered pair `u * n + v`, with their samples.
    pub fits: BTreeMap<usize, (fit::Fit, Vec<[f64; 2]>)>,
    pub method: Method,
    /// The search budget in replay steps (0 for exhaustive search, which has none).
    pub budget: f64,
    pub measured: Vec<(Vec<u8>, f64)>,
}

fn parse_error(path: &str, e: model::ParseError) -> ScenarioError {
    ScenarioError::at(path, Trace::at_line(e.line, e.message))
}

/// Checks every value and limit, parses or generates the trace, compiles it, builds the
/// platform and checks the admission estimate.
///
/// # Errors
/// The first problem at its JSON path; trace problems name their line.
pub fn build(s: &TraceScenario) -> Result<Built> {
    let n = s.nodes.len();
    if n == 0 || n > MAX_NODES as usize {
        return Err(ScenarioError::at(
            "nodes",
            format!("give from 1 to {MAX_NODES} nodes, got {n}"),
        ));
    }
    let mut index: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, nd) in s.nodes.iter().enumerate() {
        let p = format!("nodes[{i}]");
        let name = nd.name.as_str();
        if name.is_empty() || name.chars().count() > 64 {
            return Err(ScenarioError::at(
                format!("{p}.name"),
                "a name of 1 to 64 characters",
            ));
        }
        if name
            .chars()
            .any(|c| c.is_whitespace() || c == ',' || c.is_control())
        {
            return Err(ScenarioError::at(
                format!("{p}.name"),
                format!("{name:?}: no spaces or commas (names go into machinefiles and CSV)"),
            ));
        }
        if index.insert(name, i).is_some() {
            return Err(ScenarioError::at(
                format!("{p}.name"),
                format!("{name:?} is named twice"),
            ));
        }
        check_number(&format!("{p}.ratio"), nd.ratio, 0.0, 1e6)?;
        if nd.ratio <= 0.0 {
            return Err(ScenarioError::at(
                format!("{p}.ratio"),
                "must be more than 0",
            ));
        }
    }
    // the trace
    let (trace, source, program) = match (&s.trace, &s.generate) {
        (None, None) => {
            return Err(ScenarioError::at(
                "",
                "give the trace: \"trace\" (text) or \"generate\"",
            ))
        }
        (Some(_), Some(_)) => {
            return Err(ScenarioError::at(
                "",
                "give either \"trace\" or \"generate\", not both",
            ))
        }
        (Some(t), None) => {
            let tr = match (&t.text, &t.files) {
                (Some(_), Some(_)) | (None, None) => {
                    return Err(ScenarioError::at(
                        "trace",
                        "give exactly one of \"text\" (merged) and \"files\" (one text per rank)",
                    ))
                }
                (Some(text), None) => match t.format {
                    TraceFormat::Alog => alog::parse(text),
                    TraceFormat::Ti => ti::parse(text, s.reference_rate),
                    TraceFormat::Text => text::parse(text),
                }
                .map_err(|e| parse_error("trace.text", e))?,
                (None, Some(files)) => {
                    if t.format != TraceFormat::Ti {
                        return Err(ScenarioError::at(
                            "trace.files",
                            "one text per rank is for the time-independent format (\"ti\"); give \"text\"",
                        ));
                    }
                    if files.is_empty() || files.len() > MAX_NODES as usize {
                        return Err(ScenarioError::at(
                            "trace.files",
                            format!("from 1 to {MAX_NODES} texts, got {}", files.len()),
                        ));
                    }
                    let mut tr = Trace::new(0, Origin::Files);
                    for (i, f) in files.iter().enumerate() {
                        ti::parse_into(f, i as u32, s.reference_rate, &mut tr)
                            .map_err(|e| parse_error(&format!("trace.files[{i}]"), e))?;
                    }
                    tr
                }
            };
            (tr, t.format.id(), None)
        }
        (None, Some(g)) => {
            if let Some(w) = &g.weights {
                if w.len() != g.ranks as usize {
                    return Err(ScenarioError::at(
                        "generate.weights",
                        format!(
                            "one weight per rank: {} ranks, {} weights",
                            g.ranks,
                            w.len()
                        ),
                    ));
                }
            }
            let est = generate::estimate_events(g);
            if est > MAX_EVENTS {
                return Err(ScenarioError::at(
                    "generate",
                    format!("this program would write about {est} events; the limit is {MAX_EVENTS}: lower size, ranks or iterations"),
                ));
            }
            (
                generate::generate(g, s.reference_rate),
                "generate",
                Some(g.program.id()),
            )
        }
    };
    let path0 = if s.generate.is_some() {
        "generate"
    } else {
        "trace"
    };
    if trace.ranks.is_empty() {
        return Err(ScenarioError::at(path0, "the trace has no events"));
    }
    if trace.events() > MAX_EVENTS {
        return Err(ScenarioError::at(
            path0,
            format!("{} events; the limit is {MAX_EVENTS}", trace.events()),
        ));
    }
    let r = trace.ranks.len();
    if r > n {
        return Err(ScenarioError::at(
            "nodes",
            format!("the trace has {r} ranks but only {n} nodes are given; each rank needs its own node"),
        ));
    }
    let mut compiled = replay::compile(&trace).map_err(|(file, line, m)| {
        ScenarioError::at(trace.path_of(file), Trace::at_line(line, m))
    })?;
    compiled.protocol = s.protocol;
    // the platform
    let mut a0 = vec![f64::NAN; n * n];
    let mut a1 = vec![f64::NAN; n * n];
    let mut origin = vec![LinkOrigin::Default; n * n];
    let mut fits = BTreeMap::new();
    let mut total_samples = 0usize;
    for (i, l) in s.links.iter().enumerate() {
        let p = format!("links[{i}]");
        let node = |name: &str, f: &str| {
            index.get(name).copied().ok_or_else(|| {
                ScenarioError::at(format!("{p}.{f}"), format!("no node is named {name:?}"))
            })
        };
        let u = node(&l.from, "from")?;
        let v = node(&l.to, "to")?;
        if u == v {
            return Err(ScenarioError::at(&p, "a link joins two different nodes"));
        }
        let (x0, x1, f) = match (l.a0, l.a1, &l.samples) {
            (Some(x0), Some(x1), None) => (x0, x1, None),
            (None, None, Some(smp)) => {
                total_samples += smp.len();
                if total_samples > MAX_SAMPLES {
                    return Err(ScenarioError::at(
                        format!("{p}.samples"),
                        format!("at most {MAX_SAMPLES} samples in all"),
                    ));
                }
                let Some(ft) = fit::least_squares(smp) else {
                    return Err(ScenarioError::at(
                        format!("{p}.samples"),
                        "a fit needs samples of at least two different sizes",
                    ));
                };
                (ft.a0, ft.a1, Some((ft, smp.clone())))
            }
            _ => {
                return Err(ScenarioError::at(
                    &p,
                    "give \"a0\" and \"a1\", or \"samples\" to fit them, not both",
                ))
            }
        };
        let dirs: &[(usize, usize)] = if l.both { &[(u, v), (v, u)] } else { &[(u, v)] };
        for &(x, y) in dirs {
            let k = x * n + y;
            if !a0[k].is_nan() {
                return Err(ScenarioError::at(
                    &p,
                    format!(
                        "the link from {:?} to {:?} is given twice",
                        s.nodes[x].name, s.nodes[y].name
                    ),
                ));
            }
            a0[k] = x0;
            a1[k] = x1;
            origin[k] = if f.is_some() {
                LinkOrigin::Fit
            } else {
                LinkOrigin::Given
            };
            if let Some(ff) = &f {
                fits.insert(k, ff.clone());
            }
        }
    }
    for u in 0..n {
        for v in 0..n {
            let k = u * n + v;
            if u == v {
                a0[k] = 0.0;
                a1[k] = 0.0;
                continue;
            }
            if a0[k].is_nan() {
                match s.default_link {
                    Some(d) => {
                        a0[k] = d.a0;
                        a1[k] = d.a1;
                    }
                    None => {
                        return Err(ScenarioError::at(
                            "links",
                            format!(
                                "no link from {:?} to {:?}: list it (or use \"both\") or give \"defaultLink\"",
                                s.nodes[u].name, s.nodes[v].name
                            ),
                        ))
                    }
                }
            }
        }
    }
    let platform = Platform {
        n,
        ratio: s.nodes.iter().map(|x| x.ratio).collect(),
        a0,
        a1,
    };
    let names: Vec<String> = s.nodes.iter().map(|x| x.name.clone()).collect();
    let measured = match &s.measured {
        Some(text) => parse_measured(text, &index, r)?,
        None => Vec::new(),
    };
    // admission
    let steps = compiled.steps() as f64;
    let all = search::assignments(n, r);
    let method = match s.search.method {
        Method::Auto if all * steps <= AUTO_EXHAUSTIVE_STEPS => Method::Exhaustive,
        Method::Auto => Method::BranchAndBound,
        m => m,
    };
    let search_work = match method {
        Method::Exhaustive => all * steps,
        _ => (s.search.budget + (n as f64 + 2.0) * steps).min(MAX_WORK * 10.0),
    };
    let work = search_work + (measured.len() as f64 + 2.0) * steps;
    if work > MAX_WORK {
        let what = if method == Method::Exhaustive {
            format!(
                "exhaustive search replays {} assignments of {} steps each",
                compact_number(all),
                compact_number(steps)
            )
        } else {
            format!("a budget of {} steps", compact_number(s.search.budget))
        };
        return Err(ScenarioError::at(
            "search",
            format!(
                "refused before running: estimated {} replay steps ({what}); the limit is {} (a few seconds): use branch and bound, a smaller budget or a shorter trace",
                compact_number(work.round()),
                compact_number(MAX_WORK)
            ),
        ));
    }
    Ok(Built {
        source,
        program,
        compiled,
        platform,
        names,
        origin,
        fits,
        method,
        budget: if method == Method::Exhaustive {
            0.0
        } else {
            s.search.budget.floor()
        },
        measured,
    })
}

/// Reads `assignment,time` rows (header optional, `#` comments): the assignment is one node
/// name per rank separated by spaces, the time seconds.
fn parse_measured(
    text: &str,
    index: &BTreeMap<&str, usize>,
    r: usize,
) -> Result<Vec<(Vec<u8>, f64)>> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let body = raw.split('#').next().unwrap_or("").trim();
        if body.is_empty() {
            continue;
        }
        let err = |m: String| ScenarioError::at("measured", format!("line {line}: {m}"));
        let Some((a, t)) = body.rsplit_once(',') else {
            return Err(err("write `assignment,time`".into()));
        };
        let a = a.trim().trim_matches('"');
        let t = t.trim();
        if out.is_empty() && a == "assignment" && t == "time" {
            continue;
        }
        let time: f64 = t.parse().map_err(|_| {
            err(format!(
                "the time must be a number, got {:?}",
                model::short(t)
            ))
        })?;
        if !time.is_finite() || time <= 0.0 || time > MAX_VALUE {
            return Err(err(format!(
                "the time must be more than 0 and finite, got {}",
                model::short(t)
            )));
        }
        let hosts: Vec<&str> = a.split_whitespace().collect();
        if hosts.len() != r {
            return Err(err(format!(
                "the assignment names {} nodes; the trace has {r} ranks (one node name per rank)",
                hosts.len()
            )));
        }
        let mut assign = Vec::with_capacity(r);
        for h in hosts {
            let Some(&u) = index.get(h) else {
                return Err(err(format!("no node is named {:?}", model::short(h))));
            };
            if assign.contains(&(u as u8)) {
                return Err(err(format!("node {h:?} appears twice")));
            }
            assign.push(u as u8);
        }
        out.push((assign, time));
        if out.len() > MAX_MEASURED {
            return Err(err(format!("at most {MAX_MEASURED} rows")));
        }
    }
    if out.is_empty() && !text.trim().is_empty() {
        return Err(ScenarioError::at("measured", "no rows of measured times"));
    }
    Ok(out)
}

/// Runs the search the scenario asks for; `tick(steps)` reports the work spent.
pub fn search(s: &TraceScenario, b: &Built, seed: u64, tick: &mut dyn FnMut(u64)) -> Outcome {
    let prob = Problem::new(&b.compiled, &b.platform);
    let top = s.search.top as usize;
    let budget = s.search.budget as u64;
    match b.method {
        Method::Exhaustive => search::exhaustive_with(&prob, top, true, tick),
        Method::LocalSearch => search::local_only(&prob, top, budget, s.search.restarts, seed),
        Method::BranchAndBound | Method::Auto => {
            search::branch_and_bound_with(&prob, top, budget, tick)
        }
    }
}

/// Progress units: the search takes the first 900 (in proportion to steps over the budget, or
/// over all assignments' steps for exhaustive search), the report the last 100.
const PROGRESS_UNITS: u64 = 1000;

/// Runs a built scenario.
pub fn run(s: &TraceScenario, b: &Built, seed: u64, progress: &mut dyn Progress) -> TraceReport {
    progress.tick(0, PROGRESS_UNITS);
    progress.phase("search");
    let expected = if b.method == Method::Exhaustive {
        search::assignments(b.platform.n, b.compiled.ranks) * b.compiled.steps() as f64
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
    let prob = Problem::new(c, p);
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
    for it in &c.items {
        let (a, d) = (it.src as usize, it.dst as usize);
        per[a].compute += it.cs;
        per[d].compute += it.cd;
        per[a].sends += 1;
        per[d].recvs += 1;
        per[a].bytes_sent += it.bytes;
        per[d].bytes_received += it.bytes;
        bytes += it.bytes;
    }
    for (x, pr) in per.iter_mut().enumerate() {
        pr.compute += c.tail[x];
    }
    let compute = per.iter().map(|x| x.compute).sum();
    let trace = TraceSummary {
        protocol: c.protocol,
        ranks: r as u32,
        events: c.events,
        messages: c.items.len() as u64,
        bytes,
        compute,
        per_rank: per,
    };
    let nodes = (0..n)
        .map(|u| NodeRow {
            name: b.names[u].clone(),
            ratio: p.ratio[u],
            class: prob.class[u],
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
                },
                fit: b.fits.get(&k).map(|(f, smp)| FitRow {
                    count: smp.len() as u64,
                    rms: f.rms,
                    max_residual: f.max_residual,
                    r2: f.r2,
                    samples: thin(smp, MAX_FIT_SAMPLES),
                }),
            });
        }
    }
    let best = out.top.best().cloned().unwrap_or(search::Ranked {
        time: 0.0,
        assign: (0..r as u8).collect(),
    });
    let gap = if out.proven || best.time <= 0.0 {
        0.0
    } else {
        (best.time - out.lower_bound) / best.time
    };
    let search_row = SearchRow {
        method: b.method.id(),
        assignments: search::assignments(n, r),
        distinct: search::distinct(&prob.class, r),
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
    let identity: Vec<u8> = (0..r as u8).collect();
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
    TraceReport {
        source: b.source,
        program: b.program,
        trace,
        nodes,
        links,
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
    let rep = prob.representative(&best.assign);
    let tn = b
        .measured
        .iter()
        .find(|(a, _)| *a == best.assign)
        .or_else(|| {
            b.measured
                .iter()
                .find(|(a, _)| prob.representative(a) == rep)
        })
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
