//! Trees with one arity per level: the root has `arities[0]` children, each of those
//! `arities[1]`, ..., and each leaf switch holds `arities[L-1]` compute nodes. A uniform k-ary tree
//! has all arities equal. Leaves are compute nodes, inner vertices are routers; a route goes up from
//! the source to the lowest common ancestor (LCA) and down to the destination.
//!
//! An irregular tree (any number of children per router, every leaf at the same depth) has the
//! same numbering and routes; it keeps parent, child and leaf-range arrays instead of the
//! arithmetic, and the names of its nodes and switches.
//!
//! Numbering: leaves `0..N-1` left to right; routers level by level from the root (id 0), left to
//! right; the link from router `u >= 1` to its parent has id `u - 1`, the link from leaf `i` to its
//! switch has id `routers - 1 + i`.
//!
//! Theorem 4: a subtree is closed (every route between two of its leaves stays inside it).
//! Theorem 5: `n >= 2` leaves need a diameter of at least `2h`, `h` the smallest height whose
//! subtrees hold `n` leaves (`2 * ceil(log_k n)` on a k-ary tree).

/// A tree: regular (one arity per level) or irregular (any arity per router, names from a
/// Slurm `topology.conf`). Either way every leaf sits at the same depth, routers are numbered
/// level by level from the root, left to right (so a router's children have consecutive ids),
/// and leaves left to right (so a router's leaves are a consecutive range).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tree {
    /// Per-level arities of a regular tree; empty for an irregular one.
    arities: Vec<usize>,
    /// Regular: `sub[l]`, leaves under one router of level `l` (`sub[0] = N`); `sub[L] = 1`.
    sub: Vec<usize>,
    /// Id of the first router of level `l`; `level_start[L]` = number of routers.
    level_start: Vec<usize>,
    /// The irregular tree's arrays (`None` for a regular tree, whose are arithmetic).
    shape: Option<Box<Shape>>,
}

/// An irregular tree's structure, per router id and per leaf.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Shape {
    parent: Vec<u32>,
    first_child: Vec<u32>,
    child_count: Vec<u32>,
    first_leaf: Vec<u32>,
    leaf_count: Vec<u32>,
    /// Per leaf: its switch (a router of the last level).
    leaf_switch: Vec<u32>,
    /// Per level: the most leaves under one of its routers.
    max_leaves: Vec<usize>,
    names: Names,
}

/// Names of an imported tree's vertices.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Names {
    /// Per leaf (node id).
    pub nodes: Vec<String>,
    /// Per router id; empty for a virtual root joining several top-level switches.
    pub switches: Vec<String>,
    /// Per router id: its index in the source file (Slurm's switch index), `u32::MAX` for a
    /// virtual root.
    pub file_index: Vec<u32>,
}

