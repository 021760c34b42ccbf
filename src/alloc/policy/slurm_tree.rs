//! `slurmTree`: the nodes Slurm 22.05 gives a job on a `topology/tree` cluster, as
//! `select/cons_tres` chooses them (`_eval_nodes_topo` in its `job_test.c`), for whole-node jobs
//! of `n` nodes on nodes of equal weight, without required nodes. The rules are stated as
//! numbered points in `docs/engines/allocation.md` ("Slurm's tree selection"); in short:
//!
//! 1. `free(s)`: free nodes under switch `s`. The top switch is the switch of the highest
//!    level with `free(s) >= n`, the last in file order among those; none: the job waits.
//! 2. Counts are cut to the top switch's nodes: `cnt(s) = free(s)` inside its subtree,
//!    `free(top)` for its ancestors, 0 elsewhere.
//! 3. Repeatedly, among leaf switches (file order) with `cnt > 0`, pick one by Slurm's
//!    comparison ([`better`]): smaller summed switch distance to the leaves already picked,
//!    else the tighter fit; take its free nodes in node order until the job has `n`; set its
//!    `cnt` to 0 (its ancestors' counts are left as they are, as Slurm does).
//! 4. `--switches=k` (a job's `switches`): Slurm makes the same choice twice, first with every
//!    node free (`cons_common/job_test.c`, "test 0"), then with the nodes free now; if either
//!    spans more than `k` leaf switches the job waits (until its wait limit, see
//!    `docs/format.md`). With equal weights the first is the choice on the empty machine.
//!
//! Switch "levels" are Slurm's (leaf switches 0, each parent one more); a switch's parent for
//! the comparison is Slurm's `parent` field, which 22.05 leaves 0 (the first switch of the file)
//! for a top-level switch. A virtual root joining several top-level switches is not a switch.
//! On a regular tree, file order is router id order (level by level from the root).
//!
//! Complexity: `O(S L + N)` per pick for `S` switches of `L` levels, at most one pick per leaf
//! switch: `O(S^2 L + N S)` per placement at worst.

use crate::alloc::machine::{Machine, Placement};
use crate::topology::{Topology, Tree};

/// The Slurm view of a tree's switches, in file order.
struct Switches {
    /// Router id of each switch.
    router: Vec<usize>,
    /// Slurm level (0 for a leaf switch).
    level: Vec<usize>,
    /// Slurm's parent index (0 for a top-level switch).
    parent: Vec<usize>,
    /// Switch index of each router (`usize::MAX` for a virtual root).
    of_router: Vec<usize>,
}

fn switches(t: &Tree) -> Switches {
    let r = t.routers();
    let mut routers: Vec<(u32, usize)> = match t.names() {
        Some(names) => (0..r)
            .filter(|&u| names.file_index[u] != u32::MAX)
            .map(|u| (names.file_index[u], u))
            .collect(),
        None => (0..r).map(|u| (u as u32, u)).collect(),
    };
    routers.sort_unstable();
    let mut of_router = vec![usize::MAX; r];
    for (i, &(_, u)) in routers.iter().enumerate() {
        of_router[u] = i;
    }
    let router: Vec<usize> = routers.iter().map(|&(_, u)| u).collect();
    let level = router
        .iter()
        .map(|&u| t.levels() - 1 - t.level_of(u).0)
        .collect();
    let parent = router
        .iter()
        .map(|&u| {
            if u == 0 {
                0
            } else {
                let p = of_router[t.parent(u)];
                if p == usize::MAX {
                    0
                } else {
                    p
                }
            }
        })
        .collect();
    Switches {
        router,
        level,
        parent,
        of_router,
    }
}

/// Hops between two routers of the tree (Slurm's `switches_dist`).
fn distance(t: &Tree, mut a: usize, mut b: usize) -> usize {
    let (mut la, mut lb) = (t.level_of(a).0, t.level_of(b).0);
    let mut d = 0;
    while la > lb {
        a = t.parent(a);
        la -= 1;
        d += 1;
    }
    while lb > la {
        b = t.parent(b);
        lb -= 1;
        d += 1;
    }
    while a != b {
        a = t.parent(a);
        b = t.parent(b);
        d += 2;
    }
    d
}

/// Slurm's `_topo_compare_switches`: `> 0` if switch `i` is the better pick, `< 0` if `j` is.
fn compare(sw: &Switches, cnt: &[usize], rem: usize, mut i: usize, mut j: usize) -> i32 {
    loop {
        let (i_fit, j_fit) = (cnt[i] >= rem, cnt[j] >= rem);
        if i_fit && j_fit {
            if cnt[i] < cnt[j] {
                return 1;
            }
            if cnt[i] > cnt[j] {
                return -1;
            }
            break;
        } else if i_fit {
            return 1;
        } else if j_fit {
            return -1;
        }
        if (sw.parent[i] != i || sw.parent[j] != j) && sw.parent[i] != sw.parent[j] {
            i = sw.parent[i];
            j = sw.parent[j];
            continue;
        }
        break;
    }
    match cnt[i].cmp(&cnt[j]) {
        std::cmp::Ordering::Greater => 1,
        std::cmp::Ordering::Less => -1,
        std::cmp::Ordering::Equal => match sw.level[i].cmp(&sw.level[j]) {
            std::cmp::Ordering::Less => 1,
            std::cmp::Ordering::Greater => -1,
            std::cmp::Ordering::Equal => 0,
        },
    }
}

