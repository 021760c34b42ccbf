//! Graphs in and out: the METIS reader names the line of every error, files
//! round-trip, edge lists, coordinates and target weights read as gpmetis reads them, and the
//! generators make the graphs they promise (counts, symmetry, determinism, and for the random
//! meshes a brute-force oracle: empty circumcircles, every close pair joined).

use placelab::formats::metis::{
    parse_edge_list, parse_metis, parse_tpwgts, parse_xyz, write_metis, write_part,
};
use placelab::partition::generate::{
    default_radius, generate, GenKind, GenSpec, Generated, MAX_COMPLETE,
};
use placelab::partition::Graph;
use proptest::prelude::*;

// ---------------------------------------------------------------------------------------------
// METIS reader: each malformed file names its line.

/// (file, expected 1-based line, fragment of the message)
const MALFORMED: &[(&str, u64, &str)] = &[
    ("", 1, "no header"),
    ("% only a comment\n", 1, "no header"),
    ("3\n", 1, "2 to 4 numbers"),
    ("3 2 0 1 7\n", 1, "2 to 4 numbers"),
    ("x 2\n", 1, "not a whole number"),
    ("0 0\n", 1, "at least 1"),
    ("3 -1\n\n\n\n", 1, "negative"),
    ("2 1 2\n2\n1\n", 1, "not a METIS format"),
    ("2 1 1000\n2\n1\n", 1, "not a METIS format"),
    (
        "2 1 10 3\n1 2\n1 1\n",
        1,
        "multi-constraint graphs (ncon = 3) are not supported",
    ),
    ("2 1 0 1\n2\n1\n", 1, "ncon = 1 but fmt"),
    ("5 1\n2\n1\n", 1, "only 2 lines follow"),
    ("%c\n3 1\n2\n1\n", 2, "only 2 lines follow"),
    ("3 1\n2\n1\n%\n%\n", 1, "only 2 vertex lines"),
    ("2 1\n2\n1\n1\n", 4, "after the n = 2 vertex lines"),
    ("2 1\n2 x\n1\n", 2, "not a whole number"),
    ("2 1\n2.5\n1\n", 2, "not a whole number"),
    ("2 1\n3\n1\n", 2, "out of range"),
    ("2 1\n0\n1\n", 2, "out of range"),
    ("2 1\n-1\n1\n", 2, "out of range"),
    ("%a\n%b\n2 1\n2\n1 2\n", 5, "lists itself"),
    ("3 2\n2 2 3\n1\n1\n", 2, "neighbour 2 twice"),
    ("3 2\n2 3\n1\n\n", 2, "vertex 3 (line 4) does not list 1"),
    ("3 2\n2\n1 3\n%\n\n", 3, "does not list 2"),
    ("2 1 1\n2 5\n1 6\n", 2, "weight 5 here but weight 6"),
    ("2 1 1\n2\n1 6\n", 2, "has no edge weight"),
    ("2 1 1\n2 0\n1 0\n", 2, "below 1"),
    ("2 1 1\n2 -3\n1 -3\n", 2, "negative"),
    ("2 1 1\n2 99999999999\n1 1\n", 2, "too large"),
    ("2 1 10\n-1 2\n1 1\n", 2, "negative"),
    ("2 1 10\n\n1 1\n", 2, "no vertex weight"),
    ("2 1 100\n\n1 1\n", 2, "no vertex size"),
    ("2 1 100\nq 2\n1 1\n", 2, "size of vertex 1"),
    (
        "3 3\n2\n1\n\n",
        1,
        "the header says m = 3 edges but the vertex lines list 1",
    ),
    (
        "3 2\n2 3\n1 3\n1 2\n",
        1,
        "m = 2 edges but the vertex lines list 3",
    ),
    ("2 2\n2\n1\n", 1, "counts each edge once"),
];

#[test]
fn every_malformed_metis_file_names_its_line() {
    for &(text, line, fragment) in MALFORMED {
        let e = parse_metis(text).expect_err(text);
        assert_eq!(e.line, Some(line), "{text:?}: {e}");
        assert!(e.message.contains(fragment), "{text:?}: {e}");
    }
}

