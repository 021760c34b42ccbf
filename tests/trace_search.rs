//! Search of the trace engine: exhaustive search and branch and bound equal brute
//! force (every assignment replayed, representatives, the tie order) on small cases with
//! identical nodes and ties; the bound is admissible; the work budget stops large searches
//! with a valid gap; searches are deterministic.

use placelab::rng::Rng;
use placelab::trace::model::{Op, Origin, Trace};
use placelab::trace::replay::{compile, Compiled, Platform};
use placelab::trace::search::{
    self, order, Bounds, PathBound, Problem, RankBound, Ranked, Stop, FREE,
};
use proptest::prelude::*;

#[path = "support/trace_platform.rs"]
mod trace_platform;
#[path = "support/trace_searches.rs"]
mod trace_searches;
use trace_platform::random_platform;
use trace_searches::searches_give_the_ranking;

/// A random deadlock-free trace: messages appended to both ranks in one global order, random
/// computes between them.
fn random_trace(rng: &mut Rng, ranks: usize, messages: usize) -> Trace {
    let mut t = Trace::new(ranks, Origin::Generated);
    for x in 0..ranks {
        t.push(x, Op::Compute(rng.below(4) as f64 * 0.5), 0, 0);
    }
    if ranks < 2 {
        return t;
    }
    for _ in 0..messages {
        let a = rng.below(ranks as u64) as usize;
        let mut b = rng.below(ranks as u64 - 1) as usize;
        if b >= a {
            b += 1;
        }
        let bytes = (rng.below(4) * 100) as f64;
        t.push(
            a,
            Op::Send {
                tag: 0,
                peer: b as u32,
                bytes,
            },
            0,
            0,
        );
        t.push(
            b,
            Op::Recv {
                tag: 0,
                peer: a as u32,
                bytes,
            },
            0,
            0,
        );
        let x = rng.below(ranks as u64) as usize;
        t.push(x, Op::Compute(rng.below(3) as f64), 0, 0);
    }
    t
}

/// Brute force: every assignment, replayed on its own, mapped to its representative,
/// deduplicated, sorted in the tie order.
fn brute(c: &Compiled, p: &Platform) -> Vec<Ranked> {
    let prob = Problem::new(c, p);
    let mut all: Vec<Ranked> = Vec::new();
    let mut assign = vec![0u8; c.ranks];
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
    rec(0, &mut assign, p.n, &mut maps);
    for a in maps {
        let t = c.time_of(p, &a);
        let rep = prob.representative(&a);
        assert_eq!(
            t.to_bits(),
            c.time_of(p, &rep).to_bits(),
            "identical nodes give identical times"
        );
        all.push(Ranked {
            time: t,
            assign: rep,
        });
    }
    all.sort_by(order);
    all.dedup_by(|a, b| a.assign == b.assign);
    all
}

