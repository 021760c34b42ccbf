//! The placement run: for each case (job kind x message size) and each strategy, the placement,
//! its static metrics and its simulated time, then the ratio to Advanced beside the source's.
//!
//! Pipeline: [`super::scenario`] (fields, limits, admission) → the platform
//! ([`crate::netsim::Platform`]) → experiment 2's background jobs (placed once, seeded) → per
//! case: the task graph ([`super::jobs`]) → per strategy: [`super::strategy::place`] →
//! [`crate::netsim::static_metrics`] on one round's messages → [`crate::netsim::simulate_rounds`]
//! with the background jobs → [`super::report`].
//!
//! Without background jobs every round starts on an empty network and lasts the same, so one
//! round is simulated and multiplied by `rounds` (exact); with them, every round of every job is
//! simulated. A `messages` job (never with a background) is one round of timed flows
//! ([`message_flows`], [`crate::netsim::simulate`]) multiplied the same way; strategy `given`
//! is the scenario's placement ([`given`]).

use super::jobs::{self, JobKind, TaskGraph};
use super::report::{
    self, BackgroundInfo, BackgroundJob, CaseReport, Omitted, PlaceReport, RunReport, SystemInfo,
    MAX_DRAWN_EDGES,
};
use super::scenario::{self, PlaceScenario, System, SystemKind};
use super::strategy::{self, mapped, Objective, Options, Placement, Shape, StrategyId};
use crate::netsim::{
    simulate_first_job_within, simulate_rounds_within, static_metrics, Flow, JobTraffic, Lazy,
    LinkParams, Message, Platform, Sharing,
};
use crate::progress::{NoProgress, Progress, Span};
use crate::rng::Rng;

/// Flows whose sharing one simulation may recompute in all ([`simulate_rounds_within`]): the
/// simulator's work grows with the flows each start or end disturbs, which admission cannot
/// know before the placement exists (an aligned placement disturbs few, a scattered one many),
/// so a case over this budget is reported as not simulated instead of freezing the tab.
/// Natively on our 2-core machine, on the scattered case: about 1.5 us of CPU per recomputed
/// flow (the slack method, from a simulation's first recomputation; scanning capacities for
/// the first 500,000, `netsim::Lazy::Auto`, cost 3.6 us each), so a strategy stops within
/// about 6.5 s of CPU; the scattered (Random) 4,096-node torus3d, 1 MB wrapped GRID case needs
/// about 2.95 M and now finishes (about 5 s of CPU for the whole run; 500,000, the budget
/// before the slack method, stopped it).
pub const SIM_BUDGET: u64 = 3_500_000;

/// Flows the simulations of one run may recompute in all, over every case and strategy: the
/// bound that makes a run finish in seconds whatever admission's estimate of the simulations
/// (which cannot know how many completion events a placement gives: a FULL job of 1 MB
/// messages scattered over a 16^3 torus costs 16 times the estimate at 64 processes and about
/// its estimate at 306). A simulation gets at most [`SIM_BUDGET`] and at most what the run has
/// left; once the run's is spent, the remaining cases and strategies are reported as not
/// simulated, with the reason. At about 1.5 us of CPU per recomputed flow (see
/// [`SIM_BUDGET`]) the simulations of a run stop within about 10 s natively.
pub const RUN_SIM_BUDGET: u64 = 5_000_000;

/// [`SIM_BUDGET`] scaled by the scenario's `timeLimit` ([`PlaceScenario::budget_scale`]).
pub fn sim_budget(s: &PlaceScenario) -> u64 {
    (SIM_BUDGET as f64 * s.budget_scale()) as u64
}

/// [`RUN_SIM_BUDGET`] scaled by the scenario's `timeLimit`.
pub fn run_sim_budget(s: &PlaceScenario) -> u64 {
    (RUN_SIM_BUDGET as f64 * s.budget_scale()) as u64
}

/// Most message end times listed per report (`omitted.messageEnds` counts the rest).
pub const MAX_LISTED_MESSAGE_ENDS: usize = 100_000;