#[test]
fn metis_comments_count_as_lines_and_blank_lines_are_isolated_vertices() {
    // Vertex lines: 2 (line 4), 1 (line 5), blank (line 6); line 7 is one too many.
    let e = parse_metis("% c\n3 1\n% inside\n2\n1\n\n4\n").unwrap_err();
    assert_eq!(e.line, Some(7));
    // Blank lines inside are isolated vertices; blank lines after the last vertex are ignored.
    let f = parse_metis("% c\n5 1\n% inside\n2\n1\n\n\n\n\n\n").unwrap();
    assert_eq!(f.graph.n(), 5);
    assert!(f.graph.neighbors(4).is_empty());
    f.graph.check().unwrap();
}

#[test]
fn write_then_parse_gives_the_same_graph_and_columns() {
    let g = grid(5, 4, false).graph;
    for (vs, vw, ew) in [
        (false, false, false),
        (false, false, true),
        (false, true, false),
        (false, true, true),
        (true, false, false),
        (true, true, true),
    ] {
        let mut h = g.clone();
        if vs {
            h.vsize = (0..h.n()).map(|v| v % 3).collect();
        }
        if vw {
            h.vwgt = (0..h.n()).map(|v| v % 4).collect();
        }
        if ew {
            // Symmetric weights: a function of the unordered pair.
            for v in 0..h.n() {
                for i in h.xadj[v as usize] as usize..h.xadj[v as usize + 1] as usize {
                    let u = h.adjncy[i];
                    h.adjwgt[i] = 1 + (u.min(v) * 7 + u.max(v)) % 5;
                }
            }
        }
        let text = write_metis(&h);
        let f = parse_metis(&text).unwrap();
        assert_eq!(f.graph, h, "{text}");
        let weights_differ = |w: &[u32]| w.iter().any(|&x| x != 1);
        assert_eq!(f.has_vsize, weights_differ(&h.vsize));
        assert_eq!(f.has_vwgt, weights_differ(&h.vwgt));
        assert_eq!(f.has_adjwgt, weights_differ(&h.adjwgt));
    }
    let text = write_metis(&g);
    assert!(
        text.starts_with("20 31\n"),
        "no fmt for unit weights: {text}"
    );
}

#[test]
fn part_files_have_one_id_per_line() {
    assert_eq!(write_part(&[0, 2, 1]), "0\n2\n1\n");
    assert_eq!(write_part(&[]), "");
}

// ---------------------------------------------------------------------------------------------
// Edge lists, coordinates, target weights.

#[test]
fn edge_lists_are_zero_based_and_accept_both_directions() {
    let f = parse_edge_list("# triangle\n0 1\n1 2 3\n2 1 3\n% c\n\n2 0\n").unwrap();
    assert_eq!(f.graph.n(), 3);
    assert_eq!(f.graph.m(), 3);
    assert!(f.has_adjwgt);
    f.graph.check().unwrap();
    let w12 = f.graph.edge_weights(1)[f.graph.neighbors(1).iter().position(|&u| u == 2).unwrap()];
    assert_eq!(w12, 3);
    // Ids never mentioned are isolated vertices.
    let f = parse_edge_list("0 4\n").unwrap();
    assert_eq!((f.graph.n(), f.graph.m()), (5, 1));
}

#[test]
fn edge_list_errors_name_their_line() {
    let cases: &[(&str, u64, &str)] = &[
        (
            "0 1\n1 0 2\n",
            2,
            "weight 2 here but weight 1 in the other direction on line 1",
        ),
        ("0 1\n2 2\n", 2, "self-loop"),
        (
            "0 1\n1 2\n0 1\n",
            3,
            "again in the same direction (first on line 1)",
        ),
        ("0 1\n1 0\n0 1\n", 3, "third time"),
        ("0 1 0\n", 1, "below 1"),
        ("0\n", 1, "1 fields"),
        ("0 1 2 3\n", 1, "more than 3"),
        ("0 -1\n", 1, "0-based"),
        ("0 a\n", 1, "0-based"),
        ("0 99999999999\n", 1, "above the largest id"),
        ("0 4194304\n", 1, "above the largest id"),
        ("# nothing\n", 1, "no edge"),
        // The earliest offending line wins, whatever the order of the ids.
        ("5 6\n0 1\n0 1\n5 6\n", 3, "first on line 2"),
    ];
    for &(text, line, fragment) in cases {
        let e = parse_edge_list(text).expect_err(text);
        assert_eq!(e.line, Some(line), "{text:?}: {e}");
        assert!(e.message.contains(fragment), "{text:?}: {e}");
    }
}

