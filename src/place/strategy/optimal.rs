//! Optimal (system topology only).
//!
//! Grids: order every node along the generalized Hilbert curve ([`super::curve_rank`]) and take
//! the window of `n` consecutive free nodes (in curve order) whose span along the curve,
//! `pos[j + n - 1] - pos[j]`, is shortest; ties go to the earliest window. On an empty machine
//! this is the first `n` nodes of the curve, a compact blob.
//!
//! Trees, and other networks by their groups of hosts ([`Shape::Net`]): going up from the leaf switches, the first level with a switch group holding at least
//! `n` free hosts; there, the group with the fewest free hosts that still fits (best fit, ties to
//! the lowest number). Inside it, children are taken fullest first until one child can hold
//! the remainder, which then goes to the child with the fewest free hosts that holds it, and so
//! on down: the job touches as few switches as the free hosts allow.
//!
//! # Complexity
//! Grids `O(N)` after the curve; trees `O(N L)` for `L` levels (prefix sums of free hosts give
//! any group's count in `O(1)`).

use super::{curve_rank, Shape};

/// `n` free hosts (`n` at most the free count), in the order tasks receive them.
pub fn optimal(shape: &Shape, busy: &[bool], n: u32, quirks: bool) -> Vec<u32> {
    match shape {
        Shape::Grid { .. } => grid(shape, busy, n, quirks),
        Shape::Tree { down } | Shape::Net { down, .. } => tree(down, busy, n),
    }
}

fn grid(shape: &Shape, busy: &[bool], n: u32, quirks: bool) -> Vec<u32> {
    let rank = curve_rank(shape, quirks);
    let mut order: Vec<u32> = (0..busy.len() as u32).collect();
    order.sort_unstable_by_key(|&h| rank[h as usize]);
    let free: Vec<u32> = order.into_iter().filter(|&h| !busy[h as usize]).collect();
    let n = n as usize;
    if n == 0 || free.len() < n {
        return free.into_iter().take(n).collect();
    }
    let mut best = (u32::MAX, 0usize);
    for j in 0..=free.len() - n {
        let span = rank[free[j + n - 1] as usize] - rank[free[j] as usize];
        if span < best.0 {
            best = (span, j);
        }
    }
    free[best.1..best.1 + n].to_vec()
}

/// Hosts under one group of a tree level.
struct Tree<'a> {
    down: &'a [u32],
    /// `size[l]`: hosts under a level-`l` group.
    size: Vec<u32>,
    /// `prefix[h]`: free hosts below `h`.
    prefix: Vec<u32>,
    busy: &'a [bool],
}

impl Tree<'_> {
    fn free(&self, level: usize, j: u32) -> u32 {
        let s = self.size[level];
        self.prefix[((j + 1) * s) as usize] - self.prefix[(j * s) as usize]
    }
    /// Takes `need` free hosts under group `j` of `level` into `out`.
    fn take(&self, level: usize, j: u32, need: u32, out: &mut Vec<u32>) {
        if need == 0 {
            return;
        }
        if level == 0 {
            let s = self.size[0];
            out.extend(
                (j * s..(j + 1) * s)
                    .filter(|&h| !self.busy[h as usize])
                    .take(need as usize),
            );
            return;
        }
        let k = self.down[level];
        let children: Vec<u32> = (j * k..(j + 1) * k).collect();
        let mut taken = vec![false; k as usize];
        let mut need = need;
        while need > 0 {
            let avail = |i: usize| !taken[i] && self.free(level - 1, children[i]) > 0;
            // the child with the fewest free hosts that holds the remainder
            let fit = (0..k as usize)
                .filter(|&i| avail(i) && self.free(level - 1, children[i]) >= need)
                .min_by_key(|&i| (self.free(level - 1, children[i]), i));
            if let Some(i) = fit {
                self.take(level - 1, children[i], need, out);
                return;
            }
            // else the fullest child, whole
            let Some(i) = (0..k as usize)
                .filter(|&i| avail(i))
                .max_by_key(|&i| (self.free(level - 1, children[i]), std::cmp::Reverse(i)))
            else {
                return;
            };
            taken[i] = true;
            let f = self.free(level - 1, children[i]);
            self.take(level - 1, children[i], f, out);
            need -= f;
        }
    }
}

fn tree(down: &[u32], busy: &[bool], n: u32) -> Vec<u32> {
    let mut size = Vec::with_capacity(down.len());
    let mut s = 1u32;
    for &d in down {
        s *= d;
        size.push(s);
    }
    let mut prefix = Vec::with_capacity(busy.len() + 1);
    prefix.push(0u32);
    for &b in busy {
        prefix.push(prefix.last().unwrap() + u32::from(!b));
    }
    let t = Tree {
        down,
        size,
        prefix,
        busy,
    };
    let mut out = Vec::with_capacity(n as usize);
    let top = down.len() - 1;
    for level in 0..down.len() {
        let groups = busy.len() as u32 / t.size[level];
        let best = (0..groups)
            .filter(|&j| t.free(level, j) >= n)
            .min_by_key(|&j| (t.free(level, j), j));
        if let Some(j) = best {
            t.take(level, j, n, &mut out);
            return out;
        }
    }
    t.take(top, 0, n.min(t.free(top, 0)), &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tree_takes_one_leaf_switch_when_it_can() {
        let down = vec![4, 4];
        let mut busy = vec![false; 16];
        busy[0] = true; // switch 0 has 3 free
        busy[4] = true;
        busy[5] = true; // switch 1 has 2 free
        let h = tree(&down, &busy, 2);
        assert_eq!(h, vec![6, 7], "best fit: the switch with exactly 2 free");
        let h = tree(&down, &busy, 6);
        // fullest switches first: 8..12 (4 free), then the best fit for 2: switch 1
        assert_eq!(h, vec![8, 9, 10, 11, 6, 7]);
    }

    #[test]
    fn grid_window_is_the_first_curve_run_on_an_empty_machine() {
        let shape = Shape::Grid {
            dims: [4, 4, 1],
            wrap: true,
        };
        let h = grid(&shape, &[false; 16], 4, false);
        let mut s = h.clone();
        s.sort();
        assert_eq!(s, vec![0, 1, 4, 5], "a 2x2 block");
    }
}
