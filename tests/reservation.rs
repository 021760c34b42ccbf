//! The reservation protocol of Qi & Ju: no double allocation, its failure modes and the fixes.

use placelab::progress::NoProgress;
use placelab::select::reservation::{simulate, ReservationReport, ReservationSpec};
use placelab::select::scenario::validate_reservation as validate;
use proptest::prelude::*;

fn spec(json: serde_json::Value) -> ReservationSpec {
    let s: ReservationSpec = serde_json::from_value(json).expect("spec parses");
    validate(&s, "reservation").expect("spec is valid");
    s
}

fn run(s: &ReservationSpec, seed: u64) -> ReservationReport {
    simulate(s, seed, &mut NoProgress)
}

/// Two jobs start together, each wanting 30 of 40 stations: whichever request reaches a station
/// first wins it, so each reserves about half and both get too few, again and again.
fn contention(ordered: bool) -> ReservationSpec {
    spec(serde_json::json!({
        "stations": 40,
        "initiators": [
            {"start": 0, "wants": 30, "holdFor": 100},
            {"start": 0, "wants": 30, "holdFor": 100}
        ],
        "delay": {"min": 1, "max": 20},
        "maxRetries": 8,
        "fixes": {"orderedClaims": ordered}
    }))
}

#[test]
fn partial_reservations_starve_both_jobs_without_ordered_claims() {
    for seed in 1..=5 {
        let r = run(&contention(false), seed);
        assert!(!r.checks.double_allocation);
        for o in &r.outcomes {
            assert_eq!(o.status, "starved", "seed {seed}: {o:?}");
            assert_eq!(o.got, 0);
            assert_eq!(o.retries, 8);
        }
        assert!(r.checks.stations_held_at_end.is_empty());
    }
}

#[test]
fn ordered_claims_let_both_contending_jobs_finish() {
    for seed in 1..=5 {
        let r = run(&contention(true), seed);
        assert!(!r.checks.double_allocation);
        for o in &r.outcomes {
            assert_eq!(o.status, "done", "seed {seed}: {o:?}");
            assert_eq!(o.got, 30);
            assert_eq!(o.chosen.len(), 30);
        }
        // They ran one after the other.
        let (a, b) = (&r.outcomes[0], &r.outcomes[1]);
        let (first, second) = if a.occupied_at < b.occupied_at {
            (a, b)
        } else {
            (b, a)
        };
        assert!(second.occupied_at.unwrap() >= first.finish.unwrap());
        assert!(r.checks.stations_held_at_end.is_empty());
    }
}

fn lost_release(lease: Option<u64>, ordered: bool) -> ReservationSpec {
    spec(serde_json::json!({
        "stations": 6,
        "initiators": [{"start": 0, "wants": 4, "holdFor": 50}],
        "delay": {"min": 1, "max": 3},
        "lossOfRelease": 1.0,
        "fixes": {"orderedClaims": ordered, "leaseTimeout": lease}
    }))
}

#[test]
fn a_lost_release_holds_its_station_forever_without_leases() {
    for ordered in [false, true] {
        let r = run(&lost_release(None, ordered), 3);
        assert_eq!(r.outcomes[0].status, "done");
        let held: Vec<u32> = r
            .checks
            .stations_held_at_end
            .iter()
            .map(|h| h.station)
            .collect();
        assert_eq!(held, r.outcomes[0].chosen, "ordered {ordered}");
        assert!(r.holds.iter().filter(|h| h.to.is_none()).count() == 4);
    }
}

#[test]
fn a_lease_timeout_frees_a_station_whose_release_was_lost() {
    for ordered in [false, true] {
        let r = run(&lost_release(Some(40), ordered), 3);
        assert_eq!(r.outcomes[0].status, "done");
        assert!(r.checks.stations_held_at_end.is_empty(), "{:?}", r.checks);
        let expired = r.events.iter().filter(|e| e.kind == "expire").count();
        assert_eq!(expired, 4, "ordered {ordered}");
        assert!(r.holds.iter().all(|h| h.to.is_some()));
    }
}

#[test]
fn a_later_job_gets_the_stations_a_lease_freed() {
    let s = spec(serde_json::json!({
        "stations": 4,
        "initiators": [
            {"start": 0, "wants": 4, "holdFor": 30},
            {"start": 60, "wants": 4, "holdFor": 30}
        ],
        "delay": {"min": 1, "max": 2},
        "lossOfRelease": 1.0,
        "maxRetries": 20,
        "fixes": {"leaseTimeout": 20}
    }));
    let r = run(&s, 1);
    assert!(
        r.outcomes.iter().all(|o| o.status == "done"),
        "{:?}",
        r.outcomes
    );
    let without = run(&lost_release_pair_without_lease(), 1);
    assert_eq!(without.outcomes[1].status, "starved");
}

