//! Writing SimGrid platform files (4.1) from a built platform, and deployment files from a
//! placement.
//!
//! - Torus (2D, 3D): a `<cluster topology="TORUS">`; fat and thin trees: a
//!   `<cluster topology="FAT_TREE">` with the tree's SimGrid parameters. SimGrid builds the
//!   same links (names included) and routes as [`crate::netsim::Platform::build`].
//! - Meshes (SimGrid has no mesh cluster): a `Full` zone with one split-duplex link per mesh
//!   link (named as the torus zone names its links) and every host pair's route written out,
//!   so at most [`MAX_FULL_HOSTS`] hosts.
//! - Hosts are `node-0 .. node-(n-1)` (host `i` of the platform is `node-i`), speed 1 Gf.
//! - A deployment: one `<actor host function>` per rank, on its host, with the rank as its
//!   argument.
//!
//! Reading a written file back ([`super::parse`], [`crate::netsim::Platform::from_simgrid`])
//! gives the same routes, link by link (tested).

use crate::netsim::{Platform, System};
use std::fmt::Write as _;

/// Largest mesh written (its file lists `hosts^2` routes).
pub const MAX_FULL_HOSTS: u32 = 1024;

const HEAD: &str =
    "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n";

/// SimGrid's spelling of a number of bytes/s or seconds, exact (Rust prints the shortest
/// decimal that reads back to the same `f64`).
fn num(x: f64, unit: &str) -> String {
    format!("{x:?}{unit}")
}

/// SimGrid platform XML of `p`; `zone` names the cluster or zone (and prefixes the torus and
/// mesh link names).
///
/// # Errors
/// An imported platform (write the file it came from), a mesh over [`MAX_FULL_HOSTS`] hosts,
/// a shared fat tree.
///
/// # Example
/// ```
/// use placelab::netsim::*;
/// let p = Platform::build(&System::Torus2d { x: 4, y: 2 }, LinkParams::SOURCE).unwrap();
/// let xml = placelab::formats::simgrid::write::platform(&p, "t").unwrap();
/// assert!(xml.contains("topology=\"TORUS\" topo_parameters=\"4,2\""));
/// ```
pub fn platform(p: &Platform, zone: &str) -> Result<String, String> {
    if zone.is_empty() || zone.contains(['"', '<', '>', '&']) {
        return Err(format!(
            "zone name {zone:?} must be non-empty, without quotes or <>&"
        ));
    }
    let lp = p.link_params();
    let (bw, lat) = (num(lp.bandwidth, "Bps"), num(lp.latency, "s"));
    let policy = if p.is_shared() {
        "SHARED"
    } else {
        "SPLITDUPLEX"
    };
    let n = p.hosts();
    let mut s = String::from(HEAD);
    s += "<platform version=\"4.1\">\n";
    let cluster = |s: &mut String, topo: &str, params: &str| {
        let _ = writeln!(
            s,
            "  <cluster id=\"{zone}\" prefix=\"node-\" suffix=\"\" radical=\"0-{}\" speed=\"1Gf\" \
             bw=\"{bw}\" lat=\"{lat}\" sharing_policy=\"{policy}\" topology=\"{topo}\" \
             topo_parameters=\"{params}\"/>",
            n - 1
        );
    };
    match p.system() {
        System::Torus2d { x, y } => cluster(&mut s, "TORUS", &format!("{x},{y}")),
        System::Torus3d { x, y, z } => cluster(&mut s, "TORUS", &format!("{x},{y},{z}")),
        System::Torus { dims } => {
            let sides: Vec<String> = dims.iter().map(u32::to_string).collect();
            cluster(&mut s, "TORUS", &sides.join(","))
        }
        System::FatTree(spec) => {
            if p.is_shared() {
                return Err(
                    "a fat tree with shared links cannot be written (SimGrid's fat-tree \
                            zone names its links split-duplex)"
                        .to_string(),
                );
            }
            cluster(&mut s, "FAT_TREE", &spec.to_simgrid_string())
        }
        System::Mesh2d { .. } | System::Mesh3d { .. } => {
            if n > MAX_FULL_HOSTS {
                return Err(format!(
                    "a mesh is written with every route listed: at most {MAX_FULL_HOSTS} hosts, \
                     this one has {n}"
                ));
            }
            let _ = writeln!(s, "  <zone id=\"{zone}\" routing=\"Full\">");
            for h in 0..n {
                let _ = writeln!(s, "    <host id=\"node-{h}\" speed=\"1Gf\"/>");
            }
            let base = |l: u32| {
                let name = p.simgrid_link_name(zone, l);
                let cut = if l % 2 == 0 { "_UP" } else { "_DOWN" };
                name[..name.len() - cut.len()].to_string()
            };
            for l in (0..p.links()).step_by(2) {
                let _ = writeln!(
                    s,
                    "    <link id=\"{}\" bandwidth=\"{bw}\" latency=\"{lat}\" sharing_policy=\"{policy}\"/>",
                    base(l)
                );
            }
            let mut r = Vec::new();
            for a in 0..n {
                for b in 0..n {
                    r.clear();
                    p.route(a, b, &mut r);
                    if r.is_empty() {
                        continue;
                    }
                    let _ = write!(
                        s,
                        "    <route src=\"node-{a}\" dst=\"node-{b}\" symmetrical=\"NO\">"
                    );
                    for &l in &r {
                        let dir = if p.is_shared() {
                            String::new()
                        } else if l % 2 == 0 {
                            " direction=\"UP\"".to_string()
                        } else {
                            " direction=\"DOWN\"".to_string()
                        };
                        let _ = write!(s, "<link_ctn id=\"{}\"{dir}/>", base(l));
                    }
                    s += "</route>\n";
                }
            }
            s += "  </zone>\n";
        }
        System::Imported { .. } => {
            return Err("an imported platform is written by copying its file".to_string())
        }
    }
    s += "</platform>\n";
    Ok(s)
}

