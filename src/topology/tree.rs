//! Trees with one arity per level: the root has `arities[0]` children, each of those
//! `arities[1]`, ..., and each leaf switch holds `arities[L-1]` compute nodes. A uniform k-ary tree
//! has all arities equal. Leaves are compute nodes, inner vertices are routers; a route goes up from
//! the source to the lowest common ancestor (LCA) and down to the destination.
//!
//! Numbering: leaves `0..N-1` left to right; routers level by level from the root (id 0), left to
//! right; the link from router `u >= 1` to its parent has id `u - 1`, the link from leaf `i` to its
//! switch has id `routers - 1 + i`.
//!
//! Theorem 4: a subtree is closed (every route between two of its leaves stays inside it).
//! Theorem 5: `n >= 2` leaves need a diameter of at least `2h`, `h` the smallest height whose
//! subtrees hold `n` leaves (`2 * ceil(log_k n)` on a k-ary tree).

/// A tree with per-level arities.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tree {
    arities: Vec<usize>,
    /// `sub[l]`: leaves under one router of level `l` (`sub[0] = N`); `sub[L] = 1`.
    sub: Vec<usize>,
    /// Id of the first router of level `l`; `level_start[L]` = number of routers.
    level_start: Vec<usize>,
}

impl Tree {
    /// A tree with the given arities (root first). Panics on an empty list or a zero arity;
    /// the scenario parser rejects those first.
    pub fn new(arities: &[usize]) -> Self {
        assert!(!arities.is_empty() && arities.iter().all(|&a| a >= 1));
        let levels = arities.len();
        let mut sub = vec![1; levels + 1];
        for l in (0..levels).rev() {
            sub[l] = sub[l + 1] * arities[l];
        }
        let mut level_start = vec![0; levels + 1];
        let mut count = 1;
        for l in 0..levels {
            level_start[l + 1] = level_start[l] + count;
            count *= arities[l];
        }
        Tree {
            arities: arities.to_vec(),
            sub,
            level_start,
        }
    }
    pub fn arities(&self) -> &[usize] {
        &self.arities
    }
    /// Number of router levels `L` (the leaves sit below level `L - 1`).
    pub fn levels(&self) -> usize {
        self.arities.len()
    }
    pub fn nodes(&self) -> usize {
        self.sub[0]
    }
    pub fn routers(&self) -> usize {
        self.level_start[self.levels()]
    }
    /// Every vertex but the root has one link to its parent.
    pub fn links(&self) -> usize {
        self.routers() - 1 + self.nodes()
    }
    /// Routers on level `l`.
    pub fn level_size(&self, l: usize) -> usize {
        self.level_start[l + 1] - self.level_start[l]
    }
    /// Leaves under one router of level `l`.
    pub fn leaves_under(&self, l: usize) -> usize {
        self.sub[l]
    }
    /// Height of a router of level `l` (a leaf switch has height 1).
    pub fn height_of_level(&self, l: usize) -> usize {
        self.levels() - l
    }
    /// Id of the router of level `l` above leaf `i`.
    #[inline]
    pub fn ancestor(&self, leaf: usize, l: usize) -> usize {
        self.level_start[l] + leaf / self.sub[l]
    }
    /// Level and index within the level of router `u`.
    pub fn level_of(&self, u: usize) -> (usize, usize) {
        let l = (0..self.levels())
            .rev()
            .find(|&l| self.level_start[l] <= u)
            .unwrap_or(0);
        (l, u - self.level_start[l])
    }
    /// First leaf under router `u` and how many leaves it covers.
    pub fn leaf_range(&self, u: usize) -> (usize, usize) {
        let (l, idx) = self.level_of(u);
        (idx * self.sub[l], self.sub[l])
    }
    /// Children of router `u`: routers of the next level, or `None` for a leaf switch.
    pub fn child_routers(&self, u: usize) -> Option<std::ops::Range<usize>> {
        let (l, idx) = self.level_of(u);
        if l + 1 >= self.levels() {
            return None;
        }
        let first = self.level_start[l + 1] + idx * self.arities[l];
        Some(first..first + self.arities[l])
    }
    /// Level of the lowest common ancestor of leaves `a` and `b` (`L` if `a == b`).
    #[inline]
    pub fn lca_level(&self, a: usize, b: usize) -> usize {
        if a == b {
            return self.levels();
        }
        let mut l = self.levels() - 1;
        while a / self.sub[l] != b / self.sub[l] {
            l -= 1;
        }
        l
    }
    /// Hops of the route between leaves: up to the LCA and down, counting the leaf links.
    #[inline]
    pub fn hops(&self, a: usize, b: usize) -> usize {
        2 * (self.levels() - self.lca_level(a, b))
    }
    /// Id of the link from leaf `i` to its switch.
    #[inline]
    pub fn leaf_link(&self, i: usize) -> usize {
        self.routers() - 1 + i
    }
    /// Appends the routers and links of the up/down route a→b.
    pub fn route(&self, a: usize, b: usize, routers: &mut Vec<u32>, links: &mut Vec<u32>) {
        if a == b {
            return;
        }
        let top = self.lca_level(a, b);
        let l_last = self.levels() - 1;
        links.push(self.leaf_link(a) as u32);
        for l in (top..=l_last).rev() {
            let u = self.ancestor(a, l);
            routers.push(u as u32);
            if l > top {
                links.push((u - 1) as u32);
            }
        }
        for l in top + 1..=l_last {
            let u = self.ancestor(b, l);
            routers.push(u as u32);
            links.push((u - 1) as u32);
        }
        links.push(self.leaf_link(b) as u32);
    }

