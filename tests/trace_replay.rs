//! Replay of the trace engine: hand-made traces with known answers under
//! the blocking rule (the transfer starts when both calls are posted and ends at
//! `e = max(r, s) + c`; a rendezvous send ends at `e`, an eager send at once), delays
//! propagating transitively, the timeline's invariants, and determinism.

use placelab::trace::model::{Op, Origin, Trace};
use placelab::trace::replay::{self, compile, Platform};
use placelab::trace::text;

/// Two nodes, ratios `r0`, `r1`, one link both ways `a0 + a1 N`.
fn two(r0: f64, r1: f64, a0: f64, a1: f64) -> Platform {
    Platform {
        n: 2,
        ratio: vec![r0, r1],
        a0: vec![0.0, a0, a0, 0.0],
        a1: vec![0.0, a1, a1, 0.0],
        cores: vec![1, 1],
    }
}

fn uniform(ratios: &[f64], a0: f64, a1: f64) -> Platform {
    let n = ratios.len();
    let mut p = Platform {
        n,
        ratio: ratios.to_vec(),
        a0: vec![a0; n * n],
        a1: vec![a1; n * n],
        cores: vec![1; n],
    };
    for u in 0..n {
        p.a0[u * n + u] = 0.0;
        p.a1[u * n + u] = 0.0;
    }
    p
}

#[test]
fn one_message_costs_compute_times_ratio_plus_the_link() {
    let c = compile(&text::parse("0 compute 1\n0 send 1 100\n1 recv 0 100\n").unwrap()).unwrap();
    let p = two(2.0, 1.0, 0.5, 0.01);
    // rank 0 on node 0: s = 2, c = 1.5 -> 3.5; swapped: s = 1 -> 2.5
    assert_eq!(c.time_of(&p, &[0, 1]), 3.5);
    assert_eq!(c.time_of(&p, &[1, 0]), 2.5);
}

#[test]
fn a_late_receiver_delays_its_blocking_sender() {
    // rank 1 computes 5 s before receiving: the transfer starts at max(5, 0) = 5 and both
    // calls end at 5 + 1 = 6, then rank 0 computes 2 more seconds
    let mut c =
        compile(&text::parse("0 send 1 0\n0 compute 2\n1 compute 5\n1 recv 0 0\n").unwrap())
            .unwrap();
    let p = two(1.0, 1.0, 1.0, 0.0);
    assert_eq!(c.time_of(&p, &[0, 1]), 8.0);
    // eager: the send returns at 0, rank 0 ends at 2; the receive still ends at 6
    c.set_protocol(replay::Protocol::Eager, 0.0);
    assert_eq!(c.time_of(&p, &[0, 1]), 6.0);
    let (segs, _, _, end) = replay::timeline(&c, &p, &[0, 1], usize::MAX);
    assert_eq!(end, 6.0);
    let rank0: Vec<_> = segs
        .iter()
        .filter(|s| s.rank == 0)
        .map(|s| (s.kind, s.start, s.end))
        .collect();
    assert_eq!(
        rank0,
        vec![(0, 0.0, 2.0)],
        "an eager send takes no time on the sender"
    );
}

#[test]
fn delays_propagate_transitively_through_waiting_ranks() {
    // 0 -> 1 -> 2 -> 3: each waits on the previous; rank 0 computes 3 s first
    let t = "0 compute 3\n0 send 1 10\n1 recv 0 10\n1 send 2 10\n2 recv 1 10\n2 send 3 10\n3 recv 2 10\n3 compute 1\n";
    let c = compile(&text::parse(t).unwrap()).unwrap();
    let p = uniform(&[1.0, 1.0, 1.0, 1.0], 0.5, 0.1); // each hop 0.5 + 1 = 1.5
    assert_eq!(c.time_of(&p, &[0, 1, 2, 3]), 3.0 + 3.0 * 1.5 + 1.0);
    // a slower first node (ratio 2) delays every later rank by 3 s
    let p2 = uniform(&[2.0, 1.0, 1.0, 1.0], 0.5, 0.1);
    assert_eq!(c.time_of(&p2, &[0, 1, 2, 3]), 6.0 + 3.0 * 1.5 + 1.0);
}

#[test]
fn negative_model_costs_count_as_zero() {
    let c = compile(&text::parse("0 send 1 10\n1 recv 0 10\n1 compute 1\n").unwrap()).unwrap();
    let p = two(1.0, 1.0, -5.0, 0.1);
    assert_eq!(c.time_of(&p, &[0, 1]), 1.0);
}

