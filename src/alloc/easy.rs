//! EASY backfilling (Lifka's Extensible Argonne Scheduling sYstem, as in Maui and Slurm's
//! `sched/backfill`): the queue head gets a reservation, and a later job may start at once only if
//! it cannot delay that reservation.
//!
//! The rules (also in `docs/format.md`, "EASY backfilling"):
//!
//! 1. **Shadow time.** Running jobs are assumed to end at their walltime (`start + walltime`).
//!    Releasing them in that order on the current machine, all jobs ending at the same instant
//!    together, the *shadow time* is the first such instant at which the policy places the head.
//!    If it cannot place the head even with every running job gone, there is no reservation
//!    (shadow time infinite). The reservation is made when a job becomes the head and made again
//!    whenever a running job ends before its walltime; otherwise it is kept (a job that ends at
//!    its walltime ends where the reservation assumed).
//! 2. **Reservation.** Policies that need only a count of free nodes (`sequential`, `hilbert`,
//!    `random`) reserve a count: the *spare* nodes are those free at the shadow time beyond the
//!    head's need. Closed-min policies reserve the placement the policy makes for the head at the
//!    shadow time: its nodes and reserved idle nodes, and (unless that placement is a
//!    `relax-closed` one, which ignores routers) the routers of every route between its nodes.
//! 3. **Candidates.** Up to `backfillDepth` queued jobs behind the head are examined in queue
//!    order. One whose walltime ends by the shadow time starts if the policy places it now. Any
//!    other starts only if it cannot touch the reservation: with a count, if its nodes plus its
//!    reserved idle nodes are at most the spare nodes (which it then uses up); with a placement,
//!    if the policy places it with the reserved nodes taken and routers loaded, and its own busy
//!    routers avoid the reservation.
//!
//! Guarantee (with walltimes equal to run times): the head starts no later than its shadow time at
//! the moment it became the head, so no backfilled job ever delays it; `tests/easy.rs` checks it
//! against re-running the stream without the jobs that backfilled while it was the head.
//!
//! Why a placement and not a count for closed-min: a closed-min head needs a free *region* (a
//! rectangle, a subtree), and a backfilled job holding a single node of it delays the head as
//! surely as one holding all of them.
//!
//! # Complexity
//! Each policy's search succeeds on a machine if it succeeds on a busier one (releasing a job only
//! frees nodes and routers), so the shadow time is found by galloping then binary search over the
//! groups of equal walltime ends: `O(log R)` feasibility tests for `R` running jobs, each `O(N)`
//! ([`Fit`]), with the jobs released and re-committed on the machine itself rather than on a copy.

use super::machine::{Footprint, Machine, Placement};
use super::metrics;
use super::policy::{closed_min_mesh, closed_min_tree, Placer};
use super::scenario::{Fallback, PolicyId};
use super::state::Sim;
use crate::topology::Topology;
use std::cell::RefCell;
use std::collections::HashMap;
use std::collections::VecDeque;

/// Owner id of the head's reserved nodes while a candidate is placed around them.
const RESERVED: u32 = u32::MAX - 1;

/// Whether a policy's search succeeds on one machine state, answered for any job size from one
/// `O(N)` summary: `fits(n)` equals `placer.place(m, n).is_some()` on the state it was built from
/// (property-tested), and on a busier state it is an upper bound.
pub enum Fit {
    /// Any `n` free nodes will do.
    Count,
    /// `slurmTree` (without switch limits, which EASY refuses): asks the policy itself.
    Slurm,
    /// Closed-min on a mesh: the tallest available rectangle of each width (index `width - 1`),
    /// the largest available area, and the answers given so far by job size.
    Mesh {
        tall: Vec<usize>,
        area: usize,
        known: RefCell<HashMap<usize, bool>>,
    },
    /// Closed-min on a tree, per router level: the largest capacity through usable routers, and
    /// the most leaves of a subtree of that level whose leaves are all free.
    Tree {
        usable: Vec<usize>,
        whole: Vec<usize>,
    },
}

