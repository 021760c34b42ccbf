//! The partitioner's properties: on random graphs the
//! partition is complete, every part id is below `k`, parts respect their (possibly unequal)
//! targets within the tolerance, the result is a function of the seed, and the figures equal a
//! recount; edge cases (empty graphs, `k > n`, `k = 1`, zero weights, stars, disconnected
//! graphs, huge weights) never panic; on tiny graphs the bisection is compared with the optimum
//! found by brute force.

use placelab::partition::multilevel::limits;
use placelab::partition::{self, metrics, Effort, Graph, Method, Objective, Options};
use placelab::progress::{NoProgress, Progress};
use proptest::prelude::*;

/// A graph from an edge list with duplicates and self-loops dropped, vertex weights and sizes
/// given per vertex (cycled).
fn build(n: u32, edges: &[(u32, u32, u32)], vw: &[u32]) -> Graph {
    let mut seen = std::collections::BTreeSet::new();
    let mut es = Vec::new();
    for &(a, b, w) in edges {
        let (a, b) = (a % n.max(1), b % n.max(1));
        if a != b && seen.insert((a.min(b), a.max(b))) {
            es.push((a, b, w.max(1)));
        }
    }
    let mut g = Graph::from_edges(n, &es).unwrap();
    if !vw.is_empty() {
        for v in 0..n as usize {
            g.vwgt[v] = vw[v % vw.len()];
            g.vsize[v] = 1 + vw[v % vw.len()] % 3;
        }
    }
    g
}

fn grid(w: u32, h: u32) -> Graph {
    let mut e = Vec::new();
    for y in 0..h {
        for x in 0..w {
            let v = y * w + x;
            if x + 1 < w {
                e.push((v, v + 1, 1));
            }
            if y + 1 < h {
                e.push((v, v + w, 1));
            }
        }
    }
    Graph::from_edges(w * h, &e).unwrap()
}

fn star(n: u32) -> Graph {
    let e: Vec<_> = (1..n).map(|v| (0, v, 1)).collect();
    Graph::from_edges(n, &e).unwrap()
}

/// Recount of the cut from the edge list, independent of `metrics`.
fn naive_cut(g: &Graph, part: &[u32]) -> u64 {
    let mut cut = 0;
    for v in 0..g.n() {
        for (&u, &w) in g.neighbors(v).iter().zip(g.edge_weights(v)) {
            if v < u && part[v as usize] != part[u as usize] {
                cut += u64::from(w);
            }
        }
    }
    cut
}

/// Checks completeness, ids and balance: part `p` weighs at most its limit plus the heaviest
/// vertex (a single vertex may force it), and at most the limit when all vertices weigh 1 and
/// `k` divides into the tolerance.
fn check(g: &Graph, opts: &Options, part: &[u32]) {
    assert_eq!(part.len(), g.n() as usize, "one part per vertex");
    let k = opts.k.max(1);
    assert!(part.iter().all(|&p| p < k), "part ids below k");
    let targets = if opts.tpwgts.is_empty() {
        vec![1.0 / f64::from(k); k as usize]
    } else {
        opts.tpwgts.clone()
    };
    let maxw = limits(g.total_vwgt(), &targets, opts.ufactor);
    let heaviest = g.vwgt.iter().copied().max().unwrap_or(0) as u64;
    let w = metrics::part_weights(g, part, k);
    for p in 0..k as usize {
        assert!(
            w[p] <= maxw[p] + heaviest,
            "part {p} weighs {} > limit {} + heaviest vertex {heaviest} (weights {w:?})",
            w[p],
            maxw[p]
        );
    }
}

/// Partitions `g` twice with `o`: complete and balanced ([`check`]), the same parts both
/// times, the reported cut equal to the naive recount.
fn check_run(g: &Graph, o: &Options) {
    let a = partition::partition(g, o, &mut NoProgress);
    check(g, o, &a.part);
    let b = partition::partition(g, o, &mut NoProgress);
    assert_eq!(a.part, b.part, "same seed, same parts");
    assert_eq!(metrics::edge_cut(g, &a.part), naive_cut(g, &a.part));
}

/// Target fractions proportional to `w`.
fn fractions(w: &[u32]) -> Vec<f64> {
    let sum: u32 = w.iter().sum();
    w.iter().map(|&x| f64::from(x) / f64::from(sum)).collect()
}

