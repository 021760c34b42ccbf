//! Replay of a trace under a task-to-node assignment, with blocking semantics.
//!
//! # The rule
//! Each rank runs its events in program order from time 0. A computation of `d` seconds (on
//! an unloaded node) takes `d x ratio(node)`. A message of `N` bytes from rank `a` (on node
//! `u`) to rank `b` (on node `v`) costs `c = max(0, a0(u,v) + a1(u,v) N)`. If `a` calls
//! `MPI_Send` at `s` and `b` calls the matching `MPI_Recv` at `r`, the transfer starts when
//! both calls are there, at `max(r, s)`, and ends at **`e = max(r, s) + c`** (SimGrid's SMPI
//! does the same: its mailbox matches the two calls, then the network moves the data). Then,
//! by [`Protocol`]:
//! - `Rendezvous` (the default; a blocking `MPI_Send` of a large message, or SMPI with
//!   `smpi/send-is-detached-thresh:0`): both calls complete at `e`;
//! - `Eager` (a small message the MPI library buffers, SMPI's default below 64 KiB): the send
//!   completes at `s` (the sender goes on at once) and the receive at `e`.
//!
//! So a late receiver delays its rendezvous sender, a late sender delays its receiver, and
//! every rank that later waits on either is delayed in turn (transitively).
//! Sends and receives match first-in first-out per ordered pair of ranks. The predicted run
//! time is the latest end of any rank. On the SMPI fixture (`tests/trace_smpi.rs`) this rule
//! ranks the 24 assignments as SMPI does; the rule `e = max(r, s + c)` (the data leaves at
//! `s` even when nobody receives) ranked them almost at random.
//!
//! This replaces the source's step (4): it shifts the receiver's later events by the
//! difference between the link model's transfer time and the recorded one; here the recorded
//! communication time is dropped and every time is rebuilt from computation and the model, so
//! the delay propagates to every rank, not only the receiver.
//!
//! # Monotonicity (used by the branch and bound's lower bound)
//! Under both protocols every end time is built from durations with `+` and `max` only, so the
//! run time is non-decreasing in every computation duration, every ratio and every message
//! cost.
//!
//! # Compilation
//! [`compile`] matches messages once, checks that the trace can run at all (a cycle of ranks
//! each blocked on the next is a deadlock whatever the assignment under rendezvous sends; the
//! check is made for rendezvous under both protocols, so an eager trace must also be safe
//! without buffering), and flattens the trace into one array of messages in a
//! topological order, each carrying the computation its two ranks did since their previous
//! message. A replay is then one pass over flat arrays: [`Compiled::replay`].
//!
//! # Complexity
//! Compile `O(E + R^2)` for `E` events and `R` ranks; one replay `O(M + R)` for `M` messages.

// Rank and node indices are ids here (peers, pairs, classes), not only positions in one array.
#![allow(clippy::needless_range_loop)]

use super::collectives::CollOp;
use super::model::{Coll, CollKind, Event, Op, Trace};
use std::collections::BTreeMap;

/// No request: the side of a message is a blocking call.
pub const NONE: u32 = u32::MAX;

/// One message of the flattened trace.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Item {
    /// Computation (seconds, unloaded) of the sender since its previous message (0 for a
    /// non-blocking send: its computation went to its [`Ins::Post`]).
    pub cs: f64,
    /// Computation of the receiver since its previous message (0 for a non-blocking receive).
    pub cd: f64,
    pub bytes: f64,
    pub src: u16,
    pub dst: u16,
    /// `src * R + dst`.
    pub pair: u32,
    /// The send's request slot ([`NONE`] for a blocking send): the post time is read from it
    /// and the completion written to it.
    pub sq: u32,
    /// The receive's request slot ([`NONE`] for a blocking receive).
    pub rq: u32,
    /// Whether the send completes when posted (module doc, "The rule").
    pub eager: bool,
}

/// One instruction of a compiled trace, in a topological order. Rank clocks `t` and request
/// slots `q` are the replay's state; every instruction combines them with `+` and `max`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Ins {
    /// A message ([`Item`]): both sides posted.
    Msg(Item),
    /// A non-blocking call posted by rank `x` after `c` seconds (unloaded) of computation:
    /// `t[x] += c ratio(x); q[slot] = t[x]`.
    Post { x: u16, c: f64, slot: u32 },
    /// Rank `x` waits for request `slot` after `c` seconds of computation:
    /// `t[x] = max(t[x] + c ratio(x), q[slot])`.
    Wait { x: u16, c: f64, slot: u32 },
    /// Rank `x` computes `c` seconds (unloaded), then sleeps `d` seconds whatever its node:
    /// `t[x] = t[x] + c ratio(x) + d`.
    Delay { x: u16, c: f64, d: f64 },
}

/// A message of a trace with blocking calls only, as the replay's fast path reads it: 32 bytes,
/// whether it is eager in the top bit of `pair`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Flat {
    pub cs: f64,
    pub cd: f64,
    pub bytes: f64,
    pub src: u16,
    pub dst: u16,
    /// `src * R + dst`, plus [`EAGER_BIT`] for an eager message.
    pub pair: u32,
}

/// The bit of [`Flat::pair`] that marks an eager message.
pub const EAGER_BIT: u32 = 1 << 31;

impl Flat {
    /// The message as an [`Item`] of two blocking calls.
    #[inline]
    pub fn item(&self) -> Item {
        Item {
            cs: self.cs,
            cd: self.cd,
            bytes: self.bytes,
            src: self.src,
            dst: self.dst,
            pair: self.pair & !EAGER_BIT,
            sq: NONE,
            rq: NONE,
            eager: self.pair & EAGER_BIT != 0,
        }
    }
}

/// A compiled trace: instructions in a topological order and each rank's final computation.
///
/// The instructions are held once: as `fast` (32 bytes a message) when every one is a message
/// of two blocking calls, else as `prog`; [`Compiled::ins`] reads either.
#[derive(Debug, Clone, PartialEq)]
pub struct Compiled {
    pub ranks: usize,
    /// The instructions, empty when `fast` holds them.
    prog: Vec<Ins>,
    /// Computation after each rank's last instruction.
    pub tail: Vec<f64>,
    /// Ordered rank pairs that exchange at least one message (`src * R + dst`), ascending.
    pub pairs: Vec<u32>,
    /// Events of the trace (computes merged; a collective call counts once).
    pub events: u64,
    /// Peak bytes an event of the trace costs ([`Trace::bytes_per_event`]).
    pub bytes_per_event: f64,
    /// Messages (instructions [`Ins::Msg`]).
    pub messages: u64,
    /// Request slots (one per non-blocking call, collectives' included).
    pub slots: u32,
    /// Per slot: the rank it belongs to, the peer and the bytes (for the timeline).
    pub slot_info: Vec<(u32, u32, f64)>,
    /// How a send completes (module doc); set with [`Compiled::set_protocol`], which marks
    /// every message.
    protocol: Protocol,
    /// The instructions as [`Flat`] messages, when every instruction is a message of two
    /// blocking calls: the replay's fast path (same operations in the same order, so the same
    /// bits).
    fast: Option<Vec<Flat>>,
    /// Per instruction, what its message weighs on a link's `a0` and `a1` under SMPI's
    /// size-dependent factors ([`super::factors::weights`]): a message costs
    /// `w[0] a0 + a1 w[1]`. Absent (no factors), `(1, bytes)`, which costs `a0 + a1 bytes` bit
    /// for bit. Set with [`Compiled::set_factors`].
    weights: Option<Vec<[f64; 2]>>,
}

crate::params::choices! {
    /// When a blocking send completes (module doc, "The rule"); the scenario's default is in
    /// the field table.
    pub enum Protocol {
        /// Both calls complete when the transfer ends, `max(r, s) + c`.
        Rendezvous = ("rendezvous", "Rendezvous (send waits for the transfer)"),
        /// The send completes at once; the receive at `max(r, s) + c`.
        Eager = ("eager", "Eager (send returns at once)"),
        /// SMPI's rule: eager below the scenario's `eagerThreshold` bytes, rendezvous from it.
        Size = ("size", "By size (eager below the threshold, as SMPI)"),
    }
}

