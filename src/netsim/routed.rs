//! Platforms read from SimGrid platform files ([`crate::formats::simgrid`]): every link has its
//! own bandwidth, latency and sharing, and routes are computed as SimGrid 3.32 computes them.
//!
//! # Routes (SimGrid's rules, from its routing zones)
//! - A route between two hosts starts at their lowest common zone: if both are direct
//!   vertices of one zone, that zone's local route; otherwise the local route between the two
//!   child zones holding them gives gateways `gw_src`, `gw_dst` and links, and the whole route
//!   is `route(src, gw_src) + links + route(gw_dst, dst)` (recursively).
//! - `Full`: the declared route (a symmetrical route's reverse lists the links backwards with
//!   `UP`/`DOWN` swapped); none declared: empty. A zone without child zones gives every vertex
//!   without its own route to itself SimGrid's implicit `__loopback__` (FATPIPE, 10 GB/s, 0 s).
//! - `Floyd`: SimGrid's Floyd–Warshall over declared routes weighted by their number of links
//!   (intermediate vertex outermost, strict improvement, so ties keep the earlier path), then
//!   the declared routes along the predecessor chain.
//! - `Dijkstra`: graph nodes in order of first appearance in routes, edges in declaration
//!   order, a priority queue of (cost, node) pairs, strict improvement. SimGrid inserts each
//!   edge's links, reversed, at the *front* of the route it is building, so the zone's part
//!   comes first even when the route entered the zone through a gateway (the fixtures show
//!   it: `s-1 -> w0` of `placelab_mixed.xml` starts with the link into `w0`).
//! - Star (`routing="Cluster"`, flat clusters): the source's links up then the destination's
//!   links down, a link already listed skipped; a host to itself: its loopback if any.
//! - Torus and fat-tree clusters: [`super::Platform::build`]'s routes of the same shape, link
//!   ids mapped; a host to itself: its loopback link if the cluster has one.
//!
//! # Complexity
//! Build: `O(v^3)` per Floyd zone of `v` vertices (at most [`MAX_FLOYD`]), `O(v e log v)` per
//! Dijkstra zone (all sources; at most [`MAX_DIJKSTRA`] vertices), `O(links + routes)` else.
//! A route: `O(zones on the way + links)` plus the cluster's own routing.

use super::platform::Platform;
use super::{LinkParams, System};
use crate::formats::simgrid::{PointKind, Routing, SgPlatform, StarRoutes};
use std::cmp::Reverse;
use std::collections::{btree_map, BTreeMap, BinaryHeap};

/// Largest Floyd zone (vertices): the all-pairs computation is cubic.
pub const MAX_FLOYD: usize = 1024;
/// Largest Dijkstra zone (vertices): predecessors of every source are kept.
pub const MAX_DIJKSTRA: usize = 4096;
/// Up to this many hosts, building checks that every host pair has a route.
pub const CHECK_ALL_PAIRS: u32 = 1024;

#[derive(Debug, Clone)]
struct Entry {
    links: Vec<u32>,
    gw: Option<(u32, u32)>,
}

#[derive(Debug, Clone)]
enum Table {
    Full(BTreeMap<(u32, u32), Entry>),
    Floyd {
        n: usize,
        pred: Vec<i64>,
        entries: BTreeMap<(u32, u32), Entry>,
    },
    Dijkstra {
        /// Local vertex -> graph node (`u32::MAX`: in no route).
        node_of: Vec<u32>,
        /// Every edge, in declaration order.
        edges: Vec<Entry>,
        /// Per node: (target node, edge id) in declaration order (SimGrid's out-edges; its
        /// edge lookup takes the first one to a target).
        adj: Vec<Vec<(u32, u32)>>,
        /// Per source node: predecessor of every node.
        pred: Vec<Vec<u32>>,
    },
    Star(Vec<StarRoutes>),
    Empty,
    Dragonfly(Box<Dragonfly>),
    Cluster {
        inner: Box<Platform>,
        /// Id of the cluster's first link.
        base: u32,
        shared: bool,
        loopback: Vec<u32>,
    },
}

/// A dragonfly cluster's links (SimGrid's `DragonflyZone`), as link ids.
#[derive(Debug, Clone)]
struct Dragonfly {
    /// groups, blue, chassis, black, routers per chassis, green, nodes per router.
    p: [u32; 7],
    /// Per router: link to each of its nodes (up) and back (down).
    node_up: Vec<Vec<u32>>,
    node_down: Vec<Vec<u32>>,
    /// Per router: green link to router `k` of its chassis, black link to chassis `k` of its
    /// group (`u32::MAX` for itself), blue link (`u32::MAX`: none).
    green: Vec<Vec<u32>>,
    black: Vec<Vec<u32>>,
    blue: Vec<u32>,
    router_limiter: Vec<Option<u32>>,
    host_limiter: Vec<Option<u32>>,
    loopback: Vec<u32>,
}

