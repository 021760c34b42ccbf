//! The placement report (see `docs/format.md`, "Placement report"): the system, the
//! background jobs, and for each case (job kind x message size) each strategy's nodes, static
//! metrics, simulated time and ratio to Advanced, beside the source's ratio for the same cell of
//! its tables.

use serde::Serialize;

/// Most bytes of a report (the JSON envelope included): 32 MiB, as the other engines'.
pub const REPORT_BYTE_CAP: usize = 32 << 20;
/// Most task-graph edges listed per case for the drawing (`omitted` counts the rest).
pub const MAX_DRAWN_EDGES: usize = 50_000;

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlaceReport {
    pub system: SystemInfo,
    pub model: &'static str,
    pub source_quirks: bool,
    /// A message with at most this share of its bytes left ends with an earlier end (absent
    /// when 0: exact).
    #[serde(skip_serializing_if = "is_zero_f64")]
    pub end_tolerance: f64,
    pub strategies: Vec<&'static str>,
    /// Experiment 2's jobs, placed before the control job (`null` for experiment 1).
    pub background: Option<BackgroundInfo>,
    pub cases: Vec<CaseReport>,
    /// Cells `[case][strategy]`: time / Advanced's time in that case.
    pub table: Vec<Vec<Option<f64>>>,
    /// The source's table: per job kind and message size, the mean over the cases (job sizes)
    /// of each strategy's ratio, beside the source's figure.
    pub averages: Vec<AverageRow>,
    /// The experiment the source figures come from (1 empty cluster, 2 pre-filled).
    pub experiment: u32,
    pub omitted: Omitted,
}

/// One row of the averaged ratio table.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AverageRow {
    pub kind: &'static str,
    pub message_bytes: f64,
    /// Cases averaged (job sizes).
    pub cases: u32,
    /// Mean ratio per strategy (in `strategies` order), `null` when no case has one.
    pub ratios: Vec<Option<f64>>,
    /// The source's ratio per strategy, `null` where its tables have none.
    pub source: Vec<Option<f64>>,
}

/// Groups the cases by (kind, message size), in first-seen order, and averages each strategy's
/// ratio over the cases that have one.
pub fn averages(
    cases: &[CaseReport],
    table: &[Vec<Option<f64>>],
    strategies: &[super::strategy::StrategyId],
    experiment: u32,
    system: &str,
) -> Vec<AverageRow> {
    let mut rows: Vec<(AverageRow, Vec<(f64, u32)>)> = Vec::new();
    for (c, t) in cases.iter().zip(table) {
        let i = match rows
            .iter()
            .position(|(r, _)| r.kind == c.kind && r.message_bytes == c.message_bytes)
        {
            Some(i) => i,
            None => {
                rows.push((
                    AverageRow {
                        kind: c.kind,
                        message_bytes: c.message_bytes,
                        cases: 0,
                        ratios: Vec::new(),
                        source: strategies
                            .iter()
                            .map(|s| {
                                source_ratio(experiment, system, c.kind, c.message_bytes, s.id())
                            })
                            .collect(),
                    },
                    vec![(0.0, 0); strategies.len()],
                ));
                rows.len() - 1
            }
        };
        rows[i].0.cases += 1;
        for (acc, r) in rows[i].1.iter_mut().zip(t) {
            if let Some(r) = r {
                acc.0 += r;
                acc.1 += 1;
            }
        }
    }
    rows.into_iter()
        .map(|(mut r, acc)| {
            r.ratios = acc
                .iter()
                .map(|&(s, n)| (n > 0).then(|| s / f64::from(n)))
                .collect();
            r
        })
        .collect()
}

/// The machine.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SystemInfo {
    pub kind: &'static str,
    pub hosts: u32,
    /// Sides `[x, y, z]` of a torus or mesh (`z = 1` in 2D); every side of a torus of kind
    /// `torus`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dims: Option<Vec<u32>>,
    /// SimGrid's `FAT_TREE` parameters of a tree, its `DRAGONFLY` parameters of a dragonfly.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub simgrid: Option<String>,
    /// Children of a switch per level, leaf switches first (trees).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub down: Option<Vec<u32>>,
    /// A network seen through its routes (kinds `torus`, `dragonfly`, `simgrid`): its groups of
    /// consecutive hosts, the lowest first (a dragonfly's nodes per router, routers per chassis,
    /// chassis per group, groups; a torus's sides; a file's one group of every host).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub groups: Option<Vec<u32>>,
    /// A platform file's host names, in host order.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub host_names: Option<Vec<String>>,
    pub bandwidth: f64,
    pub latency: f64,
    pub speed: f64,
    /// Directed links of the platform.
    pub links: u32,
    /// Switches (trees), 0 on tori and meshes.
    pub switches: u32,
    /// Link endpoints `a0, b0, a1, b1, ...` (vertex `< hosts` a host, else switch
    /// `vertex - hosts`), in link order, for the heat map; empty for a dragonfly or a platform
    /// file (their routers are not drawn).
    pub link_ends: Vec<u32>,
    /// Level of each switch (0 = leaf switches), for drawing trees by levels.
    pub switch_level: Vec<u32>,
}

