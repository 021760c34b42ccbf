//! The METIS graph format, read and written.
//!
//! From the METIS 5 manual, section 4.1.1:
//!
//! ```text
//! % comment lines start with '%' (anywhere in the file)
//! n m [fmt [ncon]]          header: vertices, undirected edges, format, constraints
//! [s] [w] v1 [e1] v2 [e2] ...   one line per vertex, in order (vertex 1 first)
//! ```
//!
//! `fmt` has up to three binary digits, read right to left: the last says that every neighbour
//! is followed by its edge weight, the middle one that each line starts with the vertex weight,
//! the first one that each line starts with the vertex size (before the weight): `1`, `10`,
//! `11`, `100`, `111`, ... Neighbours are 1-based. An empty line is a vertex with no neighbours;
//! empty lines after the `n` vertex lines are ignored. Every edge is listed by both of its
//! vertices with the same weight, and `m` counts it once.
//!
//! This reader refuses, naming the 1-based line of the offence in [`GraphError::line`]: a
//! missing or malformed header, `fmt` digits other than 0/1, `ncon > 1` (multi-constraint
//! graphs), `ncon = 1` without vertex weights (as METIS does), anything that is not a whole
//! number, a missing vertex size, weight or edge weight, negative vertex sizes or weights, edge
//! weights below 1 (METIS's rules), values above `2^32 - 1`, neighbour ids outside `1..=n`,
//! self-loops, a neighbour listed twice, an edge whose reverse is missing or has another weight
//! (on the line of the vertex that lists it), too few or too many vertex lines, and an `m` that
//! does not match the edges listed (on the header's line).

use super::text::{
    err, is_comment, parse_int, parse_u32, parse_u32_with, shorten, small_int, Int, Tokens,
};
use crate::graph::{Graph, GraphError};
use std::fmt::Write as _;

/// A graph read from a file, and which optional columns the file had (so that a graph written
/// back keeps them, and a report can say whether weights were given).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GraphFile {
    pub graph: Graph,
    pub has_vwgt: bool,
    pub has_adjwgt: bool,
    pub has_vsize: bool,
}

/// The `fmt` field: `(vsize, vwgt, adjwgt)`.
fn parse_fmt(tok: &str, line: u64) -> Result<(bool, bool, bool), GraphError> {
    let digits = tok.trim_start_matches('0');
    if !tok.bytes().all(|b| b == b'0' || b == b'1') || digits.len() > 3 {
        return Err(err(
            line,
            format!(
                "fmt {:?} is not a METIS format: up to three digits 0 or 1 (vertex sizes, \
                 vertex weights, edge weights), e.g. 1, 10, 11, 100 or 111",
                shorten(tok)
            ),
        ));
    }
    let padded = format!("{digits:0>3}");
    let b = padded.as_bytes();
    Ok((b[0] == b'1', b[1] == b'1', b[2] == b'1'))
}

/// Parses a METIS graph file (see the module doc for the format and every check).
///
/// # Errors
/// A [`GraphError`] whose `line` is the 1-based line of the offence (comment lines count) and
/// whose message is a sentence; vertices are named by their 1-based METIS numbers.
///
/// # Complexity
/// `O(V + E)` time and memory for `V` vertices and `E` edges.
///
/// # Example
/// ```
/// use placelab::formats::metis::parse_metis;
/// // A triangle 1-2-3 with edge weights (fmt 1).
/// let f = parse_metis("% triangle\n3 3 1\n2 5 3 1\n1 5 3 2\n1 1 2 2\n").unwrap();
/// assert_eq!(f.graph.m(), 3);
/// assert!(f.has_adjwgt && !f.has_vwgt);
/// // Vertex 3 (line 4) lists 2, but vertex 2 (line 3) does not list 3.
/// let e = parse_metis("3 3\n2 3\n1\n1 2\n").unwrap_err();
/// assert_eq!(e.line, Some(4));
/// ```
pub fn parse_metis(text: &str) -> Result<GraphFile, GraphError> {
    parse_metis_with(text, true)
}