#[test]
fn xyz_reads_one_to_three_coordinates_per_vertex() {
    let c = parse_xyz("1\n2 3\n% c\n4 5 6\n\n", 3).unwrap();
    assert_eq!(c, vec![[1.0, 0.0, 0.0], [2.0, 3.0, 0.0], [4.0, 5.0, 6.0]]);
    let cases: &[(&str, u32, u64, &str)] = &[
        ("1\n\n2\n", 3, 2, "no fields"),
        ("1 2 3 4\n", 1, 1, "more than 3"),
        ("1\nx\n", 2, 2, "not a finite number"),
        ("1\ninf\n", 2, 2, "not a finite number"),
        ("1\n2\n", 3, 3, "ends after 2 coordinate lines"),
        ("1\n2\n3\n", 2, 3, "after the coordinates of all n = 2"),
    ];
    for &(text, n, line, fragment) in cases {
        let e = parse_xyz(text, n).expect_err(text);
        assert_eq!(e.line, Some(line), "{text:?}: {e}");
        assert!(e.message.contains(fragment), "{text:?}: {e}");
    }
}

#[test]
fn tpwgts_follow_gpmetis() {
    // Unnamed parts share the rest equally.
    assert_eq!(parse_tpwgts("0 = 0.5\n", 3).unwrap(), vec![0.5, 0.25, 0.25]);
    // Ranges, the constraint suffix, spaces, comments, later lines override.
    assert_eq!(
        parse_tpwgts("% c\n0-1:0 = 0.125\n1=0.25\n", 4).unwrap(),
        vec![0.125, 0.25, 0.3125, 0.3125]
    );
    // Every part named: scaled to sum 1.
    assert_eq!(
        parse_tpwgts("0 = 0.2\n1 = 0.2\n", 2).unwrap(),
        vec![0.5, 0.5]
    );
    let cases: &[(&str, u32, u64, &str)] = &[
        ("0 = 0.5\n2 = 0.1\n", 2, 2, "out of range"),
        ("0 = 1.5\n", 2, 1, "strictly between 0 and 1"),
        ("0 = 0\n", 2, 1, "strictly between 0 and 1"),
        ("0 0.5\n", 2, 1, "expected 'part = fraction'"),
        ("1-0 = 0.5\n", 2, 1, "empty"),
        ("0:1 = 0.5\n", 2, 1, "multi-constraint"),
        ("0 = 0.75\n\n1 = 0.75\n% end\n", 3, 3, "sum to 1.5"),
        ("0 = 0.5\n", 0, 1, "k = 0 parts"),
    ];
    for &(text, k, line, fragment) in cases {
        let e = parse_tpwgts(text, k).expect_err(text);
        assert_eq!(e.line, Some(line), "{text:?}: {e}");
        assert!(e.message.contains(fragment), "{text:?}: {e}");
    }
}

// ---------------------------------------------------------------------------------------------
// Generators.

fn spec(kind: GenKind, n: u32) -> GenSpec {
    GenSpec {
        kind,
        n,
        ..GenSpec::default()
    }
}

fn grid(x: u32, y: u32, wrap: bool) -> Generated {
    let s = GenSpec {
        kind: GenKind::Grid2d,
        dims: [x, y, 1],
        wrap,
        ..GenSpec::default()
    };
    generate(&s, 1).unwrap()
}

fn cube(d: [u32; 3], wrap: bool) -> Generated {
    let s = GenSpec {
        kind: GenKind::Cube3d,
        dims: d,
        wrap,
        ..GenSpec::default()
    };
    generate(&s, 1).unwrap()
}

