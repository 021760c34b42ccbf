//! A flow-level network simulator for tori, meshes and fat/thin trees, and for any platform
//! read from a SimGrid platform file, as accurate as SimGrid's default network model and much
//! faster.
//!
//! # Pipeline
//! 1. Describe a [`System`] (torus, mesh, or a tree from [`parse_fat_tree`] /
//!    [`FatTreeSpec::k_ary_n_tree`]) and its [`LinkParams`]; [`Platform::build`] numbers hosts
//!    and directed links as SimGrid 3.32 does and routes exactly as it does ([`platform`]
//!    states the rules; the fixture test `tests/netsim.rs` compares every route of small
//!    platforms with SimGrid's, link by link). Or read a SimGrid platform file
//!    ([`crate::formats::simgrid::parse`]) and route it as SimGrid does
//!    ([`Platform::from_simgrid`], [`routed`]: per-link bandwidth, latency and sharing, Full,
//!    Floyd, Dijkstra, star, torus and fat-tree zones, zone routes; `tests/simgrid_xml.rs`
//!    compares routes and times with SimGrid's on its example platforms).
//! 2. Give traffic: single [`Flow`]s ([`simulate`]), or bulk-synchronous jobs
//!    ([`JobTraffic`], [`simulate_rounds`]), under a [`Model`].
//! 3. Read the results: completion times, per-link bytes (the heat map), and the cheap
//!    [`static_metrics`] (hop-bytes, dilation, congestion).
//!
//! # Model (see [`maxmin`] for the sharing rule and its incremental recomputation)
//! - A flow waits `latency_factor * sum(link latencies)`, then sends its bytes at the rate the
//!   sharing gives it, recomputed whenever a flow starts sending or ends.
//! - [`Model::MaxMin`]: factors 1, plain max-min fairness (every flow the same weight), no ACK
//!   load.
//! - [`Model::SimgridLv08`], SimGrid's default (LV08, Velho & Legrand): latency x13.01,
//!   bandwidth x0.97, every flow loads its reverse route with 5 % of its rate (ACKs), weights
//!   `1 / sum_route(latency + 20537 / bandwidth)` (longer routes get less, as TCP does), and a
//!   rate bound of the route's smallest bandwidth and of `4194304 / (2 * route latency)` (the
//!   TCP window). Its two documented checks are tests below.
//! - Loopback (a flow from a host to itself) uses no link and ends when it starts (built
//!   platforms; an imported one routes it as SimGrid does, through a loopback link).
//! - Imported platforms: each link has its own bandwidth and latency (sums over the route, as
//!   SimGrid); a `FATPIPE` link is no shared capacity but bounds each flow crossing it by its
//!   bandwidth (times the bandwidth factor), in every model; a flow whose route has only
//!   `FATPIPE` links sends at that bound.
//!
//! # Invariants
//! - Every capacity's load `sum a * rate` stays within its capacity (tested after every event
//!   in the tests); every active flow is frozen by a saturated capacity or its bound.
//! - Results are deterministic: same inputs, same outputs, natively and in wasm (no hashing,
//!   no `usize` in data, only `+ - * /` on `f64`).
//!
//! # Complexity
//! Building a torus or mesh: `O(hosts * dims)`; a tree: `O(vertices * levels + links)`. A
//! route: `O(hops)` (trees `O(levels^2 + hops * ports)`). Simulation: see [`maxmin`]; each
//! event recomputes only the flows it can affect.
//!
//! # Measured (`scripts/bench-netsim.py`, same machine, same run)
//! 16x16x16 torus3d, 4,096-task wrapped 3D grid, 1 MB, 5 rounds, identity placement, LV08:
//! SimGrid 3.32 (one actor per task) 41.8 s and 236 MiB, `placelab netsim` 0.29 s and 10 MiB,
//! the same simulated time (0.046551 s); the wrapped 2D grid of the same size: SimGrid 31.1 s
//! and 213 MiB, ours 0.50 s and 10.8 MiB. Slow case: scattered (random) placements under
//! `simgrid-lv08` on thousands of hosts (every end changes the rates of hundreds of flows): one
//! round of the 4,096-task 2D grid took 10.6 s of CPU by scanning capacities, about half that
//! with the slack method ([`maxmin`], 2.06x in the same run); a 484-task one on an 8x8x8
//! torus, 5 rounds, 1.98 s against SimGrid's 38.0 s (README, "Placement").
//!
//! # API for the placement engine (stable; additions only)
//! - [`System`], [`FatTreeSpec`], [`parse_fat_tree`], [`LinkParams`], [`Platform`] (`build`,
//!   `build_shared`, `from_simgrid`, `hosts`, `links`, `vertices`, `route`, `hops`,
//!   `host_coords`, `dims`, `tree_path`, `subtree_hosts`, `tree_spec`, `tree_vertex`, `routed`,
//!   `link_info` -> [`LinkInfo`]).
//! - [`Model`] (`parse("max-min" | "simgrid-lv08")`, `name()`).
//! - [`Flow`], [`simulate`] -> [`SimResult`].
//! - [`JobTraffic`], [`Message`], [`simulate_rounds`] -> [`RoundsResult`] (a job alone is
//!   simulated for one round and repeated; [`simulate_rounds_with`] also every job that shares
//!   no capacity with another, see [`rounds`]; [`simulate_every_round`] simulates them all;
//!   [`simulate_every_round_with`] and [`simulate_rounds_with`] choose how flow ends are
//!   recomputed, [`Lazy`]); [`simulate_first_job_within`] stops when job 0 ends (the
//!   placement engine measures one job among background jobs).
//! - [`static_metrics`] -> [`StaticMetrics`].
//!
//! Errors are `String` sentences (the caller prefixes the JSON path).

