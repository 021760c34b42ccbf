//! SimGrid platform files (version 4.1): read into a resolved description ([`read`]) that the
//! network simulator routes on ([`crate::netsim::Platform::from_simgrid`]), and written from a
//! built platform ([`write`]).
//!
//! # What is read (SimGrid 3.32's semantics, from its parser and routing zones)
//! - `<platform version="4.1">` holding one root `<zone>` or `<cluster>`.
//! - `<zone id routing="Full|Floyd|Dijkstra|DijkstraCache|Cluster|None">`, nested.
//! - `<host id speed core>`, `<router id>`, `<link id bandwidth latency sharing_policy>`:
//!   `SHARED` (the default: one capacity for both directions), `SPLITDUPLEX` (two links
//!   `ID_UP` and `ID_DOWN`, each its own capacity), `FATPIPE` (bounds each flow, never shared).
//! - `<route src dst symmetrical>` with `<link_ctn id direction="UP|DOWN">` (a split-duplex
//!   link needs a direction); symmetrical (the default) also adds the reverse route: the same
//!   links with `UP` and `DOWN` swapped, which the zone lists in reverse order.
//! - `<zoneRoute src dst gw_src gw_dst>` between two child zones; each gateway must lie inside
//!   its zone (which also rules out cyclic zone routes).
//! - `<zone routing="Cluster">` with `<host_link id up down>` and `<backbone>` (a star: a host
//!   goes up its link then the backbone; SimGrid's `StarZone`).
//! - `<cluster id prefix suffix radical speed core bw lat sharing_policy topology
//!   topo_parameters bb_bw bb_lat bb_sharing_policy router_id limiter_link loopback_bw
//!   loopback_lat>`: `FLAT` becomes a star zone of hosts `prefix+radical+suffix`, private links
//!   `ID_link_R` (split-duplex by default: `_UP`, `_DOWN`), the backbone `ID_backbone` and a
//!   router (`router_id`, else `prefix+ID_router+suffix`); a host's route up is limiter, private
//!   link up, backbone; down the reverse. `TORUS` and `FAT_TREE` are SimGrid's torus and
//!   fat-tree zones (links as [`crate::netsim::platform`] names them), `DRAGONFLY` its
//!   dragonfly zone with minimal routing ([`crate::netsim::routed`]).
//! - `<prop>` and `<config>` are ignored.
//!
//! Every error names the file's line and column: malformed XML, unknown tags or attributes,
//! unknown units ([`units`]), duplicate names, routes naming unknown links, hosts or zones,
//! gateways outside their zone, routes defined twice.
//!
//! # Not supported (refused with a message)
//! `bypassRoute`, `<peer>`, `<cabinet>`, traces (`*_file`), `Vivaldi`
//! and `Wifi` zones, `limiter_link` on torus and fat-tree clusters, dragonflies with more groups than routers per
//! chassis (SimGrid's routing indexes out of bounds there), fat trees whose links are
//! not split-duplex.
//!
//! # Complexity
//! Reading is linear in the file's size (streaming, `quick-xml`), plus `O(hosts)` per cluster.

pub mod read;
pub mod units;
pub mod write;

pub use read::parse;

use crate::netsim::FatTreeSpec;

/// A resolved platform: every name is an index.
#[derive(Debug, Clone, Default)]
pub struct SgPlatform {
    /// Hosts, routers and zones, in creation order.
    pub points: Vec<NetPoint>,
    /// Netpoint ids of the hosts, in document order (the simulator's host `i` is `hosts[i]`).
    pub hosts: Vec<u32>,
    /// Every link resource (a split-duplex link is two: `_UP` then `_DOWN`), in creation order.
    pub links: Vec<Link>,
    /// Zones; 0 is the root.
    pub zones: Vec<Zone>,
}

/// A host, router or zone.
#[derive(Debug, Clone)]
pub struct NetPoint {
    pub name: String,
    pub kind: PointKind,
    /// Enclosing zone (`u32::MAX` for the root zone's own point).
    pub zone: u32,
    /// Index among the enclosing zone's vertices (SimGrid's netpoint id).
    pub local: u32,
}

#[derive(Debug, Clone, PartialEq)]
pub enum PointKind {
    Host { speed: f64, cores: u32 },
    Router,
    Zone(u32),
}

/// One link resource.
#[derive(Debug, Clone, PartialEq)]
pub struct Link {
    pub name: String,
    /// Bytes/s.
    pub bandwidth: f64,
    /// Seconds.
    pub latency: f64,
    /// Bounds each flow without being shared.
    pub fatpipe: bool,
}

/// How a zone routes between its vertices.
#[derive(Debug, Clone, PartialEq)]
pub enum Routing {
    Full,
    Floyd,
    Dijkstra,
    /// SimGrid's `StarZone` (`routing="Cluster"` and flat `<cluster>`s).
    Star,
    /// `routing="None"`: every route is empty.
    Empty,
    /// A `TORUS` cluster (its links are made by the simulator, see [`Cluster`]).
    Torus(Vec<u32>),
    /// A `FAT_TREE` cluster.
    FatTree(FatTreeSpec),
    /// A `DRAGONFLY` cluster: groups, blue links, chassis per group, black links, routers
    /// (blades) per chassis, green links, nodes per router.
    Dragonfly([u32; 7]),
}

/// The regular links of a torus or fat-tree cluster.
#[derive(Debug, Clone, PartialEq)]
pub struct Cluster {
    pub bandwidth: f64,
    pub latency: f64,
    /// `SHARED` or `FATPIPE` (torus only): one link for both directions (SimGrid 3.32 makes
    /// them all `SHARED`, so `fatpipe` is false).
    pub shared: bool,
    pub fatpipe: bool,
    /// Per host (in zone order): its loopback link (a [`Link`] id), if the cluster has one.
    pub loopback: Vec<u32>,
    /// Dragonfly: bandwidth of the limiter links of hosts and routers (0: none).
    pub limiter: f64,
}

/// A route as a zone stores it.
#[derive(Debug, Clone, PartialEq)]
pub struct Route {
    /// Local vertex ids (for a zone route: the child zones' points).
    pub src: u32,
    pub dst: u32,
    /// Netpoint ids of the gateways (zone routes only).
    pub gw: Option<(u32, u32)>,
    /// Link ids in the order given.
    pub links: Vec<u32>,
    /// Symmetrical: the links of the reverse route, `UP`/`DOWN` swapped, in the order given
    /// (the zone reverses them).
    pub back: Option<Vec<u32>>,
    /// Where it was declared (line, column).
    pub at: (u32, u32),
}

/// A star zone's routes of one vertex.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct StarRoutes {
    pub up: Vec<u32>,
    pub down: Vec<u32>,
    pub loopback: Option<Vec<u32>>,
}

#[derive(Debug, Clone)]
pub struct Zone {
    pub name: String,
    pub routing: Routing,
    /// This zone's own netpoint.
    pub point: u32,
    pub parent: Option<u32>,
    /// Netpoint ids by local id.
    pub vertices: Vec<u32>,
    /// Full / Floyd / Dijkstra routes in declaration order.
    pub routes: Vec<Route>,
    /// Star zones: by local id.
    pub star: Vec<StarRoutes>,
    /// Torus / fat-tree clusters.
    pub cluster: Option<Cluster>,
    /// Where it was declared (line, column).
    pub at: (u32, u32),
}

impl SgPlatform {
    /// The name of host `h` (`h < hosts.len()`).
    pub fn host_name(&self, h: u32) -> &str {
        &self.points[self.hosts[h as usize] as usize].name
    }
}
