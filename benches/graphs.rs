//! Graph input and generation benchmarks (criterion): `cargo bench --bench graphs`.
//!
//! 1. `parse_metis` of a 1000 x 500 grid written by `write_metis` (500,000 vertices, 999,500
//!    edges, about 11 MB of text): the reader is linear, so this is well under a second.
//! 2. The generators at the benchmark's largest size: a 100,000-point Delaunay mesh (exact
//!    predicates, BRIO order) and a 100,000-point random geometric graph (mean degree ~8).
//! 3. `summarize` (components, degrees, pseudo-diameter) of the Delaunay mesh.

use criterion::{criterion_group, Criterion};
use placelab::formats::metis::{parse_metis, write_metis};
use placelab::partition::analysis::summarize;
use placelab::partition::generate::{generate, GenKind, GenSpec};
use std::time::Duration;

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("graphs");
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    let grid = GenSpec {
        kind: GenKind::Grid2d,
        dims: [1000, 500, 1],
        ..GenSpec::default()
    };
    let text = write_metis(&generate(&grid, 1).unwrap().graph);
    g.bench_function("parse_metis grid 1000x500 (1M edges)", |b| {
        b.iter(|| parse_metis(&text).unwrap())
    });
    for kind in [GenKind::Delaunay, GenKind::Geometric] {
        let spec = GenSpec {
            kind,
            n: 100_000,
            ..GenSpec::default()
        };
        g.bench_function(format!("generate {} 100k", kind.name()), |b| {
            b.iter(|| generate(&spec, 1).unwrap())
        });
    }
    let mesh = generate(
        &GenSpec {
            kind: GenKind::Delaunay,
            n: 100_000,
            ..GenSpec::default()
        },
        1,
    )
    .unwrap()
    .graph;
    g.bench_function("summarize delaunay 100k", |b| b.iter(|| summarize(&mesh)));
    g.finish();
}

criterion_group!(benches, bench);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
}
