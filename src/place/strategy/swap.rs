//! Swap-based local search for task mappings: moves and pairwise swaps that lower the
//! objective, until none does or the work budget is spent.
//!
//! The neighbourhood (in the manner of the communication neighbourhood of multilevel process
//! mapping, made geometric): for a task `u`, the candidate hosts are the hosts of `u`'s task-graph
//! neighbours and the hosts *near* them ([`Metric::near`]: the one-hop neighbours on a torus or
//! mesh, the hosts under the same leaf switch on a tree). A candidate host is skipped when busy
//! (another job's); when free, `u` may move there; when it holds task `t`, `u` and `t` may swap.
//! The best strictly improving candidate of `u` is applied (ties to the first found, candidates in
//! a fixed order), and `u`, `t` and their neighbours are queued again.
//!
//! # Invariants
//! Every task stays on exactly one host, no host gets two tasks, busy hosts are never used
//! (each move keeps `task_at` and `host_of` inverse); the objective never increases (only
//! strictly improving steps are applied, the gains computed exactly in integers).
//!
//! # Objectives
//! - hop-bytes: `sum over edges of w(u,v) * hops(host u, host v)` (half the report's hop-bytes in
//!   units of `messageBytes`: the report counts both directions). Gain of swapping `u` (at `a`)
//!   and `t` (at `b`): `sum_{v in N(u), v != t} w (d(b, h_v) - d(a, h_v)) + sum_{v in N(t), v !=
//!   u} w (d(a, h_v) - d(b, h_v))` (the edge `u-t`, if any, keeps its length).
//! - link load: `sum over directed links of load^2`, a link's load the volume of the messages
//!   routed over it (both directions of every edge, by the simulator's routes): lowering the sum
//!   of squares spreads traffic off the most loaded links; the maximum (the congestion) is what
//!   the caller compares.
//!
//! # Complexity
//! One evaluation of a task costs `O(C (deg u + deg t))` for `C <= MAX_CANDIDATES` candidate
//! hosts (hop-bytes), times the route lengths for link load. The search stops after `budget`
//! units of that work (counted in adjacency entries read), so it is bounded whatever the input.

use crate::graph::Graph;
use crate::netsim::Platform;

use super::Shape;

/// Most candidate hosts examined per task and step.
pub const MAX_CANDIDATES: usize = 96;

const NONE: u32 = u32::MAX;

/// Hop distances and nearby hosts of a machine, precomputed for the search.
pub struct Metric {
    kind: MetricKind,
    hosts: u32,
    /// Whether `hops(a, b) == hops(b, a)` for every pair (grids and trees; a network when its
    /// routes each way are equally long).
    symmetric: bool,
}

enum MetricKind {
    Grid {
        dims: [u32; 3],
        wrap: bool,
        coords: Vec<[u16; 3]>,
    },
    Tree {
        /// `size[l]`: hosts under one group of level `l` (`size[0] = down[0]`).
        size: Vec<u32>,
        /// Per host its digits in the mixed radix of the levels' arities (`host = d_0 +
        /// size[0] * d_1 + size[1] * d_2 + ...`), each in a bit field of its own, level 0 lowest.
        key: Vec<u64>,
        /// Per bit position of a key, the hops between two hosts whose keys differ highest there:
        /// `2 * (l + 1)` for the field of level `l`.
        hops_at: [u8; 64],
    },
    Net {
        hops: super::machine::HopTable,
        /// The fewest links between two distinct hosts.
        least: u32,
        /// Per host its [`NET_NEAR`] nearest hosts (fewest links, then lowest id).
        near: Vec<u32>,
    },
}

/// Hosts [`Metric::near`] gives on a [`Shape::Net`].
pub const NET_NEAR: usize = 12;

