//! Collectives as point-to-point messages: the algorithms SMPI (SimGrid 3.32) runs by default
//! (`smpi/coll-selector: default`), so that a replayed collective costs what SMPI's costs under
//! the same link model.
//!
//! | action | algorithm (SMPI's default selector) | messages for `P` ranks |
//! |---|---|---|
//! | `barrier` | linear (Open MPI's basic linear): every rank sends 0 bytes to rank 0 and waits for its 0-byte reply; rank 0 receives all, then sends all | `2(P-1)` |
//! | `bcast` | binomial tree from the root | `P-1` |
//! | `reduce` | linear: every rank sends its buffer to the root, which receives from all | `P-1` |
//! | `allreduce` | `reduce` to rank 0, then `bcast` from rank 0 | `2(P-1)` |
//! | `alltoall` | Open MPI's decision by `P` and the bytes per peer: linear (all receives posted, then all sends), pairwise exchange (`P` a power of two), or Bruck's `log2 P` rounds | `P(P-1)` or `P log2 P` |
//! | `alltoallv` | linear | `P(P-1)` |
//! | `gather`, `gatherv` | linear to the root | `P-1` |
//! | `allgather`, `allgatherv` | linear: every rank sends to and receives from every other | `P(P-1)` |
//! | `scatter`, `scatterv` | linear from the root | `P-1` |
//! | `reducescatter` | `reduce` of the whole buffer to rank 0, then a linear `scatterv` (SMPI's choice for equal counts; for unequal counts SMPI runs MPICH's algorithm, which we replace by the same two steps) | `2(P-1)` |
//! | `scan`, `exscan` | linear: every rank receives from each lower rank and sends to each higher one | `P(P-1)/2` |
//! | `sendRecv` | a receive and a send posted together, then both waited | 2 |
//!
//! A message's size is the sender's: its own count times its datatype (for `scatter` and
//! `scatterv`, the root's counts). Messages a rank would send to itself (local copies in SMPI)
//! are left out. Computation given with `reduce`, `allreduce`, `reducescatter` and `scan` (the
//! operator's flops) runs after the messages on every rank, as SimGrid's replay runs it.
//!
//! # Complexity
//! `O(P)` operations per rank and call, `O(P log P)` for Bruck's alltoall.

use super::model::{Coll, CollKind};

/// One point-to-point operation of a rank's part of a collective. `req` is `Some(i)` for a
/// non-blocking call, `i` numbering the call's requests from 0; `phase` separates the
/// messages of one call's steps (it becomes part of the tag).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum CollOp {
    Send {
        peer: u32,
        bytes: f64,
        phase: u32,
        req: Option<u32>,
    },
    Recv {
        peer: u32,
        bytes: f64,
        phase: u32,
        req: Option<u32>,
    },
    /// Waits for request `i` of this call.
    Wait(u32),
    /// Computation, seconds on an unloaded node.
    Compute(f64),
}

/// Open MPI's alltoall choice (as SMPI 3.32 copies it) for `p` ranks and `bytes` per peer:
/// 1 linear, 2 pairwise, 3 Bruck.
pub fn alltoall_algorithm(p: usize, bytes: f64) -> u8 {
    // (upper bound of the rank count, then (upper bound of the bytes, algorithm) pairs; the
    // last algorithm holds above the last bound). 4 and 5 of Open MPI's list are linear here
    // as in SMPI.
    let t = bytes;
    let alg = if p == 2 {
        match t {
            t if t < 2.0 => 2,
            t if t < 4.0 => 5,
            t if t < 16.0 => 2,
            t if t < 64.0 => 5,
            t if t < 256.0 => 2,
            t if t < 4096.0 => 5,
            t if t < 32768.0 => 2,
            t if t < 262144.0 => 4,
            t if t < 1048576.0 => 5,
            _ => 2,
        }
    } else if p < 8 {
        match t {
            t if t < 8192.0 => 4,
            t if t < 16384.0 => 1,
            t if t < 65536.0 => 4,
            t if t < 524288.0 => 1,
            t if t < 1048576.0 => 2,
            _ => 1,
        }
    } else if p < 16 {
        if t < 262144.0 {
            4
        } else {
            1
        }
    } else if p < 32 {
        match t {
            t if t < 4.0 => 4,
            t if t < 512.0 => 3,
            t if t < 8192.0 => 4,
            t if t < 32768.0 => 1,
            t if t < 262144.0 => 4,
            t if t < 524288.0 => 1,
            _ => 4,
        }
    } else if p < 64 {
        match t {
            t if t < 512.0 => 3,
            t if t < 524288.0 => 1,
            _ => 4,
        }
    } else if p < 128 {
        match t {
            t if t < 1024.0 => 3,
            t if t < 2048.0 => 1,
            t if t < 4096.0 => 4,
            t if t < 262144.0 => 1,
            _ => 2,
        }
    } else if p < 256 {
        match t {
            t if t < 1024.0 => 3,
            t if t < 2048.0 => 4,
            t if t < 262144.0 => 1,
            _ => 2,
        }
    } else if p < 512 {
        match t {
            t if t < 1024.0 => 3,
            t if t < 8192.0 => 4,
            t if t < 32768.0 => 1,
            _ => 2,
        }
    } else if p < 1024 {
        match t {
            t if t < 512.0 => 3,
            t if t < 8192.0 => 4,
            t if t < 16384.0 => 1,
            t if t < 131072.0 => 4,
            t if t < 262144.0 => 1,
            _ => 2,
        }
    } else {
        match t {
            t if t < 512.0 => 3,
            t if t < 1024.0 => 4,
            t if t < 2048.0 => 1,
            t if t < 16384.0 => 4,
            t if t < 262144.0 => 1,
            _ => 4,
        }
    };
    match alg {
        2 if p.is_power_of_two() => 2,
        // SMPI's pairwise exchange refuses other rank counts; linear stands in.
        2 => 1,
        3 => 3,
        _ => 1,
    }
}

