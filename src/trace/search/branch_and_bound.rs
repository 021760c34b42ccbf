//! Branch and bound: best-first over partial assignments, cut by the three bounds.

use super::{
    local_search, within_capacity, Bounds, Outcome, PathBound, Problem, RankBound, Stats, Stop,
    TopList, CHEAP_TRIAL, FREE,
};
use crate::trace::replay::{LaneTables, LANES};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Largest open list of branch and bound, bytes (assignments and heap entries).
pub const MAX_OPEN_BYTES: usize = 64 << 20;

/// Branch and bound, best first.
///
/// Search-tree nodes are partial assignments placing the first `d` ranks of [`super::rank_order`],
/// at most `cores` ranks on a node. A node's children place the next rank on a node with a
/// free core: every node already holding ranks, and of each class of identical nodes only the
/// empty node of smallest index. In a representative partial assignment the nodes of a class
/// holding ranks are the class's first ones, so this yields each representative
/// ([`super::representative`]) exactly once (with one core per node: the free node of smallest
/// index of each class). Children placing the last rank are complete: they are replayed
/// exactly and offered to the ranking. Other children are bounded ([`Bounds::partial`]) and
/// kept when the bound is at most the ranking's threshold (the time of its last row once it
/// holds `top` rows), then opened in order of least bound (then deeper first, then first
/// made). A node whose subtree holds at most [`LANES`] completions is not split: all its
/// representative completions are replayed in one pass as leaves. With
/// [`Problem::cheap_bounds`], every child (leaves too) first gets the larger of
/// [`RankBound::bound`] and [`PathBound::bound`] and is cut without replay when that is above
/// the threshold (or ties it and may not enter) or [`RankBound::excludes`] it; a kept child's
/// bound is the largest of the three. After [`CHEAP_TRIAL`] such children, if fewer than one
/// in 16 was cut by them or got a larger bound from them, they are no longer used. All are admissible, so cutting stays exact. The search
/// is complete when no open node has a bound at most the threshold: every
/// assignment not replayed then lies in a subtree whose bound, hence whose every completion,
/// is slower than the last row, so the ranking is exactly the `top` best representatives
/// and its first row is proven optimal. Stopped by the budget, the lower bound is the least
/// of the best time and the open nodes' bounds.
///
/// First, a [`local_search`] climb from the greedy start only (at most a tenth of the
/// budget) gives incumbents: best-first search opens the same nodes with or without them
/// (exactly those whose bound is below the answer), so more restarts would only cost work;
/// the incumbents matter when the budget stops the search, as its best found.
///
/// # Complexity
/// At most `n!/(n-R)!` leaves; each node opened costs one replay per child not cut by the
/// bounds without replay, `O(M + R + n^2)`, and with them `O(R^2 n)` per child.
pub fn branch_and_bound(prob: &Problem, top: usize, budget: u64) -> Outcome {
    branch_and_bound_with(prob, top, budget, &mut |_| {})
}

