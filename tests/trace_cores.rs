//! Several ranks per node in the trace engine: nodes have `cores`, two ranks on one node talk
//! over the node's intra-node link, and the searches explore the assignments within capacity.
//!
//! Oracles: brute force over every capacity-feasible assignment (replayed, reduced to its
//! representative) equals exhaustive search and branch and bound (best time and whole
//! ranking); the replay of an assignment sharing nodes equals the independent simulator of
//! `tests/support/trace_oracle.rs`; local search only evaluates feasible assignments; a
//! ping-pong on one node costs its closed form over the intra link; every scenario of one core
//! per node gives the same report with or without the new fields; bad input is refused at its
//! path; random scenarios never panic.

use placelab::api;
use placelab::progress::NoProgress;
use placelab::rng::Rng;
use placelab::trace::replay::{compile, Compiled, Platform, Protocol};
use placelab::trace::search::{self, order, Bounds, Problem, Ranked, Stats, TopList};
use proptest::prelude::*;
use serde_json::{json, Value};

#[path = "support/trace_oracle.rs"]
mod trace_oracle;
#[path = "support/trace_platform.rs"]
mod trace_platform;
#[path = "support/trace_searches.rs"]
mod trace_searches;
use trace_oracle::{oracle, random_trace};
use trace_platform::random_platform;
use trace_searches::searches_give_the_ranking;

/// A random platform of `n` nodes (few kinds, so that identical nodes happen) with random core
/// counts (1 to 3, the same for nodes of one kind) and intra-node links, holding `ranks` ranks.
fn random_cores_platform(rng: &mut Rng, n: usize, kinds: u64, ranks: usize) -> Platform {
    let mut p = random_platform(rng, n, kinds);
    // the kind of a node is its ratio minus 1 (see `random_platform`)
    let by_kind: Vec<u32> = (0..kinds).map(|_| 1 + rng.below(3) as u32).collect();
    let intra: Vec<(f64, f64)> = (0..kinds)
        .map(|_| (0.05 * rng.below(3) as f64, 0.0005 * rng.below(3) as f64))
        .collect();
    for u in 0..n {
        let k = (p.ratio[u] - 1.0) as usize;
        p.cores[u] = by_kind[k];
        p.a0[u * n + u] = intra[k].0;
        p.a1[u * n + u] = intra[k].1;
    }
    // enough cores in all: raise every node to the same count
    while (p.cores.iter().sum::<u32>() as usize) < ranks {
        for k in p.cores.iter_mut() {
            *k += 1;
        }
    }
    p
}

/// Every map of the ranks to nodes with at most `cores[u]` ranks on node `u`.
fn feasible(r: usize, cores: &[u32]) -> Vec<Vec<u8>> {
    fn rec(d: usize, a: &mut Vec<u8>, load: &mut Vec<u32>, cores: &[u32], out: &mut Vec<Vec<u8>>) {
        if d == a.len() {
            out.push(a.clone());
            return;
        }
        for u in 0..cores.len() {
            if load[u] < cores[u] {
                load[u] += 1;
                a[d] = u as u8;
                rec(d + 1, a, load, cores, out);
                load[u] -= 1;
            }
        }
    }
    let mut out = Vec::new();
    rec(
        0,
        &mut vec![0; r],
        &mut vec![0; cores.len()],
        cores,
        &mut out,
    );
    out
}

fn fits(a: &[u8], cores: &[u32]) -> bool {
    let mut load = vec![0u32; cores.len()];
    for &u in a {
        load[u as usize] += 1;
    }
    load.iter().zip(cores).all(|(l, k)| l <= k)
}

