//! Free-rectangle search on a mesh with row bitsets, and the naive rescan it replaces.
//!
//! A cell is *available* when its node is free and no running job's traffic crosses its router.
//! For a shape `a x b` the origins `(x, y)` whose whole rectangle is available are found with
//! word-parallel bit operations instead of testing `a * b` cells per origin:
//!
//! - `F_a(y)[x] = AND_{i<a} avail(y)[x+i]` (a free run of width `a` starts at `x`), by doubling;
//! - `G(y)[x] = AND_{j<b} F_a(y+j)[x]` (a free `a x b` rectangle has origin `(x, y)`), by doubling.
//!
//! That costs `O(H * W/64 * (log a + log b))` word operations per shape instead of the naive
//! `O(W * H * a * b)`; a summed-area table would need an `O(W * H)` rebuild after every change.
//!
//! `closed-min-best` then keeps only *bottom-left stable* origins (the rectangle cannot slide down
//! or left: it touches the mesh edge or a blocked cell on both sides; if any origin fits, sliding it
//! down and left ends at such an origin, so none is lost) and picks the one whose perimeter touches
//! the most blocked cells or edges (a fragmentation-aware choice that keeps free space in one
//! piece), ties to the lowest origin id. [`best_fit_naive`] makes the same choice by rescanning
//! every cell and is the oracle in the tests and the baseline in the benchmark.

use std::cell::{Cell, OnceCell};

/// Row bitsets over a `width x height` grid: bit `x` of row `y` is cell `(x, y)`.
///
/// The grid also remembers, until its next change, the tallest available rectangle of each width
/// (built after the first failed search since the change): while the machine does not change,
/// every further search for a shape that cannot fit is answered in `O(1)` instead of a full
/// scan. A stream's scheduling pass may try dozens of queued jobs on the same machine, so without
/// it the work per pass grew with the queue.
#[derive(Debug, Clone)]
pub struct Grid {
    pub width: usize,
    pub height: usize,
    words: usize,
    bits: Vec<u64>,
    /// `tallest_per_width` of the current cells, once a search has failed since the last change.
    tall: OnceCell<Vec<usize>>,
    /// Whether a failed search builds `tall`. Worth it only where many searches meet one machine
    /// state (EASY passes); a FCFS pass or a set tries one job per state, and the table's sweep
    /// would cost more than the searches it saves.
    pub tables: bool,
    /// Word and cell operations spent searching (the work counter of `tests/bounds.rs`).
    pub work: Cell<u64>,
}

impl PartialEq for Grid {
    fn eq(&self, o: &Self) -> bool {
        (self.width, self.height, &self.bits) == (o.width, o.height, &o.bits)
    }
}
impl Eq for Grid {}