impl Fit {
    /// Summarises `m` for `placer`'s policy and fallback.
    pub fn of(m: &Machine, placer: &Placer) -> Fit {
        if placer.policy == PolicyId::SlurmTree {
            return Fit::Slurm;
        }
        if !placer.policy.is_closed() || placer.fallback == Fallback::RelaxClosed {
            // relax-closed takes any free nodes when no closed region is free
            return Fit::Count;
        }
        match &m.topo {
            Topology::Mesh(_) => {
                // the grid's own table (shared with the rectangle search, kept until the grid changes)
                let tall = crate::alloc::rect::tallest_per_width(m.avail.as_ref().unwrap());
                let area = tall.iter().enumerate().map(|(i, &h)| (i + 1) * h).max();
                Fit::Mesh {
                    area: area.unwrap_or(0),
                    tall,
                    known: RefCell::default(),
                }
            }
            Topology::Tree(t) => {
                let usable = closed_min_tree::capacities(m, t, true);
                let free = closed_min_tree::capacities(m, t, false);
                let mut best = vec![0; t.levels()];
                let mut whole = vec![0; t.levels()];
                for l in 0..t.levels() {
                    let first = t.ancestor(0, l);
                    for u in first..first + t.level_size(l) {
                        best[l] = best[l].max(usable[u]);
                        let size = t.leaf_range(u).1;
                        if free[u] == size {
                            whole[l] = whole[l].max(size);
                        }
                    }
                }
                Fit::Tree {
                    usable: best,
                    whole,
                }
            }
        }
    }

    /// Whether `placer` would place a job of `n` nodes (see the type's invariant).
    pub fn fits(&self, m: &Machine, placer: &Placer, n: usize) -> bool {
        if n == 0 || n > m.free_count {
            return false;
        }
        let paper = placer.policy == PolicyId::ClosedMinPaper;
        let minimal = placer.fallback == Fallback::RelaxMinimal;
        match (self, &m.topo) {
            (Fit::Count, _) => true,
            (Fit::Slurm, _) => super::policy::slurm_tree::slurm_tree(m, n, None).is_some(),
            (Fit::Mesh { tall, area, known }, Topology::Mesh(mesh)) => {
                if n > *area {
                    return false; // every closed placement is an available rectangle
                }
                if let Some(&k) = known.borrow().get(&n) {
                    return k;
                }
                let ok = |&(a, b): &(usize, usize)| a >= 1 && a <= mesh.width && b <= tall[a - 1];
                let closed = if paper {
                    closed_min_mesh::paper_shapes(n).iter().any(ok)
                } else {
                    closed_min_mesh::min_diameter_shapes(n, mesh)
                        .iter()
                        .flatten()
                        .any(ok)
                };
                let k = closed || (minimal && (1..=mesh.width).any(|a| ok(&(a, n.div_ceil(a)))));
                known.borrow_mut().insert(n, k);
                k
            }
            (Fit::Tree { usable, whole }, Topology::Tree(t)) => {
                if n == 1 {
                    return true; // any free leaf
                }
                let Some(l) = t.template_level(n) else {
                    return false;
                };
                let at = |lv: usize| {
                    if paper {
                        whole[lv] >= n
                    } else {
                        usable[lv] >= n
                    }
                };
                at(l) || (minimal && (0..l).any(at))
            }
            _ => unreachable!("summary of another topology"),
        }
    }
}

/// A running job as the reservation sees it.
pub struct Running<'a> {
    pub job: u32,
    /// `start + walltime`: when the scheduler assumes it ends.
    pub wall_end: f64,
    pub placement: &'a Placement,
    /// The routers it loads on the machine (its busy routers).
    pub region: &'a Footprint,
}