/// [`parse_metis`], with the vertex lines read by [`fast_vertex_lines`] when `fast` and the
/// file lets it, line by line otherwise (the tests compare the two).
fn parse_metis_with(text: &str, fast: bool) -> Result<GraphFile, GraphError> {
    let mut lines = text.lines().enumerate().map(|(i, l)| (i as u64 + 1, l));

    // Header: the first line that is neither a comment nor blank.
    let (hline, header) =
        loop {
            match lines.next() {
                None => return Err(err(
                    1,
                    "the file has no header line 'n m [fmt [ncon]]' (it is empty or all comments)",
                )),
                Some((_, l)) if l.trim().is_empty() || is_comment(l, &['%']) => continue,
                Some(h) => break h,
            }
        };
    let fields: Vec<&str> = header.split_ascii_whitespace().collect();
    if fields.len() < 2 || fields.len() > 4 {
        return Err(err(
            hline,
            format!(
                "the header 'n m [fmt [ncon]]' has 2 to 4 numbers, this one has {}",
                fields.len()
            ),
        ));
    }
    let n = parse_u32(fields[0], hline, "the number of vertices n", 1)?;
    let m_header = match parse_int(fields[1]) {
        Int::Value(v) => v,
        Int::Negative => {
            return Err(err(
                hline,
                format!("the number of edges m = {} is negative", fields[1]),
            ))
        }
        Int::TooLarge => return Err(err(hline, format!("m = {} is too large", fields[1]))),
        Int::NotNumber => {
            return Err(err(
                hline,
                format!(
                    "the number of edges m {:?} is not a whole number",
                    shorten(fields[1])
                ),
            ))
        }
    };
    let (has_vsize, has_vwgt, has_adjwgt) = match fields.get(2) {
        Some(t) => parse_fmt(t, hline)?,
        None => (false, false, false),
    };
    if let Some(t) = fields.get(3) {
        let ncon = parse_u32(t, hline, "ncon", 0)?;
        if ncon > 1 {
            return Err(err(
                hline,
                format!(
                    "multi-constraint graphs (ncon = {ncon}) are not supported: give one vertex \
                     weight per vertex"
                ),
            ));
        }
        if ncon == 1 && !has_vwgt {
            return Err(err(
                hline,
                "ncon = 1 but fmt does not announce vertex weights (use fmt 10 or 11)",
            ));
        }
    }
    // Refuse before allocating anything of size n when the file cannot hold n vertex lines.
    // Lines as `str::lines` counts them: one per newline, plus an unterminated last line.
    let newlines = text.bytes().filter(|&b| b == b'\n').count() as u64;
    let max_lines = newlines + u64::from(!text.is_empty() && !text.ends_with('\n'));
    if u64::from(n) > max_lines.saturating_sub(hline) {
        return Err(err(
            hline,
            format!(
                "the header announces n = {n} vertices but only {} lines follow it",
                max_lines.saturating_sub(hline)
            ),
        ));
    }
    if m_header > u64::from(u32::MAX / 2) {
        return Err(err(
            hline,
            format!(
                "m = {m_header} edges is more than this reader holds ({})",
                u32::MAX / 2
            ),
        ));
    }

    let cap = (2 * m_header).min(text.len() as u64 / 2) as usize;
    let flags = (has_vsize, has_vwgt, has_adjwgt);
    let body = if fast {
        // The header's line ends at its slice's end; the vertex lines start after its newline.
        let mut off = header.as_ptr() as usize - text.as_ptr() as usize + header.len();
        let bytes = text.as_bytes();
        if bytes.get(off) == Some(&b'\r') && bytes.get(off + 1) == Some(&b'\n') {
            off += 2;
        } else if bytes.get(off) == Some(&b'\n') {
            off += 1;
        }
        fast_vertex_lines(&bytes[off.min(bytes.len())..], hline + 1, n, flags, cap)
    } else {
        None
    };
    let mut body = match body {
        Some(b) => b,
        None => slow_vertex_lines(lines, hline, n, flags, cap)?,
    };
    body.check_symmetry()?;
    let m_read = body.adjncy.len() as u64 / 2;
    if m_read != m_header {
        let hint = if m_header == 2 * m_read {
            " (m counts each edge once, not once per direction)"
        } else {
            ""
        };
        return Err(err(
            hline,
            format!(
                "the header says m = {m_header} edges but the vertex lines list {m_read}{hint}"
            ),
        ));
    }
    Ok(GraphFile {
        graph: Graph {
            xadj: body.xadj,
            adjncy: body.adjncy,
            vwgt: body.vwgt,
            adjwgt: body.adjwgt,
            vsize: body.vsize,
        },
        has_vwgt,
        has_adjwgt,
        has_vsize,
    })
}