mod eventq;
pub mod fattree;
pub mod flow;
pub mod maxmin;
pub mod metrics;
pub mod model;
pub mod platform;
pub mod rounds;
pub mod routed;

pub use fattree::{parse_fat_tree, FatTreeSpec};
pub(crate) use flow::check_flow;
pub use flow::Flow;
pub use maxmin::Lazy;
pub use metrics::{static_metrics, StaticMetrics};
pub use model::{LinkParams, Model, System};
pub use platform::{LinkInfo, Platform};
pub use rounds::{
    simulate_every_round, simulate_every_round_with, simulate_first_job_within, simulate_rounds,
    simulate_rounds_budgeted, simulate_rounds_with, simulate_rounds_within, Budget, JobTraffic,
    Message, RoundsResult, Sharing,
};

use crate::progress::Progress;
use maxmin::{ModelParams, Net};

/// What [`simulate`] returns.
#[derive(Debug, Clone, PartialEq)]
pub struct SimResult {
    /// Completion time of every flow (s), in input order.
    pub finish: Vec<f64>,
    /// Latest completion (0 without flows).
    pub makespan: f64,
    /// Payload bytes carried by every directed link.
    pub link_bytes: Vec<f64>,
    /// Sharing recomputations done, and the flows they covered in total.
    pub solves: u64,
    pub solved_flows: u64,
}

