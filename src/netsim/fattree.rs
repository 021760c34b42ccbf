//! Fat and thin trees as SimGrid builds them (`FatTreeZone`, SimGrid 3.32), so that our routes
//! equal SimGrid's link for link.
//!
//! A tree of `L` levels is given by three vectors of length `L` (SimGrid's `FAT_TREE` parameter
//! string `L;down;up;parallel`): a switch of level `i+1` has `down[i]` children of level `i`
//! (level 0 = hosts), a vertex of level `i` has `up[i]` parents of level `i+1`, and each
//! child-parent pair is joined by `parallel[i]` links. A `k:k'`-ary `n`-tree is
//! `n;k,...,k;1,k',...,k';1,...,1` (fat tree `k' = k`, thin tree `k' < k`).
//!
//! # Structure (SimGrid's rules)
//! - Hosts: `prod(down)`. Switches of level `i+1`: `prod(up[0..=i]) * prod(down[i+1..L])`.
//! - Every vertex of level `i` has a *label* of `L` digits: digit `j` counts in `up[j]` for
//!   `j < i` and in `down[j]` for `j >= i`; vertices of a level are numbered (their *position*)
//!   in label order with digit 0 the fastest. A host's label is thus its index written in the
//!   mixed radix `down[0], down[1], ...`.
//! - A switch of level `i+1` is a parent of a vertex of level `i` when their labels agree on
//!   every digit but digit `i`. Links are created level by level, child by child in position
//!   order, parent by parent in position order, then parallel link `j = 0..parallel[i]`; the
//!   link lands in the parent's child port `child.label[i] + j * down[i]` and in the child's
//!   parent port `parent.label[i] + j * up[i]`.
//!
//! # Routing (destination-mod-k, SimGrid's rules)
//! - Up: while the current vertex (level `l`) does not have the destination below it (a
//!   switch of level `l` covers the hosts whose label digits `l..L` equal its own), take parent
//!   port `(dst / prod(up[0..l])) mod (up[l] * parallel[l])`.
//! - Down: from a switch of level `l`, scan its child ports from `(src mod parallel[l-1]) *
//!   down[l-1]` and take the first port `p` with `p mod down[l-1] == dst.label[l-1]`; SimGrid's
//!   scan goes on from `p + 1` in the child it just reached (it does not restart at that child's
//!   own first port), and restarts from the computed port only when that scan runs out. This
//!   matters only with parallel links; we reproduce it exactly.

/// A tree in SimGrid's `FAT_TREE` terms (see the module doc).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FatTreeSpec {
    /// Number of switch levels `L >= 1`.
    pub levels: u32,
    /// Children of a switch of level `i+1`, `i = 0..L`.
    pub down: Vec<u32>,
    /// Parents of a vertex of level `i`, `i = 0..L`.
    pub up: Vec<u32>,
    /// Links between one child of level `i` and one of its parents.
    pub parallel: Vec<u32>,
}

/// Largest number of hosts or switches of one level we build (memory stays under ~100 MB).
pub const MAX_TREE_VERTICES: u64 = 1 << 20;
/// Largest number of links of a tree we build.
pub const MAX_TREE_LINKS: u64 = 1 << 22;

impl FatTreeSpec {
    /// The `k:k_up`-ary `n`-tree: `n` levels, `k` children per switch, `k_up` parents per
    /// switch (hosts have one), one link per pair. `k_up == k` is a fat tree, `k_up < k` a thin
    /// tree.
    ///
    /// # Errors
    /// A zero argument, `k_up > k`, or a tree over the size limits.
    pub fn k_ary_n_tree(k: u32, k_up: u32, n: u32) -> Result<FatTreeSpec, String> {
        if k == 0 || k_up == 0 || n == 0 {
            return Err(format!(
                "a {k}:{k_up}-ary {n}-tree needs k, k' and n of at least 1"
            ));
        }
        if k_up > k {
            return Err(format!("a {k}:{k_up}-ary {n}-tree needs k' <= k"));
        }
        let n_us = n as usize;
        let mut up = vec![k_up; n_us];
        up[0] = 1;
        let spec = FatTreeSpec {
            levels: n,
            down: vec![k; n_us],
            up,
            parallel: vec![1; n_us],
        };
        spec.validate()?;
        Ok(spec)
    }

