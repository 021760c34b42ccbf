//! A random trace with blocking and non-blocking calls and an independent simulator of it (calls
//! matched as they are posted, clocks swept until nothing moves), shared by the non-blocking
//! replay tests and the several-ranks-per-node tests.

use placelab::rng::Rng;
use placelab::trace::model::{Op, Origin, Trace};
use placelab::trace::replay::Platform;
use std::collections::BTreeMap;

/// A random deadlock-free trace with blocking and non-blocking calls, tags, waits (single,
/// all, and none: left to the end), sleeps and computes. Calls are appended to both ranks in
/// one global order and a wait always comes after its call, which keeps the trace free of
/// deadlock under rendezvous.
pub fn random_trace(rng: &mut Rng, ranks: usize, messages: usize) -> Trace {
    let mut t = Trace::new(ranks, Origin::Generated);
    for x in 0..ranks {
        t.push(x, Op::Compute(rng.below(4) as f64 * 0.5), 0, 0);
    }
    if ranks < 2 {
        return t;
    }
    // outstanding requests per rank: (src, dst, tag)
    let mut open: Vec<Vec<(u32, u32, i32)>> = vec![Vec::new(); ranks];
    for _ in 0..messages {
        let a = rng.below(ranks as u64) as usize;
        let mut b = rng.below(ranks as u64 - 1) as usize;
        if b >= a {
            b += 1;
        }
        let bytes = (rng.below(4) * 100) as f64;
        let tag = rng.below(3) as i32;
        let (pa, pb) = (b as u32, a as u32);
        match rng.below(2) {
            0 => t.push(
                a,
                Op::Send {
                    peer: pa,
                    tag,
                    bytes,
                },
                0,
                0,
            ),
            _ => {
                t.push(
                    a,
                    Op::Isend {
                        peer: pa,
                        tag,
                        bytes,
                    },
                    0,
                    0,
                );
                open[a].push((a as u32, b as u32, tag));
            }
        }
        match rng.below(2) {
            0 => t.push(
                b,
                Op::Recv {
                    peer: pb,
                    tag,
                    bytes,
                },
                0,
                0,
            ),
            _ => {
                t.push(
                    b,
                    Op::Irecv {
                        peer: pb,
                        tag,
                        bytes,
                    },
                    0,
                    0,
                );
                open[b].push((a as u32, b as u32, tag));
            }
        }
        let x = rng.below(ranks as u64) as usize;
        match rng.below(6) {
            0 => t.push(x, Op::Sleep(rng.below(3) as f64 * 0.25), 0, 0),
            1 => {
                t.push(x, Op::WaitAll, 0, 0);
                open[x].clear();
            }
            2 | 3 if !open[x].is_empty() => {
                let i = rng.below(open[x].len() as u64) as usize;
                let (src, dst, tag) = open[x].remove(i);
                t.push(x, Op::Wait { src, dst, tag }, 0, 0);
            }
            _ => t.push(x, Op::Compute(rng.below(3) as f64), 0, 0),
        }
    }
    t
}

