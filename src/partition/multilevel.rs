//! The multilevel partitioner (SPEC §2): coarsen by heavy-edge matching, partition the coarsest
//! graph, refine on the way up. PLACEHOLDER until the partitioner lands: linear baseline.

use super::{baseline, Graph, Options, Outcome};
use crate::progress::Progress;

/// Multilevel k-way (`Method::Kway`) or recursive bisection (`Method::Rb`).
pub fn partition(g: &Graph, opts: &Options, _progress: &mut dyn Progress) -> Outcome {
    baseline::linear(g, opts)
}