fn components(g: &Graph) -> u32 {
    let mut seen = vec![false; g.n() as usize];
    let mut count = 0;
    for s in 0..g.n() {
        if seen[s as usize] {
            continue;
        }
        count += 1;
        seen[s as usize] = true;
        let mut stack = vec![s];
        while let Some(v) = stack.pop() {
            for &u in g.neighbors(v) {
                if !seen[u as usize] {
                    seen[u as usize] = true;
                    stack.push(u);
                }
            }
        }
    }
    count
}

#[test]
fn grids_and_cubes_have_the_expected_counts_with_and_without_wrap() {
    // Along a side s, s - 1 edges, or s with wrap when s >= 3 (sides 1 and 2 gain nothing).
    let along = |s: u64, wrap: bool| if wrap && s >= 3 { s } else { s - 1 };
    for x in 1..6u32 {
        for y in 1..6u32 {
            for wrap in [false, true] {
                let g = grid(x, y, wrap).graph;
                g.check().unwrap();
                let (xu, yu) = (u64::from(x), u64::from(y));
                assert_eq!(g.n(), x * y);
                assert_eq!(
                    g.m(),
                    along(xu, wrap) * yu + along(yu, wrap) * xu,
                    "{x}x{y} {wrap}"
                );
            }
        }
    }
    for d in [[1, 1, 1], [2, 3, 4], [3, 3, 3], [4, 1, 2], [5, 4, 3]] {
        for wrap in [false, true] {
            let g = cube(d, wrap).graph;
            g.check().unwrap();
            let [a, b, c] = d.map(u64::from);
            assert_eq!(u64::from(g.n()), a * b * c);
            let m = along(a, wrap) * b * c + along(b, wrap) * a * c + along(c, wrap) * a * b;
            assert_eq!(g.m(), m, "{d:?} {wrap}");
        }
    }
    // A 3x3x3 torus is 6-regular.
    let g = cube([3, 3, 3], true).graph;
    assert!((0..27).all(|v| g.neighbors(v).len() == 6));
}

#[test]
fn trees_stars_and_complete_graphs_have_the_expected_edges() {
    for n in [1, 2, 3, 7, 10, 100] {
        let t = generate(&spec(GenKind::BinaryTree, n), 1).unwrap().graph;
        t.check().unwrap();
        assert_eq!(t.m(), u64::from(n) - 1);
        assert!((1..n).all(|i| t.neighbors(i).contains(&((i - 1) / 2))));
        let s = generate(&spec(GenKind::Star, n), 1).unwrap().graph;
        s.check().unwrap();
        assert_eq!(s.neighbors(0).len() as u32, n - 1);
        assert_eq!(s.m(), u64::from(n) - 1);
        let c = generate(&spec(GenKind::Complete, n), 1).unwrap().graph;
        c.check().unwrap();
        assert_eq!(c.m(), u64::from(n) * (u64::from(n) - 1) / 2);
    }
}

#[test]
fn every_generator_gives_coordinates_and_a_valid_graph() {
    for kind in GenKind::ALL {
        let g = generate(&spec(kind, 200), 3).unwrap();
        g.graph.check().unwrap();
        assert_eq!(g.coords.len(), g.graph.n() as usize, "{kind:?}");
        assert!(g.coords.iter().flatten().all(|c| c.is_finite()));
        assert_eq!(GenKind::from_name(kind.name()), Some(kind));
    }
}

#[test]
fn generators_are_deterministic_per_seed() {
    for kind in [GenKind::Geometric, GenKind::Delaunay] {
        let a = generate(&spec(kind, 500), 7).unwrap();
        let b = generate(&spec(kind, 500), 7).unwrap();
        let c = generate(&spec(kind, 500), 8).unwrap();
        assert_eq!(a, b, "{kind:?}");
        assert_ne!(a.coords, c.coords, "{kind:?}");
    }
}