/// `(start of the transfer, end of the receive, end of the send)` of one message: the rule of
/// the module doc, with `+` and `max` only.
#[inline(always)]
fn message(s: f64, r: f64, c: f64, eager: bool) -> (f64, f64, f64) {
    let start = if r > s { r } else { s };
    let e = if c > 0.0 { start + c } else { start };
    (start, e, if eager { s } else { e })
}

/// Per-rank parameters of one replay: the compute ratio of each rank and the link of each
/// ordered rank pair (`a0`, `a1` indexed by `src * R + dst`).
#[derive(Debug, Clone, PartialEq)]
pub struct Tables {
    pub ratio: Vec<f64>,
    pub a0: Vec<f64>,
    pub a1: Vec<f64>,
}

impl Tables {
    pub fn new(ranks: usize) -> Self {
        Tables {
            ratio: vec![1.0; ranks],
            a0: vec![0.0; ranks * ranks],
            a1: vec![0.0; ranks * ranks],
        }
    }
}

/// The platform: `n` nodes, each with a compute ratio and a core count, and a link per ordered
/// pair (`a0[u * n + v]`, `a1[u * n + v]`). The diagonal `u * n + u` is node `u`'s intra-node
/// link, used by messages between two ranks on the same node (only when `cores[u] > 1`: a
/// node of one core never holds two ranks).
#[derive(Debug, Clone, PartialEq)]
pub struct Platform {
    pub n: usize,
    pub ratio: Vec<f64>,
    pub a0: Vec<f64>,
    pub a1: Vec<f64>,
    /// Ranks each node may hold (at least 1).
    pub cores: Vec<u32>,
}

impl Platform {
    /// The cost of `bytes` bytes from node `u` to node `v`.
    pub fn cost(&self, u: usize, v: usize, bytes: f64) -> f64 {
        let c = self.a0[u * self.n + v] + self.a1[u * self.n + v] * bytes;
        if c > 0.0 {
            c
        } else {
            0.0
        }
    }
}

/// One operation of a rank after lowering: collectives expanded ([`super::collectives`]),
/// requests numbered (one slot each, over the whole trace) and waits resolved to their slot.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Low {
    Compute(f64),
    Sleep(f64),
    /// A send (`slot` [`NONE`] when blocking).
    Send {
        peer: u32,
        tag: i64,
        bytes: f64,
        slot: u32,
    },
    Recv {
        peer: u32,
        tag: i64,
        bytes: f64,
        slot: u32,
    },
    Wait(u32),
}

/// A lowered operation and the line it came from.
#[derive(Debug, Clone, Copy, PartialEq)]
struct LowEv {
    op: Low,
    file: u32,
    line: u32,
}

/// The tag of phase `phase` of a rank's `k`-th collective call: below every tag a trace can
/// give (tags are 32-bit), so collectives never match a program's own messages.
fn system_tag(k: u64, phase: u32) -> i64 {
    i32::MIN as i64 - 1 - (k as i64) * 64 - phase as i64
}

/// Most messages a compiled trace may have: as many as events (a blocking message takes two).
pub const MAX_MESSAGES: u64 = super::limits::MAX_EVENTS;
/// Most messages the collectives of a trace may expand into: each is held as lowered operations
/// of both its ranks before it is matched.
pub const MAX_EXPANDED: u64 = 4_000_000;

/// The expansion of a trace: per rank its lowered operations; per slot its rank, peer and
/// bytes.
type Lowered<'a> = (Vec<LowRank<'a>>, Vec<(u32, u32, f64)>);

/// One rank's lowered operations. A rank of computes, sleeps and blocking sends and receives
/// only (every rank of most recorded traces) is read in place from the trace, each event
/// lowered when it is read, so compiling holds no second copy of its events; any other rank
/// is expanded into a vector.
enum LowRank<'a> {
    /// The rank's events and the rate its computes are divided by.
    Plain(&'a [Event], f64),
    Owned(Vec<LowEv>),
}

impl LowRank<'_> {
    fn len(&self) -> usize {
        match self {
            LowRank::Plain(evs, _) => evs.len(),
            LowRank::Owned(v) => v.len(),
        }
    }

    /// Operation `k` (`k < len()`).
    #[inline]
    fn at(&self, k: usize) -> LowEv {
        match self {
            LowRank::Owned(v) => v[k],
            LowRank::Plain(evs, rate) => {
                let e = evs[k];
                let op = match e.op {
                    Op::Compute(d) => Low::Compute(d / rate),
                    Op::Sleep(d) => Low::Sleep(d),
                    Op::Send { peer, tag, bytes } => Low::Send {
                        peer,
                        tag: tag as i64,
                        bytes,
                        slot: NONE,
                    },
                    Op::Recv { peer, tag, bytes } => Low::Recv {
                        peer,
                        tag: tag as i64,
                        bytes,
                        slot: NONE,
                    },
                    // never in a plain rank ([`is_plain`]); a no-op if it were
                    _ => Low::Compute(0.0),
                };
                LowEv {
                    op,
                    file: e.file,
                    line: e.line,
                }
            }
        }
    }

    /// The operation `k`, if any.
    fn get(&self, k: usize) -> Option<LowEv> {
        (k < self.len()).then(|| self.at(k))
    }
}

/// Whether a rank's events lower one to one ([`LowRank::Plain`]).
fn is_plain(evs: &[Event]) -> bool {
    evs.iter().all(|e| {
        matches!(
            e.op,
            Op::Compute(_) | Op::Sleep(_) | Op::Send { .. } | Op::Recv { .. }
        )
    })
}