/// SimGrid platform XML of a dragonfly cluster: SimGrid's `DRAGONFLY` parameters `params`
/// (`groups,blue;chassis,black;routers,green;nodes`, checked by
/// [`super::read::dragonfly_params`]) of `hosts` hosts `node-0 ..`, every link of `link`, hosts
/// of `speed` flop/s, split-duplex links as SimGrid's cluster default. The placement engine's
/// dragonfly is this file, read back by [`super::parse`].
pub fn dragonfly(
    zone: &str,
    params: &str,
    hosts: u32,
    link: crate::netsim::LinkParams,
    speed: f64,
) -> String {
    format!(
        "{HEAD}<platform version=\"4.1\">\n  <cluster id=\"{zone}\" prefix=\"node-\" suffix=\"\" \
         radical=\"0-{}\" speed=\"{}\" bw=\"{}\" lat=\"{}\" topology=\"DRAGONFLY\" \
         topo_parameters=\"{}\"/>\n</platform>\n",
        hosts.saturating_sub(1),
        num(speed, "f"),
        num(link.bandwidth, "Bps"),
        num(link.latency, "s"),
        params.trim()
    )
}

/// SimGrid deployment XML: rank `r` runs `function` on host `node-{hosts[r]}`, with argument
/// `r`.
///
/// # Errors
/// A bad function name.
pub fn deployment(hosts: &[u32], function: &str) -> Result<String, String> {
    if function.is_empty() || function.contains(['"', '<', '>', '&']) {
        return Err(format!(
            "function name {function:?} must be non-empty, without quotes or <>&"
        ));
    }
    let names: Vec<String> = hosts.iter().map(|h| format!("node-{h}")).collect();
    deployment_on(&names, function)
}

