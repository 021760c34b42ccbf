//! Platforms: hosts, switches and directed links, and SimGrid's deterministic routes.
//!
//! Link ids are *directed*: every physical link is two directed links (`2k` and `2k + 1`),
//! each with its own bandwidth when the platform is split-duplex (SimGrid's `SPLITDUPLEX`, the
//! default of its cluster zones), or both mapped to one shared capacity
//! ([`Platform::build_shared`], SimGrid's `SHARED`).
//!
//! - Tori (`torus2d`, `torus3d`): SimGrid's `TorusZone`. Host `i = x0 + d0 * (x1 + d1 * x2)`.
//!   Host `i` owns one physical link per dimension `j`, to its `+1` neighbour in `j` (wrapping),
//!   physical id `i * dims + j`; directed `2k` goes from `i` to the neighbour (SimGrid's `_UP`),
//!   `2k + 1` back (`_DOWN`). Routing: dimension order (0 first); in dimension `j` with side `d`,
//!   source coordinate `s` and target `t` (the *source's* coordinates decide, as in SimGrid),
//!   go up (`+1`) when `s < t <= s + d/2`, or when `s > d/2` and `(s + d/2) mod d >= t`,
//!   otherwise down. That is the shorter way; on an even side a half-way target goes up, except
//!   from `s = d/2` to `t = 0`, which goes down.
//! - Meshes (`mesh2d`, `mesh3d`): the same numbering and links without the wrapping ones
//!   (physical ids are dense, in the order host, then dimension), dimension-order routing.
//!   SimGrid has no mesh cluster; the rules are the torus ones without wrap-around.
//! - Trees: SimGrid's `FatTreeZone` (see [`super::fattree`]). Vertices: hosts `0..n`, then
//!   switches level by level; physical link `k` is SimGrid's `k`-th created link, directed
//!   `2k` up (child to parent), `2k + 1` down.
//! - Imported SimGrid platform files ([`Platform::from_simgrid`], [`super::routed`]): one id
//!   per SimGrid link resource (a split-duplex link is two, `_UP` and `_DOWN`; a shared link is
//!   one used both ways), each with its own bandwidth, latency and sharing; the vertices are
//!   the hosts (routers and switches are not drawn), and [`LinkInfo`] of every link is
//!   `0 -> 0`.

use super::fattree::{BuiltTree, FatTreeSpec};
use super::routed::Routed;
use super::{LinkParams, System};
use crate::formats::simgrid::SgPlatform;

/// Largest number of hosts of a torus or mesh.
pub const MAX_GRID_HOSTS: u64 = 1 << 20;

/// What a directed link joins, for drawings (heat maps) and reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LinkInfo {
    /// Vertex the link leaves (hosts are `0..hosts`, switches follow).
    pub from: u32,
    /// Vertex the link enters.
    pub to: u32,
    /// Torus/mesh: the dimension (0, 1, 2). Tree: the level of the lower end (0 = host to leaf
    /// switch).
    pub dim: u8,
    /// Torus/mesh: `true` when it goes towards `+1` (`_UP`). Tree: `true` for child to parent.
    pub up: bool,
    /// Torus: the link closes the ring (between coordinate `d - 1` and `0`).
    pub wrap: bool,
}

#[derive(Debug, Clone)]
enum Kind {
    Grid {
        dims: Vec<u32>,
        wrap: bool,
        /// Mesh: physical id of (host * ndims + j), `u32::MAX` when absent. Empty on a torus.
        dense: Vec<u32>,
    },
    Tree(Box<BuiltTree>),
    /// Read from a SimGrid platform file ([`super::routed`]).
    Routed(Box<Routed>),
}

/// A built platform: hosts, switches, directed links with bandwidth and latency, routes.
#[derive(Debug, Clone)]
pub struct Platform {
    kind: Kind,
    system: System,
    link: LinkParams,
    shared: bool,
    hosts: u32,
    vertices: u32,
    info: Vec<LinkInfo>,
}

/// Per-link values of an imported platform (the built ones share one [`LinkParams`]).
pub(crate) struct PerLink<'a> {
    pub bandwidth: &'a [f64],
    pub latency: &'a [f64],
    pub fatpipe: &'a [bool],
}

impl Platform {
    /// Builds `sys` with every link of bandwidth `link.bandwidth` (bytes/s) and latency
    /// `link.latency` (s), split-duplex.
    ///
    /// # Errors
    /// A zero side, a bad tree, a platform over the size limits, or a bandwidth that is not
    /// positive / a latency that is negative or not finite.
    pub fn build(sys: &System, link: LinkParams) -> Result<Platform, String> {
        Self::build_inner(sys, link, false)
    }

