//! The model of Peryshkova et al.: `m` jobs on `n` machines; job `i` has `q_i` admissible
//! variants `p_i^k = (r, t, w)` (ranks, time, weight). A schedule gives every job a start `s_i`,
//! a variant `k_i` and a set of `r_i^{k_i}` machines, with no machine used by two jobs at once;
//! its makespan is `T(S) = max(s_i + t_i^{k_i})`. The optional efficiency constraint asks
//! `(1/m) sum_i w_i^{k_i} / max_k w_i^k >= w`.

/// One admissible variant: `ranks` machines for `time` units, with a `weight` (an efficiency:
/// higher is preferred).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Variant {
    pub ranks: u32,
    pub time: f64,
    pub weight: f64,
}

impl Variant {
    /// `ranks x time`.
    pub fn area(&self) -> f64 {
        self.ranks as f64 * self.time
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Job {
    pub name: String,
    pub variants: Vec<Variant>,
    /// Earliest start (0 when the whole set is available at once, as in the source).
    pub release: f64,
}

impl Job {
    /// `w^k / max_k w^k` (1 when every weight is 0).
    pub fn relative_weight(&self, k: usize) -> f64 {
        let max = self.variants.iter().fold(0.0f64, |a, v| a.max(v.weight));
        if max <= 0.0 {
            1.0
        } else {
            self.variants[k].weight / max
        }
    }
    /// The variant heuristics use: the first of largest weight among those that fit on `n`
    /// machines (so a set meets any efficiency constraint with it).
    pub fn preferred(&self, n: u32) -> u32 {
        let mut best: Option<usize> = None;
        for (k, v) in self.variants.iter().enumerate() {
            if v.ranks > n {
                continue;
            }
            if best.is_none_or(|b| v.weight > self.variants[b].weight) {
                best = Some(k);
            }
        }
        best.unwrap_or(0) as u32
    }
}

/// A validated job set.
#[derive(Debug, Clone, PartialEq)]
pub struct Instance {
    pub machines: u32,
    pub jobs: Vec<Job>,
    /// The efficiency constraint `w`, if any.
    pub efficiency: Option<f64>,
    /// The optimum makespan when known (guillotine instances).
    pub optimum: Option<f64>,
}

impl Instance {
    /// Rigid jobs `J0, J1, ...` of `(ranks, time)` on `machines`, released at 0, weight 1, no
    /// constraint (worked cases and tests).
    pub fn rigid(machines: u32, jobs: &[(u32, f64)]) -> Instance {
        Instance {
            machines,
            jobs: jobs
                .iter()
                .enumerate()
                .map(|(i, &(ranks, time))| Job {
                    name: format!("J{i}"),
                    variants: vec![Variant {
                        ranks,
                        time,
                        weight: 1.0,
                    }],
                    release: 0.0,
                })
                .collect(),
            efficiency: None,
            optimum: None,
        }
    }

    /// The heuristics' choice of variants ([`Job::preferred`]).
    pub fn preferred_variants(&self) -> Vec<u32> {
        self.jobs
            .iter()
            .map(|j| j.preferred(self.machines))
            .collect()
    }
    /// Whether variant `k` of job `i` is admissible on this machine.
    pub fn fits(&self, i: usize, k: u32) -> bool {
        self.jobs[i]
            .variants
            .get(k as usize)
            .is_some_and(|v| v.ranks <= self.machines)
    }
    /// Mean relative weight of a choice of variants.
    pub fn mean_relative_weight(&self, variants: &[u32]) -> f64 {
        let m = self.jobs.len().max(1) as f64;
        let sum: f64 = self
            .jobs
            .iter()
            .zip(variants)
            .map(|(j, &k)| j.relative_weight(k as usize))
            .sum();
        sum / m
    }
    /// Whether a choice meets the efficiency constraint.
    pub fn meets_constraint(&self, variants: &[u32]) -> bool {
        self.efficiency
            .is_none_or(|w| self.mean_relative_weight(variants) >= w - 1e-12)
    }
    /// Makes a choice meet the efficiency constraint: while it does not, the job whose chosen
    /// variant loses the most relative weight (lowest job index among ties) switches to its
    /// preferred variant. Terminates: each step raises one job to relative weight 1.
    ///
    /// # Complexity
    /// `O(m log m)`.
    pub fn repair(&self, variants: &mut [u32]) {
        if self.meets_constraint(variants) {
            return;
        }
        let mut idx: Vec<u32> = (0..self.jobs.len() as u32).collect();
        let rel = |i: u32, v: &[u32]| self.jobs[i as usize].relative_weight(v[i as usize] as usize);
        idx.sort_by(|&a, &b| {
            rel(a, variants)
                .total_cmp(&rel(b, variants))
                .then(a.cmp(&b))
        });
        let w = self.efficiency.unwrap_or(0.0);
        let m = self.jobs.len() as f64;
        let mut sum: f64 = (0..self.jobs.len() as u32).map(|i| rel(i, variants)).sum();
        for i in idx {
            if sum / m >= w - 1e-12 {
                break;
            }
            let before = rel(i, variants);
            variants[i as usize] = self.jobs[i as usize].preferred(self.machines);
            sum += rel(i, variants) - before;
        }
    }
}

/// Where and when one job runs: variant, start, and its machines as runs `(first, count)` in
/// increasing order.
#[derive(Debug, Clone, PartialEq)]
pub struct Placement {
    pub variant: u32,
    pub start: f64,
    pub machines: Vec<(u32, u32)>,
}

/// A complete schedule: one placement per job, in job order.
#[derive(Debug, Clone, PartialEq)]
pub struct Schedule {
    pub placements: Vec<Placement>,
}

impl Schedule {
    /// `T(S) = max(s_i + t_i)` (0 for no jobs).
    pub fn makespan(&self, inst: &Instance) -> f64 {
        self.placements
            .iter()
            .zip(&inst.jobs)
            .map(|(p, j)| p.start + j.variants[p.variant as usize].time)
            .fold(0.0, f64::max)
    }
    /// The chosen variants.
    pub fn variants(&self) -> Vec<u32> {
        self.placements.iter().map(|p| p.variant).collect()
    }
}