/// Strategy `given`: the scenario's hosts as they are (several tasks may share a host, as
/// ranks share a node), refused when a task lands on a node a background job holds.
pub fn given(placement: &[u64], busy: &[bool]) -> Placement {
    for (i, &h) in placement.iter().enumerate() {
        if busy[h as usize] {
            return Placement::NotPlaced(format!(
                "placement[{i}]: host {h} is busy with a background job"
            ));
        }
    }
    Placement::Placed(placement.iter().map(|&h| h as u32).collect())
}

/// The background of experiment 2: every job's task graph and hosts.
pub struct Background {
    pub jobs: Vec<(JobKind, StrategyId, TaskGraph, Vec<u32>)>,
    pub busy: Vec<bool>,
}

/// Fills `fill` of the hosts with jobs of `processes` tasks, kinds STAR/GRID/CUBE/TREE (wrapped
/// GRID and CUBE) and strategies Simple/Random/Optimal/Advanced drawn from the seed, each placed
/// by its strategy on what the earlier ones left free.
pub fn background(
    shape: &Shape,
    net: &Platform,
    fill: f64,
    processes: u32,
    seed: u64,
    quirks: bool,
) -> Background {
    let hosts = shape.hosts();
    let count = (fill * f64::from(hosts) / f64::from(processes.max(1))) as u32;
    let mut busy = vec![false; hosts as usize];
    let mut rng = Rng::seeded(seed ^ 0xba5e_6a0b);
    let kinds = [JobKind::Star, JobKind::Grid, JobKind::Cube, JobKind::Tree];
    let strategies = [
        StrategyId::Simple,
        StrategyId::Random,
        StrategyId::Optimal,
        StrategyId::Advanced,
    ];
    let mut out = Vec::new();
    for i in 0..count {
        let kind = kinds[rng.below(4) as usize];
        let st = strategies[rng.below(4) as usize];
        let job = jobs::task_graph(kind, processes, true, None).expect("built-in job");
        let opts = Options {
            seed: seed.wrapping_add(u64::from(i) + 1),
            source_quirks: quirks,
            ..Options::default()
        };
        match strategy::place(st, shape, net, &busy, &job, opts) {
            Placement::Placed(h) => {
                for &x in &h {
                    busy[x as usize] = true;
                }
                out.push((kind, st, job, h));
            }
            Placement::NotPlaced(_) => break,
        }
    }
    Background { jobs: out, busy }
}

/// One job's traffic on `hosts`: its messages, compute seconds per round (the slowest task's).
fn traffic(
    job: &TaskGraph,
    hosts: &[u32],
    message_bytes: f64,
    compute: f64,
    speed: f64,
    rounds: u32,
) -> JobTraffic {
    let messages = jobs::round_messages(&job.graph, message_bytes)
        .into_iter()
        .map(|(u, v, bytes)| Message {
            src: hosts[u as usize],
            dst: hosts[v as usize],
            bytes,
        })
        .collect();
    let heaviest = job.graph.vwgt.iter().copied().max().unwrap_or(0);
    JobTraffic {
        messages,
        compute: f64::from(heaviest) * compute / speed,
        rounds,
        start: 0.0,
    }
}

/// One round of a `messages` job on `hosts`: each message a flow from its source task's host to
/// its destination task's, starting `compute / speed` (the round's computation) plus its own
/// `start` after the round begins.
pub fn message_flows(s: &PlaceScenario, hosts: &[u32]) -> Vec<Flow> {
    let offset = s.job.compute / s.system.speed;
    s.job
        .messages
        .iter()
        .flatten()
        .map(|m| Flow {
            src: hosts[m.src as usize],
            dst: hosts[m.dst as usize],
            bytes: m.bytes,
            start: offset + m.start,
        })
        .collect()
}

/// A simulated placement: the job's time and, for a `messages` job, the end of each message in
/// its first round (s from the job's start).
#[derive(Debug, Clone, PartialEq)]
pub struct Simulated {
    pub time: f64,
    pub message_ends: Vec<f64>,
    /// Messages ended early with an earlier end ([`PlaceScenario::end_tolerance`]).
    pub batched_ends: u64,
}