#[test]
fn compile_keeps_every_message_once_in_a_topological_order() {
    let t = "ranks 3\n1 recv 0 4\n1 send 2 4\n0 compute 1\n0 send 1 4\n2 recv 1 4\n2 send 0 4\n0 recv 2 4\n";
    let c = compile(&text::parse(t).unwrap()).unwrap();
    let items: Vec<_> = c.items().collect();
    assert_eq!(items.len(), 3);
    assert_eq!((items[0].src, items[0].dst), (0, 1));
    assert_eq!(items[0].cs, 1.0);
    assert_eq!((items[2].src, items[2].dst), (2, 0));
    assert_eq!(c.steps(), 6);
}

/// Per rank, the timeline's segments are disjoint, in order, and cover `[0, end of rank]`
/// exactly; the last end is the makespan, equal to the plain replay.
#[test]
fn timeline_segments_tile_each_rank_and_end_at_the_makespan() {
    use placelab::trace::generate;
    use placelab::trace::generate::{GenerateSpec, Program};
    for program in Program::ALL {
        let spec = GenerateSpec {
            program,
            size: 40,
            ranks: 4,
            width: 5,
            weights: None,
            iterations: 3,
        };
        let c = compile(&generate::generate(&spec, 1e6)).unwrap();
        let p = uniform(&[1.0, 2.0, 4.0, 4.0], 1e-4, 1e-7);
        let assign = [2u8, 0, 3, 1];
        let (segs, total, until, end) = replay::timeline(&c, &p, &assign, usize::MAX);
        assert_eq!(end, c.time_of(&p, &assign));
        assert_eq!(until, end);
        assert_eq!(total, segs.len() as u64);
        for r in 0..4u32 {
            let mut mine: Vec<_> = segs.iter().filter(|s| s.rank == r).collect();
            mine.sort_by(|a, b| a.start.total_cmp(&b.start));
            let mut at = 0.0;
            for s in &mine {
                assert!(
                    (s.start - at).abs() <= 1e-9 * end.max(1.0),
                    "{program:?} rank {r}: gap or overlap at {at}"
                );
                assert!(s.end > s.start);
                at = s.end;
            }
        }
        assert!(segs.iter().any(|s| s.end == end));
        // capped: fewer segments, complete up to shownUntil
        let (few, total2, until2, _) = replay::timeline(&c, &p, &assign, 10);
        assert_eq!(total2, total);
        assert!(few.len() <= 10 && until2 <= end);
        assert!(few.iter().all(|s| s.start < until2));
    }
}

#[test]
fn replay_is_deterministic_and_independent_of_rank_interleaving() {
    // the same program with ranks' lines interleaved differently gives the same times
    let a = "0 compute 1\n0 send 1 8\n1 compute 2\n1 recv 0 8\n1 send 2 8\n2 recv 1 8\n";
    let b = "2 recv 1 8\n1 compute 2\n1 recv 0 8\n0 compute 1\n1 send 2 8\n0 send 1 8\n";
    let ca = compile(&text::parse(a).unwrap()).unwrap();
    let cb = compile(&text::parse(b).unwrap()).unwrap();
    let p = uniform(&[1.0, 3.0, 2.0], 0.25, 0.01);
    for assign in [[0u8, 1, 2], [2, 1, 0], [1, 0, 2]] {
        assert_eq!(
            ca.time_of(&p, &assign).to_bits(),
            cb.time_of(&p, &assign).to_bits()
        );
    }
}

#[test]
fn generated_computes_merge_and_events_count_them_once() {
    let mut t = Trace::new(2, Origin::Generated);
    t.push(0, Op::Compute(1.0), 0, 0);
    t.push(0, Op::Compute(2.0), 0, 0);
    t.push(0, Op::Compute(0.0), 0, 0);
    t.push(
        0,
        Op::Send {
            tag: 0,
            peer: 1,
            bytes: 1.0,
        },
        0,
        0,
    );
    t.push(
        1,
        Op::Recv {
            tag: 0,
            peer: 0,
            bytes: 1.0,
        },
        0,
        0,
    );
    assert_eq!(t.events(), 3);
    assert_eq!(t.ranks[0][0].op, Op::Compute(3.0));
}