fn opts(k: u32, seed: u64, method: Method, objective: Objective) -> Options {
    Options {
        k,
        seed,
        method,
        objective,
        ..Options::default()
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_graphs_are_partitioned_completely_balanced_and_deterministically(
        n in 0u32..80,
        edges in prop::collection::vec((0u32..80, 0u32..80, 1u32..6), 0..200),
        vw in prop::collection::vec(0u32..8, 0..5),
        k in 1u32..12,
        seed in any::<u64>(),
        rb in any::<bool>(),
        vol in any::<bool>(),
    ) {
        let g = build(n, &edges, &vw);
        prop_assert!(g.check().is_ok());
        let method = if rb { Method::Rb } else { Method::Kway };
        let objective = if vol { Objective::Volume } else { Objective::Cut };
        let o = opts(k, seed, method, objective);
        check_run(&g, &o);
    }

    /// The same for the quality mode (its V-cycles re-bisect pairs of parts), with unequal
    /// targets: complete, within the limits, deterministic, its cut equal to the recount.
    #[test]
    fn random_graphs_in_the_quality_mode_are_partitioned_completely_balanced_and_deterministically(
        n in 0u32..80,
        edges in prop::collection::vec((0u32..80, 0u32..80, 1u32..6), 0..200),
        vw in prop::collection::vec(0u32..8, 0..5),
        tw in prop::collection::vec(1u32..6, 1..10),
        seed in any::<u64>(),
    ) {
        let g = build(n, &edges, &vw);
        let o = Options {
            effort: Effort::Strong,
            tpwgts: fractions(&tw),
            ..opts(tw.len() as u32, seed, Method::Kway, Objective::Cut)
        };
        check_run(&g, &o);
    }

    /// Forests (sparse: the default mode re-bisects fragmented pairs of parts on the coarse
    /// levels) with unequal targets, as the placement engine's recursive mapping asks: complete,
    /// within the limits, deterministic, the cut equal to the recount.
    #[test]
    fn random_forests_with_unequal_targets_are_partitioned_completely_and_deterministically(
        n in 2u32..600,
        parents in prop::collection::vec((0u32..1_000_000, 0u32..10, 1u32..4), 600),
        vw in prop::collection::vec(0u32..5, 0..4),
        tw in prop::collection::vec(1u32..6, 3..12),
        seed in any::<u64>(),
        vol in any::<bool>(),
    ) {
        // Vertex v > 0 hangs below an earlier vertex, except one in ten (a new tree).
        let edges: Vec<(u32, u32, u32)> = (1..n)
            .filter(|&v| parents[v as usize].1 > 0)
            .map(|v| (v, parents[v as usize].0 % v, parents[v as usize].2))
            .collect();
        let g = build(n, &edges, &vw);
        prop_assert!(2 * g.m() < 3 * u64::from(g.n()), "sparse");
        let objective = if vol { Objective::Volume } else { Objective::Cut };
        let o = Options {
            tpwgts: fractions(&tw),
            ..opts(tw.len() as u32, seed, Method::Kway, objective)
        };
        check_run(&g, &o);
    }

    #[test]
    fn unequal_targets_are_honoured(
        w in prop::collection::vec(1u32..10, 2..6),
        seed in any::<u64>(),
        rb in any::<bool>(),
    ) {
        let g = grid(30, 30);
        let tpwgts = fractions(&w);
        let o = Options {
            tpwgts: tpwgts.clone(),
            ..opts(w.len() as u32, seed, if rb { Method::Rb } else { Method::Kway }, Objective::Cut)
        };
        let out = partition::partition(&g, &o, &mut NoProgress);
        check(&g, &o, &out.part);
        // Unit vertices: every part within its limit exactly (`max(floor(1.03 t W), ceil(t W))`).
        let weights = metrics::part_weights(&g, &out.part, o.k);
        let maxw = limits(900, &tpwgts, o.ufactor);
        prop_assert!(weights.iter().zip(&maxw).all(|(w, m)| w <= m), "weights {:?} limits {:?}", weights, maxw);
    }

    #[test]
    fn tiny_bisections_are_close_to_the_brute_force_optimum(
        n in 2u32..13,
        edges in prop::collection::vec((0u32..13, 0u32..13, 1u32..5), 1..40),
        seed in any::<u64>(),
    ) {
        let g = build(n, &edges, &[]);
        let o = Options { ufactor: 100, ..opts(2, seed, Method::Kway, Objective::Cut) };
        let maxw = limits(u64::from(n), &[0.5, 0.5], o.ufactor);
        let mut best = u64::MAX;
        for mask in 0u32..(1 << n) {
            let part: Vec<u32> = (0..n).map(|v| (mask >> v) & 1).collect();
            let w = metrics::part_weights(&g, &part, 2);
            if w[0] <= maxw[0] && w[1] <= maxw[1] {
                best = best.min(metrics::edge_cut(&g, &part));
            }
        }
        let out = partition::partition(&g, &o, &mut NoProgress);
        let w = metrics::part_weights(&g, &out.part, 2);
        prop_assert!(w[0] <= maxw[0] && w[1] <= maxw[1], "balanced: {:?} vs {:?}", w, maxw);
        let ours = metrics::edge_cut(&g, &out.part);
        prop_assert!(ours * 4 <= best * 5 + 4, "ours {} vs optimum {}", ours, best);
    }
}

#[test]
fn empty_and_edgeless_graphs_and_k_beyond_n_do_not_panic() {
    for n in [0u32, 1, 2, 7] {
        let g = Graph::from_edges(n, &[]).unwrap();
        for k in [1u32, 2, 3, 8, 100] {
            for method in [Method::Kway, Method::Rb] {
                for effort in [Effort::Default, Effort::Strong] {
                    let o = Options {
                        effort,
                        ..opts(k, 3, method, Objective::Cut)
                    };
                    let out = partition::partition(&g, &o, &mut NoProgress);
                    check(&g, &o, &out.part);
                }
            }
        }
    }
}

#[test]
fn k_close_to_n_and_k_one_are_handled() {
    let g = grid(5, 5);
    for k in [1u32, 20, 24, 25, 26, 40] {
        let o = opts(k, 9, Method::Kway, Objective::Cut);
        let out = partition::partition(&g, &o, &mut NoProgress);
        check(&g, &o, &out.part);
        if k == 1 {
            assert!(out.part.iter().all(|&p| p == 0));
        }
    }
    // With k = n every part holds exactly one vertex.
    let out = partition::partition(
        &g,
        &opts(25, 2, Method::Kway, Objective::Cut),
        &mut NoProgress,
    );
    let w = metrics::part_weights(&g, &out.part, 25);
    assert!(w.iter().all(|&x| x == 1), "{w:?}");
}

#[test]
fn zero_and_huge_vertex_weights_do_not_panic() {
    let mut g = grid(12, 12);
    for w in g.vwgt.iter_mut() {
        *w = 0;
    }
    let o = opts(4, 1, Method::Kway, Objective::Cut);
    let out = partition::partition(&g, &o, &mut NoProgress);
    assert_eq!(out.part.len(), 144);
    assert!(out.part.iter().all(|&p| p < 4));
    for (i, w) in g.vwgt.iter_mut().enumerate() {
        *w = if i % 7 == 0 { u32::MAX } else { 1 };
    }
    for w in g.adjwgt.iter_mut() {
        *w = u32::MAX;
    }
    for method in [Method::Kway, Method::Rb] {
        let o = opts(5, 1, method, Objective::Volume);
        let out = partition::partition(&g, &o, &mut NoProgress);
        check(&g, &o, &out.part);
    }
}

#[test]
fn stars_coarsen_and_split_evenly() {
    let g = star(2001);
    let o = opts(4, 5, Method::Kway, Objective::Cut);
    let out = partition::partition(&g, &o, &mut NoProgress);
    check(&g, &o, &out.part);
    // The 2-hop guard halves the star at every level instead of stalling.
    assert!(out.levels.len() > 3, "levels {:?}", out.levels);
    assert!(out.levels[1] <= 1100, "levels {:?}", out.levels);
    // Best possible: the hub's part keeps ~1/4 of the leaves, every other leaf is cut.
    assert!(metrics::edge_cut(&g, &out.part) <= 1530);
}

#[test]
fn disconnected_graphs_and_isolated_vertices_are_split_along_components() {
    // Four 10x10 grids side by side plus 40 isolated vertices; the ideal cuts nothing (each part
    // a grid and 10 isolated vertices). Refinement moves single vertices, never a whole
    // component, so a grid may be cut through: k-way at most once (10 edges), recursive
    // bisection, which has no k-way refinement, at most twice.
    let mut e = Vec::new();
    for c in 0..4u32 {
        let g = grid(10, 10);
        for v in 0..g.n() {
            for &u in g.neighbors(v) {
                if v < u {
                    e.push((c * 100 + v, c * 100 + u, 1));
                }
            }
        }
    }
    let g = Graph::from_edges(440, &e).unwrap();
    for method in [Method::Kway, Method::Rb] {
        let o = opts(4, 7, method, Objective::Cut);
        let out = partition::partition(&g, &o, &mut NoProgress);
        check(&g, &o, &out.part);
        let bound = if method == Method::Kway { 10 } else { 20 };
        let cut = metrics::edge_cut(&g, &out.part);
        assert!(cut <= bound, "{method:?}: {cut}");
    }
}

#[test]
fn multilevel_cuts_a_grid_far_below_the_random_baseline_and_near_the_stripes() {
    let g = grid(64, 64);
    let ml = partition::partition(
        &g,
        &opts(8, 1, Method::Kway, Objective::Cut),
        &mut NoProgress,
    );
    let rnd = partition::partition(
        &g,
        &opts(8, 1, Method::Random, Objective::Cut),
        &mut NoProgress,
    );
    let (c_ml, c_rnd) = (
        metrics::edge_cut(&g, &ml.part),
        metrics::edge_cut(&g, &rnd.part),
    );
    assert!(c_ml * 10 < c_rnd, "multilevel {c_ml} vs random {c_rnd}");
    // 8 strips of 8 rows cut 7 * 64 = 448; 4x2 blocks cut 3*64 + 64 = 256; allow 15 % over it.
    assert!(c_ml <= 295, "multilevel cut {c_ml}");
}

#[test]
fn strong_mode_is_never_worse_than_default_on_the_same_seed() {
    let g = grid(40, 40);
    for k in [2u32, 8] {
        let d = partition::partition(
            &g,
            &opts(k, 4, Method::Kway, Objective::Cut),
            &mut NoProgress,
        );
        let s = partition::partition(
            &g,
            &Options {
                effort: Effort::Strong,
                ..opts(k, 4, Method::Kway, Objective::Cut)
            },
            &mut NoProgress,
        );
        check(&g, &opts(k, 4, Method::Kway, Objective::Cut), &s.part);
        assert!(metrics::edge_cut(&g, &s.part) <= metrics::edge_cut(&g, &d.part) + 2);
    }
}

#[test]
fn volume_objective_does_not_raise_the_volume() {
    let g = grid(40, 40);
    let c = partition::partition(
        &g,
        &opts(8, 3, Method::Kway, Objective::Cut),
        &mut NoProgress,
    );
    let v = partition::partition(
        &g,
        &opts(8, 3, Method::Kway, Objective::Volume),
        &mut NoProgress,
    );
    check(&g, &opts(8, 3, Method::Kway, Objective::Volume), &v.part);
    let (vc, vv) = (
        metrics::comm_volume(&g, &c.part, 8),
        metrics::comm_volume(&g, &v.part, 8),
    );
    assert!(
        vv <= vc + vc / 10,
        "volume objective {vv} vs cut objective {vc}"
    );
}

struct Recorder(Vec<(u64, u64)>);
impl Progress for Recorder {
    fn tick(&mut self, done: u64, total: u64) {
        self.0.push((done, total));
    }
}

#[test]
fn progress_is_monotone_and_ends_at_its_total() {
    for effort in [Effort::Default, Effort::Strong] {
        let mut r = Recorder(Vec::new());
        let o = Options {
            effort,
            ..opts(4, 1, Method::Kway, Objective::Cut)
        };
        partition::partition(&grid(50, 50), &o, &mut r);
        assert!(r.0.len() > 3, "{:?}", r.0);
        let total = r.0[0].1;
        assert!(r.0.windows(2).all(|w| w[0].0 <= w[1].0 && w[1].1 == total));
        assert_eq!(r.0.last().unwrap().0, total);
    }
}

#[test]
fn different_seeds_give_valid_but_not_always_equal_partitions() {
    let g = grid(30, 30);
    let parts: Vec<Vec<u32>> = (0..4)
        .map(|s| {
            partition::partition(
                &g,
                &opts(4, s, Method::Kway, Objective::Cut),
                &mut NoProgress,
            )
            .part
        })
        .collect();
    assert!(parts.windows(2).any(|w| w[0] != w[1]));
}

/// A case proptest found: two 4-vertex chains joined by one light edge, plus 4 isolated
/// vertices; the best balanced bisection cuts only that edge (cut 1).
#[test]
fn a_bisection_finds_the_light_edge_between_two_chains_beside_isolated_vertices() {
    let edges = [
        (0, 2, 4),
        (3, 2, 2),
        (4, 0, 2),
        (2, 8, 1),
        (1, 6, 1),
        (9, 8, 3),
        (6, 8, 3),
    ];
    let g = build(12, &edges, &[]);
    for seed in [11376487688421576863u64, 1, 2, 3] {
        let o = Options {
            ufactor: 100,
            ..opts(2, seed, Method::Kway, Objective::Cut)
        };
        let out = partition::partition(&g, &o, &mut NoProgress);
        let cut = metrics::edge_cut(&g, &out.part);
        assert!(cut * 4 <= 5 + 4, "seed {seed}: cut {cut}, optimum 1");
    }
}

/// A heap-numbered binary tree of 1,000 vertices has exactly one balanced (3 %) bisection of cut
/// 1: the root's edge to its left subtree (511 vertices against 489, or 512 with the root).
/// One coarsening usually merges the root with a child and loses it; the small-graph tries of
/// the default mode find it on most seeds (before them: 1 seed in 4).
#[test]
fn a_small_binary_tree_is_bisected_at_its_single_balanced_edge_on_most_seeds() {
    let edges: Vec<(u32, u32, u32)> = (1..1000u32).map(|i| ((i - 1) / 2, i, 1)).collect();
    let g = build(1000, &edges, &[1]);
    let mut ones = 0;
    for seed in 1..=8u64 {
        let o = opts(2, seed, Method::Kway, Objective::Cut);
        let part = partition::partition(&g, &o, &mut NoProgress).part;
        check(&g, &o, &part);
        if naive_cut(&g, &part) == 1 {
            ones += 1;
        }
    }
    assert!(ones >= 6, "cut 1 found on {ones} of 8 seeds");
}

#[test]
fn small_graphs_get_up_to_four_tries_and_large_ones_one() {
    use placelab::partition::multilevel::small_graph_tries;
    let path = |n: u32| {
        let edges: Vec<(u32, u32, u32)> = (1..n).map(|i| (i - 1, i, 1)).collect();
        build(n, &edges, &[1])
    };
    assert_eq!(small_graph_tries(&path(100)), 4);
    assert_eq!(small_graph_tries(&path(2000)), 2); // 2,000 + 3,998 units
    assert_eq!(small_graph_tries(&path(6000)), 1);
    assert_eq!(small_graph_tries(&build(0, &[], &[1])), 4);
}

/// Median of the cuts of `opts(k, seed)` over `seeds` (k-way, edge cut), each part vector
/// checked.
fn median_cut(g: &Graph, k: u32, seeds: std::ops::RangeInclusive<u64>) -> u64 {
    let mut cuts: Vec<u64> = seeds
        .map(|seed| {
            let o = opts(k, seed, Method::Kway, Objective::Cut);
            let part = partition::partition(g, &o, &mut NoProgress).part;
            check(g, &o, &part);
            naive_cut(g, &part)
        })
        .collect();
    cuts.sort_unstable();
    cuts[cuts.len() / 2]
}

/// Four parts of a tree need at least three cut edges (each cut edge adds one component), and
/// the heap-numbered binary tree of 1,000 vertices has a 4-way cut of 3 within 3 % (gpmetis
/// finds it). The initial bisections must keep the subtree boundaries through their own
/// coarsening to find it.
#[test]
fn a_small_binary_tree_is_cut_into_four_parts_at_the_least_possible_three_edges_on_most_seeds() {
    let edges: Vec<(u32, u32, u32)> = (1..1000u32).map(|i| ((i - 1) / 2, i, 1)).collect();
    let g = build(1000, &edges, &[1]);
    let mut optimal = 0;
    for seed in 1..=9u64 {
        let o = opts(4, seed, Method::Kway, Objective::Cut);
        let part = partition::partition(&g, &o, &mut NoProgress).part;
        check(&g, &o, &part);
        let cut = naive_cut(&g, &part);
        assert!(cut >= 3, "seed {seed}: cut {cut} below the bound");
        if cut == 3 {
            optimal += 1;
        }
    }
    assert!(optimal >= 6, "cut 3 found on {optimal} of 9 seeds");
}

/// The 1,000-vertex binary tree in 32 parts: no two vertices fit under the coarse-vertex limit
/// (1.5 * 1,000 / 960 < 2), so the initial recursive bisection works on the tree itself. Held to
/// each bisection's tolerance (0.86 %, a part of 31-32 vertices) its median cut over seeds 1-9
/// was 37 (gpmetis 5.1: 33 on every seed); with the balance window of 3 average vertex weights
/// that METIS also leaves, the bisections may follow subtree boundaries and the k-way refinement
/// restores the balance: 35.
#[test]
fn a_binary_tree_too_small_to_coarsen_is_cut_into_32_parts_within_the_balance_window() {
    let edges: Vec<(u32, u32, u32)> = (1..1000u32).map(|i| ((i - 1) / 2, i, 1)).collect();
    let g = build(1000, &edges, &[1]);
    let median = median_cut(&g, 32, 1..=9);
    assert!(
        median <= 35,
        "median cut {median} (gpmetis 33, without the window 37)"
    );
}

/// The random geometric graph of the benchmark (10,000 points, seed 1, mean degree about 8) in
/// four parts: the median cut over seeds 1-9 stays within 10 % of gpmetis 5.1's median over the
/// same seeds (150, recorded with `gpmetis -ufactor=30 -seed=S`). The initial partition of the
/// coarsest graph sets it (the final cut is about two thirds of the initial one): with 4
/// initial cuts of 4 grown tries each the median was 170 (1.133); with METIS's 5 and 5, 164.
#[test]
fn a_random_geometric_graph_is_cut_into_four_parts_within_10_percent_of_metis() {
    use placelab::partition::generate::{generate, GenKind, GenSpec};
    let spec = GenSpec {
        kind: GenKind::Geometric,
        n: 10_000,
        ..GenSpec::default()
    };
    let g = generate(&spec, 1).expect("generated").graph;
    assert_eq!(g.m(), 39_262, "not the benchmark's graph");
    let median = median_cut(&g, 4, 1..=9);
    assert!(
        median * 100 <= 150 * 110,
        "median cut {median} against gpmetis 150"
    );
}

#[test]
fn initial_partitioning_takes_five_cuts_above_the_thirty_k_floor_and_four_on_it() {
    use placelab::partition::multilevel::initial_cuts;
    assert_eq!(initial_cuts(10_000, 4), 5); // coarsens to 10,000 / 40 = 250 > 120
    assert_eq!(initial_cuts(1_000, 64), 4); // 1,000 / 120 < 1,920: the floor
    assert_eq!(initial_cuts(0, 1), 4);
}

/// A 4-cycle 1-3-4-6 of heavy edges with pendants 0-3, 2-4 and 5-6 and an isolated vertex 7,
/// at most 4 vertices a side (the property test above once shrank to it). The optimum keeps the
/// cycle whole (cut 3). Greedy growth takes a pendant early and splits the cycle; with both
/// sides full, a boundary-only FM cannot hand the pendant back (it is interior), so every seed
/// ended at cut 6 until the initial bisection's FM moved every vertex.
#[test]
fn a_heavy_cycle_with_pendants_is_kept_whole_by_every_seed() {
    let edges = [
        (1, 3, 3),
        (4, 2, 1),
        (1, 6, 3),
        (4, 3, 3),
        (6, 5, 1),
        (4, 6, 3),
        (0, 3, 1),
    ];
    let g = build(8, &edges, &[]);
    for seed in 0..64u64 {
        let o = Options {
            ufactor: 100,
            ..opts(2, seed, Method::Kway, Objective::Cut)
        };
        let out = partition::partition(&g, &o, &mut NoProgress);
        check(&g, &o, &out.part);
        assert_eq!(
            metrics::edge_cut(&g, &out.part),
            3,
            "seed {seed}: {:?}",
            out.part
        );
    }
}