#[test]
fn sizes_over_the_limits_are_errors() {
    assert!(generate(&spec(GenKind::Complete, MAX_COMPLETE + 1), 1).is_err());
    assert!(generate(&spec(GenKind::Star, 0), 1).is_err());
    let s = GenSpec {
        kind: GenKind::Cube3d,
        dims: [4096, 4096, 4096],
        ..GenSpec::default()
    };
    assert!(generate(&s, 1).unwrap_err().message.contains("limit"));
    let s = GenSpec {
        kind: GenKind::Grid2d,
        dims: [0, 4, 1],
        ..GenSpec::default()
    };
    assert!(generate(&s, 1).unwrap_err().message.contains("side x is 0"));
    let mut s = spec(GenKind::Geometric, 1_000_000);
    s.radius = Some(0.5);
    assert!(generate(&s, 1).unwrap_err().message.contains("edges"));
    s.radius = Some(f64::NAN);
    assert!(generate(&s, 1).is_err());
}

/// The Delaunay generator's points are `k / 2^26` exactly; these are the integers back.
fn grid_points(g: &Generated) -> Vec<[i64; 2]> {
    let s = (1u64 << 26) as f64;
    g.coords
        .iter()
        .map(|c| {
            let p = [(c[0] * s) as i64, (c[1] * s) as i64];
            assert_eq!(p[0] as f64 / s, c[0]);
            p
        })
        .collect()
}

fn orient(a: [i64; 2], b: [i64; 2], c: [i64; 2]) -> i128 {
    i128::from(b[0] - a[0]) * i128::from(c[1] - a[1])
        - i128::from(b[1] - a[1]) * i128::from(c[0] - a[0])
}

/// Number of points on the convex hull (Andrew's monotone chain, collinear points excluded).
fn hull_size(pts: &[[i64; 2]]) -> u64 {
    let mut p = pts.to_vec();
    p.sort();
    let mut h: Vec<[i64; 2]> = Vec::new();
    for pass in 0..2 {
        let start = h.len();
        let iter: Box<dyn Iterator<Item = &[i64; 2]>> = if pass == 0 {
            Box::new(p.iter())
        } else {
            Box::new(p.iter().rev())
        };
        for &q in iter {
            while h.len() >= start + 2 && orient(h[h.len() - 2], h[h.len() - 1], q) <= 0 {
                h.pop();
            }
            h.push(q);
        }
        h.pop();
    }
    h.len() as u64
}

#[test]
fn delaunay_triangles_have_empty_circumcircles_and_cover_the_hull() {
    for (n, seed) in [(3, 1), (4, 2), (10, 3), (40, 4), (120, 5), (150, 6)] {
        let g = generate(&spec(GenKind::Delaunay, n), seed).unwrap();
        let gr = &g.graph;
        gr.check().unwrap();
        let pts = grid_points(&g);
        let nn = u64::from(n);
        let h = hull_size(&pts);
        // A triangulation of n points with h on the hull has 3n - 3 - h edges and 2n - 2 - h
        // triangles (Euler); so also m <= 3n - 6.
        assert_eq!(gr.m(), 3 * nn - 3 - h, "n = {n}");
        assert!(gr.m() <= 3 * nn - 6);
        assert_eq!(components(gr), 1);
        // The faces: 3-cycles with no point strictly inside.
        let mut faces = 0u64;
        for a in 0..n {
            for &b in gr.neighbors(a) {
                for &c in gr.neighbors(b) {
                    if !(a < b && b < c && gr.neighbors(a).contains(&c)) {
                        continue;
                    }
                    let (pa, mut pb, mut pc) = (pts[a as usize], pts[b as usize], pts[c as usize]);
                    if orient(pa, pb, pc) < 0 {
                        std::mem::swap(&mut pb, &mut pc);
                    }
                    let inside = |q: [i64; 2]| {
                        orient(pa, pb, q) > 0 && orient(pb, pc, q) > 0 && orient(pc, pa, q) > 0
                    };
                    if pts.iter().any(|&q| inside(q)) {
                        continue;
                    }
                    faces += 1;
                    for (i, &q) in pts.iter().enumerate() {
                        assert!(
                            incircle(pa, pb, pc, q) <= 0,
                            "n = {n}: point {i} inside the circumcircle of {a} {b} {c}"
                        );
                    }
                }
            }
        }
        assert_eq!(faces, 2 * nn - 2 - h, "n = {n}");
    }
}

