//! Multi-core layouts for an all-to-all (Peryshkova): which `nodes x processes per node` shape
//! of rank `R` exchanges fastest, estimated step by step.
//!
//! **Layouts.** A symmetric layout `n x p` (`n p = R`) puts `p` processes on each of the first
//! `n` nodes that have `p` free cores; rank `r` goes to the `(r mod p)`-th free core of node
//! `r / p`. Cores are numbered socket by socket and busy cores are the lowest numbers, so a
//! process's socket is `(busy + local index) / coresPerSocket`. First-fit, the baseline, takes
//! free cores in node order until it has `R`, giving any (often asymmetric) shape.
//!
//! **Pairwise exchange.** The all-to-all runs `R - 1` steps; in step `s` rank `i` sends its block
//! to rank `(i + s) mod R` (and receives from `(i - s) mod R`). Each message crosses a layer:
//! `socket` (both ends on one socket), `node` (one node, different sockets) or `network`.
//! Its contention factor `cf` is the number of the step's messages sharing its channel:
//! - network: messages leaving the sender's node or entering the receiver's node in this step,
//!   whichever is more (processes sharing one NIC);
//! - node: messages crossing sockets inside that node in this step;
//! - socket: messages inside that socket in this step.
//!
//! A step lasts as long as its slowest message, `t(layer, m, cf)` from the cost table, and the
//! estimate is the sum over steps (the source's `ESTIMATEONSUBSYSTEM`). Layouts are ranked by
//! it, ties by fewer nodes.
//!
//! **Cost table.** CSV lines `layer,bytes,t(cf=1),t(cf=2),...` in microseconds. A size between
//! two rows is interpolated linearly in bytes; below the first row or above the last the nearest
//! row is scaled by `m / bytes`; a `cf` beyond the columns scales the last column by
//! `cf / cfmax`. The default ([`default_table`]): base times `t(layer, m, 1) = latency + m /
//! bandwidth` (network: 1.5 µs, 3.2 GB/s, InfiniBand QDR; node: 0.6 µs, 10 GB/s; socket:
//! 0.3 µs, 11 GB/s); the network's `cf = 2, 3, 4` columns are the source's measured InfiniBand
//! slowdowns `t(m, cf) / t(m, 1)` for 4 .. 128 MiB; inside a node (not measured by the source)
//! `cf` processes share the memory bandwidth, `t(m, cf) = cf t(m, 1)`.
//!
//! # Complexity
//! `O(R^2)` per layout (`R - 1` steps of `R` messages); the layouts of rank `R` are its divisors.

use super::report::{LayoutResult, StepCost};

pub const LAYERS: [&str; 3] = ["socket", "node", "network"];

/// The source's InfiniBand slowdowns `t(m, cf) / t(m, 1)` for cf = 2, 3, 4, by
/// message size in MiB.
pub const SOURCE_SLOWDOWNS: [(u32, [f64; 3]); 6] = [
    (4, [0.86, 0.82, 0.96]),
    (8, [1.01, 1.01, 4.27]),
    (16, [2.17, 3.43, 3.80]),
    (32, [2.17, 3.23, 4.03]),
    (64, [2.00, 3.04, 4.06]),
    (128, [2.03, 3.03, 4.06]),
];

/// Base times: `(layer, latency µs, bandwidth bytes/µs)`.
const BASE: [(usize, f64, f64); 3] = [(0, 0.3, 11_000.0), (1, 0.6, 10_000.0), (2, 1.5, 3_200.0)];

/// The default table as CSV.
pub fn default_table() -> String {
    let mut out = String::from("layer,bytes,cf1,cf2,cf3,cf4\n");
    for &(layer, lat, bw) in &BASE {
        for &(mib, slow) in &SOURCE_SLOWDOWNS {
            let bytes = mib as f64 * 1_048_576.0;
            let t1 = lat + bytes / bw;
            let cols: Vec<f64> = if layer == 2 {
                std::iter::once(1.0).chain(slow).collect()
            } else {
                vec![1.0, 2.0, 3.0, 4.0]
            };
            let cells: Vec<String> = cols.iter().map(|s| fmt_us(t1 * s)).collect();
            out.push_str(&format!(
                "{},{},{}\n",
                LAYERS[layer],
                bytes as u64,
                cells.join(",")
            ));
        }
    }
    out
}

