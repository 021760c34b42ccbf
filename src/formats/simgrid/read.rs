//! The reader: a streaming pass over the XML ([`quick_xml`]) that resolves every name as it
//! goes (SimGrid's parser does too: a route may only name links, hosts and zones declared
//! before it). See [`super`] for what is accepted.

use super::units;
use super::{Cluster, Link, NetPoint, PointKind, Route, Routing, SgPlatform, StarRoutes, Zone};
use crate::netsim::FatTreeSpec;
use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;
use std::collections::HashMap;

/// SimGrid's `DRAGONFLY` parameters `groups,blue;chassis,black;routers,green;nodes`: the
/// groups, blue (global) links between two groups, chassis per group, black links between two
/// chassis, routers per chassis, green links between two routers, nodes per router.
///
/// # Errors
/// Another form, a zero, or more groups than routers per chassis (SimGrid's minimal routing goes
/// through router number "target group" of a chassis, out of bounds there).
pub fn dragonfly_params(params: &str) -> Result<[u32; 7], String> {
    let bad = || {
        format!(
            "topo_parameters of a DRAGONFLY must be \"groups,blue;chassis,black;\
             routers,green;nodes\" of positive numbers, got {params:?}"
        )
    };
    let nums: Vec<u32> = params
        .split([';', ','])
        .map(|x| x.trim().parse::<u32>().map_err(|_| bad()))
        .collect::<Result<_, _>>()?;
    let shape = params
        .split(';')
        .map(|p| p.split(',').count())
        .collect::<Vec<_>>();
    if shape != [2, 2, 2, 1] || nums.contains(&0) {
        return Err(bad());
    }
    if nums[0] > nums[4] {
        return Err(format!(
            "a dragonfly with more groups ({}) than routers per chassis ({}) cannot be routed \
             (SimGrid's minimal routing goes through router number 'target group' of a chassis)",
            nums[0], nums[4]
        ));
    }
    let mut a = [0u32; 7];
    a.copy_from_slice(&nums);
    Ok(a)
}

/// Reads a SimGrid platform file's text; `file` names it in errors (`FILE:LINE:COL: ...`).
///
/// # Errors
/// See [`super`]: every error names the line and column of the element at fault.
///
/// # Example
/// ```
/// let xml = r#"<platform version="4.1"><zone id="z" routing="Full">
///   <host id="a" speed="1Gf"/><host id="b" speed="1Gf"/>
///   <link id="l" bandwidth="1GBps" latency="1us"/>
///   <route src="a" dst="b"><link_ctn id="l"/></route></zone></platform>"#;
/// let p = placelab::formats::simgrid::parse(xml, "p.xml").unwrap();
/// assert_eq!(p.hosts.len(), 2);
/// assert_eq!(p.links[0].bandwidth, 1e9);
/// ```
pub fn parse(text: &str, file: &str) -> Result<SgPlatform, String> {
    let p = Parser {
        text,
        file,
        line_starts: std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect(),
        out: SgPlatform::default(),
        point_names: HashMap::new(),
        link_names: HashMap::new(),
        split: HashMap::new(),
        stack: Vec::new(),
        pending: None,
        hostlinks: Vec::new(),
        backbones: Vec::new(),
        seen_platform: false,
        at: (1, 1),
    };
    p.run()
}

enum Open {
    Platform,
    Zone(u32),
    /// `<cluster>`, `<host>`, `<link>`: only `<prop>` inside.
    Leaf,
    Route,
    /// `<config>`, `<prop>`: everything inside ignored.
    Ignored,
}

struct PendingRoute {
    zone: u32,
    src: u32,
    dst: u32,
    gw: Option<(u32, u32)>,
    symmetrical: bool,
    links: Vec<u32>,
    back: Vec<u32>,
    at: (u32, u32),
}

struct Parser<'a> {
    text: &'a str,
    file: &'a str,
    line_starts: Vec<usize>,
    out: SgPlatform,
    point_names: HashMap<String, u32>,
    link_names: HashMap<String, u32>,
    /// Split-duplex base name -> (UP id, DOWN id).
    split: HashMap<String, (u32, u32)>,
    stack: Vec<Open>,
    pending: Option<PendingRoute>,
    /// `host_link`s (zone, host's local id, up, down) and `backbone`s (zone, link).
    hostlinks: Vec<(u32, u32, u32, u32)>,
    backbones: Vec<(u32, u32)>,
    seen_platform: bool,
    at: (u32, u32),
}

/// A tag's attributes, checked against the names it accepts.
struct Attrs {
    tag: String,
    vals: Vec<(String, String)>,
}

impl Attrs {
    fn get(&self, k: &str) -> Option<&str> {
        self.vals
            .iter()
            .find(|(n, _)| n == k)
            .map(|(_, v)| v.as_str())
    }
}

impl<'a> Parser<'a> {
    fn pos(&self, byte: usize) -> (u32, u32) {
        let line = self.line_starts.partition_point(|&s| s <= byte);
        let start = self.line_starts[line - 1];
        let col = self.text[start..byte.min(self.text.len())].chars().count() + 1;
        (line as u32, col as u32)
    }

    fn err(&self, msg: impl std::fmt::Display) -> String {
        format!("{}:{}:{}: {msg}", self.file, self.at.0, self.at.1)
    }