    /// Number of hosts, `prod(down)`.
    pub fn hosts(&self) -> u64 {
        self.down.iter().map(|&d| u64::from(d)).product()
    }

    /// Switches of level `i + 1` for `i = 0..L` (see the module doc).
    pub fn switches_per_level(&self) -> Vec<u64> {
        let l = self.levels as usize;
        (0..l)
            .map(|i| {
                let a: u64 = self.up[..=i].iter().map(|&u| u64::from(u)).product();
                let b: u64 = self.down[i + 1..].iter().map(|&d| u64::from(d)).product();
                a * b
            })
            .collect()
    }

    /// Physical links (both directions counted once): level `i` vertices times `up[i] *
    /// parallel[i]`, summed.
    pub fn physical_links(&self) -> u64 {
        let sw = self.switches_per_level();
        let mut total = 0u64;
        for i in 0..self.levels as usize {
            let below = if i == 0 { self.hosts() } else { sw[i - 1] };
            total = total.saturating_add(
                below.saturating_mul(u64::from(self.up[i]) * u64::from(self.parallel[i])),
            );
        }
        total
    }

    /// A thin tree has fewer up-links than down-links at some switch level.
    pub fn is_thin(&self) -> bool {
        (1..self.levels as usize).any(|i| self.up[i] < self.down[i])
    }

    /// SimGrid's parameter string `L;d1,..;u1,..;p1,..`.
    pub fn to_simgrid_string(&self) -> String {
        let join = |v: &[u32]| {
            v.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(",")
        };
        format!(
            "{};{};{};{}",
            self.levels,
            join(&self.down),
            join(&self.up),
            join(&self.parallel)
        )
    }

    /// Checks lengths, zeros and size limits.
    ///
    /// # Errors
    /// A sentence naming the bad part.
    pub fn validate(&self) -> Result<(), String> {
        let l = self.levels as usize;
        if l == 0 {
            return Err("a fat tree needs at least 1 level".into());
        }
        if l > 16 {
            return Err(format!("a fat tree has at most 16 levels, got {l}"));
        }
        for (name, v) in [
            ("down", &self.down),
            ("up", &self.up),
            ("parallel", &self.parallel),
        ] {
            if v.len() != l {
                return Err(format!(
                    "the {name} vector has {} values, the tree has {l} levels",
                    v.len()
                ));
            }
            if v.contains(&0) {
                return Err(format!("every {name} value must be at least 1"));
            }
            if v.iter().any(|&x| x > 1024) {
                return Err(format!("every {name} value must be at most 1024"));
            }
        }
        let hosts = self.hosts();
        if hosts > MAX_TREE_VERTICES {
            return Err(format!(
                "the tree has {hosts} hosts, at most {MAX_TREE_VERTICES} are supported"
            ));
        }
        for (i, s) in self.switches_per_level().iter().enumerate() {
            if *s > MAX_TREE_VERTICES {
                return Err(format!(
                    "level {} of the tree has {s} switches, at most {MAX_TREE_VERTICES} are supported",
                    i + 1
                ));
            }
        }
        let links = self.physical_links();
        if links > MAX_TREE_LINKS {
            return Err(format!(
                "the tree has {links} links, at most {MAX_TREE_LINKS} are supported"
            ));
        }
        Ok(())
    }
}

/// Parses a tree: SimGrid's `FAT_TREE` string `L;down;up;parallel` (e.g.
/// `2;4,4;1,2;1,2`), or `k-ary n-tree` / `k:k'-ary n-tree` (e.g. `4:2-ary 3-tree`).
///
/// # Errors
/// A sentence naming the part that does not parse or does not fit.
pub fn parse_fat_tree(s: &str) -> Result<FatTreeSpec, String> {
    let s = s.trim();
    if s.contains("-ary") {
        return parse_k_ary(s);
    }
    let parts: Vec<&str> = s.split(';').collect();
    if parts.len() != 4 {
        return Err(format!(
            "a fat tree is 'levels;down;up;parallel' (4 parts separated by ';'), got {} part(s) in '{s}'",
            parts.len()
        ));
    }
    let levels: u32 = parts[0]
        .trim()
        .parse()
        .map_err(|_| format!("the number of levels '{}' is not a whole number", parts[0]))?;
    let vec = |i: usize, name: &str| -> Result<Vec<u32>, String> {
        let v: Result<Vec<u32>, String> = parts[i]
            .split(',')
            .map(|x| {
                x.trim()
                    .parse::<u32>()
                    .map_err(|_| format!("the {name} value '{x}' is not a whole number"))
            })
            .collect();
        let v = v?;
        if v.len() != levels as usize {
            return Err(format!(
                "{levels} levels but the {name} vector has {} values",
                v.len()
            ));
        }
        Ok(v)
    };
    let spec = FatTreeSpec {
        levels,
        down: vec(1, "down")?,
        up: vec(2, "up")?,
        parallel: vec(3, "parallel")?,
    };
    spec.validate()?;
    Ok(spec)
}