/// Microseconds with three decimals, trailing zeros dropped.
fn fmt_us(v: f64) -> String {
    let s = format!("{v:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    s.to_string()
}

/// A parsed cost table: per layer, rows `(bytes, times by cf)` ascending in bytes.
#[derive(Debug, Clone, PartialEq)]
pub struct CostTable {
    rows: [Vec<(f64, Vec<f64>)>; 3],
}

impl CostTable {
    /// Parses CSV (see the module doc). Blank lines, `#` comments and a header line starting
    /// with `layer` are skipped.
    ///
    /// # Errors
    /// `(line number from 1, message)`: an unknown layer, a number that is not positive and
    /// finite, a repeated size, or a layer without rows.
    pub fn parse(text: &str) -> Result<CostTable, (usize, String)> {
        let mut rows: [Vec<(f64, Vec<f64>)>; 3] = Default::default();
        if text.len() > 200_000 {
            return Err((0, "the table is over 200,000 characters".into()));
        }
        for (i, line) in text.lines().enumerate() {
            let ln = i + 1;
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') || line.starts_with("layer") {
                continue;
            }
            let cells: Vec<&str> = line.split(',').map(str::trim).collect();
            if cells.len() < 3 {
                return Err((ln, "write layer,bytes,t(cf=1)[,t(cf=2),...]".into()));
            }
            if cells.len() > 66 {
                return Err((ln, "at most 64 contention columns".into()));
            }
            let layer = LAYERS.iter().position(|&l| l == cells[0]).ok_or_else(|| {
                (
                    ln,
                    format!(
                        "unknown layer '{}'; layers: socket, node, network",
                        cells[0].chars().take(20).collect::<String>()
                    ),
                )
            })?;
            let num = |k: usize| -> Result<f64, (usize, String)> {
                match cells[k].parse::<f64>() {
                    Ok(v) if v.is_finite() && v > 0.0 => Ok(v),
                    _ => Err((
                        ln,
                        format!(
                            "column {} must be a positive number, got '{}'",
                            k + 1,
                            cells[k].chars().take(20).collect::<String>()
                        ),
                    )),
                }
            };
            let bytes = num(1)?;
            let times = (2..cells.len()).map(num).collect::<Result<Vec<f64>, _>>()?;
            if rows[layer].iter().any(|r| r.0 == bytes) {
                return Err((ln, format!("{} has the size {bytes} twice", LAYERS[layer])));
            }
            rows[layer].push((bytes, times));
            if rows[layer].len() > 1000 {
                return Err((ln, "at most 1000 sizes per layer".into()));
            }
        }
        for (l, r) in rows.iter_mut().enumerate() {
            if r.is_empty() {
                return Err((0, format!("no rows for the {} layer", LAYERS[l])));
            }
            r.sort_by(|a, b| a.0.total_cmp(&b.0));
        }
        Ok(CostTable { rows })
    }

    /// `t(layer, m, cf)` in microseconds (see the module doc).
    pub fn time(&self, layer: usize, m: f64, cf: u32) -> f64 {
        let rows = &self.rows[layer];
        let at = |row: &(f64, Vec<f64>)| {
            let k = row.1.len();
            let c = cf.max(1) as usize;
            if c <= k {
                row.1[c - 1]
            } else {
                row.1[k - 1] * c as f64 / k as f64
            }
        };
        let first = &rows[0];
        let last = &rows[rows.len() - 1];
        if m <= first.0 {
            return at(first) * m / first.0;
        }
        if m >= last.0 {
            return at(last) * m / last.0;
        }
        let j = rows.partition_point(|r| r.0 < m);
        let (a, b) = (&rows[j - 1], &rows[j]);
        let f = (m - a.0) / (b.0 - a.0);
        at(a) + (at(b) - at(a)) * f
    }
}

/// The machine the layouts are placed on.
#[derive(Debug, Clone)]
pub struct Machine {
    pub nodes: u32,
    pub sockets: u32,
    pub cores_per_socket: u32,
    pub busy: Vec<u32>,
}

impl Machine {
    fn cores(&self) -> u32 {
        self.sockets * self.cores_per_socket
    }
    fn busy(&self, node: u32) -> u32 {
        self.busy.get(node as usize).copied().unwrap_or(0)
    }
    fn free(&self, node: u32) -> u32 {
        self.cores() - self.busy(node)
    }
}

