//! Slurm's `topology.conf` for the `topology/tree` plugin: one switch per line,
//! `SwitchName=s1 Switches=leaf[1-3] LinkSpeed=100` or `SwitchName=leaf1 Nodes=tux[000-031]`.
//!
//! How Slurm (22.05, `src/plugins/topology/tree/topology_tree.c`) reads the file, and what we
//! do the same or stricter:
//! - Keys are case-insensitive (`switchname=` is `SwitchName=`); `#` starts a comment; a value may
//!   be quoted and `=` may have blanks around it. Every line starts with `SwitchName=`; the other
//!   keys are `Switches`, `Nodes` and `LinkSpeed` (an unsigned 32-bit number, 1 when absent). A
//!   line with both `Switches` and `Nodes`, or neither, is an error in Slurm and here.
//! - A switch with `Nodes` is a leaf switch, of level 0; a switch with `Switches` has level
//!   `1 + max(level of its children)`. Slurm refuses a duplicate switch name, a child naming an
//!   unknown switch or itself, and a configuration that is not a tree (cycles); so do we.
//! - Slurm only warns when a node sits under two leaf switches, and silently keeps the last
//!   parent of a switch listed by two parents; we refuse both (the model is a tree).
//! - Several top-level switches are accepted: Slurm logs "no switch can reach all nodes" and then
//!   never gives a job nodes from two of them (the job's top switch must hold all its nodes).
//!   [`TopologyConf::roots`] lists them in file order; a machine built from the file joins them
//!   under one virtual root (see `crate::alloc::scenario`), which only the closed-min policies
//!   and the metrics see.
//! - At most [`MAX_LEVEL`] (20) switch levels: Slurm stops resolving levels after 20 passes.
//! - Hostlist expressions (`tux[000-031]`, `leaf[1-3]`) are read by [`super::hostlist`]; their
//!   size is counted before any name is written, so a huge expression is refused cheaply.
//!
//! Node order: Slurm breaks ties by node index (the order of `slurm.conf`), which this file
//! does not give. We number nodes in tree order: top-level switches in file order, then
//! depth-first, children in the order `Switches=` lists them, the nodes of a leaf switch in the
//! order `Nodes=` lists them. A `slurm.conf` declaring nodes in that order gives Slurm the same
//! indices. Switch indices (Slurm's other tie-break) are file order.
//!
//! Complexity: `O(S + N)` for `S` switches and `N` nodes, plus the text's length.

use super::hostlist;
use std::collections::BTreeMap;

/// One `SwitchName=` line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Switch {
    pub name: String,
    /// 1-based line of its definition.
    pub line: usize,
    pub link_speed: u32,
    /// Child switches (indices into [`TopologyConf::switches`]) in the order listed.
    pub children: Vec<usize>,
    /// Nodes of a leaf switch in the order listed (empty for an inner switch).
    pub nodes: Vec<String>,
    /// The switch listing this one among its `Switches`, if any.
    pub parent: Option<usize>,
    /// Slurm's level: 0 for a leaf switch, `1 + max(children)` otherwise.
    pub level: u32,
}

/// A parsed and checked file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TopologyConf {
    /// Switches in file order (Slurm's switch indices).
    pub switches: Vec<Switch>,
    /// Switches without a parent, in file order.
    pub roots: Vec<usize>,
    /// Node names in tree order (module doc).
    pub nodes: Vec<String>,
}

/// Highest switch level read: Slurm stops resolving levels after 20 passes ("Switch
/// configuration is not a tree").
pub const MAX_LEVEL: u32 = 20;

fn at(line: usize, col: usize, msg: impl std::fmt::Display) -> String {
    format!("topology.conf line {line}, column {col}: {msg}")
}

/// `key=value` pairs of one line with the 1-based columns of key and value.
fn pairs(text: &str, line: usize) -> Result<Vec<(String, usize, String, usize)>, String> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let blank = |c: char| c.is_whitespace();
    loop {
        while i < chars.len() && blank(chars[i]) {
            i += 1;
        }
        if i >= chars.len() {
            return Ok(out);
        }
        let kstart = i;
        while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
            i += 1;
        }
        let key: String = chars[kstart..i].iter().collect();
        if key.is_empty() {
            return Err(at(
                line,
                kstart + 1,
                format!(
                    "expected a key such as SwitchName=, found {:?}",
                    chars[kstart]
                ),
            ));
        }
        while i < chars.len() && blank(chars[i]) {
            i += 1;
        }
        if i >= chars.len() || chars[i] != '=' {
            return Err(at(line, kstart + 1, format!("{key} has no '=value'")));
        }
        i += 1;
        while i < chars.len() && blank(chars[i]) {
            i += 1;
        }
        let vstart = i;
        let value: String = if i < chars.len() && chars[i] == '"' {
            let close = chars[i + 1..]
                .iter()
                .position(|&c| c == '"')
                .ok_or_else(|| at(line, vstart + 1, "a '\"' is not closed"))?;
            let v = chars[i + 1..i + 1 + close].iter().collect();
            i += close + 2;
            v
        } else {
            while i < chars.len() && !blank(chars[i]) {
                i += 1;
            }
            chars[vstart..i].iter().collect()
        };
        if value.is_empty() {
            return Err(at(line, vstart + 1, format!("{key}= has an empty value")));
        }
        out.push((key, kstart + 1, value, vstart + 1));
    }
}

