//! Batched ends (`Sharing::end_tolerance`, `placelab::netsim::maxmin`, "Batched ends"): a flow
//! with at most `eps` of its bytes left ends with an earlier end. Checked against the exact
//! simulation (`end_tolerance` 0) on scattered and compact jobs of tori, a thin tree and a
//! SimGrid platform file, both models: the job's time within `eps` of the exact one (measured,
//! not a theorem: max-min sharing is not monotone), fewer recomputations, the same link bytes,
//! and 0 exactly the exact simulation.

use placelab::formats::simgrid;
use placelab::netsim::{
    parse_fat_tree, simulate_every_round_with, simulate_rounds_with, JobTraffic, Lazy, LinkParams,
    Model, Platform, Sharing, System,
};
use placelab::progress::NoProgress;

#[path = "support/netsim_jobs.rs"]
mod netsim_jobs;
use netsim_jobs::{grid, scattered};

const MB: f64 = 1e6;

fn platforms() -> Vec<(&'static str, Platform)> {
    let xml = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/simgrid-xml/small_platform.xml"
    ))
    .unwrap();
    vec![
        (
            "torus2d 16x16",
            Platform::build(&System::Torus2d { x: 16, y: 16 }, LinkParams::SOURCE).unwrap(),
        ),
        (
            "torus3d 6x6x6",
            Platform::build(&System::Torus3d { x: 6, y: 6, z: 6 }, LinkParams::SOURCE).unwrap(),
        ),
        (
            "thin tree",
            Platform::build(
                &System::FatTree(parse_fat_tree("3;4,4,4;1,2,2;1,1,1").unwrap()),
                LinkParams::SOURCE,
            )
            .unwrap(),
        ),
        (
            "small_platform",
            Platform::from_simgrid(simgrid::parse(&xml, "small_platform.xml").unwrap()).unwrap(),
        ),
    ]
}

fn sharing(end_tolerance: f64) -> Sharing {
    Sharing {
        lazy: Lazy::Auto,
        end_tolerance,
    }
}

/// The job's time moves by at most `eps` of the exact one, the recomputations do not grow, the
/// links carry the same bytes; `eps = 0` is the exact simulation to the last bit.
#[test]
fn batched_ends_stay_within_their_tolerance_of_the_exact_simulation() {
    let mut worst = 0.0f64;
    let mut fewer = 0;
    let mut cases = 0;
    for (name, p) in platforms() {
        let n = p.hosts();
        let k = (n as usize).min(256);
        for model in [Model::SimgridLv08, Model::MaxMin] {
            for seed in 1..=3u64 {
                for (pl, hosts) in [
                    ("compact", (0..k as u32).collect::<Vec<_>>()),
                    ("scattered", scattered(n, k, seed)),
                ] {
                    // uneven sizes: ends do not come in pairs
                    let mut messages = grid(&hosts, MB);
                    for (i, m) in messages.iter_mut().enumerate() {
                        m.bytes *= 1.0 + (i as u64 * 2654435761 % 97) as f64 / 97.0;
                    }
                    let jobs = [JobTraffic {
                        messages,
                        compute: 0.0,
                        rounds: 1,
                        start: 0.0,
                    }];
                    let exact =
                        simulate_every_round_with(&p, &jobs, model, Lazy::Auto, &mut NoProgress)
                            .unwrap();
                    let zero =
                        simulate_every_round_with(&p, &jobs, model, sharing(0.0), &mut NoProgress)
                            .unwrap();
                    assert_eq!(exact, zero, "{name} {model:?} {pl} {seed}");
                    assert_eq!(exact.batched_ends, 0);
                    for eps in [1e-3, 1e-2, 0.05] {
                        let b = simulate_every_round_with(
                            &p,
                            &jobs,
                            model,
                            sharing(eps),
                            &mut NoProgress,
                        )
                        .unwrap();
                        let err = (b.makespan - exact.makespan).abs() / exact.makespan;
                        let what = format!("{name} {model:?} {pl} seed {seed} eps {eps}: {} against {} ({} batched, {} solves against {})", b.makespan, exact.makespan, b.batched_ends, b.solves, exact.solves);
                        assert!(err <= eps, "{what}");
                        assert!(b.solves <= exact.solves, "{what}");
                        for (x, y) in b.link_bytes.iter().zip(&exact.link_bytes) {
                            assert!((x - y).abs() <= 1e-9 * y.max(1.0), "{what}");
                        }
                        worst = worst.max(err / eps);
                        fewer += usize::from(b.solves < exact.solves);
                        cases += 1;
                    }
                }
            }
        }
    }
    eprintln!("worst error / eps: {worst:.3}; fewer recomputations in {fewer} of {cases}");
    assert!(fewer * 2 > cases, "{fewer} of {cases}");
}

/// Jobs alone in their groups and rounds repeated take the tolerance too (`simulate_rounds_with`),
/// and several rounds of two jobs sharing links stay within it.
#[test]
fn batched_ends_apply_to_repeated_rounds_and_shared_jobs() {
    let p = Platform::build(&System::Torus2d { x: 16, y: 16 }, LinkParams::SOURCE).unwrap();
    let hosts = scattered(256, 256, 7);
    let job = |h: &[u32], start: f64| JobTraffic {
        messages: grid(h, MB),
        compute: 0.001,
        rounds: 4,
        start,
    };
    let jobs = [job(&hosts[..128], 0.0), job(&hosts[128..], 0.0005)];
    let exact =
        simulate_rounds_with(&p, &jobs, Model::SimgridLv08, Lazy::Auto, &mut NoProgress).unwrap();
    let eps = 0.01;
    let b =
        simulate_rounds_with(&p, &jobs, Model::SimgridLv08, sharing(eps), &mut NoProgress).unwrap();
    assert!(b.batched_ends > 0);
    assert!(
        b.solves < exact.solves,
        "{} against {}",
        b.solves,
        exact.solves
    );
    for j in 0..2 {
        let err = (b.job_time[j] - exact.job_time[j]).abs() / exact.job_time[j];
        assert!(
            err <= eps,
            "job {j}: {} against {}",
            b.job_time[j],
            exact.job_time[j]
        );
    }
}