fn case(seed: u64, ranks: usize, n: usize, kinds: u64, messages: usize) -> (Compiled, Platform) {
    let mut rng = Rng::seeded(seed);
    let t = random_trace(&mut rng, ranks, messages);
    (compile(&t).unwrap(), random_platform(&mut rng, n, kinds))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(120))]

    /// Exhaustive search and branch and bound give exactly brute force's ranking (every row,
    /// ties in order), for any `top`, and branch and bound proves it.
    #[test]
    fn searches_equal_brute_force(seed in 0u64..u64::MAX, ranks in 1usize..6, extra in 0usize..2,
                                  kinds in 1u64..5, messages in 0usize..12, top in 1usize..40) {
        let n = ranks + extra;
        let (c, p) = case(seed, ranks, n, kinds, messages);
        let want = brute(&c, &p);
        let mut prob = Problem::new(&c, &p);
        // with and without the bounds that need no replay (short traces skip them by default)
        let (ex, plain) = searches_give_the_ranking(&mut prob, top, &want)?;
        prop_assert_eq!(plain.stats, ex.stats);
        // with every row listed, the rows stand for every assignment exactly once
        if top >= want.len() {
            let total: f64 = want.iter().map(|r| search::equivalents(&r.assign, &prob.class)).sum();
            prop_assert_eq!(total, search::assignments(n, ranks));
            prop_assert_eq!(search::distinct(&prob.class, ranks), want.len() as f64);
        }
    }

    /// The bound of a partial assignment never exceeds the best completion (admissible) and is
    /// exact for complete assignments.
    #[test]
    fn bound_is_admissible(seed in 0u64..u64::MAX, ranks in 2usize..6, extra in 0usize..2,
                           kinds in 1u64..6, messages in 0usize..12, placed_mask in 0u32..64) {
        let n = ranks + extra;
        let (c, p) = case(seed, ranks, n, kinds, messages);
        let (full, partial) = random_partial(seed, ranks, n, placed_mask);
        let mut b = Bounds::new(&c, &p);
        let lb = b.partial(&partial);
        let best = best_completion(&c, &p, &partial);
        prop_assert!(lb <= best, "bound {} above the best completion {}", lb, best);
        prop_assert_eq!(b.partial(&full).to_bits(), c.time_of(&p, &full).to_bits());
        prop_assert_eq!(b.exact(&full).to_bits(), c.time_of(&p, &full).to_bits());
    }
}

/// The least time over the completions of `partial` (brute force).
fn best_completion(c: &Compiled, p: &Platform, partial: &[u8]) -> f64 {
    fn rec(x: usize, assign: &mut Vec<u8>, n: usize, c: &Compiled, p: &Platform, best: &mut f64) {
        if x == assign.len() {
            *best = best.min(c.time_of(p, assign));
            return;
        }
        if assign[x] != FREE {
            return rec(x + 1, assign, n, c, p, best);
        }
        for u in 0..n as u8 {
            if !assign.contains(&u) {
                assign[x] = u;
                rec(x + 1, assign, n, c, p, best);
                assign[x] = FREE;
            }
        }
    }
    let mut best = f64::INFINITY;
    rec(0, &mut partial.to_vec(), p.n, c, p, &mut best);
    best
}