/// Where each rank runs: `(node, socket)`.
pub type Placement = Vec<(u32, u32)>;

/// Places `per_node[k]` consecutive ranks on node `node_ids[k]`.
fn place(mc: &Machine, node_ids: &[u32], per_node: &[u32]) -> Placement {
    let mut out = Vec::new();
    for (&node, &p) in node_ids.iter().zip(per_node) {
        let b = mc.busy(node);
        for local in 0..p {
            out.push((node, (b + local) / mc.cores_per_socket));
        }
    }
    out
}

/// Estimates the pairwise-exchange all-to-all on a placement (see the module doc).
///
/// # Returns
/// The total (µs) and each step's cost.
pub fn estimate(table: &CostTable, pl: &Placement, m: f64) -> (f64, Vec<StepCost>) {
    let r = pl.len();
    let mut steps = Vec::with_capacity(r.saturating_sub(1));
    let mut total = 0.0;
    // per-step counters, keyed densely: node -> (out, in, cross-socket); (node, socket) -> inside
    let max_node = pl.iter().map(|x| x.0).max().unwrap_or(0) as usize + 1;
    let max_socket = pl.iter().map(|x| x.1).max().unwrap_or(0) as usize + 1;
    let mut net_out = vec![0u32; max_node];
    let mut net_in = vec![0u32; max_node];
    let mut cross = vec![0u32; max_node];
    let mut inside = vec![0u32; max_node * max_socket];
    let layer_of = |a: (u32, u32), b: (u32, u32)| {
        if a.0 != b.0 {
            2
        } else if a.1 != b.1 {
            1
        } else {
            0
        }
    };
    for s in 1..r {
        net_out.iter_mut().for_each(|x| *x = 0);
        net_in.iter_mut().for_each(|x| *x = 0);
        cross.iter_mut().for_each(|x| *x = 0);
        inside.iter_mut().for_each(|x| *x = 0);
        for i in 0..r {
            let (a, b) = (pl[i], pl[(i + s) % r]);
            match layer_of(a, b) {
                2 => {
                    net_out[a.0 as usize] += 1;
                    net_in[b.0 as usize] += 1;
                }
                1 => cross[a.0 as usize] += 1,
                _ => inside[a.0 as usize * max_socket + a.1 as usize] += 1,
            }
        }
        let mut worst = (0.0f64, 0usize, 0u32);
        for i in 0..r {
            let (a, b) = (pl[i], pl[(i + s) % r]);
            let layer = layer_of(a, b);
            let cf = match layer {
                2 => net_out[a.0 as usize].max(net_in[b.0 as usize]),
                1 => cross[a.0 as usize],
                _ => inside[a.0 as usize * max_socket + a.1 as usize],
            };
            let t = table.time(layer, m, cf);
            if t > worst.0 {
                worst = (t, layer, cf);
            }
        }
        total += worst.0;
        steps.push(StepCost {
            step: s as u32,
            layer: LAYERS[worst.1],
            cf: worst.2,
            time: worst.0,
        });
    }
    (total, steps)
}

/// Steps are listed in the report up to this rank (the totals always).
pub const MAX_LISTED_STEPS_RANK: u32 = 64;