/// Builds a rank's operations.
struct Out<'a> {
    ops: &'a mut Vec<CollOp>,
    reqs: u32,
    open: Vec<u32>,
}

impl Out<'_> {
    /// A send (`send`) or receive with `peer`; non-blocking ones get the next request.
    fn post(&mut self, send: bool, blocking: bool, peer: usize, bytes: f64, phase: u32) {
        let req = (!blocking).then_some(self.reqs);
        let peer = peer as u32;
        self.ops.push(if send {
            CollOp::Send {
                peer,
                bytes,
                phase,
                req,
            }
        } else {
            CollOp::Recv {
                peer,
                bytes,
                phase,
                req,
            }
        });
        if let Some(r) = req {
            self.open.push(r);
            self.reqs += 1;
        }
    }
    fn isend(&mut self, peer: usize, bytes: f64, phase: u32) {
        self.post(true, false, peer, bytes, phase)
    }
    fn irecv(&mut self, peer: usize, bytes: f64, phase: u32) {
        self.post(false, false, peer, bytes, phase)
    }
    fn send(&mut self, peer: usize, bytes: f64, phase: u32) {
        self.post(true, true, peer, bytes, phase)
    }
    fn recv(&mut self, peer: usize, bytes: f64, phase: u32) {
        self.post(false, true, peer, bytes, phase)
    }
    /// Waits for every request posted since the last `wait_all`.
    fn wait_all(&mut self) {
        for &i in &self.open {
            self.ops.push(CollOp::Wait(i));
        }
        self.open.clear();
    }
}

/// Rank `x`'s operations for one collective call, `calls[y]` being rank `y`'s call (all of
/// the same kind and root, checked by the caller), appended to `ops`.
pub fn expand(calls: &[&Coll], x: usize, ops: &mut Vec<CollOp>) {
    let p = calls.len();
    let me = calls[x];
    let root = me.root as usize;
    let mut o = Out {
        ops,
        reqs: 0,
        open: Vec::new(),
    };
    match me.kind {
        CollKind::Barrier => {
            if x > 0 {
                o.send(0, 0.0, 0);
                o.recv(0, 0.0, 1);
            } else {
                for y in 1..p {
                    o.irecv(y, 0.0, 0);
                }
                o.wait_all();
                for y in 1..p {
                    o.isend(y, 0.0, 1);
                }
                o.wait_all();
            }
        }
        CollKind::Bcast => binomial_bcast(&mut o, calls, x, root, 0),
        CollKind::Reduce => linear_reduce(&mut o, calls, x, root, 0, |c| c.send),
        CollKind::Allreduce => {
            linear_reduce(&mut o, calls, x, 0, 0, |c| c.send);
            binomial_bcast(&mut o, calls, x, 0, 1);
        }
        CollKind::Alltoall => match alltoall_algorithm(p, calls[0].send) {
            2 => {
                for i in 1..p {
                    let y = x ^ i;
                    o.irecv(y, calls[y].send, 0);
                    o.isend(y, me.send, 0);
                    o.wait_all();
                }
            }
            3 => {
                let mut pof2 = 1usize;
                let mut round = 0u32;
                while pof2 < p {
                    let dst = (x + pof2) % p;
                    let src = (x + p - pof2) % p;
                    let blocks = (1..p).filter(|b| b & pof2 != 0).count() as f64;
                    o.irecv(src, blocks * calls[src].send, round);
                    o.isend(dst, blocks * me.send, round);
                    o.wait_all();
                    pof2 *= 2;
                    round += 1;
                }
            }
            _ => {
                for k in 1..p {
                    let y = (x + k) % p;
                    o.irecv(y, calls[y].send, 0);
                }
                for k in 1..p {
                    let y = (x + p - k) % p;
                    o.isend(y, me.send, 0);
                }
                o.wait_all();
            }
        },
        CollKind::Alltoallv => {
            for y in (0..p).filter(|&y| y != x) {
                o.irecv(y, count(calls[y], x), 0);
            }
            for y in (0..p).filter(|&y| y != x) {
                o.isend(y, count(me, y), 0);
            }
            o.wait_all();
        }
        CollKind::Gather | CollKind::Gatherv => {
            linear_reduce(&mut o, calls, x, root, 0, |c| c.send)
        }
        CollKind::Allgather | CollKind::Allgatherv => {
            for y in (0..p).filter(|&y| y != x) {
                o.isend(y, me.send, 0);
                o.irecv(y, calls[y].send, 0);
            }
            o.wait_all();
        }
        CollKind::Scatter | CollKind::Scatterv => {
            let size = |y: usize| match me.kind {
                CollKind::Scatter => calls[root].send,
                _ => count(calls[root], y),
            };
            linear_scatter(&mut o, x, p, root, size, 0);
        }
        CollKind::ReduceScatter => {
            linear_reduce(&mut o, calls, x, 0, 0, |c| c.counts.iter().sum());
            linear_scatter(&mut o, x, p, 0, |y| count(calls[0], y), 1);
        }
        CollKind::Scan | CollKind::Exscan => {
            for (y, c) in calls.iter().enumerate().take(x) {
                o.irecv(y, c.send, 0);
            }
            for y in x + 1..p {
                o.isend(y, me.send, 0);
            }
            o.wait_all();
        }
        CollKind::SendRecv => send_recv(me, o.ops),
    }
    if me.comp > 0.0 {
        o.ops.push(CollOp::Compute(me.comp));
    }
}