/// The vertex lines of a METIS file as read: the CSR arrays, each vertex's line, and a
/// scratch array of `n` entries for the symmetry check.
struct VertexLines {
    xadj: Vec<u32>,
    adjncy: Vec<u32>,
    adjwgt: Vec<u32>,
    vwgt: Vec<u32>,
    vsize: Vec<u32>,
    vline: Vec<u64>,
    mark: Vec<u32>,
}

impl VertexLines {
    fn with_capacity(n: u32, cap: usize) -> VertexLines {
        let nu = n as usize;
        let mut xadj = Vec::with_capacity(nu + 1);
        xadj.push(0);
        VertexLines {
            xadj,
            adjncy: Vec::with_capacity(cap),
            adjwgt: Vec::with_capacity(cap),
            vwgt: Vec::with_capacity(nu),
            vsize: Vec::with_capacity(nu),
            vline: Vec::with_capacity(nu),
            mark: vec![u32::MAX; nu],
        }
    }
}

impl VertexLines {
    /// Every edge is listed by both its vertices with the same weight: transpose once (lists
    /// of the transpose come out sorted by vertex), then for each v mark who lists v (and with
    /// what weight) and check each of v's entries against it.
    fn check_symmetry(&mut self) -> Result<(), GraphError> {
        let VertexLines {
            xadj,
            adjncy,
            adjwgt,
            vline,
            mark,
            ..
        } = self;
        check_symmetry(xadj, adjncy, adjwgt, vline, mark)
    }
}

/// ASCII whitespace within a line (`u8::is_ascii_whitespace` less the newline).
#[inline]
fn is_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | 0x0c)
}

/// The next number of the line at `*i` in `b`: `Ok(None)` at the line's end (a newline or the
/// text's end, left unread), `Err(())` for a token that is not 1 to 9 plain digits.
#[inline]
fn next_number(b: &[u8], i: &mut usize) -> Result<Option<u64>, ()> {
    let mut j = *i;
    while j < b.len() && is_blank(b[j]) {
        j += 1;
    }
    if j == b.len() || b[j] == b'\n' {
        *i = j;
        return Ok(None);
    }
    let start = j;
    while j < b.len() && b[j] != b'\n' && !is_blank(b[j]) {
        j += 1;
    }
    *i = j;
    small_int(&b[start..j]).map(Some).ok_or(())
}

/// The `n` vertex lines at the start of `body` (its first line is line `first` of the file),
/// read in one pass over the bytes, when the file is plain: every token of 1 to 9 digits, no
/// comment line among or after them, only blank lines after them, every neighbour in range,
/// no self-loop, no neighbour twice on a line, no edge weight 0, and `n` lines present.
/// `None` otherwise, and then [`slow_vertex_lines`] reads them again and names the problem:
/// both give the same arrays for every file this one accepts (tested).
///
/// # Complexity
/// `O(body length + n)`.
fn fast_vertex_lines(
    body: &[u8],
    first: u64,
    n: u32,
    (has_vsize, has_vwgt, has_adjwgt): (bool, bool, bool),
    cap: usize,
) -> Option<VertexLines> {
    let mut out = VertexLines::with_capacity(n, cap);
    let mut i = 0usize;
    for (v, ln) in (0..n).zip(first..) {
        if i >= body.len() {
            return None;
        }
        out.vline.push(ln);
        out.vsize.push(if has_vsize {
            u32::try_from(next_number(body, &mut i).ok()??).ok()?
        } else {
            1
        });
        out.vwgt.push(if has_vwgt {
            u32::try_from(next_number(body, &mut i).ok()??).ok()?
        } else {
            1
        });
        while let Some(u1) = next_number(body, &mut i).ok()? {
            if u1 < 1 || u1 > u64::from(n) {
                return None;
            }
            let u = (u1 - 1) as u32;
            if u == v || out.mark[u as usize] == v {
                return None;
            }
            out.mark[u as usize] = v;
            let w = if has_adjwgt {
                match next_number(body, &mut i).ok()? {
                    Some(w) if w >= 1 => w as u32,
                    _ => return None,
                }
            } else {
                1
            };
            if out.adjncy.len() >= u32::MAX as usize {
                return None;
            }
            out.adjncy.push(u);
            out.adjwgt.push(w);
        }
        out.xadj.push(out.adjncy.len() as u32);
        // At the newline (consumed) or the text's end.
        i += 1;
    }
    if body
        .get(i..)
        .unwrap_or(&[])
        .iter()
        .all(|&b| b == b'\n' || is_blank(b))
    {
        Some(out)
    } else {
        None
    }
}

