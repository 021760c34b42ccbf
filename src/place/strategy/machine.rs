//! What every strategy reads: the machine's [`Shape`], its curve ([`curve_rank`]) and the
//! [`Options`] they share.

/// The six orders of three axes: which job axis lies along each machine axis (Identity's block
/// and the fold start try each).
pub const AXIS_PERMS: [[usize; 3]; 6] = [
    [0, 1, 2],
    [1, 0, 2],
    [0, 2, 1],
    [2, 0, 1],
    [1, 2, 0],
    [2, 1, 0],
];

/// The machine as the strategies see it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shape {
    /// A torus or mesh `dims[0] x dims[1] x dims[2]` (`dims[2] = 1` in 2D); node
    /// `x + dims[0] * (y + dims[1] * z)`.
    Grid { dims: [u32; 3], wrap: bool },
    /// A k-ary n-tree: `down[l]` children per switch of level `l` (level 0 holds the hosts);
    /// hosts `[j * B, (j + 1) * B)` lie under the same level-`l` switch group, `B` the product
    /// of `down[0..=l]`.
    Tree { down: Vec<u32> },
}

impl Shape {
    /// Number of hosts.
    pub fn hosts(&self) -> u32 {
        match self {
            Shape::Grid { dims, .. } => dims[0] * dims[1] * dims[2],
            Shape::Tree { down } => down.iter().product(),
        }
    }
    /// Hops between hosts `a` and `b` of a grid by dimension-order routing (the shorter way
    /// around each ring of a torus).
    pub fn grid_hops(dims: [u32; 3], wrap: bool, a: u32, b: u32) -> u32 {
        let (ca, cb) = (Self::coords(dims, a), Self::coords(dims, b));
        (0..3)
            .map(|k| {
                let d = ca[k].abs_diff(cb[k]);
                if wrap {
                    d.min(dims[k] - d)
                } else {
                    d
                }
            })
            .sum()
    }
    /// Coordinates of host `h` on a grid.
    pub fn coords(dims: [u32; 3], h: u32) -> [u32; 3] {
        [
            h % dims[0],
            (h / dims[0]) % dims[1],
            h / (dims[0] * dims[1]),
        ]
    }
}

/// Options shared by the strategies.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Options {
    pub seed: u64,
    /// Reproduce the source's half shuffle and power-of-two 3D Hilbert curve.
    pub source_quirks: bool,
    /// What Mapped (ours) minimizes.
    pub objective: super::Objective,
    /// Bytes per message per unit of edge weight, and the network model: Mapped's prediction
    /// of a round's time among placements of near-equal hop-bytes.
    pub message_bytes: f64,
    pub model: Option<crate::netsim::Model>,
}

/// Positions of every host along the machine's curve: the generalized Hilbert curve on grids
/// (or the source's power-of-two curve in 3D with `quirks`), the numbering on trees.
pub fn curve_rank(shape: &Shape, quirks: bool) -> Vec<u32> {
    match shape {
        Shape::Grid { dims, .. } if dims[2] == 1 => {
            crate::topology::hilbert::hilbert_rank(dims[0] as usize, dims[1] as usize)
        }
        Shape::Grid { dims, .. } => {
            if quirks {
                let c = crate::topology::hilbert3d::hilbert3d_pow2(dims[0], dims[1], dims[2]);
                let mut rank = vec![0u32; c.len()];
                for (k, p) in c.iter().enumerate() {
                    rank[(p[0] + dims[0] * (p[1] + dims[1] * p[2])) as usize] = k as u32;
                }
                rank
            } else {
                crate::topology::hilbert3d::hilbert3d_rank(dims[0], dims[1], dims[2])
            }
        }
        Shape::Tree { .. } => (0..shape.hosts()).collect(),
    }
}