/// Lowers a trace (type [`Low`]): checks that every rank calls the same collectives in the same
/// order with the same root, expands them, and resolves waits. A wait naming no outstanding
/// request is a no-op; requests still outstanding when a rank ends are waited for there
/// (SimGrid's replay does both). Computes are divided by `rate` (flops into seconds).
fn lower(trace: &Trace, rate: f64) -> Result<Lowered<'_>, (u32, u32, String)> {
    let r = trace.ranks.len();
    // The `v` forms read for `r` ranks; an error names a line that calls it.
    let mut line_of = vec![(0u32, 0u32); trace.colls.len()];
    for evs in &trace.ranks {
        for e in evs {
            if let Op::Coll(i) = e.op {
                line_of[i as usize] = (e.file, e.line);
            }
        }
    }
    let mut colls: Vec<Coll> = Vec::with_capacity(trace.colls.len());
    for (i, c) in trace.colls.iter().enumerate() {
        let (file, line) = line_of[i];
        // flops into seconds as [`Trace::divide_compute`] does, on this copy
        let mut c = c.clone();
        c.comp /= rate;
        c.rate *= rate;
        colls.push(super::collectives::resolve(&c, r).map_err(|m| (file, line, m))?);
    }
    // Each rank's collective calls (sendRecv excepted: it pairs two ranks only).
    let seq: Vec<Vec<(u32, usize)>> = trace
        .ranks
        .iter()
        .map(|evs| {
            evs.iter()
                .enumerate()
                .filter_map(|(k, e)| match e.op {
                    Op::Coll(i) if colls[i as usize].kind != CollKind::SendRecv => Some((i, k)),
                    _ => None,
                })
                .collect()
        })
        .collect();
    let most = seq.iter().map(|s| s.len()).max().unwrap_or(0);
    for k in 0..most {
        let (x0, &(i0, k0)) = match seq.iter().enumerate().find(|(_, s)| s.len() > k) {
            Some((x, s)) => (x, &s[k]),
            None => break,
        };
        let c0 = &colls[i0 as usize];
        let ev0 = trace.ranks[x0][k0];
        for (y, s) in seq.iter().enumerate() {
            let Some(&(i, ky)) = s.get(k) else {
                return Err((
                    ev0.file,
                    ev0.line,
                    format!(
                        "rank {x0} calls {} (collective call {} of the trace), but rank {y} makes only {} collective call(s); every rank must call the same collectives in the same order",
                        c0.kind.name(),
                        k + 1,
                        s.len()
                    ),
                ));
            };
            let c = &colls[i as usize];
            if c.kind != c0.kind || c.root != c0.root {
                let ev = trace.ranks[y][ky];
                return Err((
                    ev.file,
                    ev.line,
                    format!(
                        "rank {y} calls {} with root {} as collective call {}, where rank {x0} calls {} with root {}; every rank must call the same collectives in the same order",
                        c.kind.name(),
                        c.root,
                        k + 1,
                        c0.kind.name(),
                        c0.root
                    ),
                ));
            }
            if c.root as usize >= r || (c.kind == CollKind::SendRecv && c.peer as usize >= r) {
                let ev = trace.ranks[y][ky];
                return Err((
                    ev.file,
                    ev.line,
                    format!(
                        "{} names rank {}, but the trace has only {r} ranks (0 to {})",
                        c.kind.name(),
                        c.root,
                        r - 1
                    ),
                ));
            }
        }
    }
    // Messages the expansion will make, counted before it is made.
    let mut expected = 0u64;
    for k in 0..most {
        let c = &colls[seq[0][k].0 as usize];
        let p = r as u64;
        expected += match c.kind {
            CollKind::Alltoall
            | CollKind::Alltoallv
            | CollKind::Allgather
            | CollKind::Allgatherv => p * p.saturating_sub(1),
            CollKind::Scan | CollKind::Exscan => p * p.saturating_sub(1) / 2,
            _ => 2 * p,
        };
    }
    if expected > MAX_EXPANDED {
        return Err((
            0,
            0,
            format!(
                "the trace's collectives expand into {expected} messages; the limit is {MAX_EXPANDED}"
            ),
        ));
    }
    let mut slots: Vec<(u32, u32, f64)> = Vec::new();
    let mut out = Vec::with_capacity(r);
    let mut ops = Vec::new();
    for (x, evs) in trace.ranks.iter().enumerate() {
        if is_plain(evs) {
            out.push(LowRank::Plain(evs, rate));
            continue;
        }
        let mut low: Vec<LowEv> = Vec::with_capacity(evs.len());
        // outstanding requests: (src, dst, tag) and slot, in posting order
        let mut open: Vec<((u32, u32, i64), u32)> = Vec::new();
        let mut ncoll = 0u64;
        for ev in evs {
            let (file, line) = (ev.file, ev.line);
            let mut push = |op: Low| low.push(LowEv { op, file, line });
            match ev.op {
                Op::Compute(d) => push(Low::Compute(d / rate)),
                Op::Sleep(d) => push(Low::Sleep(d)),
                Op::Send { peer, tag, bytes } => push(Low::Send {
                    peer,
                    tag: tag as i64,
                    bytes,
                    slot: NONE,
                }),
                Op::Recv { peer, tag, bytes } => push(Low::Recv {
                    peer,
                    tag: tag as i64,
                    bytes,
                    slot: NONE,
                }),
                Op::Isend { peer, tag, bytes } | Op::Irecv { peer, tag, bytes } => {
                    let slot = slots.len() as u32;
                    slots.push((x as u32, peer, bytes));
                    if let Op::Isend { .. } = ev.op {
                        open.push(((x as u32, peer, tag as i64), slot));
                        push(Low::Send {
                            peer,
                            tag: tag as i64,
                            bytes,
                            slot,
                        });
                    } else {
                        open.push(((peer, x as u32, tag as i64), slot));
                        push(Low::Recv {
                            peer,
                            tag: tag as i64,
                            bytes,
                            slot,
                        });
                    }
                }
                Op::Wait { src, dst, tag } => {
                    let key = (src, dst, tag as i64);
                    if let Some(i) = open.iter().position(|(k, _)| *k == key) {
                        let (_, slot) = open.remove(i);
                        push(Low::Wait(slot));
                    }
                }
                Op::WaitAll => {
                    for (_, slot) in open.drain(..) {
                        push(Low::Wait(slot));
                    }
                }
                Op::Coll(i) => {
                    let c = &colls[i as usize];
                    ops.clear();
                    let tag_of: Box<dyn Fn(u32) -> i64> = if c.kind == CollKind::SendRecv {
                        crate::trace::collectives::send_recv(c, &mut ops);
                        Box::new(|_| 0)
                    } else {
                        let k = ncoll as usize;
                        let calls: Vec<&Coll> =
                            seq.iter().map(|s| &colls[s[k].0 as usize]).collect();
                        crate::trace::collectives::expand(&calls, x, &mut ops);
                        let kk = ncoll;
                        ncoll += 1;
                        Box::new(move |phase| system_tag(kk, phase))
                    };
                    let base = slots.len() as u32;
                    for op in &ops {
                        match *op {
                            CollOp::Compute(d) => push(Low::Compute(d)),
                            CollOp::Wait(j) => push(Low::Wait(base + j)),
                            CollOp::Send {
                                peer,
                                bytes,
                                phase,
                                req,
                            }
                            | CollOp::Recv {
                                peer,
                                bytes,
                                phase,
                                req,
                            } => {
                                let slot = req.map_or(NONE, |j| base + j);
                                if slot != NONE {
                                    slots.push((x as u32, peer, bytes));
                                }
                                let tag = tag_of(phase);
                                push(if let CollOp::Send { .. } = op {
                                    Low::Send {
                                        peer,
                                        tag,
                                        bytes,
                                        slot,
                                    }
                                } else {
                                    Low::Recv {
                                        peer,
                                        tag,
                                        bytes,
                                        slot,
                                    }
                                })
                            }
                        }
                    }
                }
            }
        }
        // requests never waited for are waited for at the end
        let (file, line) = evs.last().map_or((0, 0), |e| (e.file, e.line));
        for (_, slot) in open.drain(..) {
            low.push(LowEv {
                op: Low::Wait(slot),
                file,
                line,
            });
        }
        out.push(LowRank::Owned(low));
    }
    Ok((out, slots))
}

/// Matches and flattens a trace.
///
/// # Errors
/// A message naming the line: a send never received, a receive never sent, a receive smaller
/// than its message, a peer rank the trace does not have, collectives called differently by
/// different ranks, or a deadlock (with the line where each of up to three blocked ranks
/// waits). Returned as `(file, line, message)`.
pub fn compile(trace: &Trace) -> Result<Compiled, (u32, u32, String)> {
    compile_at(trace, 1.0)
}