impl Grid {
    /// A grid with every cell set to `value`.
    pub fn new(width: usize, height: usize, value: bool) -> Self {
        let words = width.div_ceil(64);
        let mut g = Grid {
            width,
            height,
            words,
            bits: vec![0; words * height],
            tall: OnceCell::new(),
            tables: true,
            work: Cell::new(0),
        };
        if value {
            for y in 0..height {
                g.fill_row(y, 0, width, true);
            }
        }
        g
    }
    #[inline]
    pub fn get(&self, x: usize, y: usize) -> bool {
        self.bits[y * self.words + x / 64] >> (x % 64) & 1 == 1
    }
    #[inline]
    pub fn set(&mut self, x: usize, y: usize, v: bool) {
        let w = &mut self.bits[y * self.words + x / 64];
        let old = *w;
        if v {
            *w |= 1 << (x % 64);
        } else {
            *w &= !(1 << (x % 64));
        }
        if *w != old {
            self.tall.take();
        }
    }
    /// Whether an available `a x b` rectangle may exist: exact once a search has failed since the
    /// last change (then `O(1)`), otherwise `true` (the caller searches).
    fn may_fit(&self, a: usize, b: usize) -> bool {
        self.tall.get().is_none_or(|t| t[a - 1] >= b)
    }
    /// Records a failed search: from now until the next change, answers come from the table.
    fn failed(&self) {
        if self.tables && self.tall.get().is_none() {
            self.add_work(4 * (self.width * self.height) as u64);
            let _ = self.tall.set(tallest_per_width_scan(self));
        }
    }
    #[inline]
    fn add_work(&self, w: u64) {
        self.work.set(self.work.get() + w);
    }
    /// Sets cells `x0..x0+len` of row `y`.
    pub fn fill_row(&mut self, y: usize, x0: usize, len: usize, v: bool) {
        for x in x0..x0 + len {
            self.set(x, y, v);
        }
    }
    #[inline]
    fn row(&self, y: usize) -> &[u64] {
        &self.bits[y * self.words..(y + 1) * self.words]
    }
    /// Number of set cells in row `y`, columns `x0..x0+len`.
    pub fn count_row(&self, y: usize, x0: usize, len: usize) -> usize {
        let row = self.row(y);
        let mut c = 0;
        let mut x = x0;
        let end = x0 + len;
        while x < end {
            let wi = x / 64;
            let lo = x % 64;
            let hi = (end - wi * 64).min(64);
            let mask = if hi - lo == 64 {
                u64::MAX
            } else {
                ((1u64 << (hi - lo)) - 1) << lo
            };
            c += (row[wi] & mask).count_ones() as usize;
            x = wi * 64 + hi;
        }
        c
    }
    /// Number of set cells in column `x`, rows `y0..y0+len`.
    pub fn count_col(&self, x: usize, y0: usize, len: usize) -> usize {
        (y0..y0 + len).filter(|&y| self.get(x, y)).count()
    }
    /// Whether every cell of the rectangle is set (naive: tests each cell).
    pub fn all_set_naive(&self, x0: usize, y0: usize, a: usize, b: usize) -> bool {
        (y0..y0 + b).all(|y| (x0..x0 + a).all(|x| self.get(x, y)))
    }
    /// Number of set cells.
    pub fn count(&self) -> usize {
        self.bits.iter().map(|w| w.count_ones() as usize).sum()
    }
}

/// Word `j` of the multi-word row `src` shifted right by `s` bits (bit `x` reads bit `x + s`),
/// zeros shifted in past the row's end.
#[inline]
fn shifted_word(src: &[u64], j: usize, s: usize) -> u64 {
    let n = src.len();
    let (ws, bs) = (s / 64, s % 64);
    let lo = if j + ws < n { src[j + ws] } else { 0 };
    if bs == 0 {
        lo
    } else {
        let hi = if j + ws + 1 < n { src[j + ws + 1] } else { 0 };
        (lo >> bs) | (hi << (64 - bs))
    }
}

/// `dst &= src >> s` on one multi-word row.
#[inline]
fn and_shifted(dst: &mut [u64], src: &[u64], s: usize) {
    for (j, d) in dst.iter_mut().enumerate() {
        *d &= shifted_word(src, j, s);
    }
}

/// `row &= row >> s` in place: ascending `j` only reads words at or after `j`, not yet written.
#[inline]
fn and_shifted_self(row: &mut [u64], s: usize) {
    for j in 0..row.len() {
        row[j] &= shifted_word(row, j, s);
    }
}

/// Per row: bit `x` set iff cells `x..x+a` of the row are all set in `g` (so `x + a <= width`).
/// Rows with fewer than `a` set cells are skipped. Also returns whether any bit is set.
fn run_masks(g: &Grid, a: usize) -> (Vec<u64>, bool) {
    let words = g.words;
    g.add_work((g.bits.len() * (2 + 2 * log2_ceil(a))) as u64);
    let mut out = vec![0u64; g.bits.len()];
    let mut cur = vec![0u64; words];
    let mut any = false;
    for y in 0..g.height {
        let row = g.row(y);
        if (row.iter().map(|w| w.count_ones()).sum::<u32>() as usize) < a {
            continue;
        }
        cur.copy_from_slice(row);
        let o = &mut out[y * words..(y + 1) * words];
        let (mut shift, mut rem, mut step, mut first) = (0usize, a, 1usize, true);
        while rem > 0 {
            if rem & 1 == 1 {
                if first {
                    o.copy_from_slice(&cur);
                    first = false;
                } else {
                    and_shifted(o, &cur, shift);
                }
                shift += step;
            }
            rem >>= 1;
            if rem > 0 {
                and_shifted_self(&mut cur, step);
            }
            step <<= 1;
        }
        any |= o.iter().any(|&w| w != 0);
    }
    (out, any)
}