impl Dragonfly {
    fn router(&self, group: u32, chassis: u32, blade: u32) -> usize {
        let [_, _, c, _, b, _, _] = self.p;
        (group * c * b + chassis * b + blade) as usize
    }

    /// SimGrid's minimal routing (`DragonflyZone::get_local_route`), step for step: the
    /// routers it moves to are indexed as SimGrid indexes them.
    fn route(&self, s: u32, d: u32, out: &mut Vec<u32>) {
        if s == d && !self.loopback.is_empty() {
            out.push(self.loopback[s as usize]);
            return;
        }
        let [_, _, c, _, b, _, n] = self.p;
        let coords = |r: u32| {
            (
                r / (c * b * n),
                (r % (c * b * n)) / (b * n),
                (r % (b * n)) / n,
                r % n,
            )
        };
        // A router's (group, chassis, blade) from its index.
        let at = |r: usize| {
            let r = r as u32;
            (r / (c * b), (r % (c * b)) / b, r % b)
        };
        let (sg, sc, sb, sn) = coords(s);
        let (tg, tc, tb, tn) = coords(d);
        let my = self.router(sg, sc, sb);
        let target = self.router(tg, tc, tb);
        let lim = |r: usize, out: &mut Vec<u32>| {
            if let Some(l) = self.router_limiter[r] {
                out.push(l);
            }
        };
        if let Some(l) = self.host_limiter[s as usize] {
            out.push(l);
        }
        out.push(self.node_up[my][sn as usize]);
        if target != my {
            let mut cur = my;
            if at(cur).0 != tg {
                if at(cur).2 != tg {
                    lim(cur, out);
                    out.push(self.green[cur][tg as usize]);
                    cur = self.router(sg, sc, tg);
                }
                if at(cur).1 != 0 {
                    lim(cur, out);
                    out.push(self.black[cur][0]);
                    cur = (sg * c * b + tg) as usize;
                }
                out.push(self.blue[cur]);
                lim(cur, out);
                cur = (tg * c * b + sg) as usize;
            }
            if at(cur).2 != tb {
                lim(cur, out);
                out.push(self.green[cur][tb as usize]);
                cur = (tg * c * b + tb) as usize;
            }
            if at(cur).1 != tc {
                lim(cur, out);
                out.push(self.black[cur][tc as usize]);
            }
        }
        lim(target, out);
        out.push(self.node_down[target][tn as usize]);
        if let Some(l) = self.host_limiter[d as usize] {
            out.push(l);
        }
    }
}

/// The routing state of an imported platform.
#[derive(Debug, Clone)]
pub struct Routed {
    pub(crate) sg: SgPlatform,
    /// Per link: name, bandwidth, latency, FATPIPE.
    pub(crate) names: Vec<String>,
    pub(crate) bw: Vec<f64>,
    pub(crate) lat: Vec<f64>,
    pub(crate) fatpipe: Vec<bool>,
    tables: Vec<Table>,
    recursive: Vec<bool>,
}

