//! Exhaustive search split (`src/trace/split.rs`, `search::exhaustive_over`): the subtrees below
//! the first two ranks' nodes, searched apart (natively on threads, in the page in Web Workers
//! through the dispatcher's split runs, `src/split.rs`) and merged, give byte for byte the report
//! of the search in one piece, whatever the number of parts or threads, with identical ranks,
//! identical nodes and several cores a node; words that do not decode are errors.

use placelab::api;
use placelab::progress::{NoProgress, Progress};
use placelab::split::{self, Round};

/// A generated trace on `n` unequal nodes (pairs of equal ratio, two racks), exhaustive search.
fn scenario(
    program: &str,
    ranks: u32,
    n: usize,
    cores: u32,
    workers: u32,
    symmetry: bool,
) -> String {
    let nodes: Vec<String> = (0..n)
        .map(|i| {
            let ratio = 1.0 + (i / 2) as f64 * 0.75;
            format!(r#"{{"name": "n{i}", "ratio": {ratio}, "cores": {cores}}}"#)
        })
        .collect();
    let mut links = Vec::new();
    for u in 0..n {
        for v in 0..n {
            if u != v {
                let rack = u / 4 == v / 4;
                let a1 = if rack {
                    4e-8
                } else if (u + v) % 3 == 0 {
                    3.4e-7
                } else {
                    1.7e-7
                };
                let a0 = if rack { 5e-5 } else { 1.5e-4 };
                links.push(format!(
                    r#"{{"from": "n{u}", "to": "n{v}", "a0": {a0}, "a1": {a1}}}"#
                ));
            }
        }
    }
    format!(
        r#"{{"version": 1, "engine": "trace", "name": "split", "seed": 3, "referenceRate": 5e8,
        "generate": {{"program": "{program}", "size": 300, "ranks": {ranks}, "width": 5, "iterations": 2}},
        "nodes": [{}], "links": [{}],
        "search": {{"method": "exhaustive", "top": 7, "workers": {workers}, "rankSymmetry": {symmetry}}}}}"#,
        nodes.join(", "),
        links.join(", ")
    )
}

#[derive(Default)]
struct Ticks(Vec<(u64, u64)>, Vec<String>);

impl Progress for Ticks {
    fn tick(&mut self, done: u64, total: u64) {
        self.0.push((done, total));
    }
    fn phase(&mut self, name: &str) {
        self.1.push(name.to_string());
    }
}

/// Split into 2 to 8 parts, run as the page's pool runs them: the one-piece report, byte for
/// byte, with progress that rises to its total through the search, report and end phases.
#[test]
fn a_split_exhaustive_search_gives_the_report_of_the_search_in_one_piece() {
    for (program, ranks, n, cores, symmetry) in [
        ("luCyclic", 6, 6, 1, true),
        ("luUneven", 5, 7, 1, true),
        ("ring", 6, 6, 1, true),
        ("ring", 6, 6, 1, false),
        ("luCyclic", 6, 4, 2, true),
    ] {
        let one = api::run(
            &scenario(program, ranks, n, cores, 1, symmetry),
            &mut NoProgress,
        )
        .unwrap();
        assert!(api::split(&scenario(program, ranks, n, cores, 1, symmetry))
            .unwrap()
            .is_none());
        for workers in [2, 3, 8] {
            let text = scenario(program, ranks, n, cores, workers, symmetry);
            let plan = api::plan(&text, 8).unwrap();
            assert_eq!(plan.workers, workers, "{program} {ranks} on {n}");
            let mut s = api::split(&text).unwrap().unwrap();
            let mut seen = Ticks::default();
            let report = split::run_here(s.as_mut(), &mut seen).unwrap();
            assert_eq!(report, api::run(&text, &mut NoProgress).unwrap());
            let search = |r: &str| {
                let v: serde_json::Value = serde_json::from_str(r).unwrap();
                v["report"].clone()
            };
            assert_eq!(
                search(&report),
                search(&one),
                "{program} {ranks} on {n}, {workers} workers"
            );
            assert_eq!(seen.1, ["search", "report", "end"]);
            assert!(seen.0.windows(2).all(|w| w[0].0 <= w[1].0));
            assert_eq!(seen.0.last(), Some(&(1000, 1000)));
            assert!(seen.0.len() > 8, "{:?}", seen.0);
        }
    }
}

/// Branch and bound and local search, and one worker, are not split.
#[test]
fn only_an_exhaustive_search_with_several_workers_is_split() {
    let text = scenario("luCyclic", 6, 6, 1, 4, true);
    for method in ["branchAndBound", "localSearch"] {
        let t = text.replace(
            r#""method": "exhaustive""#,
            &format!(r#""method": "{method}""#),
        );
        assert!(api::split(&t).unwrap().is_none(), "{method}");
        assert_eq!(api::plan(&t, 8).unwrap().workers, 1);
    }
}

/// Mail and answers that do not decode are errors, never panics.
#[test]
fn words_that_do_not_decode_are_errors() {
    let text = scenario("luCyclic", 6, 6, 1, 2, true);
    let mut part = api::part(&text, 0).unwrap();
    assert!(part.step(&[7]).is_err());
    assert!(part.step(&[]).is_err());
    assert!(api::part(&text, 2).is_err());
    let mut s = api::split(&text).unwrap().unwrap();
    let Round::Mail(mail) = s.next(&[], &mut NoProgress).unwrap() else {
        panic!("a first round")
    };
    assert_eq!(mail.len(), 2);
    assert!(s.next(&[vec![1]], &mut NoProgress).is_err());
    assert!(s
        .next(&[vec![1, 2, 3], vec![0, 0]], &mut NoProgress)
        .is_err());
    // the end's answers: garbage rows
    let mut s = api::split(&text).unwrap().unwrap();
    let mut answers = Vec::new();
    for _ in 0..=split_rounds() {
        let Round::Mail(_) = s.next(&answers, &mut NoProgress).unwrap() else {
            panic!("more rounds")
        };
        answers = vec![vec![0, 0]; 2];
    }
    for bad in [
        vec![0u32; 3],
        vec![0, 0, 0, 0, 0, 0, 1, 0, 0],
        vec![0, 0, 0, 0, 0, 0, 99],
    ] {
        let mut t = api::split(&text).unwrap().unwrap();
        let mut a = Vec::new();
        for _ in 0..=split_rounds() {
            t.next(&a, &mut NoProgress).unwrap();
            a = vec![vec![0, 0]; 2];
        }
        assert!(t.next(&[bad.clone(), bad], &mut NoProgress).is_err());
    }
}

fn split_rounds() -> u32 {
    placelab::trace::split::ROUNDS
}