/// `k-ary n-tree` or `k:k'-ary n-tree`.
fn parse_k_ary(s: &str) -> Result<FatTreeSpec, String> {
    let bad = || format!("'{s}' is not of the form 'k-ary n-tree' or 'k:k'-ary n-tree'");
    let (head, tail) = s.split_once("-ary").ok_or_else(bad)?;
    let tail = tail.trim();
    let n_txt = tail.strip_suffix("-tree").ok_or_else(bad)?;
    let n: u32 = n_txt.trim().parse().map_err(|_| bad())?;
    let (k, k_up) = match head.split_once(':') {
        Some((a, b)) => (
            a.trim().parse::<u32>().map_err(|_| bad())?,
            b.trim().parse::<u32>().map_err(|_| bad())?,
        ),
        None => {
            let k = head.trim().parse::<u32>().map_err(|_| bad())?;
            (k, k)
        }
    };
    FatTreeSpec::k_ary_n_tree(k, k_up, n)
}

/// A vertex of the built tree.
#[derive(Debug, Clone)]
pub(crate) struct TreeVertex {
    /// 0 for hosts.
    pub level: u32,
    /// Index within the level.
    pub position: u32,
    /// SimGrid's id: hosts `0..n`, switches from `2n - 1` downwards in creation order.
    pub simgrid_id: i64,
    /// `levels` digits.
    pub label: Vec<u32>,
    /// Child ports: physical link index, `u32::MAX` if empty (never, for a valid spec).
    pub children: Vec<u32>,
    /// Parent ports: physical link index.
    pub parents: Vec<u32>,
}

/// The built tree: vertices (hosts first, then switches level by level) and physical links.
#[derive(Debug, Clone)]
pub(crate) struct BuiltTree {
    pub spec: FatTreeSpec,
    pub vertices: Vec<TreeVertex>,
    /// First vertex of level `i` (`level_start[0] = 0`), `levels + 2` entries.
    #[allow(dead_code)]
    pub level_start: Vec<u32>,
    /// Physical link `k`: (child vertex, parent vertex, SimGrid's unique id = k).
    pub links: Vec<(u32, u32)>,
}

