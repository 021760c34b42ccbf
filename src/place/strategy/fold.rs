//! Fold start of Mapped (ours): a task grid whose sides do not match the torus or mesh, folded
//! onto it so that grid neighbours stay one hop apart except across the folds.
//!
//! 1. **The task grid**: a GRID or CUBE job's shape, or, for any other job, the sides `a x b x
//!    c` (ones last) for which the task graph is exactly the nearest-neighbour grid of tasks
//!    `x + a (y + b z)`, rings closed or not (checked edge by edge: [`grid_of`]).
//! 2. **Folds**: a fold of side `i` (length `L`) by a factor `f` dividing `L` cuts it into `f`
//!    segments of `L / f`, turns every odd segment round (a boustrophedon, so the segments meet
//!    end to end), and stacks the segments either along another side `k` (its length times `f`;
//!    each odd segment's copy of side `k` turned round too, or not: both are tried) or along a
//!    new side of length `f` (while the box has fewer than three). A fold by `f = L` lays side
//!    `i` out along `k` altogether (a 3D grid onto a 2D machine). Sequences of at most
//!    [`MAX_DEPTH`] folds (none included) whose box fits the machine in one of the six axis
//!    orders are the candidates, fewest folds first, at most [`MAX_CANDIDATES`].
//!    2b. **Interleaves** ([`interleaves`]): a 3D task grid on two machine axes with one side
//!    walked as a snake over small blocks that the other two sides tile (an `8x8x4` wrapped grid
//!    on a 16x16 torus: the side of 4 round each 2x2 block, the other sides' neighbours 2 hops
//!    apart, 5 hops a task against 6 for the best fold).
//! 3. **The pick**: each candidate's hop-bytes with the box at the machine's corner (the same
//!    wherever the box lies when it fits without wrapping), the least first; the first of the
//!    [`MAX_LAID`] least that a free block takes (corners in node-number order, as Identity
//!    lays its blocks; a block may wrap round a torus) is the start.
//!
//! Why: a 32x8 grid on a 16x16 torus folded once along its long side (its second half turned
//! half round on rows 8-15) has every edge at one hop but the eight across the fold (1, 3, 5, 7,
//! 7, 5, 3, 1 hops through the wrap): 496 against 472, where recursive bipartitioning turns its
//! blocks and pays 4 to 8 hops an edge on two seams.
//!
//! # Guarantees
//! Every task on its own free host (a candidate is laid only on a block of free hosts); `None`
//! when the job is no grid, the machine no grid, or no candidate fits. Deterministic: no
//! randomness, fixed enumeration order, ties to the first.
//!
//! # Complexity
//! Recognition `O(D (P + E) log deg)` for the `D` side triples whose corner task has the right
//! neighbours (a handful); [`MAX_CANDIDATES`] candidates and [`MAX_INTERLEAVES`] interleaves of `O(P + E)` each; laying `O(N P)` at
//! worst per tried candidate (as Identity), `O(P)` on a free machine.

use super::super::jobs::TaskGraph;
use super::swap::Metric;
use super::Shape;
use crate::graph::Graph;

/// Most folds in one candidate.
pub const MAX_DEPTH: usize = 2;
/// Most candidates whose hop-bytes are counted.
pub const MAX_CANDIDATES: usize = 64;
/// Most candidates tried on the free blocks (least hop-bytes first).
pub const MAX_LAID: usize = 4;
/// Most interleaved layouts whose hop-bytes are counted.
pub const MAX_INTERLEAVES: usize = 64;

/// One fold (module doc, step 2): side `axis` cut into `f` segments, stacked along side `onto`
/// (turned round on odd segments when `mirror`) or along a new side when `onto` is `None`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Fold {
    axis: usize,
    f: u32,
    onto: Option<(usize, bool)>,
}

/// The box sides after `op` (ones dropped), or `None` when it does not apply.
fn fold_dims(dims: &[u32], op: Fold) -> Option<Vec<u32>> {
    let l = dims[op.axis];
    if op.f < 2 || l % op.f != 0 {
        return None;
    }
    let mut d = dims.to_vec();
    d[op.axis] = l / op.f;
    match op.onto {
        Some((k, _)) => d[k] *= op.f,
        None if d.len() < 3 => d.push(op.f),
        None => return None,
    }
    Some(d.into_iter().filter(|&x| x > 1).collect())
}

