//! Initial bisection of a small (coarsest) graph by greedy graph growing (GGGP).
//!
//! One try: every vertex starts on side 1; a random vertex seeds side 0, which then grows by the
//! side-1 vertex with the largest gain (weight of its edges into side 0 minus the rest, so the
//! region stays compact and the cut small), or in odd tries breadth-first, until side 0
//! reaches its target weight (in half the tries isolated vertices are kept to fill the region
//! up to its target last: they never change the cut); vertices that
//! would push side 0 past its limit are skipped. When the region has no frontier left (the
//! graph is disconnected) a new random vertex seeds it. Each try is then refined by two-way FM
//! ([`super::fm2`], boundary vertices); the best of `tries` tries (least overweight, then least
//! cut) is kept and refined once more with every vertex movable.
//!
//! # Complexity
//! `O((tries + 1) * (V + E) log V)`.

use super::fm2::{self, Bisection, Movable};
use super::wgraph::{gain, mix, WGraph};
use crate::rng::Rng;
use std::collections::BinaryHeap;

/// Best of `tries` grown bisections of `g`, side 0 aiming at `target0` within `maxw`.
pub fn grow_bisection(
    g: &WGraph,
    target0: u64,
    maxw: [u64; 2],
    tries: u32,
    niter: u32,
    rng: &mut Rng,
) -> Bisection {
    let n = g.n();
    let mut best: Option<Bisection> = None;
    let mut salt = 0;
    let mut scratch = Scratch::new(g);
    for t in 0..tries.max(1) {
        salt = rng.next_u64();
        // Odd tries grow breadth-first (METIS's way), even ones greedily: the two make
        // different mistakes, and the mix measured better than either alone.
        let bfs = t % 2 == 1;
        // Tries 2 and 3 of every 4 keep isolated vertices for the balance (grow_once's `filler`).
        let part = grow_once(g, &mut scratch, target0, maxw[0], salt, bfs, t % 4 >= 2);
        let mut b = Bisection::new(g, part);
        fm2::refine(
            g,
            &mut b,
            target0,
            maxw,
            niter,
            salt ^ 0x5eed,
            Movable::Boundary,
        );
        let better = match &best {
            None => true,
            Some(o) => (b.over(maxw), b.cut) < (o.over(maxw), o.cut),
        };
        if better {
            best = Some(b);
        }
        if n <= 1 {
            break;
        }
    }
    let Some(mut best) = best else {
        return Bisection::new(g, vec![1; n as usize]);
    };
    // The best try once more with every vertex movable: never worse (a pass keeps its best
    // state), and it repairs what only an interior move can (fm2's doc). Its salt comes from
    // the last try's, so the caller's random stream is the same as without it.
    fm2::refine(
        g,
        &mut best,
        target0,
        maxw,
        niter,
        salt ^ 0xa11,
        Movable::All,
    );
    best
}

/// What every try of one graph shares: its degrees and weights, and buffers reused from try to
/// try (each try clears what it reads).
struct Scratch {
    /// Total edge weight of each vertex.
    deg: Vec<u64>,
    /// Weight of the isolated vertices.
    iso_w: u64,
    total_w: u64,
    /// Weight of each vertex's edges into side 0.
    conn: Vec<u64>,
    skipped: Vec<bool>,
    seeds: Vec<(u64, u32)>,
    heap: BinaryHeap<(i64, u64, u32)>,
}

impl Scratch {
    fn new(g: &WGraph) -> Scratch {
        let n = g.n();
        let deg: Vec<u64> = (0..n)
            .map(|v| g.range(v).fold(0u64, |a, j| a.saturating_add(g.ew[j])))
            .collect();
        let iso_w = (0..n as usize)
            .filter(|&v| deg[v] == 0)
            .fold(0u64, |a, v| a.saturating_add(g.vw[v]));
        Scratch {
            deg,
            iso_w,
            total_w: g.vw.iter().fold(0u64, |a, &w| a.saturating_add(w)),
            conn: vec![0; n as usize],
            skipped: vec![false; n as usize],
            seeds: Vec::with_capacity(n as usize),
            heap: BinaryHeap::new(),
        }
    }
}

/// One greedy growth from random seeds (module doc).
fn grow_once(
    g: &WGraph,
    sc: &mut Scratch,
    target0: u64,
    max0: u64,
    salt: u64,
    bfs: bool,
    filler: bool,
) -> Vec<u8> {
    let n = g.n();
    let mut part = vec![1u8; n as usize];
    let Scratch {
        deg,
        conn,
        skipped,
        seeds,
        heap,
        ..
    } = sc;
    let deg = &*deg;
    conn.fill(0);
    skipped.fill(false);
    heap.clear();
    seeds.clear();
    seeds.extend((0..n).map(|v| (mix(salt, u64::from(v)), v)));
    seeds.sort_unstable();
    let mut next_seed = 0usize;
    let mut w0 = 0u64;
    let mut order = 0i64;
    // With `filler`: isolated vertices never change the cut, so they are the balance's slack.
    // The region first grows over the other vertices to their share of the target, then
    // isolated vertices fill it up to the target (growth goes on only if they were not enough).
    let iso_w: u64 = if filler { sc.iso_w } else { 0 };
    let total_w = sc.total_w;
    let first_goal = if iso_w == 0 {
        target0
    } else {
        (u128::from(target0) * u128::from(total_w - iso_w) / u128::from(total_w.max(1))) as u64
    };
    for pass in 0..2 {
        let (goal, allow_iso) = if pass == 0 {
            (first_goal, iso_w == 0)
        } else {
            if iso_w == 0 {
                break;
            }
            for &(_, v) in seeds.iter() {
                let vi = v as usize;
                if w0 >= target0 {
                    break;
                }
                if deg[vi] == 0 && part[vi] == 1 && w0.saturating_add(g.vw[vi]) <= max0 {
                    part[vi] = 0;
                    w0 += g.vw[vi];
                }
            }
            next_seed = 0;
            (target0, true)
        };
        while w0 < goal {
            let mut picked = None;
            while let Some((key, _, v)) = heap.pop() {
                let vi = v as usize;
                if part[vi] == 0
                    || skipped[vi]
                    || (!bfs && key != gain(conn[vi].saturating_mul(2), deg[vi]))
                {
                    continue;
                }
                picked = Some(v);
                break;
            }
            let v = match picked {
                Some(v) => v,
                None => {
                    while next_seed < seeds.len()
                        && (part[seeds[next_seed].1 as usize] == 0
                            || skipped[seeds[next_seed].1 as usize]
                            || (!allow_iso && deg[seeds[next_seed].1 as usize] == 0))
                    {
                        next_seed += 1;
                    }
                    match seeds.get(next_seed) {
                        Some(&(_, v)) => v,
                        None => break,
                    }
                }
            };
            let vi = v as usize;
            if w0.saturating_add(g.vw[vi]) > max0 {
                skipped[vi] = true;
                continue;
            }
            part[vi] = 0;
            w0 += g.vw[vi];
            for j in g.range(v) {
                let u = g.adj[j] as usize;
                conn[u] = conn[u].saturating_add(g.ew[j]);
                if part[u] == 1 && !skipped[u] {
                    order -= 1;
                    heap.push((
                        if bfs {
                            order
                        } else {
                            gain(conn[u].saturating_mul(2), deg[u])
                        },
                        mix(salt, u as u64),
                        u as u32,
                    ));
                }
            }
        }
    }
    part
}
