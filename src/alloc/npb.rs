//! Traffic profiles of the NPB 3.3-MPI kernels, for the run-time-under-contention model
//! ([`super::runtime`]): per kernel and class, the communication pattern and the bytes each
//! process sends per second of run time, with the paper's Table 1 baseline beside them.
//!
//! # Where the figures come from
//! - **Pattern**: the kernels' MPI calls, the subject of Faraj & Yuan, "Communication
//!   characteristics in the NAS parallel benchmarks" (PDCS 2002; only its abstract was at hand)
//!   and known from the NPB reports and sources (Bailey et al., RNR-94-007): IS and FT exchange their data with
//!   `MPI_Alltoall(v)` (all-to-all); MG, LU, BT and SP exchange faces of their sub-domains with
//!   neighbours; CG exchanges vector segments with the processes of its row and column (sparse;
//!   modelled as neighbours plus the reduction tree, as `comm: "neighbor"` does); EP only reduces
//!   a few numbers at the end (no traffic). These are the allocation engine's `comm` patterns
//!   (`all`, `neighbor`, `none`).
//! - **Bytes per second per process**: the volume each kernel must move, derived by us from the
//!   problem sizes of the NPB 3.3 classes (the published class tables: keys, grid sizes,
//!   iterations), divided by the run time that the paper's Table 1 measured on Tianhe-1A and by
//!   the number of processes: no published table of bytes per process for these classes and
//!   sizes was found. They are estimates of the order of magnitude (within a factor of about 2),
//!   not measurements; each derivation is beside its row in [`PROFILES`].
//!   IS: every key (4 B) crosses the all-to-all once per iteration, 10 iterations.
//!   FT: one 3D transpose (16 B complex per grid point) per FFT, iterations + 1 FFTs.
//!   CG: per mat-vec about `16 * na * sqrt(p)` bytes for the whole job, 26 mat-vecs per outer
//!   iteration. MG: about 4 face exchanges of 8 B per point per level, levels summing to 4/3 of
//!   the finest. LU: 3 exchanges of 5 doubles per boundary point of the 2D decomposition per
//!   iteration. BT and SP: multipartition face copies and solver sweeps, about `1000 n^2 sqrt(p)`
//!   (BT) and `600 n^2 sqrt(p)` (SP) bytes per iteration.
//! - **Baseline** (s): Table 1 of Zhang & Lin (sequential allocation on the shared Tianhe-1A
//!   subsystem): class A with 4 processes, B with 16, C with 64.

use super::metrics::Comm;

/// One kernel of one class.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Profile {
    /// `EP`, `IS`, `FT`, `CG`, `MG`, `LU`, `BT`, `SP`.
    pub kernel: &'static str,
    /// `A`, `B` or `C`.
    pub class: char,
    /// Processes the paper ran the class with.
    pub processes: u64,
    /// The traffic pattern (the allocation engine's `comm`).
    pub comm: Comm,
    /// Bytes each process sends per second of run time.
    pub bytes_per_second: f64,
    /// The paper's Table 1 time (s) with sequential allocation.
    pub paper_baseline: f64,
}

const fn p(
    kernel: &'static str,
    class: char,
    comm: Comm,
    bytes_per_second: f64,
    paper_baseline: f64,
) -> Profile {
    let processes = match class {
        'A' => 4,
        'B' => 16,
        _ => 64,
    };
    Profile {
        kernel,
        class,
        processes,
        comm,
        bytes_per_second,
        paper_baseline,
    }
}

