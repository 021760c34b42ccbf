//! Engine 1, allocation: contention-free, minimum-diameter multi-job allocation on 2D meshes and
//! trees by closed minimum graph partitioning (Zhang & Lin), against sequential allocation.
//!
//! Pipeline: [`scenario`] (fields, limits, form) → [`policy`] (one file per policy) placing jobs
//! on a [`machine`] (occupancy, free-rectangle search in [`rect`]) → [`simulate`] (sets, FCFS and
//! EASY streams with [`easy`] reservations, contention sweep) → [`metrics`] (routes, diameter, closedness) → [`report`].

pub mod easy;
pub mod generate;
pub mod machine;
pub mod metrics;
pub mod policy;
pub mod rect;
pub mod report;
pub mod samples;
pub mod scenario;
pub mod simulate;

use crate::engines::Engine;
use crate::error::Result;
use crate::params::Param;
use crate::progress::Progress;
use crate::rng::Rng;
use crate::scenario::Meta;
use crate::topology::Topology;
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

    fn validate(s: &AllocScenario) -> Result<()> {
        scenario::validate(s)
    }

    fn run(s: &AllocScenario, meta: &Meta, progress: &mut dyn Progress) -> AllocReport {
        run(s, meta.seed, progress)
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
            let log = crate::formats::swf::parse(
                s.workload.swf.as_deref().unwrap_or(""),
                s.workload.max_jobs.unwrap_or(scenario::MAX_JOBS),
            )
            .expect("validated");
            log.jobs
                .iter()
                .map(|j| Job {
                    name: format!("swf{}", j.id),
                    tasks: j.processors,
                    nodes: j.processors.div_ceil(cores as u64) as usize,
                    comm: scenario::Comm::All,
                    arrival: j.arrival,
                    duration: j.run_time,
                    walltime: j.walltime,
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
            })
            .collect(),
    }
}

/// Runs every policy of a validated scenario.
pub fn run(s: &AllocScenario, seed: u64, progress: &mut dyn Progress) -> AllocReport {
    let topo = s.system.build().expect("validated");
    let jobs = jobs_of(s, seed);
    let mode = match s.workload.kind {
        WorkloadKind::Set => Mode::Set,
        _ => Mode::Stream(simulate::Sched {
            backfill: s.workload.backfill,
            depth: s.workload.backfill_depth(),
        }),
    };
    let total = (jobs.len() * s.policies.len()) as u64;
    let mut runs = Vec::with_capacity(s.policies.len());
    for (k, &policy) in s.policies.iter().enumerate() {
        // every policy gets the same stream of random numbers
        let rng = Rng::seeded(seed);
        let placer = policy::Placer::new(policy, s.fallback, &topo, rng);
        let base = (k * jobs.len()) as u64;
        let res = simulate::simulate(
            &topo,
            s.system.cores_per_node,
            &jobs,
            placer,
            mode,
            progress,
            base,
            total,
        );
        runs.push(simulate::report(
            &topo,
            &jobs,
            policy,
            res,
            mode,
            s.frames,
            s.slowdown_bound,
        ));
    }
    progress.tick(total, total);
    AllocReport {
        topology: topology_info(&topo, s.system.cores_per_node),
        workload: if mode == Mode::Set { "set" } else { "stream" },
        fallback: s.fallback.id(),
        runs,
    }
}

fn topology_info(topo: &Topology, cores: usize) -> TopologyInfo {
    match topo {
        Topology::Mesh(m) => TopologyInfo {
            kind: "mesh",
            width: Some(m.width),
            height: Some(m.height),
            arities: None,
            level_sizes: None,
            cores_per_node: cores,
            nodes: m.nodes(),
            routers: m.nodes(),
            links: m.links(),
        },
        Topology::Tree(t) => TopologyInfo {
            kind: "tree",
            width: None,
            height: None,
            arities: Some(t.arities().to_vec()),
            level_sizes: Some((0..t.levels()).map(|l| t.level_size(l)).collect()),
            cores_per_node: cores,
            nodes: t.nodes(),
            routers: t.routers(),
            links: t.links(),
        },
    }
}
