//! Identical ranks (`src/trace/search/symmetry.rs`): the permutations found leave every
//! predicted time unchanged to the last bit, SPMD traces built with shifted neighbours have
//! them found, a trace broken on one rank has none of them, and the searches reduced by them
//! answer as a brute force over the assignments they list, with the best time of all
//! assignments.

use placelab::rng::Rng;
use placelab::trace::model::{Op, Origin, Trace};
use placelab::trace::replay::{compile, Compiled, Platform};
use placelab::trace::search::symmetry::{detect, Generator};
use placelab::trace::search::{self, Problem, Ranked};
use proptest::prelude::*;

#[path = "support/trace_platform.rs"]
mod trace_platform;
#[path = "support/trace_searches.rs"]
mod trace_searches;
use trace_platform::random_platform;
use trace_searches::searches_give_the_ranking;

/// A random SPMD trace: every rank runs the same steps with its neighbours at the same offsets
/// (a compute; non-blocking sends to `x + d` and receives from `x - d`, then a wait for all;
/// with `xor`, exchanges with `x xor m`; with an even rank count, blocking exchanges with the
/// neighbour at `x + d`, even ranks sending first). `broken`: rank `broken`'s computes are
/// changed.
fn spmd(rng: &mut Rng, r: usize, steps: usize, xor: bool, broken: Option<usize>) -> Trace {
    let mut t = Trace::new(r, Origin::Generated);
    for _ in 0..steps {
        match rng.below(4) {
            0 => {
                let c = 0.5 + rng.below(4) as f64;
                for x in 0..r {
                    let extra = if broken == Some(x) { 0.25 } else { 0.0 };
                    t.push(x, Op::Compute(c + extra), 0, 0);
                }
            }
            1 if xor && r.is_power_of_two() && r > 1 => {
                let m = 1 << rng.below(r.trailing_zeros() as u64);
                let bytes = (1 + rng.below(4)) as f64 * 100.0;
                for x in 0..r {
                    let y = (x ^ m) as u32;
                    t.push(
                        x,
                        Op::Isend {
                            peer: y,
                            tag: 1,
                            bytes,
                        },
                        0,
                        0,
                    );
                    t.push(
                        x,
                        Op::Irecv {
                            peer: y,
                            tag: 1,
                            bytes,
                        },
                        0,
                        0,
                    );
                    t.push(x, Op::WaitAll, 0, 0);
                }
            }
            2 if r % 2 == 0 && r > 2 => {
                // blocking: even ranks send to x + 1 then receive from x - 1, odd ranks the
                // other way round (a shift by 2 keeps it)
                let bytes = (1 + rng.below(4)) as f64 * 100.0;
                for x in 0..r {
                    let (right, left) = (((x + 1) % r) as u32, ((x + r - 1) % r) as u32);
                    let s = Op::Send {
                        peer: right,
                        tag: 0,
                        bytes,
                    };
                    let v = Op::Recv {
                        peer: left,
                        tag: 0,
                        bytes,
                    };
                    let ops = if x % 2 == 0 { [s, v] } else { [v, s] };
                    for op in ops {
                        t.push(x, op, 0, 0);
                    }
                }
            }
            _ if r > 1 => {
                let d = 1 + rng.below(r as u64 - 1) as usize;
                let bytes = (1 + rng.below(4)) as f64 * 100.0;
                for x in 0..r {
                    let (to, from) = (((x + d) % r) as u32, ((x + r - d) % r) as u32);
                    t.push(
                        x,
                        Op::Isend {
                            peer: to,
                            tag: 2,
                            bytes,
                        },
                        0,
                        0,
                    );
                    t.push(
                        x,
                        Op::Irecv {
                            peer: from,
                            tag: 2,
                            bytes,
                        },
                        0,
                        0,
                    );
                    t.push(x, Op::WaitAll, 0, 0);
                }
            }
            _ => {}
        }
    }
    t
}

fn compiled(t: &Trace) -> Compiled {
    compile(t).expect("an SPMD trace compiles")
}

/// A random assignment of `r` ranks to distinct nodes of `n`.
fn random_assignment(rng: &mut Rng, r: usize, n: usize) -> Vec<u8> {
    let mut nodes: Vec<u8> = (0..n as u8).collect();
    for i in (1..n).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        nodes.swap(i, j);
    }
    nodes.truncate(r);
    nodes
}

/// Every assignment of `r` ranks to the `n` nodes within their cores with its time (listed ones
/// only, or all), best first (ties by assignment).
fn brute_force(prob: &Problem, r: usize, n: usize, listed_only: bool) -> Vec<Ranked> {
    let mut out = Vec::new();
    let mut a = vec![0u8; r];
    fn rec(
        prob: &Problem,
        a: &mut Vec<u8>,
        d: usize,
        n: usize,
        listed_only: bool,
        out: &mut Vec<Ranked>,
    ) {
        if d == a.len() {
            if !listed_only || prob.listed(a) {
                out.push(Ranked {
                    time: prob.c.time_of(prob.p, a),
                    assign: a.clone(),
                });
            }
            return;
        }
        for u in 0..n as u8 {
            let load = a[..d].iter().filter(|&&v| v == u).count() as u32;
            if load < prob.p.cores[u as usize] {
                a[d] = u;
                rec(prob, a, d + 1, n, listed_only, out);
            }
        }
    }
    rec(prob, &mut a, 0, n, listed_only, &mut out);
    out.sort_by(|x, y| x.time.total_cmp(&y.time).then(x.assign.cmp(&y.assign)));
    out
}