impl Metric {
    pub fn new(shape: &Shape) -> Metric {
        let hosts = shape.hosts();
        let kind = match shape {
            Shape::Grid { dims, wrap } => MetricKind::Grid {
                dims: *dims,
                wrap: *wrap,
                coords: (0..hosts)
                    .map(|h| {
                        let c = Shape::coords(*dims, h);
                        [c[0] as u16, c[1] as u16, c[2] as u16]
                    })
                    .collect(),
            },
            Shape::Tree { down } => {
                let (key, hops_at) = tree_keys(down, hosts);
                MetricKind::Tree {
                    size: shape.group_sizes(),
                    key,
                    hops_at,
                }
            }
            Shape::Net { hops, .. } => {
                let k = NET_NEAR.min(hosts.saturating_sub(1) as usize);
                let mut near = Vec::with_capacity(hosts as usize * k);
                let mut least = u32::MAX;
                let mut row: Vec<(u32, u32)> = Vec::with_capacity(hosts as usize);
                for h in 0..hosts {
                    row.clear();
                    row.extend(
                        (0..hosts)
                            .filter(|&x| x != h)
                            .map(|x| (hops.get(hosts, h, x), x)),
                    );
                    if k > 0 {
                        row.select_nth_unstable(k - 1);
                        row[..k].sort_unstable();
                        least = least.min(row[0].0);
                    }
                    near.extend(row[..k].iter().map(|&(_, x)| x));
                }
                MetricKind::Net {
                    hops: hops.clone(),
                    least: if least == u32::MAX { 1 } else { least },
                    near,
                }
            }
        };
        let symmetric = match &kind {
            MetricKind::Net { hops, .. } => {
                (0..hosts).all(|a| (0..a).all(|b| hops.get(hosts, a, b) == hops.get(hosts, b, a)))
            }
            _ => true,
        };
        Metric {
            kind,
            hosts,
            symmetric,
        }
    }

    /// Whether every route is as long as the route back. Only then are the search's gains
    /// exact changes of [`Metric::hop_weight`] (which counts each edge from its lower task): on
    /// other networks the search follows the routes from the moving task, and a caller recounts.
    pub fn is_symmetric(&self) -> bool {
        self.symmetric
    }

    /// Hosts of the machine.
    pub fn hosts(&self) -> u32 {
        self.hosts
    }

    /// Links on the route between two distinct hosts (the simulator's route length).
    #[inline(always)]
    pub fn hops(&self, a: u32, b: u32) -> u32 {
        with_hops!(self, h => h.hops(a, b))
    }

    /// The fewest links between two distinct hosts: 1 on a grid, 2 on a tree (up to a leaf
    /// switch and down), the least in the route table on another network, so `min_hops * total edge weight` bounds hop-bytes from below.
    pub fn min_hops(&self) -> u32 {
        match &self.kind {
            MetricKind::Grid { .. } => 1,
            MetricKind::Tree { .. } => 2,
            MetricKind::Net { least, .. } => *least,
        }
    }

    /// Appends the hosts near `h` (not `h` itself): its one-hop neighbours on a grid, the other
    /// hosts of its leaf switch on a tree, its [`NET_NEAR`] nearest on another network.
    pub fn near(&self, h: u32, out: &mut Vec<u32>) {
        match &self.kind {
            MetricKind::Grid { dims, wrap, coords } => {
                let c = coords[h as usize];
                let mut stride = 1u32;
                for k in 0..3 {
                    let d = dims[k];
                    let x = u32::from(c[k]);
                    if d > 1 {
                        if x + 1 < d {
                            out.push(h + stride);
                        } else if *wrap && d > 2 {
                            out.push(h - x * stride);
                        }
                        if x > 0 {
                            out.push(h - stride);
                        } else if *wrap && d > 2 {
                            out.push(h + (d - 1) * stride);
                        }
                    }
                    stride *= d;
                }
            }
            MetricKind::Tree { size, .. } => {
                let s = size[0];
                let first = h / s * s;
                out.extend((first..first + s).filter(|&x| x != h));
            }
            MetricKind::Net { near, .. } => {
                let k = near.len() / self.hosts as usize;
                out.extend_from_slice(&near[h as usize * k..(h as usize + 1) * k]);
            }
        }
    }