impl Routed {
    /// Builds the routing tables of `sg`.
    ///
    /// # Errors
    /// A zone too large for its algorithm, a plain route in a zone holding zones, a bad
    /// link value, or (up to [`CHECK_ALL_PAIRS`] hosts) a host pair without a route.
    pub fn build(sg: SgPlatform) -> Result<Routed, String> {
        let mut names: Vec<String> = sg.links.iter().map(|l| l.name.clone()).collect();
        let mut bw: Vec<f64> = sg.links.iter().map(|l| l.bandwidth).collect();
        let mut lat: Vec<f64> = sg.links.iter().map(|l| l.latency).collect();
        let mut fatpipe: Vec<bool> = sg.links.iter().map(|l| l.fatpipe).collect();
        for (i, l) in sg.links.iter().enumerate() {
            if !(l.bandwidth.is_finite() && l.bandwidth > 0.0) {
                return Err(format!(
                    "link {:?}: bandwidth must be positive, got {}",
                    l.name, l.bandwidth
                ));
            }
            if !(l.latency.is_finite() && l.latency >= 0.0) {
                return Err(format!(
                    "link {:?}: latency must be >= 0, got {}",
                    l.name, l.latency
                ));
            }
            let _ = i;
        }
        let recursive: Vec<bool> = (0..sg.zones.len())
            .map(|z| {
                sg.zones[z]
                    .vertices
                    .iter()
                    .any(|&v| matches!(sg.points[v as usize].kind, PointKind::Zone(_)))
            })
            .collect();
        let mut loopback: Option<u32> = None;
        let mut implicit_loopback = |names: &mut Vec<String>,
                                     bw: &mut Vec<f64>,
                                     lat: &mut Vec<f64>,
                                     fatpipe: &mut Vec<bool>|
         -> u32 {
            *loopback.get_or_insert_with(|| {
                names.push("__loopback__".to_string());
                bw.push(10e9);
                lat.push(0.0);
                fatpipe.push(true);
                (names.len() - 1) as u32
            })
        };
        let mut tables = Vec::with_capacity(sg.zones.len());
        // SimGrid numbers dragonfly links with one counter for the whole run.
        let mut dragonfly_id = 0u64;
        for (zi, z) in sg.zones.iter().enumerate() {
            let n = z.vertices.len();
            let at = |r: &crate::formats::simgrid::Route| format!("line {}:{}", r.at.0, r.at.1);
            if recursive[zi] {
                if let Some(r) = z.routes.iter().find(|r| r.gw.is_none()) {
                    return Err(format!(
                        "{}: zone {:?} holds zones, so it routes only between zones \
                         (<zoneRoute>), not between hosts or routers",
                        at(r),
                        z.name
                    ));
                }
            }
            // Forward and reverse entries, as the zone stores them.
            let mut declared: Vec<(u32, u32, Entry)> = Vec::new();
            for r in &z.routes {
                declared.push((
                    r.src,
                    r.dst,
                    Entry {
                        links: r.links.clone(),
                        gw: r.gw,
                    },
                ));
                if let Some(b) = &r.back {
                    declared.push((
                        r.dst,
                        r.src,
                        Entry {
                            links: b.iter().rev().copied().collect(),
                            gw: r.gw.map(|(a, b)| (b, a)),
                        },
                    ));
                }
            }
            let base_mode = !recursive[zi];
            let t = match &z.routing {
                Routing::Full => {
                    let mut m = BTreeMap::new();
                    for (s, d, e) in declared {
                        m.insert((s, d), e);
                    }
                    if base_mode {
                        for i in 0..n as u32 {
                            if let btree_map::Entry::Vacant(slot) = m.entry((i, i)) {
                                let l =
                                    implicit_loopback(&mut names, &mut bw, &mut lat, &mut fatpipe);
                                slot.insert(Entry {
                                    links: vec![l],
                                    gw: None,
                                });
                            }
                        }
                    }
                    Table::Full(m)
                }
                Routing::Floyd => {
                    if n > MAX_FLOYD {
                        return Err(format!(
                            "Floyd zone {:?} has {n} vertices, at most {MAX_FLOYD} are supported",
                            z.name
                        ));
                    }
                    let mut cost = vec![u64::MAX; n * n];
                    let mut pred = vec![-1i64; n * n];
                    let mut entries = BTreeMap::new();
                    for (s, d, e) in declared {
                        let k = s as usize * n + d as usize;
                        cost[k] = e.links.len() as u64;
                        pred[k] = i64::from(s);
                        entries.insert((s, d), e);
                    }
                    if base_mode {
                        for i in 0..n {
                            if let btree_map::Entry::Vacant(slot) =
                                entries.entry((i as u32, i as u32))
                            {
                                let l =
                                    implicit_loopback(&mut names, &mut bw, &mut lat, &mut fatpipe);
                                slot.insert(Entry {
                                    links: vec![l],
                                    gw: None,
                                });
                                pred[i * n + i] = i as i64;
                                cost[i * n + i] = 1;
                            }
                        }
                    }
                    for c in 0..n {
                        for a in 0..n {
                            let ac = cost[a * n + c];
                            if ac == u64::MAX {
                                continue;
                            }
                            for b in 0..n {
                                let cb = cost[c * n + b];
                                if cb < u64::MAX {
                                    let ab = cost[a * n + b];
                                    if ab == u64::MAX || ac + cb < ab {
                                        cost[a * n + b] = ac + cb;
                                        pred[a * n + b] = pred[c * n + b];
                                    }
                                }
                            }
                        }
                    }
                    Table::Floyd { n, pred, entries }
                }
                Routing::Dijkstra => {
                    if n > MAX_DIJKSTRA {
                        return Err(format!(
                            "Dijkstra zone {:?} has {n} vertices, at most {MAX_DIJKSTRA} are supported",
                            z.name
                        ));
                    }
                    let mut node_of = vec![u32::MAX; n];
                    let mut nodes: Vec<u32> = Vec::new();
                    let mut adj: Vec<Vec<(u32, u32)>> = Vec::new();
                    let mut edges: Vec<Entry> = Vec::new();
                    let mut node =
                        |v: u32, node_of: &mut Vec<u32>, adj: &mut Vec<Vec<(u32, u32)>>| {
                            if node_of[v as usize] == u32::MAX {
                                node_of[v as usize] = nodes.len() as u32;
                                nodes.push(v);
                                adj.push(Vec::new());
                            }
                            node_of[v as usize]
                        };
                    for (s, d, e) in declared {
                        let a = node(s, &mut node_of, &mut adj);
                        let b = node(d, &mut node_of, &mut adj);
                        adj[a as usize].push((b, edges.len() as u32));
                        edges.push(e);
                    }
                    let nn = adj.len();
                    if base_mode {
                        for v in 0..nn as u32 {
                            if !adj[v as usize].iter().any(|&(t, _)| t == v) {
                                let l =
                                    implicit_loopback(&mut names, &mut bw, &mut lat, &mut fatpipe);
                                adj[v as usize].push((v, edges.len() as u32));
                                edges.push(Entry {
                                    links: vec![l],
                                    gw: None,
                                });
                            }
                        }
                    }
                    let mut pred = Vec::with_capacity(nn);
                    for src in 0..nn {
                        let mut cost = vec![u64::MAX; nn];
                        cost[src] = 0;
                        let mut p = vec![0u32; nn];
                        let mut q = BinaryHeap::new();
                        for (i, &c) in cost.iter().enumerate() {
                            q.push(Reverse((c, i as u32)));
                        }
                        while let Some(Reverse((_, v))) = q.pop() {
                            let cv = cost[v as usize];
                            for &(u, e) in &adj[v as usize] {
                                let w = edges[e as usize].links.len() as u64;
                                // SimGrid's unsigned arithmetic, wrap-around included.
                                let c = w.wrapping_add(cv);
                                if c < cost[u as usize] {
                                    p[u as usize] = v;
                                    cost[u as usize] = c;
                                    q.push(Reverse((c, u)));
                                }
                            }
                        }
                        pred.push(p);
                    }
                    Table::Dijkstra {
                        node_of,
                        edges,
                        adj,
                        pred,
                    }
                }
                Routing::Star => Table::Star(z.star.clone()),
                Routing::Empty => Table::Empty,
                Routing::Dragonfly(p) => {
                    let c = z.cluster.as_ref().expect("a cluster zone has its links");
                    // Limiters: latency 0, as SimGrid makes them.
                    let mut add = |name: String, bandwidth: f64| {
                        names.push(name);
                        bw.push(bandwidth);
                        lat.push(0.0);
                        fatpipe.push(false);
                        (names.len() - 1) as u32
                    };
                    let [g, _, ch, _, bl, _, nodes] = *p;
                    let [_, n_blue, _, n_black, _, n_green, _] = *p;
                    let hosts = (g * ch * bl * nodes) as usize;
                    let routers = (g * ch * bl) as usize;
                    let mut host_limiter = vec![None; hosts];
                    let mut router_limiter = vec![None; routers];
                    if c.limiter > 0.0 {
                        for (i, h) in host_limiter.iter_mut().enumerate() {
                            *h = Some(add(format!("{}_link_{i}_limiter", z.name), c.limiter));
                        }
                        // SimGrid numbers router limiters down from 2 * hosts - 1.
                        let mut id = 2 * hosts;
                        for r in router_limiter.iter_mut() {
                            id -= 1;
                            *r = Some(add(format!("{}_link_{id}_limiter", z.name), c.limiter));
                        }
                    }
                    // A link, split-duplex (UP, DOWN) or shared (one).
                    let pair = |id: String,
                                k: u32,
                                names: &mut Vec<String>,
                                bw: &mut Vec<f64>,
                                lat: &mut Vec<f64>,
                                fatpipe: &mut Vec<bool>| {
                        let mut one = |name: String| {
                            names.push(name);
                            bw.push(c.bandwidth * f64::from(k));
                            lat.push(c.latency);
                            fatpipe.push(false);
                            (names.len() - 1) as u32
                        };
                        if c.shared {
                            let l = one(id);
                            (l, l)
                        } else {
                            (one(format!("{id}_UP")), one(format!("{id}_DOWN")))
                        }
                    };
                    let mut df = Dragonfly {
                        p: *p,
                        node_up: vec![Vec::new(); routers],
                        node_down: vec![Vec::new(); routers],
                        green: vec![vec![u32::MAX; bl as usize]; routers],
                        black: vec![vec![u32::MAX; ch as usize]; routers],
                        blue: vec![u32::MAX; routers],
                        router_limiter,
                        host_limiter,
                        loopback: c.loopback.clone(),
                    };
                    for r in 0..routers {
                        for j in 0..nodes {
                            let (u, d) = pair(
                                format!("local_link_from_router_{r}_to_node_{j}_{dragonfly_id}"),
                                1,
                                &mut names,
                                &mut bw,
                                &mut lat,
                                &mut fatpipe,
                            );
                            df.node_up[r].push(u);
                            df.node_down[r].push(d);
                            dragonfly_id += 1;
                        }
                    }
                    for i in 0..g * ch {
                        for j in 0..bl {
                            for k in j + 1..bl {
                                let (u, d) = pair(
                                    format!("green_link_in_chassis_{}_between_routers_{j}_and_{k}_{dragonfly_id}", i % ch),
                                    n_green, &mut names, &mut bw, &mut lat, &mut fatpipe,
                                );
                                df.green[(i * bl + j) as usize][k as usize] = u;
                                df.green[(i * bl + k) as usize][j as usize] = d;
                                dragonfly_id += 1;
                            }
                        }
                    }
                    for i in 0..g {
                        for j in 0..ch {
                            for k in j + 1..ch {
                                for l in 0..bl {
                                    let (u, d) = pair(
                                        format!("black_link_in_group_{i}_between_chassis_{j}_and_{k}_blade_{l}_{dragonfly_id}"),
                                        n_black, &mut names, &mut bw, &mut lat, &mut fatpipe,
                                    );
                                    df.black[(i * bl * ch + j * bl + l) as usize][k as usize] = u;
                                    df.black[(i * bl * ch + k * bl + l) as usize][j as usize] = d;
                                    dragonfly_id += 1;
                                }
                            }
                        }
                    }
                    for i in 0..g {
                        for j in i + 1..g {
                            let (ri, rj) = (i * bl * ch + j, j * bl * ch + i);
                            let (u, d) = pair(
                                format!("blue_link_between_group_{i}_and_{j}_routers_{ri}_and_{rj}_{dragonfly_id}"),
                                n_blue, &mut names, &mut bw, &mut lat, &mut fatpipe,
                            );
                            df.blue[ri as usize] = u;
                            df.blue[rj as usize] = d;
                            dragonfly_id += 1;
                        }
                    }
                    Table::Dragonfly(Box::new(df))
                }
                Routing::Torus(_) | Routing::FatTree(_) => {
                    let c = z.cluster.as_ref().expect("a cluster zone has its links");
                    let sys = match &z.routing {
                        Routing::Torus(d) if d.len() == 2 => System::Torus2d { x: d[0], y: d[1] },
                        Routing::Torus(d) if d.len() == 3 => System::Torus3d {
                            x: d[0],
                            y: d[1],
                            z: d[2],
                        },
                        Routing::Torus(d) => System::Torus { dims: d.clone() },
                        Routing::FatTree(s) => System::FatTree(s.clone()),
                        _ => unreachable!(),
                    };
                    let lp = LinkParams {
                        bandwidth: c.bandwidth,
                        latency: c.latency,
                    };
                    let inner = Platform::build(&sys, lp)
                        .map_err(|e| format!("cluster {:?}: {e}", z.name))?;
                    let base = names.len() as u32;
                    for l in 0..inner.links() {
                        if c.shared && l % 2 == 1 {
                            continue;
                        }
                        let mut name = inner.simgrid_link_name(&z.name, l);
                        if c.shared {
                            name.truncate(name.len() - "_UP".len());
                        }
                        names.push(name);
                        bw.push(c.bandwidth);
                        lat.push(c.latency);
                        fatpipe.push(c.fatpipe);
                    }
                    Table::Cluster {
                        inner: Box::new(inner),
                        base,
                        shared: c.shared,
                        loopback: c.loopback.clone(),
                    }
                }
            };
            tables.push(t);
        }
        let r = Routed {
            sg,
            names,
            bw,
            lat,
            fatpipe,
            tables,
            recursive,
        };
        let h = r.sg.hosts.len() as u32;
        if h <= CHECK_ALL_PAIRS {
            let mut out = Vec::new();
            for s in 0..h {
                for d in 0..h {
                    out.clear();
                    r.host_route(s, d, &mut out)?;
                }
            }
        }
        Ok(r)
    }

