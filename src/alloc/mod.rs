//! Engine 1, allocation: contention-free, minimum-diameter multi-job allocation on 2D meshes and
//! trees by closed minimum graph partitioning (Zhang & Lin), against sequential allocation.
//!
//! Pipeline: [`scenario`] (fields, limits, form) → [`policy`] (one file per policy) placing jobs
//! on a [`machine`] (occupancy, free-rectangle search in [`rect`]) → [`simulate`] (sets, FCFS and
//! EASY streams with [`easy`] reservations and backfilling, on the run's [`state`]) → [`metrics`]
//! (routes, diameter, closedness) → [`report`] (contention sweep, frames, the report).

pub mod easy;
pub mod estimate;
pub mod generate;
pub mod machine;
pub mod metrics;
pub mod npb;
pub mod policy;
pub mod rect;
pub mod report;
pub mod runtime;
pub mod samples;
pub mod scenario;
pub mod simulate;
pub mod state;

use crate::engine::Engine;
use crate::error::Result;
use crate::params::Param;
use crate::progress::Progress;
use crate::rng::Rng;
use crate::scenario::Meta;
use crate::topology::Topology;
pub use report::REPORT_BYTE_CAP;
use report::{AllocReport, TopologyInfo};
use scenario::{AllocScenario, Job, WorkloadKind};
use simulate::Mode;

/// The allocation engine.
pub struct Allocation;

impl Engine for Allocation {
    const ID: &'static str = "allocation";
    const TITLE: &'static str = "Allocation: closed minimum graph partitioning";
    type Scenario = AllocScenario;
    type Report = AllocReport;

    fn params() -> Vec<Param> {
        scenario::params()
    }

    /// Every field and rule ([`scenario::validate_fields`]), then admission ([`estimate::admit`]).
    fn validate(s: &AllocScenario) -> Result<()> {
        let topo = scenario::validate_fields(s)?;
        estimate::admit(s, &topo)
    }

    fn estimate(s: &AllocScenario) -> Result<crate::engine::Estimate> {
        estimate::engine_estimate(s)
    }

    fn run(s: &AllocScenario, meta: &Meta, progress: &mut dyn Progress) -> AllocReport {
        run_capped(s, meta.seed, progress, meta.report_budget(REPORT_BYTE_CAP))
    }

    fn sample_scenarios() -> Vec<String> {
        samples::sample_scenarios()
    }
}

/// The jobs of a validated scenario (generated ones drawn from `seed`).
pub fn jobs_of(s: &AllocScenario, seed: u64) -> Vec<Job> {
    let cores = s.system.cores_per_node;
    match s.workload.kind {
        WorkloadKind::Generated => {
            let mut rng = Rng::seeded(seed ^ 0x9e37_79b9_7f4a_7c15);
            generate::generate(&s.workload, cores, &mut rng)
        }
        WorkloadKind::Swf => {
            let log = s.workload.swf_log().expect("validated");
            s.workload
                .swf_jobs(&log)
                .iter()
                .map(|j| Job {
                    name: format!("swf{}", j.id),
                    tasks: j.processors,
                    nodes: j.processors.div_ceil(cores as u64) as usize,
                    comm: metrics::Comm::All,
                    arrival: j.arrival,
                    duration: j.run_time,
                    walltime: j.walltime,
                    ids: Some(report::LogIds {
                        user: j.user,
                        queue: j.queue,
                        partition: j.partition,
                    }),
                })
                .collect()
        }
        _ => s
            .workload
            .jobs
            .iter()
            .enumerate()
            .map(|(i, j)| Job {
                name: if j.name.is_empty() {
                    format!("job{i}")
                } else {
                    j.name.clone()
                },
                tasks: j.tasks,
                nodes: j.tasks.div_ceil(cores as u64) as usize,
                comm: j.comm,
                arrival: j.arrival.unwrap_or(0.0),
                duration: j.duration.unwrap_or(0.0),
                walltime: j.walltime.or(j.duration).unwrap_or(0.0),
                ids: None,
            })
            .collect(),
    }
}

/// Of the cap, the bytes all runs' frames may take together.
pub const FRAME_BYTES: usize = 16 << 20;
/// Of the cap, the bytes kept for everything but rows and frames (topology, summaries, names).
const FIXED_BYTES: usize = 256 << 10;

/// Maps a phase's own progress (a fraction) onto the whole run's units.
struct Ticker<'a> {
    progress: &'a mut dyn Progress,
    total: u64,
}