    /// Appends the hosts within `radius` of `h` (not `h` itself; some may repeat): on a grid
    /// the hosts up to `radius` hops away (on another network the nearest of the nearest,
    /// `radius` times), on a tree the other hosts under the same switch of
    /// level `radius - 1` (the leaf switch for 1).
    pub fn near_within(&self, h: u32, radius: u32, out: &mut Vec<u32>) {
        match &self.kind {
            MetricKind::Grid { .. } | MetricKind::Net { .. } => {
                let start = out.len();
                self.near(h, out);
                let mut layer = start..out.len();
                for _ in 1..radius {
                    let end = out.len();
                    for i in layer {
                        let x = out[i];
                        self.near(x, out);
                    }
                    layer = end..out.len();
                }
            }
            MetricKind::Tree { size, .. } => {
                let s = size[(radius as usize).clamp(1, size.len()) - 1];
                let first = h / s * s;
                out.extend((first..first + s).filter(|&x| x != h));
            }
        }
    }

    /// Hop-bytes of a mapping in edge-weight units, each undirected edge once.
    pub fn hop_weight(&self, g: &Graph, host_of: &[u32]) -> u64 {
        let mut c = 0u64;
        for v in 0..g.n() {
            for (&u, &w) in g.neighbors(v).iter().zip(g.edge_weights(v)) {
                if v < u {
                    c += u64::from(w)
                        * u64::from(self.hops(host_of[v as usize], host_of[u as usize]));
                }
            }
        }
        c
    }
}

/// `$body` with `$h` the [`Hops`] of `$metric`'s kind: the one place the kind is matched, so
/// that what follows is compiled for each kind.
macro_rules! with_hops {
    ($metric:expr, $h:ident => $body:expr) => {
        match &$metric.kind {
            MetricKind::Grid {
                dims,
                wrap: true,
                coords,
            } => {
                let $h = &GridHops::<true> {
                    dims: *dims,
                    coords,
                };
                $body
            }
            MetricKind::Grid {
                dims,
                wrap: false,
                coords,
            } => {
                let $h = &GridHops::<false> {
                    dims: *dims,
                    coords,
                };
                $body
            }
            MetricKind::Tree { key, hops_at, .. } => {
                let $h = &TreeHops { key, hops_at };
                $body
            }
            MetricKind::Net { hops, .. } => {
                let $h = &NetHops {
                    hops,
                    hosts: $metric.hosts,
                };
                $body
            }
        }
    };
}
use with_hops;

/// [`Metric::hops`] for one kind of machine, so that a loop over many pairs decides the kind
/// once (the search's inner loops are monomorphized per kind, [`Searcher::run`]). A host's
/// point is what its distance reads (coordinates, tree key, or the host itself); `hops(a, b) =
/// dist(point(a), point(b))`.
trait Hops {
    type Point: Copy;
    fn point(&self, h: u32) -> Self::Point;
    fn dist(&self, a: Self::Point, b: Self::Point) -> u32;
    #[inline(always)]
    fn hops(&self, a: u32, b: u32) -> u32 {
        self.dist(self.point(a), self.point(b))
    }
}

/// A grid: the sum over dimensions of the coordinate differences, each the shorter way round
/// a ring when `WRAP`.
struct GridHops<'a, const WRAP: bool> {
    dims: [u32; 3],
    coords: &'a [[u16; 3]],
}

impl<const WRAP: bool> Hops for GridHops<'_, WRAP> {
    type Point = [u16; 3];
    #[inline(always)]
    fn point(&self, h: u32) -> [u16; 3] {
        self.coords[h as usize]
    }
    #[inline(always)]
    fn dist(&self, ca: [u16; 3], cb: [u16; 3]) -> u32 {
        let mut h = 0;
        for k in 0..3 {
            let d = u32::from(ca[k].abs_diff(cb[k]));
            h += if WRAP { d.min(self.dims[k] - d) } else { d };
        }
        h
    }
}

/// A tree: hosts meet at the switch of the level of their highest differing digit, up to it
/// and down again.
struct TreeHops<'a> {
    key: &'a [u64],
    hops_at: &'a [u8; 64],
}

impl Hops for TreeHops<'_> {
    type Point = u64;
    #[inline(always)]
    fn point(&self, h: u32) -> u64 {
        self.key[h as usize]
    }
    #[inline(always)]
    fn dist(&self, a: u64, b: u64) -> u32 {
        let x = a ^ b;
        if x == 0 {
            0
        } else {
            u32::from(self.hops_at[63 - x.leading_zeros() as usize])
        }
    }
}