impl BuiltTree {
    /// Builds the tree as SimGrid does (module doc). `spec` must be valid.
    pub fn build(spec: &FatTreeSpec) -> BuiltTree {
        let l = spec.levels as usize;
        let hosts = spec.hosts();
        let sw = spec.switches_per_level();
        let mut counts = vec![hosts];
        counts.extend_from_slice(&sw);
        let mut level_start = vec![0u32; l + 2];
        for i in 0..=l {
            level_start[i + 1] = level_start[i] + counts[i] as u32;
        }
        let total = level_start[l + 1] as usize;
        let mut vertices = Vec::with_capacity(total);
        let mut next_switch_id = 2 * hosts as i64;
        for (lvl, &count) in counts.iter().enumerate() {
            // Labels: odometer with digit 0 fastest; digit j counts in up[j] below this level.
            let max: Vec<u32> = (0..l)
                .map(|j| {
                    if j + 1 > lvl {
                        spec.down[j]
                    } else {
                        spec.up[j]
                    }
                })
                .collect();
            let mut label = vec![0u32; l];
            for pos in 0..count {
                let simgrid_id = if lvl == 0 {
                    pos as i64
                } else {
                    next_switch_id -= 1;
                    next_switch_id
                };
                let children = if lvl == 0 {
                    Vec::new()
                } else {
                    vec![u32::MAX; (spec.down[lvl - 1] * spec.parallel[lvl - 1]) as usize]
                };
                let parents = if lvl == l {
                    Vec::new()
                } else {
                    vec![u32::MAX; (spec.up[lvl] * spec.parallel[lvl]) as usize]
                };
                vertices.push(TreeVertex {
                    level: lvl as u32,
                    position: pos as u32,
                    simgrid_id,
                    label: label.clone(),
                    children,
                    parents,
                });
                for j in 0..l {
                    label[j] += 1;
                    if label[j] >= max[j] {
                        label[j] = 0;
                    } else {
                        break;
                    }
                }
            }
        }
        let mut links = Vec::new();
        for lvl in 0..l {
            let (c0, c1) = (level_start[lvl], level_start[lvl + 1]);
            let (p0, p1) = (level_start[lvl + 1], level_start[lvl + 2]);
            // Parents of a child differ from it only in digit `lvl`: enumerate them directly
            // (the same order as SimGrid's scan of the whole level, which is by position, and
            // position order is label order).
            for c in c0..c1 {
                let mut parent_positions: Vec<u32> = Vec::with_capacity(spec.up[lvl] as usize);
                {
                    let child = &vertices[c as usize];
                    for digit in 0..spec.up[lvl] {
                        let mut plabel = child.label.clone();
                        plabel[lvl] = digit;
                        parent_positions.push(position_of(spec, lvl + 1, &plabel));
                    }
                }
                parent_positions.sort_unstable();
                for ppos in parent_positions {
                    let p = p0 + ppos;
                    debug_assert!(p < p1);
                    for j in 0..spec.parallel[lvl] {
                        let k = links.len() as u32;
                        let child_digit = vertices[c as usize].label[lvl];
                        let parent_digit = vertices[p as usize].label[lvl];
                        let pport = (child_digit + j * spec.down[lvl]) as usize;
                        let cport = (parent_digit + j * spec.up[lvl]) as usize;
                        vertices[p as usize].children[pport] = k;
                        vertices[c as usize].parents[cport] = k;
                        links.push((c, p));
                    }
                }
            }
        }
        BuiltTree {
            spec: spec.clone(),
            vertices,
            level_start,
            links,
        }
    }

    /// Whether switch `v` has host `h` below it (SimGrid's `is_in_sub_tree`).
    fn covers(&self, v: u32, h: u32) -> bool {
        let sv = &self.vertices[v as usize];
        let hv = &self.vertices[h as usize];
        if sv.level == 0 {
            return false;
        }
        (sv.level as usize..self.spec.levels as usize).all(|i| sv.label[i] == hv.label[i])
    }

    /// SimGrid's route from host `src` to host `dst` (both `< hosts`): physical link indices
    /// with their direction (`true` = up, child to parent), handed to `push` in route order (no
    /// buffer of its own: the search's link loads route millions of messages).
    /// A host's route to itself goes up to a leaf switch and back, as in SimGrid.
    #[inline]
    pub fn route_with(&self, src: u32, dst: u32, mut push: impl FnMut(u32, bool)) {
        let spec = &self.spec;
        let mut cur = src;
        // Up part.
        while !self.covers(cur, dst) {
            let v = &self.vertices[cur as usize];
            let mut d = dst;
            for i in 0..v.level as usize {
                d /= spec.up[i];
            }
            let k = spec.up[v.level as usize] * spec.parallel[v.level as usize];
            let port = (d % k) as usize;
            let link = v.parents[port];
            push(link, true);
            cur = self.links[link as usize].1;
        }
        // Down part, with SimGrid's scan that carries its port counter into the child.
        let src_pos = src;
        let dst_label = &self.vertices[dst as usize].label;
        while cur != dst {
            let lvl = self.vertices[cur as usize].level as usize;
            let mut i = (src_pos % spec.parallel[lvl - 1]) * spec.down[lvl - 1];
            while (i as usize) < self.vertices[cur as usize].children.len() {
                let l_here = self.vertices[cur as usize].level as usize;
                if i % spec.down[l_here - 1] == dst_label[l_here - 1] {
                    let link = self.vertices[cur as usize].children[i as usize];
                    push(link, false);
                    cur = self.links[link as usize].0;
                }
                i += 1;
            }
        }
    }

    /// SimGrid's name of physical link `k` in direction `up`.
    pub fn link_name(&self, k: u32, up: bool) -> String {
        let (c, p) = self.links[k as usize];
        format!(
            "link_from_{}_{}_{}_{}",
            self.vertices[c as usize].simgrid_id,
            self.vertices[p as usize].simgrid_id,
            k,
            if up { "UP" } else { "DOWN" }
        )
    }
}

