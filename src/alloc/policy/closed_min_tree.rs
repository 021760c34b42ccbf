//! Closed minimum graph partitioning on trees (Zhang & Lin, Theorems 4 and 5), with packing.
//!
//! A job of `n >= 2` nodes has diameter `2h`, `h` the height of its nodes' lowest common ancestor;
//! the smallest `h` is that of the deepest level with a subtree of `n` leaves (Theorem 5; on an
//! irregular tree, whose leaves share one depth, the same holds with "a subtree holding at least
//! `n` leaves": the job goes under the lowest switch that can hold it).
//!
//! - `closed-min-paper`: the first subtree of that level (left to right) holding at least `n`
//!   leaves, all free; the job takes its first `n` leaves and the whole subtree is reserved for it.
//! - `closed-min-best` (and `-naive`, identical on trees): a job's traffic only uses the ancestors
//!   of its own leaves up to their LCA, so another job may use sibling subtrees that none of those
//!   routers covers. A router is *usable* if no running job's routes cross it; the *capacity* of a
//!   router is the number of free leaves reachable from it through usable routers. Among routers of
//!   the template level with capacity `>= n` take the best fit (smallest capacity, then lowest id),
//!   and inside it fill whole child subtrees largest first, placing the remainder in the child with
//!   the smallest sufficient capacity. No router it uses is used by anyone else, so it is
//!   contention-free (property-tested by routing every pair).
//!
//! Fallbacks: `relax-minimal` goes to higher levels (larger diameter, still contention-free);
//! `relax-closed` ignores router usage and counts free leaves only (contention possible).

use crate::alloc::machine::{Machine, Placement};
use crate::alloc::scenario::PolicyId;
use crate::topology::{Topology, Tree};

fn tree_of(m: &Machine) -> &Tree {
    match &m.topo {
        Topology::Tree(t) => t,
        Topology::Mesh(_) => unreachable!("tree policy on a mesh"),
    }
}

/// Capacity of every router: free leaves reachable from it through routers no running job's
/// region crosses (`respect_load`), or simply free leaves below it (`!respect_load`).
pub fn capacities(m: &Machine, t: &Tree, respect_load: bool) -> Vec<usize> {
    let mut cap = vec![0usize; t.routers()];
    // children have larger ids than their parent: one pass from the last router up
    for u in (0..t.routers()).rev() {
        if respect_load && m.router_load[u] > 0 {
            continue;
        }
        cap[u] = match t.child_routers(u) {
            None => {
                let (first, count) = t.leaf_range(u);
                (first..first + count).filter(|&v| m.is_free(v)).count()
            }
            Some(children) => children.map(|c| cap[c]).sum(),
        };
    }
    cap
}

/// Picks `k` leaves under router `u` (whose capacity is at least `k`), packing as described.
fn take(m: &Machine, t: &Tree, cap: &[usize], u: usize, k: usize, out: &mut Vec<u32>) {
    if k == 0 {
        return;
    }
    match t.child_routers(u) {
        None => {
            let (first, count) = t.leaf_range(u);
            out.extend(
                (first..first + count)
                    .filter(|&v| m.is_free(v))
                    .take(k)
                    .map(|v| v as u32),
            );
        }
        Some(children) => {
            let mut kids: Vec<usize> = children.filter(|&c| cap[c] > 0).collect();
            let mut rem = k;
            while rem > 0 {
                // best fit: the smallest child that holds the rest
                if let Some(&c) = kids
                    .iter()
                    .filter(|&&c| cap[c] >= rem)
                    .min_by_key(|&&c| (cap[c], c))
                {
                    take(m, t, cap, c, rem, out);
                    return;
                }
                // otherwise fill the largest child completely
                let (pos, &c) = kids
                    .iter()
                    .enumerate()
                    .max_by_key(|&(_, &c)| (cap[c], std::cmp::Reverse(c)))
                    .unwrap();
                kids.remove(pos);
                take(m, t, cap, c, cap[c], out);
                rem -= cap[c];
            }
        }
    }
}

/// Best fit among routers of levels `levels` (tried in order) with capacity `>= n`.
fn pack(
    m: &Machine,
    n: usize,
    levels: impl Iterator<Item = usize>,
    respect_load: bool,
) -> Option<Placement> {
    let t = tree_of(m);
    let cap = capacities(m, t, respect_load);
    for l in levels {
        let start = t.ancestor(0, l);
        let best = (start..start + t.level_size(l))
            .filter(|&u| cap[u] >= n)
            .min_by_key(|&u| (cap[u], u));
        if let Some(u) = best {
            let mut nodes = Vec::with_capacity(n);
            take(m, t, &cap, u, n, &mut nodes);
            return Some(Placement {
                nodes,
                owned_idle: Vec::new(),
                fallback: None,
            });
        }
    }
    None
}

/// One node: no traffic. The paper takes the first free leaf; best takes a free leaf in the
/// fullest leaf switch (best fit, keeps emptier switches whole).
fn single(m: &Machine, policy: PolicyId) -> Option<Placement> {
    let t = tree_of(m);
    let leaf = if policy == PolicyId::ClosedMinPaper {
        (0..t.nodes()).find(|&v| m.is_free(v))
    } else {
        let last = t.levels() - 1;
        (0..t.nodes()).filter(|&v| m.is_free(v)).min_by_key(|&v| {
            let (first, count) = t.leaf_range(t.ancestor(v, last));
            ((first..first + count).filter(|&x| m.is_free(x)).count(), v)
        })
    }?;
    Some(Placement {
        nodes: vec![leaf as u32],
        ..Default::default()
    })
}

/// The paper: first fully free subtree of level `l` with at least `n` leaves, whole subtree
/// reserved.
fn first_free_subtree(m: &Machine, n: usize, l: usize) -> Option<Placement> {
    let t = tree_of(m);
    let start = t.ancestor(0, l);
    (start..start + t.level_size(l)).find_map(|u| {
        let (first, size) = t.leaf_range(u);
        if size >= n && (first..first + size).all(|v| m.is_free(v)) {
            let nodes = (first..first + n).map(|v| v as u32).collect();
            let owned_idle = (first + n..first + size).map(|v| v as u32).collect();
            Some(Placement {
                nodes,
                owned_idle,
                fallback: None,
            })
        } else {
            None
        }
    })
}

/// A closed region of minimum diameter for `n` nodes, or `None` if none is available now.
pub fn closed_min(m: &Machine, n: usize, policy: PolicyId) -> Option<Placement> {
    let t = tree_of(m);
    if n == 1 {
        return single(m, policy);
    }
    let l = t.template_level(n)?;
    if policy == PolicyId::ClosedMinPaper {
        first_free_subtree(m, n, l)
    } else {
        pack(m, n, std::iter::once(l), true)
    }
}

/// Fallback `relax-minimal`: the same search on higher levels (larger diameter).
pub fn relax_minimal(m: &Machine, n: usize, policy: PolicyId) -> Option<Placement> {
    let t = tree_of(m);
    let l = t.template_level(n.max(2))?;
    if policy == PolicyId::ClosedMinPaper {
        (0..l).rev().find_map(|lv| first_free_subtree(m, n, lv))
    } else {
        pack(m, n, (0..l).rev(), true)
    }
}

/// Fallback `relax-closed`: the lowest subtree with `n` free leaves, ignoring other jobs' routes.
pub fn relax_closed(m: &Machine, n: usize) -> Option<Placement> {
    let t = tree_of(m);
    let l = t.template_level(n.max(2))?;
    pack(m, n, (0..=l).rev(), false)
}