/// Another network: its route table.
struct NetHops<'a> {
    hops: &'a super::machine::HopTable,
    hosts: u32,
}

impl Hops for NetHops<'_> {
    type Point = u32;
    #[inline(always)]
    fn point(&self, h: u32) -> u32 {
        h
    }
    #[inline(always)]
    fn dist(&self, a: u32, b: u32) -> u32 {
        self.hops.get(self.hosts, a, b)
    }
}

/// The keys and hop table of [`MetricKind::Tree`] for a tree of per-level arities `down`: digit
/// `l` of host `h` is `h / size[l - 1] % down[l]`, in a field of `ceil(log2 down[l])` bits (at
/// most 64 bits in all, since the product of the arities fits in 32 bits).
fn tree_keys(down: &[u32], hosts: u32) -> (Vec<u64>, [u8; 64]) {
    let mut hops_at = [0u8; 64];
    let mut shift = Vec::with_capacity(down.len());
    let mut at = 0u32;
    for (l, &d) in down.iter().enumerate() {
        shift.push(at);
        let bits = 32 - d.saturating_sub(1).leading_zeros();
        for b in at..at + bits {
            hops_at[b as usize] = (2 * (l + 1)) as u8;
        }
        at += bits;
    }
    debug_assert!(at <= 64, "tree keys need {at} bits");
    let key = (0..hosts)
        .map(|h| {
            let mut rest = h;
            let mut k = 0u64;
            for (&d, &s) in down.iter().zip(&shift) {
                k |= u64::from(rest % d) << s;
                rest /= d;
            }
            k
        })
        .collect();
    (key, hops_at)
}

/// The objective the search lowers.
pub enum Cost<'a> {
    /// Hop-bytes.
    Hops,
    /// Sum of squared directed-link loads on `net`'s routes.
    Links(&'a Platform),
}

/// The search's state: the mapping both ways.
struct State<'a> {
    g: &'a Graph,
    metric: &'a Metric,
    host_of: Vec<u32>,
    /// Task on each host, `NONE` when free, `BUSY` when another job's.
    task_at: Vec<u32>,
    /// Work done, in adjacency entries read (and route links, for link load).
    work: u64,
}

const BUSY: u32 = u32::MAX - 1;

impl State<'_> {
    /// `u`'s neighbours as (the point of its host, the edge's weight) in `out`, for
    /// [`pull_at`]: `sum` of `pull_at` over a host `x`'s point is `u`'s hop-bytes were it on `x`.
    fn neighbour_points<H: Hops>(&self, h: &H, u: u32, out: &mut Vec<(H::Point, i64)>) {
        out.clear();
        out.extend(
            self.g
                .neighbors(u)
                .iter()
                .zip(self.g.edge_weights(u))
                .map(|(&v, &w)| (h.point(self.host_of[v as usize]), i64::from(w))),
        );
    }

    /// `(sum_{v in N(t)} w * hops(x, host v), the same at y, w(t, u))` in one read of `t`'s
    /// adjacency (`w(t, u)` 0 when they are not neighbours), `x` and `y` given by their points.
    fn pull_two<H: Hops>(
        &mut self,
        h: &H,
        t: u32,
        x: H::Point,
        y: H::Point,
        u: u32,
    ) -> (i64, i64, i64) {
        let (mut cx, mut cy, mut wu) = (0i64, 0i64, 0i64);
        let nb = self.g.neighbors(t);
        self.work += nb.len() as u64;
        for (&v, &w) in nb.iter().zip(self.g.edge_weights(t)) {
            let pv = h.point(self.host_of[v as usize]);
            let w = i64::from(w);
            cx += w * i64::from(h.dist(x, pv));
            cy += w * i64::from(h.dist(y, pv));
            if v == u {
                wu += w;
            }
        }
        (cx, cy, wu)
    }

    /// Moves `u` to host `b`, swapping with the task there if any.
    fn apply(&mut self, u: u32, b: u32) {
        let a = self.host_of[u as usize];
        let t = self.task_at[b as usize];
        self.host_of[u as usize] = b;
        self.task_at[b as usize] = u;
        self.task_at[a as usize] = t;
        if t != NONE {
            self.host_of[t as usize] = a;
        }
    }
}