/// The coordinates after `op` of a point `c` of a box of sides `dims` (ones dropped as in
/// [`fold_dims`]).
fn fold_point(dims: &[u32], c: &[u32], op: Fold) -> Vec<u32> {
    let s = dims[op.axis] / op.f;
    let seg = c[op.axis] / s;
    let r = c[op.axis] % s;
    let odd = seg % 2 == 1;
    let mut d = dims.to_vec();
    let mut p = c.to_vec();
    p[op.axis] = if odd { s - 1 - r } else { r };
    d[op.axis] = s;
    match op.onto {
        Some((k, mirror)) => {
            let lk = dims[k];
            p[k] = seg * lk + if mirror && odd { lk - 1 - c[k] } else { c[k] };
            d[k] *= op.f;
        }
        None => {
            p.push(seg);
            d.push(op.f);
        }
    }
    d.iter()
        .zip(&p)
        .filter(|(&x, _)| x > 1)
        .map(|(_, &y)| y)
        .collect()
}

/// The sides `[a, b, c]` (ones last) and closure of the nearest-neighbour grid that `g` is in
/// the numbering `x + a (y + b z)`, if any (module doc, step 1).
pub fn grid_of(g: &Graph) -> Option<([u32; 3], bool)> {
    let n = g.n();
    if n < 4 {
        return None;
    }
    let mut nb0: Vec<u32> = g.neighbors(0).to_vec();
    nb0.sort_unstable();
    let divisors: Vec<u32> = (1..=n).filter(|d| n % d == 0).collect();
    let mut expected = Vec::new();
    let mut got = Vec::new();
    for &a in &divisors {
        for &b in divisors.iter().filter(|&&b| (n / a) % b == 0) {
            let c = n / a / b;
            let dims = [a, b, c];
            // ones last: a 1D chain is a x 1 x 1, a 2D grid a x b x 1
            if a == 1 || (b == 1 && c > 1) {
                continue;
            }
            for wrap in [false, true] {
                if wrap && dims.iter().all(|&d| d <= 2) {
                    continue;
                }
                grid_neighbours(dims, wrap, 0, &mut expected);
                if expected != nb0 {
                    continue;
                }
                let all = (0..n).all(|v| {
                    grid_neighbours(dims, wrap, v, &mut expected);
                    got.clear();
                    got.extend_from_slice(g.neighbors(v));
                    got.sort_unstable();
                    got == expected
                });
                if all {
                    return Some((dims, wrap));
                }
            }
        }
    }
    None
}

/// The sorted neighbours of task `v` in the grid of sides `dims`.
fn grid_neighbours(dims: [u32; 3], wrap: bool, v: u32, out: &mut Vec<u32>) {
    out.clear();
    let mut stride = 1;
    for &d in &dims {
        let x = (v / stride) % d;
        if d > 1 {
            if x + 1 < d {
                out.push(v + stride);
            } else if wrap && d > 2 {
                out.push(v - (d - 1) * stride);
            }
            if x > 0 {
                out.push(v - stride);
            } else if wrap && d > 2 {
                out.push(v + (d - 1) * stride);
            }
        }
        stride *= d;
    }
    out.sort_unstable();
    out.dedup();
}