/// Position of the vertex of `level` with `label` (label order, digit 0 fastest).
fn position_of(spec: &FatTreeSpec, level: usize, label: &[u32]) -> u32 {
    let l = spec.levels as usize;
    let mut pos = 0u64;
    for j in (0..l).rev() {
        let radix = if j + 1 > level {
            spec.down[j]
        } else {
            spec.up[j]
        };
        pos = pos * u64::from(radix) + u64::from(label[j]);
    }
    pos as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_simgrid_strings_and_k_ary_names() {
        let s = parse_fat_tree("2;4,4;1,2;1,2").unwrap();
        assert_eq!(s.down, vec![4, 4]);
        assert_eq!(s.up, vec![1, 2]);
        assert_eq!(s.parallel, vec![1, 2]);
        assert_eq!(s.hosts(), 16);
        assert_eq!(s.to_simgrid_string(), "2;4,4;1,2;1,2");
        let t = parse_fat_tree("4:2-ary 3-tree").unwrap();
        assert_eq!(t.to_simgrid_string(), "3;4,4,4;1,2,2;1,1,1");
        assert!(t.is_thin());
        let f = parse_fat_tree("4-ary 2-tree").unwrap();
        assert!(!f.is_thin());
        assert_eq!(f.to_simgrid_string(), "2;4,4;1,4;1,1");
    }

    #[test]
    fn refuses_malformed_tree_strings() {
        for bad in [
            "",
            "2;4,4;1,2",
            "2;4;1,2;1,1",
            "x;4,4;1,2;1,1",
            "2;4,0;1,2;1,1",
            "0;;;",
            "2-ary",
            "3:4-ary 2-tree",
            "3;128,128,128;1,1,1;1,1,1",
        ] {
            assert!(parse_fat_tree(bad).is_err(), "{bad} accepted");
        }
    }

    #[test]
    fn source_trees_have_the_documented_switch_counts() {
        let fat = parse_fat_tree("6;4,4,4,4,4,4;1,4,4,4,4,4;1,1,1,1,1,1").unwrap();
        assert_eq!(fat.hosts(), 4096);
        assert_eq!(fat.switches_per_level(), vec![1024; 6]);
        let thin = parse_fat_tree("6;4,4,4,4,4,4;1,2,2,2,2,2;1,1,1,1,1,1").unwrap();
        assert_eq!(thin.switches_per_level(), vec![1024, 512, 256, 128, 64, 32]);
    }

    #[test]
    fn every_port_is_wired_and_hosts_share_leaf_switches_in_blocks() {
        let spec = parse_fat_tree("3;2,3,2;1,2,3;2,1,2").unwrap();
        let t = BuiltTree::build(&spec);
        for v in &t.vertices {
            assert!(v.children.iter().all(|&k| k != u32::MAX));
            assert!(v.parents.iter().all(|&k| k != u32::MAX));
        }
        let leaf0 = t.level_start[1];
        for h in 0..spec.hosts() as u32 {
            let (_, p) = t.links[t.vertices[h as usize].parents[0] as usize];
            assert_eq!(p - leaf0, h / 2);
        }
    }

    #[test]
    fn routes_go_up_to_the_lowest_common_level_and_back_down() {
        let spec = parse_fat_tree("3;2,3,2;1,2,3;2,1,2").unwrap();
        let t = BuiltTree::build(&spec);
        let n = spec.hosts() as u32;
        let mut r = Vec::new();
        for s in 0..n {
            for d in 0..n {
                r.clear();
                t.route_with(s, d, |k, up| r.push((k, up)));
                // Walk it: consecutive links share a vertex, ends are s and d.
                let mut at = s;
                for &(k, up) in &r {
                    let (c, p) = t.links[k as usize];
                    if up {
                        assert_eq!(c, at);
                        at = p;
                    } else {
                        assert_eq!(p, at);
                        at = c;
                    }
                }
                assert_eq!(at, d);
                let common = if s / 2 == d / 2 {
                    1
                } else if s / 6 == d / 6 {
                    2
                } else {
                    3
                };
                assert_eq!(r.len(), 2 * common, "{s}->{d}");
            }
        }
    }
}
