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

pub mod closed_min_mesh;
pub mod closed_min_tree;
pub mod hilbert;
pub mod random;
pub mod relax_closed_mesh;
pub mod sequential;

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
    /// `(machine version, n)` of the last failed search: the same search on the same machine
    /// fails again (policies are deterministic functions of the machine; `random` never fails).
    last_failure: Option<(u64, usize)>,
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
            last_failure: None,
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
            _ => true,
        }
    }

    /// Chooses nodes for a job of `n` nodes, or `None` if the policy finds no place now.
    pub fn place(&mut self, m: &Machine, n: usize) -> Option<Placement> {
        if n == 0 || n > m.free_count || self.last_failure == Some((m.version, n)) {
            return None;
        }
        let mut p = match self.policy {
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
            self.last_failure = Some((m.version, n));
        }
        if let Some(p) = &mut p {
            p.nodes.sort_unstable();
            p.owned_idle.sort_unstable();
            debug_assert_eq!(p.nodes.len(), n);
        }
        p
    }
}