/// A random complete assignment and a partial one placing the ranks of `mask`.
fn random_partial(seed: u64, ranks: usize, n: usize, mask: u32) -> (Vec<u8>, Vec<u8>) {
    let mut rng = Rng::seeded(seed ^ 0x5eed);
    let mut nodes: Vec<u8> = (0..n as u8).collect();
    for i in (1..n).rev() {
        nodes.swap(i, rng.below(i as u64 + 1) as usize);
    }
    let full: Vec<u8> = nodes[..ranks].to_vec();
    let partial = (0..ranks)
        .map(|x| if mask >> x & 1 == 1 { full[x] } else { FREE })
        .collect();
    (full, partial)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    /// The per-rank bound never exceeds the best completion, and its filter never excludes a
    /// partial assignment that has a completion at most the threshold (both protocols).
    #[test]
    fn rank_bound_is_admissible(seed in 0u64..u64::MAX, ranks in 2usize..6, extra in 0usize..2,
                                kinds in 1u64..6, messages in 0usize..14, mask in 0u32..64,
                                eager in any::<bool>(), slack in 0.9f64..1.1) {
        let n = ranks + extra;
        let (mut c, p) = case(seed, ranks, n, kinds, messages);
        if eager {
            c.set_protocol(placelab::trace::replay::Protocol::Eager, 0.0);
        }
        let (_, partial) = random_partial(seed, ranks, n, mask);
        let best = best_completion(&c, &p, &partial);
        let mut rb = RankBound::new(&c, &p);
        let lb = rb.bound(&partial);
        prop_assert!(lb <= best, "rank bound {} above the best completion {}", lb, best);
        let th = best * slack;
        if rb.excludes(th) {
            prop_assert!(best > th, "excluded with a completion {} at most {}", best, th);
        }
        prop_assert!(!rb.excludes(best));
    }

    /// The critical-path bound, with chains from the relaxed replay and from random complete
    /// assignments, never exceeds the best completion; a chain's length under its own
    /// assignment is that assignment's replayed time (up to rounding).
    #[test]
    fn path_bound_is_admissible(seed in 0u64..u64::MAX, ranks in 2usize..6, extra in 0usize..2,
                                kinds in 1u64..6, messages in 0usize..14, mask in 0u32..64,
                                eager in any::<bool>()) {
        let n = ranks + extra;
        let (mut c, p) = case(seed, ranks, n, kinds, messages);
        if eager {
            c.set_protocol(placelab::trace::replay::Protocol::Eager, 0.0);
        }
        let (full, partial) = random_partial(seed, ranks, n, mask);
        let (other, _) = random_partial(seed ^ 77, ranks, n, 0);
        let mut b = Bounds::new(&c, &p);
        let mut pb = PathBound::new(&c, &p);
        let (t_full, path_full) = b.partial_path(&full);
        prop_assert_eq!(t_full.to_bits(), c.time_of(&p, &full).to_bits());
        pb.add(path_full.clone());
        let own = pb.bound(&full);
        prop_assert!(own <= t_full && own >= t_full * (1.0 - 1e-6), "chain {} vs time {}", own, t_full);
        pb.add(b.partial_path(&partial).1);
        pb.add(b.partial_path(&other).1);
        let best = best_completion(&c, &p, &partial);
        let lb = pb.bound(&partial);
        prop_assert!(lb <= best, "path bound {} above the best completion {}", lb, best);
    }

    /// The assignment problem's least cost equals brute force over injective maps.
    #[test]
    fn assignment_problem_equals_brute_force(seed in 0u64..u64::MAX, rows in 0usize..5, extra in 0usize..3) {
        let cols = rows + extra;
        let mut rng = Rng::seeded(seed);
        let a: Vec<f64> = (0..rows * cols).map(|_| rng.below(50) as f64 * 0.25).collect();
        fn rec(i: usize, rows: usize, cols: usize, a: &[f64], used: &mut Vec<bool>, acc: f64, best: &mut f64) {
            if i == rows {
                *best = best.min(acc);
                return;
            }
            for j in 0..cols {
                if !used[j] {
                    used[j] = true;
                    rec(i + 1, rows, cols, a, used, acc + a[i * cols + j], best);
                    used[j] = false;
                }
            }
        }
        let mut best = f64::INFINITY;
        rec(0, rows, cols, &a, &mut vec![false; cols], 0.0, &mut best);
        if rows == 0 {
            best = 0.0;
        }
        prop_assert_eq!(search::assignment_cost(&a, cols, rows, cols), best);
    }
}

#[test]
fn budget_stops_large_searches_with_a_valid_gap_and_is_deterministic() {
    for n in [12usize, 16] {
        let (c, p) = case(7, n, n, 16, 60);
        let mut prob = Problem::new(&c, &p);
        prob.cheap_bounds = true;
        let a = search::branch_and_bound(&prob, 5, 200_000);
        let b = search::branch_and_bound(&prob, 5, 200_000);
        assert_eq!(a.stop, Stop::Budget, "{n} nodes");
        assert_eq!(a.top.rows, b.top.rows);
        assert_eq!(a.stats, b.stats);
        let best = a.top.rows[0].time;
        assert!(a.lower_bound <= best);
        assert!(a.lower_bound > 0.0);
        assert_eq!(a.proven, a.lower_bound >= best);
        // the budget is respected up to one node's children (a replay and the bounds without
        // replay each) and one chain of a new best
        let child = c.steps() + search::cheap_bound_steps(&c, &p);
        assert!(a.stats.steps <= 200_000 + (n as u64 + 1) * child + c.steps());
        // the best found is a real assignment with that time
        assert_eq!(c.time_of(&p, &a.top.rows[0].assign), best);
        let l = search::local_only(&prob, 5, 200_000, 3, 9);
        assert!(l.lower_bound <= l.top.rows[0].time);
    }
}

