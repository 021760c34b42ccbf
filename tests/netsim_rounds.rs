//! Rounds that repeat: a job that shares no capacity with another job repeats its first round
//! exactly (the model is shift-invariant in time, `placelab::netsim::rounds`), so
//! `simulate_rounds` (a job alone) and `simulate_rounds_with` (every job alone in its group of
//! jobs sharing capacities) simulate one round and multiply it. Checked here against the full
//! round-by-round simulation (`simulate_every_round`, and for messages with their own start
//! times one `simulate` of every round's flows on one clock), on tori, trees and a SimGrid
//! platform file, under both models; and the cases where it must not apply: jobs that share
//! links, with different round times, are simulated round by round and differ from their
//! rounds alone multiplied.

use placelab::formats::simgrid;
use placelab::netsim::{
    parse_fat_tree, simulate, simulate_every_round, simulate_rounds, simulate_rounds_with, Flow,
    JobTraffic, Lazy, LinkParams, Message, Model, Platform, System,
};
use placelab::progress::NoProgress;

#[path = "support/netsim_jobs.rs"]
mod netsim_jobs;
use netsim_jobs::{grid, scattered};

const MB: f64 = 1e6;

fn rel(a: f64, b: f64) -> f64 {
    (a - b).abs() / b.abs().max(1e-300)
}

fn platforms() -> Vec<(&'static str, Platform)> {
    let torus = Platform::build(&System::Torus2d { x: 8, y: 8 }, LinkParams::SOURCE).unwrap();
    let tree = Platform::build(
        &System::FatTree(parse_fat_tree("3;4,4,4;1,2,2;1,1,1").unwrap()),
        LinkParams::SOURCE,
    )
    .unwrap();
    let xml = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/simgrid-xml/small_platform.xml"
    ))
    .unwrap();
    let file = Platform::from_simgrid(simgrid::parse(&xml, "small_platform.xml").unwrap()).unwrap();
    vec![
        ("torus", torus),
        ("thin tree", tree),
        ("small_platform", file),
    ]
}

/// A job alone: one round multiplied equals every round simulated, to the last bits of the
/// sums, on every platform, model and placement; and costs one round's recomputations.
#[test]
fn a_job_alone_repeats_its_first_round() {
    for (name, p) in platforms() {
        let n = p.hosts();
        let k = (n as usize).min(16);
        for model in [Model::SimgridLv08, Model::MaxMin] {
            for (pl, hosts) in [
                ("compact", (0..k as u32).collect::<Vec<_>>()),
                ("scattered", scattered(n, k, 3)),
            ] {
                let job = JobTraffic {
                    messages: grid(&hosts, MB),
                    compute: 0.0007,
                    rounds: 50,
                    start: 0.25,
                };
                let jobs = [job];
                let short = simulate_rounds(&p, &jobs, model, &mut NoProgress).unwrap();
                let with =
                    simulate_rounds_with(&p, &jobs, model, Lazy::Auto, &mut NoProgress).unwrap();
                assert_eq!(short, with);
                let full = simulate_every_round(&p, &jobs, model, &mut NoProgress).unwrap();
                let at = format!("{name} {pl} {model:?}");
                assert!(rel(short.job_end[0], full.job_end[0]) < 1e-12, "{at}");
                assert!(rel(short.comm_time[0], full.comm_time[0]) < 1e-12, "{at}");
                for (a, b) in short.link_bytes.iter().zip(&full.link_bytes) {
                    assert!(rel(*a, *b) < 1e-12 || a == b, "{at}");
                }
                assert_eq!(short.solved_flows * 50, full.solved_flows, "{at}");
            }
        }
    }
}

/// Messages with their own start times in the round (a round: compute, then each message at
/// its start; it ends with its last message; the next starts then). Every round's flows
/// simulated on one clock end as the first round's, shifted by the round's start, so the
/// `placelab netsim --messages` rule (one round, times `rounds`) is exact up to rounding.
#[test]
fn timed_messages_repeat_their_first_round() {
    for (name, p) in platforms() {
        let n = p.hosts();
        let hosts = scattered(n, (n as usize).min(12), 9);
        let m = grid(&hosts, MB);
        // Same pair twice, staggered starts, a loopback-free mix of sizes.
        let mut one: Vec<Flow> = m
            .iter()
            .enumerate()
            .map(|(i, m)| Flow {
                src: m.src,
                dst: m.dst,
                bytes: m.bytes * (1 + i % 3) as f64,
                start: 0.001 * (i % 4) as f64,
            })
            .collect();
        one.push(one[0]);
        let compute = 0.002;
        let rounds = 6;
        let first = simulate(
            &p,
            &one.iter()
                .map(|f| Flow {
                    start: f.start + compute,
                    ..*f
                })
                .collect::<Vec<_>>(),
            Model::SimgridLv08,
            &mut NoProgress,
        )
        .unwrap();
        let round = first.makespan;
        // Round by round on one clock: round r's flows start at its start T(r-1), known once
        // the simulation of rounds 1..r-1 ends.
        let mut starts = vec![0.0];
        let mut all: Vec<Flow> = Vec::new();
        let mut last = None;
        for r in 0..rounds {
            all.extend(one.iter().map(|f| Flow {
                start: starts[r] + compute + f.start,
                ..*f
            }));
            let res = simulate(&p, &all, Model::SimgridLv08, &mut NoProgress).unwrap();
            let end = res.finish[r * one.len()..]
                .iter()
                .copied()
                .fold(0.0, f64::max);
            starts.push(end);
            last = Some(res);
        }
        let last = last.unwrap();
        for (r, start) in starts.iter().take(rounds).enumerate() {
            for (i, f) in first.finish.iter().enumerate() {
                let got = last.finish[r * one.len() + i] - start;
                assert!(rel(got, *f) < 1e-9, "{name}: round {r} message {i}");
            }
        }
        assert!(
            rel(starts[rounds], round * rounds as f64) < 1e-12,
            "{name}: {} vs {}",
            starts[rounds],
            round * rounds as f64
        );
    }
}

