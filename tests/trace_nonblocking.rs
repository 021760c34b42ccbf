//! Non-blocking calls, tags and collectives in the trace engine: the compiled replay equals an
//! independent simulator (calls matched as they are posted, clocks advanced until nothing
//! moves) on random traces; searches equal brute force and bounds stay admissible on them;
//! collectives cost what their algorithm's messages cost in closed form; collectives called
//! differently by different ranks are refused with the line.

use placelab::rng::Rng;
use placelab::trace::model::{Coll, CollKind, Op};
use placelab::trace::replay::{compile, Compiled, Platform, Protocol, Tables};
use placelab::trace::search::{self, order, Bounds, Problem, Ranked};
use placelab::trace::ti;
use proptest::prelude::*;

#[path = "support/trace_oracle.rs"]
mod trace_oracle;
#[path = "support/trace_platform.rs"]
mod trace_platform;
#[path = "support/trace_searches.rs"]
mod trace_searches;
use trace_oracle::{oracle, random_trace};
use trace_platform::random_platform;
use trace_searches::searches_give_the_ranking;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

fn brute(c: &Compiled, p: &Platform) -> Vec<Ranked> {
    let prob = Problem::new(c, p);
    let mut all: Vec<Ranked> = Vec::new();
    fn rec(d: usize, assign: &mut Vec<u8>, n: usize, out: &mut Vec<Vec<u8>>) {
        if d == assign.len() {
            out.push(assign.clone());
            return;
        }
        for u in 0..n as u8 {
            if !assign[..d].contains(&u) {
                assign[d] = u;
                rec(d + 1, assign, n, out);
            }
        }
    }
    let mut maps = Vec::new();
    rec(0, &mut vec![0u8; c.ranks], p.n, &mut maps);
    for a in maps {
        all.push(Ranked {
            time: c.time_of(p, &a),
            assign: prob.representative(&a),
        });
    }
    all.sort_by(order);
    all.dedup_by(|a, b| a.assign == b.assign);
    all
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// The compiled replay equals the oracle on every protocol; the critical path has the
    /// run time's length and bounds every other parameter set from below.
    #[test]
    fn replay_equals_the_oracle(seed in 0u64..u64::MAX, ranks in 2usize..6, extra in 0usize..2,
                                kinds in 1u64..5, messages in 0usize..25, proto in 0usize..3) {
        let mut rng = Rng::seeded(seed);
        let t = random_trace(&mut rng, ranks, messages);
        let n = ranks + extra;
        let p = random_platform(&mut rng, n, kinds);
        let mut c = compile(&t).unwrap();
        let (protocol, eager): (Protocol, Box<dyn Fn(f64) -> bool>) = match proto {
            0 => (Protocol::Rendezvous, Box::new(|_| false)),
            1 => (Protocol::Eager, Box::new(|_| true)),
            _ => (Protocol::Size, Box::new(|b| b < 200.0)),
        };
        c.set_protocol(protocol, 200.0);
        let mut nodes: Vec<u8> = (0..n as u8).collect();
        for i in (1..n).rev() {
            nodes.swap(i, rng.below(i as u64 + 1) as usize);
        }
        let assign = &nodes[..ranks];
        let got = c.time_of(&p, assign);
        let want = oracle(&t, &p, assign, &*eager).expect("the oracle finishes");
        prop_assert!(close(got, want), "replay {} oracle {}", got, want);
        // the critical path under the same parameters has the run time's length
        let mut tab = Tables::new(ranks);
        c.exact_tables(&p, assign, &mut tab);
        let (end, prof) = c.critical_path(&tab);
        prop_assert_eq!(end.to_bits(), got.to_bits());
        let len = |tab: &Tables| {
            let mut s = prof.fixed;
            for x in 0..ranks {
                s += prof.w[x] * tab.ratio[x];
            }
            for k in 0..ranks * ranks {
                if prof.count[k] > 0.0 {
                    s += (prof.count[k] * tab.a0[k] + prof.bytes[k] * tab.a1[k]).max(0.0);
                }
            }
            s
        };
        prop_assert!(close(len(&tab), end), "path {} end {}", len(&tab), end);
        // another assignment: the chain is still a lower bound
        nodes.reverse();
        let other = &nodes[..ranks];
        let mut tab2 = Tables::new(ranks);
        c.exact_tables(&p, other, &mut tab2);
        prop_assert!(len(&tab2) <= c.time_of(&p, other) * (1.0 + 1e-9));
    }

    /// Exhaustive search (eight lanes and one) and branch and bound, with and without the
    /// bounds that need no replay, give brute force's ranking on non-blocking traces.
    #[test]
    fn searches_equal_brute_force(seed in 0u64..u64::MAX, ranks in 1usize..6, extra in 0usize..2,
                                  kinds in 1u64..5, messages in 0usize..14, top in 1usize..30,
                                  eager in any::<bool>()) {
        let mut rng = Rng::seeded(seed);
        let t = random_trace(&mut rng, ranks, messages);
        let n = ranks + extra;
        let p = random_platform(&mut rng, n, kinds);
        let mut c = compile(&t).unwrap();
        c.set_protocol(if eager { Protocol::Eager } else { Protocol::Rendezvous }, 0.0);
        let want = brute(&c, &p);
        let mut prob = Problem::new(&c, &p);
        searches_give_the_ranking(&mut prob, top, &want)?;
        // the bound of the empty assignment is below the best
        let mut b = Bounds::new(&c, &p);
        prop_assert!(b.partial(&vec![search::FREE; ranks]) <= want[0].time);
    }
}