/// The fold start (module doc): the host of each task, or `None`.
pub fn fold(shape: &Shape, busy: &[bool], job: &TaskGraph, metric: &Metric) -> Option<Vec<u32>> {
    let Shape::Grid { dims: mdims, wrap } = shape else {
        return None;
    };
    let g = &job.graph;
    let tdims = match job.shape {
        Some(s) if s.iter().product::<u32>() == g.n() => s,
        _ => grid_of(g)?.0,
    };
    let start: Vec<u32> = tdims.iter().copied().filter(|&x| x > 1).collect();
    // the sequences of folds whose box fits, breadth first (fewest folds first)
    let mut layer: Vec<(Vec<u32>, Vec<Fold>)> = vec![(start, Vec::new())];
    let mut fitting: Vec<(Vec<Fold>, [usize; 3], [u32; 3])> = Vec::new();
    'depth: for depth in 0..=MAX_DEPTH {
        for (d, ops) in &layer {
            for (perm, side) in fits(d, *mdims) {
                if fitting.len() >= MAX_CANDIDATES {
                    break 'depth;
                }
                if !fitting.iter().any(|f| f.0 == *ops && f.2 == side) {
                    fitting.push((ops.clone(), perm, side));
                }
            }
        }
        if depth == MAX_DEPTH {
            break;
        }
        let mut next = Vec::new();
        for (d, ops) in &layer {
            for axis in 0..d.len() {
                for f in (2..=d[axis]).filter(|f| d[axis] % f == 0) {
                    let targets = (0..d.len())
                        .filter(|&k| k != axis)
                        .flat_map(|k| [Some((k, false)), Some((k, true))])
                        .chain(std::iter::once(None));
                    for onto in targets {
                        let op = Fold { axis, f, onto };
                        if let Some(nd) = fold_dims(d, op) {
                            let mut o = ops.clone();
                            o.push(op);
                            next.push((nd, o));
                        }
                    }
                }
            }
        }
        layer = next;
    }
    if fitting.is_empty() {
        return None;
    }
    // each candidate's box coordinates of every task and its hop-bytes at the corner
    let n = g.n();
    let mut scored: Vec<(u64, usize, Vec<[u32; 3]>)> = Vec::with_capacity(fitting.len());
    let mut corner_hosts = vec![0u32; n as usize];
    for (i, (ops, perm, side)) in fitting.iter().enumerate() {
        let mut pts = Vec::with_capacity(n as usize);
        for t in 0..n {
            let mut d: Vec<u32> = tdims.iter().copied().filter(|&x| x > 1).collect();
            let mut c: Vec<u32> = {
                let full = [
                    t % tdims[0],
                    (t / tdims[0]) % tdims[1],
                    t / (tdims[0] * tdims[1]),
                ];
                tdims
                    .iter()
                    .zip(full)
                    .filter(|(&x, _)| x > 1)
                    .map(|(_, y)| y)
                    .collect()
            };
            for &op in ops {
                let nd = fold_dims(&d, op).expect("a fold that applied");
                c = fold_point(&d, &c, op);
                d = nd;
            }
            // machine axis k carries box axis perm[k] (or nothing)
            let p = [0, 1, 2].map(|k| c.get(perm[k]).copied().unwrap_or(0));
            debug_assert!((0..3).all(|k| p[k] < side[k]));
            pts.push(p);
        }
        for (t, p) in pts.iter().enumerate() {
            corner_hosts[t] = p[0] + mdims[0] * (p[1] + mdims[1] * p[2]);
        }
        scored.push((metric.hop_weight(g, &corner_hosts), i, pts));
    }
    let mut sides: Vec<[u32; 3]> = fitting.iter().map(|f| f.2).collect();
    for (pts, side) in interleaves(tdims, *mdims) {
        for (t, p) in pts.iter().enumerate() {
            corner_hosts[t] = p[0] + mdims[0] * (p[1] + mdims[1] * p[2]);
        }
        scored.push((metric.hop_weight(g, &corner_hosts), sides.len(), pts));
        sides.push(side);
    }
    scored.sort_by_key(|s| (s.0, s.1));
    let all_free = busy.iter().all(|&b| !b);
    for (_, i, pts) in scored.iter().take(MAX_LAID) {
        let side = sides[*i];
        if all_free {
            return Some(lay(*mdims, [0; 3], pts, busy).expect("a free machine"));
        }
        for corner in 0..busy.len() as u32 {
            let c = Shape::coords(*mdims, corner);
            if !wrap && (0..3).any(|k| c[k] + side[k] > mdims[k]) {
                continue;
            }
            if let Some(h) = lay(*mdims, c, pts, busy) {
                return Some(h);
            }
        }
    }
    None
}

/// The interleaved layouts of a 3D task grid `a x b x c` on two machine axes (module doc, step
/// 2b): one task side of length `f0 f1` walked as a snake over an `f0 x f1` block (consecutive
/// tasks on that side one hop apart, and the last back to the first when `f1` is even), the
/// blocks tiled by the other two sides, `X = x f0 + g0`, `Y = y f1 + g1`: the other sides'
/// neighbours `f0` and `f1` hops apart. Each layout's box coordinates of every task (`x + a (y + b
/// z)` numbering) and its sides along the machine's axes, for every split side, factor pair and
/// pair of machine axes that holds the box, at most [`MAX_INTERLEAVES`].
fn interleaves(tdims: [u32; 3], m: [u32; 3]) -> Vec<(Vec<[u32; 3]>, [u32; 3])> {
    let mut out = Vec::new();
    if tdims.iter().any(|&d| d < 2) {
        return out;
    }
    let n: u32 = tdims.iter().product();
    for split in 0..3 {
        let c = tdims[split];
        let others: Vec<usize> = (0..3).filter(|&i| i != split).collect();
        for f0 in (2..c).filter(|f| c % f == 0) {
            let f1 = c / f0;
            for (k0, k1) in [(0, 1), (1, 0), (0, 2), (2, 0), (1, 2), (2, 1)] {
                if out.len() >= MAX_INTERLEAVES {
                    return out;
                }
                let (u, v) = (others[0], others[1]);
                let mut side = [1u32; 3];
                side[k0] = tdims[u] * f0;
                side[k1] = tdims[v] * f1;
                if (0..3).any(|k| side[k] > m[k]) {
                    continue;
                }
                let pts = (0..n)
                    .map(|t| {
                        let full = [
                            t % tdims[0],
                            (t / tdims[0]) % tdims[1],
                            t / (tdims[0] * tdims[1]),
                        ];
                        let r = full[split];
                        let (row, col) = (r / f0, r % f0);
                        let g0 = if row % 2 == 1 { f0 - 1 - col } else { col };
                        let mut p = [0u32; 3];
                        p[k0] = full[u] * f0 + g0;
                        p[k1] = full[v] * f1 + row;
                        p
                    })
                    .collect();
                out.push((pts, side));
            }
        }
    }
    out
}