impl Ticker<'_> {
    fn at(&mut self, base: u64, span: u64, fraction: f64) {
        let done = base + (span as f64 * fraction.clamp(0.0, 1.0)) as u64;
        self.progress.tick(done.min(self.total), self.total);
    }
}

/// Adapts the simulation's `(jobs done, jobs)` ticks to a phase of the whole run.
struct SimProgress<'a, 'b> {
    ticker: &'a mut Ticker<'b>,
    base: u64,
    span: u64,
}

impl Progress for SimProgress<'_, '_> {
    fn tick(&mut self, done: u64, total: u64) {
        let f = if total == 0 {
            1.0
        } else {
            done as f64 / total as f64
        };
        self.ticker.at(self.base, self.span, f);
    }
}

/// Progress units of each policy's run, `(simulation, report)`, in the order of the policies:
/// the estimated steps of each phase (see [`estimate`]) plus one unit per job, so the bar moves
/// in proportion to the work (the simulation's placement searches and footprints; the sweep's
/// footprints and the rows). The run ticks through each phase in turn and ends at the sum.
pub fn progress_phases(s: &AllocScenario, topo: &Topology, jobs: usize) -> Vec<(u64, u64)> {
    let est = estimate::estimate(s, topo, &estimate::sizes_of(s));
    let n = jobs as f64;
    let w = estimate::ROUTE_STEP_WEIGHT;
    est.policies
        .iter()
        .map(|p| {
            (
                (p.search_steps + w * p.sim_route_steps + n).ceil() as u64,
                (w * (p.route_steps - p.sim_route_steps) + 4.0 * n).ceil() as u64,
            )
        })
        .collect()
}

/// Runs every policy of a validated scenario within the report cap.
pub fn run(s: &AllocScenario, seed: u64, progress: &mut dyn Progress) -> AllocReport {
    run_capped(s, seed, progress, REPORT_BYTE_CAP)
}

/// Runs every policy, keeping the report's JSON within `cap` bytes.
pub fn run_capped(
    s: &AllocScenario,
    seed: u64,
    progress: &mut dyn Progress,
    cap: usize,
) -> AllocReport {
    let topo = s.machine().expect("validated");
    let jobs = jobs_of(s, seed);
    let mode = match s.workload.kind {
        WorkloadKind::Set => Mode::Set,
        _ => Mode::Stream(simulate::Sched {
            backfill: s.workload.backfill,
            depth: s.workload.backfill_depth(),
        }),
    };
    let runs_n = s.policies.len().max(1);
    let rows = cap.saturating_sub(FRAME_BYTES + FIXED_BYTES) / runs_n;
    let budget = report::ReportBudget {
        // the contention model adds about a third to a job row
        row_bytes: if s.contention.is_some() {
            rows / 3 * 2
        } else {
            rows
        },
        frame_bytes: FRAME_BYTES / runs_n,
    };
    let contention = contention_setup(s, &topo, &jobs);
    let phases = progress_phases(s, &topo, jobs.len());
    let total: u64 = phases.iter().map(|p| p.0 + p.1).sum::<u64>().max(1);
    let mut ticker = Ticker { progress, total };
    let mut base = 0u64;
    let mut runs = Vec::with_capacity(s.policies.len());
    for (k, &policy) in s.policies.iter().enumerate() {
        // every policy gets the same stream of random numbers
        let rng = Rng::seeded(seed);
        let mut placer = policy::Placer::new(policy, s.fallback, &topo, rng);
        if matches!(s.workload.kind, WorkloadKind::Set | WorkloadKind::Stream) {
            // listed jobs keep their order (job id = index in the list)
            placer.switches = s
                .workload
                .jobs
                .iter()
                .map(|j| {
                    j.switches.map(|k| {
                        (
                            k,
                            j.switches_wait.unwrap_or_else(scenario::d::switches_wait),
                        )
                    })
                })
                .collect();
        }
        let (sim_units, report_units) = phases[k];
        let state = contention.as_ref().map(|c| {
            runtime::State::new(
                runtime::Network {
                    platform: c.network.platform.clone(),
                    host_of: c.network.host_of.clone(),
                },
                c.model,
                c.rates.clone(),
                s.system.cores_per_node,
                runtime::BUDGET / runs_n as u64,
            )
        });
        let mut res = simulate::simulate_with(
            &topo,
            s.system.cores_per_node,
            &jobs,
            placer,
            mode,
            &mut SimProgress {
                ticker: &mut ticker,
                base,
                span: sim_units,
            },
            0,
            jobs.len() as u64,
            state,
        );
        base += sim_units;
        ticker.at(base, 0, 0.0);
        let report_base = base;
        let state = res.runtime.take();
        // with the model on, a job's run time is its stretched `end - start`
        let stretched: Vec<Job>;
        let report_jobs = if state.is_some() {
            stretched = jobs
                .iter()
                .zip(&res.outcomes)
                .map(|(j, o)| match (o.start, o.end) {
                    (Some(a), Some(b)) => Job {
                        duration: b - a,
                        ..j.clone()
                    },
                    _ => j.clone(),
                })
                .collect();
            &stretched
        } else {
            &jobs
        };
        let times: Vec<(Option<f64>, Option<f64>)> =
            res.outcomes.iter().map(|o| (o.start, o.end)).collect();
        let mut run = report::report(
            &topo,
            report_jobs,
            policy,
            res,
            mode,
            s.frames,
            s.slowdown_bound,
            budget,
            &mut |f| ticker.at(report_base, report_units, f),
        );
        if let (Some(mut st), Some(c)) = (state, contention.as_ref()) {
            attach_contention(&mut run, &mut st, &jobs, &times, &c.kernels);
        }
        runs.push(run);
        base += report_units;
    }
    ticker.at(total, 0, 0.0);
    AllocReport {
        topology: topology_info(&topo, s.system.cores_per_node),
        workload: if mode == Mode::Set { "set" } else { "stream" },
        fallback: s.fallback.id(),
        runs,
        contention: contention.map(|c| c.info),
        log: log_info(s),
    }
}

