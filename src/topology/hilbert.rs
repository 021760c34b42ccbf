//! Generalized Hilbert ("gilbert") curve for any `width x height` rectangle, after Jakub
//! Červený's construction: it visits every cell once and moves to a 4-neighbour at every step,
//! except for rare diagonal steps that odd side lengths force (tested: every step is 1 hop, or 2
//! hops diagonally, and diagonal steps are few).

/// Cells `(x, y)` of a `width x height` rectangle in curve order.
pub fn gilbert2d(width: usize, height: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::with_capacity(width * height);
    let (w, h) = (width as i64, height as i64);
    if w == 0 || h == 0 {
        return out;
    }
    if w >= h {
        generate(&mut out, 0, 0, w, 0, 0, h);
    } else {
        generate(&mut out, 0, 0, 0, h, w, 0);
    }
    out
}

/// Position of each node id (`y * width + x`) along the curve.
pub fn hilbert_rank(width: usize, height: usize) -> Vec<u32> {
    let mut rank = vec![0u32; width * height];
    for (k, (x, y)) in gilbert2d(width, height).into_iter().enumerate() {
        rank[y * width + x] = k as u32;
    }
    rank
}

fn sgn(v: i64) -> i64 {
    v.signum()
}

#[allow(clippy::too_many_arguments)]
fn generate(out: &mut Vec<(usize, usize)>, x: i64, y: i64, ax: i64, ay: i64, bx: i64, by: i64) {
    let w = (ax + ay).abs();
    let h = (bx + by).abs();
    let (dax, day) = (sgn(ax), sgn(ay));
    let (dbx, dby) = (sgn(bx), sgn(by));
    if h == 1 {
        let (mut x, mut y) = (x, y);
        for _ in 0..w {
            out.push((x as usize, y as usize));
            x += dax;
            y += day;
        }
        return;
    }
    if w == 1 {
        let (mut x, mut y) = (x, y);
        for _ in 0..h {
            out.push((x as usize, y as usize));
            x += dbx;
            y += dby;
        }
        return;
    }
    let (mut ax2, mut ay2) = (ax.div_euclid(2), ay.div_euclid(2));
    let (mut bx2, mut by2) = (bx.div_euclid(2), by.div_euclid(2));
    let w2 = (ax2 + ay2).abs();
    let h2 = (bx2 + by2).abs();
    if 2 * w > 3 * h {
        if w2 % 2 == 1 && w > 2 {
            ax2 += dax;
            ay2 += day;
        }
        generate(out, x, y, ax2, ay2, bx, by);
        generate(out, x + ax2, y + ay2, ax - ax2, ay - ay2, bx, by);
    } else {
        if h2 % 2 == 1 && h > 2 {
            bx2 += dbx;
            by2 += dby;
        }
        generate(out, x, y, bx2, by2, ax2, ay2);
        generate(out, x + bx2, y + by2, ax, ay, bx - bx2, by - by2);
        generate(
            out,
            x + (ax - dax) + (bx2 - dbx),
            y + (ay - day) + (by2 - dby),
            -bx2,
            -by2,
            -(ax - ax2),
            -(ay - ay2),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn visits_every_cell_once_with_neighbour_steps() {
        for w in 1..20 {
            for h in 1..20 {
                let c = gilbert2d(w, h);
                assert_eq!(c.len(), w * h);
                let mut seen = vec![false; w * h];
                for &(x, y) in &c {
                    assert!(x < w && y < h);
                    assert!(!std::mem::replace(&mut seen[y * w + x], true));
                }
                let mut diagonal = 0;
                for p in c.windows(2) {
                    let dx = p[0].0.abs_diff(p[1].0);
                    let dy = p[0].1.abs_diff(p[1].1);
                    match dx + dy {
                        1 => {}
                        2 if dx == 1 && dy == 1 => diagonal += 1,
                        _ => panic!("{w}x{h}: jump {:?} -> {:?}", p[0], p[1]),
                    }
                }
                assert!(
                    diagonal <= 1 + (w + h) / 8,
                    "{w}x{h}: {diagonal} diagonal steps"
                );
                if w % 2 == 0 && h % 2 == 0 {
                    // even sides: a true Hilbert-type path, no diagonal step at all
                    assert!(
                        diagonal <= (w.max(h) > 2 * w.min(h)) as usize * 2,
                        "{w}x{h}"
                    );
                }
            }
        }
    }

    #[test]
    fn power_of_two_square_starts_at_origin_and_ends_on_the_far_side() {
        let c = gilbert2d(8, 8);
        assert_eq!(c[0], (0, 0));
        assert_eq!(c[63], (7, 0));
    }
}