/// Rows AND-ed over windows of `b`: row `y` of the result (for `y + b <= height`) is
/// `AND_{j<b} rows[y + j]`; rows past `height - b` are zero. Doubling, in place.
fn window_and(rows: &[u64], words: usize, height: usize, b: usize) -> Vec<u64> {
    let mut out = vec![0u64; rows.len()];
    let mut cur = rows.to_vec();
    let (mut shift, mut rem, mut step, mut first) = (0usize, b, 1usize, true);
    while rem > 0 {
        if rem & 1 == 1 {
            if first {
                out.copy_from_slice(&cur);
                first = false;
            } else {
                let keep = height.saturating_sub(shift) * words;
                for (o, c) in out[..keep].iter_mut().zip(&cur[shift * words..]) {
                    *o &= *c;
                }
                out[keep..].fill(0);
            }
            shift += step;
        }
        rem >>= 1;
        if rem > 0 {
            // ascending index reads row y + step, not yet written
            let keep = height.saturating_sub(step) * words;
            for i in 0..keep {
                cur[i] &= cur[i + step * words];
            }
            cur[keep..].fill(0);
        }
        step <<= 1;
    }
    let from = height.saturating_sub(b - 1) * words;
    out[from..].fill(0);
    out
}

/// `ceil(log2 v)` for `v >= 1`.
pub fn log2_ceil(v: usize) -> usize {
    (usize::BITS - v.saturating_sub(1).leading_zeros()) as usize
}

/// Counted steps of one `relax-closed` diameter search on a mesh with `W + H = side`.
pub fn relax_closed_steps(side: f64) -> f64 {
    2.0 * side * side * (libm::ceil(libm::log2(side)) + 2.0)
}

/// Work of one [`first_fit`] or per shape of [`best_fit`] on a `width x height` grid,
/// at most (the admission estimate uses it): the run masks, the row windows, the column windows
/// and the candidate scan, each `O(words)` per doubling step.
pub fn search_work_bound(width: usize, height: usize, a: usize, b: usize) -> u64 {
    let cells = (width.div_ceil(64) * height) as u64;
    cells * (2 + 2 * log2_ceil(a) as u64) + 2 * cells * (2 + 2 * log2_ceil(b) as u64) + cells * 2
}

/// A chosen rectangle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rect {
    pub x: usize,
    pub y: usize,
    pub w: usize,
    pub h: usize,
}

/// First origin in row-major order whose `a x b` rectangle is entirely available (the paper's
/// first-fit scan), found with bit operations.
pub fn first_fit(avail: &Grid, a: usize, b: usize) -> Option<Rect> {
    if a > avail.width || b > avail.height || a == 0 || b == 0 || !avail.may_fit(a, b) {
        return None;
    }
    let found = first_fit_scan(avail, a, b);
    if found.is_none() {
        avail.failed();
    }
    found
}

fn first_fit_scan(avail: &Grid, a: usize, b: usize) -> Option<Rect> {
    let (f, any) = run_masks(avail, a);
    if !any {
        return None;
    }
    let g = window_and(&f, avail.words, avail.height, b);
    avail.add_work((avail.bits.len() * (3 + 2 * log2_ceil(b))) as u64);
    for y in 0..=avail.height - b {
        for w in 0..avail.words {
            let bits = g[y * avail.words + w];
            if bits != 0 {
                return Some(Rect {
                    x: w * 64 + bits.trailing_zeros() as usize,
                    y,
                    w: a,
                    h: b,
                });
            }
        }
    }
    None
}