/// What the head is promised.
#[derive(Debug, Clone)]
pub enum Reserved {
    /// The head cannot be placed even on the machine emptied of running jobs.
    Nothing,
    /// Count policies: nodes free at the shadow time beyond the head's need.
    Count { spare: usize },
    /// Closed-min policies: the head's placement at the shadow time, and the routers that must
    /// stay free of other jobs' traffic for that placement to remain available (empty for a
    /// `relax-closed` placement).
    Region {
        placement: Placement,
        blocking: Footprint,
    },
}

/// The head's reservation, computed at one scheduling pass.
#[derive(Debug, Clone)]
pub struct Reservation {
    pub head: usize,
    pub shadow: f64,
    pub reserved: Reserved,
}

/// Sorts by walltime end and returns the end index of each group of equal ends.
fn groups(running: &mut [Running]) -> Vec<usize> {
    running.sort_by(|a, b| a.wall_end.total_cmp(&b.wall_end).then(a.job.cmp(&b.job)));
    (1..=running.len())
        .filter(|&i| i == running.len() || running[i].wall_end != running[i - 1].wall_end)
        .collect()
}

fn held(p: &Placement) -> usize {
    p.nodes.len() + p.owned_idle.len()
}

/// The first group of walltime ends (`ends` from [`groups`]) after which `n` nodes are free,
/// with the free count then; every job of a group counts, whatever the input order.
fn first_group(
    free_now: usize,
    n: usize,
    running: &[Running],
    ends: &[usize],
) -> Option<(usize, usize)> {
    let mut free = free_now;
    let mut prev = 0;
    for (g, &e) in ends.iter().enumerate() {
        free += running[prev..e]
            .iter()
            .map(|r| held(r.placement))
            .sum::<usize>();
        prev = e;
        if free >= n {
            return Some((g, free));
        }
    }
    None
}

/// Count reservation: the first group of walltime ends after which `n` nodes are free.
pub fn reserve_count(free_now: usize, n: usize, running: &mut [Running]) -> (f64, Reserved) {
    let ends = groups(running);
    match first_group(free_now, n, running, &ends) {
        Some((g, free)) => (
            running[ends[g] - 1].wall_end,
            Reserved::Count { spare: free - n },
        ),
        None => (f64::INFINITY, Reserved::Nothing),
    }
}

/// Releases or re-commits running jobs so that exactly `running[..k]` are released.
fn move_to(m: &mut Machine, running: &[Running], applied: &mut usize, k: usize) {
    while *applied < k {
        let r = &running[*applied];
        m.release(r.placement, r.region);
        *applied += 1;
    }
    while *applied > k {
        *applied -= 1;
        let r = &running[*applied];
        m.commit(r.job, r.placement, r.region);
    }
}

/// Region reservation for a head of `n` nodes: the shadow time and the head's placement then.
/// The machine is returned to its state on entry (its version moves on).
pub fn reserve_region(
    m: &mut Machine,
    placer: &mut Placer,
    n: usize,
    running: &mut [Running],
) -> (f64, Reserved) {
    let ends = groups(running);
    // no search can succeed before `n` nodes are free
    let Some((first, _)) = first_group(m.free_count, n, running, &ends) else {
        return (f64::INFINITY, Reserved::Nothing);
    };
    let mut applied = 0;
    let fits_after = |m: &mut Machine, applied: &mut usize, g: usize, placer: &Placer| {
        move_to(m, running, applied, ends[g]);
        Fit::of(m, placer).fits(m, placer, n)
    };
    // gallop from the first group with enough nodes, then bisect (the search is monotone)
    let last = ends.len() - 1;
    let (mut lo, mut step) = (first, 1);
    let hi = loop {
        if fits_after(m, &mut applied, lo, placer) {
            break lo;
        }
        if lo == last {
            move_to(m, running, &mut applied, 0);
            return (f64::INFINITY, Reserved::Nothing);
        }
        let next = (lo + step).min(last);
        if fits_after(m, &mut applied, next, placer) {
            let mut lo2 = lo + 1;
            let mut hi2 = next;
            while lo2 < hi2 {
                let mid = (lo2 + hi2) / 2;
                if fits_after(m, &mut applied, mid, placer) {
                    hi2 = mid;
                } else {
                    lo2 = mid + 1;
                }
            }
            break hi2;
        }
        lo = next;
        step *= 2;
    };
    move_to(m, running, &mut applied, ends[hi]);
    let placement = placer
        .place(m, n)
        .expect("the feasibility summary is exact");
    move_to(m, running, &mut applied, 0);
    let blocking = if placement.fallback == Some("relax-closed") {
        Footprint::default()
    } else {
        let mut routers = metrics::region(&m.topo, &placement.nodes).routers;
        if let Topology::Mesh(_) = m.topo {
            // a mesh cell's router has the node's id: the whole rectangle must stay available
            routers.extend(placement.nodes.iter().chain(&placement.owned_idle));
            routers.sort_unstable();
            routers.dedup();
        }
        Footprint {
            routers,
            links: Vec::new(),
        }
    };
    let shadow = running[ends[hi] - 1].wall_end;
    (
        shadow,
        Reserved::Region {
            placement,
            blocking,
        },
    )
}

