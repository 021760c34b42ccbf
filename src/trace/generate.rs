//! Trace generators for the source's programs, so users can start without a trace. Each writes
//! the events a blocking MPI program would log; compute is counted in flops and divided by the
//! reference rate. Deterministic: no randomness.
//!
//! - **LU** (Gaussian elimination in outer-product form, the source's benchmark, order `n`):
//!   rows are distributed; at step `k` the owner of row `k` sends the pivot row's `n - k - 1`
//!   trailing elements (8-byte doubles; `k = 0` gives table 1's 7992 bytes for `n = 1000`) to
//!   every other rank that owns a row below `k`, in rank order; then every rank with rows
//!   below `k` updates them, `2 (n - k - 1) + 1` flops per row. Distributions: block-cyclic
//!   (blocks of `width` rows dealt in turn; the source: 5), block (contiguous, equal up to
//!   one row) and uneven block (contiguous, in proportion to `weights`; the source: 4:2:1:1).
//! - **Matrix multiplication** `C = A B` of order `n`, rows of `A` in proportion to
//!   `weights`: rank 0 sends each other rank its rows of `A` and the whole `B`, every rank
//!   computes its rows of `C` (`2 rows n^2` flops), and sends them back to rank 0, which
//!   receives them in rank order.
//! - **Himeno-like stencil**: a `n^3` grid of 4-byte floats cut into slabs along the first
//!   axis (equal up to one plane); each iteration computes 34 flops per interior point, then
//!   exchanges one plane with each neighbour (even ranks send first, odd ranks receive
//!   first, so the blocking exchange cannot deadlock), then sums the residual: every rank
//!   sends 8 bytes to rank 0, which sends the sum back.
//!
//! # Complexity
//! LU `O(n R)` events, matmul `O(R)`, Himeno and ring `O(iterations R)`.

// Rank and node indices are ids here (peers, pairs, classes), not only positions in one array.
#![allow(clippy::needless_range_loop)]

use super::model::{Op, Origin, Trace};
use crate::params::choices;
use serde::Deserialize;

/// The generators' defaults (the trace engine's field table quotes them): the source's LU of
/// order 1000 on 4 ranks, block width 5, and 10 Himeno iterations.
pub const DEFAULT_SIZE: u32 = 1000;
pub const DEFAULT_RANKS: u32 = 4;
pub const DEFAULT_WIDTH: u32 = 5;
pub const DEFAULT_ITERATIONS: u32 = 10;
fn size() -> u32 {
    DEFAULT_SIZE
}
fn ranks() -> u32 {
    DEFAULT_RANKS
}
fn width() -> u32 {
    DEFAULT_WIDTH
}
fn iterations() -> u32 {
    DEFAULT_ITERATIONS
}

/// A generated trace: the program and its shape (`generate` in a trace scenario; the ranges
/// are in the trace engine's field table).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GenerateSpec {
    pub program: Program,
    /// Problem size: matrix order (LU, matmul) or grid points per side (Himeno).
    #[serde(default = "size")]
    pub size: u32,
    #[serde(default = "ranks")]
    pub ranks: u32,
    /// Block width of the block-cyclic LU (the source: 5).
    #[serde(default = "width")]
    pub width: u32,
    /// Data shares per rank of the uneven programs; default 4:2:1:1 repeated.
    pub weights: Option<Vec<u32>>,
    /// Himeno and ring iterations.
    #[serde(default = "iterations")]
    pub iterations: u32,
}

choices! {
    pub enum Program {
        /// LU decomposition, rows dealt in blocks of `width` cyclically.
        LuCyclic = ("luCyclic", "LU, block-cyclic"),
        /// LU decomposition, contiguous equal row blocks.
        LuBlock = ("luBlock", "LU, block"),
        /// LU decomposition, contiguous row blocks in proportion to `weights`.
        LuUneven = ("luUneven", "LU, uneven block"),
        /// Matrix multiplication, row blocks in proportion to `weights`.
        Matmul = ("matmul", "Matrix multiply, uneven"),
        /// A Himeno-like Jacobi stencil, slabs with halo exchange.
        Himeno = ("himeno", "Himeno-like stencil"),
        /// A periodic ring of equal slabs exchanging halos with non-blocking calls.
        Ring = ("ring", "Ring halo exchange (periodic)"),
    }
}