/// The `n` vertex lines that follow the header (line `hline`), line by line, with every
/// problem named by its line.
fn slow_vertex_lines<'a>(
    mut lines: impl Iterator<Item = (u64, &'a str)>,
    hline: u64,
    n: u32,
    (has_vsize, has_vwgt, has_adjwgt): (bool, bool, bool),
    cap: usize,
) -> Result<VertexLines, GraphError> {
    let nu = n as usize;
    let VertexLines {
        mut xadj,
        mut adjncy,
        mut adjwgt,
        mut vwgt,
        mut vsize,
        mut vline,
        // mark[u] == v while reading vertex v's line iff v already listed u (duplicate check).
        mut mark,
    } = VertexLines::with_capacity(n, cap);

    for (ln, line) in lines.by_ref() {
        if is_comment(line, &['%']) {
            continue;
        }
        let v = vline.len() as u32; // 0-based; messages say v + 1
        let v1 = u64::from(v) + 1;
        vline.push(ln);
        let mut toks = Tokens::new(line);
        if has_vsize {
            let t = toks.next().ok_or_else(|| {
                err(
                    ln,
                    format!("vertex {v1} has no vertex size (fmt asks for one first on each line)"),
                )
            })?;
            vsize.push(parse_u32_with(
                t,
                ln,
                || format!("the size of vertex {v1}"),
                0,
            )?);
        } else {
            vsize.push(1);
        }
        if has_vwgt {
            let t = toks.next().ok_or_else(|| {
                err(
                    ln,
                    format!(
                        "vertex {v1} has no vertex weight (fmt asks for one{} on each line)",
                        if has_vsize {
                            " after the size"
                        } else {
                            " first"
                        }
                    ),
                )
            })?;
            vwgt.push(parse_u32_with(
                t,
                ln,
                || format!("the weight of vertex {v1}"),
                0,
            )?);
        } else {
            vwgt.push(1);
        }
        while let Some(t) = toks.next() {
            let u = match small_int(t.as_bytes()).map_or_else(|| parse_int(t), Int::Value) {
                Int::Value(u) if u >= 1 && u <= u64::from(n) => (u - 1) as u32,
                Int::NotNumber => {
                    return Err(err(
                        ln,
                        format!(
                            "neighbour {:?} of vertex {v1} is not a whole number",
                            shorten(t)
                        ),
                    ))
                }
                _ => {
                    return Err(err(
                        ln,
                        format!(
                            "neighbour {} of vertex {v1} is out of range: METIS vertex ids are \
                             1 to n = {n}",
                            shorten(t)
                        ),
                    ))
                }
            };
            if u == v {
                return Err(err(
                    ln,
                    format!("vertex {v1} lists itself (self-loops are not allowed)"),
                ));
            }
            if mark[u as usize] == v {
                return Err(err(
                    ln,
                    format!("vertex {v1} lists neighbour {} twice", u64::from(u) + 1),
                ));
            }
            mark[u as usize] = v;
            let w = if has_adjwgt {
                let tw = toks.next().ok_or_else(|| {
                    err(
                        ln,
                        format!(
                            "neighbour {} of vertex {v1} has no edge weight (fmt asks for a \
                             weight after each neighbour)",
                            u64::from(u) + 1
                        ),
                    )
                })?;
                parse_u32_with(
                    tw,
                    ln,
                    || format!("the weight of edge {v1}-{}", u64::from(u) + 1),
                    1,
                )?
            } else {
                1
            };
            if adjncy.len() >= u32::MAX as usize {
                return Err(err(ln, "more than 2^32 - 1 adjacency entries"));
            }
            adjncy.push(u);
            adjwgt.push(w);
        }
        xadj.push(adjncy.len() as u32);
        if vline.len() == nu {
            break;
        }
    }
    if vline.len() < nu {
        return Err(err(
            hline,
            format!(
                "the header announces n = {n} vertices but the file has only {} vertex lines",
                vline.len()
            ),
        ));
    }
    for (ln, line) in lines {
        if !line.trim().is_empty() && !is_comment(line, &['%']) {
            return Err(err(
                ln,
                format!(
                    "this line comes after the n = {n} vertex lines the header announces (is n \
                     too small?)"
                ),
            ));
        }
    }

    Ok(VertexLines {
        xadj,
        adjncy,
        adjwgt,
        vwgt,
        vsize,
        vline,
        mark,
    })
}