/// What the report says of an imported log.
fn log_info(s: &AllocScenario) -> Option<report::LogInfo> {
    if s.workload.kind != WorkloadKind::Swf {
        return None;
    }
    let log = s.workload.swf_log().expect("validated");
    let replayed = s.workload.swf_jobs(&log).len();
    Some(report::LogInfo {
        file: s.workload.swf_file.clone(),
        digest: log.digest.clone(),
        replayed,
        kept_not_replayed: (log.jobs.len() - replayed) as u64 + log.beyond,
        skipped: log.skipped,
        computer: log.header.computer.clone(),
        max_nodes: log.header.max_nodes,
        max_procs: log.header.max_procs,
    })
}

/// The contention model's inputs, shared by every policy's run.
struct ContentionSetup {
    network: runtime::Network,
    model: crate::netsim::Model,
    /// Per job: bytes per second per process.
    rates: Vec<f64>,
    /// Per job: its NPB profile, if any.
    kernels: Vec<Option<&'static npb::Profile>>,
    info: report::ContentionInfo,
}

fn contention_setup(s: &AllocScenario, topo: &Topology, jobs: &[Job]) -> Option<ContentionSetup> {
    let c = s.contention.as_ref()?;
    let model = crate::netsim::Model::from_id(&c.model).expect("validated");
    let network = runtime::network(topo, c).expect("validated");
    let listed = matches!(s.workload.kind, WorkloadKind::Set | WorkloadKind::Stream);
    let kernels: Vec<Option<&'static npb::Profile>> = (0..jobs.len())
        .map(|i| {
            if listed {
                s.workload.jobs[i].kernel.as_deref().and_then(npb::profile)
            } else {
                None
            }
        })
        .collect();
    let rates = kernels
        .iter()
        .map(|k| k.map_or(c.other_rate, |p| p.bytes_per_second))
        .collect();
    let profiles = npb::PROFILES
        .iter()
        .filter(|p| kernels.iter().any(|k| k.is_some_and(|k| k == *p)))
        .map(|p| report::ProfileRow {
            kernel: p.kernel,
            class: p.class.to_string(),
            processes: p.processes,
            comm: p.comm.id(),
            bytes_per_second: p.bytes_per_second,
            paper_baseline: p.paper_baseline,
        })
        .collect();
    let platform = c.simgrid.as_ref().map(|_| report::ContentionPlatform {
        hosts: network.platform.hosts(),
        links: network.platform.links(),
        node_hosts: network.host_of.clone(),
    });
    let own = platform.is_none();
    Some(ContentionSetup {
        network,
        model,
        rates,
        kernels,
        info: report::ContentionInfo {
            model: model.id(),
            bandwidth: own.then_some(c.bandwidth),
            latency: own.then_some(c.latency),
            platform,
            other_rate: c.other_rate,
            window: runtime::WINDOW,
            budget: runtime::BUDGET / s.policies.len().max(1) as u64,
            max_flows: runtime::MAX_SIM_FLOWS,
            profiles,
        },
    })
}