/// Directed-link loads of a mapping and their sum of squares, kept up to date by the search.
/// `sum w * hops(x, p)` over the (point, weight) pairs `pts` of a task's neighbours
/// ([`State::neighbour_points`]), `x` given by its point: the task's hop-bytes were it on `x`.
#[inline(always)]
fn pull_at<H: Hops>(h: &H, x: H::Point, pts: &[(H::Point, i64)]) -> i64 {
    pts.iter().map(|&(p, w)| w * i64::from(h.dist(x, p))).sum()
}

pub struct Loads<'a> {
    net: &'a Platform,
    load: Vec<u64>,
    route: Vec<u32>,
    /// Links of the last route added.
    last: usize,
    /// On machines of at most [`ROUTE_CACHE_HOSTS`] hosts, each ordered host pair's route once
    /// computed: its start and length in `pool` (length `u32::MAX`: not yet). The search adds
    /// and removes the same messages many times.
    cache: Vec<(u32, u32)>,
    pool: Vec<u32>,
}

/// Most hosts whose routes [`Loads`] keeps (a slot per ordered pair: 2 MiB at 512 hosts).
pub const ROUTE_CACHE_HOSTS: u32 = 512;

impl Loads<'_> {
    fn new<'a>(net: &'a Platform, g: &Graph, host_of: &[u32]) -> Loads<'a> {
        let hosts = net.hosts();
        let cache = if hosts <= ROUTE_CACHE_HOSTS {
            vec![(0, u32::MAX); (hosts * hosts) as usize]
        } else {
            Vec::new()
        };
        let mut l = Loads {
            net,
            load: vec![0; net.links() as usize],
            route: Vec::new(),
            last: 0,
            cache,
            pool: Vec::new(),
        };
        for v in 0..g.n() {
            for (&u, &w) in g.neighbors(v).iter().zip(g.edge_weights(v)) {
                l.add(host_of[v as usize], host_of[u as usize], i64::from(w));
            }
        }
        l
    }

    /// Adds `w` (may be negative) on the route `a -> b`; returns the change of the sum of
    /// squares.
    fn add(&mut self, a: u32, b: u32, w: i64) -> i128 {
        let links: &[u32] = if self.cache.is_empty() {
            self.route.clear();
            self.net.route(a, b, &mut self.route);
            &self.route
        } else {
            let slot = (a * self.net.hosts() + b) as usize;
            if self.cache[slot].1 == u32::MAX {
                let start = self.pool.len();
                self.net.route(a, b, &mut self.pool);
                self.cache[slot] = (start as u32, (self.pool.len() - start) as u32);
            }
            let (start, len) = self.cache[slot];
            &self.pool[start as usize..(start + len) as usize]
        };
        self.last = links.len();
        let mut d = 0i128;
        for &l in links {
            let x = self.load[l as usize] as i128;
            let y = x + i128::from(w);
            d += y * y - x * x;
            self.load[l as usize] = y as u64;
        }
        d
    }

    fn max(&self) -> u64 {
        self.load.iter().copied().max().unwrap_or(0)
    }
}

/// The figures of a mapping that Mapped compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Profile {
    /// Hop-bytes in edge-weight units (each undirected edge once).
    pub hop_weight: u64,
    /// The most loaded directed link's load (edge-weight units, both directions of every edge).
    pub max_load: u64,
    /// The longest route of a task-graph edge (hops).
    pub max_hops: u32,
}

/// The [`Profile`] of `host_of`, loads counted on `net`'s routes.
pub fn profile(g: &Graph, metric: &Metric, net: &Platform, host_of: &[u32]) -> Profile {
    let mut max_hops = 0;
    for v in 0..g.n() {
        for &u in g.neighbors(v) {
            max_hops = max_hops.max(metric.hops(host_of[v as usize], host_of[u as usize]));
        }
    }
    Profile {
        hop_weight: metric.hop_weight(g, host_of),
        max_load: Loads::new(net, g, host_of).max(),
        max_hops,
    }
}