    /// As [`Platform::build`] with SimGrid's `SHARED` links: both directions of a physical
    /// link share one capacity (a flow's ACKs then load its own link).
    ///
    /// # Errors
    /// As [`Platform::build`].
    pub fn build_shared(sys: &System, link: LinkParams) -> Result<Platform, String> {
        Self::build_inner(sys, link, true)
    }

    fn build_inner(sys: &System, link: LinkParams, shared: bool) -> Result<Platform, String> {
        if !(link.bandwidth.is_finite() && link.bandwidth > 0.0) {
            return Err(format!(
                "link bandwidth must be a positive number of bytes/s, got {}",
                link.bandwidth
            ));
        }
        if !(link.latency.is_finite() && link.latency >= 0.0) {
            return Err(format!(
                "link latency must be a number of seconds >= 0, got {}",
                link.latency
            ));
        }
        let (dims, wrap) = match sys {
            System::Torus2d { x, y } => (vec![*x, *y], true),
            System::Torus3d { x, y, z } => (vec![*x, *y, *z], true),
            System::Mesh2d { x, y } => (vec![*x, *y], false),
            System::Mesh3d { x, y, z } => (vec![*x, *y, *z], false),
            System::Torus { dims } if !dims.is_empty() => (dims.clone(), true),
            System::Torus { .. } => return Err("a torus needs at least one side".to_string()),
            System::FatTree(spec) => return Self::build_tree(sys, spec, link, shared),
            System::Imported { .. } => {
                return Err("an imported platform is made by Platform::from_simgrid".to_string())
            }
        };
        if dims.contains(&0) {
            return Err(format!("every side must be at least 1, got {dims:?}"));
        }
        let n: u64 = dims.iter().map(|&d| u64::from(d)).product();
        if n > MAX_GRID_HOSTS {
            return Err(format!(
                "the system has {n} hosts, at most {MAX_GRID_HOSTS} are supported"
            ));
        }
        let n = n as u32;
        let nd = dims.len() as u32;
        let mut info = Vec::new();
        let mut dense = Vec::new();
        if !wrap {
            dense = vec![u32::MAX; (n * nd) as usize];
        }
        let mut stride = 1u32;
        let mut strides = Vec::new();
        for &d in &dims {
            strides.push(stride);
            stride *= d;
        }
        for i in 0..n {
            for j in 0..nd as usize {
                let d = dims[j];
                let c = (i / strides[j]) % d;
                let last = c == d - 1;
                if !wrap && last {
                    continue;
                }
                let nb = if last {
                    i - (d - 1) * strides[j]
                } else {
                    i + strides[j]
                };
                if !wrap {
                    dense[(i * nd) as usize + j] = (info.len() / 2) as u32;
                }
                let base = LinkInfo {
                    from: i,
                    to: nb,
                    dim: j as u8,
                    up: true,
                    wrap: last,
                };
                info.push(base);
                info.push(LinkInfo {
                    from: nb,
                    to: i,
                    up: false,
                    ..base
                });
            }
        }
        Ok(Platform {
            kind: Kind::Grid { dims, wrap, dense },
            system: sys.clone(),
            link,
            shared,
            hosts: n,
            vertices: n,
            info,
        })
    }

    fn build_tree(
        sys: &System,
        spec: &FatTreeSpec,
        link: LinkParams,
        shared: bool,
    ) -> Result<Platform, String> {
        spec.validate()?;
        let t = BuiltTree::build(spec);
        let mut info = Vec::with_capacity(t.links.len() * 2);
        for &(c, p) in &t.links {
            let dim = t.vertices[c as usize].level as u8;
            let base = LinkInfo {
                from: c,
                to: p,
                dim,
                up: true,
                wrap: false,
            };
            info.push(base);
            info.push(LinkInfo {
                from: p,
                to: c,
                up: false,
                ..base
            });
        }
        let hosts = spec.hosts() as u32;
        let vertices = t.vertices.len() as u32;
        Ok(Platform {
            kind: Kind::Tree(Box::new(t)),
            system: sys.clone(),
            link,
            shared,
            hosts,
            vertices,
            info,
        })
    }