/// [`VertexLines::check_symmetry`] on the arrays; `mark` is scratch of `n` entries.
pub(super) fn check_symmetry(
    xadj: &[u32],
    adjncy: &[u32],
    adjwgt: &[u32],
    vline: &[u64],
    mark: &mut [u32],
) -> Result<(), GraphError> {
    let nu = vline.len();
    let mut txadj = vec![0u32; nu + 1];
    for &u in adjncy {
        txadj[u as usize + 1] += 1;
    }
    for i in 0..nu {
        txadj[i + 1] += txadj[i];
    }
    let mut fill: Vec<u32> = txadj[..nu].to_vec();
    let mut tadj = vec![0u32; adjncy.len()];
    let mut twgt = vec![0u32; adjncy.len()];
    for v in 0..nu {
        for j in xadj[v] as usize..xadj[v + 1] as usize {
            let u = adjncy[j] as usize;
            let p = fill[u] as usize;
            tadj[p] = v as u32;
            twgt[p] = adjwgt[j];
            fill[u] += 1;
        }
    }
    drop(fill);
    mark.fill(u32::MAX);
    let mut markw = vec![0u32; nu];
    for v in 0..nu {
        for i in txadj[v] as usize..txadj[v + 1] as usize {
            mark[tadj[i] as usize] = v as u32;
            markw[tadj[i] as usize] = twgt[i];
        }
        for j in xadj[v] as usize..xadj[v + 1] as usize {
            let u = adjncy[j] as usize;
            if mark[u] != v as u32 {
                return Err(err(
                    vline[v],
                    format!(
                        "vertex {} lists {} but vertex {} (line {}) does not list {} (every edge \
                         is listed by both its vertices)",
                        v + 1,
                        u + 1,
                        u + 1,
                        vline[u],
                        v + 1
                    ),
                ));
            }
            if markw[u] != adjwgt[j] {
                return Err(err(
                    vline[v],
                    format!(
                        "edge {}-{} has weight {} here but weight {} on the line of vertex {} \
                         (line {})",
                        v + 1,
                        u + 1,
                        adjwgt[j],
                        markw[u],
                        u + 1,
                        vline[u]
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Writes `g` in the METIS graph format: the header `n m` plus `fmt` only when some vertex
/// sizes, vertex weights or edge weights differ from 1 (`fmt` written as METIS numbers it,
/// e.g. `1`, `10`, `11`, `100`); then one line per vertex, neighbours 1-based in `g`'s order.
/// [`parse_metis`] reads it back to an equal graph.
///
/// # Complexity
/// `O(V + E)`.
pub fn write_metis(g: &Graph) -> String {
    let vs = g.vsize.iter().any(|&x| x != 1);
    let vw = g.vwgt.iter().any(|&x| x != 1);
    let ew = g.adjwgt.iter().any(|&x| x != 1);
    let mut s = String::with_capacity(g.adjncy.len() * 7 + g.n() as usize * 2 + 32);
    let _ = write!(s, "{} {}", g.n(), g.m());
    if vs || vw || ew {
        let fmt = u32::from(vs) * 100 + u32::from(vw) * 10 + u32::from(ew);
        let _ = write!(s, " {fmt}");
    }
    s.push('\n');
    for v in 0..g.n() {
        let mut sep = "";
        if vs {
            let _ = write!(s, "{}", g.vsize[v as usize]);
            sep = " ";
        }
        if vw {
            let _ = write!(s, "{sep}{}", g.vwgt[v as usize]);
            sep = " ";
        }
        for (&u, &w) in g.neighbors(v).iter().zip(g.edge_weights(v)) {
            let _ = write!(s, "{sep}{}", u + 1);
            sep = " ";
            if ew {
                let _ = write!(s, " {w}");
            }
        }
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::metis::parse_tpwgts;

    #[test]
    fn tokens_split_as_split_ascii_whitespace_and_small_ints_agree_with_parse_int() {
        for line in [
            "",
            "   ",
            "1 2 3",
            "  12\t7\r",
            "\x0c5  6\n",
            "a b\tc ",
            "é 3",
            "9 ",
        ] {
            let ours: Vec<&str> = Tokens::new(line).collect();
            let std: Vec<&str> = line.split_ascii_whitespace().collect();
            assert_eq!(ours, std, "{line:?}");
        }
        for tok in [
            "0",
            "007",
            "42",
            "999999999",
            "1000000000",
            "-1",
            "+5",
            "1a",
            "",
            "x",
            "٣",
        ] {
            if let Some(v) = small_int(tok.as_bytes()) {
                assert!(matches!(parse_int(tok), Int::Value(w) if w == v), "{tok:?}");
            } else {
                assert!(
                    !matches!(parse_int(tok), Int::Value(_))
                        || tok.len() > 9
                        || tok.starts_with('+'),
                    "{tok:?}"
                );
            }
        }
    }

    #[test]
    fn empty_lines_are_isolated_vertices_and_trailing_ones_are_ignored() {
        let f = parse_metis("3 1\n2\n1\n\n\n\n").unwrap();
        assert_eq!(f.graph.n(), 3);
        assert_eq!(f.graph.neighbors(2), &[] as &[u32]);
    }

    #[test]
    fn fmt_digits_select_columns() {
        let f = parse_metis("2 1 111\n4 7 2 3\n5 8 1 3\n").unwrap();
        assert_eq!(f.graph.vsize, vec![4, 5]);
        assert_eq!(f.graph.vwgt, vec![7, 8]);
        assert_eq!(f.graph.adjwgt, vec![3, 3]);
        let f = parse_metis("2 1 100\n4 2\n5 1\n").unwrap();
        assert!(f.has_vsize && !f.has_vwgt && !f.has_adjwgt);
    }

    #[test]
    fn tpwgts_shares_the_rest_equally_and_rescales_a_full_list() {
        let t = parse_tpwgts("0 = 0.25\n3=0.5\n", 4).unwrap();
        assert_eq!(t, vec![0.25, 0.125, 0.125, 0.5]);
        let t = parse_tpwgts("0-1 = 0.25\n", 2).unwrap();
        assert_eq!(t, vec![0.5, 0.5]);
    }

    mod fast_path {
        use super::super::*;
        use proptest::prelude::*;

        /// A METIS text of a random symmetric graph on `n` vertices with edge list `edges`,
        /// laid out with the choices in `style` (bits: edge weights, vertex weights, tabs,
        /// CRLF, trailing blank lines, a comment before the header, no final newline).
        fn text_of(n: u32, edges: &[(u32, u32, u32)], vw: &[u32], style: u32) -> String {
            let (ew, vwt) = (style & 1 != 0, style & 2 != 0);
            let sep = if style & 4 != 0 { "\t" } else { " " };
            let nl = if style & 8 != 0 { "\r\n" } else { "\n" };
            let mut adj: Vec<Vec<(u32, u32)>> = vec![Vec::new(); n as usize];
            for &(a, b, w) in edges {
                adj[a as usize].push((b, w));
                adj[b as usize].push((a, w));
            }
            let mut t = String::new();
            if style & 32 != 0 {
                t.push_str("% a comment");
                t.push_str(nl);
            }
            let fmt = match (vwt, ew) {
                (false, false) => "",
                (false, true) => " 1",
                (true, false) => " 10",
                (true, true) => " 11",
            };
            t.push_str(&format!("{n} {}{fmt}{nl}", edges.len()));
            for v in 0..n as usize {
                let mut line: Vec<String> = Vec::new();
                if vwt {
                    line.push(vw[v].to_string());
                }
                for &(u, w) in &adj[v] {
                    line.push((u + 1).to_string());
                    if ew {
                        line.push(w.to_string());
                    }
                }
                t.push_str(&line.join(sep));
                t.push_str(nl);
            }
            if style & 16 != 0 {
                t.push_str(nl);
                t.push_str("  ");
                t.push_str(nl);
            }
            // No final newline (a last line that is empty would vanish with it).
            if style & 64 != 0 && style & 16 == 0 && !t.ends_with(&format!("{nl}{nl}")) {
                while t.ends_with('\n') || t.ends_with('\r') {
                    t.pop();
                }
            }
            t
        }

        /// `(n, edges (a, b, weight), vertex weights, style)`.
        type Case = (u32, Vec<(u32, u32, u32)>, Vec<u32>, u32);

        fn graph_and_style() -> impl Strategy<Value = Case> {
            (1u32..12).prop_flat_map(|n| {
                let pairs: Vec<(u32, u32)> = (0..n)
                    .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
                    .collect();
                let np = pairs.len();
                (
                    Just(n),
                    proptest::collection::vec((any::<bool>(), 1u32..5), np).prop_map(move |c| {
                        pairs
                            .iter()
                            .zip(c)
                            .filter(|(_, (keep, _))| *keep)
                            .map(|(&(a, b), (_, w))| (a, b, w))
                            .collect::<Vec<_>>()
                    }),
                    proptest::collection::vec(0u32..4, n as usize),
                    0u32..128,
                )
            })
        }

        /// Edits a text the way a hand-edited or corrupted file differs: a byte replaced by one
        /// of a few that matter to the reader, or removed, or a line removed or doubled.
        fn mutate(text: &str, what: u32, at: usize) -> String {
            let mut b = text.as_bytes().to_vec();
            if b.is_empty() {
                return text.to_string();
            }
            let i = at % b.len();
            const BYTES: &[u8] = b"0123456789 \t\n\r%-+xa\x0c\x0b";
            match what % 4 {
                0 => b[i] = BYTES[at / 7 % BYTES.len()],
                1 => {
                    b.remove(i);
                }
                2 => b.insert(i, BYTES[at / 5 % BYTES.len()]),
                _ => {
                    let lines: Vec<&str> = text.split_inclusive('\n').collect();
                    let l = at % lines.len();
                    let mut out: Vec<&str> = lines.clone();
                    if what % 8 < 4 {
                        out.remove(l);
                    } else {
                        out.insert(l, lines[l]);
                    }
                    return out.concat();
                }
            }
            String::from_utf8_lossy(&b).into_owned()
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(400))]

            /// The one-pass reader of plain files gives what the line-by-line reader gives: the
            /// same graph, or the same error (then it was the line-by-line reader's).
            #[test]
            fn the_fast_reader_agrees_with_the_line_reader(
                (n, edges, vw, style) in graph_and_style(),
                edits in proptest::collection::vec((0u32..16, 0usize..10_000), 0..3),
            ) {
                let mut text = text_of(n, &edges, &vw, style);
                let clean = parse_metis_with(&text, true);
                prop_assert!(clean.is_ok(), "{text:?}: {clean:?}");
                prop_assert_eq!(&clean, &parse_metis_with(&text, false));
                for (what, at) in edits {
                    text = mutate(&text, what, at);
                }
                prop_assert_eq!(parse_metis_with(&text, true), parse_metis_with(&text, false), "{:?}", text);
            }
        }

        /// The files the one-pass reader leaves to the line reader, and those it reads.
        #[test]
        fn plain_files_take_the_fast_path_and_the_others_the_line_reader() {
            let fast = |t: &str| {
                let b = t.as_bytes();
                let off = t.find('\n').map_or(b.len(), |i| i + 1);
                fast_vertex_lines(&b[off..], 2, 3, (false, false, false), 0).is_some()
            };
            assert!(fast("3 2\n2\n1 3\n2\n"));
            assert!(fast("3 2\n2\n1\t3\r\n2"));
            assert!(fast("3 2\n2\n1 3\n2\n\n  \n"));
            assert!(!fast("3 2\n2\n% c\n1 3\n2\n"));
            assert!(!fast("3 2\n2\n1 3\n2\n% trailing comment\n"));
            assert!(!fast("3 2\n2\n1 3\n"));
            assert!(!fast("3 2\n2\n1 3 3\n2\n"));
            assert!(!fast("3 2\n2\n1 4\n2\n"));
            assert!(!fast("3 2\n2\n1 2\n2\n"));
            assert!(!fast("3 2\n2\n1 +3\n2\n"));
        }
    }
}
