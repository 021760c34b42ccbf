//! The network's parameters: the interconnect ([`System`]), its links ([`LinkParams`]) and how
//! flows share them ([`Model`], see [`super`]).

use super::fattree::FatTreeSpec;

/// A machine's interconnect.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum System {
    Torus2d {
        x: u32,
        y: u32,
    },
    Torus3d {
        x: u32,
        y: u32,
        z: u32,
    },
    Mesh2d {
        x: u32,
        y: u32,
    },
    Mesh3d {
        x: u32,
        y: u32,
        z: u32,
    },
    /// A torus of any number of sides (SimGrid's `TorusZone`, e.g. the 5 of a Blue Gene/Q or
    /// the 6 of Fugaku's Tofu): the numbering, links and routes of the 2D and 3D ones.
    Torus {
        dims: Vec<u32>,
    },
    /// Fat or thin tree (thin when some `up < down`).
    FatTree(FatTreeSpec),
    /// Read from a SimGrid platform file ([`super::Platform::from_simgrid`]); only that
    /// constructor makes it ([`super::Platform::build`] refuses it).
    Imported {
        hosts: u32,
    },
}

/// Every link's bandwidth (bytes/s) and latency (s).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LinkParams {
    pub bandwidth: f64,
    pub latency: f64,
}

impl LinkParams {
    /// The source's links: 125 MB/s (1 Gbit/s), 50 us.
    pub const SOURCE: LinkParams = LinkParams {
        bandwidth: 125e6,
        latency: 50e-6,
    };
}

crate::params::choices! {
    /// How flows share links (module doc); its id (`"max-min"`, `"simgrid-lv08"`) is what
    /// scenarios and `placelab netsim --model` write.
    pub enum Model {
        MaxMin = ("max-min", "Plain max-min"),
        SimgridLv08 = ("simgrid-lv08", "SimGrid LV08 (default model)"),
    }
}