fn lost_release_pair_without_lease() -> ReservationSpec {
    spec(serde_json::json!({
        "stations": 4,
        "initiators": [
            {"start": 0, "wants": 4, "holdFor": 30},
            {"start": 60, "wants": 4, "holdFor": 30}
        ],
        "delay": {"min": 1, "max": 2},
        "lossOfRelease": 1.0,
        "maxRetries": 5
    }))
}

#[test]
fn stations_over_the_threshold_never_answer() {
    let s = spec(serde_json::json!({
        "stations": 5,
        "loads": [0.0, 0.9, 0.1, 0.95, 0.2],
        "initiators": [{"wants": 3, "threshold": 0.5, "holdFor": 10}]
    }));
    for ordered in [false, true] {
        let mut s = s.clone();
        s.fixes.ordered_claims = ordered;
        let r = run(&s, 1);
        assert_eq!(r.outcomes[0].chosen, vec![0, 2, 4]);
    }
}

#[test]
fn the_least_loaded_repliers_are_chosen_and_the_others_reset() {
    let s = spec(serde_json::json!({
        "stations": 5,
        "loads": [0.4, 0.1, 0.3, 0.0, 0.2],
        "initiators": [{"wants": 2, "holdFor": 10}]
    }));
    let r = run(&s, 1);
    assert_eq!(r.outcomes[0].chosen, vec![1, 3]);
    // Every station was reserved by the request, then three were reset by `occupy`.
    assert_eq!(r.holds.len(), 5);
    let occupied_at = r.outcomes[0].occupied_at.unwrap();
    for h in &r.holds {
        let end = h.to.unwrap();
        if h.station == 1 || h.station == 3 {
            assert!(end >= occupied_at + 10);
        } else {
            assert!(end <= occupied_at + 5);
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_trace() {
    let s = spec(serde_json::json!({
        "stations": 30,
        "initiators": [
            {"start": 0, "wants": 12, "holdFor": 40},
            {"start": 3, "wants": 9, "holdFor": 40},
            {"start": 5, "wants": 15, "holdFor": 40}
        ],
        "delay": {"min": 1, "max": 9},
        "loss": 0.05,
        "fixes": {"leaseTimeout": 60}
    }));
    let a = run(&s, 77);
    assert_eq!(a, run(&s, 77));
    assert_ne!(a.events, run(&s, 78).events);
}

#[test]
fn events_beyond_max_events_are_counted_not_listed() {
    let s = spec(serde_json::json!({
        "stations": 20,
        "initiators": [{"wants": 5, "holdFor": 10}],
        "maxEvents": 7
    }));
    let r = run(&s, 1);
    assert_eq!(r.events.len(), 7);
    assert_eq!(r.events_omitted + 7, r.counts.messages + local_events(&s));
    assert!(r.events.windows(2).all(|w| w[0].time <= w[1].time));
}

/// start, run, done.
fn local_events(_: &ReservationSpec) -> u64 {
    3
}

#[test]
fn errors_name_the_json_path() {
    let s: ReservationSpec = serde_json::from_value(serde_json::json!({
        "stations": 4,
        "initiators": [{"wants": 2, "holdFor": 1}, {"wants": 2, "holdFor": 1}, {"wants": 5, "holdFor": 1}]
    }))
    .unwrap();
    let e = validate(&s, "reservation").unwrap_err();
    assert_eq!(e.path, "$.reservation.initiators[2].wants");
    let s: ReservationSpec = serde_json::from_value(serde_json::json!({
        "stations": 4, "initiators": [{"wants": 2, "holdFor": 1}],
        "delay": {"min": 1, "max": 10}, "fixes": {"leaseTimeout": 10}
    }))
    .unwrap();
    let e = validate(&s, "reservation").unwrap_err();
    assert_eq!(e.path, "$.reservation.fixes.leaseTimeout");
    let s: ReservationSpec = serde_json::from_value(serde_json::json!({
        "stations": 3, "loads": [0.1, 0.2], "initiators": [{"wants": 2, "holdFor": 1}]
    }))
    .unwrap();
    assert_eq!(validate(&s, "").unwrap_err().path, "$.loads");
}

fn arb_spec() -> impl Strategy<Value = ReservationSpec> {
    (
        1u32..=24,
        prop::collection::vec((0u64..60, 1u32..=24, 0u32..=10, 1u64..80), 1..6),
        (0u64..4, 0u64..12),
        0u32..=3,
        any::<bool>(),
        prop::option::of(0u64..3),
        0u32..=4,
    )
        .prop_map(
            |(stations, inits, (dmin, dspan), loss, ordered, lease, rloss)| {
                let dmax = dmin + dspan;
                let initiators: Vec<_> = inits
                    .into_iter()
                    .map(|(start, wants, thr, hold)| {
                        serde_json::json!({
                            "start": start,
                            "wants": wants.min(stations),
                            "threshold": 0.5 + f64::from(thr) / 20.0,
                            "holdFor": hold
                        })
                    })
                    .collect();
                let loads: Vec<f64> = (0..stations).map(|i| f64::from(i % 7) / 7.0).collect();
                spec(serde_json::json!({
                    "stations": stations,
                    "loads": loads,
                    "initiators": initiators,
                    "delay": {"min": dmin, "max": dmax},
                    "loss": f64::from(loss) / 10.0,
                    "lossOfRelease": f64::from(rloss) / 4.0,
                    "maxRetries": 6,
                    "maxTime": 5000,
                    "fixes": {
                        "orderedClaims": ordered,
                        "leaseTimeout": lease.map(|k| (4 * (dmax + 1)).max(3 * dmax + 5) + 10 * k)
                    }
                }))
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    #[test]
    fn no_station_is_ever_given_to_two_jobs(s in arb_spec(), seed in any::<u64>()) {
        let r = run(&s, seed);
        prop_assert!(!r.checks.double_allocation, "{:?}", r.checks.violations);
        // Independently of the checker: the runs of jobs sharing a station never overlap.
        let mut runs: Vec<(u32, u64, u64)> = Vec::new();
        for o in &r.outcomes {
            if let (Some(a), Some(b)) = (o.occupied_at, o.finish) {
                for &st in &o.chosen {
                    runs.push((st, a, b));
                }
            }
        }
        runs.sort_unstable();
        for w in runs.windows(2) {
            if w[0].0 == w[1].0 {
                prop_assert!(w[0].2 <= w[1].1, "station {} used by two jobs: {:?}", w[0].0, w);
            }
        }
        // And each station's holder intervals never overlap.
        let mut holds: Vec<(u32, u64, u64)> =
            r.holds.iter().map(|h| (h.station, h.from, h.to.unwrap_or(u64::MAX))).collect();
        holds.sort_unstable();
        for w in holds.windows(2) {
            if w[0].0 == w[1].0 {
                prop_assert!(w[0].2 <= w[1].1, "station {} held twice: {:?}", w[0].0, w);
            }
        }
        for o in &r.outcomes {
            prop_assert!(o.got == 0 || o.got == o.wanted);
            prop_assert!(o.chosen.iter().all(|&c| c < s.stations));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]
    /// The theorem of ordered claims: without losses nobody waits forever; every job either runs
    /// to the end or gives up because too few stations are under its threshold.
    #[test]
    fn ordered_claims_never_deadlock(s in arb_spec(), seed in any::<u64>()) {
        let mut s = s;
        s.fixes.ordered_claims = true;
        s.loss = 0.0;
        s.loss_of_release = Some(0.0);
        s.max_time = 1_000_000;
        let r = run(&s, seed);
        prop_assert!(!r.counts.time_limit_reached && !r.counts.step_limit_reached);
        for o in &r.outcomes {
            prop_assert!(o.status == "done" || o.status == "starved", "{:?}", o);
            prop_assert_eq!(o.aborts, 0, "an abort without losses: {:?}", o);
            if o.status == "starved" {
                let eligible = s.loads.as_ref().unwrap().iter()
                    .filter(|&&l| l < s.initiators[o.tid as usize].threshold).count();
                prop_assert!(eligible < o.wanted as usize, "starved with {eligible} eligible stations: {:?}", o);
            }
        }
        prop_assert!(r.checks.stations_held_at_end.is_empty());
    }

    /// With leases, whatever is lost, no station stays held once nobody renews it.
    #[test]
    fn leases_leave_no_station_held(s in arb_spec(), seed in any::<u64>()) {
        let mut s = s;
        let d = s.delay.max;
        s.fixes.lease_timeout = Some((4 * (d + 1)).max(3 * d + 5));
        s.max_time = 1_000_000;
        let r = run(&s, seed);
        if !r.counts.time_limit_reached && !r.counts.step_limit_reached {
            prop_assert!(r.checks.stations_held_at_end.is_empty(), "{:?}", r.checks);
        }
        prop_assert!(!r.checks.double_allocation);
    }
}

#[test]
fn one_lost_renewal_does_not_abort_a_job() {
    // 1 % loss on a 40-station job held for 2,000 ticks: about 8 renewals or acks are lost, never
    // two in a row for one station; the lease absorbs each.
    let s = spec(serde_json::json!({
        "stations": 40,
        "initiators": [{"wants": 40, "holdFor": 2000}],
        "delay": {"min": 1, "max": 20},
        "loss": 0.01,
        "lossOfRelease": 0.0,
        "fixes": {"leaseTimeout": 200}
    }));
    let mut aborted = 0;
    for seed in 1..=20 {
        let r = run(&s, seed);
        aborted += r.outcomes[0].aborts;
        assert!(r.counts.lost > 0);
    }
    assert!(aborted <= 2, "{aborted} aborts in 20 runs");
}