/// The background jobs of experiment 2.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BackgroundInfo {
    pub fill: f64,
    pub busy_hosts: u32,
    pub jobs: Vec<BackgroundJob>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BackgroundJob {
    pub kind: &'static str,
    pub strategy: &'static str,
    pub hosts: Vec<u32>,
}

/// One control job (a kind and message size).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CaseReport {
    pub kind: &'static str,
    pub processes: u32,
    pub edges: u64,
    pub message_bytes: f64,
    pub rounds: u32,
    /// GRID/CUBE sides.
    pub shape: Option<[u32; 3]>,
    /// Task-graph edges `u0, v0, u1, v1, ...` (`u < v`), the first [`MAX_DRAWN_EDGES`].
    pub task_edges: Vec<u32>,
    pub runs: Vec<RunReport>,
}

/// One strategy's placement of one case.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RunReport {
    pub strategy: &'static str,
    pub label: &'static str,
    pub placed: bool,
    /// Why the job was not placed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Host of each task.
    pub hosts: Vec<u32>,
    /// Simulated completion time of the job's rounds (s).
    pub time: Option<f64>,
    /// `time / Advanced's time` in the same case.
    pub ratio: Option<f64>,
    /// The source's ratio for this cell.
    pub source_ratio: Option<f64>,
    /// Sum over messages of one round of bytes x hops.
    pub hop_bytes: f64,
    /// Longest route of a task-graph edge (hops).
    pub dilation_max: u32,
    /// Mean route length over task-graph edges (hops).
    pub dilation_mean: f64,
    /// Most bytes crossing one directed link in one round.
    pub congestion: f64,
    /// Hops of each listed task edge (same order as `taskEdges`).
    pub edge_hops: Vec<u32>,
    /// Bytes crossing each directed link in one round (control job only).
    pub link_bytes: Vec<f64>,
    /// A `messages` job: when each message of the first round ended (s from the job's start),
    /// in message order, the first ones only (`omitted.messageEnds`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message_ends: Option<Vec<f64>>,
    /// A `messages` job: when each round ended (s from the job's start).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub round_ends: Option<Vec<f64>>,
    /// Messages that ended early, with an earlier end (`endTolerance`; absent when none).
    #[serde(skip_serializing_if = "is_zero")]
    pub batched_ends: u64,
}

fn is_zero_f64(x: &f64) -> bool {
    *x == 0.0
}

