//! Admission of the trace engine and `auto`'s choice of search: the estimate counts the
//! children branch and bound bounds (each fills relaxed tables over every pair of nodes), a
//! refused budget names the largest admitted one, and `auto` runs exhaustive search whenever
//! its estimated work is at most branch and bound's at the scenario's budget.

#[path = "support/trace_chain.rs"]
mod trace_chain;
use placelab::api;
use placelab::trace::scenario::{build, estimate_for, Method};
use placelab::trace::TracePrediction;
use serde_json::{json, Value};

fn nodes(n: usize, step: f64) -> Value {
    Value::Array(
        (0..n)
            .map(|i| json!({"name": format!("n{i}"), "ratio": 1.0 + step * i as f64}))
            .collect(),
    )
}

/// A chain of 64 ranks, 126 events: rank `i` sends to rank `i + 1`.
fn ring(step: f64, search: Value) -> String {
    let text = trace_chain::chain_text(64);
    json!({"version": 1, "engine": "trace", "seed": 1,
        "trace": {"format": "text", "text": text},
        "nodes": nodes(64, step), "defaultLink": {"a0": 1e-4, "a1": 1e-8}, "search": search})
    .to_string()
}

/// Regression: a 126-event trace of 64 ranks on 64 unequal nodes was admitted at the default
/// budget and ran 21.8 s natively: its replays are short but each child of branch and bound
/// fills relaxed tables over 64 x 64 node pairs. It is refused, and the message names a
/// budget that is admitted (and the next larger round one is not).
#[test]
fn a_short_trace_over_64_unequal_nodes_is_refused_naming_an_admitted_budget() {
    let text = ring(0.37, json!({}));
    let e = api::check(&text).unwrap_err();
    assert_eq!(e.path, "$.search", "{e}");
    let m = e.message.as_str();
    let at = m
        .find("lower \"search.budget\" to at most ")
        .unwrap_or_else(|| panic!("{m}"));
    let rest = &m[at + "lower \"search.budget\" to at most ".len()..];
    let num: f64 = rest.split(',').next().unwrap().parse().unwrap();
    assert!((1.0..3e8).contains(&num), "{m}");
    api::check(&ring(0.37, json!({"budget": num}))).unwrap();
    assert!(api::check(&ring(0.37, json!({"budget": num * 1.02}))).is_err());
}

/// The same trace on 64 identical nodes has one class of assignments: branch and bound makes
/// one child per rank, so the estimate admits it, and the search proves its one assignment.
#[test]
fn a_short_trace_over_64_identical_nodes_is_admitted_and_proven() {
    let text = ring(0.0, json!({}));
    api::check(&text).unwrap();
    let (meta, s) = placelab::engines::admit_text::<TracePrediction>(&text).unwrap();
    let b = build(&s).unwrap();
    assert_eq!(b.method, Method::BranchAndBound);
    let out = placelab::trace::search(&s, &b, meta.seed, &mut |_| {});
    assert!(out.proven);
    assert_eq!(out.top.rows.len(), 1);
    // a chain of 63 messages of 1000 bytes, one after the other
    let t = out.top.rows[0].time;
    assert!((t - 63.0 * (1e-4 + 1e-5)).abs() < 1e-9, "{t}");
}

fn lu8(budget: f64) -> String {
    json!({"version": 1, "engine": "trace", "seed": 1,
        "generate": {"program": "luCyclic", "size": 80, "ranks": 8},
        "nodes": nodes(8, 0.37), "defaultLink": {"a0": 1e-4, "a1": 1e-8},
        "search": {"budget": budget, "top": 5}})
    .to_string()
}

/// `auto` by estimated cost: on 8 nodes (40,320 assignments of a block-cyclic LU, more than
/// the old fixed 1e7 steps), exhaustive search when its work is at most branch and bound's at
/// the budget, which then answers with the proven ranking exhaustive search gives; branch
/// and bound under a budget below it.
#[test]
fn auto_runs_exhaustive_search_when_it_costs_no_more_than_branch_and_bound() {
    let (meta, s) = placelab::engines::admit_text::<TracePrediction>(&lu8(2e9)).unwrap();
    let b = build(&s).unwrap();
    let ex = estimate_for(&b, Method::Exhaustive, 0.0).work;
    assert!(
        ex > placelab::trace::AUTO_EXHAUSTIVE_STEPS,
        "the case must exceed the fixed threshold: {ex}"
    );
    assert_eq!(b.method, Method::Exhaustive);
    let auto = placelab::trace::search(&s, &b, meta.seed, &mut |_| {});
    assert!(auto.proven);
    // the oracle: branch and bound without a budget, proven
    let mut s2 = s.clone();
    s2.search.method = Method::BranchAndBound;
    s2.search.budget = 2e9;
    let b2 = build(&s2).unwrap();
    let bb = placelab::trace::search(&s2, &b2, meta.seed, &mut |_| {});
    assert!(bb.proven);
    assert_eq!(auto.top.rows, bb.top.rows);

    // a budget below exhaustive search's work: branch and bound
    let small = ex / 4.0;
    let (_, s3) = placelab::engines::admit_text::<TracePrediction>(&lu8(small)).unwrap();
    let b3 = build(&s3).unwrap();
    assert_eq!(b3.method, Method::BranchAndBound);
    assert!(estimate_for(&b3, Method::BranchAndBound, small).work < ex);
}

/// Admission keeps its build for the run (a trace is parsed and compiled once, not again for
/// the run); a clone starts empty, so a copy whose fields change is built anew.
#[test]
fn a_scenario_is_built_once_and_a_changed_copy_anew() {
    let (_, s) = placelab::engines::admit_text::<TracePrediction>(&lu8(2e9)).unwrap();
    assert!(s.built.get().is_some(), "admission kept its build");
    let (a, b) = (build(&s).unwrap(), build(&s).unwrap());
    assert!(std::rc::Rc::ptr_eq(&a, &b));
    assert_eq!(a.method, Method::Exhaustive);
    let mut s2 = s.clone();
    assert!(s2.built.get().is_none());
    s2.search.method = Method::BranchAndBound;
    assert_eq!(build(&s2).unwrap().method, Method::BranchAndBound);
    assert_eq!(build(&s).unwrap().method, Method::Exhaustive);
}