/// Reads and checks a file (module doc); at most `max_nodes` nodes in all.
///
/// # Errors
/// A message naming the line and column: unknown or repeated key, bad number, bad hostlist, a
/// hostlist of more than `max_nodes` names, duplicate switch, unknown or self child, a switch
/// with two parents, a node under two leaf switches, a cycle, or no switch at all.
pub fn parse(text: &str, max_nodes: u64) -> Result<TopologyConf, String> {
    struct Raw {
        name: String,
        line: usize,
        speed: u32,
        switches: Option<(String, usize)>,
        nodes: Option<(String, usize)>,
    }
    let mut raws: Vec<Raw> = Vec::new();
    let mut by_name: BTreeMap<String, usize> = BTreeMap::new();
    let mut total_nodes: u64 = 0;
    for (ln, raw_line) in text.lines().enumerate() {
        let line = ln + 1;
        let content = match raw_line.find('#') {
            Some(h) => &raw_line[..h],
            None => raw_line,
        };
        let kv = pairs(content, line)?;
        let Some(((k0, c0, name, _), rest)) = kv.split_first() else {
            continue;
        };
        if !k0.eq_ignore_ascii_case("SwitchName") {
            return Err(at(
                line,
                *c0,
                format!("unknown key {k0:?}: a line starts with SwitchName="),
            ));
        }
        if let Some(&first) = by_name.get(name) {
            return Err(at(
                line,
                c0 + "SwitchName=".len(),
                format!(
                    "switch {name:?} is already defined on line {}",
                    raws[first].line
                ),
            ));
        }
        let mut r = Raw {
            name: name.clone(),
            line,
            speed: 1,
            switches: None,
            nodes: None,
        };
        let mut seen: Vec<&str> = Vec::new();
        for (k, kc, v, vc) in rest {
            let key = ["Switches", "Nodes", "LinkSpeed"]
                .into_iter()
                .find(|known| k.eq_ignore_ascii_case(known))
                .ok_or_else(|| {
                    at(
                        line,
                        *kc,
                        format!(
                            "unknown key {k:?} (a switch takes Switches=, Nodes= and LinkSpeed=)"
                        ),
                    )
                })?;
            if seen.contains(&key) {
                return Err(at(line, *kc, format!("{key}= is given twice")));
            }
            seen.push(key);
            match key {
                "Switches" => r.switches = Some((v.clone(), *vc)),
                "Nodes" => {
                    let n = hostlist::count(v).map_err(|e| at(line, *vc, e))?;
                    total_nodes = total_nodes.saturating_add(n);
                    if total_nodes > max_nodes {
                        return Err(at(
                            line,
                            *vc,
                            format!("the switches hold more than {max_nodes} nodes ({v} alone names {n})"),
                        ));
                    }
                    r.nodes = Some((v.clone(), *vc));
                }
                _ => {
                    r.speed = v.parse().map_err(|_| {
                        at(
                            line,
                            *vc,
                            format!("LinkSpeed={v} is not an unsigned 32-bit number"),
                        )
                    })?
                }
            }
        }
        match (&r.switches, &r.nodes) {
            (Some(_), Some(_)) => {
                return Err(at(
                    line,
                    *c0,
                    format!("switch {name:?} has both Switches= and Nodes="),
                ))
            }
            (None, None) => {
                return Err(at(
                    line,
                    *c0,
                    format!("switch {name:?} has neither Switches= nor Nodes="),
                ))
            }
            _ => {}
        }
        by_name.insert(name.clone(), raws.len());
        raws.push(r);
    }
    if raws.is_empty() {
        return Err("topology.conf: no switch is defined (no SwitchName= line)".into());
    }
    let mut switches: Vec<Switch> = raws
        .iter()
        .map(|r| Switch {
            name: r.name.clone(),
            line: r.line,
            link_speed: r.speed,
            children: Vec::new(),
            nodes: Vec::new(),
            parent: None,
            level: 0,
        })
        .collect();
    let mut node_switch: BTreeMap<String, usize> = BTreeMap::new();
    for (i, r) in raws.iter().enumerate() {
        if let Some((expr, col)) = &r.switches {
            let max = raws.len() as u64;
            let kids = hostlist::expand(expr, max).map_err(|e| at(r.line, *col, e))?;
            for kid in kids {
                let j = *by_name.get(&kid).ok_or_else(|| {
                    at(
                        r.line,
                        *col,
                        format!("switch {:?} names an unknown child switch {kid:?}", r.name),
                    )
                })?;
                if j == i {
                    return Err(at(
                        r.line,
                        *col,
                        format!("switch {:?} names itself as a child", r.name),
                    ));
                }
                if let Some(p) = switches[j].parent {
                    return Err(at(
                        r.line,
                        *col,
                        format!(
                            "switch {kid:?} has two parents: {:?} (line {}) and {:?}",
                            switches[p].name, switches[p].line, r.name
                        ),
                    ));
                }
                switches[j].parent = Some(i);
                switches[i].children.push(j);
            }
        }
        if let Some((expr, col)) = &r.nodes {
            let names = hostlist::expand(expr, max_nodes).map_err(|e| at(r.line, *col, e))?;
            for n in names {
                if let Some(&other) = node_switch.get(&n) {
                    return Err(at(
                        r.line,
                        *col,
                        if other == i {
                            format!("node {n:?} is listed twice by switch {:?}", r.name)
                        } else {
                            format!(
                                "node {n:?} is under two leaf switches: {:?} (line {}) and {:?}",
                                switches[other].name, switches[other].line, r.name
                            )
                        },
                    ));
                }
                node_switch.insert(n.clone(), i);
                switches[i].nodes.push(n);
            }
        }
    }
    // a cycle: every switch of it has a parent, so it is unreachable from the roots
    let roots: Vec<usize> = (0..switches.len())
        .filter(|&i| switches[i].parent.is_none())
        .collect();
    let mut order: Vec<usize> = Vec::with_capacity(switches.len()); // depth-first, pre-order
    let mut stack: Vec<usize> = roots.iter().rev().copied().collect();
    while let Some(u) = stack.pop() {
        order.push(u);
        stack.extend(switches[u].children.iter().rev());
    }
    if order.len() < switches.len() {
        let mut reached = vec![false; switches.len()];
        for &u in &order {
            reached[u] = true;
        }
        let first = (0..switches.len()).find(|&i| !reached[i]).unwrap();
        return Err(at(
            switches[first].line,
            1,
            format!(
                "switch {:?} is on a cycle of switches (the configuration is not a tree)",
                switches[first].name
            ),
        ));
    }
    for &u in order.iter().rev() {
        let lv = switches[u]
            .children
            .iter()
            .map(|&c| switches[c].level + 1)
            .max()
            .unwrap_or(0);
        if lv > MAX_LEVEL {
            return Err(at(
                switches[u].line,
                1,
                format!(
                    "switch {:?} is at level {lv}; at most {MAX_LEVEL} levels are read (Slurm gives up on deeper files)",
                    switches[u].name
                ),
            ));
        }
        switches[u].level = lv;
    }
    let nodes = order
        .iter()
        .flat_map(|&u| switches[u].nodes.iter().cloned())
        .collect();
    Ok(TopologyConf {
        switches,
        roots,
        nodes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "# a small cluster\n\
        SwitchName=top Switches=agg[1-2] LinkSpeed=100\n\
        switchname=agg1 switches=leaf[1-2]\n\
        SwitchName = agg2 Switches=\"leaf3\"  # one leaf\n\
        SwitchName=leaf1 Nodes=n[01-03]\n\
        SwitchName=leaf2 Nodes=n[04-05]\n\
        SwitchName=leaf3 Nodes=n[10,07]\n";

    #[test]
    fn reads_levels_order_and_speeds() {
        let t = parse(SAMPLE, 100).unwrap();
        let names: Vec<&str> = t.switches.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["top", "agg1", "agg2", "leaf1", "leaf2", "leaf3"]);
        let levels: Vec<u32> = t.switches.iter().map(|s| s.level).collect();
        assert_eq!(levels, [2, 1, 1, 0, 0, 0]);
        assert_eq!(t.roots, [0]);
        assert_eq!(t.switches[0].link_speed, 100);
        assert_eq!(t.switches[1].link_speed, 1);
        assert_eq!(t.switches[3].parent, Some(1));
        assert_eq!(
            t.nodes,
            ["n01", "n02", "n03", "n04", "n05", "n10", "n07"],
            "tree order, Nodes= order within a leaf switch"
        );
    }

    #[test]
    fn several_roots_and_uneven_depths_are_read() {
        let t = parse(
            "SwitchName=a Nodes=x[1-2]\nSwitchName=b Switches=c\nSwitchName=c Nodes=y1\n",
            10,
        )
        .unwrap();
        assert_eq!(t.roots, [0, 1]);
        assert_eq!(t.switches[1].level, 1);
        assert_eq!(t.nodes, ["x1", "x2", "y1"]);
    }

    fn err(text: &str) -> String {
        parse(text, 1000).unwrap_err()
    }

    #[test]
    fn errors_name_line_and_column() {
        assert_eq!(
            err("SwitchName=s Nodes=n1 Weight=3"),
            "topology.conf line 1, column 23: unknown key \"Weight\" (a switch takes Switches=, Nodes= and LinkSpeed=)"
        );
        assert!(err("\nNodes=n1").starts_with("topology.conf line 2, column 1: unknown key"));
        assert!(err("SwitchName=s Switches=t")
            .starts_with("topology.conf line 1, column 23: switch \"s\" names an unknown child"));
        assert!(err("SwitchName=s Switches=s").contains("names itself"));
        let two = err("SwitchName=a Nodes=n[1-3]\nSwitchName=b Nodes=n3");
        assert!(two.starts_with("topology.conf line 2, column 20: node \"n3\" is under two leaf switches: \"a\" (line 1)"), "{two}");
        let parents =
            err("SwitchName=p Switches=l\nSwitchName=q Switches=l\nSwitchName=l Nodes=n1");
        assert!(
            parents.starts_with("topology.conf line 2, column 23: switch \"l\" has two parents"),
            "{parents}"
        );
        let cycle = err("SwitchName=r Nodes=n1\nSwitchName=a Switches=b\nSwitchName=b Switches=a");
        assert!(
            cycle.starts_with("topology.conf line 2, column 1: switch \"a\" is on a cycle"),
            "{cycle}"
        );
        assert_eq!(
            err("# nothing\n\n"),
            "topology.conf: no switch is defined (no SwitchName= line)"
        );
        assert!(err("SwitchName=s Nodes=n1 Nodes=n2").contains("column 23: Nodes= is given twice"));
        assert!(err("SwitchName=s Nodes=n1\nSwitchName=s Nodes=n2")
            .contains("line 2, column 12: switch \"s\" is already defined on line 1"));
        assert!(err("SwitchName=s Nodes=n1 Switches=t").contains("both Switches= and Nodes="));
        assert!(err("SwitchName=s LinkSpeed=4").contains("neither Switches= nor Nodes="));
        assert!(
            err("SwitchName=s Nodes=n1 LinkSpeed=-4").contains("column 33: LinkSpeed=-4 is not")
        );
        assert!(err("SwitchName=s Nodes=n[1-").contains("column 20:"));
        assert!(err("SwitchName=s Nodes=n1 Switches").contains("Switches has no '=value'"));
        assert!(err("SwitchName=s Nodes=").contains("Nodes= has an empty value"));
        assert!(err("SwitchName=s Nodes=\"n1").contains("column 20: a '\"' is not closed"));
        assert!(err("SwitchName=s Nodes=n1 =3").contains("column 23: expected a key"));
        assert!(err("SwitchName=s Nodes=n[1,1]").contains("listed twice by switch"));
    }

    #[test]
    fn more_than_twenty_levels_are_refused() {
        let chain = |levels: u32| {
            let mut t = String::from("SwitchName=s0 Nodes=n1\n");
            for i in 1..=levels {
                t.push_str(&format!("SwitchName=s{i} Switches=s{}\n", i - 1));
            }
            t
        };
        assert!(parse(&chain(20), 10).is_ok());
        assert_eq!(
            parse(&chain(21), 10).unwrap_err(),
            "topology.conf line 22, column 1: switch \"s21\" is at level 21; at most 20 levels are read (Slurm gives up on deeper files)"
        );
    }

    #[test]
    fn a_huge_hostlist_is_refused_before_expansion() {
        let e = parse(
            "SwitchName=a Nodes=n[1-10]\nSwitchName=b Nodes=m[0-999999999999999]",
            100,
        )
        .unwrap_err();
        assert_eq!(
            e,
            "topology.conf line 2, column 20: the switches hold more than 100 nodes (m[0-999999999999999] alone names 1000000000000000)"
        );
        assert!(parse("SwitchName=a Nodes=n[1-100]", 100).is_ok());
        assert!(parse("SwitchName=a Nodes=n[1-101]", 100).is_err());
    }
}