    fn run(mut self) -> Result<SgPlatform, String> {
        let mut reader = Reader::from_str(self.text);
        reader.config_mut().check_end_names = true;
        loop {
            let before = reader.buffer_position() as usize;
            let ev = match reader.read_event() {
                Ok(e) => e,
                Err(e) => {
                    self.at = self.pos(reader.error_position() as usize);
                    return Err(self.err(format!("malformed XML: {e}")));
                }
            };
            // The element starts at the first '<' after the previous event.
            let lt = self.text[before..].find('<').map_or(before, |i| before + i);
            self.at = self.pos(lt);
            match ev {
                Event::Start(e) => {
                    let open = self.start(&e)?;
                    self.stack.push(open);
                }
                Event::Empty(e) => {
                    let open = self.start(&e)?;
                    self.end(open)?;
                }
                Event::End(_) => {
                    let open = self.stack.pop().expect("quick-xml checks end tags");
                    self.end(open)?;
                }
                Event::Text(t)
                    if !AsRef::<str>::as_ref(&t).trim().is_empty()
                        && !matches!(self.stack.last(), Some(Open::Ignored)) =>
                {
                    return Err(self.err("unexpected text"));
                }
                Event::CData(_) => return Err(self.err("unexpected CDATA")),
                Event::Eof => break,
                _ => {} // declaration, doctype, comments, processing instructions
            }
        }
        if !self.seen_platform {
            return Err(format!("{}: no <platform> element", self.file));
        }
        if self.out.zones.is_empty() {
            return Err(format!(
                "{}: the platform has no zone or cluster",
                self.file
            ));
        }
        if self.out.hosts.is_empty() {
            return Err(format!("{}: the platform has no host", self.file));
        }
        Ok(self.out)
    }

    fn attrs(&self, e: &BytesStart, allowed: &[&str], required: &[&str]) -> Result<Attrs, String> {
        let tag = e.name().as_ref().to_string();
        let mut vals = Vec::new();
        for a in e.attributes() {
            let a = a.map_err(|x| self.err(format!("malformed attribute in <{tag}>: {x}")))?;
            let k = a.key.as_ref().to_string();
            if !allowed.contains(&k.as_str()) {
                return Err(self.err(format!(
                    "<{tag}> has no attribute {k:?} here (known: {})",
                    allowed.join(", ")
                )));
            }
            let v = a
                .normalized_value(quick_xml::XmlVersion::Implicit1_0)
                .map_err(|x| self.err(format!("bad value of {k} in <{tag}>: {x}")))?
                .into_owned();
            vals.push((k, v));
        }
        let at = Attrs { tag, vals };
        for r in required {
            if at.get(r).is_none() {
                return Err(self.err(format!("<{}> needs the attribute {r}", at.tag)));
            }
        }
        Ok(at)
    }

    fn current_zone(&self) -> Option<u32> {
        self.stack.iter().rev().find_map(|o| match o {
            Open::Zone(z) => Some(*z),
            _ => None,
        })
    }

