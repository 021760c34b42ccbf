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
    /// Any other network (a torus of more than 3 sides, a dragonfly, a SimGrid platform
    /// file), seen through its routes: hosts numbered so that every `down[0]` consecutive hosts
    /// form a group, every `down[1]` consecutive groups a group of the next level, and so on
    /// (a dragonfly's routers, chassis and groups; a torus's rings, planes, ...; a file's hosts
    /// one group), and the simulator's route length between every two hosts ([`HopTable`]).
    Net { down: Vec<u32>, hops: HopTable },
}

/// Route lengths (links) between every ordered pair of hosts of a platform, `hosts^2` of them,
/// saturating at `u16::MAX`; empty until [`HopTable::of`] fills it from the built platform (the
/// scenario's checks do not need it).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HopTable(std::sync::Arc<[u16]>);

impl HopTable {
    /// The route lengths of every host pair of `p`.
    ///
    /// # Complexity
    /// `hosts^2` routes.
    pub fn of(p: &crate::netsim::Platform) -> HopTable {
        let n = p.hosts();
        let mut t = Vec::with_capacity(n as usize * n as usize);
        let mut route = Vec::new();
        for a in 0..n {
            for b in 0..n {
                if a == b {
                    t.push(0);
                    continue;
                }
                let hops = if p.routed().is_some() {
                    route.clear();
                    p.route(a, b, &mut route);
                    route.len() as u32
                } else {
                    // a built torus: its route length in closed form
                    p.hops(a, b)
                };
                t.push(u16::try_from(hops).unwrap_or(u16::MAX));
            }
        }
        HopTable(t.into())
    }
    /// Links from `a` to `b` (0 when `a == b`).
    #[inline]
    pub fn get(&self, hosts: u32, a: u32, b: u32) -> u32 {
        u32::from(self.0[(a * hosts + b) as usize])
    }
    /// Whether the table is filled.
    pub fn is_filled(&self) -> bool {
        !self.0.is_empty()
    }
}

impl Shape {
    /// Number of hosts.
    pub fn hosts(&self) -> u32 {
        match self {
            Shape::Grid { dims, .. } => dims[0] * dims[1] * dims[2],
            Shape::Tree { down } | Shape::Net { down, .. } => down.iter().product(),
        }
    }
    /// The same machine with its route lengths from the built platform `p` (a [`Shape::Net`];
    /// the others are returned as they are).
    pub fn with_routes(&self, p: &crate::netsim::Platform) -> Shape {
        match self {
            Shape::Net { down, hops } if !hops.is_filled() => Shape::Net {
                down: down.clone(),
                hops: HopTable::of(p),
            },
            other => other.clone(),
        }
    }
    /// Sizes of the host groups of each level of a tree or network (`size[l]` hosts under one
    /// group of level `l`, the last the whole machine); empty on a grid.
    pub fn group_sizes(&self) -> Vec<u32> {
        match self {
            Shape::Grid { .. } => Vec::new(),
            Shape::Tree { down } | Shape::Net { down, .. } => down
                .iter()
                .scan(1u32, |s, &d| {
                    *s *= d;
                    Some(*s)
                })
                .collect(),
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
/// (or the source's power-of-two curve in 3D with `quirks`), the numbering on trees and other
/// networks.
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
        Shape::Tree { .. } | Shape::Net { .. } => (0..shape.hosts()).collect(),
    }
}