/// Positive when `d` is strictly inside the circle through counter-clockwise `a, b, c`.
fn incircle(a: [i64; 2], b: [i64; 2], c: [i64; 2], d: [i64; 2]) -> i128 {
    let r = |p: [i64; 2]| {
        let (x, y) = (i128::from(p[0] - d[0]), i128::from(p[1] - d[1]));
        (x, y, x * x + y * y)
    };
    let ((ax, ay, al), (bx, by, bl), (cx, cy, cl)) = (r(a), r(b), r(c));
    ax * (by * cl - bl * cy) - ay * (bx * cl - bl * cx) + al * (bx * cy - by * cx)
}

#[test]
fn delaunay_of_many_points_keeps_eulers_bound_and_is_connected() {
    let g = generate(&spec(GenKind::Delaunay, 20_000), 9).unwrap();
    g.graph.check().unwrap();
    let n = u64::from(g.graph.n());
    let h = hull_size(&grid_points(&g));
    assert_eq!(g.graph.m(), 3 * n - 3 - h);
    assert_eq!(components(&g.graph), 1);
}

#[test]
fn geometric_graphs_join_exactly_the_close_pairs() {
    for (n, r, seed) in [
        (300, None, 1),
        (200, Some(0.2), 2),
        (50, Some(2.0), 3),
        (1, None, 4),
    ] {
        let mut s = spec(GenKind::Geometric, n);
        s.radius = r;
        let g = generate(&s, seed).unwrap();
        g.graph.check().unwrap();
        let r = r.unwrap_or_else(|| default_radius(n));
        let mut m = 0u64;
        for u in 0..n {
            for v in u + 1..n {
                let (p, q) = (g.coords[u as usize], g.coords[v as usize]);
                let d2 = (p[0] - q[0]) * (p[0] - q[0]) + (p[1] - q[1]) * (p[1] - q[1]);
                let joined = g.graph.neighbors(u).contains(&v);
                assert_eq!(joined, d2 < r * r, "n = {n}: {u}-{v} at distance^2 {d2}");
                m += u64::from(joined);
            }
        }
        assert_eq!(g.graph.m(), m);
    }
    // The default radius gives a mean degree near 8 (a little less: the square's sides).
    let g = generate(&spec(GenKind::Geometric, 20_000), 5)
        .unwrap()
        .graph;
    let mean = 2.0 * g.m() as f64 / f64::from(g.n());
    assert!((6.5..8.5).contains(&mean), "mean degree {mean}");
}

// ---------------------------------------------------------------------------------------------
// No panics on any text.

proptest! {
    #[test]
    fn parse_metis_never_panics_on_arbitrary_text(text in "\\PC{0,200}") {
        let _ = parse_metis(&text);
        let _ = parse_edge_list(&text);
        let _ = parse_xyz(&text, 3);
        let _ = parse_tpwgts(&text, 4);
    }

    #[test]
    fn parse_metis_never_panics_on_number_soup(
        text in "[0-9]{1,2}( [0-9]{1,3}){0,3}\n([0-9 %-]{0,12}\n){0,12}"
    ) {
        match parse_metis(&text) {
            Ok(f) => prop_assert!(f.graph.check().is_ok()),
            Err(e) => prop_assert!(e.line.is_some()),
        }
        let _ = parse_edge_list(&text);
    }

    #[test]
    fn edited_metis_files_are_read_or_refused_with_a_line(
        seed in 0u64..1000,
        edits in prop::collection::vec((0usize..4000, 0u8..4, prop::sample::select(&b"0123456789 %\n-x"[..])), 1..6),
    ) {
        let mut s = GenSpec { kind: GenKind::Delaunay, n: 40, ..GenSpec::default() };
        if seed % 2 == 0 {
            s = GenSpec { kind: GenKind::Grid2d, dims: [5, 6, 1], wrap: true, ..GenSpec::default() };
        }
        let mut bytes = write_metis(&generate(&s, seed).unwrap().graph).into_bytes();
        for (at, op, b) in edits {
            let at = at % (bytes.len() + 1);
            match op {
                0 if at < bytes.len() => { bytes[at] = b; }
                1 => bytes.insert(at, b),
                2 if at < bytes.len() => { bytes.remove(at); }
                _ => bytes.truncate(at),
            }
        }
        let text = String::from_utf8(bytes).unwrap();
        match parse_metis(&text) {
            Ok(f) => prop_assert!(f.graph.check().is_ok()),
            Err(e) => {
                let lines = text.lines().count() as u64;
                prop_assert!(matches!(e.line, Some(l) if l >= 1 && l <= lines.max(1)), "{e}");
            }
        }
    }

    #[test]
    fn any_graph_written_reads_back(n in 1u32..30, extra in prop::collection::vec((0u32..30, 0u32..30, 1u32..9), 0..60),
                                    vw in prop::collection::vec(0u32..5, 30)) {
        let mut seen = std::collections::BTreeSet::new();
        let edges: Vec<(u32, u32, u32)> = extra
            .into_iter()
            .filter(|&(u, v, _)| u < n && v < n && u != v && seen.insert((u.min(v), u.max(v))))
            .collect();
        let mut g = Graph::from_edges(n, &edges).unwrap();
        g.vwgt = vw[..n as usize].to_vec();
        let f = parse_metis(&write_metis(&g)).unwrap();
        prop_assert_eq!(f.graph, g);
    }
}