/// Perimeter contact of a rectangle: cells around it that are blocked or outside the mesh.
pub fn contact(avail: &Grid, r: Rect) -> usize {
    let (w, h) = (avail.width, avail.height);
    let bottom = if r.y == 0 {
        r.w
    } else {
        r.w - avail.count_row(r.y - 1, r.x, r.w)
    };
    let top = if r.y + r.h == h {
        r.w
    } else {
        r.w - avail.count_row(r.y + r.h, r.x, r.w)
    };
    let left = if r.x == 0 {
        r.h
    } else {
        r.h - avail.count_col(r.x - 1, r.y, r.h)
    };
    let right = if r.x + r.w == w {
        r.h
    } else {
        r.h - avail.count_col(r.x + r.w, r.y, r.h)
    };
    bottom + top + left + right
}

/// The best bottom-left-stable origin for each shape in `shapes`, compared by contact, then by
/// origin id (`y * width + x`), then by shape order. Returns the rectangle and its contact.
pub fn best_fit(avail: &Grid, shapes: &[(usize, usize)]) -> Option<(Rect, usize)> {
    let possible: Vec<(usize, usize)> = shapes
        .iter()
        .copied()
        .filter(|&(a, b)| {
            a <= avail.width && b <= avail.height && a > 0 && b > 0 && avail.may_fit(a, b)
        })
        .collect();
    if possible.is_empty() {
        return None;
    }
    let found = best_fit_scan(avail, &possible);
    if found.is_none() {
        avail.failed();
    }
    found
}

fn best_fit_scan(avail: &Grid, shapes: &[(usize, usize)]) -> Option<(Rect, usize)> {
    let words = avail.words;
    let height = avail.height;
    let mut best: Option<(Rect, usize)> = None;
    let mut f_cache: Vec<(usize, Vec<u64>, bool)> = Vec::new();
    let mut col_cache: Vec<(usize, Vec<u64>)> = Vec::new();
    for &(a, b) in shapes {
        if a > avail.width || b > height || a == 0 || b == 0 {
            continue;
        }
        if !f_cache.iter().any(|(w, _, _)| *w == a) {
            let (f, any) = run_masks(avail, a);
            f_cache.push((a, f, any));
        }
        let (_, f, any) = f_cache.iter().find(|(w, _, _)| *w == a).unwrap();
        if !any {
            continue;
        }
        let g = window_and(f, words, height, b);
        avail.add_work((avail.bits.len() * (3 + 2 * log2_ceil(b))) as u64);
        if g.iter().all(|&v| v == 0) {
            continue;
        }
        // rows where no cell of column x is blocked over [y, y+b): AND of avail over b rows
        if !col_cache.iter().any(|(h, _)| *h == b) {
            avail.add_work((avail.bits.len() * (2 + 2 * log2_ceil(b))) as u64);
            col_cache.push((b, window_and(&avail.bits, words, height, b)));
        }
        let col_free = &col_cache.iter().find(|(h, _)| *h == b).unwrap().1;
        for y in 0..=height - b {
            for wi in 0..words {
                let mut bits = g[y * words + wi];
                if bits == 0 {
                    continue;
                }
                // left contact: x == 0 or column x-1 has a blocked cell in rows [y, y+b)
                let prev = if wi == 0 {
                    0
                } else {
                    col_free[y * words + wi - 1] >> 63
                };
                let shifted_free = (col_free[y * words + wi] << 1) | prev;
                let mut left_ok = !shifted_free;
                if wi == 0 {
                    left_ok |= 1;
                }
                bits &= left_ok;
                // bottom contact: y == 0 or row y-1 has a blocked cell in [x, x+a)
                if y > 0 {
                    bits &= !f[(y - 1) * words + wi];
                }
                while bits != 0 {
                    let x = wi * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    let r = Rect { x, y, w: a, h: b };
                    let c = contact(avail, r);
                    if better(r, c, best, avail.width) {
                        best = Some((r, c));
                    }
                }
            }
        }
    }
    best
}

