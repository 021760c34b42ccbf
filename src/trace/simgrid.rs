//! The trace engine's platform from a SimGrid platform file (version 4.1, the importer of
//! [`crate::formats::simgrid`] and the simulator's routes, [`crate::netsim::routed::Routed`]):
//! nodes are the file's hosts, and each ordered pair's link `T = a0 + a1 N` is what SMPI's
//! network model (`network/model:SMPI`, which `smpirun` sets; SimGrid 3.32) gives one message
//! alone on the route between the two hosts.
//!
//! # The per-pair model (a message alone on its route)
//! - `a0` = the sum of the latencies of the route's links, in route order (SimGrid's route
//!   latency). Between two ranks on one host the route is the host's route to itself: its
//!   loopback link (a cluster's `loopback_lat`, or SimGrid's implicit `__loopback__`, 0 s and
//!   10 GB/s, in a zone without child zones), else its links up and down.
//! - `a1` = 1 / the rate SimGrid's max-min solver gives that lone message: the least, over the
//!   link resources it loads, of `bandwidth / weight`, where the weight sums 1 for each time the
//!   route uses the resource and 0.05 for each time the reverse route does (SimGrid's
//!   `network/crosstraffic`, on by default: a `SHARED` link used both ways carries 1.05 and
//!   gives `bandwidth / 1.05`; a split-duplex link's `_UP` and `_DOWN` are two resources; a
//!   `FATPIPE` link takes the largest weight, not the sum), and at most `TCP-gamma / (2 a0)`
//!   (SimGrid's `network/TCP-gamma`, 4,194,304 bytes) when `a0 > 0`.
//!
//! SMPI's size-dependent factors (`smpi/lat-factor`, `smpi/bw-factor`) multiply `a0` and divide
//! `N a1` per message as the scenario's `latFactor` and `bwFactor` do ([`super::factors`]);
//! with a platform file their defaults are SMPI's ([`SMPI_LAT_FACTOR`], [`SMPI_BW_FACTOR`]).
//! What this model leaves out: SMPI shares a link among the messages crossing it at once (max-min
//! over every active message), the trace engine gives each message its pair's whole link; and
//! SMPI sends about 16 bytes of its own with each message.
//!
//! # Complexity
//! Reading and routing the file as [`crate::netsim::Platform::from_simgrid`] does, then two routes
//! per ordered pair of the `n` nodes chosen: `O(n^2 (hops + zones))`.

use super::limits::{MAX_CORES, MAX_NODES};
use crate::formats::simgrid::PointKind;
use crate::netsim::routed::Routed;

/// SMPI 3.32's default `smpi/lat-factor` (SimGrid's `NetworkSmpiModel`), sizes increasing.
pub const SMPI_LAT_FACTOR: &str = "0:2.01467;257:1.95341;732:1.9503;1426:1.61075;3484:1.88101;\
     5776:2.18796;9376:2.59299;15424:3.48845;65472:11.6436";
/// SMPI 3.32's default `smpi/bw-factor`, sizes increasing.
pub const SMPI_BW_FACTOR: &str = "0:0.812084;257:0.338112;732:0.341987;1426:0.608902;\
     3484:0.77493;5776:1.08739;9376:0.58729;15424:0.697866;65472:0.940694";
/// SimGrid's `network/TCP-gamma` default (bytes): a message's rate is at most
/// `TCP_GAMMA / (2 x route latency)`.
pub const TCP_GAMMA: f64 = 4_194_304.0;
/// SimGrid's `network/crosstraffic`: the load a message puts on its reverse route (its ACKs),
/// per unit of its rate.
pub const CROSSTRAFFIC: f64 = 0.05;
/// Most hosts a platform file may have (the placement engine's limit for a file): at most
/// [`MAX_NODES`] of them are the trace engine's nodes.
pub const MAX_FILE_HOSTS: usize = 4096;

/// A host of the file: its name, speed (flops/s per core) and cores.
#[derive(Debug, Clone, PartialEq)]
pub struct Host {
    pub name: String,
    pub speed: f64,
    pub cores: u32,
}

/// A platform file read and routed: its hosts in file order, and their routes.
pub struct FilePlatform {
    pub hosts: Vec<Host>,
    routed: Routed,
}

/// Reads the platform file's text; errors are `platform:LINE:COL: ...` (the reader's) or name
/// the platform.
///
/// # Errors
/// What the reader or the router refuses, or more than [`MAX_FILE_HOSTS`] hosts.
pub fn read(text: &str) -> Result<FilePlatform, String> {
    let sg = crate::formats::simgrid::parse(text, "platform")?;
    if sg.hosts.len() > MAX_FILE_HOSTS {
        return Err(format!(
            "platform: {} hosts; a platform file for the trace engine has at most {MAX_FILE_HOSTS} (and at most {MAX_NODES} of them are nodes)",
            sg.hosts.len()
        ));
    }
    let hosts = sg
        .hosts
        .iter()
        .map(|&p| {
            let pt = &sg.points[p as usize];
            let (speed, cores) = match pt.kind {
                PointKind::Host { speed, cores } => (speed, cores),
                _ => (0.0, 1),
            };
            Host {
                name: pt.name.clone(),
                speed,
                cores: cores.clamp(1, MAX_CORES),
            }
        })
        .collect();
    let routed = Routed::build(sg).map_err(|m| format!("platform: {m}"))?;
    Ok(FilePlatform { hosts, routed })
}

impl FilePlatform {
    /// The link `(a0, a1)` from host `s` to host `d` (indices of [`FilePlatform::hosts`]; `s ==
    /// d`: the host's route to itself), as the module doc states.
    ///
    /// # Errors
    /// No route, or an empty one (SimGrid refuses to send on a route without links or latency).
    pub fn link(&self, s: usize, d: usize) -> Result<(f64, f64), String> {
        let (hs, hd) = (&self.hosts[s].name, &self.hosts[d].name);
        let mut fwd = Vec::new();
        let mut back = Vec::new();
        let no_route = |m: String| format!("platform: no route from {hs:?} to {hd:?}: {m}");
        self.routed
            .host_route(s as u32, d as u32, &mut fwd)
            .map_err(no_route)?;
        self.routed
            .host_route(d as u32, s as u32, &mut back)
            .map_err(no_route)?;
        if fwd.is_empty() {
            return Err(format!(
                "platform: the route from {hs:?} to {hd:?} has no link (SimGrid refuses to send on it)"
            ));
        }
        let mut a0 = 0.0;
        for &l in &fwd {
            a0 += self.routed.lat[l as usize];
        }
        // each link resource's weight: summed on shared resources, the largest on a fat pipe
        let mut weights: Vec<(u32, f64)> = Vec::with_capacity(fwd.len() + back.len());
        let mut add = |l: u32, w: f64| {
            let fat = self.routed.fatpipe[l as usize];
            match weights.iter_mut().find(|(k, _)| *k == l) {
                Some((_, x)) if fat => *x = x.max(w),
                Some((_, x)) => *x += w,
                None => weights.push((l, w)),
            }
        };
        for &l in &fwd {
            add(l, 1.0);
        }
        for &l in &back {
            add(l, CROSSTRAFFIC);
        }
        let mut rate = f64::INFINITY;
        for &(l, w) in &weights {
            rate = rate.min(self.routed.bw[l as usize] / w);
        }
        if a0 > 0.0 {
            rate = rate.min(TCP_GAMMA / (2.0 * a0));
        }
        Ok((a0, 1.0 / rate))
    }
}