/// What the report leaves out to stay within [`REPORT_BYTE_CAP`].
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Omitted {
    /// Task-graph edges not listed in `taskEdges`, summed over cases.
    pub task_edges: u64,
    /// Runs whose `linkBytes` were dropped (`case:strategy`).
    pub link_bytes: Vec<String>,
    /// Message end times not listed in `messageEnds`, summed over runs.
    #[serde(skip_serializing_if = "is_zero")]
    pub message_ends: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// The source's average ratios (strategy time / Advanced time), Zhdanov & Korkhov's two
/// tables: `[experiment 1|2][system][job][size][strategy]` with systems torus2d, torus3d,
/// fatTree, thinTree; jobs STAR, GRID, CUBE, TREE; sizes 1 B, 1 MB; strategies Simple, Optimal,
/// Random.
const SOURCE: [[[[[f64; 3]; 2]; 4]; 4]; 2] = [
    [
        [
            [[1.423, 1.004, 3.302], [1.109, 0.984, 1.59]],
            [[3.341, 2.633, 6.002], [1.748, 1.501, 2.191]],
            [[2.298, 1.792, 5.314], [1.573, 1.284, 1.963]],
            [[2.567, 1.891, 4.731], [2.681, 1.79, 1.654]],
        ],
        [
            [[1.182, 1.012, 2.005], [1.033, 0.989, 1.21]],
            [[2.148, 1.986, 3.334], [1.268, 1.206, 1.391]],
            [[1.764, 1.546, 2.871], [1.211, 1.141, 1.328]],
            [[1.868, 1.738, 2.661], [1.887, 1.678, 1.363]],
        ],
        [
            [[0.974, 0.974, 1.472], [0.99, 0.99, 1.131]],
            [[1.76, 1.206, 2.623], [1.169, 1.031, 1.293]],
            [[1.406, 1.016, 2.161], [1.098, 0.982, 1.233]],
            [[1.26, 1.206, 1.927], [1.532, 1.393, 1.325]],
        ],
        [
            [[0.974, 0.974, 1.472], [0.99, 0.99, 1.131]],
            [[1.756, 1.212, 2.641], [1.242, 1.011, 1.359]],
            [[1.426, 1.020, 2.169], [1.252, 0.974, 1.359]],
            [[1.235, 1.210, 1.878], [3.877, 4.482, 2.216]],
        ],
    ],
    [
        [
            [[1.411, 1.013, 2.252], [1.245, 1.016, 1.636]],
            [[2.422, 1.484, 4.375], [1.656, 1.378, 2.119]],
            [[2.161, 1.31, 3.819], [1.512, 1.122, 2.119]],
            [[2.486, 1.907, 3.602], [2.869, 1.98, 1.664]],
        ],
        [
            [[1.142, 0.968, 1.562], [1.069, 1.032, 1.206]],
            [[1.771, 1.467, 2.730], [1.239, 1.156, 1.334]],
            [[1.744, 1.44, 2.499], [1.199, 1.09, 1.277]],
            [[1.768, 1.55, 2.14], [1.923, 1.755, 1.402]],
        ],
        [
            [[0.921, 0.848, 1.153], [0.966, 0.929, 1.048]],
            [[1.54, 1.088, 2.081], [1.162, 1.017, 1.246]],
            [[1.365, 1.025, 1.921], [1.110, 0.991, 1.197]],
            [[1.391, 1.290, 1.72], [1.442, 1.384, 1.23]],
        ],
        [
            [[0.912, 0.848, 1.153], [0.969, 0.929, 1.048]],
            [[1.521, 1.089, 2.083], [1.137, 1.033, 1.295]],
            [[1.37, 1.023, 1.922], [1.176, 0.981, 1.22]],
            [[1.42, 1.306, 1.714], [2.291, 2.862, 1.47]],
        ],
    ],
];

/// The source's ratio for a cell, when its tables have one: experiment 1 or 2; system
/// `torus2d`, `torus3d`, `fatTree`, `thinTree`; job `STAR`, `GRID`, `CUBE`, `TREE`; message size
/// 1 byte or 1 MB (10^6 or 2^20 bytes); strategy `simple`, `optimal`, `random` (Advanced is the
/// denominator: 1).
pub fn source_ratio(
    experiment: u32,
    system: &str,
    job: &str,
    message_bytes: f64,
    strategy: &str,
) -> Option<f64> {
    let e = (experiment as usize).checked_sub(1).filter(|&e| e < 2)?;
    let s = ["torus2d", "torus3d", "fatTree", "thinTree"]
        .iter()
        .position(|&x| x == system)?;
    let j = ["STAR", "GRID", "CUBE", "TREE"]
        .iter()
        .position(|&x| x == job)?;
    let m = if message_bytes == 1.0 {
        0
    } else if message_bytes == 1e6 || message_bytes == 1048576.0 {
        1
    } else {
        return None;
    };
    if strategy == "advanced" {
        return Some(1.0);
    }
    let k = ["simple", "optimal", "random"]
        .iter()
        .position(|&x| x == strategy)?;
    Some(SOURCE[e][s][j][m][k])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn source_cells_match_the_spec_quotes() {
        assert_eq!(
            source_ratio(1, "torus2d", "GRID", 1.0, "random"),
            Some(6.002)
        );
        assert_eq!(
            source_ratio(1, "torus3d", "GRID", 1.0, "simple"),
            Some(2.148)
        );
        assert_eq!(
            source_ratio(1, "fatTree", "GRID", 1.0, "optimal"),
            Some(1.206)
        );
        assert_eq!(
            source_ratio(2, "thinTree", "TREE", 1e6, "optimal"),
            Some(2.862)
        );
        assert_eq!(source_ratio(1, "mesh2d", "GRID", 1.0, "simple"), None);
        assert_eq!(source_ratio(1, "torus2d", "FULL", 1.0, "simple"), None);
        assert_eq!(source_ratio(1, "torus2d", "GRID", 7.0, "simple"), None);
        assert_eq!(source_ratio(1, "torus2d", "GRID", 1.0, "identity"), None);
    }
}