fn better(r: Rect, c: usize, best: Option<(Rect, usize)>, width: usize) -> bool {
    match best {
        None => true,
        Some((br, bc)) => c > bc || (c == bc && r.y * width + r.x < br.y * width + br.x),
    }
}

/// The same choice as [`best_fit`] by a naive rescan: every origin, every cell.
pub fn best_fit_naive(avail: &Grid, shapes: &[(usize, usize)]) -> Option<(Rect, usize)> {
    let (w, h) = (avail.width, avail.height);
    let mut best: Option<(Rect, usize)> = None;
    for &(a, b) in shapes {
        if a > w || b > h || a == 0 || b == 0 {
            continue;
        }
        for y in 0..=h - b {
            for x in 0..=w - a {
                if !avail.all_set_naive(x, y, a, b) {
                    continue;
                }
                let stuck_left = x == 0 || (y..y + b).any(|yy| !avail.get(x - 1, yy));
                let stuck_down = y == 0 || (x..x + a).any(|xx| !avail.get(xx, y - 1));
                if !(stuck_left && stuck_down) {
                    continue;
                }
                let r = Rect { x, y, w: a, h: b };
                let c = contact(avail, r);
                if better(r, c, best, w) {
                    best = Some((r, c));
                }
            }
        }
    }
    best
}

/// Calls `f(height, width)` for every maximal all-available rectangle found by the histogram
/// (largest-rectangle-under-a-histogram) sweep, row by row: `O(W * H)`.
fn for_each_maximal(avail: &Grid, mut f: impl FnMut(usize, usize)) {
    let (w, h) = (avail.width, avail.height);
    let mut heights = vec![0usize; w];
    let mut stack: Vec<(usize, usize)> = Vec::new();
    for y in 0..h {
        for (x, hx) in heights.iter_mut().enumerate() {
            *hx = if avail.get(x, y) { *hx + 1 } else { 0 };
        }
        stack.clear();
        // a zero bar past the last column closes every open rectangle
        for (x, hx) in heights
            .iter()
            .copied()
            .chain(std::iter::once(0))
            .enumerate()
        {
            let mut start = x;
            while let Some(&(sx, sh)) = stack.last() {
                if sh < hx {
                    break;
                }
                stack.pop();
                if x > sx && sh > 0 {
                    f(sh, x - sx);
                }
                start = sx;
            }
            stack.push((start, hx));
        }
    }
}

/// Area of the largest rectangle of available cells, `O(W * H)`.
pub fn largest_free_rectangle(avail: &Grid) -> usize {
    let mut best = 0;
    for_each_maximal(avail, |h, w| best = best.max(h * w));
    best
}

/// For each width `a` (index `a - 1`), the tallest available rectangle of that width anywhere:
/// every maximal rectangle of width `w` and height `h` holds one of each width up to `w`.
/// Served from the grid's table when it is current.
pub fn tallest_per_width(avail: &Grid) -> Vec<usize> {
    if let Some(t) = avail.tall.get() {
        return t.clone();
    }
    avail.add_work(4 * (avail.width * avail.height) as u64);
    let t = tallest_per_width_scan(avail);
    let _ = avail.tall.set(t.clone());
    t
}