/// Marks the reserved placement's currently free nodes as taken and its blocking routers as
/// loaded, as if the head held them now (nodes still held by running jobs stay theirs). Returns
/// what was taken, for [`unhold`].
pub fn hold(m: &mut Machine, placement: &Placement, blocking: &Footprint) -> Placement {
    let taken = Placement {
        nodes: placement
            .nodes
            .iter()
            .chain(&placement.owned_idle)
            .copied()
            .filter(|&v| m.is_free(v as usize))
            .collect(),
        ..Default::default()
    };
    m.commit(RESERVED, &taken, blocking);
    taken
}

/// Undoes [`hold`].
pub fn unhold(m: &mut Machine, taken: &Placement, blocking: &Footprint) {
    m.release(taken, blocking);
}

/// How many of the reserved placement's nodes are free now.
pub fn free_part(m: &Machine, placement: &Placement) -> usize {
    placement
        .nodes
        .iter()
        .chain(&placement.owned_idle)
        .filter(|&&v| m.is_free(v as usize))
        .count()
}

/// Whether a candidate's busy routers avoid the reservation's blocking routers (both sorted).
pub fn avoids(busy: &[u32], blocking: &Footprint) -> bool {
    busy.iter()
        .all(|r| blocking.routers.binary_search(r).is_err())
}

/// EASY state kept between scheduling passes, so that a pass costs what changed since the last.
///
/// The kept reservation is one of EASY's rules (see [`Easy::reservation`]). The caches never
/// change a decision: a feasibility summary is kept until a job is
/// released (starts only make the machine busier, so an old summary still rules out every job
/// it ruled out, and a job it lets through is then searched for); a failed search is remembered
/// until a job is released.
#[derive(Default)]
pub(super) struct Easy {
    /// The head's reservation: made when a job becomes the head, and made again only when a
    /// running job ends before its walltime. While every job ends at its walltime the kept one
    /// stays exact: releasing running jobs only frees nodes and routers, every policy's search
    /// succeeds on a machine if it succeeds on a busier one, and a job backfilled since either
    /// ends by the shadow time or avoids the reservation (its spare nodes are deducted), so the
    /// shadow time a new computation would find is the same and the reserved placement is still
    /// available then.
    pub(super) reservation: Option<Reservation>,
    /// Bumped by every release of a real job.
    pub(super) releases: u64,
    /// Bumped by every new reservation.
    pub(super) serial: u64,
    /// Feasibility on the machine as it is, keyed by `releases`.
    pub(super) fit_now: Option<(u64, Fit)>,
    /// Feasibility with the reservation held, keyed by `(releases, serial)`.
    pub(super) fit_held: Option<(u64, u64, Fit)>,
    /// Job sizes whose search failed, keyed like the summaries.
    pub(super) failed_now: (u64, Vec<usize>),
    pub(super) failed_held: (u64, u64, Vec<usize>),
}