#[test]
fn local_search_reaches_the_optimum_on_a_source_sized_case() {
    let (c, p) = case(3, 4, 4, 4, 20);
    let prob = Problem::new(&c, &p);
    let want = brute(&c, &p);
    let mut list = search::TopList::new(3);
    let mut stats = search::Stats::default();
    search::local_search(&prob, 8, 1, u64::MAX, &mut list, &mut stats);
    assert_eq!(list.rows[0].time, want[0].time);
}

#[test]
fn identical_nodes_reduce_the_branching() {
    // eight identical nodes: one distinct assignment class
    let (c, p) = case(11, 8, 8, 1, 30);
    let prob = Problem::new(&c, &p);
    assert_eq!(search::distinct(&prob.class, 8), 1.0);
    let bb = search::branch_and_bound(&prob, 10, u64::MAX);
    assert!(bb.proven);
    assert_eq!(bb.top.rows.len(), 1);
    assert_eq!(
        search::equivalents(&bb.top.rows[0].assign, &prob.class),
        40320.0
    );
}

/// A generated LU long enough for the bounds without replay (the sample matrix's long trace:
/// 5 ranks on 6 nodes): they are used, cut subtrees, and branch and bound still gives exactly
/// exhaustive search's ranking, for both protocols.
#[test]
fn bounds_without_replay_cut_a_long_trace_and_keep_the_exact_ranking() {
    use placelab::trace::generate::generate;
    use placelab::trace::generate::{GenerateSpec, Program};
    use placelab::trace::replay::Protocol;
    let spec = GenerateSpec {
        program: Program::LuUneven,
        size: 800,
        ranks: 5,
        width: 5,
        weights: None,
        iterations: 1,
    };
    let ratio = vec![1.0, 2.0, 4.0, 4.0, 3.0, 1.5];
    let n = ratio.len();
    let mut a0 = vec![5e-4; n * n];
    let mut a1 = vec![2e-7; n * n];
    for u in 0..n {
        for v in 0..n {
            if u == v {
                (a0[u * n + v], a1[u * n + v]) = (0.0, 0.0);
            } else if u / 2 == v / 2 {
                (a0[u * n + v], a1[u * n + v]) = (1e-4, 9e-9);
            }
        }
    }
    let p = Platform {
        n,
        ratio,
        a0,
        a1,
        cores: vec![1; n],
    };
    for protocol in [Protocol::Rendezvous, Protocol::Eager] {
        let mut c = compile(&generate(&spec, 1e9)).unwrap();
        c.set_protocol(protocol, 0.0);
        let prob = Problem::new(&c, &p);
        assert!(prob.cheap_bounds, "{} steps", c.steps());
        let ex = search::exhaustive(&prob, 7);
        let bb = search::branch_and_bound(&prob, 7, u64::MAX);
        assert!(bb.proven);
        assert_eq!(bb.top.rows, ex.top.rows);
        assert!(bb.stats.rank_bounds > 0);
        assert!(bb.stats.replays < ex.stats.replays);
    }
}

/// Regression: a budget below one bound pass (local search under about 100 replay steps,
/// branch and bound under 10) reported a best time of 0.0, gap 0, an empty ranking and a lower
/// bound above the "best". Every search now replays its greedy start whatever the budget.
#[test]
fn a_budget_below_one_bound_pass_still_reports_a_real_best_assignment() {
    let (c, p) = case(3, 4, 4, 4, 20);
    let prob = Problem::new(&c, &p);
    for budget in [0u64, 1, 9] {
        for out in [
            search::local_only(&prob, 5, budget, 8, 1),
            search::branch_and_bound(&prob, 5, budget),
        ] {
            assert!(
                !out.top.rows.is_empty(),
                "budget {budget}: an empty ranking"
            );
            let best = out.top.rows[0].time;
            assert!(best > 0.0, "budget {budget}: best time {best}");
            assert_eq!(c.time_of(&p, &out.top.rows[0].assign), best);
            assert!(
                out.lower_bound <= best,
                "budget {budget}: bound above the best"
            );
            assert_eq!(out.proven, out.lower_bound >= best);
        }
    }
}
