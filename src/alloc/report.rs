//! The allocation report (see `docs/format.md`).

use serde::Serialize;

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AllocReport {
    pub topology: TopologyInfo,
    pub workload: &'static str,
    pub fallback: &'static str,
    pub runs: Vec<RunReport>,
    /// The run-time-under-contention model's parameters (only with the `contention` option).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contention: Option<ContentionInfo>,
}

/// The contention model's parameters and the NPB profiles the workload uses.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ContentionInfo {
    pub model: &'static str,
    pub bandwidth: f64,
    pub latency: f64,
    pub other_rate: f64,
    pub window: f64,
    pub budget: u64,
    pub max_flows: u64,
    pub profiles: Vec<ProfileRow>,
}

/// One NPB kernel and class ([`super::npb::Profile`]).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ProfileRow {
    pub kernel: &'static str,
    pub class: String,
    pub processes: u64,
    pub comm: &'static str,
    pub bytes_per_second: f64,
    pub paper_baseline: f64,
}

/// What the contention model did in one policy's run.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RunContention {
    pub simulations: u64,
    pub work: u64,
    pub stopped_at: Option<f64>,
    pub unsimulated_jobs: usize,
    pub kernels: Vec<KernelRow>,
}

/// Run times of the jobs of one NPB kernel, class and size in one run.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct KernelRow {
    pub kernel: &'static str,
    pub class: String,
    pub tasks: u64,
    pub jobs: usize,
    pub baseline: f64,
    pub run_time: f64,
    pub stretch: f64,
    pub comm_fraction: f64,
    pub mean_slowdown: f64,
    pub max_slowdown: f64,
}

/// One job under the contention model.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JobContention {
    pub simulated: bool,
    pub flows: usize,
    pub alone: f64,
    pub comm_fraction: f64,
    pub mean_slowdown: f64,
    pub max_slowdown: f64,
    pub run_time: Option<f64>,
    pub stretch: Option<f64>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TopologyInfo {
    pub kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub width: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub height: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub arities: Option<Vec<usize>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level_sizes: Option<Vec<usize>>,
    pub cores_per_node: usize,
    pub nodes: usize,
    pub routers: usize,
    pub links: usize,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RunReport {
    pub policy: &'static str,
    pub label: &'static str,
    pub jobs: Vec<JobReport>,
    pub summary: Summary,
    pub frames: Vec<Frame>,
    /// What was left out to keep the report within its byte cap (counts are always complete).
    pub omitted: Omitted,
    /// The contention model's account of the run (only with the `contention` option).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contention: Option<RunContention>,
    /// Work counters of the run (not serialized: they are for the bounds tests and benchmarks).
    #[serde(skip)]
    pub work: super::simulate::Work,
}

/// What a run's report leaves out to stay within [`super::REPORT_BYTE_CAP`].
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Omitted {
    /// Per-job rows left out: the run lists the first `jobs.len()` jobs in input order and
    /// omits the next `jobRows` (the summary still counts every job).
    pub job_rows: usize,
    /// Requested frames left out (the kept ones stay evenly spaced).
    pub frames: usize,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JobReport {
    pub id: usize,
    pub name: String,
    pub tasks: u64,
    pub nodes: usize,
    pub node_ranges: Vec<[u32; 2]>,
    pub placed: bool,
    pub fallback: Option<&'static str>,
    pub owned_idle: usize,
    pub diameter: usize,
    pub mean_hops: f64,
    pub closed: bool,
    pub routers: usize,
    pub links: usize,
    pub shared_router_count: usize,
    pub shared_link_count: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub arrival: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start: Option<Option<f64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end: Option<Option<f64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wait: Option<Option<f64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bounded_slowdown: Option<Option<f64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contention: Option<JobContention>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    pub placed: usize,
    pub unplaced: usize,
    pub decisions: u64,
    pub utilization: f64,
    pub fragmentation: Option<f64>,
    pub contended_jobs: usize,
    pub shared_routers: usize,
    pub shared_links: usize,
    pub mean_diameter: f64,
    pub mean_hops: f64,
    pub owned_idle: usize,
    pub closed_jobs: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub makespan: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mean_wait: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_wait: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mean_bounded_slowdown: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fragmentation_blocks: Option<usize>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Frame {
    pub time: f64,
    pub running: Vec<u32>,
    pub busy_nodes: usize,
    pub contended_routers: Vec<u32>,
    pub contended_links: Vec<u32>,
}

/// Ascending ids as `[first, count]` runs.
pub fn ranges(sorted: &[u32]) -> Vec<[u32; 2]> {
    let mut out: Vec<[u32; 2]> = Vec::new();
    for &v in sorted {
        match out.last_mut() {
            Some(r) if r[0] + r[1] == v => r[1] += 1,
            _ => out.push([v, 1]),
        }
    }
    out
}