/// What one search gives back.
pub struct Searched {
    pub host_of: Vec<u32>,
    /// Hop-bytes in edge-weight units (each undirected edge once).
    pub hop_weight: u64,
    /// The most loaded directed link's load, in edge-weight units (link-load search only;
    /// 0 otherwise).
    pub max_load: u64,
    /// Work spent.
    pub work: u64,
}

/// Improves the mapping `host_of` of `g` (hosts distinct, none busy) by moves and swaps until no
/// candidate improves `cost` or `budget` units of work are spent; candidate hosts lie within
/// `radius` of the neighbours' hosts ([`Metric::near_within`]), at most `MAX_CANDIDATES *
/// radius^2` of them per task.
pub fn search(
    g: &Graph,
    metric: &Metric,
    busy: &[bool],
    host_of: Vec<u32>,
    cost: Cost,
    budget: u64,
    radius: u32,
) -> Searched {
    let all: Vec<u32> = (0..g.n()).collect();
    search_from(g, metric, busy, host_of, cost, budget, radius, &all)
}

/// [`search`] that first examines only the tasks `first` (distinct), then those its steps
/// queue: after a change confined to a few tasks, only they and their neighbours can have an
/// improving step (every other task's candidates and gains are unchanged).
#[allow(clippy::too_many_arguments)]
pub fn search_from(
    g: &Graph,
    metric: &Metric,
    busy: &[bool],
    host_of: Vec<u32>,
    cost: Cost,
    budget: u64,
    radius: u32,
    first: &[u32],
) -> Searched {
    let mut s = Searcher::new(g, metric, busy, host_of);
    let mut loads = match cost {
        Cost::Links(net) => Some(Loads::new(net, g, &s.st.host_of)),
        Cost::Hops => None,
    };
    s.run(loads.as_mut(), budget, radius, first);
    Searched {
        max_load: loads.as_ref().map_or(0, |l| l.max()),
        hop_weight: metric.hop_weight(g, &s.st.host_of),
        work: s.st.work,
        host_of: s.st.host_of,
    }
}

/// The swap search with its scratch space kept between runs, for callers that search many
/// small changes of one mapping ([`super::perturb`]): a run costs its own steps, not the
/// mapping's size. Runs may log their steps to be undone.
pub struct Searcher<'a> {
    st: State<'a>,
    queued: Vec<bool>,
    queue: std::collections::VecDeque<u32>,
    seen: Vec<u32>,
    stamp: u32,
    cands: Vec<u32>,
    near: Vec<u32>,
    /// When logging, each applied step as (task, the host it left), in order.
    log: Option<Vec<(u32, u32)>>,
}

impl<'a> Searcher<'a> {
    /// A searcher over the mapping `host_of` of `g` (hosts distinct, none busy).
    pub fn new(g: &'a Graph, metric: &'a Metric, busy: &[bool], host_of: Vec<u32>) -> Self {
        let mut task_at = vec![NONE; metric.hosts() as usize];
        for (h, &b) in busy.iter().enumerate() {
            if b {
                task_at[h] = BUSY;
            }
        }
        for (t, &h) in host_of.iter().enumerate() {
            debug_assert_eq!(task_at[h as usize], NONE, "host {h} given twice or busy");
            task_at[h as usize] = t as u32;
        }
        Searcher {
            st: State {
                g,
                metric,
                host_of,
                task_at,
                work: 0,
            },
            queued: vec![false; g.n() as usize],
            queue: std::collections::VecDeque::new(),
            seen: vec![0; metric.hosts() as usize],
            stamp: 0,
            cands: Vec::new(),
            near: Vec::new(),
            log: None,
        }
    }

    /// The mapping.
    pub fn host_of(&self) -> &[u32] {
        &self.st.host_of
    }

    /// Gives the mapping back.
    pub fn into_host_of(self) -> Vec<u32> {
        self.st.host_of
    }