/// A rank's `sendRecv`: its receive from `c.peer` and its send to `c.root` posted together,
/// then both waited (tag 0, as SimGrid's replay).
pub fn send_recv(c: &Coll, ops: &mut Vec<CollOp>) {
    ops.push(CollOp::Recv {
        peer: c.peer,
        bytes: c.recv,
        phase: 0,
        req: Some(0),
    });
    ops.push(CollOp::Send {
        peer: c.root,
        bytes: c.send,
        phase: 0,
        req: Some(1),
    });
    ops.push(CollOp::Wait(0));
    ops.push(CollOp::Wait(1));
}

/// Entry `y` of a call's counts (0 when absent).
fn count(c: &Coll, y: usize) -> f64 {
    c.counts.get(y).copied().unwrap_or(0.0)
}

/// SMPI's binomial-tree broadcast from `root`: a rank receives once from its parent (the
/// relative rank without its lowest set bit), then sends to its children, largest subtree
/// first; blocking calls.
fn binomial_bcast(o: &mut Out, calls: &[&Coll], x: usize, root: usize, phase: u32) {
    let p = calls.len();
    let rel = (x + p - root) % p;
    let mut mask = 1usize;
    while mask < p {
        if rel & mask != 0 {
            let src = (x + p - mask) % p;
            o.recv(src, calls[src].send, phase);
            break;
        }
        mask <<= 1;
    }
    mask >>= 1;
    while mask > 0 {
        if rel + mask < p {
            let dst = (x + mask) % p;
            o.send(dst, calls[x].send, phase);
        }
        mask >>= 1;
    }
}

/// Linear gather to `root` (SMPI's default reduce and gather): every other rank posts its
/// send and waits; the root posts a receive from every other rank and waits for all.
fn linear_reduce(
    o: &mut Out,
    calls: &[&Coll],
    x: usize,
    root: usize,
    phase: u32,
    size: impl Fn(&Coll) -> f64,
) {
    let p = calls.len();
    if x != root {
        o.isend(root, size(calls[x]), phase);
    } else {
        for y in (0..p).filter(|&y| y != root) {
            o.irecv(y, size(calls[y]), phase);
        }
    }
    o.wait_all();
}

/// Linear scatter from `root`: `size(y)` bytes to each other rank `y`.
fn linear_scatter(
    o: &mut Out,
    x: usize,
    p: usize,
    root: usize,
    size: impl Fn(usize) -> f64,
    phase: u32,
) {
    if x != root {
        o.irecv(root, size(x), phase);
    } else {
        for y in (0..p).filter(|&y| y != root) {
            o.isend(y, size(y), phase);
        }
    }
    o.wait_all();
}