/// The ranking brute force gives: every feasible assignment replayed, as its representative.
fn brute(c: &Compiled, p: &Platform) -> (Vec<Ranked>, usize) {
    let prob = Problem::new(c, p);
    let maps = feasible(c.ranks, &p.cores);
    let count = maps.len();
    let mut all: Vec<Ranked> = maps
        .into_iter()
        .map(|a| Ranked {
            time: c.time_of(p, &a),
            assign: prob.representative(&a),
        })
        .collect();
    all.sort_by(order);
    all.dedup_by(|a, b| a.assign == b.assign);
    (all, count)
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    /// Exhaustive search (lanes and plain) and branch and bound give brute force's ranking
    /// over the capacity-feasible assignments; the counts of assignments, of classes and of
    /// equivalents agree with brute force; the empty assignment's bound is below the best.
    #[test]
    fn searches_equal_brute_force_within_capacity(seed in 0u64..u64::MAX, ranks in 1usize..7,
            n in 1usize..5, kinds in 1u64..4, messages in 0usize..12, top in 1usize..40,
            eager in any::<bool>()) {
        let mut rng = Rng::seeded(seed);
        let t = random_trace(&mut rng, ranks, messages);
        let p = random_cores_platform(&mut rng, n, kinds, ranks);
        let mut c = compile(&t).unwrap();
        c.set_protocol(if eager { Protocol::Eager } else { Protocol::Rendezvous }, 0.0);
        let (want, count) = brute(&c, &p);
        let mut prob = Problem::new(&c, &p);
        prop_assert_eq!(prob.assignments(), count as f64);
        prop_assert_eq!(prob.distinct(), want.len() as f64);
        let total: f64 = want.iter().map(|r| search::equivalents(&r.assign, &prob.class)).sum();
        prop_assert_eq!(total, count as f64);
        // branch and bound, even when asked for the bounds without replay (not used here)
        searches_give_the_ranking(&mut prob, top, &want)?;
        let mut b = Bounds::new(&c, &p);
        prop_assert!(b.partial(&vec![search::FREE; ranks]) <= want[0].time);
        // every partial assignment's bound is at most each of its completions' times
        let order = search::rank_order(&c);
        for a in feasible(ranks, &p.cores).iter().take(40) {
            for d in 0..ranks {
                let mut part = a.clone();
                for &x in &order[d..] {
                    part[x] = search::FREE;
                }
                prop_assert!(b.partial(&part) <= c.time_of(&p, a));
            }
        }
    }

    /// Local search evaluates only feasible assignments, reports them as representatives with
    /// their replayed times, and its lower bound is at most the optimum.
    #[test]
    fn local_search_stays_within_capacity(seed in 0u64..u64::MAX, ranks in 1usize..7,
            n in 1usize..5, kinds in 1u64..4, messages in 0usize..12, restarts in 1u32..6) {
        let mut rng = Rng::seeded(seed);
        let t = random_trace(&mut rng, ranks, messages);
        let p = random_cores_platform(&mut rng, n, kinds, ranks);
        let c = compile(&t).unwrap();
        let (want, _) = brute(&c, &p);
        let prob = Problem::new(&c, &p);
        let g = search::greedy(&prob);
        prop_assert!(fits(&g, &p.cores));
        let out = search::local_only(&prob, 1000, u64::MAX, restarts, seed);
        prop_assert!(out.lower_bound <= want[0].time);
        for row in &out.top.rows {
            prop_assert!(fits(&row.assign, &p.cores), "{:?} over {:?}", row.assign, p.cores);
            prop_assert_eq!(prob.representative(&row.assign), row.assign.clone());
            prop_assert_eq!(row.time.to_bits(), c.time_of(&p, &row.assign).to_bits());
            prop_assert!(want.iter().any(|w| w.assign == row.assign));
        }
        // the same with a list of one row and a small budget
        let mut list = TopList::new(1);
        let mut stats = Stats::default();
        search::local_search(&prob, restarts, seed, (c.steps() * 3) as u64, &mut list, &mut stats);
        prop_assert!(fits(&list.rows[0].assign, &p.cores));
    }

    /// The replay of an assignment that puts several ranks on one node equals the independent
    /// simulator (which prices every message by the platform's `u -> v` link, `u -> u` on one
    /// node).
    #[test]
    fn shared_nodes_replay_equals_the_oracle(seed in 0u64..u64::MAX, ranks in 2usize..7,
            n in 1usize..4, kinds in 1u64..4, messages in 0usize..25, proto in 0usize..3) {
        let mut rng = Rng::seeded(seed);
        let t = random_trace(&mut rng, ranks, messages);
        let p = random_cores_platform(&mut rng, n, kinds, ranks);
        let mut c = compile(&t).unwrap();
        let (protocol, eager): (Protocol, Box<dyn Fn(f64) -> bool>) = match proto {
            0 => (Protocol::Rendezvous, Box::new(|_| false)),
            1 => (Protocol::Eager, Box::new(|_| true)),
            _ => (Protocol::Size, Box::new(|b| b < 200.0)),
        };
        c.set_protocol(protocol, 200.0);
        let maps = feasible(ranks, &p.cores);
        let a = &maps[rng.below(maps.len() as u64) as usize];
        let got = c.time_of(&p, a);
        let want = oracle(&t, &p, a, &*eager).expect("the oracle finishes");
        prop_assert!(close(got, want), "replay {} oracle {}", got, want);
    }
}