    /// Hop-bytes (edge-weight units) of the edges at the tasks `tasks` (distinct), each edge
    /// once: a permutation of these tasks' hosts changes the mapping's hop-bytes by the change
    /// of this sum. `mark` has one entry per task, all false, and is left so.
    pub fn hop_weight_at(&mut self, tasks: &[u32], mark: &mut [bool]) -> i64 {
        for &t in tasks {
            mark[t as usize] = true;
        }
        let mut c = 0i64;
        for &t in tasks {
            let ht = self.st.host_of[t as usize];
            for (&v, &w) in self.st.g.neighbors(t).iter().zip(self.st.g.edge_weights(t)) {
                if !mark[v as usize] || t < v {
                    c += i64::from(w)
                        * i64::from(self.st.metric.hops(ht, self.st.host_of[v as usize]));
                }
            }
        }
        for &t in tasks {
            mark[t as usize] = false;
        }
        c
    }

    /// Puts task `tasks[i]` on `hosts[i]`: `hosts` a permutation of the tasks' own hosts.
    pub fn permute(&mut self, tasks: &[u32], hosts: &[u32]) {
        for (&t, &h) in tasks.iter().zip(hosts) {
            self.st.host_of[t as usize] = h;
            self.st.task_at[h as usize] = t;
        }
    }

    /// Starts (`true`) or stops logging steps; starting clears the log.
    pub fn logging(&mut self, on: bool) {
        match (&mut self.log, on) {
            (Some(log), true) => log.clear(),
            (log, on) => *log = on.then(Vec::new),
        }
    }

    /// Undoes the logged steps, latest first, and clears the log.
    pub fn undo(&mut self) {
        if let Some(log) = self.log.as_mut() {
            while let Some((u, a)) = log.pop() {
                // moving `u` back swaps it with the task it displaced, which sits on `a`
                self.st.apply(u, a);
            }
        }
    }

    /// The swap search (module doc) from the tasks `first` (distinct), on link loads when
    /// `loads` is given, else on hop-bytes, until no candidate improves or `budget` units of
    /// work are spent in this run. Returns the work spent and, on hop-bytes, the sum of the
    /// gains applied: the exact change of the hop-bytes (edge-weight units) when the metric
    /// [`Metric::is_symmetric`].
    pub fn run(
        &mut self,
        loads: Option<&mut Loads>,
        budget: u64,
        radius: u32,
        first: &[u32],
    ) -> (u64, i128) {
        let metric = self.st.metric;
        with_hops!(metric, h => self.run_in(h, loads, budget, radius, first))
    }