fn p_of(rng: &mut Rng, n: usize) -> Platform {
    // 2 to 6 kinds: from many identical nodes to nearly all different
    let kinds = 2 + rng.below(5);
    random_platform(rng, n, kinds)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// The theorem: `a` and `a ∘ g` have the same time to the last bit, for every generator
    /// found and every permutation the reduction uses.
    #[test]
    fn found_permutations_keep_every_time(seed in any::<u64>(), r in 2usize..9, steps in 1usize..12, xor in any::<bool>()) {
        let mut rng = Rng::seeded(seed);
        let t = spmd(&mut rng, r, steps, xor, None);
        let c = compiled(&t);
        let n = r + rng.below(3) as usize;
        let p = p_of(&mut rng, n);
        let prob = Problem::searched(&c, &p, true);
        let Some(sym) = &prob.sym else {
            // only a trace of computes alone, or of one step, may have none: it has a shift
            prop_assert!(false, "an SPMD trace has a shift or a reflection");
            unreachable!()
        };
        prop_assert!(sym.orbit.len() >= 2);
        for _ in 0..8 {
            let a = random_assignment(&mut rng, r, n);
            let t0 = c.time_of(&p, &a);
            for g in &sym.generators {
                let ag: Vec<u8> = (0..r).map(|x| a[g.apply(x as u32, r as u32) as usize]).collect();
                prop_assert_eq!(c.time_of(&p, &ag).to_bits(), t0.to_bits(), "{:?}", g);
            }
            let canon = prob.canonical(&a);
            prop_assert!(prob.listed(&canon));
            prop_assert_eq!(c.time_of(&p, &canon).to_bits(), t0.to_bits());
        }
    }

    /// A shift by one (or by two with the blocking steps) is found on the SPMD traces; none
    /// is when one rank computes differently.
    #[test]
    fn shifts_are_found_and_a_broken_rank_has_none(seed in any::<u64>(), r in 3usize..9, steps in 2usize..12) {
        let mut rng = Rng::seeded(seed);
        let t = spmd(&mut rng, r, steps, false, None);
        let c = compiled(&t);
        let order: Vec<usize> = (0..r).collect();
        let sym = detect(&c, &order).expect("an SPMD trace has a shift");
        prop_assert!(
            sym.generators.iter().any(|g| matches!(g, Generator::Shift(1) | Generator::Shift(2))),
            "{:?}", sym.generators
        );
        let mut rng = Rng::seeded(seed);
        let broken = spmd(&mut rng, r, steps, false, Some(1));
        let has_compute = broken.ranks[1] != t.ranks[1];
        let cb = compiled(&broken);
        if has_compute {
            let found = detect(&cb, &order);
            prop_assert!(
                found.as_ref().is_none_or(|s| !s.generators.iter().any(|g| matches!(g, Generator::Shift(_)))),
                "{:?}", found
            );
        }
    }

    /// The searches reduced by identical ranks give exactly the brute-force ranking of the
    /// listed assignments, and its first row has the least time of all assignments.
    #[test]
    fn reduced_searches_answer_as_the_brute_force(seed in any::<u64>(), r in 2usize..6, steps in 1usize..10, xor in any::<bool>(), top in 1usize..12, multicore in any::<bool>()) {
        let mut rng = Rng::seeded(seed);
        let t = spmd(&mut rng, r, steps, xor, None);
        let c = compiled(&t);
        let mut n = r + rng.below(2) as usize;
        if multicore {
            // fewer nodes, of 1 to 3 cores, enough for every rank
            n = r.div_ceil(2) + rng.below(2) as usize;
        }
        let mut p = p_of(&mut rng, n);
        if multicore {
            for u in 0..n {
                p.cores[u] = 1 + rng.below(3) as u32;
            }
            while (p.cores.iter().sum::<u32>() as usize) < r {
                for k in p.cores.iter_mut() {
                    *k += 1;
                }
            }
        }
        let mut prob = Problem::searched(&c, &p, true);
        prop_assume!(prob.sym.is_some());
        let want = brute_force(&prob, r, n, true);
        let all = brute_force(&prob, r, n, false);
        prop_assert_eq!(want[0].time.to_bits(), all[0].time.to_bits());
        let (ex, _) = searches_give_the_ranking(&mut prob, top, &want)?;
        prop_assert!(ex.stats.replays as usize <= all.len());
        let ls = search::local_only(&prob, top, 1 << 20, 4, seed);
        for row in &ls.top.rows {
            prop_assert!(prob.listed(&row.assign));
        }
    }
}

/// The ring generator's trace on 8 distinct nodes: every shift is found, and exhaustive search
/// replays an eighth of the assignments for the same answer.
#[test]
fn a_ring_on_eight_distinct_nodes_searches_an_eighth() {
    let spec: placelab::trace::generate::GenerateSpec = serde_json::from_value(
        serde_json::json!({"program": "ring", "size": 200, "ranks": 8, "iterations": 3}),
    )
    .unwrap();
    let t = placelab::trace::generate::generate(&spec, 1e9);
    let c = compiled(&t);
    let mut rng = Rng::seeded(7);
    let p = random_platform(&mut rng, 8, 1000);
    let reduced = Problem::searched(&c, &p, true);
    let sym = reduced.sym.as_ref().expect("a ring has shifts");
    assert_eq!(sym.orbit, (0..8).collect::<Vec<u32>>());
    let full = Problem::searched(&c, &p, false);
    assert!(full.sym.is_none());
    let a = search::exhaustive(&reduced, 3);
    let b = search::exhaustive(&full, 3);
    assert_eq!(a.stats.replays * 8, b.stats.replays);
    assert_eq!(a.top.rows[0].time.to_bits(), b.top.rows[0].time.to_bits());
}
