//! STUB (h6-web only, replaced by h6-graphs' reader on merge): METIS graph files, edge lists,
//! coordinates and part files.

use crate::partition::{Graph, GraphError};

pub struct GraphFile {
    pub graph: Graph,
    pub has_vwgt: bool,
    pub has_adjwgt: bool,
    pub has_vsize: bool,
}

fn err(line: usize, message: impl Into<String>) -> GraphError {
    GraphError { line: Some(line as u64), message: message.into() }
}

fn nums(line: &str, at: usize) -> Result<Vec<u64>, GraphError> {
    line.split_whitespace()
        .map(|t| t.parse::<u64>().map_err(|_| err(at, format!("\"{t}\" is not a whole number"))))
        .collect()
}

pub fn parse_metis(text: &str) -> Result<GraphFile, GraphError> {
    let mut lines = text.lines().enumerate().filter(|(_, l)| !l.trim_start().starts_with('%'));
    let (hl, header) = lines.next().ok_or_else(|| err(1, "empty file"))?;
    let h = nums(header, hl + 1)?;
    if h.len() < 2 { return Err(err(hl + 1, "header needs n and m")); }
    let n = h[0] as u32;
    let fmt = h.get(2).copied().unwrap_or(0);
    let (has_vsize, has_vwgt, has_adjwgt) = (fmt / 100 % 10 == 1, fmt / 10 % 10 == 1, fmt % 10 == 1);
    let mut edges = Vec::new();
    let mut vwgt = Vec::new();
    let mut vsize = Vec::new();
    for v in 0..n {
        let (li, line) = lines.next().ok_or_else(|| err(text.lines().count() + 1, format!("missing the line of vertex {}", v + 1)))?;
        let xs = nums(line, li + 1)?;
        let mut i = 0;
        if has_vsize { vsize.push(xs[i] as u32); i += 1; } else { vsize.push(1); }
        if has_vwgt { vwgt.push(xs[i] as u32); i += 1; } else { vwgt.push(1); }
        while i < xs.len() {
            let u = xs[i];
            if u == 0 || u > u64::from(n) { return Err(err(li + 1, format!("neighbour {u} is not from 1 to {n}"))); }
            let w = if has_adjwgt { i += 1; *xs.get(i).ok_or_else(|| err(li + 1, "missing edge weight"))? as u32 } else { 1 };
            i += 1;
            let u = (u - 1) as u32;
            if u == v { return Err(err(li + 1, "self-loop")); }
            if u > v { edges.push((v, u, w)); }
        }
    }
    let mut graph = Graph::from_edges(n, &edges).map_err(|e| err(1, e.message))?;
    graph.vwgt = vwgt;
    graph.vsize = vsize;
    graph.check().map_err(|e| err(1, e))?;
    if graph.m() != h[1] { return Err(err(hl + 1, format!("header says {} edges, the file has {}", h[1], graph.m()))); }
    Ok(GraphFile { graph, has_vwgt, has_adjwgt, has_vsize })
}

pub fn parse_edge_list(text: &str) -> Result<GraphFile, GraphError> {
    let mut edges = Vec::new();
    let mut n = 0u32;
    for (li, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') || t.starts_with('%') { continue; }
        let xs = nums(t, li + 1)?;
        if xs.len() < 2 || xs.len() > 3 { return Err(err(li + 1, "an edge is u v [w]")); }
        let (u, v) = (xs[0] as u32, xs[1] as u32);
        n = n.max(u + 1).max(v + 1);
        edges.push((u, v, xs.get(2).copied().unwrap_or(1) as u32));
    }
    let graph = Graph::from_edges(n, &edges)?;
    Ok(GraphFile { graph, has_vwgt: false, has_adjwgt: true, has_vsize: false })
}

pub fn parse_xyz(text: &str, n: u32) -> Result<Vec<[f64; 3]>, GraphError> {
    let mut out = Vec::new();
    for (li, line) in text.lines().enumerate() {
        if line.trim().is_empty() { continue; }
        let xs: Vec<f64> = line.split_whitespace().map(|t| t.parse::<f64>().map_err(|_| err(li + 1, "not a number"))).collect::<Result<_, _>>()?;
        out.push([xs[0], *xs.get(1).unwrap_or(&0.0), *xs.get(2).unwrap_or(&0.0)]);
    }
    if out.len() != n as usize { return Err(err(text.lines().count(), format!("{} points for {n} vertices", out.len()))); }
    Ok(out)
}

pub fn write_part(part: &[u32]) -> String {
    part.iter().map(|p| format!("{p}\n")).collect()
}