/// The oracle: each rank runs its calls in order with its own clock; a call is matched with
/// the oldest unmatched call of the other side with the same (source, destination, tag) when
/// both are posted; the transfer starts at the later post and lasts `a0 + a1 N`; a blocking
/// send ends with it (or at its post when eager), a receive ends with it, a wait takes the
/// later of the clock and the request's end. Ranks are swept until none moves.
#[allow(clippy::type_complexity)]
pub fn oracle(t: &Trace, p: &Platform, assign: &[u8], eager: &dyn Fn(f64) -> bool) -> Option<f64> {
    let r = t.ranks.len();
    let mut clock = vec![0.0f64; r];
    let mut pos = vec![0usize; r];
    // per key: posted sends (post time, rank, request id or none) not yet matched
    type Key = (u32, u32, i32);
    // calls posted and not matched yet, per (key, is a send): (post time, bytes, request)
    let mut waiting: BTreeMap<(Key, bool), Vec<(f64, f64, usize)>> = BTreeMap::new();
    // request ends (None: not matched yet)
    let mut req_end: Vec<Option<f64>> = Vec::new();
    // per rank: outstanding requests (key, id), and the blocking call it waits in
    let mut open: Vec<Vec<(Key, usize)>> = vec![Vec::new(); r];
    let mut blocked_end: Vec<Option<usize>> = vec![None; r]; // request standing for a blocking call
    let mut posted = vec![false; r];
    let cost = |a: usize, b: usize, bytes: f64| {
        let (u, v) = (assign[a] as usize, assign[b] as usize);
        p.cost(u, v, bytes)
    };
    loop {
        let mut moved = false;
        for x in 0..r {
            loop {
                if let Some(q) = blocked_end[x] {
                    match req_end[q] {
                        Some(e) => {
                            clock[x] = e;
                            blocked_end[x] = None;
                            posted[x] = false;
                            pos[x] += 1;
                            moved = true;
                            continue;
                        }
                        None => break,
                    }
                }
                let Some(ev) = t.ranks[x].get(pos[x]) else {
                    break;
                };
                match ev.op {
                    Op::Compute(d) => {
                        clock[x] += d * p.ratio[assign[x] as usize];
                        pos[x] += 1;
                    }
                    Op::Sleep(d) => {
                        clock[x] += d;
                        pos[x] += 1;
                    }
                    Op::Send { peer, tag, bytes }
                    | Op::Isend { peer, tag, bytes }
                    | Op::Recv { peer, tag, bytes }
                    | Op::Irecv { peer, tag, bytes } => {
                        let id = req_end.len();
                        req_end.push(None);
                        let send = matches!(ev.op, Op::Send { .. } | Op::Isend { .. });
                        let key = if send {
                            (x as u32, peer, tag)
                        } else {
                            (peer, x as u32, tag)
                        };
                        let mine = (clock[x], bytes, id);
                        match waiting.get_mut(&(key, !send)).filter(|q| !q.is_empty()) {
                            Some(q) => {
                                let other = q.remove(0);
                                let (s, r) = if send { (mine, other) } else { (other, mine) };
                                let e = s.0.max(r.0) + cost(key.0 as usize, key.1 as usize, s.1);
                                req_end[s.2] = Some(if eager(s.1) { s.0 } else { e });
                                req_end[r.2] = Some(e);
                            }
                            None => waiting.entry((key, send)).or_default().push(mine),
                        }
                        if matches!(ev.op, Op::Send { .. } | Op::Recv { .. }) {
                            blocked_end[x] = Some(id);
                            posted[x] = true;
                        } else {
                            open[x].push((key, id));
                            pos[x] += 1;
                        }
                    }
                    Op::Wait { src, dst, tag } => {
                        match open[x].iter().position(|(k, _)| *k == (src, dst, tag)) {
                            None => pos[x] += 1,
                            Some(i) => match req_end[open[x][i].1] {
                                Some(e) => {
                                    clock[x] = clock[x].max(e);
                                    open[x].remove(i);
                                    pos[x] += 1;
                                }
                                None => break,
                            },
                        }
                    }
                    Op::WaitAll => {
                        if open[x].iter().all(|&(_, q)| req_end[q].is_some()) {
                            for (_, q) in open[x].drain(..) {
                                clock[x] = clock[x].max(req_end[q].unwrap());
                            }
                            pos[x] += 1;
                        } else {
                            break;
                        }
                    }
                    Op::Coll(_) => unreachable!("no collectives here"),
                }
                moved = true;
            }
        }
        if !moved {
            break;
        }
    }
    let mut end = 0.0f64;
    for x in 0..r {
        if pos[x] < t.ranks[x].len() {
            return None;
        }
        // requests left are waited for at the end
        for &(_, q) in &open[x] {
            clock[x] = clock[x].max(req_end[q]?);
        }
        end = end.max(clock[x]);
    }
    Some(end)
}