/// The control job's time on `hosts` for case `c`: one round simulated and multiplied by the
/// rounds on an empty network; every round of every job with a background. A `messages` job
/// (always alone) is simulated as its flows ([`message_flows`], [`crate::netsim::simulate`]):
/// a round ends when its last message ends (or its computation, if later), and the next round
/// starts then, on an empty network again, so every round lasts the same.
fn simulate(
    p: &Platform,
    job: &TaskGraph,
    hosts: &[u32],
    c: &scenario::Case,
    s: &PlaceScenario,
    bg: Option<&Background>,
    left: &mut u64,
    progress: &mut dyn Progress,
) -> Result<Simulated, String> {
    let rounds = s.job.rounds as u32;
    if c.kind == JobKind::Messages {
        let flows = message_flows(s, hosts);
        let r = crate::netsim::simulate(p, &flows, s.model, progress)?;
        let round = r.makespan.max(s.job.compute / s.system.speed);
        return Ok(Simulated {
            time: round * f64::from(rounds),
            message_ends: r.finish,
            batched_ends: 0,
        });
    }
    if *left == 0 {
        let (all, limit) = (run_sim_budget(s), s.time_limit);
        return Err(format!(
            "not simulated: the run's simulations have recomputed {all} flows in all, its budget (about {limit} s, timeLimit); run fewer cases or strategies"
        ));
    }
    let budget = sim_budget(s).min(*left);
    let r = simulate_graph(p, job, hosts, c, s, bg, budget, progress);
    *left -= r.as_ref().map_or(budget, |x| x.1.min(budget));
    r.map(|(time, _, batched_ends)| Simulated {
        time,
        message_ends: Vec::new(),
        batched_ends,
    })
}

fn simulate_graph(
    p: &Platform,
    job: &TaskGraph,
    hosts: &[u32],
    c: &scenario::Case,
    s: &PlaceScenario,
    bg: Option<&Background>,
    budget: u64,
    progress: &mut dyn Progress,
) -> Result<(f64, u64, u64), String> {
    let rounds = s.job.rounds as u32;
    // The slack method from the first recomputation (starts too): the full water-filling's
    // rates up to the order of floating-point sums, for the flows whose rate may change
    // instead of each start's whole component (`netsim::maxmin::slack`). Experiment 2's
    // background makes that component most of the machine: 2.8x on the 1-byte study of the
    // 64x64 torus (docs/benchmarks.md). A `messages` job is simulated as flows by
    // `netsim::simulate`, whose method is `Lazy::Auto`.
    let sharing = Sharing {
        lazy: Lazy::Slack,
        end_tolerance: s.end_tolerance,
    };
    let control = traffic(
        job,
        hosts,
        c.message_bytes,
        s.job.compute,
        s.system.speed,
        rounds,
    );
    match bg {
        None => {
            let one = JobTraffic {
                rounds: 1,
                ..control
            };
            simulate_rounds_within(p, &[one], s.model, budget, sharing, progress).map(|r| {
                (
                    r.job_time[0] * f64::from(rounds),
                    r.solved_flows,
                    r.batched_ends,
                )
            })
        }
        Some(b) => {
            let mut all = vec![control];
            for (_, _, bj, bh) in &b.jobs {
                all.push(traffic(
                    bj,
                    bh,
                    c.message_bytes,
                    s.job.compute,
                    s.system.speed,
                    rounds,
                ));
            }
            // only the control job's time is reported: the background's later rounds are not
            // simulated (theorem at `simulate_first_job_within`)
            simulate_first_job_within(p, &all, s.model, budget, sharing, progress)
                .map(|r| (r.job_time[0], r.solved_flows, r.batched_ends))
        }
    }
}

/// A run's machine: the system, its platform, the shape the strategies read, and experiment 2's
/// background jobs with the hosts they keep busy.
struct Machine {
    sys: System,
    p: Platform,
    shape: Shape,
    bg: Option<Background>,
    busy: Vec<bool>,
}

