//! The state of one machine during one policy's run: which nodes are held or reserved by which
//! job, and how many running jobs' traffic crosses each router and link.

use super::rect::Grid;
use crate::topology::Topology;

/// Node state value meaning "free".
pub const FREE: u32 = u32::MAX;

/// Where a placed job sits.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Placement {
    /// The nodes the job runs on, ascending.
    pub nodes: Vec<u32>,
    /// Nodes reserved for the job but unused (the paper's owned region minus the job's nodes).
    pub owned_idle: Vec<u32>,
    /// `Some(fallback id)` if the policy had to relax closedness or minimality.
    pub fallback: Option<&'static str>,
}

/// Routers and links a job's traffic uses, sorted and distinct.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Footprint {
    pub routers: Vec<u32>,
    pub links: Vec<u32>,
}

/// Occupancy of the machine.
#[derive(Debug, Clone)]
pub struct Machine {
    pub topo: Topology,
    /// Per node: [`FREE`] or the id of the job holding or reserving it.
    pub owner: Vec<u32>,
    /// Number of free nodes.
    pub free_count: usize,
    /// Per router: running jobs whose *region* (all-pairs routes) crosses it. Closed policies
    /// only take regions whose routers are unused, which keeps them contention-free even
    /// beside jobs placed by a relaxed fallback.
    pub router_load: Vec<u32>,
    /// Mesh only: cells whose node is free and whose router carries no job's region.
    pub avail: Option<Grid>,
    /// Bumped on every commit and release: a placement that failed at one version fails again
    /// at the same version, so the scheduler need not retry it (see [`crate::alloc::policy::Placer`]).
    pub version: u64,
}

impl Machine {
    pub fn new(topo: Topology) -> Self {
        let n = topo.nodes();
        let avail = match &topo {
            Topology::Mesh(m) => Some(Grid::new(m.width, m.height, true)),
            Topology::Tree(_) => None,
        };
        Machine {
            router_load: vec![0; topo.routers()],
            topo,
            owner: vec![FREE; n],
            free_count: n,
            avail,
            version: 0,
        }
    }

    #[inline]
    pub fn is_free(&self, node: usize) -> bool {
        self.owner[node] == FREE
    }

    fn refresh_cell(&mut self, node: usize) {
        if let Topology::Mesh(m) = &self.topo {
            let (x, y) = m.xy(node);
            let ok = self.owner[node] == FREE && self.router_load[node] == 0;
            self.avail.as_mut().unwrap().set(x, y, ok);
        }
    }

    /// Marks the placement's nodes as taken by `job` and its region's routers as loaded.
    pub fn commit(&mut self, job: u32, p: &Placement, region: &Footprint) {
        self.version += 1;
        for &n in p.nodes.iter().chain(&p.owned_idle) {
            debug_assert_eq!(self.owner[n as usize], FREE, "node {n} taken twice");
            self.owner[n as usize] = job;
            self.free_count -= 1;
            self.refresh_cell(n as usize);
        }
        for &r in &region.routers {
            self.router_load[r as usize] += 1;
            if self.router_load[r as usize] == 1 {
                self.refresh_cell(r as usize);
            }
        }
    }

    /// Marks routers as carrying a running job's traffic (as [`Machine::commit`] does).
    pub fn load_routers(&mut self, region: &Footprint) {
        for &r in &region.routers {
            self.router_load[r as usize] += 1;
            self.refresh_cell(r as usize);
        }
    }

    /// Undoes [`Machine::commit`].
    pub fn release(&mut self, p: &Placement, region: &Footprint) {
        self.version += 1;
        for &n in p.nodes.iter().chain(&p.owned_idle) {
            self.owner[n as usize] = FREE;
            self.free_count += 1;
        }
        for &r in &region.routers {
            self.router_load[r as usize] -= 1;
        }
        if self.avail.is_some() {
            for &n in p.nodes.iter().chain(&p.owned_idle) {
                self.refresh_cell(n as usize);
            }
            for &r in &region.routers {
                self.refresh_cell(r as usize);
            }
        }
    }

    /// Free node ids, ascending.
    pub fn free_nodes(&self) -> Vec<u32> {
        (0..self.owner.len())
            .filter(|&i| self.owner[i] == FREE)
            .map(|i| i as u32)
            .collect()
    }
}
