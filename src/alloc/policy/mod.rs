//! Allocation policies: given the machine and a job of `n` nodes, choose its nodes.
//!
//! | policy | file |
//! |---|---|
//! | `sequential` | [`sequential`] |
//! | `hilbert` | [`hilbert`] |
//! | `random` | [`random`] |
//! | `closed-min-paper`, `closed-min-best`, `closed-min-naive` on meshes | [`closed_min_mesh`] |
//! | the same on trees | [`closed_min_tree`] |
//! | fallback `relax-closed` on meshes | [`relax_closed_mesh`] |
//! | `slurmTree` (trees only) | [`slurm_tree`] |

pub mod closed_min_mesh;
pub mod closed_min_tree;
pub mod hilbert;
pub mod random;
pub mod relax_closed_mesh;
pub mod sequential;
pub mod slurm_tree;

use super::machine::{Machine, Placement};
use super::scenario::{Fallback, PolicyId};
use crate::rng::Rng;
use crate::topology::Topology;

/// What a policy needs besides the machine.
pub struct Placer {
    pub policy: PolicyId,
    pub fallback: Fallback,
    /// Position of each node along the policy's curve (Hilbert on meshes, leaf order on trees).
    pub curve_rank: Vec<u32>,
    /// Nodes in curve order.
    pub curve: Vec<u32>,
    pub rng: Rng,
    /// Per job id: its `switches` limit (most leaf switches) and how long (s) it waits for it;
    /// empty when no job has one. Only `slurmTree` reads it.
    pub switches: Vec<Option<(u32, f64)>>,
    /// `(machine version, n, switch limit)` of the last failed search: the same search on the
    /// same machine fails again (policies are deterministic functions of the machine; `random`
    /// never fails).
    last_failure: Option<(u64, usize, Option<u32>)>,
}

impl Placer {
    pub fn new(policy: PolicyId, fallback: Fallback, topo: &Topology, rng: Rng) -> Self {
        let (curve_rank, curve) = if policy == PolicyId::Hilbert {
            let rank = match topo {
                Topology::Mesh(m) => crate::topology::hilbert::hilbert_rank(m.width, m.height),
                Topology::Tree(t) => (0..t.nodes() as u32).collect(),
            };
            let mut curve = vec![0u32; rank.len()];
            for (node, &r) in rank.iter().enumerate() {
                curve[r as usize] = node as u32;
            }
            (rank, curve)
        } else {
            (Vec::new(), Vec::new())
        };
        Placer {
            policy,
            fallback,
            curve_rank,
            curve,
            rng,
            switches: Vec::new(),
            last_failure: None,
        }
    }

    /// Job `j`'s switch limit after waiting `waited` seconds: its `switches` until its wait
    /// is over, then none (Slurm's `--switches=N@max-time`).
    pub fn switch_limit(&self, j: usize, waited: f64) -> Option<u32> {
        match self.switches.get(j).copied().flatten() {
            Some((k, wait)) if waited < wait => Some(k),
            _ => None,
        }
    }

    /// Whether a job of `n` nodes could be placed on the empty machine. Only the paper's mesh
    /// template can fail to fit a machine that has enough nodes (neither orientation of its
    /// rectangle fits inside the mesh) when no fallback is allowed.
    pub fn can_ever_fit(&self, topo: &Topology, n: usize) -> bool {
        if n == 0 || n > topo.nodes() {
            return false;
        }
        match topo {
            Topology::Mesh(mesh)
                if self.policy == PolicyId::ClosedMinPaper && self.fallback == Fallback::Wait =>
            {
                closed_min_mesh::paper_fits_empty(n, mesh)
            }
            Topology::Tree(t) if self.policy == PolicyId::SlurmTree => {
                slurm_tree::can_ever_fit(t, n)
            }
            _ => true,
        }
    }

    /// Chooses nodes for a job of `n` nodes, or `None` if the policy finds no place now.
    pub fn place(&mut self, m: &Machine, n: usize) -> Option<Placement> {
        self.place_job(m, n, None)
    }

    /// [`Placer::place`] for a job with a switch limit (`slurmTree` only; see
    /// [`Placer::switch_limit`]).
    pub fn place_job(&mut self, m: &Machine, n: usize, switches: Option<u32>) -> Option<Placement> {
        if n == 0 || n > m.free_count || self.last_failure == Some((m.version, n, switches)) {
            return None;
        }
        let mut p = match self.policy {
            PolicyId::SlurmTree => slurm_tree::slurm_tree(m, n, switches),
            PolicyId::Sequential => Some(sequential::sequential(m, n)),
            PolicyId::Hilbert => hilbert::hilbert_window(m, n, &self.curve, &self.curve_rank),
            PolicyId::Random => Some(random::random(m, n, &mut self.rng)),
            PolicyId::ClosedMinPaper | PolicyId::ClosedMinBest | PolicyId::ClosedMinNaive => {
                let found = match &m.topo {
                    Topology::Mesh(_) => closed_min_mesh::closed_min(m, n, self.policy),
                    Topology::Tree(_) => closed_min_tree::closed_min(m, n, self.policy),
                };
                match (found, self.fallback) {
                    (Some(p), _) => Some(p),
                    (None, Fallback::Wait) => None,
                    (None, Fallback::RelaxMinimal) => {
                        let p = match &m.topo {
                            Topology::Mesh(_) => closed_min_mesh::relax_minimal(m, n, self.policy),
                            Topology::Tree(_) => closed_min_tree::relax_minimal(m, n, self.policy),
                        };
                        p.map(|p| Placement {
                            fallback: Some("relax-minimal"),
                            ..p
                        })
                    }
                    (None, Fallback::RelaxClosed) => {
                        let p = match &m.topo {
                            Topology::Mesh(_) => relax_closed_mesh::relax_closed(m, n),
                            Topology::Tree(_) => closed_min_tree::relax_closed(m, n),
                        };
                        p.map(|p| Placement {
                            fallback: Some("relax-closed"),
                            ..p
                        })
                    }
                }
            }
        };
        if p.is_none() {
            self.last_failure = Some((m.version, n, switches));
        }
        if let Some(p) = &mut p {
            p.nodes.sort_unstable();
            p.owned_idle.sort_unstable();
            debug_assert_eq!(p.nodes.len(), n);
        }
        p
    }
}
