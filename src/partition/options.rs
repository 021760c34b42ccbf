//! The partitioner's options and its result: what [`super::partition`] takes and gives.

/// What the partitioner minimizes (METIS `-objtype`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Objective {
    /// Total weight of cut edges (default).
    #[default]
    Cut,
    /// Total communication volume (see [`super::metrics::comm_volume`]).
    Volume,
}

/// How the parts are found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Method {
    /// Multilevel k-way (METIS `-ptype=kway`, the default).
    #[default]
    Kway,
    /// Multilevel recursive bisection (METIS `-ptype=rb`).
    Rb,
    /// Baseline: vertices in id order cut into consecutive runs of the target weights.
    Linear,
    /// Baseline: each vertex to a part drawn at random, weighted by the targets, from the seed.
    Random,
}

/// How hard the multilevel partitioner tries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Effort {
    /// METIS-like: one multilevel cycle, a few initial tries.
    #[default]
    Default,
    /// Quality mode: more tries, V-cycles and stronger refinement, for a smaller cut.
    Strong,
}

/// Options of one partitioning run.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    /// Number of parts, `1 <= k`. `k` may exceed `n` (some parts stay empty).
    pub k: u32,
    /// Target fraction of the total vertex weight for each part: `k` non-negative values summing
    /// to 1 (within 1e-6). Empty means equal parts.
    pub tpwgts: Vec<f64>,
    /// Allowed imbalance in thousandths (METIS `-ufactor`): part `p` may weigh up to
    /// `(1 + ufactor/1000) * tpwgts[p] * total`, or more only when a single vertex forces it.
    pub ufactor: u32,
    pub objective: Objective,
    pub method: Method,
    pub effort: Effort,
    /// Independent tries whose best is kept (METIS `-ncuts`), at least 1.
    pub ncuts: u32,
    /// Refinement passes per level (METIS `-niter`), at least 1.
    pub niter: u32,
    pub seed: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            k: 2,
            tpwgts: Vec::new(),
            ufactor: 30,
            objective: Objective::Cut,
            method: Method::Kway,
            effort: Effort::Default,
            ncuts: 1,
            niter: 10,
            seed: 1,
        }
    }
}

impl Options {
    /// The target fractions, `k` of them (equal parts when `tpwgts` is empty).
    pub fn targets(&self) -> Vec<f64> {
        if self.tpwgts.is_empty() {
            vec![1.0 / f64::from(self.k.max(1)); self.k.max(1) as usize]
        } else {
            self.tpwgts.clone()
        }
    }
}

/// The result of [`super::partition`].
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// Part of each vertex, each `< k`.
    pub part: Vec<u32>,
    /// Vertex counts of the multilevel hierarchy, finest first (one entry for baselines).
    pub levels: Vec<u32>,
}