/// Slurm's `_topo_choose_best_switch`: whether leaf switch `i` replaces the current `best`.
fn better(sw: &Switches, dist: &[usize], cnt: &[usize], rem: usize, i: usize, best: usize) -> bool {
    let tcs = compare(sw, cnt, rem, i, best);
    (dist[i] < dist[best] && tcs >= 0) || (dist[i] == dist[best] && tcs > 0)
}

/// The number of leaf switches holding `nodes`.
pub fn leaf_switches(t: &Tree, nodes: &[u32]) -> usize {
    let last = t.levels() - 1;
    let mut sw: Vec<usize> = nodes
        .iter()
        .map(|&v| t.ancestor(v as usize, last))
        .collect();
    sw.sort_unstable();
    sw.dedup();
    sw.len()
}

/// Slurm's choice of `n` nodes (module doc), or `None` if the job waits: no switch has `n`
/// free nodes, or the choice (or the choice on the empty machine) spans more than
/// `max_leaf_switches`.
pub fn slurm_tree(m: &Machine, n: usize, max_leaf_switches: Option<u32>) -> Option<Placement> {
    let t = match &m.topo {
        Topology::Tree(t) => t,
        Topology::Mesh(_) => unreachable!("tree policy on a mesh"),
    };
    if n == 0 || n > m.free_count {
        return None;
    }
    let sw = switches(t);
    // rule 4: Slurm's "test 0", every node free
    if let Some(k) = max_leaf_switches {
        let all = choose(t, &sw, n, &|_| true)?;
        if leaf_switches(t, &all) > k as usize {
            return None;
        }
    }
    let nodes = choose(t, &sw, n, &|v| m.is_free(v))?;
    if let Some(k) = max_leaf_switches {
        if leaf_switches(t, &nodes) > k as usize {
            return None;
        }
    }
    debug_assert!(sw.of_router.len() == t.routers());
    Some(Placement {
        nodes,
        ..Default::default()
    })
}

/// Rules 1 to 3 on the nodes `free` accepts.
fn choose(
    t: &Tree,
    sw: &Switches,
    n: usize,
    free_node: &dyn Fn(usize) -> bool,
) -> Option<Vec<u32>> {
    let s = sw.router.len();
    let free_of = |u: usize| {
        let (first, count) = t.leaf_range(u);
        (first..first + count).filter(|&v| free_node(v)).count()
    };
    // rule 1: the top switch
    let free: Vec<usize> = sw.router.iter().map(|&u| free_of(u)).collect();
    let top = (0..s)
        .filter(|&i| free[i] >= n)
        .max_by_key(|&i| (sw.level[i], i))?;
    // rule 2: counts cut to the top switch's nodes
    let (tf, tc) = t.leaf_range(sw.router[top]);
    let mut cnt: Vec<usize> = (0..s)
        .map(|i| {
            let (f, c) = t.leaf_range(sw.router[i]);
            if f >= tf && f + c <= tf + tc {
                free[i]
            } else if f <= tf && tf + tc <= f + c {
                free[top]
            } else {
                0
            }
        })
        .collect();
    // rule 3: leaf switches one by one
    let leaves: Vec<usize> = (0..s).filter(|&i| sw.level[i] == 0).collect();
    let mut dist = vec![0usize; s];
    let mut nodes: Vec<u32> = Vec::with_capacity(n);
    let mut rem = n;
    while rem > 0 {
        let mut best: Option<usize> = None;
        for &i in &leaves {
            if cnt[i] == 0 {
                continue;
            }
            match best {
                None => best = Some(i),
                Some(b) if better(sw, &dist, &cnt, rem, i, b) => best = Some(i),
                _ => {}
            }
        }
        let b = best?;
        for (i, d) in dist.iter_mut().enumerate() {
            *d += distance(t, sw.router[b], sw.router[i]);
        }
        let (f, c) = t.leaf_range(sw.router[b]);
        for v in f..f + c {
            if rem == 0 {
                break;
            }
            if free_node(v) {
                nodes.push(v as u32);
                rem -= 1;
            }
        }
        cnt[b] = 0;
    }
    Some(nodes)
}

/// Whether a job of `n` nodes can ever be given nodes (the empty machine has a switch holding
/// `n` nodes: only not so when several top-level switches share the nodes).
pub fn can_ever_fit(t: &Tree, n: usize) -> bool {
    let sw = switches(t);
    sw.router.iter().any(|&u| t.leaf_range(u).1 >= n)
}