    /// Number of hosts.
    pub fn hosts(&self) -> u32 {
        self.sg.hosts.len() as u32
    }

    /// The imported description.
    pub fn description(&self) -> &SgPlatform {
        &self.sg
    }

    /// SimGrid's name of link `l`.
    pub fn link_name(&self, l: u32) -> &str {
        &self.names[l as usize]
    }

    /// Appends the links of the route from host `s` to host `d`.
    ///
    /// # Errors
    /// No route (a Floyd or Dijkstra zone without a path, a zone route missing its gateways).
    pub fn host_route(&self, s: u32, d: u32, out: &mut Vec<u32>) -> Result<(), String> {
        self.global(self.sg.hosts[s as usize], self.sg.hosts[d as usize], out, 0)
    }

    fn global(&self, src: u32, dst: u32, out: &mut Vec<u32>, depth: u32) -> Result<(), String> {
        if depth > 64 {
            return Err("zone routes nest too deep".to_string());
        }
        let pts = &self.sg.points;
        let chain = |p: u32| {
            let mut v = Vec::new();
            let mut z = pts[p as usize].zone;
            loop {
                v.push(z);
                match self.sg.zones[z as usize].parent {
                    Some(q) => z = q,
                    None => break,
                }
            }
            v
        };
        let (common, sa, da) = if pts[src as usize].zone == pts[dst as usize].zone {
            let z = pts[src as usize].zone;
            (z, z, z)
        } else {
            let (mut ps, mut pd) = (chain(src), chain(dst));
            let mut parent = None;
            while ps.len() > 1 && pd.len() > 1 && ps.last() == pd.last() {
                parent = ps.pop();
                pd.pop();
            }
            let (sa, da) = (*ps.last().unwrap(), *pd.last().unwrap());
            if sa == da {
                (sa, sa, da)
            } else {
                (parent.expect("one root"), sa, da)
            }
        };
        if sa == da {
            if pts[src as usize].zone != common || pts[dst as usize].zone != common {
                // SimGrid stops on an internal check here.
                return Err(format!(
                    "no route from {:?} to {:?}: one is in zone {:?} itself, the other inside a \
                     zone it holds (put hosts in leaf zones and join zones by zoneRoutes)",
                    pts[src as usize].name,
                    pts[dst as usize].name,
                    self.sg.zones[common as usize].name
                ));
            }
            self.local(
                common,
                pts[src as usize].local,
                pts[dst as usize].local,
                out,
            )?;
            return Ok(());
        }
        let zs = &self.sg.zones;
        let (a, b) = (
            pts[zs[sa as usize].point as usize].local,
            pts[zs[da as usize].point as usize].local,
        );
        let mut mid = Vec::new();
        let gw = self.local(common, a, b, &mut mid)?;
        let Some((gs, gd)) = gw else {
            return Err(format!(
                "no route from {:?} to {:?}: zone {:?} has no zoneRoute from {:?} to {:?}",
                pts[src as usize].name,
                pts[dst as usize].name,
                zs[common as usize].name,
                zs[sa as usize].name,
                zs[da as usize].name
            ));
        };
        if src != gs {
            self.global(src, gs, out, depth + 1)?;
        }
        out.extend_from_slice(&mid);
        if gd != dst {
            self.global(gd, dst, out, depth + 1)?;
        }
        Ok(())
    }