// ---------------------------------------------------------------------------------------------
// Analysis: CSR searches against petgraph's algorithms, summaries of known graphs.

mod analysis {
    use super::*;
    use petgraph::visit::Bfs;
    use placelab::partition::analysis::{
        bfs_order, components, peripheral_bfs_order, pseudo_peripheral, quotient_graph,
        quotient_spanning_tree, summarize, to_petgraph, GraphSummary,
    };
    use placelab::partition::metrics;

    /// Exact diameter of each component, by a BFS from every vertex (small graphs only).
    fn diameter(g: &Graph) -> u32 {
        (0..g.n()).map(|v| bfs_order(g, v).1).max().unwrap_or(0)
    }

    fn random_graph(n: u32, edges: &[(u32, u32)]) -> Graph {
        let mut seen = std::collections::BTreeSet::new();
        let e: Vec<(u32, u32, u32)> = edges
            .iter()
            .map(|&(u, v)| (u % n, v % n))
            .filter(|&(u, v)| u != v && seen.insert((u.min(v), u.max(v))))
            .map(|(u, v)| (u, v, 1 + (u + v) % 3))
            .collect();
        Graph::from_edges(n, &e).unwrap()
    }

    proptest! {
        #[test]
        fn components_and_bfs_agree_with_petgraph(
            n in 1u32..40,
            edges in prop::collection::vec((0u32..40, 0u32..40), 0..60),
        ) {
            let g = random_graph(n, &edges);
            let pg = to_petgraph(&g);
            prop_assert_eq!(pg.node_count() as u32, g.n());
            prop_assert_eq!(pg.edge_count() as u64, g.m());
            let (label, count) = components(&g);
            prop_assert_eq!(count as usize, petgraph::algo::connected_components(&pg));
            for s in 0..n {
                let (order, ecc) = bfs_order(&g, s);
                // Same vertices as petgraph's BFS, which are exactly s's component.
                let mut theirs = Vec::new();
                let mut bfs = Bfs::new(&pg, petgraph::graph::NodeIndex::new(s as usize));
                while let Some(x) = bfs.next(&pg) {
                    theirs.push(x.index() as u32);
                }
                let mut ours = order.clone();
                ours.sort_unstable();
                theirs.sort_unstable();
                prop_assert_eq!(&ours, &theirs);
                prop_assert!(ours.iter().all(|&v| label[v as usize] == label[s as usize]));
                // The eccentricity is the largest unit-weight distance (petgraph's Dijkstra).
                let dist = petgraph::algo::dijkstra(
                    &pg, petgraph::graph::NodeIndex::new(s as usize), None, |_| 1u32);
                prop_assert_eq!(ecc, dist.values().copied().max().unwrap());
                // A pseudo-peripheral vertex's eccentricity is a lower bound of the diameter.
                let (v, d) = pseudo_peripheral(&g, s);
                prop_assert_eq!(label[v as usize], label[s as usize]);
                prop_assert_eq!(bfs_order(&g, v).1, d);
                prop_assert!(d >= ecc && d <= diameter(&g));
            }
            // The peripheral order: a permutation, each component contiguous, in BFS levels.
            let order = peripheral_bfs_order(&g);
            let mut sorted = order.clone();
            sorted.sort_unstable();
            prop_assert_eq!(sorted, (0..n).collect::<Vec<_>>());
            let mut i = 0;
            while i < order.len() {
                let (comp, _) = bfs_order(&g, order[i]);
                let mut a = comp.clone();
                let mut b = order[i..i + comp.len()].to_vec();
                a.sort_unstable();
                b.sort_unstable();
                prop_assert_eq!(a, b);
                prop_assert_eq!(pseudo_peripheral(&g, order[i]).0, order[i]);
                i += comp.len();
            }
        }
    }