    /// Routers and links used by the routes between every pair of `nodes` (sorted, distinct):
    /// every ancestor of every node up to the set's LCA, and the links below those.
    pub fn all_pairs_footprint(&self, nodes: &[u32]) -> (Vec<u32>, Vec<u32>) {
        if nodes.len() < 2 {
            return (Vec::new(), Vec::new());
        }
        let (lo, hi) = (
            *nodes.iter().min().unwrap() as usize,
            *nodes.iter().max().unwrap() as usize,
        );
        let top = self.lca_level(lo, hi);
        let mut routers = Vec::new();
        let mut links = Vec::new();
        for &n in nodes {
            links.push(self.leaf_link(n as usize) as u32);
            for l in top..self.levels() {
                let u = self.ancestor(n as usize, l);
                routers.push(u as u32);
                if l > top {
                    links.push((u - 1) as u32);
                }
            }
        }
        routers.sort_unstable();
        routers.dedup();
        links.sort_unstable();
        links.dedup();
        (routers, links)
    }

    /// Smallest router level whose subtrees... i.e. the deepest level `l` with `sub[l] >= n`.
    /// Its height `L - l` is Theorem 5's minimum: diameter `2 * (L - l)` for `n >= 2`.
    pub fn template_level(&self, n: usize) -> Option<usize> {
        (0..self.levels()).rev().find(|&l| self.sub[l] >= n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tianhe_subsystem_shape() {
        let t = Tree::new(&[2, 2, 8]);
        assert_eq!(t.nodes(), 32);
        assert_eq!(t.routers(), 1 + 2 + 4);
        assert_eq!(
            (t.level_size(0), t.level_size(1), t.level_size(2)),
            (1, 2, 4)
        );
        assert_eq!(t.ancestor(9, 2), 3 + 1);
        assert_eq!(t.hops(0, 7), 2);
        assert_eq!(t.hops(0, 8), 4);
        assert_eq!(t.hops(0, 31), 6);
        assert_eq!(t.leaf_range(4), (8, 8));
        assert_eq!(t.child_routers(1), Some(3..5));
        assert_eq!(t.child_routers(4), None);
    }

    #[test]
    fn routes_have_hops_links_and_stay_in_the_lca_subtree() {
        let t = Tree::new(&[3, 2, 4]);
        for a in 0..t.nodes() {
            for b in 0..t.nodes() {
                let (mut r, mut l) = (Vec::new(), Vec::new());
                t.route(a, b, &mut r, &mut l);
                assert_eq!(l.len(), t.hops(a, b));
                let mut ls = l.clone();
                ls.sort();
                ls.dedup();
                assert_eq!(ls.len(), l.len(), "a route never reuses a link");
                assert!(l.iter().all(|&x| (x as usize) < t.links()));
                if a != b {
                    let top = t.lca_level(a, b);
                    let lca = t.ancestor(a, top);
                    let (first, count) = t.leaf_range(lca);
                    for &u in &r {
                        let (f, c) = t.leaf_range(u as usize);
                        assert!(f >= first && f + c <= first + count);
                    }
                }
            }
        }
    }

    #[test]
    fn footprint_equals_union_of_routes() {
        let t = Tree::new(&[2, 3, 4]);
        for start in 0..t.nodes() {
            for len in 2..6 {
                let nodes: Vec<u32> = (start..(start + len * 3).min(t.nodes()))
                    .step_by(3)
                    .map(|x| x as u32)
                    .collect();
                if nodes.len() < 2 {
                    continue;
                }
                let (mut r, mut l) = (Vec::new(), Vec::new());
                for &a in &nodes {
                    for &b in &nodes {
                        t.route(a as usize, b as usize, &mut r, &mut l);
                    }
                }
                r.sort();
                r.dedup();
                l.sort();
                l.dedup();
                assert_eq!(t.all_pairs_footprint(&nodes), (r, l));
            }
        }
    }
}