    fn start(&mut self, e: &BytesStart) -> Result<Open, String> {
        let name = e.name().as_ref().to_string();
        let parent = self.stack.last();
        if matches!(parent, Some(Open::Ignored)) {
            return Ok(Open::Ignored);
        }
        if name == "prop" {
            self.attrs(e, &["id", "value"], &[])?;
            return Ok(Open::Ignored);
        }
        match parent {
            None if name != "platform" => {
                return Err(self.err(format!("expected <platform>, found <{name}>")))
            }
            Some(Open::Leaf) => {
                return Err(self.err(format!("<{name}> cannot appear here (only <prop>)")))
            }
            Some(Open::Route) if name != "link_ctn" => {
                return Err(self.err(format!("<{name}> cannot appear in a route")))
            }
            _ => {}
        }
        match name.as_str() {
            "platform" => {
                if parent.is_some() {
                    return Err(self.err("nested <platform>"));
                }
                let a = self.attrs(e, &["version"], &["version"])?;
                if a.get("version") != Some("4.1") {
                    return Err(self.err(format!(
                        "platform version {:?} is not supported (only 4.1)",
                        a.get("version").unwrap_or("")
                    )));
                }
                self.seen_platform = true;
                Ok(Open::Platform)
            }
            "config" => Ok(Open::Ignored),
            "zone" | "AS" => {
                let a = self.attrs(e, &["id", "routing"], &["id", "routing"])?;
                let routing = match a.get("routing").unwrap().to_ascii_lowercase().as_str() {
                    "full" => Routing::Full,
                    "floyd" => Routing::Floyd,
                    "dijkstra" | "dijkstracache" => Routing::Dijkstra,
                    "cluster" => Routing::Star,
                    "none" => Routing::Empty,
                    other => {
                        return Err(self.err(format!(
                            "zone routing {other:?} is not supported (Full, Floyd, Dijkstra, \
                             DijkstraCache, Cluster, None)"
                        )))
                    }
                };
                let z = self.new_zone(a.get("id").unwrap(), routing)?;
                Ok(Open::Zone(z))
            }
            "cluster" => {
                self.cluster(e)?;
                Ok(Open::Leaf)
            }
            "host" => {
                let z = self.need_zone(&name)?;
                let a = self.attrs(
                    e,
                    &["id", "speed", "core", "pstate", "coordinates"],
                    &["id", "speed"],
                )?;
                let id = a.get("id").unwrap();
                let speed = units::speed(a.get("speed").unwrap(), &format!("speed of host {id}"))
                    .map_err(|m| self.err(m))?;
                let cores = self.int(&a, "core", 1)?;
                self.new_host(z, id, speed, cores)?;
                Ok(Open::Leaf)
            }
            "router" => {
                let z = self.need_zone(&name)?;
                let a = self.attrs(e, &["id", "coordinates"], &["id"])?;
                self.new_point(z, a.get("id").unwrap(), PointKind::Router)?;
                Ok(Open::Leaf)
            }
            "link" | "backbone" => {
                let z = self.need_zone(&name)?;
                let backbone = name == "backbone";
                let allowed: &[&str] = if backbone {
                    &["id", "bandwidth", "latency"]
                } else {
                    &["id", "bandwidth", "latency", "sharing_policy"]
                };
                let a = self.attrs(e, allowed, &["id", "bandwidth"])?;
                let id = a.get("id").unwrap().to_string();
                let bw = units::bandwidth(
                    a.get("bandwidth").unwrap(),
                    &format!("bandwidth of link {id}"),
                )
                .map_err(|m| self.err(m))?;
                let lat = units::time(
                    a.get("latency").unwrap_or("0"),
                    &format!("latency of link {id}"),
                )
                .map_err(|m| self.err(m))?;
                let policy = a.get("sharing_policy").unwrap_or("SHARED");
                let made = self.new_link_policy(&id, bw, lat, policy)?;
                if backbone {
                    if self.out.zones[z as usize].routing != Routing::Star {
                        return Err(
                            self.err("<backbone> belongs in a zone with routing=\"Cluster\"")
                        );
                    }
                    self.star_backbone(z, made[0])?;
                }
                Ok(Open::Leaf)
            }
            "host_link" => {
                let z = self.need_zone(&name)?;
                let a = self.attrs(e, &["id", "up", "down"], &["id", "up", "down"])?;
                if self.out.zones[z as usize].routing != Routing::Star {
                    return Err(self.err("<host_link> belongs in a zone with routing=\"Cluster\""));
                }
                let h = self.point_in(z, a.get("id").unwrap(), "host_link id")?;
                let up = self.link_named(a.get("up").unwrap())?;
                let down = self.link_named(a.get("down").unwrap())?;
                let local = self.out.points[h as usize].local;
                if self.hostlinks.iter().any(|x| x.0 == z && x.1 == local) {
                    return Err(self.err(format!(
                        "host {:?} has two host_links",
                        a.get("id").unwrap()
                    )));
                }
                self.hostlinks.push((z, local, up, down));
                Ok(Open::Leaf)
            }
            "route" | "zoneRoute" | "ASroute" => {
                let z = self.need_zone(&name)?;
                let zone_route = name != "route";
                let a = if zone_route {
                    self.attrs(
                        e,
                        &["src", "dst", "gw_src", "gw_dst", "symmetrical"],
                        &["src", "dst", "gw_src", "gw_dst"],
                    )?
                } else {
                    self.attrs(e, &["src", "dst", "symmetrical"], &["src", "dst"])?
                };
                match self.out.zones[z as usize].routing {
                    Routing::Full | Routing::Floyd | Routing::Dijkstra => {}
                    _ => {
                        return Err(self.err(format!(
                            "<{name}> is only valid in Full, Floyd and Dijkstra zones"
                        )))
                    }
                }
                let symmetrical = match a.get("symmetrical").unwrap_or("YES") {
                    "YES" | "yes" => true,
                    "NO" | "no" => false,
                    o => return Err(self.err(format!("symmetrical must be YES or NO, got {o:?}"))),
                };
                let src = self.point_in(z, a.get("src").unwrap(), "src")?;
                let dst = self.point_in(z, a.get("dst").unwrap(), "dst")?;
                let gw = if zone_route {
                    for (p, what) in [(src, "src"), (dst, "dst")] {
                        if !matches!(self.out.points[p as usize].kind, PointKind::Zone(_)) {
                            return Err(self.err(format!(
                                "zoneRoute {what} {:?} is not a zone",
                                self.out.points[p as usize].name
                            )));
                        }
                    }
                    let gs = self.gateway(a.get("gw_src").unwrap(), src, "gw_src")?;
                    let gd = self.gateway(a.get("gw_dst").unwrap(), dst, "gw_dst")?;
                    if gs == gd {
                        return Err(self.err("a zone route cannot go from a gateway to itself"));
                    }
                    Some((gs, gd))
                } else {
                    for (p, what) in [(src, "src"), (dst, "dst")] {
                        if matches!(self.out.points[p as usize].kind, PointKind::Zone(_)) {
                            return Err(self.err(format!(
                                "route {what} {:?} is a zone: use <zoneRoute>",
                                self.out.points[p as usize].name
                            )));
                        }
                    }
                    None
                };
                self.pending = Some(PendingRoute {
                    zone: z,
                    src: self.out.points[src as usize].local,
                    dst: self.out.points[dst as usize].local,
                    gw,
                    symmetrical,
                    links: Vec::new(),
                    back: Vec::new(),
                    at: self.at,
                });
                Ok(Open::Route)
            }
            "link_ctn" => {
                if !matches!(parent, Some(Open::Route)) {
                    return Err(self.err("<link_ctn> belongs in a route"));
                }
                let a = self.attrs(e, &["id", "direction"], &["id"])?;
                let id = a.get("id").unwrap();
                let (fwd, back) = match a.get("direction").unwrap_or("NONE") {
                    "NONE" => {
                        if self.split.contains_key(id) {
                            return Err(self.err(format!(
                                "link {id:?} is SPLITDUPLEX: give direction=\"UP\" or \"DOWN\""
                            )));
                        }
                        let l = self.link_named(id)?;
                        (l, l)
                    }
                    d @ ("UP" | "DOWN") => match self.split.get(id) {
                        Some(&(u, dn)) => {
                            if d == "UP" {
                                (u, dn)
                            } else {
                                (dn, u)
                            }
                        }
                        None => {
                            return Err(self.err(format!(
                                "no SPLITDUPLEX link {id:?} (direction {d} needs one)"
                            )))
                        }
                    },
                    o => {
                        return Err(
                            self.err(format!("direction must be UP, DOWN or NONE, got {o:?}"))
                        )
                    }
                };
                let r = self.pending.as_mut().expect("inside a route");
                r.links.push(fwd);
                r.back.push(back);
                Ok(Open::Leaf)
            }
            "bypassRoute" | "bypassZoneRoute" | "bypassASroute" | "peer" | "cabinet" | "trace"
            | "trace_connect" | "disk" | "actor" | "process" | "include" => {
                Err(self.err(format!("<{name}> is not supported")))
            }
            _ => Err(self.err(format!("unknown tag <{name}>"))),
        }
    }