/// A scenario of the text trace `text` on `nodes`, with `extra` fields merged in.
fn scenario(text: &str, nodes: Value, extra: Value) -> String {
    let mut doc = json!({"version": 1, "engine": "trace", "seed": 1,
        "trace": {"format": "text", "text": text},
        "nodes": nodes, "defaultLink": {"a0": 0.001, "a1": 1e-6}});
    if let (Some(d), Some(e)) = (doc.as_object_mut(), extra.as_object()) {
        for (k, v) in e {
            d.insert(k.clone(), v.clone());
        }
    }
    doc.to_string()
}

fn report(text: &str) -> Value {
    let out = api::run(text, &mut NoProgress).expect("the scenario runs");
    serde_json::from_str::<Value>(&out).unwrap()["report"].clone()
}

fn error(text: &str) -> placelab::ScenarioError {
    api::check(text).expect_err("refused")
}

const PING_PONG: &str = "0 send 1 1000\n1 recv 0 1000\n1 send 0 1000\n0 recv 1 1000\n";

/// A ping-pong of 1000 bytes each way between two ranks on one node of 2 cores costs
/// `2 (a0 + 1000 a1)` over the node's intra link, the node's own `intra` first, else
/// `intraLink`, else the default (1 µs + N / 10 GB/s); on two nodes it costs the network link.
#[test]
fn a_ping_pong_on_one_node_costs_the_intra_link() {
    let one = |intra: Option<Value>, extra: Value| {
        let mut node = json!({"name": "a", "ratio": 1, "cores": 2});
        if let Some(i) = intra {
            node["intra"] = i;
        }
        let r = report(&scenario(PING_PONG, json!([node]), extra));
        r["best"]["time"].as_f64().unwrap()
    };
    let t = one(Some(json!({"a0": 0.25, "a1": 0.001})), json!({}));
    assert_eq!(t, 2.0 * (0.25 + 1000.0 * 0.001));
    let t = one(None, json!({"intraLink": {"a0": 0.5, "a1": 0.002}}));
    assert_eq!(t, 2.0 * (0.5 + 1000.0 * 0.002));
    let t = one(None, json!({}));
    assert!(close(t, 2.0 * (1e-6 + 1000.0 * 1e-10)), "{t}");
    // the node's own link wins over the platform's
    let t = one(
        Some(json!({"a0": 0.25, "a1": 0.0})),
        json!({"intraLink": {"a0": 9.0, "a1": 9.0}}),
    );
    assert_eq!(t, 0.5);
    // two single-core nodes: the network link, 2 (0.001 + 1000e-6)
    let r = report(&scenario(
        PING_PONG,
        json!([{"name": "a"}, {"name": "b"}]),
        json!({"intraLink": {"a0": 9.0, "a1": 9.0}}),
    ));
    assert!(close(r["best"]["time"].as_f64().unwrap(), 0.004));
}

/// Sharing a node wins when the intra link is faster, and the search finds it: ranks 0 and 1
/// ping-pong, nodes a (2 cores) and b (1 core); the best puts both on `a`, and the machinefile
/// names `a` on both ranks' lines. With a slow intra link, the best splits them.
#[test]
fn the_best_assignment_shares_a_node_when_that_is_faster() {
    let nodes = json!([{"name": "a", "cores": 2}, {"name": "b"}]);
    for method in ["exhaustive", "branchAndBound", "localSearch"] {
        let search = json!({"search": {"method": method}, "intraLink": {"a0": 1e-6, "a1": 0.0}});
        let r = report(&scenario(PING_PONG, nodes.clone(), search));
        assert_eq!(r["best"]["hosts"], "a a", "{method}");
        assert_eq!(r["best"]["machinefile"], "a\na\n", "{method}");
        assert_eq!(r["timeline"]["nodes"], json!([0, 0]));
        assert_eq!(r["nodes"][0]["cores"], 2);
        assert!(r["nodes"][1].get("cores").is_none());
        // a b, b a and a a
        assert_eq!(r["search"]["assignments"], 3.0);
        let slow = json!({"search": {"method": method}, "intraLink": {"a0": 1.0, "a1": 0.0}});
        let r = report(&scenario(PING_PONG, nodes.clone(), slow));
        assert_ne!(r["best"]["hosts"], "a a", "{method}");
    }
}