impl Easy {
    /// Whether the policy may place `n` nodes on the machine as it is (never a false "no").
    fn fits_now(&mut self, sim: &Sim, n: usize) -> bool {
        if self.fit_now.as_ref().is_none_or(|f| f.0 != self.releases) {
            self.fit_now = Some((self.releases, Fit::of(&sim.m, &sim.placer)));
        }
        if self.failed_now.0 != self.releases {
            self.failed_now = (self.releases, Vec::new());
        }
        !self.failed_now.1.contains(&n)
            && self
                .fit_now
                .as_ref()
                .unwrap()
                .1
                .fits(&sim.m, &sim.placer, n)
    }

    /// The policy's placement for `n` nodes now, after [`Easy::fits_now`] said yes.
    fn place_now(&mut self, sim: &mut Sim, n: usize) -> Option<Placement> {
        let p = sim.placer.place(&sim.m, n);
        if p.is_none() {
            self.failed_now.1.push(n);
        }
        p
    }

    /// The policy's placement for `n` nodes with the reserved placement held.
    fn place_held(
        &mut self,
        sim: &mut Sim,
        n: usize,
        placement: &Placement,
        blocking: &Footprint,
    ) -> Option<Placement> {
        let key = (self.releases, self.serial);
        if self.failed_held.0 != key.0 || self.failed_held.1 != key.1 {
            self.failed_held = (key.0, key.1, Vec::new());
        }
        if self.failed_held.2.contains(&n) {
            return None;
        }
        if self.fit_held.as_ref().is_none_or(|f| (f.0, f.1) != key) {
            let taken = hold(&mut sim.m, placement, blocking);
            self.fit_held = Some((key.0, key.1, Fit::of(&sim.m, &sim.placer)));
            unhold(&mut sim.m, &taken, blocking);
        }
        // the caller checked that `n` nodes are free beside the reservation, which is all the
        // summary reads of the machine besides itself
        let p = if self
            .fit_held
            .as_ref()
            .unwrap()
            .2
            .fits(&sim.m, &sim.placer, n)
        {
            let taken = hold(&mut sim.m, placement, blocking);
            let p = sim.placer.place(&sim.m, n);
            unhold(&mut sim.m, &taken, blocking);
            p
        } else {
            None
        };
        if p.is_none() {
            self.failed_held.2.push(n);
        }
        p
    }
}

/// The head's reservation on the machine as it is now (rules in [`crate::alloc::easy`]).
fn reserve(sim: &mut Sim, head: usize) -> Reservation {
    let n = sim.jobs[head].nodes;
    let mut running: Vec<Running> = sim
        .running
        .iter()
        .map(|e| {
            let j = e.1 as usize;
            let o = &sim.out[j];
            Running {
                job: e.1,
                wall_end: o.start.unwrap() + sim.jobs[j].walltime,
                placement: o.placement.as_ref().unwrap(),
                region: &o.region,
            }
        })
        .collect();
    let (shadow, reserved) = if sim.placer.policy.is_closed() {
        reserve_region(&mut sim.m, &mut sim.placer, n, &mut running)
    } else {
        reserve_count(sim.m.free_count, n, &mut running)
    };
    Reservation {
        head,
        shadow,
        reserved,
    }
}

