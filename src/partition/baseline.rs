//! Baselines the multilevel partitioner is compared with in the page: they respect the target
//! weights but ignore the edges.

use super::{Graph, Options, Outcome};
use crate::rng::Rng;

/// Vertices in id order, cut into consecutive runs: vertex `v` goes to the part whose share of
/// the cumulative target weight contains the middle of `v`'s own weight. On graphs numbered
/// along their geometry (grids, cubes) this is the "stripes" partition.
pub fn linear(g: &Graph, opts: &Options) -> Outcome {
    let targets = opts.targets();
    let total = g.total_vwgt() as f64;
    let mut bounds = Vec::with_capacity(targets.len());
    let mut acc = 0.0;
    for t in &targets {
        acc += t * total;
        bounds.push(acc);
    }
    let mut part = Vec::with_capacity(g.n() as usize);
    let mut p = 0usize;
    let mut before = 0.0f64;
    for v in 0..g.n() as usize {
        let mid = before + f64::from(g.vwgt[v]) / 2.0;
        while p + 1 < bounds.len() && mid >= bounds[p] {
            p += 1;
        }
        part.push(p as u32);
        before += f64::from(g.vwgt[v]);
    }
    Outcome {
        part,
        levels: vec![g.n()],
    }
}

/// Each vertex to a random part, drawn with probability equal to the part's target fraction.
pub fn random(g: &Graph, opts: &Options) -> Outcome {
    let targets = opts.targets();
    let mut rng = Rng::seeded(opts.seed ^ 0x0005_eed0_f9a2_7000);
    let part = (0..g.n())
        .map(|_| {
            let x = rng.unit_f64();
            let mut acc = 0.0;
            let mut chosen = targets.len() - 1;
            for (p, t) in targets.iter().enumerate() {
                acc += t;
                if x < acc {
                    chosen = p;
                    break;
                }
            }
            chosen as u32
        })
        .collect();
    Outcome {
        part,
        levels: vec![g.n()],
    }
}