/// Simulates `flows` on `p` under `model`: every flow starts at its `start`, waits its
/// latency, then shares bandwidth (module doc).
///
/// # Errors
/// A host out of range, negative or non-finite bytes, or a start time that is negative or not
/// finite (named by the flow's index).
///
/// # Complexity
/// See [`maxmin`]: per event, the flows it can affect; memory `O(total route length)`.
///
/// # Example
/// ```
/// use placelab::netsim::*;
/// let p = Platform::build(&System::Torus2d { x: 4, y: 4 }, LinkParams::SOURCE).unwrap();
/// let f = [Flow { src: 0, dst: 1, bytes: 1e6, start: 0.0 }];
/// let r = simulate(&p, &f, Model::SimgridLv08, &mut placelab::progress::NoProgress).unwrap();
/// // 13.01 * 50 us + 1 MB / (0.97 * 125 MB/s)
/// assert!((r.makespan - 0.0088979).abs() < 1e-7);
/// ```
pub fn simulate(
    p: &Platform,
    flows: &[Flow],
    model: Model,
    progress: &mut dyn Progress,
) -> Result<SimResult, String> {
    for (i, f) in flows.iter().enumerate() {
        check_flow(p, f.src, f.dst, f.bytes).map_err(|e| format!("flows[{i}]: {e}"))?;
        if !(f.start.is_finite() && f.start >= 0.0) {
            return Err(format!(
                "flows[{i}]: start must be a finite time >= 0, got {}",
                f.start
            ));
        }
    }
    let mut net = Net::new(p, ModelParams::of(model));
    for f in flows {
        net.add_flow(p, f.src, f.dst, f.bytes, 0);
    }
    // Launch order: by start time, ties by index.
    let mut order: Vec<u32> = (0..flows.len() as u32).collect();
    order.sort_by(|&a, &b| {
        flows[a as usize]
            .start
            .total_cmp(&flows[b as usize].start)
            .then(a.cmp(&b))
    });
    let total = flows.len() as u64;
    let mut finish = vec![0.0; flows.len()];
    let mut done = Vec::new();
    let mut finished = 0u64;
    let mut next = 0usize;
    let tick_every = (total / 200).max(1);
    loop {
        // Launch everything that starts by now.
        while next < order.len() && flows[order[next] as usize].start <= net.now() {
            net.launch(order[next]);
            next += 1;
        }
        let limit = if next < order.len() {
            flows[order[next] as usize].start
        } else {
            f64::INFINITY
        };
        done.clear();
        let moved = net.step(limit, &mut done);
        for &f in &done {
            finish[f as usize] = net.now();
            finished += 1;
            if finished % tick_every == 0 {
                progress.tick(finished, total);
            }
        }
        if !moved && next >= order.len() {
            break;
        }
    }
    progress.tick(total, total);
    let makespan = finish.iter().copied().fold(0.0, f64::max);
    Ok(SimResult {
        finish,
        makespan,
        link_bytes: net.link_bytes().to_vec(),
        solves: net.solves,
        solved_flows: net.solved_flows,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::progress::NoProgress;

    fn run(p: &Platform, flows: &[Flow], m: Model) -> SimResult {
        simulate(p, flows, m, &mut NoProgress).unwrap()
    }

    fn flow(src: u32, dst: u32, bytes: f64) -> Flow {
        Flow {
            src,
            dst,
            bytes,
            start: 0.0,
        }
    }

    /// LV08 check 1: 100 kB over one shared 10 ms, 1 Mbit/s link, the flow and its
    /// own ACKs on it: 0.01 * 13.01 + 800000 / ((0.97 * 1e6) / 1.05) s.
    #[test]
    fn lv08_check_shared_link_with_own_acks() {
        let link = LinkParams {
            bandwidth: 1e6 / 8.0,
            latency: 0.01,
        };
        let p = Platform::build_shared(&System::Torus2d { x: 2, y: 1 }, link).unwrap();
        let r = run(&p, &[flow(0, 1, 1e5)], Model::SimgridLv08);
        let expect = 0.01 * 13.01 + 800000.0 / ((0.97 * 1e6) / 1.05);
        assert!((r.makespan - expect).abs() < 1e-9, "{}", r.makespan);
        assert!((r.makespan - 0.996079).abs() < 1e-6);
    }

    /// LV08 check 2: 1 MB over one split-duplex 125 MB/s, 50 us hop takes
    /// 13.01 * 50e-6 + 1e6 / (0.97 * 125e6) s (the ACKs load the other direction).
    #[test]
    fn lv08_check_split_duplex_hop() {
        let p = Platform::build(&System::Torus2d { x: 4, y: 4 }, LinkParams::SOURCE).unwrap();
        let r = run(&p, &[flow(0, 1, 1e6)], Model::SimgridLv08);
        let expect = 13.01 * 50e-6 + 1e6 / (0.97 * 125e6);
        assert!((r.makespan - expect).abs() < 1e-12);
        assert!((r.makespan - 0.0088979).abs() < 1e-7);
    }

    #[test]
    fn max_min_splits_a_shared_link_equally_and_releases_it() {
        let link = LinkParams {
            bandwidth: 100.0,
            latency: 1.0,
        };
        let p = Platform::build(&System::Mesh2d { x: 3, y: 1 }, link).unwrap();
        // 0->2 (2 hops) and 1->2 (1 hop) share link 1->2; 100 B each at 50 B/s, then alone.
        let r = run(&p, &[flow(0, 2, 100.0), flow(1, 2, 300.0)], Model::MaxMin);
        // 1->2 starts at t=1, 0->2 at t=2. From 1 to 2 the 1-hop flow alone: 100 B sent.
        // From 2 both at 50: 0->2 needs 2 s (ends t=4), 1->2 has 200-100=100 left at t=4,
        // then 100 B at 100 B/s: ends t=5.
        assert!((r.finish[0] - 4.0).abs() < 1e-9, "{:?}", r.finish);
        assert!((r.finish[1] - 5.0).abs() < 1e-9, "{:?}", r.finish);
        assert_eq!(r.link_bytes.iter().sum::<f64>(), 100.0 * 2.0 + 300.0);
    }

    #[test]
    fn lv08_gives_longer_routes_less_bandwidth() {
        let p = Platform::build(&System::Mesh2d { x: 3, y: 1 }, LinkParams::SOURCE).unwrap();
        let r = run(
            &p,
            &[
                Flow {
                    src: 0,
                    dst: 2,
                    bytes: 1e6,
                    start: 0.0,
                },
                Flow {
                    src: 1,
                    dst: 2,
                    bytes: 1e6,
                    start: 0.0,
                },
            ],
            Model::SimgridLv08,
        );
        assert!(r.finish[0] > r.finish[1]);
    }

    #[test]
    fn opposite_flows_do_not_share_a_split_duplex_link_in_max_min() {
        let link = LinkParams {
            bandwidth: 10.0,
            latency: 0.0,
        };
        let p = Platform::build(&System::Mesh2d { x: 2, y: 1 }, link).unwrap();
        let r = run(&p, &[flow(0, 1, 10.0), flow(1, 0, 10.0)], Model::MaxMin);
        assert_eq!(r.finish, vec![1.0, 1.0]);
        let r = run(
            &p,
            &[flow(0, 1, 10.0), flow(1, 0, 10.0)],
            Model::SimgridLv08,
        );
        // Each direction carries one flow at 1 and the other's ACKs at 0.05.
        let expect = 10.0 / (0.97 * 10.0 / 1.05);
        assert!((r.finish[0] - expect).abs() < 1e-9);
    }

    #[test]
    fn zero_bytes_and_loopback_flows_take_only_latency() {
        let p = Platform::build(&System::Torus2d { x: 4, y: 4 }, LinkParams::SOURCE).unwrap();
        let r = run(&p, &[flow(0, 2, 0.0), flow(3, 3, 1e6)], Model::SimgridLv08);
        assert!((r.finish[0] - 2.0 * 13.01 * 50e-6).abs() < 1e-12);
        assert_eq!(r.finish[1], 0.0);
    }

    #[test]
    fn refuses_bad_flows() {
        let p = Platform::build(&System::Torus2d { x: 2, y: 2 }, LinkParams::SOURCE).unwrap();
        for f in [
            flow(0, 4, 1.0),
            flow(0, 1, -1.0),
            flow(0, 1, f64::NAN),
            Flow {
                start: -1.0,
                ..flow(0, 1, 1.0)
            },
        ] {
            assert!(simulate(&p, &[f], Model::MaxMin, &mut NoProgress).is_err());
        }
    }
}
