//! Branch and bound: best-first over partial assignments, cut by the three bounds.

use super::{
    assignments, local_search, Bounds, Outcome, PathBound, Problem, RankBound, Stats, Stop,
    TopList, CHEAP_TRIAL, FREE,
};
use crate::trace::replay::{LaneTables, LANES};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Largest open list of branch and bound, bytes (assignments and heap entries).
pub const MAX_OPEN_BYTES: usize = 64 << 20;

/// Branch and bound, best first.
///
/// Search-tree nodes are partial assignments placing the first `d` ranks of [`super::rank_order`].
/// A node's children place the next rank on a free node; of each class of identical nodes
/// only the free node of smallest index is tried, which yields exactly the representatives
/// ([`super::representative`]). Children placing the last rank are complete: they are replayed
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
    if prob.cheap_bounds {
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
    let mut cheap = prob.cheap_bounds;
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
        if !may_enter(&list, bound, &child, n) {
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
        let mut used = [false; 256];
        for &u in &child {
            if u != FREE {
                used[u as usize] = true;
            }
        }
        kids.clear();
        // a subtree of at most LANES completions costs one pass: replay them all as leaves
        let whole = assignments(n - depth, r - depth) <= LANES as f64;
        if whole {
            completions(prob, &mut child, depth, &mut kids);
        } else {
            let mut tried_class = vec![false; n];
            for u in 0..n {
                let cl = prob.class[u] as usize;
                if used[u] || tried_class[cl] {
                    continue;
                }
                tried_class[cl] = true;
                child[x] = u as u8;
                kids.push(child.clone());
            }
            child[x] = FREE;
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
            if cheap && (!may_enter(&list, v, &kids[i], n) || (v <= th && rb.excludes(th))) {
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
                    if !may_enter(&list, v, kid, n) {
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
        top: list,
        stats,
        stop,
        proven,
        lower_bound,
    }
}

/// Every representative completion of `assign`, whose ranks `order[..depth]` are placed:
/// the next rank in search order takes, of each class, its free node of smallest index.
fn completions(prob: &Problem, assign: &mut [u8], depth: usize, out: &mut Vec<Vec<u8>>) {
    if depth == assign.len() {
        out.push(assign.to_vec());
        return;
    }
    let n = prob.p.n;
    let x = prob.order[depth];
    let mut used = [false; 256];
    for &u in assign.iter() {
        if u != FREE {
            used[u as usize] = true;
        }
    }
    let mut tried = vec![false; n];
    for u in 0..n {
        let cl = prob.class[u] as usize;
        if used[u] || tried[cl] {
            continue;
        }
        tried[cl] = true;
        assign[x] = u as u8;
        completions(prob, assign, depth + 1, out);
    }
    assign[x] = FREE;
}

/// Whether a subtree with bound `lb` whose placed ranks are those of `partial` may still hold
/// an assignment that enters the ranking: its bound is below the threshold, or equal to it and
/// its lexicographically least completion (free ranks, by index, take the least free node
/// not yet taken) precedes the last row (a tie enters only when it precedes in [`order`]).
fn may_enter(list: &TopList, lb: f64, partial: &[u8], n: usize) -> bool {
    let th = list.threshold();
    if lb < th {
        return true;
    }
    if lb > th {
        return false;
    }
    let last = &list.rows[list.rows.len() - 1].assign;
    let mut used = [false; 256];
    for &u in partial {
        if u != FREE {
            used[u as usize] = true;
        }
    }
    let mut least = Vec::with_capacity(partial.len());
    for &u in partial {
        if u != FREE {
            least.push(u);
        } else {
            let v = (0..n).find(|&v| !used[v]).unwrap_or(0);
            used[v] = true;
            least.push(v as u8);
        }
    }
    least[..] < last[..]
}