    fn end(&mut self, open: Open) -> Result<(), String> {
        match open {
            Open::Route => {
                let r = self.pending.take().expect("a route is open");
                if r.links.is_empty() {
                    return Err(format!(
                        "{}:{}:{}: empty route (a route needs at least one link_ctn)",
                        self.file, r.at.0, r.at.1
                    ));
                }
                let z = r.zone as usize;
                let dup = |a: u32, b: u32, zone: &Zone| {
                    zone.routes.iter().any(|x| {
                        (x.src == a && x.dst == b)
                            || (x.back.is_some() && x.src == b && x.dst == a && a != b)
                    })
                };
                let zone = &self.out.zones[z];
                let names = |l: u32| {
                    self.out.points[zone.vertices[l as usize] as usize]
                        .name
                        .clone()
                };
                if dup(r.src, r.dst, zone) {
                    return Err(format!(
                        "{}:{}:{}: the route from {} to {} is defined twice (routes are \
                         symmetrical by default)",
                        self.file,
                        r.at.0,
                        r.at.1,
                        names(r.src),
                        names(r.dst)
                    ));
                }
                if r.symmetrical && r.src != r.dst && dup(r.dst, r.src, zone) {
                    return Err(format!(
                        "{}:{}:{}: the route from {} to {} already exists: do not declare its \
                         reverse symmetrical",
                        self.file,
                        r.at.0,
                        r.at.1,
                        names(r.dst),
                        names(r.src)
                    ));
                }
                self.out.zones[z].routes.push(Route {
                    src: r.src,
                    dst: r.dst,
                    gw: r.gw,
                    links: r.links,
                    back: if r.symmetrical && r.src != r.dst {
                        Some(r.back)
                    } else {
                        None
                    },
                    at: r.at,
                });
            }
            Open::Zone(z) => {
                if self.out.zones[z as usize].routing == Routing::Star {
                    self.seal_star(z);
                }
            }
            Open::Platform | Open::Leaf | Open::Ignored => {}
        }
        Ok(())
    }

    fn int(&self, a: &Attrs, k: &str, default: u32) -> Result<u32, String> {
        match a.get(k) {
            None => Ok(default),
            Some(v) => v.trim().parse::<u32>().map_err(|_| {
                self.err(format!(
                    "{k} of <{}> must be a whole number, got {v:?}",
                    a.tag
                ))
            }),
        }
    }

    fn need_zone(&self, tag: &str) -> Result<u32, String> {
        self.current_zone()
            .ok_or_else(|| self.err(format!("<{tag}> must be inside a zone")))
    }

    fn new_point(&mut self, zone: u32, name: &str, kind: PointKind) -> Result<u32, String> {
        if self.point_names.contains_key(name) {
            return Err(self.err(format!(
                "{name:?} is already the name of a host, router or zone"
            )));
        }
        let id = self.out.points.len() as u32;
        let local = if zone == u32::MAX {
            0
        } else {
            let z = &mut self.out.zones[zone as usize];
            z.vertices.push(id);
            if z.routing == Routing::Star {
                z.star.push(StarRoutes::default());
            }
            (z.vertices.len() - 1) as u32
        };
        self.out.points.push(NetPoint {
            name: name.to_string(),
            kind,
            zone,
            local,
        });
        self.point_names.insert(name.to_string(), id);
        Ok(id)
    }

    fn new_host(&mut self, zone: u32, name: &str, speed: f64, cores: u32) -> Result<u32, String> {
        let id = self.new_point(zone, name, PointKind::Host { speed, cores })?;
        self.out.hosts.push(id);
        Ok(id)
    }

    fn new_zone(&mut self, name: &str, routing: Routing) -> Result<u32, String> {
        let parent = self.current_zone();
        if parent.is_none() && !self.out.zones.is_empty() {
            return Err(self.err("a platform has one root zone (put the others inside it)"));
        }
        if let Some(pz) = parent {
            match self.out.zones[pz as usize].routing {
                Routing::Full | Routing::Floyd | Routing::Dijkstra | Routing::Empty => {}
                _ => {
                    return Err(self.err(format!(
                        "zone {name:?}: only Full, Floyd, Dijkstra and None zones may hold zones"
                    )))
                }
            }
        }
        let z = self.out.zones.len() as u32;
        let point = self.new_point(parent.unwrap_or(u32::MAX), name, PointKind::Zone(z))?;
        self.out.zones.push(Zone {
            name: name.to_string(),
            routing,
            point,
            parent,
            vertices: Vec::new(),
            routes: Vec::new(),
            star: Vec::new(),
            cluster: None,
            at: self.at,
        });
        Ok(z)
    }