/// Uniform links of `a0 + a1 N` between `n` nodes of ratio 1.
fn uniform(n: usize, a0: f64, a1: f64) -> Platform {
    let mut x0 = vec![a0; n * n];
    let mut x1 = vec![a1; n * n];
    for u in 0..n {
        x0[u * n + u] = 0.0;
        x1[u * n + u] = 0.0;
    }
    Platform {
        n,
        ratio: vec![1.0; n],
        a0: x0,
        a1: x1,
        cores: vec![1; n],
    }
}

fn ti_trace(text: &str) -> Compiled {
    let t = ti::parse(text, 1.0).unwrap();
    compile(&t).unwrap()
}

fn all_ranks(p: usize, line: impl Fn(usize) -> String) -> String {
    (0..p).map(|x| format!("{x} {}\n", line(x))).collect()
}

#[test]
fn a_binomial_broadcast_takes_log2_p_transfers() {
    for p in [2usize, 4, 8, 16, 5, 7] {
        let c = ti_trace(&all_ranks(p, |_| "bcast 1000 0 2".into()));
        assert_eq!(c.messages, p as u64 - 1);
        let plat = uniform(p, 1e-3, 1e-6);
        let assign: Vec<u8> = (0..p as u8).collect();
        let one = 1e-3 + 1e-6 * 1000.0;
        let rounds = (p as f64).log2().ceil();
        assert!(close(c.time_of(&plat, &assign), rounds * one), "P = {p}");
    }
}

#[test]
fn an_allreduce_is_a_linear_reduce_then_a_broadcast_then_the_operator() {
    for p in [2usize, 4, 8] {
        let c = ti_trace(&all_ranks(p, |_| "allreduce 10 2e-3 1".into()));
        assert_eq!(c.messages, 2 * (p as u64 - 1));
        let plat = uniform(p, 1e-3, 1e-5);
        let assign: Vec<u8> = (0..p as u8).collect();
        let one = 1e-3 + 1e-5 * 40.0; // 10 ints
        let want = one + (p as f64).log2() * one + 2e-3;
        assert!(close(c.time_of(&plat, &assign), want), "P = {p}");
    }
}