/// [`branch_and_bound`], calling `tick(steps spent)` after every node opened (for a progress
/// bar; the outcome does not depend on it).
pub fn branch_and_bound_with(
    prob: &Problem,
    top: usize,
    budget: u64,
    tick: &mut dyn FnMut(u64),
) -> Outcome {
    let c = prob.c;
    let (r, n) = (c.ranks, prob.p.n);
    let mut list = TopList::new(top);
    let mut stats = Stats::default();
    local_search(prob, 1, 0, budget / 10, &mut list, &mut stats);
    let mut b = Bounds::new(c, prob.p);
    let mut rb = RankBound::new(c, prob.p);
    let mut pb = PathBound::new(c, prob.p);
    // arena of partial assignments; heap of (bound, depth rank, sequence, arena offset)
    let mut arena: Vec<u8> = vec![FREE; r];
    let mut heap: BinaryHeap<Reverse<(u64, u32, u64, u32)>> = BinaryHeap::new();
    let (relaxed, root_path) = b.partial_path(&arena);
    // the bounds without replay assume one rank per node ([`super::cheap_bounds_pay`])
    let cheap_ok = prob.cheap_bounds && !prob.multicore();
    if cheap_ok {
        pb.add(root_path);
    }
    let mut best_seen: Option<Vec<u8>> = None;
    let mut add_best_path =
        |list: &TopList, pb: &mut PathBound, b: &mut Bounds, stats: &mut Stats| {
            if let Some(best) = list.best() {
                if best_seen.as_deref() != Some(&best.assign[..]) {
                    best_seen = Some(best.assign.clone());
                    pb.add(b.partial_path(&best.assign).1);
                    stats.steps += c.steps();
                }
            }
        };
    let mut cheap = cheap_ok;
    // children the bounds without replay cut or whose bound they raised above the replay's
    let mut useful = 0u64;
    if cheap {
        add_best_path(&list, &mut pb, &mut b, &mut stats);
    }
    let mut root_bound = relaxed;
    stats.bound_replays += 1;
    stats.visited += 1;
    stats.steps += c.steps();
    if cheap {
        root_bound = root_bound.max(rb.bound(&arena)).max(pb.bound(&arena));
        stats.rank_bounds += 1;
        stats.steps += rb.steps() + pb.steps();
    }
    let mut seq = 0u64;
    heap.push(Reverse((root_bound.to_bits(), r as u32, seq, 0)));
    let entry_bytes = std::mem::size_of::<Reverse<(u64, u32, u64, u32)>>() + r;
    let mut stop = Stop::Complete;
    let mut child = vec![FREE; r];
    let mut lanes = LaneTables::new(r);
    let mut lane_t = vec![0.0f64; c.scratch_len() * LANES];
    let mut kids: Vec<Vec<u8>> = Vec::new();
    let mut kid_rank: Vec<f64> = Vec::new();
    while let Some(&Reverse((bits, _, _, off))) = heap.peek() {
        let bound = f64::from_bits(bits);
        if bound > list.threshold() {
            break;
        }
        let off = off as usize;
        child.copy_from_slice(&arena[off..off + r]);
        if !may_enter(&list, bound, &child, &prob.p.cores) {
            heap.pop();
            stats.pruned += 1;
            continue;
        }
        if stats.steps >= budget {
            stop = Stop::Budget;
            break;
        }
        if (arena.len() + heap.len() * entry_bytes) > MAX_OPEN_BYTES {
            stop = Stop::Memory;
            break;
        }
        heap.pop();
        tick(stats.steps);
        let depth = prob.order.iter().take_while(|&&x| child[x] != FREE).count();
        let x = prob.order[depth];
        let room = free_cores(prob, &child);
        kids.clear();
        // a subtree of at most LANES completions costs one pass: replay them all as leaves
        let whole = at_most_completions(&room[..n], r - depth, LANES);
        if whole {
            completions(prob, &mut child, depth, &mut kids);
        } else {
            children(prob, &room, &mut child, x, &mut kids);
        }
        let leaves = whole || depth + 1 == r;
        // the per-rank bound first: what it excludes needs no replay
        kid_rank.clear();
        let mut k = 0;
        if cheap {
            add_best_path(&list, &mut pb, &mut b, &mut stats);
        }
        for i in 0..kids.len() {
            stats.visited += 1;
            let mut v = 0.0;
            if cheap {
                v = rb.bound(&kids[i]).max(pb.bound(&kids[i]));
                stats.rank_bounds += 1;
                stats.steps += rb.steps() + pb.steps();
            }
            let th = list.threshold();
            if cheap
                && (!may_enter(&list, v, &kids[i], &prob.p.cores) || (v <= th && rb.excludes(th)))
            {
                stats.pruned += 1;
                useful += 1;
                continue;
            }
            kids.swap(k, i);
            kid_rank.push(v);
            k += 1;
        }
        kids.truncate(k);
        // the others replayed LANES at a time, then handled in order as one at a time
        for (ci, chunk) in kids.chunks(LANES).enumerate() {
            let times = b.partial_lanes(chunk, &mut lanes, &mut lane_t);
            for (k, kid) in chunk.iter().enumerate() {
                stats.steps += c.steps();
                if leaves {
                    stats.replays += 1;
                    list.insert(times[k], kid);
                } else {
                    stats.bound_replays += 1;
                    if kid_rank[ci * LANES + k] > times[k] {
                        useful += 1;
                    }
                    let v = times[k].max(kid_rank[ci * LANES + k]);
                    if !may_enter(&list, v, kid, &prob.p.cores) {
                        stats.pruned += 1;
                    } else {
                        seq += 1;
                        let o = arena.len() as u32;
                        arena.extend_from_slice(kid);
                        heap.push(Reverse((v.to_bits(), (r - depth - 1) as u32, seq, o)));
                    }
                }
            }
        }
        // bounds that rarely help cost more than they save (balanced traces): stop using them
        if cheap && stats.rank_bounds >= CHEAP_TRIAL && useful * 16 < stats.rank_bounds {
            cheap = false;
        }
    }
    let best = list.best().map_or(f64::INFINITY, |x| x.time);
    let lower_bound = match stop {
        Stop::Complete => best,
        _ => {
            let open = heap
                .peek()
                .map_or(f64::INFINITY, |Reverse((bits, ..))| f64::from_bits(*bits));
            best.min(open).max(root_bound.min(best))
        }
    };
    // proven: nothing is faster than the best (ties may remain unexplored when stopped)
    let proven = lower_bound >= best;
    Outcome {
        symmetry: prob.sym.clone(),
        top: list,
        stats,
        stop,
        proven,
        lower_bound,
    }
}