/// SimGrid deployment XML: rank `r` runs `function` on the host named `names[r]` (a platform
/// file's own names, escaped for XML), with argument `r`.
///
/// # Errors
/// A bad function name.
pub fn deployment_on(names: &[String], function: &str) -> Result<String, String> {
    if function.is_empty() || function.contains(['"', '<', '>', '&']) {
        return Err(format!(
            "function name {function:?} must be non-empty, without quotes or <>&"
        ));
    }
    let mut s = String::from(HEAD);
    s += "<platform version=\"4.1\">\n";
    for (r, h) in names.iter().enumerate() {
        let h = h
            .replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
            .replace('"', "&quot;");
        let _ = writeln!(
            s,
            "  <actor host=\"{h}\" function=\"{function}\"><argument value=\"{r}\"/></actor>"
        );
    }
    s += "</platform>\n";
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::simgrid::parse;
    use crate::netsim::{parse_fat_tree, LinkParams};

    /// Write, read back, and compare every host pair's route by link names.
    fn round_trip(p: &Platform) {
        let xml = platform(p, "pl").unwrap();
        let q = Platform::from_simgrid(parse(&xml, "w.xml").unwrap()).unwrap();
        assert_eq!(q.hosts(), p.hosts());
        let r = q.routed().unwrap();
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for s in 0..p.hosts() {
            assert_eq!(r.description().host_name(s), format!("node-{s}"));
            for d in 0..p.hosts() {
                if s == d {
                    continue; // a Full zone adds SimGrid's implicit loopback
                }
                a.clear();
                b.clear();
                p.route(s, d, &mut a);
                q.route(s, d, &mut b);
                let want: Vec<String> = a.iter().map(|&l| p.simgrid_link_name("pl", l)).collect();
                let got: Vec<String> = b.iter().map(|&l| r.link_name(l).to_string()).collect();
                let want: Vec<String> = if p.is_shared() {
                    // One SimGrid link for both directions: its name has no suffix.
                    want.iter()
                        .map(|w| {
                            w.trim_end_matches("_UP")
                                .trim_end_matches("_DOWN")
                                .to_string()
                        })
                        .collect()
                } else {
                    want
                };
                assert_eq!(got, want, "{s}->{d}");
            }
        }
    }

    #[test]
    fn written_platforms_read_back_with_the_same_routes() {
        let lp = LinkParams {
            bandwidth: 1.25e8,
            latency: 5e-5,
        };
        for sys in [
            System::Torus2d { x: 4, y: 3 },
            System::Torus3d { x: 3, y: 2, z: 4 },
            System::Mesh2d { x: 4, y: 3 },
            System::Mesh3d { x: 2, y: 3, z: 2 },
            System::FatTree(parse_fat_tree("2;4,4;1,2;1,2").unwrap()),
            System::FatTree(parse_fat_tree("3;2,2,3;1,2,2;1,1,2").unwrap()),
        ] {
            round_trip(&Platform::build(&sys, lp).unwrap());
        }
        round_trip(&Platform::build_shared(&System::Torus2d { x: 3, y: 3 }, lp).unwrap());
        round_trip(&Platform::build_shared(&System::Mesh2d { x: 3, y: 2 }, lp).unwrap());
    }

    #[test]
    fn refuses_what_it_cannot_write() {
        let lp = LinkParams::SOURCE;
        let big = Platform::build(&System::Mesh2d { x: 64, y: 17 }, lp).unwrap();
        assert!(platform(&big, "m")
            .unwrap_err()
            .contains("at most 1024 hosts"));
        let t = Platform::build_shared(
            &System::FatTree(parse_fat_tree("2;4,4;1,2;1,2").unwrap()),
            lp,
        )
        .unwrap();
        assert!(platform(&t, "t").unwrap_err().contains("shared links"));
        let p = Platform::build(&System::Torus2d { x: 2, y: 2 }, lp).unwrap();
        assert!(platform(&p, "a\"b").is_err());
        assert!(deployment(&[0], "").is_err());
    }

    #[test]
    fn deployment_puts_one_actor_per_rank_on_its_host() {
        let d = deployment(&[5, 2], "rank").unwrap();
        assert!(
            d.contains("<actor host=\"node-5\" function=\"rank\"><argument value=\"0\"/></actor>")
        );
        assert!(
            d.contains("<actor host=\"node-2\" function=\"rank\"><argument value=\"1\"/></actor>")
        );
    }
}