/// Fills a run's report with the contention model's account: per job (listed rows), per NPB
/// kernel, class and size (jobs that ran), and the model's work.
fn attach_contention(
    run: &mut report::RunReport,
    st: &mut runtime::State,
    jobs: &[Job],
    times: &[(Option<f64>, Option<f64>)],
    kernels: &[Option<&'static npb::Profile>],
) {
    for (j, &(a, b)) in times.iter().enumerate() {
        if let (Some(a), Some(b)) = (a, b) {
            st.finish(j as u32, a, b);
        }
    }
    let run_time = |j: usize| match times[j] {
        (Some(a), Some(b)) => Some(b - a),
        _ => None,
    };
    for row in &mut run.jobs {
        let k = row.id;
        let stats = st.stats[k];
        let rt = run_time(k);
        row.contention = Some(report::JobContention {
            simulated: stats.simulated,
            flows: stats.flows,
            alone: stats.alone,
            comm_fraction: stats.comm_fraction,
            mean_slowdown: stats.mean_slowdown,
            max_slowdown: stats.max_slowdown,
            run_time: rt,
            stretch: rt.map(|r| r / jobs[k].duration),
        });
    }
    // (profile index, tasks) -> jobs that ran, in the profiles' order, then by size
    let mut groups: std::collections::BTreeMap<(usize, u64), Vec<usize>> = Default::default();
    for (j, k) in kernels.iter().enumerate() {
        if let (Some(p), Some(_)) = (k, run_time(j)) {
            let idx = npb::PROFILES.iter().position(|q| q == *p).unwrap_or(0);
            groups.entry((idx, jobs[j].tasks)).or_default().push(j);
        }
    }
    let kernels = groups
        .into_iter()
        .map(|((idx, tasks), js)| {
            let p = &npb::PROFILES[idx];
            let n = js.len() as f64;
            let mean = |f: &dyn Fn(usize) -> f64| js.iter().map(|&j| f(j)).sum::<f64>() / n;
            let baseline = mean(&|j| jobs[j].duration);
            let rt = mean(&|j| run_time(j).unwrap_or(0.0));
            report::KernelRow {
                kernel: p.kernel,
                class: p.class.to_string(),
                tasks,
                jobs: js.len(),
                baseline,
                run_time: rt,
                stretch: rt / baseline,
                comm_fraction: mean(&|j| st.stats[j].comm_fraction),
                mean_slowdown: mean(&|j| st.stats[j].mean_slowdown),
                max_slowdown: js
                    .iter()
                    .map(|&j| st.stats[j].max_slowdown)
                    .fold(1.0, f64::max),
            }
        })
        .collect();
    run.contention = Some(report::RunContention {
        simulations: st.simulations,
        work: st.work,
        stopped_at: st.stopped_at,
        unsimulated_jobs: times
            .iter()
            .enumerate()
            .filter(|(j, t)| t.0.is_some() && !st.stats[*j].simulated)
            .count(),
        kernels,
    });
}

fn topology_info(topo: &Topology, cores: usize) -> TopologyInfo {
    match topo {
        Topology::Mesh(m) => TopologyInfo {
            kind: "mesh",
            width: Some(m.width),
            height: Some(m.height),
            arities: None,
            level_sizes: None,
            switches: None,
            node_names: None,
            cores_per_node: cores,
            nodes: m.nodes(),
            routers: m.nodes(),
            links: m.links(),
        },
        Topology::Tree(t) => TopologyInfo {
            kind: "tree",
            width: None,
            height: None,
            arities: t.arities().map(<[usize]>::to_vec),
            level_sizes: Some((0..t.levels()).map(|l| t.level_size(l)).collect()),
            switches: t.names().map(|names| {
                (0..t.routers())
                    .map(|u| {
                        let (first_node, node_count) = t.leaf_range(u);
                        report::SwitchInfo {
                            name: names.switches[u].clone(),
                            parent: if u == 0 { 0 } else { t.parent(u) },
                            level: t.level_of(u).0,
                            first_node,
                            node_count,
                        }
                    })
                    .collect()
            }),
            node_names: t.names().map(|n| n.nodes.clone()),
            cores_per_node: cores,
            nodes: t.nodes(),
            routers: t.routers(),
            links: t.links(),
        },
    }
}