/// The machinefile of a 16-rank trace on 4 nodes of 4 cores lists a host once per rank, in rank
/// order, no host more often than its cores; the ranking's hosts agree.
#[test]
fn the_machinefile_lists_a_host_once_per_rank_slot() {
    let nodes: Vec<Value> = (0..4)
        .map(|i| json!({"name": format!("n{i}"), "ratio": 1.0 + i as f64 * 0.5, "cores": 4}))
        .collect();
    let text = json!({"version": 1, "engine": "trace", "seed": 1,
        "generate": {"program": "himeno", "size": 32, "ranks": 16, "iterations": 1},
        "nodes": nodes, "defaultLink": {"a0": 5e-5, "a1": 1e-8},
        "search": {"method": "branchAndBound", "budget": 2e6}})
    .to_string();
    let r = report(&text);
    let mf = r["best"]["machinefile"].as_str().unwrap();
    let lines: Vec<&str> = mf.lines().collect();
    assert_eq!(lines.len(), 16);
    assert_eq!(lines.join(" "), r["best"]["hosts"].as_str().unwrap());
    for h in ["n0", "n1", "n2", "n3"] {
        assert!(lines.iter().filter(|&&l| l == h).count() <= 4, "{mf}");
    }
    for row in r["ranking"].as_array().unwrap() {
        let a: Vec<u8> = row["assignment"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap() as u8)
            .collect();
        assert!(fits(&a, &[4, 4, 4, 4]));
    }
    // the identity (node 0's cores first) is replayed too
    assert!(r["best"]["identityTime"].as_f64().unwrap() > 0.0);
}

/// Every node at `cores: 1`, written or not, with any intra-node link: the same report, byte
/// for byte, as before the field existed (the examples' goldens pin the rest).
#[test]
fn one_core_per_node_gives_the_same_report_with_or_without_the_fields() {
    let text = "0 compute 1\n0 send 1 500\n1 recv 0 500\n1 compute 2\n1 send 2 100\n2 recv 1 100\n2 compute 0.5\n";
    let plain = json!([{"name": "a", "ratio": 1}, {"name": "b", "ratio": 2}, {"name": "c", "ratio": 2}, {"name": "d", "ratio": 3}]);
    let written = json!([
        {"name": "a", "ratio": 1, "cores": 1, "intra": {"a0": 7, "a1": 7}},
        {"name": "b", "ratio": 2, "cores": 1},
        {"name": "c", "ratio": 2, "cores": 1, "intra": {"a0": 1, "a1": 0}},
        {"name": "d", "ratio": 3, "cores": 1}]);
    for method in ["exhaustive", "branchAndBound", "localSearch"] {
        let s = json!({"search": {"method": method}});
        let a = api::run(&scenario(text, plain.clone(), s.clone()), &mut NoProgress).unwrap();
        let mut s2 = s.clone();
        s2["intraLink"] = json!({"a0": 3, "a1": 3});
        let b = api::run(&scenario(text, written.clone(), s2), &mut NoProgress).unwrap();
        assert_eq!(a, b, "{method}");
    }
}

/// Bad input is refused at its JSON path with a clear message.
#[test]
fn bad_cores_and_intra_links_are_refused_at_their_path() {
    let two = |n0: Value| json!([n0, {"name": "b"}]);
    let e = error(&scenario(
        PING_PONG,
        two(json!({"name": "a", "cores": 0})),
        json!({}),
    ));
    assert_eq!(e.path, "$.nodes[0].cores", "{e}");
    let e = error(&scenario(
        PING_PONG,
        two(json!({"name": "a", "cores": 1025})),
        json!({}),
    ));
    assert_eq!(e.path, "$.nodes[0].cores", "{e}");
    let e = error(&scenario(
        PING_PONG,
        two(json!({"name": "a", "cores": 1.5})),
        json!({}),
    ));
    assert_eq!(e.path, "$.nodes[0].cores", "{e}");
    let e = error(&scenario(
        PING_PONG,
        two(json!({"name": "a", "cores": 2, "intra": {"a0": -1, "a1": 0}})),
        json!({}),
    ));
    assert_eq!(e.path, "$.nodes[0].intra.a0", "{e}");
    let e = error(&scenario(
        PING_PONG,
        two(json!({"name": "a", "cores": 2, "intra": {"a0": 1}})),
        json!({}),
    ));
    assert!(e.path.starts_with("$.nodes[0].intra"), "{e}");
    let e = error(&scenario(
        PING_PONG,
        two(json!({"name": "a"})),
        json!({"intraLink": {"a0": 0, "a1": -1}}),
    ));
    assert_eq!(e.path, "$.intraLink.a1", "{e}");
    // more ranks than cores in all
    let three = "0 send 1 1\n1 recv 0 1\n1 send 2 1\n2 recv 1 1\n";
    let e = error(&scenario(
        three,
        json!([{"name": "a", "cores": 2}]),
        json!({}),
    ));
    assert_eq!(e.path, "$.nodes", "{e}");
    assert!(
        e.message.contains("3 ranks") && e.message.contains("2 cores"),
        "{e}"
    );
    let e = error(&scenario(
        three,
        json!([{"name": "a"}, {"name": "b"}]),
        json!({}),
    ));
    assert_eq!(e.path, "$.nodes", "{e}");
    assert!(e.message.contains("cores"), "{e}");
    // a measured assignment over a node's cores
    let e = error(&scenario(
        PING_PONG,
        json!([{"name": "a", "cores": 2}, {"name": "b"}]),
        json!({"measured": "a a,1\nb b,2\n"}),
    ));
    assert_eq!(e.path, "$.measured", "{e}");
    assert!(e.message.contains("line 2"), "{e}");
    // within capacity: accepted
    api::check(&scenario(
        PING_PONG,
        json!([{"name": "a", "cores": 2}, {"name": "b"}]),
        json!({"measured": "a a,1\nb a,2\n"}),
    ))
    .unwrap();
}