/// The axis orders in which a box of sides `d` (at most three) fits the machine `m`: `perm[k]`
/// the box axis along machine axis `k` (`3` and up: none), and the box's side along each
/// machine axis.
fn fits(d: &[u32], m: [u32; 3]) -> Vec<([usize; 3], [u32; 3])> {
    let side_of = |a: usize| d.get(a).copied().unwrap_or(1);
    let mut out: Vec<([usize; 3], [u32; 3])> = Vec::new();
    for p in super::machine::AXIS_PERMS {
        let side = [side_of(p[0]), side_of(p[1]), side_of(p[2])];
        if (0..3).all(|k| side[k] <= m[k]) && !out.iter().any(|o| o.1 == side) {
            out.push((p, side));
        }
    }
    out
}

/// The hosts of box points `pts` with the box's corner at `corner` (wrapping round a torus),
/// `None` when one of them is busy.
fn lay(dims: [u32; 3], corner: [u32; 3], pts: &[[u32; 3]], busy: &[bool]) -> Option<Vec<u32>> {
    let mut hosts = Vec::with_capacity(pts.len());
    for p in pts {
        let m = [0, 1, 2].map(|k| (corner[k] + p[k]) % dims[k]);
        let h = m[0] + dims[0] * (m[1] + dims[1] * m[2]);
        if busy[h as usize] {
            return None;
        }
        hosts.push(h);
    }
    Some(hosts)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(dims: [u32; 3], wrap: bool) -> Graph {
        let n = dims.iter().product();
        let mut edges = Vec::new();
        let mut out = Vec::new();
        for v in 0..n {
            grid_neighbours(dims, wrap, v, &mut out);
            edges.extend(out.iter().filter(|&&u| v < u).map(|&u| (v, u, 1)));
        }
        Graph::from_edges(n, &edges).unwrap()
    }

    #[test]
    fn grids_are_recognized_by_their_sides_and_closure() {
        for (dims, wrap) in [
            ([32, 8, 1], false),
            ([8, 8, 4], true),
            ([16, 1, 1], false),
            ([5, 3, 2], false),
            ([6, 4, 1], true),
        ] {
            assert_eq!(grid_of(&grid(dims, wrap)), Some((dims, wrap)), "{dims:?}");
        }
        // a grid with one edge missing is no grid
        let g = grid([4, 4, 1], false);
        let mut edges = Vec::new();
        for v in 0..16 {
            for &u in g.neighbors(v) {
                if v < u && (v, u) != (5, 6) {
                    edges.push((v, u, 1));
                }
            }
        }
        assert_eq!(grid_of(&Graph::from_edges(16, &edges).unwrap()), None);
    }

    #[test]
    fn an_8x8x4_wrapped_grid_interleaves_onto_a_16x16_torus_at_five_hops_a_task() {
        let shape = Shape::Grid {
            dims: [16, 16, 1],
            wrap: true,
        };
        let job = TaskGraph {
            graph: grid([8, 8, 4], true),
            shape: None,
            wrap: true,
        };
        let metric = Metric::new(&shape);
        let h = fold(&shape, &vec![false; 256], &job, &metric).unwrap();
        let mut seen = vec![false; 256];
        for &x in &h {
            assert!(!std::mem::replace(&mut seen[x as usize], true));
        }
        // x and y neighbours 2 hops apart, the side of 4 round each 2x2 block at one hop
        assert_eq!(metric.hop_weight(&job.graph, &h), 256 * (2 + 2 + 1));
    }

    #[test]
    fn a_32x8_grid_folds_onto_a_16x16_torus_at_one_hop_but_across_the_fold() {
        let shape = Shape::Grid {
            dims: [16, 16, 1],
            wrap: true,
        };
        let job = TaskGraph {
            graph: grid([32, 8, 1], false),
            shape: None,
            wrap: false,
        };
        let metric = Metric::new(&shape);
        let busy = vec![false; 256];
        let h = fold(&shape, &busy, &job, &metric).unwrap();
        let mut seen = vec![false; 256];
        for &x in &h {
            assert!(!std::mem::replace(&mut seen[x as usize], true));
        }
        // 472 edges; the 8 across the fold: 1, 3, 5, 7, 7, 5, 3, 1 hops
        assert_eq!(metric.hop_weight(&job.graph, &h), 496);
        // a busy node: the fold moves to a free block or gives up, never uses it
        let mut busy = vec![false; 256];
        busy[0] = true;
        if let Some(h) = fold(&shape, &busy, &job, &metric) {
            assert!(h.iter().all(|&x| !busy[x as usize]));
        }
    }
}