fn tallest_per_width_scan(avail: &Grid) -> Vec<usize> {
    // the histogram sweep of `for_each_maximal`, specialised: heights per column, a stack of
    // (start, height) without zero bars, each popped bar of width w and height h recording
    // best[w - 1] >= h; a blocked cell empties the stack, a blocked word is skipped whole
    let (w, h) = (avail.width, avail.height);
    let mut best = vec![0usize; w];
    let mut heights = vec![0u32; w];
    let mut stack: Vec<(u32, u32)> = Vec::with_capacity(w + 1);
    let flush = |stack: &mut Vec<(u32, u32)>, best: &mut [usize], x: usize| {
        while let Some((sx, sh)) = stack.pop() {
            let b = &mut best[x - sx as usize - 1];
            *b = (*b).max(sh as usize);
        }
    };
    for y in 0..h {
        let row = avail.row(y);
        for (wi, &bits) in row.iter().enumerate() {
            let x0 = wi * 64;
            let n = (w - x0).min(64);
            if bits == 0 {
                flush(&mut stack, &mut best, x0);
                heights[x0..x0 + n].fill(0);
                continue;
            }
            for i in 0..n {
                let x = x0 + i;
                let hx = (heights[x] + 1) * ((bits >> i) & 1) as u32;
                heights[x] = hx;
                if hx == 0 {
                    flush(&mut stack, &mut best, x);
                    continue;
                }
                let mut start = x as u32;
                while let Some(&(sx, sh)) = stack.last() {
                    if sh < hx {
                        break;
                    }
                    stack.pop();
                    let b = &mut best[x - sx as usize - 1];
                    *b = (*b).max(sh as usize);
                    start = sx;
                }
                stack.push((start, hx));
            }
        }
        flush(&mut stack, &mut best, w);
    }
    for a in (0..w.saturating_sub(1)).rev() {
        best[a] = best[a].max(best[a + 1]);
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn grid_from(width: usize, height: usize, cells: &[bool]) -> Grid {
        let mut g = Grid::new(width, height, false);
        for y in 0..height {
            for x in 0..width {
                g.set(x, y, cells[y * width + x]);
            }
        }
        g
    }

    #[test]
    fn empty_mesh_takes_the_corner() {
        let g = Grid::new(100, 70, true);
        assert_eq!(
            first_fit(&g, 3, 2),
            Some(Rect {
                x: 0,
                y: 0,
                w: 3,
                h: 2
            })
        );
        assert_eq!(
            best_fit(&g, &[(3, 2)]).unwrap().0,
            Rect {
                x: 0,
                y: 0,
                w: 3,
                h: 2
            }
        );
    }

    #[test]
    fn row_counts_cross_words() {
        let g = Grid::new(200, 2, true);
        assert_eq!(g.count_row(1, 10, 150), 150);
        assert_eq!(g.count_row(0, 64, 64), 64);
        assert_eq!(g.count(), 400);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        /// The bitset search finds exactly what the naive rescan finds, on meshes wider than a word.
        #[test]
        fn bitset_search_equals_naive_rescan(
            w in 1usize..140, h in 1usize..12, density in 0u32..100,
            seed in any::<u64>(), a in 1usize..9, b in 1usize..9,
        ) {
            let mut s = seed | 1;
            let cells: Vec<bool> = (0..w * h).map(|_| {
                s ^= s << 13; s ^= s >> 7; s ^= s << 17;
                (s % 100) as u32 >= density
            }).collect();
            let g = grid_from(w, h, &cells);
            let naive_first = (0..h).flat_map(|y| (0..w).map(move |x| (x, y)))
                .find(|&(x, y)| x + a <= w && y + b <= h && g.all_set_naive(x, y, a, b))
                .map(|(x, y)| Rect { x, y, w: a, h: b });
            prop_assert_eq!(first_fit(&g, a, b), naive_first);
            let shapes = [(a, b), (b, a)];
            prop_assert_eq!(best_fit(&g, &shapes), best_fit_naive(&g, &shapes));
            // bottom-left stability loses nothing: some origin fits iff a stable one does
            let any = naive_first.is_some() || first_fit(&g, b, a).is_some();
            prop_assert_eq!(any, best_fit(&g, &shapes).is_some());
            // largest free rectangle against brute force
            let mut brute = 0;
            for y in 0..h { for x in 0..w { for hh in 1..=h - y { for ww in 1..=w - x {
                if ww * hh > brute && g.all_set_naive(x, y, ww, hh) { brute = ww * hh; }
            }}}}
            prop_assert_eq!(largest_free_rectangle(&g), brute);
            let tall = tallest_per_width(&g);
            for ww in 1..=w {
                let brute_h = (1..=h).rev().find(|&hh| (0..=h - hh).any(|y| (0..=w - ww).any(|x| g.all_set_naive(x, y, ww, hh)))).unwrap_or(0);
                prop_assert_eq!(tall[ww - 1], brute_h, "width {}", ww);
            }
        }
    }
}