/// More ranks than the rank limit are refused; 1,024 ranks on 64 nodes of 16 cores are
/// admitted and run by local search (the rank-pair tables counted in memory).
#[test]
fn the_rank_limit_is_1024() {
    let nodes: Vec<Value> = (0..64)
        .map(|i| json!({"name": format!("n{i}"), "ratio": 1.0 + (i % 4) as f64, "cores": 16}))
        .collect();
    let scen = |ranks: u32, search: Value| {
        json!({"version": 1, "engine": "trace", "seed": 1,
            "generate": {"program": "himeno", "size": 16, "ranks": ranks, "iterations": 1},
            "nodes": nodes, "defaultLink": {"a0": 5e-5, "a1": 1e-8}, "search": search})
        .to_string()
    };
    let e = error(&scen(1025, json!({})));
    assert_eq!(e.path, "$.generate.ranks", "{e}");
    // branch and bound at the default budget: each child writes its rank pairs' links into
    // tables of 1024^2 entries, which admission counts; it names the largest admitted budget
    let e = error(&scen(1024, json!({"method": "branchAndBound"})));
    assert_eq!(e.path, "$.search", "{e}");
    assert!(
        e.message.contains("lower \"search.budget\" to at most"),
        "{e}"
    );
    let s = scen(
        1024,
        json!({"method": "localSearch", "budget": 1, "restarts": 1}),
    );
    let r = report(&s);
    assert_eq!(r["trace"]["ranks"], 1024);
    assert_eq!(
        r["best"]["machinefile"].as_str().unwrap().lines().count(),
        1024
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Random small scenarios with cores (some zero, some too few), intra links and every
    /// method: refused or run, never a panic; a run's best is within capacity.
    #[test]
    fn random_scenarios_never_panic(seed in 0u64..u64::MAX, ranks in 1usize..6, n in 1usize..4,
            messages in 0usize..10, method in 0usize..4) {
        let mut rng = Rng::seeded(seed);
        let mut text = String::new();
        for x in 0..ranks {
            text.push_str(&format!("{x} compute {}\n", rng.below(4)));
        }
        for _ in 0..messages {
            let a = rng.below(ranks as u64) as usize;
            let b = rng.below(ranks as u64) as usize;
            if a != b {
                let bytes = rng.below(1000);
                text.push_str(&format!("{a} send {b} {bytes}\n{b} recv {a} {bytes}\n"));
            }
        }
        let cores: Vec<u64> = (0..n).map(|_| rng.below(4)).collect();
        let nodes: Vec<Value> = (0..n)
            .map(|u| {
                let mut v = json!({"name": format!("n{u}"), "ratio": 1 + rng.below(3), "cores": cores[u]});
                if rng.below(2) == 0 {
                    v["intra"] = json!({"a0": rng.below(3) as f64 * 0.1, "a1": 1e-4});
                }
                v
            })
            .collect();
        let m = ["auto", "exhaustive", "branchAndBound", "localSearch"][method];
        let s = scenario(&text, Value::Array(nodes), json!({"search": {"method": m, "budget": 1e5}}));
        if let Ok(out) = api::run(&s, &mut NoProgress) {
            let r: Value = serde_json::from_str(&out).unwrap();
            let a: Vec<u8> = r["report"]["best"]["assignment"].as_array().unwrap().iter()
                .map(|x| x.as_u64().unwrap() as u8).collect();
            let caps: Vec<u32> = cores.iter().map(|&k| k as u32).collect();
            prop_assert!(fits(&a, &caps));
        }
    }
}