/// Free cores of each node under the partial assignment `assign` (entries past `n` are 0).
fn free_cores(prob: &Problem, assign: &[u8]) -> [u32; 256] {
    let n = prob.p.n;
    let mut room = [0u32; 256];
    room[..n].copy_from_slice(&prob.p.cores);
    for &u in assign {
        if u != FREE {
            room[u as usize] = room[u as usize].saturating_sub(1);
        }
    }
    room
}

/// Whether `left` ranks have at most `cap` completions on nodes with `room` free cores (there
/// are at least `left` when two nodes have a free core: moving any one rank to another node
/// with a free core gives `left` different maps).
fn at_most_completions(room: &[u32], left: usize, cap: usize) -> bool {
    let open = room.iter().filter(|&&k| k > 0).count();
    if left == 0 || open <= 1 {
        return true;
    }
    if left > cap {
        return false;
    }
    within_capacity(room.iter().filter(|&&k| k > 0).map(|&k| k as usize), left) <= cap as f64
}

/// The representative children of a partial assignment (rank `x` next): `x` on every node
/// holding ranks with a free core, and on the empty node of smallest index of each class.
fn children(prob: &Problem, room: &[u32], child: &mut [u8], x: usize, out: &mut Vec<Vec<u8>>) {
    let n = prob.p.n;
    let mut tried_class = vec![false; n];
    for u in 0..n {
        if room[u] == 0 {
            continue;
        }
        if !prob.allows_placing(child, x, u) {
            continue;
        }
        if room[u] == prob.p.cores[u] {
            let cl = prob.class[u] as usize;
            if tried_class[cl] {
                continue;
            }
            tried_class[cl] = true;
        }
        child[x] = u as u8;
        out.push(child.to_vec());
    }
    child[x] = FREE;
}

/// Every representative completion of `assign`, whose ranks `order[..depth]` are placed:
/// the next rank in search order takes each of its representative children ([`children`]).
fn completions(prob: &Problem, assign: &mut [u8], depth: usize, out: &mut Vec<Vec<u8>>) {
    if depth == assign.len() {
        out.push(assign.to_vec());
        return;
    }
    let x = prob.order[depth];
    let room = free_cores(prob, assign);
    let mut kids = Vec::new();
    children(prob, &room, assign, x, &mut kids);
    for mut k in kids {
        completions(prob, &mut k, depth + 1, out);
    }
}

/// Whether a subtree with bound `lb` whose placed ranks are those of `partial` may still hold
/// an assignment that enters the ranking: its bound is below the threshold, or equal to it and
/// its lexicographically least completion (free ranks, by index, take the least node with a
/// free core) precedes the last row (a tie enters only when it precedes in [`order`]).
fn may_enter(list: &TopList, lb: f64, partial: &[u8], cores: &[u32]) -> bool {
    let n = cores.len();
    let th = list.threshold();
    if lb < th {
        return true;
    }
    if lb > th {
        return false;
    }
    let last = &list.rows[list.rows.len() - 1].assign;
    let mut room = [0u32; 256];
    room[..n].copy_from_slice(cores);
    for &u in partial {
        if u != FREE {
            room[u as usize] = room[u as usize].saturating_sub(1);
        }
    }
    let mut least = Vec::with_capacity(partial.len());
    for &u in partial {
        if u != FREE {
            least.push(u);
        } else {
            let v = (0..n).find(|&v| room[v] > 0).unwrap_or(0);
            room[v] = room[v].saturating_sub(1);
            least.push(v as u8);
        }
    }
    least[..] < last[..]
}
