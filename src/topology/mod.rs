//! Machines: compute nodes, routers, links and the deterministic routes between nodes.
//!
//! - [`mesh`]: 2D mesh `k1 x k2`, one router per node, XY (dimension-order) routing.
//! - [`tree`]: trees with one arity per level, leaves are nodes, up/down routing.
//! - [`hilbert`]: the generalized Hilbert curve (gilbert) used to order mesh nodes.
//! - [`hilbert3d`]: its 3D counterpart for any cuboid (placement engine, torus3d/mesh3d).

pub mod hilbert;
pub mod hilbert3d;
pub mod mesh;
pub mod tree;

pub use mesh::Mesh;
pub use tree::Tree;

/// A machine whose jobs the allocation engine places.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Topology {
    Mesh(Mesh),
    Tree(Tree),
}

impl Topology {
    /// Number of compute nodes `N`.
    pub fn nodes(&self) -> usize {
        match self {
            Topology::Mesh(m) => m.nodes(),
            Topology::Tree(t) => t.nodes(),
        }
    }
    /// Number of routers (switches).
    pub fn routers(&self) -> usize {
        match self {
            Topology::Mesh(m) => m.nodes(),
            Topology::Tree(t) => t.routers(),
        }
    }
    /// Number of links between routers (mesh) or between any two vertices (tree).
    pub fn links(&self) -> usize {
        match self {
            Topology::Mesh(m) => m.links(),
            Topology::Tree(t) => t.links(),
        }
    }
    /// Hops of the route between nodes `a` and `b` (links traversed between routers; 0 if `a == b`).
    pub fn hops(&self, a: usize, b: usize) -> usize {
        match self {
            Topology::Mesh(m) => m.hops(a, b),
            Topology::Tree(t) => t.hops(a, b),
        }
    }
    /// Routers and links on the route from `a` to `b`, appended to the two vectors.
    pub fn route(&self, a: usize, b: usize, routers: &mut Vec<u32>, links: &mut Vec<u32>) {
        match self {
            Topology::Mesh(m) => m.route(a, b, routers, links),
            Topology::Tree(t) => t.route(a, b, routers, links),
        }
    }
}
