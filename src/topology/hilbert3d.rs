//! Generalized Hilbert curve in 3D for any `width x height x depth` cuboid, after the
//! construction of Červený and Abetusk (the "gilbert" paper, 2024): the cuboid is split along
//! its long axis when it is eccentric (`S0`, `S1`, `S2` splits into two or three blocks), else
//! into five blocks around a 2 x 2 x 2 Hilbert motif (`J0`, `J1`, `J2`, chosen by which sides are
//! odd); halves are rounded so that the blocks keep the parities the motif needs, and flat blocks
//! (one side 1) fall back to the 2D curve of the same construction.
//!
//! Invariant (tested for every side from 1 to 12): every cell is visited once, and consecutive
//! cells are face neighbours except for the rare diagonal two-hop steps that odd sides force.
//! The power-of-two-only curve of the source (Zhdanov & Korkhov's code) is [`hilbert3d_pow2`]:
//! the classic curve of the enclosing power-of-two cube with the cells outside dropped, which
//! jumps wherever it leaves the cuboid; it is only offered behind the source-quirks option.
//!
//! # Complexity
//! `O(W H D)` time and memory for the whole curve (each cell is emitted once, the recursion is
//! `O(log max side)` deep).

type V = [i64; 3];

fn add(a: V, b: V) -> V {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}
fn sub(a: V, b: V) -> V {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
fn neg(a: V) -> V {
    [-a[0], -a[1], -a[2]]
}
fn sgn(a: V) -> V {
    [a[0].signum(), a[1].signum(), a[2].signum()]
}
/// Division by `q` rounding toward zero, per component (the construction's `v_divq`).
fn divq(a: V, q: i64) -> V {
    [a[0] / q, a[1] / q, a[2] / q]
}
/// Length of an axis-aligned vector.
fn len(a: V) -> i64 {
    a[0].abs() + a[1].abs() + a[2].abs()
}

/// Cells `(x, y, z)` of a `w x h x d` cuboid in curve order (empty if a side is 0).
pub fn gilbert3d(w: u32, h: u32, d: u32) -> Vec<[u32; 3]> {
    let mut out = Vec::with_capacity(w as usize * h as usize * d as usize);
    if w == 0 || h == 0 || d == 0 {
        return out;
    }
    let (w, h, d) = (i64::from(w), i64::from(h), i64::from(d));
    let (x, y, z) = ([w, 0, 0], [0, h, 0], [0, 0, d]);
    let o = [0, 0, 0];
    if w >= h && w >= d {
        g3(&mut out, o, x, y, z);
    } else if h >= w && h >= d {
        g3(&mut out, o, y, x, z);
    } else {
        g3(&mut out, o, z, x, y);
    }
    out
}

/// Position along [`gilbert3d`] of each node id `x + w * (y + h * z)` (SimGrid's numbering,
/// dimension 0 fastest).
pub fn hilbert3d_rank(w: u32, h: u32, d: u32) -> Vec<u32> {
    let mut rank = vec![0u32; w as usize * h as usize * d as usize];
    for (k, c) in gilbert3d(w, h, d).into_iter().enumerate() {
        rank[(c[0] + w * (c[1] + h * c[2])) as usize] = k as u32;
    }
    rank
}

fn push(out: &mut Vec<[u32; 3]>, p: V) {
    out.push([p[0] as u32, p[1] as u32, p[2] as u32]);
}

/// The 2D curve of the same construction over the rectangle spanned by `a` and `b`.
fn g2(out: &mut Vec<[u32; 3]>, p: V, a: V, b: V) {
    let (la, lb) = (len(a), len(b));
    let (da, db) = (sgn(a), sgn(b));
    if lb == 1 || la == 1 {
        let (n, step) = if lb == 1 { (la, da) } else { (lb, db) };
        let mut u = p;
        for _ in 0..n {
            push(out, u);
            u = add(u, step);
        }
        return;
    }
    let mut a2 = divq(a, 2);
    let mut b2 = divq(b, 2);
    if 2 * la > 3 * lb {
        if len(a2) % 2 == 1 && la > 2 {
            a2 = add(a2, da);
        }
        g2(out, p, a2, b);
        g2(out, add(p, a2), sub(a, a2), b);
        return;
    }
    if len(b2) % 2 == 1 && lb > 2 {
        b2 = add(b2, db);
    }
    g2(out, p, b2, a2);
    g2(out, add(p, b2), a, sub(b, b2));
    g2(
        out,
        add(p, add(sub(a, da), sub(b2, db))),
        neg(b2),
        sub(a2, a),
    );
}

/// Rounds a half `v2` of `v` (length `l`) up by one step when its parity is `odd_is_bad`.
fn fix_half(v2: V, v: V, l: i64, bad_parity: i64) -> V {
    if l > 2 && len(v2) % 2 == bad_parity {
        add(v2, sgn(v))
    } else {
        v2
    }
}

fn g3(out: &mut Vec<[u32; 3]>, p: V, a: V, b: V, c: V) {
    let (la, lb, lc) = (len(a), len(b), len(c));
    if la == 2 && lb == 2 && lc == 2 {
        // the 2 x 2 x 2 Hilbert motif: beta, gamma, -beta, alpha, beta, -gamma, -beta
        let (da, db, dc) = (sgn(a), sgn(b), sgn(c));
        let mut u = p;
        push(out, u);
        for step in [db, dc, neg(db), da, db, neg(dc), neg(db)] {
            u = add(u, step);
            push(out, u);
        }
        return;
    }
    if la == 1 {
        return g2(out, p, b, c);
    }
    if lb == 1 {
        return g2(out, p, a, c);
    }
    if lc == 1 {
        return g2(out, p, a, b);
    }
    let (da, db, dc) = (sgn(a), sgn(b), sgn(c));
    // eccentric shapes: split the long axis
    if 3 * la > 5 * lb && 3 * la > 5 * lc {
        let a2 = fix_half(divq(a, 2), a, la, 1);
        g3(out, p, a2, b, c);
        g3(out, add(p, a2), sub(a, a2), b, c);
        return;
    }
    if 2 * lb > 3 * lc || 2 * lb > 3 * la {
        let a2 = fix_half(divq(a, 2), a, la, 1);
        let b3 = fix_half(divq(b, 3), b, lb, 1);
        g3(out, p, b3, c, a2);
        g3(out, add(p, b3), a, sub(b, b3), c);
        g3(
            out,
            add(p, add(sub(a, da), sub(b3, db))),
            neg(b3),
            c,
            neg(sub(a, a2)),
        );
        return;
    }
    if 2 * lc > 3 * lb {
        let a2 = fix_half(divq(a, 2), a, la, 1);
        let c3 = fix_half(divq(c, 3), c, lc, 1);
        g3(out, p, c3, a2, b);
        g3(out, add(p, c3), a, b, sub(c, c3));
        g3(
            out,
            add(p, add(sub(a, da), sub(c3, dc))),
            neg(c3),
            neg(sub(a, a2)),
            b,
        );
        return;
    }
    // bulk: five blocks around the 2 x 2 x 2 motif
    let b2 = fix_half(divq(b, 2), b, lb, 1);
    let c2 = fix_half(divq(c, 2), c, lc, 1);
    if lc % 2 == 0 {
        let a2 = fix_half(divq(a, 2), a, la, 1);
        g3(out, p, b2, c2, a2);
        g3(out, add(p, b2), c, a2, sub(b, b2));
        g3(
            out,
            add(p, add(sub(b2, db), sub(c, dc))),
            a,
            neg(b2),
            neg(sub(c, c2)),
        );
        g3(
            out,
            add(p, add(sub(a, da), add(b2, sub(c, dc)))),
            neg(c),
            neg(sub(a, a2)),
            sub(b, b2),
        );
        g3(
            out,
            add(p, add(sub(a, da), sub(b2, db))),
            neg(b2),
            c2,
            neg(sub(a, a2)),
        );
        return;
    }
    let a2 = fix_half(divq(a, 2), a, la, 0);
    if la % 2 == 0 || lb % 2 == 0 {
        g3(out, p, c2, a2, b2);
        g3(out, add(p, c2), b, sub(c, c2), a2);
        g3(
            out,
            add(p, add(sub(c2, dc), sub(b, db))),
            a,
            neg(sub(b, b2)),
            neg(c2),
        );
        g3(
            out,
            add(p, add(sub(a, da), add(sub(b, db), c2))),
            neg(b),
            sub(c, c2),
            neg(sub(a, a2)),
        );
        g3(
            out,
            add(p, add(sub(a, da), sub(c2, dc))),
            neg(c2),
            neg(sub(a, a2)),
            b2,
        );
        return;
    }
    g3(out, p, b2, c, a2);
    g3(out, add(p, b2), c2, a, sub(b, b2));
    g3(out, add(p, add(b2, c2)), a, sub(b, b2), sub(c, c2));
    g3(
        out,
        add(p, add(sub(a, da), add(sub(b2, db), c2))),
        neg(b2),
        sub(c, c2),
        neg(sub(a, a2)),
    );
    g3(
        out,
        add(p, add(sub(a, da), sub(c2, dc))),
        neg(c2),
        neg(sub(a, a2)),
        b2,
    );
}

/// The source's 3D curve (a quirk, behind an option): the classic Hilbert curve of the smallest
/// power-of-two cube holding the cuboid, keeping only the cells inside it. Contiguous only when
/// every side is that power of two.
pub fn hilbert3d_pow2(w: u32, h: u32, d: u32) -> Vec<[u32; 3]> {
    let side = w.max(h).max(d).max(1).next_power_of_two();
    let bits = side.trailing_zeros();
    let total = u64::from(side).pow(3);
    let mut out = Vec::with_capacity(w as usize * h as usize * d as usize);
    for i in 0..total {
        let c = hilbert_d2xyz(i, bits);
        if c[0] < w && c[1] < h && c[2] < d {
            out.push(c);
        }
    }
    out
}

/// The classic 3D Hilbert curve of a `2^bits` cube: the cell at position `i` (Skilling's
/// transpose-to-axes method).
fn hilbert_d2xyz(i: u64, bits: u32) -> [u32; 3] {
    // distribute the bits of i over the three axes ("transposed" form), most significant first
    let mut x = [0u32; 3];
    for b in 0..bits {
        for (k, xk) in x.iter_mut().enumerate() {
            let bit = (i >> (3 * b + (2 - k as u32))) & 1;
            *xk |= (bit as u32) << b;
        }
    }
    // Gray decode
    let t = x[2] >> 1;
    for k in (1..3).rev() {
        x[k] ^= x[k - 1];
    }
    x[0] ^= t;
    // undo excess work
    let mut q = 2u32;
    while bits > 0 && q != (1u32 << bits) {
        let p = q - 1;
        for k in (0..3).rev() {
            if x[k] & q != 0 {
                x[0] ^= p;
            } else {
                let t = (x[0] ^ x[k]) & p;
                x[0] ^= t;
                x[k] ^= t;
            }
        }
        q <<= 1;
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(w: u32, h: u32, d: u32, c: &[[u32; 3]]) -> usize {
        assert_eq!(c.len(), (w * h * d) as usize, "{w}x{h}x{d}");
        let mut seen = vec![false; (w * h * d) as usize];
        for p in c {
            assert!(p[0] < w && p[1] < h && p[2] < d);
            let i = (p[0] + w * (p[1] + h * p[2])) as usize;
            assert!(
                !std::mem::replace(&mut seen[i], true),
                "{w}x{h}x{d}: {p:?} twice"
            );
        }
        let mut diagonal = 0;
        for s in c.windows(2) {
            let dd: Vec<u32> = (0..3).map(|k| s[0][k].abs_diff(s[1][k])).collect();
            let hops: u32 = dd.iter().sum();
            match hops {
                1 => {}
                2 if dd.iter().all(|&x| x <= 1) => diagonal += 1,
                _ => panic!("{w}x{h}x{d}: jump {:?} -> {:?}", s[0], s[1]),
            }
        }
        diagonal
    }

    #[test]
    fn visits_every_cell_once_with_neighbour_or_diagonal_steps_up_to_side_12() {
        let mut worst = 0;
        for w in 1..=12 {
            for h in 1..=12 {
                for d in 1..=12 {
                    let diag = check(w, h, d, &gilbert3d(w, h, d));
                    if w % 2 == 0 && h % 2 == 0 && d % 2 == 0 {
                        assert_eq!(diag, 0, "{w}x{h}x{d}: even sides need no diagonal step");
                    }
                    worst = worst.max(diag * 100 / (w * h * d) as usize);
                }
            }
        }
        // diagonal steps stay rare
        assert!(worst <= 20, "{worst}% diagonal steps");
    }

    #[test]
    fn rank_inverts_the_curve() {
        let (w, h, d) = (5, 3, 4);
        let c = gilbert3d(w, h, d);
        let r = hilbert3d_rank(w, h, d);
        for (k, p) in c.iter().enumerate() {
            assert_eq!(r[(p[0] + w * (p[1] + h * p[2])) as usize], k as u32);
        }
    }

    #[test]
    fn source_curve_is_contiguous_only_on_power_of_two_cubes() {
        for s in [1, 2, 4, 8] {
            let c = hilbert3d_pow2(s, s, s);
            assert_eq!(check(s, s, s, &c), 0);
        }
        let c = hilbert3d_pow2(6, 6, 6);
        assert_eq!(c.len(), 216);
        let jumps = c
            .windows(2)
            .filter(|s| (0..3).map(|k| s[0][k].abs_diff(s[1][k])).sum::<u32>() > 2)
            .count();
        assert!(jumps > 0, "a 6^3 cut of the 8^3 curve must jump");
    }
}