/// Every kernel and class of the paper's Table 1 (module doc: sources and derivations).
pub static PROFILES: [Profile; 24] = [
    // EP: a handful of MPI_Allreduce of 10 doubles at the end: nothing per second.
    p("EP", 'A', Comm::None, 0.0, 2.332),
    p("EP", 'B', Comm::None, 0.0, 2.458),
    p("EP", 'C', Comm::None, 0.0, 2.452),
    // IS: 10 * 4 B * keys (A 2^23, B 2^25, C 2^27) = 0.34, 1.34, 5.37 GB.
    p("IS", 'A', Comm::All, 306e6, 0.274),
    p("IS", 'B', Comm::All, 191e6, 0.440),
    p("IS", 'C', Comm::All, 84e6, 1.000),
    // FT: (iterations + 1) * 16 B * points (A 256x256x128, 6 it; B 512x256x256, 20; C 512^3,
    // 20) = 0.94, 11.3, 45 GB.
    p("FT", 'A', Comm::All, 153e6, 1.534),
    p("FT", 'B', Comm::All, 96e6, 7.354),
    p("FT", 'C', Comm::All, 53e6, 13.300),
    // CG: 16 * na * sqrt(p) * 26 * niter (na 14000/75000/150000, niter 15/75/75)
    // = 0.17, 9.4, 37 GB.
    p("CG", 'A', Comm::Neighbor, 85e6, 0.514),
    p("CG", 'B', Comm::Neighbor, 65e6, 8.942),
    p("CG", 'C', Comm::Neighbor, 63e6, 9.218),
    // MG: 4 * 6 faces * 8 B * (n^2 / p^(2/3)) * 4/3 per process per iteration (256^3 4 it,
    // 256^3 20 it, 512^3 20 it) = 0.11, 0.85, 5.4 GB.
    p("MG", 'A', Comm::Neighbor, 39e6, 0.680),
    p("MG", 'B', Comm::Neighbor, 42e6, 1.242),
    p("MG", 'C', Comm::Neighbor, 33e6, 2.530),
    // LU: 3 * 4 sides * (n / sqrt p) * n * 40 B per process per iteration, 250 iterations
    // (n 64/102/162) = 0.98, 5.0, 25 GB.
    p("LU", 'A', Comm::Neighbor, 16e6, 15.424),
    p("LU", 'B', Comm::Neighbor, 15e6, 20.956),
    p("LU", 'C', Comm::Neighbor, 14e6, 28.362),
    // BT: 1000 n^2 sqrt(p) per iteration, 200 iterations = 1.6, 8.3, 42 GB.
    p("BT", 'A', Comm::Neighbor, 20e6, 20.284),
    p("BT", 'B', Comm::Neighbor, 21e6, 24.704),
    p("BT", 'C', Comm::Neighbor, 25e6, 25.858),
    // SP: 600 n^2 sqrt(p) per iteration, 400 iterations = 2.0, 10, 50 GB.
    p("SP", 'A', Comm::Neighbor, 26e6, 18.916),
    p("SP", 'B', Comm::Neighbor, 19e6, 32.408),
    p("SP", 'C', Comm::Neighbor, 24e6, 31.888),
];

/// The profile named `"IS.C"` (kernel, a dot, class), or `None`.
pub fn profile(name: &str) -> Option<&'static Profile> {
    let (k, c) = name.split_once('.')?;
    let mut cs = c.chars();
    let class = cs.next()?;
    if cs.next().is_some() {
        return None;
    }
    PROFILES.iter().find(|p| p.kernel == k && p.class == class)
}

/// Every profile's name, for error messages.
pub fn names() -> String {
    PROFILES
        .iter()
        .map(|p| format!("{}.{}", p.kernel, p.class))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_1_averages_match_the_paper() {
        for (class, avg) in [('A', 7.494), ('B', 12.313), ('C', 14.326)] {
            let v: Vec<f64> = PROFILES
                .iter()
                .filter(|p| p.class == class)
                .map(|p| p.paper_baseline)
                .collect();
            let mean = v.iter().sum::<f64>() / v.len() as f64;
            assert!((mean - avg).abs() < 1e-3, "{class}: {mean}");
        }
    }

    #[test]
    fn profiles_are_found_by_name_and_ep_sends_nothing() {
        assert_eq!(profile("IS.C").unwrap().processes, 64);
        assert_eq!(profile("EP.A").unwrap().bytes_per_second, 0.0);
        assert!(profile("IS").is_none() && profile("IS.D").is_none() && profile("IS.CC").is_none());
    }
}