/// Jobs on disjoint parts of a tree (no common capacity, ACKs included) repeat their own
/// rounds, each with its own round time: simulated apart, one round each, they end as the
/// full simulation says, for a fraction of its recomputations.
#[test]
fn jobs_that_share_no_capacity_repeat_their_rounds_apart() {
    let p = Platform::build(
        &System::FatTree(parse_fat_tree("3;4,4,4;1,2,2;1,1,1").unwrap()),
        LinkParams::SOURCE,
    )
    .unwrap();
    // Hosts 0-15 and 16-31 sit under two level-2 switches of the 64-host tree: a job kept
    // within its 16 hosts never reaches the root, so the two share no link either way.
    let a = JobTraffic {
        messages: grid(&(0..16).collect::<Vec<_>>(), MB),
        compute: 0.001,
        rounds: 7,
        start: 0.0,
    };
    let b = JobTraffic {
        messages: grid(
            &scattered(16, 9, 4)
                .iter()
                .map(|h| h + 16)
                .collect::<Vec<_>>(),
            2.0 * MB,
        ),
        compute: 0.0,
        rounds: 11,
        start: 0.0003,
    };
    let empty = JobTraffic {
        messages: vec![],
        compute: 0.5,
        rounds: 3,
        start: 1.0,
    };
    let jobs = [a, b, empty];
    let short =
        simulate_rounds_with(&p, &jobs, Model::SimgridLv08, Lazy::Auto, &mut NoProgress).unwrap();
    let full = simulate_every_round(&p, &jobs, Model::SimgridLv08, &mut NoProgress).unwrap();
    // The engines' entry keeps several jobs together, as it always did.
    let engines = simulate_rounds(&p, &jobs, Model::SimgridLv08, &mut NoProgress).unwrap();
    assert_eq!(engines, full);
    for j in 0..3 {
        assert!(rel(short.job_end[j], full.job_end[j]) < 1e-12, "job {j}");
        assert!(rel(short.comm_time[j], full.comm_time[j]) < 1e-12 || j == 2);
    }
    assert_eq!(short.job_end[2], 2.5);
    assert!(rel(short.makespan, full.makespan) < 1e-12);
    for (x, y) in short.link_bytes.iter().zip(&full.link_bytes) {
        assert!(rel(*x, *y) < 1e-12 || x == y);
    }
    assert!(3 * short.solved_flows < full.solved_flows);
}

/// Where it must not apply: two jobs sharing links with different round times (one job's round
/// meets the other's at a different phase each time) are simulated round by round, exactly as
/// `simulate_every_round` does; their rounds alone, multiplied, would be wrong. A third job
/// that shares links with the second only joins their group.
#[test]
fn jobs_that_share_links_are_simulated_round_by_round() {
    let p = Platform::build(&System::Torus2d { x: 8, y: 8 }, LinkParams::SOURCE).unwrap();
    let a = JobTraffic {
        messages: grid(&scattered(64, 16, 1), MB),
        compute: 0.001,
        rounds: 9,
        start: 0.0,
    };
    let b = JobTraffic {
        messages: grid(&scattered(64, 9, 2), 3.0 * MB),
        compute: 0.0,
        rounds: 5,
        start: 0.0004,
    };
    let jobs = [a.clone(), b.clone()];
    let short =
        simulate_rounds_with(&p, &jobs, Model::SimgridLv08, Lazy::Auto, &mut NoProgress).unwrap();
    let full = simulate_every_round(&p, &jobs, Model::SimgridLv08, &mut NoProgress).unwrap();
    assert_eq!(short, full);
    assert_eq!(
        simulate_rounds(&p, &jobs, Model::SimgridLv08, &mut NoProgress).unwrap(),
        full
    );
    for (j, job) in jobs.iter().enumerate() {
        let alone = simulate_rounds(
            &p,
            std::slice::from_ref(job),
            Model::SimgridLv08,
            &mut NoProgress,
        )
        .unwrap();
        assert!(
            rel(alone.job_end[0], full.job_end[j]) > 0.01,
            "job {j} is not slowed down by the other: the case proves nothing"
        );
    }
    // A chain: c shares links with b only (a scattered b crosses the whole torus); all three
    // are one group, so the result is the full simulation's, bit for bit.
    let c = JobTraffic {
        messages: vec![Message {
            src: b.messages[0].src,
            dst: b.messages[0].dst,
            bytes: MB,
        }],
        compute: 0.0002,
        rounds: 13,
        start: 0.0,
    };
    let jobs = [a, b, c];
    let short =
        simulate_rounds_with(&p, &jobs, Model::SimgridLv08, Lazy::Auto, &mut NoProgress).unwrap();
    let full = simulate_every_round(&p, &jobs, Model::SimgridLv08, &mut NoProgress).unwrap();
    assert_eq!(short, full);
    assert_eq!(
        simulate_rounds(&p, &jobs, Model::SimgridLv08, &mut NoProgress).unwrap(),
        full
    );
}