#[test]
fn a_linear_alltoall_overlaps_every_transfer() {
    // 4 ranks, 1000 bytes a peer: Open MPI's linear choice; every transfer starts at 0
    let c = ti_trace(&all_ranks(4, |_| "alltoall 1000 1000 6 6".into()));
    assert_eq!(c.messages, 12);
    let plat = uniform(4, 1e-3, 1e-6);
    assert!(close(c.time_of(&plat, &[0, 1, 2, 3]), 1e-3 + 1e-6 * 1000.0));
    // 16 ranks, 64 bytes: Bruck, log2 16 = 4 rounds of 8 blocks
    let c = ti_trace(&all_ranks(16, |_| "alltoall 64 64 6 6".into()));
    assert_eq!(c.messages, 16 * 4);
    let plat = uniform(16, 1e-3, 1e-6);
    let assign: Vec<u8> = (0..16).collect();
    assert!(close(
        c.time_of(&plat, &assign),
        4.0 * (1e-3 + 1e-6 * 8.0 * 64.0)
    ));
}

#[test]
fn a_halo_exchange_overlaps_its_transfers_with_computation() {
    // each rank posts both receives and both sends of a ring, computes 5 ms, waits for all
    let c = ti_trace(&all_ranks(4, |x| {
        let (l, r) = ((x + 3) % 4, (x + 1) % 4);
        format!(
            "irecv {l} 1 1000 6\n{x} irecv {r} 1 1000 6\n{x} isend {l} 1 1000 6\n{x} isend {r} 1 1000 6\n{x} compute 5e-3\n{x} waitall"
        )
    }));
    let assign = [0u8, 1, 2, 3];
    // transfers shorter than the computation are hidden
    assert!(close(c.time_of(&uniform(4, 1e-3, 1e-6), &assign), 5e-3));
    // longer ones show: 2 ms + 1000 x 10 us = 12 ms
    assert!(close(c.time_of(&uniform(4, 2e-3, 1e-5), &assign), 12e-3));
}

#[test]
fn tags_match_as_mpi_matches_them() {
    // rank 0 sends tag 2 then tag 1; rank 1 receives tag 1 first: with tags ignored this
    // would pair the 10-byte send with the receive of at most 10 bytes, and fail
    let text =
        "0 isend 1 2 1000 6\n0 send 1 1 10 6\n0 waitall\n1 recv 0 1 10 6\n1 recv 0 2 1000 6\n";
    let c = ti_trace(text);
    assert_eq!(c.messages, 2);
    // a tag that no send has is named
    let t = ti::parse("0 send 1 4 10 6\n1 recv 0 5 10 6\n", 1.0).unwrap();
    let (_, line, m) = compile(&t).unwrap_err();
    assert_eq!(line, 2);
    assert!(m.contains("with tag 5 that is never sent"), "{m}");
}

#[test]
fn collectives_called_differently_are_refused_with_the_line() {
    let t = ti::parse("0 bcast 10\n1 barrier\n", 1.0).unwrap();
    let (_, line, m) = compile(&t).unwrap_err();
    assert_eq!(line, 2);
    assert!(m.contains("rank 1 calls barrier"), "{m}");
    let t = ti::parse("0 bcast 10\n0 barrier\n1 bcast 10\n", 1.0).unwrap();
    let (_, _, m) = compile(&t).unwrap_err();
    assert!(m.contains("makes only 1 collective call(s)"), "{m}");
    let t = ti::parse("0 bcast 10 1\n1 bcast 10 0\n", 1.0).unwrap();
    assert!(compile(&t).unwrap_err().2.contains("with root"));
    // a v form whose count does not fit the ranks
    let t = ti::parse("0 gatherv 10 1\n1 gatherv 10 1\n", 1.0).unwrap();
    let (_, line, m) = compile(&t).unwrap_err();
    assert_eq!(line, 1);
    assert!(m.contains("gatherv with 2 ranks takes"), "{m}");
}