/// Rows (or planes) per rank in proportion to `weights`: rank `p` gets
/// `floor(n S_(p+1) / W) - floor(n S_p / W)`, `S_p` the sum of the first `p` weights.
pub fn shares(n: u64, weights: &[u64]) -> Vec<u64> {
    let w: u64 = weights.iter().sum::<u64>().max(1);
    let mut acc = 0u64;
    let mut prev = 0u64;
    weights
        .iter()
        .map(|&x| {
            acc += x;
            let b = ((n as u128 * acc as u128) / w as u128) as u64;
            let s = b - prev;
            prev = b;
            s
        })
        .collect()
}

/// The weights of the uneven programs: given, else 4:2:1:1 repeated over the ranks.
pub fn weights_of(spec: &GenerateSpec) -> Vec<u64> {
    match &spec.weights {
        Some(w) => w.iter().map(|&x| x as u64).collect(),
        None => (0..spec.ranks as usize)
            .map(|i| [4u64, 2, 1, 1][i % 4])
            .collect(),
    }
}

/// An upper estimate of the events the generator writes (checked before generating).
pub fn estimate_events(spec: &GenerateSpec) -> u64 {
    let r = spec.ranks as u64;
    let n = spec.size as u64;
    match spec.program {
        Program::LuCyclic | Program::LuBlock | Program::LuUneven => n * 3 * r,
        Program::Matmul => 8 * r,
        Program::Himeno => spec.iterations as u64 * 10 * r,
        Program::Ring => spec.iterations as u64 * 6 * r,
    }
}

/// Generates the trace (compute in seconds at `rate` flops per second).
pub fn generate(spec: &GenerateSpec, rate: f64) -> Trace {
    match spec.program {
        Program::LuCyclic | Program::LuBlock | Program::LuUneven => lu(spec, rate),
        Program::Matmul => matmul(spec, rate),
        Program::Himeno => himeno(spec, rate),
        Program::Ring => ring(spec, rate),
    }
}

fn lu(spec: &GenerateSpec, rate: f64) -> Trace {
    let r = spec.ranks as usize;
    let n = spec.size as u64;
    let owner: Vec<u32> = match spec.program {
        Program::LuCyclic => {
            let w = spec.width.max(1) as u64;
            (0..n).map(|i| ((i / w) % r as u64) as u32).collect()
        }
        _ => {
            let weights = if spec.program == Program::LuBlock {
                vec![1u64; r]
            } else {
                weights_of(spec)
            };
            let sh = shares(n, &weights);
            let mut o = Vec::with_capacity(n as usize);
            for (p, &s) in sh.iter().enumerate() {
                o.extend(std::iter::repeat_n(p as u32, s as usize));
            }
            o
        }
    };
    // rows below k per rank: counted down as k advances
    let mut below = vec![0u64; r];
    for &o in &owner {
        below[o as usize] += 1;
    }
    let mut t = Trace::new(r, Origin::Generated);
    for k in 0..n as usize {
        let o = owner[k] as usize;
        below[o] -= 1; // row k itself is no longer below
        let len = n - k as u64 - 1;
        if len == 0 {
            break;
        }
        let bytes = 8.0 * len as f64;
        for p in 0..r {
            if p != o && below[p] > 0 {
                t.push(
                    o,
                    Op::Send {
                        tag: 0,
                        peer: p as u32,
                        bytes,
                    },
                    0,
                    0,
                );
                t.push(
                    p,
                    Op::Recv {
                        tag: 0,
                        peer: o as u32,
                        bytes,
                    },
                    0,
                    0,
                );
            }
        }
        for p in 0..r {
            if below[p] > 0 {
                let flops = below[p] as f64 * (2.0 * len as f64 + 1.0);
                t.push(p, Op::Compute(flops / rate), 0, 0);
            }
        }
    }
    t
}

fn matmul(spec: &GenerateSpec, rate: f64) -> Trace {
    let r = spec.ranks as usize;
    let n = spec.size as f64;
    let sh = shares(spec.size as u64, &weights_of(spec));
    let mut t = Trace::new(r, Origin::Generated);
    for p in 1..r {
        let a = 8.0 * sh[p] as f64 * n;
        t.push(
            0,
            Op::Send {
                tag: 0,
                peer: p as u32,
                bytes: a,
            },
            0,
            0,
        );
        t.push(
            p,
            Op::Recv {
                peer: 0,
                tag: 0,
                bytes: a,
            },
            0,
            0,
        );
        let b = 8.0 * n * n;
        t.push(
            0,
            Op::Send {
                tag: 0,
                peer: p as u32,
                bytes: b,
            },
            0,
            0,
        );
        t.push(
            p,
            Op::Recv {
                peer: 0,
                tag: 0,
                bytes: b,
            },
            0,
            0,
        );
    }
    for (p, &rows) in sh.iter().enumerate() {
        t.push(p, Op::Compute(2.0 * rows as f64 * n * n / rate), 0, 0);
    }
    for p in 1..r {
        let c = 8.0 * sh[p] as f64 * n;
        t.push(
            p,
            Op::Send {
                peer: 0,
                tag: 0,
                bytes: c,
            },
            0,
            0,
        );
        t.push(
            0,
            Op::Recv {
                tag: 0,
                peer: p as u32,
                bytes: c,
            },
            0,
            0,
        );
    }
    t
}