    #[test]
    fn pseudo_diameter_is_exact_on_grids_trees_and_stars() {
        for (x, y) in [(1, 1), (1, 7), (5, 3), (12, 9)] {
            let s = summarize(&grid(x, y, false).graph);
            assert_eq!(s.pseudo_diameter, x + y - 2, "{x}x{y}");
            assert_eq!((s.components, s.largest_component), (1, x * y));
        }
        for n in [2, 5, 31, 100] {
            let t = generate(&spec(GenKind::BinaryTree, n), 1).unwrap().graph;
            assert_eq!(summarize(&t).pseudo_diameter, diameter(&t), "tree {n}");
        }
        let s = summarize(&generate(&spec(GenKind::Star, 50), 1).unwrap().graph);
        assert_eq!((s.pseudo_diameter, s.min_degree, s.max_degree), (2, 1, 49));
    }

    #[test]
    fn summary_counts_components_isolated_vertices_and_weights() {
        let f = parse_metis("6 3 011\n2 2 4\n3 1 4 3 9\n1 2 9\n1 5 1\n1 4 1\n7\n").unwrap();
        assert_eq!(
            summarize(&f.graph),
            GraphSummary {
                vertices: 6,
                edges: 3,
                components: 3,
                largest_component: 3,
                isolated: 1,
                min_degree: 0,
                max_degree: 2,
                total_vertex_weight: 15,
                total_edge_weight: 14,
                pseudo_diameter: 2,
            }
        );
    }

    #[test]
    fn quotient_graph_weighs_parts_and_cut_and_its_tree_keeps_the_heaviest_links() {
        // 6x6 grid in four 3x3 quadrants: parts 0 1 / 2 3.
        let g = grid(6, 6, false).graph;
        let part: Vec<u32> = (0..36u32)
            .map(|v| (v % 6) / 3 + 2 * ((v / 6) / 3))
            .collect();
        let q = quotient_graph(&g, &part, 4);
        assert!(q.node_weights().all(|&w| w == 9));
        let total: u64 = q.edge_weights().sum();
        assert_eq!(total, metrics::edge_cut(&g, &part));
        assert_eq!(q.edge_count(), 4); // no diagonal neighbours between quadrants
        let tree = quotient_spanning_tree(&g, &part, 4);
        assert_eq!(tree.len(), 3);
        // Ties (all weights 3) broken by part ids, so the same tree everywhere.
        assert_eq!(tree, vec![(0, 1, 3), (0, 2, 3), (1, 3, 3)]);
        // A heavier edge is always kept.
        let mut h = g.clone();
        for v in 0..36u32 {
            for i in h.xadj[v as usize] as usize..h.xadj[v as usize + 1] as usize {
                let u = h.adjncy[i];
                let (pu, pv) = (part[u as usize], part[v as usize]);
                if (pu.min(pv), pu.max(pv)) == (2, 3) {
                    h.adjwgt[i] = 5;
                }
            }
        }
        let tree = quotient_spanning_tree(&h, &part, 4);
        assert_eq!(tree[0], (2, 3, 15));
        assert_eq!(tree.len(), 3);
    }
}