/// A router of an irregular tree as given to [`Tree::irregular`]: child routers (indices into
/// the same list) or, for a leaf switch, its node count; with its name and file index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RouterSpec {
    pub children: Vec<usize>,
    pub leaves: usize,
    pub name: String,
    pub file_index: u32,
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
            shape: None,
        }
    }

    /// An irregular tree rooted at `routers[root]`, leaf switches being the routers without
    /// children; `node_names` in left-to-right leaf order (depth-first, children in order).
    ///
    /// # Errors
    /// A leaf switch without nodes, or leaf switches at different depths (the message names
    /// two of them).
    pub fn irregular(
        routers: &[RouterSpec],
        root: usize,
        node_names: Vec<String>,
    ) -> Result<Self, String> {
        // breadth-first from the root: children get consecutive ids
        let mut order = vec![root];
        let mut depth_of = vec![0usize];
        let mut level_start = vec![0usize];
        let mut i = 0;
        while i < order.len() {
            let (u, d) = (order[i], depth_of[i]);
            for &c in &routers[u].children {
                order.push(c);
                depth_of.push(d + 1);
            }
            i += 1;
        }
        let levels = depth_of.last().copied().unwrap_or(0) + 1;
        for l in 1..=levels {
            level_start.push(depth_of.iter().filter(|&&d| d < l).count());
        }
        let r = order.len();
        let mut id_of = vec![u32::MAX; routers.len()];
        for (id, &u) in order.iter().enumerate() {
            id_of[u] = id as u32;
        }
        let mut shape = Shape {
            parent: vec![0; r],
            first_child: vec![0; r],
            child_count: vec![0; r],
            first_leaf: vec![0; r],
            leaf_count: vec![0; r],
            leaf_switch: Vec::new(),
            max_leaves: vec![0; levels],
            names: Names {
                nodes: node_names,
                switches: order.iter().map(|&u| routers[u].name.clone()).collect(),
                file_index: order.iter().map(|&u| routers[u].file_index).collect(),
            },
        };
        let mut first_leaf_switch: Option<usize> = None;
        for (id, &u) in order.iter().enumerate() {
            let spec = &routers[u];
            if spec.children.is_empty() {
                if spec.leaves == 0 {
                    return Err(format!("switch {:?} has no node", spec.name));
                }
                match first_leaf_switch {
                    None => first_leaf_switch = Some(id),
                    Some(f) if depth_of[f] != depth_of[id] => {
                        return Err(format!(
                            "leaf switches {:?} and {:?} sit at different depths ({} and {}): \
                             the allocation engine needs every node at the same depth",
                            shape.names.switches[f], spec.name, depth_of[f], depth_of[id]
                        ))
                    }
                    _ => {}
                }
                shape.first_leaf[id] = shape.leaf_switch.len() as u32;
                shape.leaf_count[id] = spec.leaves as u32;
                shape
                    .leaf_switch
                    .extend(std::iter::repeat_n(id as u32, spec.leaves));
            } else {
                shape.first_child[id] = id_of[spec.children[0]];
                shape.child_count[id] = spec.children.len() as u32;
                for &c in &spec.children {
                    shape.parent[id_of[c] as usize] = id as u32;
                }
            }
        }
        for id in (0..r).rev() {
            let k = shape.child_count[id] as usize;
            if k > 0 {
                let f = shape.first_child[id] as usize;
                shape.first_leaf[id] = shape.first_leaf[f];
                shape.leaf_count[id] = (f..f + k).map(|c| shape.leaf_count[c]).sum();
            }
            let d = depth_of[id];
            shape.max_leaves[d] = shape.max_leaves[d].max(shape.leaf_count[id] as usize);
        }
        if shape.names.nodes.len() != shape.leaf_switch.len() {
            return Err(format!(
                "{} node names for {} nodes",
                shape.names.nodes.len(),
                shape.leaf_switch.len()
            ));
        }
        Ok(Tree {
            arities: Vec::new(),
            sub: Vec::new(),
            level_start,
            shape: Some(Box::new(shape)),
        })
    }

    /// The per-level arities of a regular tree (`None` for an irregular one).
    pub fn arities(&self) -> Option<&[usize]> {
        self.shape.is_none().then_some(&self.arities[..])
    }
    /// The names of an imported tree's nodes and switches.
    pub fn names(&self) -> Option<&Names> {
        self.shape.as_ref().map(|s| &s.names)
    }
    /// Number of router levels `L` (the leaves sit below level `L - 1`).
    pub fn levels(&self) -> usize {
        self.level_start.len() - 1
    }
    pub fn nodes(&self) -> usize {
        match &self.shape {
            Some(s) => s.leaf_switch.len(),
            None => self.sub[0],
        }
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
    /// Leaves under one router of level `l` of a regular tree (use [`Tree::leaf_range`] on an
    /// irregular one).
    pub fn leaves_under(&self, l: usize) -> usize {
        debug_assert!(self.shape.is_none(), "leaves_under on an irregular tree");
        self.sub[l]
    }
    /// The most leaves under one router of level `l`.
    pub fn max_leaves_under(&self, l: usize) -> usize {
        match &self.shape {
            Some(s) => s.max_leaves[l],
            None => self.sub[l],
        }
    }
    /// Height of a router of level `l` (a leaf switch has height 1).
    pub fn height_of_level(&self, l: usize) -> usize {
        self.levels() - l
    }
    /// Id of the router of level `l` above leaf `i`.
    #[inline]
    pub fn ancestor(&self, leaf: usize, l: usize) -> usize {
        match &self.shape {
            None => self.level_start[l] + leaf / self.sub[l],
            Some(s) => {
                let mut u = s.leaf_switch[leaf] as usize;
                for _ in l + 1..self.levels() {
                    u = s.parent[u] as usize;
                }
                u
            }
        }
    }
    /// Parent of router `u >= 1`.
    pub fn parent(&self, u: usize) -> usize {
        match &self.shape {
            Some(s) => s.parent[u] as usize,
            None => {
                let (l, idx) = self.level_of(u);
                self.level_start[l - 1] + idx / self.arities[l - 1]
            }
        }
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
        match &self.shape {
            Some(s) => (s.first_leaf[u] as usize, s.leaf_count[u] as usize),
            None => {
                let (l, idx) = self.level_of(u);
                (idx * self.sub[l], self.sub[l])
            }
        }
    }
    /// Children of router `u`: routers of the next level, or `None` for a leaf switch.
    pub fn child_routers(&self, u: usize) -> Option<std::ops::Range<usize>> {
        if let Some(s) = &self.shape {
            let k = s.child_count[u] as usize;
            let f = s.first_child[u] as usize;
            return (k > 0).then_some(f..f + k);
        }
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
        match &self.shape {
            None => {
                while a / self.sub[l] != b / self.sub[l] {
                    l -= 1;
                }
            }
            Some(s) => {
                let (mut u, mut v) = (s.leaf_switch[a], s.leaf_switch[b]);
                while u != v {
                    u = s.parent[u as usize];
                    v = s.parent[v as usize];
                    l -= 1;
                }
            }
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

    /// The deepest level `l` with a router holding at least `n` leaves. Its height `L - l` is
    /// Theorem 5's minimum: diameter `2 * (L - l)` for `n >= 2` (on an irregular tree too: a set
    /// of diameter `2h` lies under one router of height `h`).
    pub fn template_level(&self, n: usize) -> Option<usize> {
        (0..self.levels())
            .rev()
            .find(|&l| self.max_leaves_under(l) >= n)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// root -> (a1 -> 3, 1 nodes), (a2 -> 5), (a3 -> 2, 2, 4)
    pub(crate) fn irregular_sample() -> Tree {
        let leaf = |k: usize, name: &str| RouterSpec {
            children: vec![],
            leaves: k,
            name: name.into(),
            file_index: 0,
        };
        let inner = |c: Vec<usize>, name: &str| RouterSpec {
            children: c,
            leaves: 0,
            name: name.into(),
            file_index: 0,
        };
        let routers = vec![
            inner(vec![1, 2, 3], "root"),
            inner(vec![4, 5], "a1"),
            inner(vec![6], "a2"),
            inner(vec![7, 8, 9], "a3"),
            leaf(3, "l1"),
            leaf(1, "l2"),
            leaf(5, "l3"),
            leaf(2, "l4"),
            leaf(2, "l5"),
            leaf(4, "l6"),
        ];
        let names = (0..17).map(|i| format!("n{i}")).collect();
        Tree::irregular(&routers, 0, names).unwrap()
    }

    #[test]
    fn irregular_tree_shape() {
        let t = irregular_sample();
        assert_eq!((t.nodes(), t.routers(), t.levels()), (17, 10, 3));
        assert_eq!(t.arities(), None);
        assert_eq!(t.leaf_range(3), (9, 8));
        assert_eq!(t.leaf_range(6), (4, 5));
        assert_eq!(t.child_routers(3), Some(7..10));
        assert_eq!(t.child_routers(5), None);
        assert_eq!(t.ancestor(9, 1), 3);
        assert_eq!(t.ancestor(3, 2), 5);
        assert_eq!(t.parent(8), 3);
        assert_eq!(t.hops(0, 2), 2);
        assert_eq!(t.hops(0, 3), 4);
        assert_eq!(t.hops(0, 16), 6);
        assert_eq!(t.template_level(5), Some(2));
        assert_eq!(t.template_level(6), Some(1));
        assert_eq!(t.template_level(9), Some(0));
        assert_eq!(t.template_level(18), None);
        assert_eq!(t.names().unwrap().switches[9], "l6");
    }

    #[test]
    fn irregular_trees_need_one_depth_and_nodes_on_every_leaf_switch() {
        let spec = |children: Vec<usize>, leaves: usize| RouterSpec {
            children,
            leaves,
            name: format!("s{leaves}"),
            file_index: 0,
        };
        let uneven = [
            spec(vec![1, 2], 0),
            spec(vec![], 1),
            spec(vec![3], 0),
            spec(vec![], 2),
        ];
        let e = Tree::irregular(&uneven, 0, vec!["a".into(); 3]).unwrap_err();
        assert!(e.contains("different depths"), "{e}");
        let empty = [spec(vec![1], 0), spec(vec![], 0)];
        assert!(Tree::irregular(&empty, 0, vec![])
            .unwrap_err()
            .contains("has no node"));
    }

    #[test]
    fn irregular_routes_match_hops_and_footprints() {
        let t = irregular_sample();
        for a in 0..t.nodes() {
            for b in 0..t.nodes() {
                let (mut r, mut l) = (Vec::new(), Vec::new());
                t.route(a, b, &mut r, &mut l);
                assert_eq!(l.len(), t.hops(a, b));
                let mut ls = l.clone();
                ls.sort();
                ls.dedup();
                assert_eq!(ls.len(), l.len());
                assert!(l.iter().all(|&x| (x as usize) < t.links()));
            }
        }
        let nodes = [1u32, 4, 5, 12];
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