    fn add_link(
        &mut self,
        name: String,
        bandwidth: f64,
        latency: f64,
        fatpipe: bool,
    ) -> Result<u32, String> {
        if self.link_names.contains_key(&name) {
            return Err(self.err(format!("link {name:?} is defined twice")));
        }
        let id = self.out.links.len() as u32;
        self.link_names.insert(name.clone(), id);
        self.out.links.push(Link {
            name,
            bandwidth,
            latency,
            fatpipe,
        });
        Ok(id)
    }

    /// Makes a link of `policy`; returns its resources (split-duplex: UP then DOWN).
    fn new_link_policy(
        &mut self,
        id: &str,
        bw: f64,
        lat: f64,
        policy: &str,
    ) -> Result<Vec<u32>, String> {
        match policy {
            "SHARED" => Ok(vec![self.add_link(id.to_string(), bw, lat, false)?]),
            "FATPIPE" => Ok(vec![self.add_link(id.to_string(), bw, lat, true)?]),
            "SPLITDUPLEX" | "FULLDUPLEX" => {
                if self.split.contains_key(id) {
                    return Err(self.err(format!("link {id:?} is defined twice")));
                }
                let u = self.add_link(format!("{id}_UP"), bw, lat, false)?;
                let d = self.add_link(format!("{id}_DOWN"), bw, lat, false)?;
                self.split.insert(id.to_string(), (u, d));
                Ok(vec![u, d])
            }
            o => Err(self.err(format!(
                "sharing_policy must be SHARED, SPLITDUPLEX or FATPIPE, got {o:?}"
            ))),
        }
    }

    fn link_named(&self, name: &str) -> Result<u32, String> {
        self.link_names
            .get(name)
            .copied()
            .ok_or_else(|| self.err(format!("no link named {name:?}")))
    }

    /// A point named `name` that is a vertex of zone `z`.
    fn point_in(&self, z: u32, name: &str, what: &str) -> Result<u32, String> {
        let p = *self
            .point_names
            .get(name)
            .ok_or_else(|| self.err(format!("{what} {name:?} names no host, router or zone")))?;
        if self.out.points[p as usize].zone != z {
            return Err(self.err(format!(
                "{what} {name:?} is not in zone {:?}",
                self.out.zones[z as usize].name
            )));
        }
        Ok(p)
    }

    /// A host or router `name` inside zone point `zp` (at any depth).
    fn gateway(&self, name: &str, zp: u32, what: &str) -> Result<u32, String> {
        let g = *self
            .point_names
            .get(name)
            .ok_or_else(|| self.err(format!("{what} {name:?} names no host or router")))?;
        if matches!(self.out.points[g as usize].kind, PointKind::Zone(_)) {
            return Err(self.err(format!("{what} {name:?} is a zone, not a host or router")));
        }
        let PointKind::Zone(target) = self.out.points[zp as usize].kind else {
            unreachable!("checked by the caller")
        };
        let mut z = self.out.points[g as usize].zone;
        loop {
            if z == target {
                return Ok(g);
            }
            match self.out.zones[z as usize].parent {
                Some(p) => z = p,
                None => {
                    return Err(self.err(format!(
                        "{what} {name:?} is not inside zone {:?} (a gateway must belong to its \
                         zone, which also rules out cyclic zone routes)",
                        self.out.points[zp as usize].name
                    )))
                }
            }
        }
    }

    fn star_backbone(&mut self, z: u32, bb: u32) -> Result<(), String> {
        if self.backbones.iter().any(|&(x, _)| x == z) {
            return Err(self.err("a zone has at most one <backbone>"));
        }
        self.backbones.push((z, bb));
        Ok(())
    }

    /// At the end of a `routing="Cluster"` zone (SimGrid does it when sealing): every
    /// `host_link` becomes the host's routes, through the backbone if there is one.
    fn seal_star(&mut self, z: u32) {
        let bb = self
            .backbones
            .iter()
            .find(|&&(x, _)| x == z)
            .map(|&(_, b)| b);
        let links: Vec<_> = self
            .hostlinks
            .iter()
            .filter(|h| h.0 == z)
            .copied()
            .collect();
        for (_, local, up, down) in links {
            let s = &mut self.out.zones[z as usize].star[local as usize];
            s.up = std::iter::once(up).chain(bb).collect();
            s.down = bb.into_iter().chain(std::iter::once(down)).collect();
        }
    }