/// EASY backfilling, one pass at time `t` (rules in [`crate::alloc::easy`]): up to `depth` queued
/// jobs behind the head are examined in queue order; each starts now if it cannot delay the
/// head's reservation. Every examined job counts as one decision.
pub(super) fn easy_backfill(
    sim: &mut Sim,
    queue: &mut VecDeque<usize>,
    t: f64,
    done: &mut u64,
    depth: usize,
    easy: &mut Easy,
) {
    let head = queue[0];
    let mut res = match easy.reservation.take() {
        Some(r) if r.head == head => r,
        _ => {
            easy.serial += 1;
            reserve(sim, head)
        }
    };
    let mut i = 1;
    let mut looked = 0;
    while i < queue.len() && looked < depth {
        looked += 1;
        sim.decisions += 1;
        let j = queue[i];
        let n = sim.jobs[j].nodes;
        let ends_in_time = t + sim.jobs[j].walltime <= res.shadow;
        let placed = if n > sim.m.free_count || !easy.fits_now(sim, n) {
            None
        } else if ends_in_time {
            easy.place_now(sim, n)
        } else {
            match &res.reserved {
                Reserved::Nothing => None, // no shadow time: every job ends in time
                Reserved::Count { spare } => {
                    if n <= *spare {
                        easy.place_now(sim, n)
                    } else {
                        None
                    }
                }
                Reserved::Region {
                    placement,
                    blocking,
                } => {
                    if n + free_part(&sim.m, placement) > sim.m.free_count {
                        None
                    } else {
                        easy.place_held(sim, n, placement, blocking)
                            // a relax-closed placement ignores routers: its traffic must still
                            // avoid the reserved region
                            .filter(|q| {
                                q.fallback != Some("relax-closed")
                                    || avoids(&sim.busy(j, &q.nodes).routers, blocking)
                            })
                    }
                }
            }
        };
        if let Some(p) = placed {
            if !ends_in_time {
                if let Reserved::Count { spare } = &mut res.reserved {
                    *spare -= p.nodes.len() + p.owned_idle.len();
                }
            }
            sim.launch(j, p, t);
            queue.remove(i);
            *done += 1;
        } else {
            i += 1;
        }
    }
    easy.reservation = Some(res);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::alloc::scenario::Fallback;
    use crate::rng::Rng;
    use crate::topology::{Mesh, Tree};

    const CLOSED: [PolicyId; 3] = [
        PolicyId::ClosedMinPaper,
        PolicyId::ClosedMinBest,
        PolicyId::ClosedMinNaive,
    ];
    const FALLBACKS: [Fallback; 3] = [
        Fallback::Wait,
        Fallback::RelaxClosed,
        Fallback::RelaxMinimal,
    ];

    /// The feasibility summary answers exactly what the policy's search answers, for every job
    /// size, on machines filled at random by the same policy (mixed with relaxed placements).
    #[test]
    fn fit_summary_equals_the_policy_search() {
        let topos = [
            Topology::Mesh(Mesh::new(7, 5)),
            Topology::Mesh(Mesh::new(1, 9)),
            Topology::Mesh(Mesh::new(12, 3)),
            Topology::Tree(Tree::new(&[2, 3, 4])),
            Topology::Tree(Tree::new(&[4, 4])),
            Topology::Tree(crate::topology::tree::tests::irregular_sample()),
        ];
        let mut rng = Rng::seeded(5);
        for topo in &topos {
            for &policy in &CLOSED {
                for &fallback in &FALLBACKS {
                    for _ in 0..30 {
                        let mut m = Machine::new(topo.clone());
                        let mut filler =
                            Placer::new(policy, Fallback::RelaxClosed, topo, Rng::seeded(1));
                        for j in 0..rng.below(8) as u32 {
                            let n = 1 + rng.index_below(topo.nodes() / 3 + 1);
                            if let Some(p) = filler.place(&m, n) {
                                let region = metrics::region(topo, &p.nodes);
                                m.commit(j, &p, &region);
                            }
                        }
                        let mut placer = Placer::new(policy, fallback, topo, Rng::seeded(1));
                        let fit = Fit::of(&m, &placer);
                        for n in 1..=topo.nodes() {
                            assert_eq!(
                                fit.fits(&m, &placer, n),
                                placer.place(&m, n).is_some(),
                                "{policy:?} {fallback:?} n = {n} on {topo:?}"
                            );
                        }
                    }
                }
            }
        }
    }
}