#[test]
fn the_whole_vocabulary_compiles_and_every_rank_ends() {
    let text = placelab::trace::samples::ti_vocabulary();
    let t = ti::parse(&text, 1e8).unwrap();
    assert_eq!(t.ranks.len(), 4);
    let mut c = compile(&t).unwrap();
    c.set_protocol(Protocol::Size, 65536.0);
    let plat = uniform(4, 1e-4, 1e-8);
    let time = c.time_of(&plat, &[0, 1, 2, 3]);
    assert!(time.is_finite() && time > 0.0);
    // the computation alone is a lower bound, the sleep included
    let (work, sleep) = c.rank_work();
    for x in 0..4 {
        assert!(work[x] + sleep[x] <= time);
    }
    // a sendRecv pairs two ranks only, not every rank
    let c = ti_trace("0 sendRecv 10 1 10 1\n1 sendRecv 10 0 10 0\n");
    assert_eq!(c.messages, 2);
}

#[test]
fn a_collective_struct_is_what_the_parser_reads() {
    let t = ti::parse(
        "0 init 1\n0 reduce 10 5e6 1\n1 init 1\n1 reduce 10 5e6 1\n",
        1e9,
    )
    .unwrap();
    let Op::Coll(i) = t.ranks[0][0].op else {
        panic!("a collective")
    };
    let c: &Coll = &t.colls[i as usize];
    assert_eq!(c.kind, CollKind::Reduce);
    assert_eq!((c.root, c.send, c.comp), (1, 80.0, 5e-3));
}

#[test]
fn collectives_that_expand_past_the_limit_are_refused_before_expanding() {
    // 64 ranks, 1,000 alltoall calls each: 4,032,000 messages
    let mut text = String::new();
    for x in 0..64 {
        for _ in 0..1000 {
            text.push_str(&format!("{x} alltoall 100000 100000 6 6\n"));
        }
    }
    let t = ti::parse(&text, 1.0).unwrap();
    let (_, _, m) = compile(&t).unwrap_err();
    assert!(
        m.contains("expand into 4032000 messages; the limit is 4000000"),
        "{m}"
    );
}

/// One random time-independent line of rank `x` (`a` picks the action, `n` its numbers).
fn soup_line(x: usize, a: usize, n: &[u32]) -> String {
    let v = |i: usize| n[i % n.len()];
    let acts = [
        "compute",
        "sleep",
        "send",
        "recv",
        "isend",
        "irecv",
        "wait",
        "waitall",
        "test",
        "sendRecv",
        "barrier",
        "bcast",
        "reduce",
        "allreduce",
        "alltoall",
        "alltoallv",
        "gather",
        "gatherv",
        "allgather",
        "allgatherv",
        "scatter",
        "scatterv",
        "reducescatter",
        "scan",
        "exscan",
        "init",
        "finalize",
    ];
    let act = acts[a % acts.len()];
    let args: Vec<String> = (0..(v(0) as usize % 12))
        .map(|i| v(i + 1).to_string())
        .collect();
    format!("{x} {act} {}\n", args.join(" "))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// Any soup of the vocabulary's actions with small numbers (ranks out of range, wrong
    /// argument counts, unmatched calls, mismatched collectives) is read, compiled and replayed
    /// or refused with a message, never a panic.
    #[test]
    fn action_soup_never_panics(lines in proptest::collection::vec((0usize..4, 0usize..27, proptest::collection::vec(0u32..6, 1..14)), 0..40)) {
        // the lines that read on their own, so that compiling sees many of them
        let text: String = lines
            .iter()
            .map(|(x, a, n)| soup_line(*x, *a, n))
            .filter(|l| ti::parse(l, 1.0).is_ok())
            .collect();
        if let Ok(t) = ti::parse(&text, 1.0) {
            if let Ok(mut c) = compile(&t) {
                c.set_protocol(Protocol::Size, 3.0);
                let p = uniform(c.ranks.max(1), 1e-3, 1e-6);
                let assign: Vec<u8> = (0..c.ranks as u8).collect();
                let time = c.time_of(&p, &assign);
                prop_assert!(time.is_finite());
                let mut tab = Tables::new(c.ranks);
                c.exact_tables(&p, &assign, &mut tab);
                let _ = c.critical_path(&tab);
                let _ = placelab::trace::replay::timeline(&c, &p, &assign, 50);
            }
        }
    }
}