    fn cluster(&mut self, e: &BytesStart) -> Result<(), String> {
        let a = self.attrs(
            e,
            &[
                "id",
                "prefix",
                "suffix",
                "radical",
                "speed",
                "core",
                "bw",
                "lat",
                "sharing_policy",
                "topology",
                "topo_parameters",
                "bb_bw",
                "bb_lat",
                "bb_sharing_policy",
                "router_id",
                "limiter_link",
                "loopback_bw",
                "loopback_lat",
            ],
            &["id", "prefix", "suffix", "radical", "speed", "bw", "lat"],
        )?;
        let id = a.get("id").unwrap().to_string();
        let prefix = a.get("prefix").unwrap().to_string();
        let suffix = a.get("suffix").unwrap().to_string();
        let radicals = self.radicals(a.get("radical").unwrap())?;
        let what = |k: &str| format!("{k} of cluster {id}");
        let speed =
            units::speed(a.get("speed").unwrap(), &what("speed")).map_err(|m| self.err(m))?;
        let cores = self.int(&a, "core", 1)?;
        let bw = units::bandwidth(a.get("bw").unwrap(), &what("bw")).map_err(|m| self.err(m))?;
        let lat = units::time(a.get("lat").unwrap(), &what("lat")).map_err(|m| self.err(m))?;
        let opt_bw = |k: &str| -> Result<f64, String> {
            a.get(k)
                .map_or(Ok(0.0), |v| units::bandwidth(v, &what(k)))
                .map_err(|m| self.err(m))
        };
        let opt_t = |k: &str| -> Result<f64, String> {
            a.get(k)
                .map_or(Ok(0.0), |v| units::time(v, &what(k)))
                .map_err(|m| self.err(m))
        };
        let (bb_bw, bb_lat) = (opt_bw("bb_bw")?, opt_t("bb_lat")?);
        let limiter = opt_bw("limiter_link")?;
        let (lb_bw, lb_lat) = (opt_bw("loopback_bw")?, opt_t("loopback_lat")?);
        let policy = a.get("sharing_policy").unwrap_or("SPLITDUPLEX");
        if !["SHARED", "SPLITDUPLEX", "FULLDUPLEX", "FATPIPE"].contains(&policy) {
            return Err(self.err(format!(
                "sharing_policy must be SHARED, SPLITDUPLEX or FATPIPE, got {policy:?}"
            )));
        }
        let bb_policy = a.get("bb_sharing_policy").unwrap_or("SHARED");
        if !["SHARED", "FATPIPE"].contains(&bb_policy) {
            return Err(self.err(format!(
                "bb_sharing_policy must be SHARED or FATPIPE, got {bb_policy:?}"
            )));
        }
        let topology = a.get("topology").unwrap_or("FLAT");
        let params = a.get("topo_parameters").unwrap_or("");
        let routing = match topology {
            "FLAT" => Routing::Star,
            "TORUS" => {
                let dims: Result<Vec<u32>, _> =
                    params.split(',').map(|d| d.trim().parse::<u32>()).collect();
                match dims {
                    Ok(d) if !d.is_empty() && !d.contains(&0) => Routing::Torus(d),
                    _ => {
                        return Err(self.err(format!(
                        "topo_parameters of a TORUS must be sides like \"4,4,4\", got {params:?}"
                    )))
                    }
                }
            }
            "FAT_TREE" => Routing::FatTree(
                crate::netsim::parse_fat_tree(params)
                    .map_err(|m| self.err(format!("topo_parameters of cluster {id}: {m}")))?,
            ),
            "DRAGONFLY" => Routing::Dragonfly(
                dragonfly_params(params).map_err(|m| self.err(format!("cluster {id}: {m}")))?,
            ),
            o => {
                return Err(self.err(format!(
                    "topology must be FLAT, TORUS, FAT_TREE or DRAGONFLY, got {o:?}"
                )))
            }
        };
        let want = match &routing {
            Routing::Torus(d) => Some(d.iter().map(|&x| u64::from(x)).product::<u64>()),
            Routing::FatTree(s) => Some(FatTreeSpec::hosts(s)),
            Routing::Dragonfly(d) => {
                Some(u64::from(d[0]) * u64::from(d[2]) * u64::from(d[4]) * u64::from(d[6]))
            }
            _ => None,
        };
        if let Some(n) = want {
            if n != radicals.len() as u64 {
                return Err(self.err(format!(
                    "cluster {id}: its topology has {n} hosts but radical gives {}",
                    radicals.len()
                )));
            }
            if limiter > 0.0 && !matches!(routing, Routing::Dragonfly(_)) {
                return Err(self.err(format!(
                    "cluster {id}: limiter_link is only supported on FLAT and DRAGONFLY clusters"
                )));
            }
            if matches!(routing, Routing::FatTree(_))
                && policy != "SPLITDUPLEX"
                && policy != "FULLDUPLEX"
            {
                return Err(self.err(format!(
                    "cluster {id}: a FAT_TREE cluster must be SPLITDUPLEX, got {policy}"
                )));
            }
        }
        let is_flat = routing == Routing::Star;
        let z = self.new_zone(&id, routing)?;
        let mut backbone = None;
        if is_flat && (bb_bw > 0.0 || bb_lat > 0.0) {
            backbone = Some(self.add_link(
                format!("{id}_backbone"),
                bb_bw,
                bb_lat,
                bb_policy == "FATPIPE",
            )?);
        }
        let mut loopbacks = Vec::new();
        for &r in &radicals {
            let h = self.new_host(z, &format!("{prefix}{r}{suffix}"), speed, cores)?;
            let local = self.out.points[h as usize].local as usize;
            let link_id = format!("{id}_link_{r}");
            if lb_bw > 0.0 || lb_lat > 0.0 {
                let l = self.add_link(format!("{link_id}_loopback"), lb_bw, lb_lat, true)?;
                loopbacks.push(l);
                if is_flat {
                    self.out.zones[z as usize].star[local].loopback = Some(vec![l]);
                }
            }
            if !is_flat {
                continue;
            }
            let mut up = Vec::new();
            if limiter > 0.0 {
                up.push(self.add_link(format!("{link_id}_limiter"), limiter, 0.0, false)?);
            }
            // SimGrid 3.32 makes a flat cluster's FATPIPE private links SHARED.
            let made = if policy == "SPLITDUPLEX" || policy == "FULLDUPLEX" {
                self.new_link_policy(&link_id, bw, lat, "SPLITDUPLEX")?
            } else {
                self.new_link_policy(&link_id, bw, lat, "SHARED")?
            };
            up.push(made[0]);
            let mut down: Vec<u32> = up.clone();
            down[up.len() - 1] = *made.last().unwrap();
            if let Some(b) = backbone {
                up.push(b);
                down.push(b);
            }
            down.reverse();
            let s = &mut self.out.zones[z as usize].star[local];
            s.up = up;
            s.down = down;
        }
        if is_flat {
            let rid = match a.get("router_id") {
                Some(r) if !r.is_empty() => r.to_string(),
                _ => format!("{prefix}{id}_router{suffix}"),
            };
            self.new_point(z, &rid, PointKind::Router)?;
        } else {
            self.out.zones[z as usize].cluster = Some(Cluster {
                bandwidth: bw,
                latency: lat,
                // SimGrid 3.32's torus zone makes FATPIPE links SHARED too.
                shared: policy == "SHARED" || policy == "FATPIPE",
                fatpipe: false,
                loopback: loopbacks,
                limiter,
            });
        }
        Ok(())
    }