impl Machine {
    fn of(s: &PlaceScenario, seed: u64) -> Machine {
        let sys: System = scenario::validate_system(&s.system).expect("validated");
        let link = LinkParams {
            bandwidth: s.system.bandwidth,
            latency: s.system.latency,
        };
        let p = sys.platform(link).expect("validated platform");
        // a network seen through its routes: every host pair's route length, once
        let shape = sys.shape.with_routes(&p);
        let bg = s.background.as_ref().map(|b| {
            background(
                &shape,
                &p,
                b.fill,
                b.processes as u32,
                seed,
                s.source_quirks,
            )
        });
        let busy = bg
            .as_ref()
            .map_or_else(|| vec![false; p.hosts() as usize], |b| b.busy.clone());
        Machine {
            sys,
            p,
            shape,
            bg,
            busy,
        }
    }

    /// The options every strategy is placed with, for a case of `unit` bytes per unit of edge
    /// weight.
    fn options(s: &PlaceScenario, seed: u64, unit: f64) -> Options {
        Options {
            seed,
            source_quirks: s.source_quirks,
            objective: s.objective,
            message_bytes: unit,
            model: Some(s.model),
        }
    }
}

/// One round's messages of case `c` placed on `hosts`, as flows starting at 0: what the static
/// metrics count.
fn round_flows(
    s: &PlaceScenario,
    c: &scenario::Case,
    job: &TaskGraph,
    hosts: &[u32],
    unit: f64,
) -> Vec<Flow> {
    if c.kind == JobKind::Messages {
        return message_flows(s, hosts);
    }
    let rounds = s.job.rounds as u32;
    traffic(job, hosts, unit, s.job.compute, s.system.speed, rounds)
        .messages
        .iter()
        .map(|m| Flow {
            src: m.src,
            dst: m.dst,
            bytes: m.bytes,
            start: 0.0,
        })
        .collect()
}

/// A strategy's placement of one case without a simulation ([`map`]).
pub struct Mapping {
    /// Index of the case ([`scenario::cases`]).
    pub case: usize,
    pub strategy: StrategyId,
    pub placement: Placement,
    /// The static metrics of one round's messages on the placement (when placed).
    pub metrics: Option<crate::netsim::StaticMetrics>,
}

/// What [`map`] gives: the machine's host count and names, and every case's placements.
pub struct Mapped {
    pub hosts: u32,
    /// A platform file's host names, in host order ([`host_names`]).
    pub host_names: Option<Vec<String>>,
    /// Case by case, strategy by strategy in the scenario's order.
    pub mappings: Vec<Mapping>,
}

/// A host as a user names it: its index, or its name on a platform file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HostRef {
    Index(u32),
    Name(String),
}

/// A host of [`map`]'s list that the machine does not have: its position in the list, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostError {
    pub entry: usize,
    pub message: String,
}

/// The host names of a machine read from a SimGrid platform file (kind `simgrid`), in host
/// order; other machines' hosts are numbered, and have none.
fn host_names(sys: &System, p: &Platform) -> Option<Vec<String>> {
    match (sys.kind, p.routed()) {
        (SystemKind::Simgrid, Some(r)) => Some(
            (0..p.hosts())
                .map(|h| r.description().host_name(h).to_string())
                .collect(),
        ),
        _ => None,
    }
}

/// The index of host `h` on a machine of `n` hosts named `names` (a platform file's), or why it
/// has none.
fn host_index(h: &HostRef, n: u32, names: Option<&[String]>) -> Result<usize, String> {
    match (h, names) {
        (HostRef::Index(i), _) if *i < n => Ok(*i as usize),
        (HostRef::Index(i), _) => Err(format!(
            "host {i} is not on the machine (hosts 0 to {})",
            n - 1
        )),
        (HostRef::Name(name), Some(all)) => all.iter().position(|x| x == name).ok_or_else(|| {
            format!("host '{name}' is not a host of the platform (nor a whole number >= 0)")
        }),
        (HostRef::Name(name), None) => Err(format!(
            "host '{name}' is not a whole number >= 0 (the machine's hosts are numbered 0 to {})",
            n - 1
        )),
    }
}