    /// A platform read from a SimGrid platform file (see [`crate::formats::simgrid`]); host
    /// `i` is the `i`-th host of the file.
    ///
    /// # Errors
    /// See [`Routed::build`].
    pub fn from_simgrid(sg: SgPlatform) -> Result<Platform, String> {
        let r = Routed::build(sg)?;
        let hosts = r.hosts();
        let n = r.names.len();
        let link = LinkParams {
            bandwidth: r.bw.first().copied().unwrap_or(1.0),
            latency: r.lat.first().copied().unwrap_or(0.0),
        };
        Ok(Platform {
            system: System::Imported { hosts },
            kind: Kind::Routed(Box::new(r)),
            link,
            shared: false,
            hosts,
            vertices: hosts,
            info: vec![
                LinkInfo {
                    from: 0,
                    to: 0,
                    dim: 0,
                    up: true,
                    wrap: false,
                };
                n
            ],
        })
    }

    /// The routing state of an imported platform; `None` on a built one.
    pub fn routed(&self) -> Option<&Routed> {
        match &self.kind {
            Kind::Routed(r) => Some(r),
            _ => None,
        }
    }

    /// Per-link values on an imported platform.
    pub(crate) fn per_link(&self) -> Option<PerLink<'_>> {
        self.routed().map(|r| PerLink {
            bandwidth: &r.bw,
            latency: &r.lat,
            fatpipe: &r.fatpipe,
        })
    }

    /// The system this platform was built from.
    pub fn system(&self) -> &System {
        &self.system
    }
    /// The parameters of every link (an imported platform: its first link's).
    pub fn link_params(&self) -> LinkParams {
        self.link
    }
    /// Whether both directions of a link share one capacity.
    pub fn is_shared(&self) -> bool {
        self.shared
    }
    /// Number of hosts (compute nodes), ids `0..hosts`.
    pub fn hosts(&self) -> u32 {
        self.hosts
    }
    /// Number of vertices: hosts then switches (a torus or mesh has no separate switches).
    pub fn vertices(&self) -> u32 {
        self.vertices
    }
    /// Number of directed links, ids `0..links`.
    pub fn links(&self) -> u32 {
        self.info.len() as u32
    }
    /// What directed link `l` joins. Panics if `l >= links()`.
    pub fn link_info(&self, l: u32) -> LinkInfo {
        self.info[l as usize]
    }
    /// The capacity (sharing constraint) that directed link `l` uses: `l` itself when
    /// split-duplex, `l / 2 * 2` (one per physical link) when shared.
    pub fn capacity_of(&self, l: u32) -> u32 {
        if self.shared {
            l & !1
        } else {
            l
        }
    }

    /// Appends the directed links of SimGrid's route from host `src` to host `dst` to `out`
    /// (nothing when either is not a host). A host's route to itself is empty on a torus or
    /// mesh, and goes up to a leaf switch and back on a tree (SimGrid's fat-tree zone does so).
    ///
    /// # Complexity
    /// `O(hops)` for tori and meshes; `O(levels^2 + hops * ports)` for trees.
    pub fn route(&self, src: u32, dst: u32, out: &mut Vec<u32>) {
        if src >= self.hosts || dst >= self.hosts {
            return;
        }
        match &self.kind {
            Kind::Grid { dims, wrap, dense } => {
                let nd = dims.len();
                let mut stride = 1u32;
                let mut cur = src;
                for (j, &d) in dims.iter().enumerate() {
                    let s = (src / stride) % d;
                    let t = (dst / stride) % d;
                    if s != t {
                        let go_up = if *wrap {
                            (t > s && t <= s + d / 2) || (s > d / 2 && (s + d / 2) % d >= t)
                        } else {
                            t > s
                        };
                        let mut c = s;
                        while c != t {
                            if go_up {
                                let phys = if *wrap {
                                    cur * nd as u32 + j as u32
                                } else {
                                    dense[cur as usize * nd + j]
                                };
                                out.push(2 * phys);
                                if c == d - 1 {
                                    cur -= (d - 1) * stride;
                                    c = 0;
                                } else {
                                    cur += stride;
                                    c += 1;
                                }
                            } else {
                                let next = if c == 0 {
                                    c = d - 1;
                                    cur + (d - 1) * stride
                                } else {
                                    c -= 1;
                                    cur - stride
                                };
                                let phys = if *wrap {
                                    next * nd as u32 + j as u32
                                } else {
                                    dense[next as usize * nd + j]
                                };
                                out.push(2 * phys + 1);
                                cur = next;
                            }
                        }
                    }
                    stride *= d;
                }
            }
            Kind::Tree(t) => t.route_with(src, dst, |k, up| out.push(2 * k + u32::from(!up))),
            Kind::Routed(r) => {
                // Checked when built (up to `routed::CHECK_ALL_PAIRS` hosts); a pair without a
                // route on a larger platform gets no link.
                let start = out.len();
                if r.host_route(src, dst, out).is_err() {
                    out.truncate(start);
                }
            }
        }
    }

    /// Links on the route from `src` to `dst` (0 when either is not a host; see
    /// [`Platform::route`] for a host to itself).
    pub fn hops(&self, src: u32, dst: u32) -> u32 {
        if src >= self.hosts || dst >= self.hosts {
            return 0;
        }
        match &self.kind {
            Kind::Grid { dims, wrap, .. } => {
                let mut stride = 1u32;
                let mut h = 0;
                for &d in dims {
                    let s = (src / stride) % d;
                    let t = (dst / stride) % d;
                    let diff = s.abs_diff(t);
                    h += if *wrap { diff.min(d - diff) } else { diff };
                    stride *= d;
                }
                h
            }
            Kind::Tree(t) => {
                // Lowest level whose subtree (hosts with equal digits from that level up)
                // holds both; the route climbs there and back.
                let down = &t.spec.down;
                let (mut a, mut b) = (src, dst);
                let mut lvl = 0;
                if a == b {
                    return 2;
                }
                while a != b {
                    a /= down[lvl];
                    b /= down[lvl];
                    lvl += 1;
                }
                2 * lvl as u32
            }
            Kind::Routed(r) => {
                let mut v = Vec::new();
                let _ = r.host_route(src, dst, &mut v);
                v.len() as u32
            }
        }
    }

    /// Coordinates `[x, y, z]` of host `h` on a torus or mesh (`z = 0` in 2D); `None` on a
    /// tree, a torus of more than 3 sides, or for a non-host.
    pub fn host_coords(&self, h: u32) -> Option<[u32; 3]> {
        if h >= self.hosts {
            return None;
        }
        match &self.kind {
            Kind::Grid { dims, .. } if dims.len() <= 3 => {
                let mut c = [0u32; 3];
                let mut r = h;
                for (j, &d) in dims.iter().enumerate() {
                    c[j] = r % d;
                    r /= d;
                }
                Some(c)
            }
            Kind::Grid { .. } | Kind::Tree(_) | Kind::Routed(_) => None,
        }
    }

    /// Sides of a torus or mesh (2 or 3 values, any number for [`System::Torus`]); `None` on
    /// a tree.
    pub fn dims(&self) -> Option<&[u32]> {
        match &self.kind {
            Kind::Grid { dims, .. } => Some(dims),
            Kind::Tree(_) | Kind::Routed(_) => None,
        }
    }

    /// The tree's parameters; `None` on a torus or mesh.
    pub fn tree_spec(&self) -> Option<&FatTreeSpec> {
        match &self.kind {
            Kind::Tree(t) => Some(&t.spec),
            Kind::Grid { .. } | Kind::Routed(_) => None,
        }
    }

    /// On a tree: for level `l = 1..=levels`, the index of the level-`l` subtree holding host
    /// `h` (entry `l - 1`). Hosts with equal entry `l - 1` are joined by switches of level `l`
    /// or lower; entry 0 is the leaf switch (`h / down[0]`), the last entry is 0. A subtree of
    /// level `l` holds `down[0] * ... * down[l-1]` hosts ([`Platform::subtree_hosts`]).
    /// `None` on a torus or mesh.
    pub fn tree_path(&self, h: u32) -> Option<Vec<u32>> {
        match &self.kind {
            Kind::Tree(t) if h < self.hosts => {
                let mut out = Vec::with_capacity(t.spec.down.len());
                let mut g = h;
                for &d in &t.spec.down {
                    g /= d;
                    out.push(g);
                }
                Some(out)
            }
            _ => None,
        }
    }

    /// On a tree: hosts under one subtree of level `l` (`l = 0`: 1; `l = levels`: all).
    pub fn subtree_hosts(&self, l: u32) -> Option<u32> {
        match &self.kind {
            Kind::Tree(t) => Some(t.spec.down.iter().take(l as usize).product()),
            Kind::Grid { .. } | Kind::Routed(_) => None,
        }
    }

    /// On a tree: level of vertex `v` (0 for hosts) and its position within the level.
    pub fn tree_vertex(&self, v: u32) -> Option<(u32, u32)> {
        match &self.kind {
            Kind::Tree(t) => t.vertices.get(v as usize).map(|x| (x.level, x.position)),
            Kind::Grid { .. } | Kind::Routed(_) => None,
        }
    }

    /// SimGrid's name of directed link `l` (the torus zone's links are prefixed by the zone
    /// name `zone`; the fat-tree zone's are not; an imported platform's are its own).
    pub fn simgrid_link_name(&self, zone: &str, l: u32) -> String {
        let up = l % 2 == 0;
        match &self.kind {
            Kind::Grid { .. } => {
                let i = self.info[l as usize];
                let (a, b) = if up { (i.from, i.to) } else { (i.to, i.from) };
                format!(
                    "{zone}_link_from_{a}_to_{b}_{}",
                    if up { "UP" } else { "DOWN" }
                )
            }
            Kind::Tree(t) => t.link_name(l / 2, up),
            Kind::Routed(r) => r.link_name(l).to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn torus(x: u32, y: u32, z: u32) -> Platform {
        Platform::build(
            &System::Torus3d { x, y, z },
            LinkParams {
                bandwidth: 1.0,
                latency: 0.0,
            },
        )
        .unwrap()
    }

    fn walk(p: &Platform, s: u32, d: u32) -> Vec<u32> {
        let mut r = Vec::new();
        p.route(s, d, &mut r);
        let mut at = s;
        for &l in &r {
            let i = p.link_info(l);
            assert_eq!(i.from, at, "route {s}->{d} is not a path");
            at = i.to;
        }
        assert_eq!(at, d);
        r
    }

    #[test]
    fn torus_routes_are_shortest_paths_in_dimension_order() {
        for (x, y, z) in [(4, 3, 2), (5, 2, 1), (6, 6, 1), (1, 1, 1), (2, 2, 2)] {
            let p = torus(x, y, z);
            for s in 0..p.hosts() {
                for d in 0..p.hosts() {
                    let r = walk(&p, s, d);
                    assert_eq!(r.len() as u32, p.hops(s, d));
                    let dims: Vec<u8> = r.iter().map(|&l| p.link_info(l).dim).collect();
                    assert!(dims.windows(2).all(|w| w[0] <= w[1]));
                }
            }
        }
    }

    #[test]
    fn torus_half_way_ties_go_up_except_from_the_middle_to_zero() {
        let p = torus(6, 1, 1);
        let mut r = Vec::new();
        p.route(1, 4, &mut r);
        assert!(r.iter().all(|&l| p.link_info(l).up));
        for s in 4..6 {
            r.clear();
            p.route(s, s - 3, &mut r);
            assert!(r.iter().all(|&l| p.link_info(l).up), "{s}");
        }
        r.clear();
        p.route(3, 0, &mut r);
        assert!(r.iter().all(|&l| !p.link_info(l).up));
    }

    #[test]
    fn mesh_routes_never_wrap() {
        let p = Platform::build(
            &System::Mesh2d { x: 4, y: 3 },
            LinkParams {
                bandwidth: 1.0,
                latency: 0.0,
            },
        )
        .unwrap();
        assert_eq!(p.links(), 2 * (3 * 3 + 4 * 2));
        for s in 0..12 {
            for d in 0..12 {
                let r = walk(&p, s, d);
                assert!(r.iter().all(|&l| !p.link_info(l).wrap));
                assert_eq!(r.len() as u32, p.hops(s, d));
            }
        }
    }

    #[test]
    fn refuses_zero_sides_and_bad_links() {
        let ok = LinkParams {
            bandwidth: 1.0,
            latency: 0.0,
        };
        assert!(Platform::build(&System::Torus2d { x: 0, y: 3 }, ok).is_err());
        assert!(Platform::build(
            &System::Torus3d {
                x: 2048,
                y: 2048,
                z: 2
            },
            ok
        )
        .is_err());
        let bad = LinkParams {
            bandwidth: 0.0,
            latency: 0.0,
        };
        assert!(Platform::build(&System::Torus2d { x: 2, y: 3 }, bad).is_err());
        let nan = LinkParams {
            bandwidth: 1.0,
            latency: f64::NAN,
        };
        assert!(Platform::build(&System::Torus2d { x: 2, y: 3 }, nan).is_err());
    }

    #[test]
    fn tree_paths_group_hosts_by_subtree() {
        let spec = super::super::parse_fat_tree("3;2,3,2;1,2,3;1,1,1").unwrap();
        let p = Platform::build(
            &System::FatTree(spec),
            LinkParams {
                bandwidth: 1.0,
                latency: 0.0,
            },
        )
        .unwrap();
        assert_eq!(p.tree_path(7), Some(vec![3, 1, 0]));
        assert_eq!(p.subtree_hosts(2), Some(6));
        for s in 0..12 {
            for d in 0..12 {
                assert_eq!(walk(&p, s, d).len() as u32, p.hops(s, d));
            }
        }
    }
}