    /// Zone `z`'s route between its vertices `s` and `d`; returns its gateways if any.
    fn local(
        &self,
        z: u32,
        s: u32,
        d: u32,
        out: &mut Vec<u32>,
    ) -> Result<Option<(u32, u32)>, String> {
        let zone = &self.sg.zones[z as usize];
        let name = |v: u32| &self.sg.points[zone.vertices[v as usize] as usize].name;
        let no_route = || {
            format!(
                "no route from {:?} to {:?} in zone {:?}",
                name(s),
                name(d),
                zone.name
            )
        };
        match &self.tables[z as usize] {
            Table::Full(m) => Ok(m.get(&(s, d)).and_then(|e| {
                out.extend_from_slice(&e.links);
                e.gw
            })),
            Table::Floyd { n, pred, entries } => {
                let mut stack = Vec::new();
                let mut cur = d;
                loop {
                    let p = pred[s as usize * n + cur as usize];
                    if p < 0 {
                        return Err(no_route());
                    }
                    stack.push(&entries[&(p as u32, cur)]);
                    cur = p as u32;
                    if cur == s {
                        break;
                    }
                }
                let rec = self.recursive[z as usize];
                let gw = if rec {
                    match (stack.last().unwrap().gw, stack.first().unwrap().gw) {
                        (Some((a, _)), Some((_, b))) => Some((a, b)),
                        _ => None,
                    }
                } else {
                    None
                };
                let mut prev: Option<u32> = None;
                while let Some(e) = stack.pop() {
                    if rec {
                        if let (Some(p), Some((gs, _))) = (prev, e.gw) {
                            if p != gs {
                                self.global(p, gs, out, 1)?; // depth: see `global`
                            }
                        }
                    }
                    out.extend_from_slice(&e.links);
                    prev = e.gw.map(|g| g.1);
                }
                Ok(gw)
            }
            Table::Dijkstra {
                node_of,
                edges,
                adj,
                pred,
            } => {
                let edge = |u: u32, v: u32| {
                    adj[u as usize]
                        .iter()
                        .find(|&&(t, _)| t == v)
                        .map(|&(_, e)| &edges[e as usize])
                };
                let (a, b) = (node_of[s as usize], node_of[d as usize]);
                if a == u32::MAX || b == u32::MAX {
                    return Err(no_route());
                }
                let mut segs: Vec<&Entry> = Vec::new();
                if a == b {
                    segs.push(edge(a, a).ok_or_else(no_route)?);
                }
                let p = &pred[a as usize];
                let mut v = b;
                let mut guard = 0usize;
                while v != a {
                    let u = p[v as usize];
                    segs.push(edge(u, v).ok_or_else(no_route)?);
                    v = u;
                    guard += 1;
                    if guard > p.len() {
                        return Err(no_route());
                    }
                }
                // Walked from the destination; each edge's links land reversed in front.
                let first_gw = if a == b {
                    None
                } else {
                    segs.first().and_then(|e| e.gw)
                };
                let last_gw = segs.last().and_then(|e| e.gw);
                // SimGrid inserts them at the front of the route it is given, which is the
                // whole route built so far when this zone is the common one.
                let seq = segs
                    .iter()
                    .rev()
                    .flat_map(|e| e.links.iter().rev().copied());
                if out.is_empty() {
                    out.extend(seq);
                } else {
                    let seq: Vec<u32> = seq.collect();
                    out.splice(0..0, seq);
                }
                Ok(if self.recursive[z as usize] {
                    match (last_gw, first_gw) {
                        (Some((gs, _)), Some((_, gd))) => Some((gs, gd)),
                        _ => None,
                    }
                } else {
                    None
                })
            }
            Table::Star(st) => {
                let (rs, rd) = (&st[s as usize], &st[d as usize]);
                let start = out.len();
                let push = |l: u32, out: &mut Vec<u32>| {
                    if !out[start..].contains(&l) {
                        out.push(l);
                    }
                };
                if s == d {
                    if let Some(lb) = &rs.loopback {
                        for &l in lb {
                            push(l, out);
                        }
                        return Ok(None);
                    }
                }
                for &l in rs.up.iter().chain(&rd.down) {
                    push(l, out);
                }
                Ok(None)
            }
            Table::Empty => Ok(None),
            Table::Dragonfly(df) => {
                df.route(s, d, out);
                Ok(None)
            }
            Table::Cluster {
                inner,
                base,
                shared,
                loopback,
            } => {
                if s == d && !loopback.is_empty() {
                    out.push(loopback[s as usize]);
                    return Ok(None);
                }
                let start = out.len();
                inner.route(s, d, out);
                for l in &mut out[start..] {
                    *l = base + if *shared { *l / 2 } else { *l };
                }
                Ok(None)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::formats::simgrid::parse;
    use crate::netsim::Platform;

    fn build(xml: &str) -> Result<Platform, String> {
        Platform::from_simgrid(parse(xml, "t.xml")?)
    }

    fn hosts(n: usize) -> String {
        (0..n)
            .map(|i| format!("<host id=\"h{i}\" speed=\"1Gf\"/>"))
            .collect()
    }

    #[test]
    fn floyd_and_dijkstra_refuse_missing_routes() {
        for routing in ["Floyd", "Dijkstra"] {
            let xml = format!(
                "<platform version=\"4.1\"><zone id=\"z\" routing=\"{routing}\">{}\
                 <link id=\"l\" bandwidth=\"1GBps\"/>\
                 <route src=\"h0\" dst=\"h1\"><link_ctn id=\"l\"/></route></zone></platform>",
                hosts(3)
            );
            let e = build(&xml).unwrap_err();
            assert!(
                e.contains("no route from \"h0\" to \"h2\" in zone \"z\""),
                "{e}"
            );
        }
    }

    #[test]
    fn a_zone_of_zones_needs_zone_routes() {
        let xml = "<platform version=\"4.1\"><zone id=\"r\" routing=\"Full\">\
            <zone id=\"x\" routing=\"Full\"><host id=\"a\" speed=\"1Gf\"/></zone>\
            <host id=\"b\" speed=\"1Gf\"/><host id=\"c\" speed=\"1Gf\"/>\
            <link id=\"l\" bandwidth=\"1GBps\"/>\
            <route src=\"b\" dst=\"c\"><link_ctn id=\"l\"/></route></zone></platform>";
        let e = build(xml).unwrap_err();
        assert!(
            e.contains("line 1:") && e.contains("routes only between zones"),
            "{e}"
        );
        let missing = "<platform version=\"4.1\"><zone id=\"r\" routing=\"Full\">\
            <zone id=\"x\" routing=\"Full\"><host id=\"a\" speed=\"1Gf\"/></zone>\
            <zone id=\"y\" routing=\"Full\"><host id=\"b\" speed=\"1Gf\"/></zone></zone></platform>";
        let e = build(missing).unwrap_err();
        assert!(e.contains("has no zoneRoute from \"x\" to \"y\""), "{e}");
    }

    #[test]
    fn a_host_beside_child_zones_has_no_route_into_them() {
        let xml = "<platform version=\"4.1\"><zone id=\"r\" routing=\"Floyd\">\
            <zone id=\"x\" routing=\"Full\"><host id=\"a\" speed=\"1Gf\"/></zone>\
            <host id=\"b\" speed=\"1Gf\"/></zone></platform>";
        let e = build(xml).unwrap_err();
        assert!(e.contains("one is in zone \"r\" itself"), "{e}");
    }

    /// Every file of the fixtures with one character removed (at many places), or cut short:
    /// reading and building give a result or an error, never a panic.
    #[test]
    fn damaged_files_never_panic() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/simgrid-xml");
        let mut tried = 0;
        for f in [
            "small_platform",
            "cluster_multi",
            "routing_cluster",
            "placelab_mixed",
            "placelab_dragonfly",
            "cluster_torus",
        ] {
            let text = std::fs::read_to_string(format!("{dir}/{f}.xml")).unwrap();
            let idx: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
            for (k, &i) in idx.iter().enumerate().step_by(7) {
                let next = idx.get(k + 1).copied().unwrap_or(text.len());
                for damaged in [
                    format!("{}{}", &text[..i], &text[next..]),
                    text[..i].to_string(),
                ] {
                    if let Ok(sg) = parse(&damaged, "d.xml") {
                        let _ = Platform::from_simgrid(sg);
                    }
                    tried += 1;
                }
            }
        }
        assert!(tried > 1000, "{tried}");
    }

    #[test]
    fn floyd_zones_have_a_size_limit() {
        let xml = format!(
            "<platform version=\"4.1\"><zone id=\"z\" routing=\"Floyd\">{}</zone></platform>",
            hosts(super::MAX_FLOYD + 1)
        );
        assert!(build(&xml).unwrap_err().contains("at most 1024"));
    }

    /// Floyd against a brute-force shortest path count on a ring with chords: every route is
    /// a path of the fewest links.
    #[test]
    fn floyd_and_dijkstra_routes_are_shortest() {
        let n = 7;
        let mut body = hosts(n);
        let mut edges = Vec::new();
        for i in 0..n {
            edges.push((i, (i + 1) % n));
        }
        edges.push((0, 3));
        for (k, (a, b)) in edges.iter().enumerate() {
            body += &format!(
                "<link id=\"l{k}\" bandwidth=\"1GBps\"/>\
                 <route src=\"h{a}\" dst=\"h{b}\"><link_ctn id=\"l{k}\"/></route>"
            );
        }
        // Brute force: BFS distances.
        let mut dist = vec![vec![usize::MAX; n]; n];
        for (s, row) in dist.iter_mut().enumerate() {
            row[s] = 0;
            let mut q = std::collections::VecDeque::from([s]);
            while let Some(v) = q.pop_front() {
                for &(a, b) in &edges {
                    for (x, y) in [(a, b), (b, a)] {
                        if x == v && row[y] == usize::MAX {
                            row[y] = row[v] + 1;
                            q.push_back(y);
                        }
                    }
                }
            }
        }
        for routing in ["Floyd", "Dijkstra", "DijkstraCache"] {
            let p = build(&format!(
                "<platform version=\"4.1\"><zone id=\"z\" routing=\"{routing}\">{body}</zone></platform>"
            ))
            .unwrap();
            for s in 0..n as u32 {
                for d in 0..n as u32 {
                    if s != d {
                        assert_eq!(
                            p.hops(s, d) as usize,
                            dist[s as usize][d as usize],
                            "{routing} {s}->{d}"
                        );
                    }
                }
            }
        }
    }
}