    /// [`Searcher::run`] with the machine's hop count `h` (the metric's kind decided once).
    fn run_in<H: Hops>(
        &mut self,
        h: &H,
        mut loads: Option<&mut Loads>,
        budget: u64,
        radius: u32,
        first: &[u32],
    ) -> (u64, i128) {
        let mut pts: Vec<(H::Point, i64)> = Vec::new();
        let cap = MAX_CANDIDATES * (radius * radius) as usize;
        let g = self.st.g;
        let metric = self.st.metric;
        let st = &mut self.st;
        st.work = 0;
        let mut change = 0i128;
        for &u in first {
            self.queued[u as usize] = true;
        }
        self.queue.clear();
        self.queue.extend(first.iter().copied());
        while let Some(u) = self.queue.pop_front() {
            self.queued[u as usize] = false;
            if st.work >= budget {
                break;
            }
            let a = st.host_of[u as usize];
            // candidate hosts: the neighbours' hosts and the hosts near them
            if self.stamp == u32::MAX {
                self.seen.fill(0);
                self.stamp = 0;
            }
            self.stamp += 1;
            let stamp = self.stamp;
            let (cands, near, seen) = (&mut self.cands, &mut self.near, &mut self.seen);
            cands.clear();
            seen[a as usize] = stamp;
            'collect: for &v in g.neighbors(u) {
                let hv = st.host_of[v as usize];
                near.clear();
                near.push(hv);
                metric.near_within(hv, radius, near);
                for &h in near.iter() {
                    if seen[h as usize] != stamp {
                        seen[h as usize] = stamp;
                        if st.task_at[h as usize] != BUSY {
                            cands.push(h);
                            if cands.len() >= cap {
                                break 'collect;
                            }
                        }
                    }
                }
            }
            st.work += cands.len() as u64;
            let mut best: Option<(i128, u32)> = None;
            match loads.as_deref_mut() {
                None => {
                    // `u`'s neighbours read once for every candidate; the work counted as if
                    // read for each (the budget, and so the result, as before)
                    let deg = g.neighbors(u).len() as u64;
                    st.neighbour_points(h, u, &mut pts);
                    let pa = h.point(a);
                    st.work += deg;
                    let base = pull_at(h, pa, &pts);
                    for &b in cands.iter() {
                        let t = st.task_at[b as usize];
                        let pb = h.point(b);
                        // the gain of the module doc, each sum read once: the edge `u-t` has
                        // length 0 in `pull(u, b)` and `pull(t, a)` (its ends on one host),
                        // `hops(a, b)` in `base` and `hops(b, a)` in `pull(t, b)`
                        st.work += deg;
                        let mut d = i128::from(pull_at(h, pb, &pts) - base);
                        if t != NONE {
                            let (at_a, at_b, w_ut) = st.pull_two(h, t, pa, pb, u);
                            d += i128::from(
                                at_a - at_b + w_ut * i64::from(h.dist(pa, pb) + h.dist(pb, pa)),
                            );
                            // charged as the four reads of the gain's formula
                            st.work += (g.neighbors(u).len() + g.neighbors(t).len()) as u64;
                        }
                        if d < 0 && best.is_none_or(|x| d < x.0) {
                            best = Some((d, b));
                        }
                    }
                }
                Some(ld) => {
                    for &b in cands.iter() {
                        let d = link_delta(st, ld, u, b);
                        if d < 0 && best.is_none_or(|x| d < x.0) {
                            best = Some((d, b));
                        }
                    }
                }
            }
            if let Some((d, b)) = best {
                let t = st.task_at[b as usize];
                if let Some(log) = self.log.as_mut() {
                    log.push((u, a));
                }
                match loads.as_deref_mut() {
                    Some(ld) => {
                        relocate(st, ld, u, b);
                    }
                    None => {
                        change += d;
                        st.apply(u, b);
                    }
                }
                for x in [u, t] {
                    if x == NONE {
                        continue;
                    }
                    for &y in std::iter::once(&x).chain(g.neighbors(x)) {
                        if !self.queued[y as usize] {
                            self.queued[y as usize] = true;
                            self.queue.push_back(y);
                        }
                    }
                }
            }
        }
        for &u in &self.queue {
            self.queued[u as usize] = false;
        }
        self.queue.clear();
        (st.work, change)
    }
}

/// Adds `sign * w` on the routes of every message of `x` (both directions), where `x` sits at
/// the hosts `host_of` gives.
fn routes_of(st: &mut State, ld: &mut Loads, x: u32, skip: u32, sign: i64) -> i128 {
    let mut d = 0i128;
    let hx = st.host_of[x as usize];
    for (&v, &w) in st.g.neighbors(x).iter().zip(st.g.edge_weights(x)) {
        if v == skip {
            continue;
        }
        let hv = st.host_of[v as usize];
        let w = sign * i64::from(w);
        d += ld.add(hx, hv, w);
        d += ld.add(hv, hx, w);
        st.work += 2 * ld.last as u64 + 2;
    }
    d
}

/// Moves `u` to host `b` (swapping with the task there, if any) with the loads kept up to
/// date; returns the change of the sum of squares.
fn relocate(st: &mut State, ld: &mut Loads, u: u32, b: u32) -> i128 {
    let t = st.task_at[b as usize];
    let mut d = routes_of(st, ld, u, NONE, -1);
    if t != NONE {
        d += routes_of(st, ld, t, u, -1);
    }
    st.apply(u, b);
    d += routes_of(st, ld, u, NONE, 1);
    if t != NONE {
        d += routes_of(st, ld, t, u, 1);
    }
    d
}

/// Change of the sum of squared link loads if `u` moves to `b` (swapping with its task); the
/// state is left as it was.
fn link_delta(st: &mut State, ld: &mut Loads, u: u32, b: u32) -> i128 {
    let a = st.host_of[u as usize];
    let d = relocate(st, ld, u, b);
    relocate(st, ld, u, a);
    d
}