/// [`compile`] of a trace whose computes are flop counts, divided by `rate` flops per second
/// as they are read (the bits [`Trace::divide_compute`] gives, without copying the trace).
///
/// # Memory
/// Besides the compiled trace, a rank of blocking calls only costs no copy of its events
/// ([`LowRank::Plain`]): per event 4 bytes (its message id), per message 16 bytes while
/// matching and 4 bytes per send queued.
///
/// # Errors
/// As [`compile`].
pub fn compile_at(trace: &Trace, rate: f64) -> Result<Compiled, (u32, u32, String)> {
    let r = trace.ranks.len();
    for (a, evs) in trace.ranks.iter().enumerate() {
        for ev in evs {
            let peers = match ev.op {
                Op::Send { peer, .. }
                | Op::Recv { peer, .. }
                | Op::Isend { peer, .. }
                | Op::Irecv { peer, .. } => [peer, peer],
                Op::Coll(i) if trace.colls[i as usize].kind == CollKind::SendRecv => {
                    let c = &trace.colls[i as usize];
                    [c.root, c.peer]
                }
                _ => continue,
            };
            for peer in peers {
                if peer as usize >= r {
                    return Err((
                        ev.file,
                        ev.line,
                        format!("rank {a} names rank {peer}, but the trace has only {r} ranks (0 to {})", r - 1),
                    ));
                }
            }
        }
    }
    let (low, slot_info) = lower(trace, rate)?;
    // Sends per (src, dst, tag): their positions in the sender's operations, in order.
    let mut sends: BTreeMap<(u32, u32, i64), Vec<u32>> = BTreeMap::new();
    for (a, evs) in low.iter().enumerate() {
        for k in 0..evs.len() {
            if let Low::Send { peer, tag, .. } = evs.at(k).op {
                sends
                    .entry((a as u32, peer, tag))
                    .or_default()
                    .push(k as u32);
            }
        }
    }
    // msg id per comm event: msg_of[rank][k].
    let mut msg_of: Vec<Vec<u32>> = low.iter().map(|e| vec![u32::MAX; e.len()]).collect();
    // (src, dst, send event, receive event); the bytes are the send's
    let mut msgs: Vec<(u32, u32, u32, u32)> = Vec::new();
    let mut used: BTreeMap<(u32, u32, i64), usize> = BTreeMap::new();
    for (b, evs) in low.iter().enumerate() {
        for k in 0..evs.len() {
            let ev = evs.at(k);
            if let Low::Recv {
                peer, tag, bytes, ..
            } = ev.op
            {
                let a = peer as usize;
                let key = (peer, b as u32, tag);
                let empty = Vec::new();
                let q = sends.get(&key).unwrap_or(&empty);
                let i = *used.get(&key).unwrap_or(&0);
                let tagged = if (0..=i32::MAX as i64).contains(&tag) && tag != 0 {
                    format!(" with tag {tag}")
                } else {
                    String::new()
                };
                let Some(&ks) = q.get(i) else {
                    // With one text per rank, the sender's text may be the one cut short: name it.
                    let hint = match (trace.origin, trace.ranks[a].last()) {
                        (super::model::Origin::Files, Some(last)) => format!(
                            "; is rank {a}'s text, $.{}, cut short?",
                            trace.path_of(last.file)
                        ),
                        _ => String::new(),
                    };
                    return Err((
                        ev.file,
                        ev.line,
                        format!(
                            "rank {b} receives from rank {a} a message{tagged} that is never sent (rank {a} sends {} such message(s) to rank {b}; this is receive {}){hint}",
                            q.len(),
                            i + 1
                        ),
                    ));
                };
                used.insert(key, i + 1);
                let ks = ks as usize;
                let sev = low[a].at(ks);
                let Low::Send { bytes: sb, .. } = sev.op else {
                    unreachable!("queued events are sends")
                };
                if bytes < sb {
                    return Err((
                        ev.file,
                        ev.line,
                        format!(
                            "rank {b} receives at most {} bytes from rank {a}{tagged}, but the matching send{} has {} bytes",
                            crate::error::compact_number(bytes),
                            match (sev.line, trace.origin) {
                                (0, _) => String::new(),
                                // The send is in another rank's text: name that text.
                                (l, super::model::Origin::Files) => format!(" ($.{}, line {l})", trace.path_of(sev.file)),
                                (l, _) => format!(" (line {l})"),
                            },
                            crate::error::compact_number(sb)
                        ),
                    ));
                }
                let id = msgs.len() as u32;
                msgs.push((a as u32, b as u32, ks as u32, k as u32));
                msg_of[b][k] = id;
                msg_of[a][ks] = id;
            }
        }
    }
    for (key, q) in &sends {
        let n = *used.get(key).unwrap_or(&0);
        if let Some(&ks) = q.get(n) {
            let a = key.0 as usize;
            let ev = low[a].at(ks as usize);
            let tagged = if (1..=i32::MAX as i64).contains(&key.2) {
                format!(" with tag {}", key.2)
            } else {
                String::new()
            };
            return Err((
                ev.file,
                ev.line,
                format!(
                    "rank {a} sends to rank {} a message{tagged} that is never received ({} sent, {} received)",
                    key.1,
                    q.len(),
                    n
                ),
            ));
        }
    }
    if msgs.len() as u64 > MAX_MESSAGES {
        return Err((
            0,
            0,
            format!("{} messages; the limit is {MAX_MESSAGES}", msgs.len()),
        ));
    }
    // Topological order by running the calls without times: a blocking call waits until its
    // message is matched, a wait until its request's message is.
    let nslots = slot_info.len();
    let mut pos = vec![0usize; r];
    let mut pending = vec![0.0f64; r];
    let mut blocked = vec![false; r];
    let mut arrived = vec![0u8; msgs.len()];
    let mut done = vec![false; nslots];
    let mut waiter = vec![NONE; nslots];
    // A trace of blocking messages and computes only is written straight into the replay's
    // 32-byte form ([`Flat`]), never as instructions.
    let direct = nslots == 0
        && low.iter().all(|l| matches!(l, LowRank::Plain(..)))
        && trace
            .ranks
            .iter()
            .all(|evs| evs.iter().all(|e| !matches!(e.op, Op::Sleep(_))));
    let mut prog: Vec<Ins> = Vec::with_capacity(if direct { 0 } else { msgs.len() + nslots * 2 });
    let mut flats: Vec<Flat> = Vec::with_capacity(if direct { msgs.len() } else { 0 });
    let mut stack: Vec<usize> = (0..r).rev().collect();
    let slot_of = |x: usize, k: usize| match low[x].at(k).op {
        Low::Send { slot, .. } | Low::Recv { slot, .. } => slot,
        _ => NONE,
    };
    while let Some(x) = stack.pop() {
        while !blocked[x] && pos[x] < low[x].len() {
            match low[x].at(pos[x]).op {
                Low::Compute(d) => {
                    pending[x] += d;
                    pos[x] += 1;
                }
                Low::Sleep(d) => {
                    prog.push(Ins::Delay {
                        x: x as u16,
                        c: std::mem::take(&mut pending[x]),
                        d,
                    });
                    pos[x] += 1;
                }
                Low::Wait(slot) => {
                    if done[slot as usize] {
                        prog.push(Ins::Wait {
                            x: x as u16,
                            c: std::mem::take(&mut pending[x]),
                            slot,
                        });
                        pos[x] += 1;
                    } else {
                        waiter[slot as usize] = x as u32;
                        blocked[x] = true;
                    }
                }
                Low::Send { slot, .. } | Low::Recv { slot, .. } => {
                    let m = msg_of[x][pos[x]] as usize;
                    arrived[m] += 1;
                    if slot != NONE {
                        prog.push(Ins::Post {
                            x: x as u16,
                            c: std::mem::take(&mut pending[x]),
                            slot,
                        });
                        pos[x] += 1;
                    } else {
                        blocked[x] = true;
                    }
                    if arrived[m] == 2 {
                        let (a, b, ks, kr) = msgs[m];
                        let (a, b, ks, kr) = (a as usize, b as usize, ks as usize, kr as usize);
                        let bytes = match low[a].at(ks).op {
                            Low::Send { bytes, .. } => bytes,
                            _ => 0.0,
                        };
                        let (sq, rq) = (slot_of(a, ks), slot_of(b, kr));
                        let cs = if sq == NONE {
                            std::mem::take(&mut pending[a])
                        } else {
                            0.0
                        };
                        let cd = if rq == NONE {
                            std::mem::take(&mut pending[b])
                        } else {
                            0.0
                        };
                        if direct {
                            flats.push(Flat {
                                cs,
                                cd,
                                bytes,
                                src: a as u16,
                                dst: b as u16,
                                pair: (a * r + b) as u32,
                            });
                        } else {
                            prog.push(Ins::Msg(Item {
                                cs,
                                cd,
                                bytes,
                                src: a as u16,
                                dst: b as u16,
                                pair: (a * r + b) as u32,
                                sq,
                                rq,
                                eager: false,
                            }));
                        }
                        for (y, q) in [(a, sq), (b, rq)] {
                            if q == NONE {
                                pos[y] += 1;
                                blocked[y] = false;
                                if y != x {
                                    stack.push(y);
                                }
                            } else {
                                done[q as usize] = true;
                                let w = waiter[q as usize];
                                if w != NONE {
                                    let w = w as usize;
                                    waiter[q as usize] = NONE;
                                    prog.push(Ins::Wait {
                                        x: w as u16,
                                        c: std::mem::take(&mut pending[w]),
                                        slot: q,
                                    });
                                    pos[w] += 1;
                                    blocked[w] = false;
                                    if w != x {
                                        stack.push(w);
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    if (0..r).any(|x| pos[x] < low[x].len()) {
        let mut parts = Vec::new();
        for x in 0..r {
            if pos[x] < low[x].len() && parts.len() < 3 {
                let ev = low[x].at(pos[x]);
                let what = match ev.op {
                    Low::Send { peer, .. } => format!("rank {x} waits in a send to rank {peer}"),
                    Low::Recv { peer, .. } => {
                        format!("rank {x} waits in a receive from rank {peer}")
                    }
                    Low::Wait(q) => {
                        let (_, peer, _) = slot_info[q as usize];
                        format!("rank {x} waits for a request with rank {peer}")
                    }
                    _ => format!("rank {x} waits"),
                };
                let at = if ev.line > 0 {
                    if trace.ranks.len() > 1 && ev.file > 0 {
                        format!(" (text {}, line {})", ev.file, ev.line)
                    } else {
                        format!(" (line {})", ev.line)
                    }
                } else {
                    String::new()
                };
                parts.push(format!("{what}{at}"));
            }
        }
        let first = (0..r).find(|&x| pos[x] < low[x].len()).unwrap_or(0);
        let ev = low[first].get(pos[first]);
        return Err((
            ev.map_or(0, |e| e.file),
            ev.map_or(0, |e| e.line),
            format!(
                "deadlock under blocking semantics (a send completes only when its receive has the data): {}; order the exchanges so that one side receives first",
                parts.join(", ")
            ),
        ));
    }
    // the pairs that exchange a message, ascending (marked, not collected per message)
    let mut used_pair = vec![false; r * r];
    for i in &prog {
        if let Ins::Msg(it) = i {
            used_pair[it.pair as usize] = true;
        }
    }
    for f in &flats {
        used_pair[f.pair as usize] = true;
    }
    let pairs: Vec<u32> = (0..r * r)
        .filter(|&k| used_pair[k])
        .map(|k| k as u32)
        .collect();
    Ok(Compiled {
        protocol: Protocol::Rendezvous,
        ranks: r,
        messages: msgs.len() as u64,
        prog,
        tail: pending,
        pairs,
        events: trace.events(),
        bytes_per_event: trace.bytes_per_event(),
        slots: nslots as u32,
        slot_info,
        fast: direct.then_some(flats),
        weights: None,
    })
    .map(|mut c| {
        c.set_protocol(Protocol::Rendezvous, 0.0);
        c
    })
}

impl Compiled {
    /// Replay steps of one replay: instructions plus ranks.
    pub fn steps(&self) -> u64 {
        self.len_ins() as u64 + self.ranks as u64
    }

    /// Instructions of the compiled trace.
    pub fn len_ins(&self) -> usize {
        match &self.fast {
            Some(f) => f.len(),
            None => self.prog.len(),
        }
    }

    /// Instruction `i` (`i <` [`Compiled::len_ins`]).
    #[inline]
    pub fn ins(&self, i: usize) -> Ins {
        match &self.fast {
            Some(f) => Ins::Msg(f[i].item()),
            None => self.prog[i],
        }
    }

    /// The instructions, in the compiled order.
    pub fn instructions(&self) -> impl Iterator<Item = Ins> + '_ {
        (0..self.len_ins()).map(|i| self.ins(i))
    }

    /// What the message of instruction `i`, of `bytes` bytes, weighs on a link's `a0` and `a1`
    /// (field `weights`): its cost is `w[0] a0 + a1 w[1]`.
    #[inline]
    pub fn weight(&self, i: usize, bytes: f64) -> [f64; 2] {
        match &self.weights {
            Some(w) => w[i],
            None => [1.0, bytes],
        }
    }

    /// The messages with their weights ([`Compiled::weight`]), in the compiled order.
    pub fn weighted_items(&self) -> impl Iterator<Item = (Item, [f64; 2])> + '_ {
        self.instructions()
            .enumerate()
            .filter_map(|(i, ins)| match ins {
                Ins::Msg(it) => Some((it, self.weight(i, it.bytes))),
                _ => None,
            })
    }

    /// Applies SMPI's latency and bandwidth factors by message size to every message
    /// ([`super::factors`]); `None` for both leaves the linear model, bit for bit.
    pub fn set_factors(
        &mut self,
        lat: Option<&super::factors::Factors>,
        bw: Option<&super::factors::Factors>,
    ) {
        self.weights = (lat.is_some() || bw.is_some()).then(|| {
            self.instructions()
                .map(|ins| match ins {
                    Ins::Msg(it) => {
                        let (l, w) = super::factors::weights(it.bytes, lat, bw);
                        [l, w]
                    }
                    _ => [1.0, 0.0],
                })
                .collect()
        });
    }

    /// Scratch entries one replay needs: a clock per rank and a slot per request.
    pub fn scratch_len(&self) -> usize {
        self.ranks + self.slots as usize
    }

    /// The messages, in the compiled order.
    pub fn items(&self) -> impl Iterator<Item = Item> + '_ {
        self.instructions().filter_map(|i| match i {
            Ins::Msg(it) => Some(it),
            _ => None,
        })
    }

    /// How sends complete.
    pub fn protocol(&self) -> Protocol {
        self.protocol
    }

    /// Sets the protocol of every message: rendezvous, eager, or eager below `threshold`
    /// bytes ([`Protocol::Size`]).
    pub fn set_protocol(&mut self, p: Protocol, threshold: f64) {
        self.protocol = p;
        let eager = |bytes: f64| match p {
            Protocol::Rendezvous => false,
            Protocol::Eager => true,
            Protocol::Size => bytes < threshold,
        };
        if let Some(fast) = &mut self.fast {
            for f in fast.iter_mut() {
                f.pair = (f.pair & !EAGER_BIT) | if eager(f.bytes) { EAGER_BIT } else { 0 };
            }
            return;
        }
        for i in &mut self.prog {
            if let Ins::Msg(it) = i {
                it.eager = eager(it.bytes);
            }
        }
        let plain = self.prog.iter().all(|i| match i {
            Ins::Msg(it) => it.sq == NONE && it.rq == NONE,
            _ => false,
        });
        if plain {
            // the instructions move into the 32-byte form (collected in place where the
            // allocator allows) and are held there only
            let prog = std::mem::take(&mut self.prog);
            let mut fast: Vec<Flat> = prog
                .into_iter()
                .filter_map(|i| match i {
                    Ins::Msg(it) => Some(Flat {
                        cs: it.cs,
                        cd: it.cd,
                        bytes: it.bytes,
                        src: it.src,
                        dst: it.dst,
                        pair: it.pair | if it.eager { EAGER_BIT } else { 0 },
                    }),
                    _ => None,
                })
                .collect();
            fast.shrink_to_fit();
            self.fast = Some(fast);
        }
    }

    /// Each rank's computation (seconds, unloaded; its instructions' in order, then its
    /// tail) and fixed sleeps.
    pub fn rank_work(&self) -> (Vec<f64>, Vec<f64>) {
        let mut comp = vec![0.0; self.ranks];
        let sleep = self.add_work(&mut comp);
        for (c, t) in comp.iter_mut().zip(&self.tail) {
            *c += t;
        }
        (comp, sleep)
    }

    /// Adds each rank's computation in its instructions (not its tail) to `comp`; returns
    /// each rank's sleeps.
    pub fn add_work(&self, comp: &mut [f64]) -> Vec<f64> {
        let mut sleep = vec![0.0; self.ranks];
        for i in self.instructions() {
            match i {
                Ins::Msg(it) => {
                    comp[it.src as usize] += it.cs;
                    comp[it.dst as usize] += it.cd;
                }
                Ins::Post { x, c, .. } | Ins::Wait { x, c, .. } => comp[x as usize] += c,
                Ins::Delay { x, c, d } => {
                    comp[x as usize] += c;
                    sleep[x as usize] += d;
                }
            }
        }
        sleep
    }

    /// Fills `tab` with the exact parameters of `assign` (node per rank).
    pub fn exact_tables(&self, p: &Platform, assign: &[u8], tab: &mut Tables) {
        let r = self.ranks;
        for (x, &u) in assign.iter().enumerate() {
            tab.ratio[x] = p.ratio[u as usize];
        }
        for &pr in &self.pairs {
            let (a, b) = (pr as usize / r, pr as usize % r);
            let k = assign[a] as usize * p.n + assign[b] as usize;
            tab.a0[pr as usize] = p.a0[k];
            tab.a1[pr as usize] = p.a1[k];
        }
    }

    /// The run time under the parameters `tab` (`t` is scratch of [`Compiled::scratch_len`]
    /// entries).
    ///
    /// # Complexity
    /// `O(I + R)` for `I` instructions.
    pub fn replay(&self, tab: &Tables, scratch: &mut [f64]) -> f64 {
        scratch.iter_mut().for_each(|x| *x = 0.0);
        let (t, q) = scratch.split_at_mut(self.ranks);
        let ratio = &tab.ratio[..];
        let a0 = &tab.a0[..];
        let a1 = &tab.a1[..];
        match (&self.fast, &self.weights) {
            (Some(fast), None) => {
                for it in fast {
                    let (a, b) = (it.src as usize, it.dst as usize);
                    let pair = (it.pair & !EAGER_BIT) as usize;
                    let s = t[a] + it.cs * ratio[a];
                    let r = t[b] + it.cd * ratio[b];
                    let c = a0[pair] + a1[pair] * it.bytes;
                    let (_, e, es) = message(s, r, c, it.pair & EAGER_BIT != 0);
                    t[a] = es;
                    t[b] = e;
                }
            }
            (Some(fast), Some(wt)) => {
                for (it, w) in fast.iter().zip(wt) {
                    let (a, b) = (it.src as usize, it.dst as usize);
                    let pair = (it.pair & !EAGER_BIT) as usize;
                    let s = t[a] + it.cs * ratio[a];
                    let r = t[b] + it.cd * ratio[b];
                    let c = w[0] * a0[pair] + a1[pair] * w[1];
                    let (_, e, es) = message(s, r, c, it.pair & EAGER_BIT != 0);
                    t[a] = es;
                    t[b] = e;
                }
            }
            _ => {}
        }
        let prog: &[Ins] = if self.fast.is_some() { &[] } else { &self.prog };
        for (i, ins) in prog.iter().enumerate() {
            match *ins {
                Ins::Msg(ref it) => {
                    let (a, b) = (it.src as usize, it.dst as usize);
                    let s = if it.sq == NONE {
                        t[a] + it.cs * ratio[a]
                    } else {
                        q[it.sq as usize]
                    };
                    let r = if it.rq == NONE {
                        t[b] + it.cd * ratio[b]
                    } else {
                        q[it.rq as usize]
                    };
                    let w = self.weight(i, it.bytes);
                    let c = w[0] * a0[it.pair as usize] + a1[it.pair as usize] * w[1];
                    let (_, e, es) = message(s, r, c, it.eager);
                    if it.sq == NONE {
                        t[a] = es;
                    } else {
                        q[it.sq as usize] = es;
                    }
                    if it.rq == NONE {
                        t[b] = e;
                    } else {
                        q[it.rq as usize] = e;
                    }
                }
                Ins::Post { x, c, slot } => {
                    let x = x as usize;
                    t[x] += c * ratio[x];
                    q[slot as usize] = t[x];
                }
                Ins::Wait { x, c, slot } => {
                    let x = x as usize;
                    let v = t[x] + c * ratio[x];
                    let w = q[slot as usize];
                    t[x] = if w > v { w } else { v };
                }
                Ins::Delay { x, c, d } => {
                    let x = x as usize;
                    t[x] = t[x] + c * ratio[x] + d;
                }
            }
        }
        let mut end = 0.0f64;
        for (x, &tx) in t.iter().enumerate() {
            let f = tx + self.tail[x] * ratio[x];
            if f > end {
                end = f;
            }
        }
        end
    }

    /// The run time of one assignment.
    pub fn time_of(&self, p: &Platform, assign: &[u8]) -> f64 {
        let mut tab = Tables::new(self.ranks);
        self.exact_tables(p, assign, &mut tab);
        let mut t = vec![0.0; self.scratch_len()];
        self.replay(&tab, &mut t)
    }
}

/// What one chain of dependencies of a replay consists of: the computation of each rank on
/// it (`w[x]`, seconds unloaded), per ordered rank pair `src * R + dst` the messages on it
/// (`count`, `bytes`), and its sleeps (`fixed`, seconds). Built by
/// [`Compiled::critical_path`].
#[derive(Debug, Clone, PartialEq)]
pub struct PathProfile {
    pub w: Vec<f64>,
    pub count: Vec<f64>,
    pub bytes: Vec<f64>,
    pub fixed: f64,
}

impl Compiled {
    /// The replay of [`Compiled::replay`] under `tab`, and a critical path: the chain of
    /// dependencies (computations, sleeps and transfers) that gives the run time, found by
    /// walking back from the rank that ends last: at a message to the side (send or receive)
    /// that posted last, at a wait to the request if it ended later than the rank's own
    /// clock, at a non-blocking call's post to the rank's clock before it. Whatever the
    /// parameters, every clock and request time is at least the sum along any such chain
    /// (each step of the chain is a `+` into a `max`), so the chain's length under other
    /// parameters is a lower bound of their run time (used by [`super::search::PathBound`]).
    ///
    /// # Complexity
    /// `O(I + R^2)`; `O(I)` scratch.
    pub fn critical_path(&self, tab: &Tables) -> (f64, PathProfile) {
        let r = self.ranks;
        let none = u32::MAX;
        let mut t = vec![0.0f64; r];
        let mut q = vec![0.0f64; self.slots as usize];
        let mut last = vec![none; r];
        let mut last_q = vec![none; self.slots as usize];
        // per instruction: the instructions its two inputs came from, and which one won
        // (messages: whether the send posted last; waits: whether the request ended last)
        let mut prev: Vec<(u32, u32)> = Vec::with_capacity(self.len_ins());
        let mut flag: Vec<bool> = Vec::with_capacity(self.len_ins());
        for (i, ins) in self.instructions().enumerate() {
            let i = i as u32;
            match ins {
                Ins::Msg(ref it) => {
                    let (a, b) = (it.src as usize, it.dst as usize);
                    let (s, pa) = if it.sq == NONE {
                        (t[a] + it.cs * tab.ratio[a], last[a])
                    } else {
                        (q[it.sq as usize], last_q[it.sq as usize])
                    };
                    let (rr, pb) = if it.rq == NONE {
                        (t[b] + it.cd * tab.ratio[b], last[b])
                    } else {
                        (q[it.rq as usize], last_q[it.rq as usize])
                    };
                    let w = self.weight(i as usize, it.bytes);
                    let c = w[0] * tab.a0[it.pair as usize] + tab.a1[it.pair as usize] * w[1];
                    let (_, e, es) = message(s, rr, c, it.eager);
                    prev.push((pa, pb));
                    flag.push(rr <= s);
                    if it.sq == NONE {
                        t[a] = es;
                        last[a] = i;
                    } else {
                        q[it.sq as usize] = es;
                        last_q[it.sq as usize] = i;
                    }
                    if it.rq == NONE {
                        t[b] = e;
                        last[b] = i;
                    } else {
                        q[it.rq as usize] = e;
                        last_q[it.rq as usize] = i;
                    }
                }
                Ins::Post { x, c, slot } => {
                    let x = x as usize;
                    t[x] += c * tab.ratio[x];
                    q[slot as usize] = t[x];
                    prev.push((last[x], none));
                    flag.push(false);
                    last[x] = i;
                    last_q[slot as usize] = i;
                }
                Ins::Wait { x, c, slot } => {
                    let x = x as usize;
                    let v = t[x] + c * tab.ratio[x];
                    let w = q[slot as usize];
                    prev.push((last[x], last_q[slot as usize]));
                    flag.push(w > v);
                    t[x] = if w > v { w } else { v };
                    last[x] = i;
                }
                Ins::Delay { x, c, d } => {
                    let x = x as usize;
                    t[x] = t[x] + c * tab.ratio[x] + d;
                    prev.push((last[x], none));
                    flag.push(false);
                    last[x] = i;
                }
            }
        }
        let mut end = 0.0f64;
        let mut x_end = 0usize;
        for x in 0..r {
            let f = t[x] + self.tail[x] * tab.ratio[x];
            if f > end {
                end = f;
                x_end = x;
            }
        }
        let mut prof = PathProfile {
            w: vec![0.0; r],
            count: vec![0.0; r * r],
            bytes: vec![0.0; r * r],
            fixed: 0.0,
        };
        if r == 0 {
            return (end, prof);
        }
        prof.w[x_end] += self.tail[x_end];
        // (instruction, whether we arrived through its send side's output)
        let side_of = |i: u32, x: usize| match self.ins(i as usize) {
            Ins::Msg(it) => it.src as usize == x && it.sq == NONE,
            _ => false,
        };
        let slot_side = |i: u32, slot: u32| match self.ins(i as usize) {
            Ins::Msg(it) => it.sq == slot,
            _ => false,
        };
        let mut cur = last[x_end];
        let mut send_side = cur != none && side_of(cur, x_end);
        while cur != none {
            let (pa, pb) = prev[cur as usize];
            match self.ins(cur as usize) {
                Ins::Msg(it) => {
                    let (a, b) = (it.src as usize, it.dst as usize);
                    // the send side's input: a's clock (blocking) or the post's slot
                    let from_send = |prof: &mut PathProfile| -> (u32, bool) {
                        if it.sq == NONE {
                            prof.w[a] += it.cs;
                            (pa, pa != none && side_of(pa, a))
                        } else {
                            (pa, false)
                        }
                    };
                    if send_side && it.eager {
                        // an eager send ends when it is posted
                        (cur, send_side) = from_send(&mut prof);
                        continue;
                    }
                    // the message's weights: 1 and its bytes without factors
                    let w = self.weight(cur as usize, it.bytes);
                    prof.count[it.pair as usize] += w[0];
                    prof.bytes[it.pair as usize] += w[1];
                    if flag[cur as usize] {
                        (cur, send_side) = from_send(&mut prof);
                    } else if it.rq == NONE {
                        prof.w[b] += it.cd;
                        (cur, send_side) = (pb, pb != none && side_of(pb, b));
                    } else {
                        (cur, send_side) = (pb, false);
                    }
                }
                Ins::Post { x, c, .. } => {
                    prof.w[x as usize] += c;
                    (cur, send_side) = (pa, pa != none && side_of(pa, x as usize));
                }
                Ins::Wait { x, c, slot } => {
                    if flag[cur as usize] {
                        (cur, send_side) = (pb, pb != none && slot_side(pb, slot));
                    } else {
                        prof.w[x as usize] += c;
                        (cur, send_side) = (pa, pa != none && side_of(pa, x as usize));
                    }
                }
                Ins::Delay { x, c, d } => {
                    prof.w[x as usize] += c;
                    prof.fixed += d;
                    (cur, send_side) = (pa, pa != none && side_of(pa, x as usize));
                }
            }
        }
        (end, prof)
    }
}

/// Replays evaluated together by [`Compiled::replay_lanes`].
pub const LANES: usize = 8;

/// Parameters of [`LANES`] replays, interleaved: `ratio[x * LANES + l]`,
/// `a0[pair * LANES + l]`, `a1[pair * LANES + l]` for lane `l`.
#[derive(Debug, Clone, PartialEq)]
pub struct LaneTables {
    pub ratio: Vec<f64>,
    pub a0: Vec<f64>,
    pub a1: Vec<f64>,
}

impl LaneTables {
    pub fn new(ranks: usize) -> Self {
        LaneTables {
            ratio: vec![1.0; ranks * LANES],
            a0: vec![0.0; ranks * ranks * LANES],
            a1: vec![0.0; ranks * ranks * LANES],
        }
    }

    /// Copies `tab` (the used pairs of `c`) into lane `l`.
    pub fn set_lane(&mut self, c: &Compiled, l: usize, tab: &Tables) {
        for x in 0..c.ranks {
            self.ratio[x * LANES + l] = tab.ratio[x];
        }
        for &pr in &c.pairs {
            self.a0[pr as usize * LANES + l] = tab.a0[pr as usize];
            self.a1[pr as usize * LANES + l] = tab.a1[pr as usize];
        }
    }
}

impl Compiled {
    /// [`LANES`] replays in one pass over the instructions, lane `l` with the parameters of
    /// lane `l` of `tab`; `scratch` has [`Compiled::scratch_len`] `x LANES` entries. Each lane
    /// does exactly the operations of [`Compiled::replay`] in the same order, so its result is
    /// bit-identical; the lanes' independent chains of `+` and `max` overlap in the processor,
    /// which is where the speed comes from.
    ///
    /// # Complexity
    /// `O((I + R) x LANES)`, about the time of a few single replays.
    pub fn replay_lanes(&self, tab: &LaneTables, scratch: &mut [f64], out: &mut [f64; LANES]) {
        scratch.iter_mut().for_each(|x| *x = 0.0);
        let (t, q) = scratch.split_at_mut(self.ranks * LANES);
        if let Some(fast) = &self.fast {
            for (i, it) in fast.iter().enumerate() {
                let w = self.weight(i, it.bytes);
                let a = it.src as usize * LANES;
                let b = it.dst as usize * LANES;
                let p = (it.pair & !EAGER_BIT) as usize * LANES;
                let eager = it.pair & EAGER_BIT != 0;
                let ra = &tab.ratio[a..a + LANES];
                let rb = &tab.ratio[b..b + LANES];
                let x0 = &tab.a0[p..p + LANES];
                let x1 = &tab.a1[p..p + LANES];
                let mut e = [0.0f64; LANES];
                let mut es = [0.0f64; LANES];
                {
                    let ta = &t[a..a + LANES];
                    let tb = &t[b..b + LANES];
                    for l in 0..LANES {
                        let s = ta[l] + it.cs * ra[l];
                        let r = tb[l] + it.cd * rb[l];
                        let c = w[0] * x0[l] + x1[l] * w[1];
                        (_, e[l], es[l]) = message(s, r, c, eager);
                    }
                }
                t[a..a + LANES].copy_from_slice(&es);
                t[b..b + LANES].copy_from_slice(&e);
            }
        }
        let prog: &[Ins] = if self.fast.is_some() { &[] } else { &self.prog };
        for (i, ins) in prog.iter().enumerate() {
            match *ins {
                Ins::Msg(ref it) => {
                    let w = self.weight(i, it.bytes);
                    let a = it.src as usize * LANES;
                    let b = it.dst as usize * LANES;
                    let p = it.pair as usize * LANES;
                    let ra = &tab.ratio[a..a + LANES];
                    let rb = &tab.ratio[b..b + LANES];
                    let x0 = &tab.a0[p..p + LANES];
                    let x1 = &tab.a1[p..p + LANES];
                    let s = lane_post(&t[a..a + LANES], ra, it.cs, q, it.sq);
                    let r = lane_post(&t[b..b + LANES], rb, it.cd, q, it.rq);
                    let mut e = [0.0f64; LANES];
                    let mut es = [0.0f64; LANES];
                    for l in 0..LANES {
                        let c = w[0] * x0[l] + x1[l] * w[1];
                        (_, e[l], es[l]) = message(s[l], r[l], c, it.eager);
                    }
                    lane_end(&mut t[a..a + LANES], q, it.sq, &es);
                    lane_end(&mut t[b..b + LANES], q, it.rq, &e);
                }
                Ins::Post { x, c, slot } => {
                    let a = x as usize * LANES;
                    let k = slot as usize * LANES;
                    for l in 0..LANES {
                        t[a + l] += c * tab.ratio[a + l];
                    }
                    q[k..k + LANES].copy_from_slice(&t[a..a + LANES]);
                }
                Ins::Wait { x, c, slot } => {
                    let a = x as usize * LANES;
                    let k = slot as usize * LANES;
                    for l in 0..LANES {
                        let v = t[a + l] + c * tab.ratio[a + l];
                        let w = q[k + l];
                        t[a + l] = if w > v { w } else { v };
                    }
                }
                Ins::Delay { x, c, d } => {
                    let a = x as usize * LANES;
                    for l in 0..LANES {
                        t[a + l] = t[a + l] + c * tab.ratio[a + l] + d;
                    }
                }
            }
        }
        *out = [0.0; LANES];
        for x in 0..self.ranks {
            for l in 0..LANES {
                let f = t[x * LANES + l] + self.tail[x] * tab.ratio[x * LANES + l];
                if f > out[l] {
                    out[l] = f;
                }
            }
        }
    }
}

/// One side's post times in [`LANES`] lanes: the rank's clocks `t` plus its computation `c`
/// at each lane's `ratio` (a blocking call), or its request's slot in `q` (a non-blocking one).
#[inline(always)]
fn lane_post(t: &[f64], ratio: &[f64], c: f64, q: &[f64], slot: u32) -> [f64; LANES] {
    let mut s = [0.0f64; LANES];
    if slot == NONE {
        for l in 0..LANES {
            s[l] = t[l] + c * ratio[l];
        }
    } else {
        let k = slot as usize * LANES;
        s.copy_from_slice(&q[k..k + LANES]);
    }
    s
}

/// One side's end times into the rank's clocks `t` (a blocking call) or its request's slot.
#[inline(always)]
fn lane_end(t: &mut [f64], q: &mut [f64], slot: u32, end: &[f64; LANES]) {
    if slot == NONE {
        t.copy_from_slice(end);
    } else {
        let k = slot as usize * LANES;
        q[k..k + LANES].copy_from_slice(end);
    }
}

/// One timeline segment: rank, kind (index in [`KIND_NAMES`]), start, end, peer, bytes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Seg {
    pub rank: u32,
    pub kind: u8,
    pub start: f64,
    pub end: f64,
    pub peer: u32,
    pub bytes: f64,
}

pub const KIND_NAMES: [&str; 5] = ["compute", "send", "recv", "wait", "sleep"];

/// The replay of `assign` with every segment: compute; sleep; for a blocking send the wait for
/// a late receiver (`wait`, from `s` to the transfer's start; rendezvous only) and its
/// transfer (`send`, to the end `e`; rendezvous only, an eager send takes no time); for a
/// blocking receive the wait for a late sender (`wait`, from `r` to the start) and its
/// receive (`recv`, from the start to `e`); for a wait on a request the time it blocks
/// (`wait`, with the request's peer and bytes). A non-blocking call takes no time of its own.
/// Segments of zero length are left out. At most `cap` segments are kept: the replay stops
/// listing once the cap is reached, and segments are then complete up to the returned
/// `shown_until` (the earliest time any rank had reached); segments starting later are
/// dropped. Returns `(segments sorted by start then rank, total segments, shown_until,
/// makespan)`.
///
/// # Complexity
/// `O(I + R + S log S)` for `S` kept segments.
pub fn timeline(
    c: &Compiled,
    p: &Platform,
    assign: &[u8],
    cap: usize,
) -> (Vec<Seg>, u64, f64, f64) {
    let r = c.ranks;
    let mut tab = Tables::new(r);
    c.exact_tables(p, assign, &mut tab);
    let mut t = vec![0.0f64; r];
    let mut q = vec![0.0f64; c.slots as usize];
    let mut segs: Vec<Seg> = Vec::new();
    let mut total = 0u64;
    let mut cut: Option<f64> = None;
    let none = u32::MAX;
    let info = &c.slot_info;
    for (i, ins) in c.instructions().enumerate() {
        // (rank, kind, start, end, peer, bytes) of the instruction's segments
        let mut parts: [(u32, u8, f64, f64, u32, f64); 6] = [(0, 0, 0.0, 0.0, none, 0.0); 6];
        let mut np = 0usize;
        let mut add = |part: (u32, u8, f64, f64, u32, f64)| {
            parts[np] = part;
            np += 1;
        };
        let mut low = f64::INFINITY;
        match ins {
            Ins::Msg(ref it) => {
                let (a, b) = (it.src as usize, it.dst as usize);
                let (ra, rb) = (a as u32, b as u32);
                let s = if it.sq == NONE {
                    t[a] + it.cs * tab.ratio[a]
                } else {
                    q[it.sq as usize]
                };
                let rr = if it.rq == NONE {
                    t[b] + it.cd * tab.ratio[b]
                } else {
                    q[it.rq as usize]
                };
                let w = c.weight(i, it.bytes);
                let cost = w[0] * tab.a0[it.pair as usize] + tab.a1[it.pair as usize] * w[1];
                let (start, e, es) = message(s, rr, cost, it.eager);
                if it.sq == NONE {
                    add((ra, 0, t[a], s, none, 0.0));
                }
                if it.rq == NONE {
                    add((rb, 0, t[b], rr, none, 0.0));
                }
                if it.sq == NONE {
                    add((ra, 3, s, if it.eager { s } else { start }, rb, 0.0));
                    add((ra, 1, if it.eager { s } else { start }, es, rb, it.bytes));
                    t[a] = es;
                } else {
                    q[it.sq as usize] = es;
                }
                if it.rq == NONE {
                    add((rb, 3, rr, start, ra, 0.0));
                    add((rb, 2, start, e, ra, it.bytes));
                    t[b] = e;
                } else {
                    q[it.rq as usize] = e;
                }
                low = e;
            }
            Ins::Post { x, c, slot } => {
                let x = x as usize;
                let v = t[x] + c * tab.ratio[x];
                add((x as u32, 0, t[x], v, none, 0.0));
                t[x] = v;
                q[slot as usize] = v;
            }
            Ins::Wait { x, c, slot } => {
                let x = x as usize;
                let v = t[x] + c * tab.ratio[x];
                let w = q[slot as usize];
                let (_, peer, bytes) = info[slot as usize];
                add((x as u32, 0, t[x], v, none, 0.0));
                add((x as u32, 3, v, if w > v { w } else { v }, peer, bytes));
                t[x] = if w > v { w } else { v };
            }
            Ins::Delay { x, c, d } => {
                let x = x as usize;
                let v = t[x] + c * tab.ratio[x];
                add((x as u32, 0, t[x], v, none, 0.0));
                add((x as u32, 4, v, v + d, none, 0.0));
                t[x] = v + d;
            }
        }
        if cut.is_none() {
            for &(rank, kind, start, end, peer, bytes) in &parts[..np] {
                if end > start {
                    total += 1;
                    segs.push(Seg {
                        rank,
                        kind,
                        start,
                        end,
                        peer,
                        bytes,
                    });
                }
            }
            if segs.len() >= cap {
                cut = Some(t.iter().copied().fold(f64::INFINITY, f64::min).min(low));
            }
        } else {
            // count only
            total += parts[..np].iter().filter(|p| p.3 > p.2).count() as u64;
        }
    }
    let mut end = 0.0f64;
    for x in 0..r {
        let f = t[x] + c.tail[x] * tab.ratio[x];
        if f > t[x] {
            if cut.is_none() {
                total += 1;
                segs.push(Seg {
                    rank: x as u32,
                    kind: 0,
                    start: t[x],
                    end: f,
                    peer: u32::MAX,
                    bytes: 0.0,
                });
            } else {
                total += 1;
            }
        }
        if f > end {
            end = f;
        }
    }
    let shown_until = match cut {
        Some(u) => {
            segs.retain(|s| s.start < u);
            segs.truncate(cap);
            u
        }
        None => end,
    };
    segs.sort_by(|x, y| {
        x.start
            .total_cmp(&y.start)
            .then(x.rank.cmp(&y.rank))
            .then(x.end.total_cmp(&y.end))
            .then(x.kind.cmp(&y.kind))
    });
    (segs, total, shown_until, end)
}