fn himeno(spec: &GenerateSpec, rate: f64) -> Trace {
    let r = spec.ranks as usize;
    let n = spec.size as u64;
    let planes = shares(n, &vec![1u64; r]);
    let inner = (n.saturating_sub(2)) as f64;
    let plane_bytes = 4.0 * (n * n) as f64;
    let mut t = Trace::new(r, Origin::Generated);
    for _ in 0..spec.iterations {
        for (p, &pl) in planes.iter().enumerate() {
            t.push(
                p,
                Op::Compute(34.0 * pl as f64 * inner * inner / rate),
                0,
                0,
            );
        }
        // upward: p -> p + 1; then downward: p -> p - 1
        for dir in [1i64, -1] {
            for p in 0..r {
                let to = p as i64 + dir;
                let from = p as i64 - dir;
                let send = (0..r as i64).contains(&to).then_some(to as u32);
                let recv = (0..r as i64).contains(&from).then_some(from as u32);
                let s = send.map(|q| Op::Send {
                    tag: 0,
                    peer: q,
                    bytes: plane_bytes,
                });
                let v = recv.map(|q| Op::Recv {
                    tag: 0,
                    peer: q,
                    bytes: plane_bytes,
                });
                let ops = if p % 2 == 0 { [s, v] } else { [v, s] };
                for op in ops.into_iter().flatten() {
                    t.push(p, op, 0, 0);
                }
            }
        }
        for p in 1..r {
            t.push(
                p,
                Op::Send {
                    tag: 0,
                    peer: 0,
                    bytes: 8.0,
                },
                0,
                0,
            );
            t.push(
                0,
                Op::Recv {
                    tag: 0,
                    peer: p as u32,
                    bytes: 8.0,
                },
                0,
                0,
            );
        }
        for p in 1..r {
            t.push(
                0,
                Op::Send {
                    tag: 0,
                    peer: p as u32,
                    bytes: 8.0,
                },
                0,
                0,
            );
            t.push(
                p,
                Op::Recv {
                    tag: 0,
                    peer: 0,
                    bytes: 8.0,
                },
                0,
                0,
            );
        }
    }
    t
}

/// A periodic ring of ranks, each holding a `size x size` slab of 8-byte values: each iteration a rank computes its slab (10 flops a point), posts sends of
/// its edge rows to both neighbours and receives of theirs (`isend` right, `isend` left,
/// `irecv` left, `irecv` right, tag 0), and waits for all four. Every rank runs the same code
/// with its neighbours shifted, so the rank shifts leave the trace unchanged
/// ([`super::search::symmetry`]).
fn ring(spec: &GenerateSpec, rate: f64) -> Trace {
    let r = spec.ranks as usize;
    let n = spec.size as f64;
    let row = 8.0 * n;
    let mut t = Trace::new(r, Origin::Generated);
    for _ in 0..spec.iterations {
        for p in 0..r {
            let right = ((p + 1) % r) as u32;
            let left = ((p + r - 1) % r) as u32;
            t.push(p, Op::Compute(10.0 * n * n / rate), 0, 0);
            if r == 1 {
                continue;
            }
            let ops = [
                Op::Isend {
                    peer: right,
                    tag: 0,
                    bytes: row,
                },
                Op::Isend {
                    peer: left,
                    tag: 0,
                    bytes: row,
                },
                Op::Irecv {
                    peer: left,
                    tag: 0,
                    bytes: row,
                },
                Op::Irecv {
                    peer: right,
                    tag: 0,
                    bytes: row,
                },
                Op::WaitAll,
            ];
            for op in ops {
                t.push(p, op, 0, 0);
            }
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_follow_the_weights_and_sum_to_n() {
        assert_eq!(shares(1000, &[4, 2, 1, 1]), vec![500, 250, 125, 125]);
        assert_eq!(shares(10, &[1, 1, 1]), vec![3, 3, 4]);
        assert_eq!(shares(7, &[4, 2, 1, 1]).iter().sum::<u64>(), 7);
    }
}