    fn radicals(&self, s: &str) -> Result<Vec<u64>, String> {
        let mut out = Vec::new();
        for part in s.split(',') {
            let bad = || {
                self.err(format!(
                    "radical must be like \"0-15\" or \"0-3,8,10-12\", got {s:?}"
                ))
            };
            let (a, b) = match part.split_once('-') {
                Some((a, b)) => (
                    a.trim().parse::<u64>().map_err(|_| bad())?,
                    b.trim().parse::<u64>().map_err(|_| bad())?,
                ),
                None => {
                    let v = part.trim().parse::<u64>().map_err(|_| bad())?;
                    (v, v)
                }
            };
            if b < a || b - a > (1 << 22) || out.len() as u64 + (b - a) > (1 << 22) {
                return Err(bad());
            }
            out.extend(a..=b);
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wrap(body: &str) -> String {
        format!("<platform version=\"4.1\">\n<zone id=\"z\" routing=\"Full\">\n{body}\n</zone>\n</platform>\n")
    }

    const HOSTS: &str = "<host id=\"a\" speed=\"1Gf\"/><host id=\"b\" speed=\"1Gf\"/>\
                         <link id=\"l\" bandwidth=\"1GBps\" latency=\"1us\"/>";

    fn err(text: &str) -> String {
        parse(text, "t.xml").unwrap_err()
    }

    #[test]
    fn reads_hosts_links_and_routes_with_directions() {
        let p = parse(
            &wrap(
                "<host id=\"a\" speed=\"1Gf\" core=\"4\"/><host id=\"b\" speed=\"2Gf\"/>\
                 <link id=\"s\" bandwidth=\"10Gbps\" latency=\"5us\" sharing_policy=\"SPLITDUPLEX\">\
                 <prop id=\"x\" value=\"y\"/></link>\
                 <link id=\"f\" bandwidth=\"1GBps\" latency=\"0\" sharing_policy=\"FATPIPE\"/>\
                 <route src=\"a\" dst=\"b\"><link_ctn id=\"s\" direction=\"UP\"/><link_ctn id=\"f\"/></route>",
            ),
            "t.xml",
        )
        .unwrap();
        assert_eq!(p.hosts.len(), 2);
        let names: Vec<&str> = p.links.iter().map(|l| l.name.as_str()).collect();
        assert_eq!(names, ["s_UP", "s_DOWN", "f"]);
        assert!(p.links[2].fatpipe && !p.links[0].fatpipe);
        assert_eq!(p.links[0].bandwidth, 10e9 / 8.0);
        let r = &p.zones[0].routes[0];
        assert_eq!(r.links, vec![0, 2]);
        // The reverse uses the other direction of the split-duplex link.
        assert_eq!(r.back, Some(vec![1, 2]));
        assert_eq!(
            p.points[p.hosts[0] as usize].kind,
            PointKind::Host {
                speed: 1e9,
                cores: 4
            }
        );
    }

    #[test]
    fn flat_cluster_makes_hosts_links_and_router_as_simgrid() {
        let p = parse(
            "<platform version=\"4.1\"><cluster id=\"c\" prefix=\"n-\" suffix=\".x\" radical=\"0-1,5\" \
             speed=\"1Gf\" bw=\"125MBps\" lat=\"50us\" bb_bw=\"1GBps\" bb_lat=\"1us\"/></platform>",
            "t.xml",
        )
        .unwrap();
        let hosts: Vec<&str> = (0..3).map(|h| p.host_name(h)).collect();
        assert_eq!(hosts, ["n-0.x", "n-1.x", "n-5.x"]);
        let names: Vec<&str> = p.links.iter().map(|l| l.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "c_backbone",
                "c_link_0_UP",
                "c_link_0_DOWN",
                "c_link_1_UP",
                "c_link_1_DOWN",
                "c_link_5_UP",
                "c_link_5_DOWN"
            ]
        );
        assert_eq!(p.zones[0].star[2].up, vec![5, 0]);
        assert_eq!(p.zones[0].star[2].down, vec![0, 6]);
        assert_eq!(p.points.last().unwrap().name, "n-c_router.x");
    }

    #[test]
    fn errors_name_line_and_column() {
        let cases: Vec<(String, &str)> = vec![
            ("<platform version=\"4.1\"><zone id=\"z\" routing=\"Full\"></platform>".into(), "t.xml:1:"),
            (wrap("<hots id=\"a\"/>"), "t.xml:3:1: unknown tag <hots>"),
            (wrap("<host id=\"a\" speed=\"1Gf\" colour=\"red\"/>"), "t.xml:3:1: <host> has no attribute \"colour\""),
            (wrap("<link id=\"l\" bandwidth=\"1GBs\" latency=\"1us\"/>"), "t.xml:3:1: bandwidth of link l: unknown unit"),
            (wrap("<link id=\"l\" bandwidth=\"1GBps\" latency=\"1 fortnight\"/>"), "t.xml:3:1: latency of link l"),
            (wrap(&format!("{HOSTS}\n<route src=\"a\" dst=\"b\"><link_ctn id=\"m\"/></route>")), "t.xml:4:24: no link named \"m\""),
            (wrap(&format!("{HOSTS}\n<route src=\"a\" dst=\"c\"><link_ctn id=\"l\"/></route>")), "t.xml:4:1: dst \"c\" names no host"),
            (wrap("<host id=\"a\" speed=\"1Gf\"/>\n  <host id=\"a\" speed=\"1Gf\"/>"), "t.xml:4:3: \"a\" is already the name"),
            (wrap("<link id=\"l\" bandwidth=\"1GBps\"/><link id=\"l\" bandwidth=\"1GBps\"/>"), "t.xml:3:33: link \"l\" is defined twice"),
            (wrap(&format!("{HOSTS}<route src=\"a\" dst=\"b\"><link_ctn id=\"l\"/></route>\n<route src=\"b\" dst=\"a\"><link_ctn id=\"l\"/></route>")), "t.xml:4:1: the route from b to a is defined twice"),
            (wrap("<host id=\"a\" speed=\"1Gf\"/><host id=\"b\" speed=\"1Gf\"/><link id=\"s\" bandwidth=\"1GBps\" sharing_policy=\"SPLITDUPLEX\"/><route src=\"a\" dst=\"b\"><link_ctn id=\"s\"/></route>"), "give direction=\"UP\" or \"DOWN\""),
            (wrap(&format!("{HOSTS}<route src=\"a\" dst=\"b\"><link_ctn id=\"l\" direction=\"UP\"/></route>")), "no SPLITDUPLEX link \"l\""),
            (wrap(&format!("{HOSTS}<route src=\"a\" dst=\"b\"></route>")), "empty route"),
            (wrap("<host id=\"a\" speed=\"12\"/>"), "has no unit"),
            ("<platform version=\"3\"></platform>".into(), "t.xml:1:1: platform version \"3\""),
            (wrap("<cluster id=\"c\" prefix=\"n\" suffix=\"\" radical=\"0-3\" speed=\"1Gf\" bw=\"1GBps\" lat=\"1us\" topology=\"DRAGONFLY\" topo_parameters=\"2,1;1,1;1,1;2\"/>"), "more groups (2) than routers per chassis (1)"),
            (wrap("<cluster id=\"c\" prefix=\"n\" suffix=\"\" radical=\"0-3\" speed=\"1Gf\" bw=\"1GBps\" lat=\"1us\" topology=\"DRAGONFLY\" topo_parameters=\"1,1;1,1;4\"/>"), "topo_parameters of a DRAGONFLY must be"),
            (wrap("<cluster id=\"c\" prefix=\"n\" suffix=\"\" radical=\"0-3\" speed=\"1Gf\" bw=\"1GBps\" lat=\"1us\" topology=\"TORUS\" topo_parameters=\"2,3\"/>"), "its topology has 6 hosts but radical gives 4"),
            (wrap("<cluster id=\"c\" prefix=\"n\" suffix=\"\" radical=\"3-1\" speed=\"1Gf\" bw=\"1GBps\" lat=\"1us\"/>"), "radical must be like"),
            (wrap("<bypassRoute src=\"a\" dst=\"b\"/>"), "<bypassRoute> is not supported"),
            (wrap("<zone id=\"y\" routing=\"Vivaldi\"/>"), "zone routing \"vivaldi\" is not supported"),
            ("<zone id=\"z\" routing=\"Full\"/>".into(), "t.xml:1:1: expected <platform>"),
            ("<platform version=\"4.1\"><zone id=\"z\" routing=\"Full\"/></platform>".into(), "the platform has no host"),
        ];
        for (text, want) in cases {
            let e = err(&text);
            assert!(e.contains(want), "{want:?} not in {e:?}");
        }
    }

    #[test]
    fn zone_routes_need_gateways_inside_their_zones() {
        let base = "<platform version=\"4.1\"><zone id=\"r\" routing=\"Full\">\
            <zone id=\"x\" routing=\"Full\"><host id=\"a\" speed=\"1Gf\"/></zone>\
            <zone id=\"y\" routing=\"Full\"><host id=\"b\" speed=\"1Gf\"/></zone>\
            <link id=\"l\" bandwidth=\"1GBps\"/>";
        let ok = format!("{base}<zoneRoute src=\"x\" dst=\"y\" gw_src=\"a\" gw_dst=\"b\"><link_ctn id=\"l\"/></zoneRoute></zone></platform>");
        parse(&ok, "t.xml").unwrap();
        let bad = format!("{base}<zoneRoute src=\"x\" dst=\"y\" gw_src=\"b\" gw_dst=\"a\"><link_ctn id=\"l\"/></zoneRoute></zone></platform>");
        assert!(err(&bad).contains("gw_src \"b\" is not inside zone \"x\""));
        let not_zone = format!("{base}<zoneRoute src=\"x\" dst=\"l\" gw_src=\"a\" gw_dst=\"b\"><link_ctn id=\"l\"/></zoneRoute></zone></platform>");
        assert!(err(&not_zone).contains("dst \"l\" names no host, router or zone"));
        let plain = format!(
            "{base}<route src=\"x\" dst=\"y\"><link_ctn id=\"l\"/></route></zone></platform>"
        );
        assert!(err(&plain).contains("is a zone: use <zoneRoute>"));
    }
}