/// A `v` form's numbers (`c.raw`, as written) read for `p` ranks, as SimGrid 3.32's replay
/// reads them; other calls are returned as they are.
///
/// | action | numbers |
/// |---|---|
/// | `gatherv` | `SENDCOUNT RECVCOUNT x P [ROOT [DATATYPE1 [DATATYPE2]]]` |
/// | `allgatherv` | `SENDCOUNT RECVCOUNT x P [DATATYPE1 DATATYPE2] [DISPLACEMENT x P]` |
/// | `scatterv` | `SENDCOUNT x P RECVCOUNT [ROOT [DATATYPE1 [DATATYPE2]]]` |
/// | `reducescatter` | `RECVCOUNT x P FLOPS [DATATYPE]` |
/// | `alltoallv` | `SENDBUFFER SENDCOUNT x P RECVBUFFER RECVCOUNT x P [DATATYPE1 DATATYPE2]` |
///
/// # Errors
/// The form expected when the count of numbers does not fit `p` ranks, or an unknown
/// datatype.
pub fn resolve(c: &Coll, p: usize) -> Result<Coll, String> {
    if c.raw.is_empty() {
        return Ok(c.clone());
    }
    let raw = &c.raw;
    let n = raw.len();
    let name = c.kind.name();
    let bad = |form: &str| {
        Err(format!(
            "{name} with {p} ranks takes {form}; got {n} numbers (is the trace's rank count right?)"
        ))
    };
    let dt = |i: usize| -> Result<f64, String> {
        match raw.get(i) {
            None => Ok(c.unit),
            Some(&v) => super::ti::datatype_bytes(v as i64)
                .filter(|_| v.fract() == 0.0)
                .ok_or_else(|| format!("unknown SMPI datatype id {v} (known: 0 to 12 and 14)")),
        }
    };
    let rank = |i: usize| -> Result<u32, String> {
        match raw.get(i) {
            None => Ok(0),
            Some(&v) if v.fract() == 0.0 && v >= 0.0 && (v as usize) < p => Ok(v as u32),
            Some(&v) => Err(format!(
                "{name}'s root must be a rank from 0 to {}, got {v}",
                p - 1
            )),
        }
    };
    let mut out = c.clone();
    out.raw = Vec::new();
    match c.kind {
        CollKind::Gatherv => {
            if !(p + 1..=p + 4).contains(&n) {
                return bad("SENDCOUNT, P RECVCOUNTs, [ROOT [DATATYPE1 [DATATYPE2]]]");
            }
            out.root = rank(p + 1)?;
            out.send = raw[0] * dt(p + 2)?;
            let d2 = dt(p + 3)?;
            out.counts = raw[1..=p].iter().map(|v| v * d2).collect();
        }
        CollKind::Allgatherv => {
            if n < p + 1 {
                return bad("SENDCOUNT, P RECVCOUNTs, [DATATYPE1 DATATYPE2], [P DISPLACEMENTs]");
            }
            let (d1, d2) = if n > 1 + 2 * p {
                (dt(p + 1)?, dt(p + 2)?)
            } else if n > p + 3 {
                (c.unit, c.unit)
            } else {
                (dt(p + 1)?, dt(p + 2)?)
            };
            out.send = raw[0] * d1;
            out.counts = raw[1..=p].iter().map(|v| v * d2).collect();
        }
        CollKind::Scatterv => {
            if !(p + 1..=p + 4).contains(&n) {
                return bad("P SENDCOUNTs, RECVCOUNT, [ROOT [DATATYPE1 [DATATYPE2]]]");
            }
            out.root = rank(p + 1)?;
            let d1 = dt(p + 2)?;
            out.counts = raw[..p].iter().map(|v| v * d1).collect();
            out.recv = raw[p] * dt(p + 3)?;
        }
        CollKind::ReduceScatter => {
            if !(p + 1..=p + 2).contains(&n) {
                return bad("P RECVCOUNTs, FLOPS, [DATATYPE]");
            }
            let d = dt(p + 1)?;
            out.counts = raw[..p].iter().map(|v| v * d).collect();
            out.comp = raw[p] / c.rate;
        }
        CollKind::Alltoallv => {
            if n != 2 * p + 2 && n != 2 * p + 4 {
                return bad(
                    "SENDBUFFER, P SENDCOUNTs, RECVBUFFER, P RECVCOUNTs, [DATATYPE1 DATATYPE2]",
                );
            }
            let (d1, d2) = (dt(2 * p + 2)?, dt(2 * p + 3)?);
            out.counts = raw[1..=p]
                .iter()
                .map(|v| v * d1)
                .chain(raw[p + 2..2 * p + 2].iter().map(|v| v * d2))
                .collect();
        }
        _ => return bad("no list of counts"),
    }
    if out.counts.iter().any(|&b| b > super::limits::MAX_VALUE) {
        return Err(format!("{name}: a message is too large"));
    }
    Ok(out)
}