/// Every case's placement by every strategy, and its static metrics, without simulating
/// anything: what `placelab map` writes (Scotch's `gmap` counterpart). Each placement is the
/// one [`run`] reports, except Mapped (ours) with the objective `time`, which has no simulator
/// to judge its finalists here and takes the least predicted time ([`mapped::mapped`]).
///
/// With `hosts` the job may only take those hosts (the nodes a batch system gave it: every other
/// host counts as busy, experiment 2's background left out), each by its index or, on a
/// platform file, by its name.
///
/// # Errors
/// The first host of `hosts` that the machine does not have.
pub fn map(s: &PlaceScenario, seed: u64, hosts: Option<&[HostRef]>) -> Result<Mapped, HostError> {
    let mut m = Machine::of(s, seed);
    let names = host_names(&m.sys, &m.p);
    if let Some(free) = hosts {
        m.busy = vec![true; m.p.hosts() as usize];
        for (entry, h) in free.iter().enumerate() {
            let at = host_index(h, m.p.hosts(), names.as_deref())
                .map_err(|message| HostError { entry, message })?;
            m.busy[at] = false;
        }
    }
    let mut out = Vec::new();
    for (ci, c) in scenario::cases(s).iter().enumerate() {
        let (job, unit) = scenario::build_case(s, c).expect("validated job");
        for &st in &s.strategies {
            let placement = if st == StrategyId::Given {
                given(s.placement.as_deref().unwrap_or(&[]), &m.busy)
            } else {
                let opts = Machine::options(s, seed, unit);
                strategy::place(st, &m.shape, &m.p, &m.busy, &job, opts)
            };
            let metrics = match &placement {
                Placement::Placed(h) => Some(
                    static_metrics(&m.p, &round_flows(s, c, &job, h, unit)).expect("valid hosts"),
                ),
                Placement::NotPlaced(_) => None,
            };
            out.push(Mapping {
                case: ci,
                strategy: st,
                placement,
                metrics,
            });
        }
    }
    Ok(Mapped {
        hosts: m.p.hosts(),
        host_names: names,
        mappings: out,
    })
}