/// Every feasible symmetric layout of rank `r`, fastest first (ties: fewer nodes), and
/// first-fit.
pub fn rank_layouts(
    table: &CostTable,
    mc: &Machine,
    r: u32,
    m: f64,
) -> (Vec<LayoutResult>, LayoutResult) {
    let list_steps = r <= MAX_LISTED_STEPS_RANK;
    let mut out = Vec::new();
    for p in 1..=r.min(mc.cores()) {
        if r % p != 0 {
            continue;
        }
        let n = r / p;
        let node_ids: Vec<u32> = (0..mc.nodes)
            .filter(|&k| mc.free(k) >= p)
            .take(n as usize)
            .collect();
        if node_ids.len() < n as usize {
            continue;
        }
        let per_node = vec![p; n as usize];
        let pl = place(mc, &node_ids, &per_node);
        let (time, steps) = estimate(table, &pl, m);
        out.push(LayoutResult {
            label: format!("{n}x{p}"),
            nodes: n,
            per_node,
            node_ids,
            time,
            steps: if list_steps { steps } else { Vec::new() },
        });
    }
    out.sort_by(|a, b| a.time.total_cmp(&b.time).then(a.nodes.cmp(&b.nodes)));
    // first-fit: free cores in node order
    let (mut node_ids, mut per_node) = (Vec::new(), Vec::new());
    let mut left = r;
    for k in 0..mc.nodes {
        if left == 0 {
            break;
        }
        let take = mc.free(k).min(left);
        if take > 0 {
            node_ids.push(k);
            per_node.push(take);
            left -= take;
        }
    }
    let pl = place(mc, &node_ids, &per_node);
    let (time, steps) = estimate(table, &pl, m);
    let ff = LayoutResult {
        label: "first-fit".into(),
        nodes: node_ids.len() as u32,
        per_node,
        node_ids,
        time,
        steps: if list_steps { steps } else { Vec::new() },
    };
    (out, ff)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_table_parses_and_reproduces_the_source_slowdowns() {
        let t = CostTable::parse(&default_table()).unwrap();
        for &(mib, slow) in &SOURCE_SLOWDOWNS {
            let m = mib as f64 * 1_048_576.0;
            let t1 = t.time(2, m, 1);
            for (k, s) in slow.iter().enumerate() {
                let got = t.time(2, m, k as u32 + 2) / t1;
                assert!(
                    (got - s).abs() < 1e-3,
                    "{mib} MiB cf {}: {got} vs {s}",
                    k + 2
                );
            }
        }
    }

    #[test]
    fn table_errors_name_the_line() {
        assert_eq!(
            CostTable::parse("socket,1,1\nnode,1,1\nwire,1,1")
                .unwrap_err()
                .0,
            3
        );
        assert_eq!(CostTable::parse("socket,1,x").unwrap_err().0, 1);
        assert!(CostTable::parse("socket,1,1\nnode,1,1").is_err());
    }

    #[test]
    fn interpolation_and_extrapolation() {
        let t = CostTable::parse("socket,10,1,3\nsocket,20,2\nnode,1,1\nnetwork,1,1").unwrap();
        assert_eq!(t.time(0, 15.0, 1), 1.5);
        assert_eq!(t.time(0, 5.0, 1), 0.5);
        assert_eq!(t.time(0, 40.0, 1), 4.0);
        assert_eq!(t.time(0, 10.0, 4), 6.0);
    }

    /// The 2 x 2 case worked by hand: ranks 0, 1 on node 0 and 2, 3 on node 1. Step 1: 1 -> 2 and
    /// 3 -> 0 cross the network, one per NIC (cf 1); step 2: every message crosses, two per NIC
    /// (cf 2); step 3: like step 1.
    #[test]
    fn two_by_two_steps_have_the_hand_computed_layers_and_contention() {
        let t = CostTable::parse("socket,1,1,2\nnode,1,3,6\nnetwork,1,10,25").unwrap();
        let mc = Machine {
            nodes: 2,
            sockets: 2,
            cores_per_socket: 4,
            busy: vec![],
        };
        let pl = place(&mc, &[0, 1], &[2, 2]);
        let (total, steps) = estimate(&t, &pl, 1.0);
        let got: Vec<(&str, u32, f64)> = steps.iter().map(|s| (s.layer, s.cf, s.time)).collect();
        assert_eq!(
            got,
            vec![
                ("network", 1, 10.0),
                ("network", 2, 25.0),
                ("network", 1, 10.0)
            ]
        );
        assert_eq!(total, 45.0);
        // one node, two busy cores: the four processes sit on cores 2..5, sockets 0, 0, 1, 1
        let mc = Machine {
            busy: vec![2],
            ..mc
        };
        let pl = place(&mc, &[0], &[4]);
        assert_eq!(pl, vec![(0, 0), (0, 0), (0, 1), (0, 1)]);
        let (_, steps) = estimate(&t, &pl, 1.0);
        // step 2: 0->2, 1->3, 2->0, 3->1 all cross sockets inside the node: cf 4 -> 3 * 4 / 2
        assert_eq!(
            (steps[1].layer, steps[1].cf, steps[1].time),
            ("node", 4, 12.0)
        );
    }
}