/// Runs a validated scenario, keeping the report's JSON within `cap` bytes.
pub fn run(s: &PlaceScenario, seed: u64, progress: &mut dyn Progress, cap: usize) -> PlaceReport {
    let Machine {
        sys,
        p,
        shape,
        bg,
        busy,
    } = Machine::of(s, seed);
    let quirks = s.source_quirks;
    let cases = scenario::cases(s);
    let rounds = s.job.rounds as u32;
    let units_per_run = 1000u64;
    let total = (cases.len() * s.strategies.len()) as u64 * units_per_run + 1;
    progress.tick(0, total);

    let experiment = if s.background.is_some() { 2 } else { 1 };

    let mut omitted = Omitted::default();
    let links = p.links() as usize;
    // linkBytes share what the cap leaves after 1 MiB for the rest and the host lists
    let host_bytes = (cases.len() * s.strategies.len()) * p.hosts() as usize * 6;
    let mut link_budget = cap.saturating_sub((1 << 20) + host_bytes + links * 16);
    // message end times (about 24 bytes each in JSON) share an eighth of the cap
    let mut ends_budget = (cap / 8).min(MAX_LISTED_MESSAGE_ENDS * 24);
    let mut sim_left = run_sim_budget(s);
    let mut case_reports = Vec::with_capacity(cases.len());
    let mut table: Vec<Vec<Option<f64>>> = Vec::new();
    let mut done = 0u64;
    for (ci, c) in cases.iter().enumerate() {
        let (job, unit) = scenario::build_case(s, c).expect("validated job");
        let g = &job.graph;
        let mut task_edges = Vec::new();
        'edges: for v in 0..g.n() {
            for &u in g.neighbors(v) {
                if v < u {
                    if task_edges.len() / 2 >= MAX_DRAWN_EDGES {
                        break 'edges;
                    }
                    task_edges.push(v);
                    task_edges.push(u);
                }
            }
        }
        omitted.task_edges += g.m() - task_edges.len() as u64 / 2;
        let mut runs = Vec::with_capacity(s.strategies.len());
        // each distinct placement of the case simulated once (Mapped's starts are the other
        // strategies' placements)
        let mut simulated: Vec<(Vec<u32>, Result<Simulated, String>)> = Vec::new();
        for (si, &st) in s.strategies.iter().enumerate() {
            progress.phase(st.id());
            let opts = Machine::options(s, seed, unit);
            // Mapped with the objective `time`: its finalists judged by this simulation
            let mut judged_time = None;
            let placement = if st == StrategyId::Mapped && s.objective == Objective::Time {
                let f = mapped::finalists(&shape, &p, &busy, &job, opts);
                let share = units_per_run / f.judged.len().max(1) as u64;
                let mut results = Vec::with_capacity(f.judged.len());
                for (k, &i) in f.judged.iter().enumerate() {
                    let mut sub = Span {
                        progress: &mut *progress,
                        base: done + k as u64 * share,
                        span: share,
                        total,
                    };
                    let h = &f.hosts[i];
                    let r = match simulated.iter().find(|x| x.0 == *h) {
                        Some(x) => x.1.clone(),
                        None => {
                            let r =
                                simulate(&p, &job, h, c, s, bg.as_ref(), &mut sim_left, &mut sub);
                            simulated.push((h.clone(), r.clone()));
                            r
                        }
                    };
                    results.push(r);
                }
                let times: Vec<Option<f64>> = results
                    .iter()
                    .map(|r| r.as_ref().ok().map(|x| x.time))
                    .collect();
                let pick = mapped::judge(&f, &times);
                judged_time = f
                    .judged
                    .iter()
                    .position(|&i| i == pick)
                    .map(|k| results.swap_remove(k));
                Placement::Placed(f.hosts[pick].clone())
            } else if st == StrategyId::Given {
                given(s.placement.as_deref().unwrap_or(&[]), &busy)
            } else {
                strategy::place(st, &shape, &p, &busy, &job, opts)
            };
            let source_ratio = report::source_ratio(
                experiment,
                sys.kind.id(),
                c.kind.id(),
                c.message_bytes,
                st.id(),
            );
            let mut run = RunReport {
                strategy: st.id(),
                label: st.label(),
                placed: false,
                reason: None,
                hosts: Vec::new(),
                time: None,
                ratio: None,
                source_ratio,
                hop_bytes: 0.0,
                dilation_max: 0,
                dilation_mean: 0.0,
                congestion: 0.0,
                edge_hops: Vec::new(),
                link_bytes: Vec::new(),
                message_ends: None,
                round_ends: None,
                batched_ends: 0,
            };
            match placement {
                Placement::NotPlaced(why) => run.reason = Some(why),
                Placement::Placed(hosts) => {
                    let flows = round_flows(s, c, &job, &hosts, unit);
                    let stat = static_metrics(&p, &flows).expect("valid hosts");
                    let mut sub = Span {
                        progress: &mut *progress,
                        base: done,
                        span: units_per_run,
                        total,
                    };
                    let time = match judged_time.take() {
                        Some(t) => t,
                        None => match simulated.iter().find(|x| x.0 == hosts) {
                            Some(x) => x.1.clone(),
                            None => {
                                let r = simulate(
                                    &p,
                                    &job,
                                    &hosts,
                                    c,
                                    s,
                                    bg.as_ref(),
                                    &mut sim_left,
                                    &mut sub,
                                );
                                simulated.push((hosts.clone(), r.clone()));
                                r
                            }
                        },
                    };
                    run.placed = true;
                    match time {
                        Ok(t) => {
                            run.time = Some(t.time);
                            run.batched_ends = t.batched_ends;
                            if c.kind == JobKind::Messages {
                                let round = t.time / f64::from(rounds);
                                run.round_ends =
                                    Some((1..=rounds).map(|k| round * f64::from(k)).collect());
                                let keep = t.message_ends.len().min(ends_budget / 24);
                                ends_budget -= keep * 24;
                                omitted.message_ends += (t.message_ends.len() - keep) as u64;
                                run.message_ends = Some(t.message_ends[..keep].to_vec());
                            }
                        }
                        Err(why) => run.reason = Some(why),
                    }
                    run.hop_bytes = stat.hop_bytes;
                    run.dilation_max = stat.max_hops;
                    run.dilation_mean = stat.mean_hops;
                    run.congestion = stat.congestion;
                    run.edge_hops = task_edges
                        .chunks(2)
                        .map(|e| p.hops(hosts[e[0] as usize], hosts[e[1] as usize]))
                        .collect();
                    let bytes = links * 12;
                    if bytes <= link_budget {
                        link_budget -= bytes;
                        run.link_bytes = stat.link_bytes;
                    } else {
                        omitted.link_bytes.push(format!("{ci}:{}", st.id()));
                    }
                    run.hosts = hosts;
                }
            }
            runs.push(run);
            done = ((ci * s.strategies.len() + si + 1) as u64) * units_per_run;
            progress.tick(done, total);
        }
        let adv = runs
            .iter()
            .find(|r| r.strategy == "advanced")
            .and_then(|r| r.time);
        for r in &mut runs {
            r.ratio = match (r.time, adv) {
                (Some(t), Some(a)) if a > 0.0 => Some(t / a),
                _ => None,
            };
        }
        table.push(runs.iter().map(|r| r.ratio).collect());
        case_reports.push(CaseReport {
            kind: c.kind.id(),
            processes: g.n(),
            edges: g.m(),
            message_bytes: unit,
            rounds,
            shape: job.shape,
            task_edges,
            runs,
        });
    }
    progress.phase("end");
    progress.tick(total, total);
    let averages = report::averages(
        &case_reports,
        &table,
        &s.strategies,
        experiment,
        sys.kind.id(),
    );

    let mut link_ends = Vec::with_capacity(links * 2);
    if p.routed().is_none() {
        for l in 0..p.links() {
            let i = p.link_info(l);
            link_ends.push(i.from);
            link_ends.push(i.to);
        }
    }
    let switch_level = (p.hosts()..p.vertices())
        .map(|v| p.tree_vertex(v).map_or(0, |(l, _)| l.saturating_sub(1)))
        .collect();
    let tree = p.tree_spec();
    PlaceReport {
        system: SystemInfo {
            kind: sys.kind.id(),
            hosts: p.hosts(),
            dims: match &shape {
                Shape::Grid { dims, .. } => Some(dims.to_vec()),
                Shape::Tree { .. } => None,
                Shape::Net { .. } => p.dims().map(<[u32]>::to_vec),
            },
            simgrid: match sys.kind {
                SystemKind::Dragonfly => s.system.simgrid.as_ref().map(|x| x.trim().to_string()),
                _ => tree.map(|t| t.to_simgrid_string()),
            },
            down: tree.map(|t| t.down.clone()),
            groups: match &shape {
                Shape::Net { down, .. } => Some(down.clone()),
                _ => None,
            },
            host_names: host_names(&sys, &p),
            bandwidth: s.system.bandwidth,
            latency: s.system.latency,
            speed: s.system.speed,
            links: p.links(),
            switches: p.vertices() - p.hosts(),
            link_ends,
            switch_level,
        },
        model: s.model.id(),
        source_quirks: quirks,
        end_tolerance: s.end_tolerance,
        strategies: s.strategies.iter().map(|s| s.id()).collect(),
        background: s
            .background
            .as_ref()
            .zip(bg.as_ref())
            .map(|(spec, b)| BackgroundInfo {
                fill: spec.fill,
                busy_hosts: b.busy.iter().filter(|&&x| x).count() as u32,
                jobs: b
                    .jobs
                    .iter()
                    .map(|(k, st, _, h)| BackgroundJob {
                        kind: k.id(),
                        strategy: st.id(),
                        hosts: h.clone(),
                    })
                    .collect(),
            }),
        cases: case_reports,
        table,
        averages,
        experiment,
        omitted,
    }
}

/// Keeps `NoProgress` reachable for library callers of [`run`].
pub fn run_quiet(s: &PlaceScenario, seed: u64) -> PlaceReport {
    run(s, seed, &mut NoProgress, report::REPORT_BYTE_CAP)
}
