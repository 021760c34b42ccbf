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

use super::model::{Op, Trace};

/// One message of the flattened trace.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Item {
    /// Computation (seconds, unloaded) of the sender since its previous message.
    pub cs: f64,
    /// Computation of the receiver since its previous message.
    pub cd: f64,
    pub bytes: f64,
    pub src: u16,
    pub dst: u16,
    /// `src * R + dst`.
    pub pair: u32,
}

/// A compiled trace: messages in a topological order and each rank's final computation.
#[derive(Debug, Clone, PartialEq)]
pub struct Compiled {
    pub ranks: usize,
    pub items: Vec<Item>,
    /// Computation after each rank's last message.
    pub tail: Vec<f64>,
    /// Ordered rank pairs that exchange at least one message (`src * R + dst`), ascending.
    pub pairs: Vec<u32>,
    /// Events of the trace (computes merged).
    pub events: u64,
    /// How a send completes (module doc).
    pub protocol: Protocol,
}

crate::params::choices! {
    /// When a blocking send completes (module doc, "The rule"); the scenario's default is in
    /// the field table.
    pub enum Protocol {
        /// Both calls complete when the transfer ends, `max(r, s) + c`.
        Rendezvous = ("rendezvous", "Rendezvous (send waits for the transfer)"),
        /// The send completes at once; the receive at `max(r, s) + c`.
        Eager = ("eager", "Eager (send returns at once)"),
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

/// The platform: `n` nodes, each with a compute ratio, and a link per ordered pair
/// (`a0[u * n + v]`, `a1[u * n + v]`).
#[derive(Debug, Clone, PartialEq)]
pub struct Platform {
    pub n: usize,
    pub ratio: Vec<f64>,
    pub a0: Vec<f64>,
    pub a1: Vec<f64>,
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

/// Matches and flattens a trace.
///
/// # Errors
/// A message naming the line: a send never received, a receive never sent, a receive smaller
/// than its message, a peer rank the trace does not have, or a deadlock (with the line where
/// each of up to three blocked ranks waits). Returned as `(file, line, message)`.
pub fn compile(trace: &Trace) -> Result<Compiled, (u32, u32, String)> {
    let r = trace.ranks.len();
    // Sends per ordered pair, in order.
    let mut sends: Vec<Vec<(usize, usize)>> = vec![Vec::new(); r * r];
    for (a, evs) in trace.ranks.iter().enumerate() {
        for (k, ev) in evs.iter().enumerate() {
            if let Op::Send { peer, .. } | Op::Recv { peer, .. } = ev.op {
                if peer as usize >= r {
                    return Err((
                        ev.file,
                        ev.line,
                        format!("rank {a} names rank {peer}, but the trace has only {r} ranks (0 to {})", r - 1),
                    ));
                }
            }
            if let Op::Send { peer, .. } = ev.op {
                sends[a * r + peer as usize].push((a, k));
            }
        }
    }
    // msg id per comm event: msg_of[rank][k].
    let mut msg_of: Vec<Vec<u32>> = trace
        .ranks
        .iter()
        .map(|e| vec![u32::MAX; e.len()])
        .collect();
    let mut msgs: Vec<(usize, usize, f64)> = Vec::new(); // (src, dst, bytes)
    let mut used = vec![0usize; r * r];
    for (b, evs) in trace.ranks.iter().enumerate() {
        for (k, ev) in evs.iter().enumerate() {
            if let Op::Recv { peer, bytes } = ev.op {
                let a = peer as usize;
                let q = &sends[a * r + b];
                let i = used[a * r + b];
                let Some(&(_, ks)) = q.get(i) else {
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
                            "rank {b} receives from rank {a} a message that is never sent (rank {a} sends {} message(s) to rank {b}; this is receive {}){hint}",
                            q.len(),
                            i + 1
                        ),
                    ));
                };
                used[a * r + b] += 1;
                let sev = trace.ranks[a][ks];
                let Op::Send { bytes: sb, .. } = sev.op else {
                    unreachable!("queued events are sends")
                };
                if bytes < sb {
                    return Err((
                        ev.file,
                        ev.line,
                        format!(
                            "rank {b} receives at most {} bytes from rank {a}, but the matching send{} has {} bytes",
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
                msgs.push((a, b, sb));
                msg_of[b][k] = id;
                msg_of[a][ks] = id;
            }
        }
    }
    for (p, q) in sends.iter().enumerate() {
        if let Some(&(a, ks)) = q.get(used[p]) {
            let ev = trace.ranks[a][ks];
            return Err((
                ev.file,
                ev.line,
                format!(
                    "rank {a} sends to rank {} a message that is never received ({} sent, {} received)",
                    p % r,
                    q.len(),
                    used[p]
                ),
            ));
        }
    }
    // Topological order by simulating the blocking rule without times.
    let mut pos = vec![0usize; r];
    let mut pending = vec![0.0f64; r];
    let mut waiting = vec![false; r];
    let mut arrived = vec![0u8; msgs.len()];
    let mut items = Vec::with_capacity(msgs.len());
    let mut stack: Vec<usize> = (0..r).rev().collect();
    while let Some(x) = stack.pop() {
        loop {
            if waiting[x] || pos[x] >= trace.ranks[x].len() {
                break;
            }
            match trace.ranks[x][pos[x]].op {
                Op::Compute(d) => {
                    pending[x] += d;
                    pos[x] += 1;
                }
                Op::Send { .. } | Op::Recv { .. } => {
                    let m = msg_of[x][pos[x]] as usize;
                    arrived[m] += 1;
                    waiting[x] = true;
                    if arrived[m] == 2 {
                        let (a, b, bytes) = msgs[m];
                        items.push(Item {
                            cs: pending[a],
                            cd: pending[b],
                            bytes,
                            src: a as u16,
                            dst: b as u16,
                            pair: (a * r + b) as u32,
                        });
                        pending[a] = 0.0;
                        pending[b] = 0.0;
                        for y in [a, b] {
                            pos[y] += 1;
                            waiting[y] = false;
                        }
                        let other = if x == a { b } else { a };
                        stack.push(other);
                    }
                }
            }
        }
    }
    if items.len() < msgs.len() {
        let mut parts = Vec::new();
        for x in 0..r {
            if waiting[x] && parts.len() < 3 {
                let ev = trace.ranks[x][pos[x]];
                let what = match ev.op {
                    Op::Send { peer, .. } => format!("rank {x} waits in a send to rank {peer}"),
                    Op::Recv { peer, .. } => {
                        format!("rank {x} waits in a receive from rank {peer}")
                    }
                    Op::Compute(_) => format!("rank {x} waits"),
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
        let first = (0..r).find(|&x| waiting[x]).unwrap_or(0);
        let ev = trace.ranks[first].get(pos[first]).copied();
        return Err((
            ev.map_or(0, |e| e.file),
            ev.map_or(0, |e| e.line),
            format!(
                "deadlock under blocking semantics (a send completes only when its receive has the data): {}; order the exchanges so that one side receives first",
                parts.join(", ")
            ),
        ));
    }
    let mut pairs: Vec<u32> = items.iter().map(|i| i.pair).collect();
    pairs.sort_unstable();
    pairs.dedup();
    Ok(Compiled {
        protocol: Protocol::Rendezvous,
        ranks: r,
        items,
        tail: pending,
        pairs,
        events: trace.events(),
    })
}

impl Compiled {
    /// Replay steps of one replay: messages plus ranks.
    pub fn steps(&self) -> u64 {
        self.items.len() as u64 + self.ranks as u64
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

    /// The run time under the parameters `tab` (`t` is scratch of `R` entries).
    ///
    /// # Complexity
    /// `O(M + R)`.
    pub fn replay(&self, tab: &Tables, t: &mut [f64]) -> f64 {
        t.iter_mut().for_each(|x| *x = 0.0);
        let eager = self.protocol == Protocol::Eager;
        let ratio = &tab.ratio[..];
        let a0 = &tab.a0[..];
        let a1 = &tab.a1[..];
        for it in &self.items {
            let (a, b) = (it.src as usize, it.dst as usize);
            let s = t[a] + it.cs * ratio[a];
            let r = t[b] + it.cd * ratio[b];
            let c = a0[it.pair as usize] + a1[it.pair as usize] * it.bytes;
            let (_, e, es) = message(s, r, c, eager);
            t[a] = es;
            t[b] = e;
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
        let mut t = vec![0.0; self.ranks];
        self.replay(&tab, &mut t)
    }
}

/// What one chain of dependencies of a replay consists of: the computation of each rank on
/// it (`w[x]`, seconds unloaded) and, per ordered rank pair `src * R + dst`, the messages on
/// it (`count`, `bytes`). Built by [`Compiled::critical_path`].
#[derive(Debug, Clone, PartialEq)]
pub struct PathProfile {
    pub w: Vec<f64>,
    pub count: Vec<f64>,
    pub bytes: Vec<f64>,
}

impl Compiled {
    /// The replay of [`Compiled::replay`] under `tab`, and a critical path: the chain of
    /// dependencies (computations and transfers) that gives the run time, found by walking
    /// back from the rank that ends last, at each message to the side (send or receive) that
    /// posted last. Whatever the parameters, every rank's clock is at least the sum along
    /// any such chain (each step of the chain is a `+` into a `max`), so the chain's length
    /// under other parameters is a lower bound of their run time (used by
    /// [`super::search::PathBound`]).
    ///
    /// # Complexity
    /// `O(M + R^2)`; `O(M)` scratch.
    pub fn critical_path(&self, tab: &Tables) -> (f64, PathProfile) {
        let r = self.ranks;
        let eager = self.protocol == Protocol::Eager;
        let none = u32::MAX;
        let mut t = vec![0.0f64; r];
        let mut last = vec![none; r];
        // per item: previous item of its sender and of its receiver; whether s >= r
        let mut prev = Vec::with_capacity(self.items.len());
        let mut from_src = Vec::with_capacity(self.items.len());
        for (i, it) in self.items.iter().enumerate() {
            let (a, b) = (it.src as usize, it.dst as usize);
            let s = t[a] + it.cs * tab.ratio[a];
            let rr = t[b] + it.cd * tab.ratio[b];
            let c = tab.a0[it.pair as usize] + tab.a1[it.pair as usize] * it.bytes;
            let (_, e, es) = message(s, rr, c, eager);
            prev.push((last[a], last[b]));
            from_src.push(rr <= s);
            t[a] = es;
            t[b] = e;
            last[a] = i as u32;
            last[b] = i as u32;
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
        };
        prof.w[x_end] += self.tail[x_end];
        let (mut i, mut x) = (last[x_end], x_end);
        while i != none {
            let it = &self.items[i as usize];
            let (a, b) = (it.src as usize, it.dst as usize);
            let (pa, pb) = prev[i as usize];
            if eager && x == a {
                // an eager send ends when it is posted
                prof.w[a] += it.cs;
                (i, x) = (pa, a);
                continue;
            }
            prof.count[it.pair as usize] += 1.0;
            prof.bytes[it.pair as usize] += it.bytes;
            if from_src[i as usize] {
                prof.w[a] += it.cs;
                (i, x) = (pa, a);
            } else {
                prof.w[b] += it.cd;
                (i, x) = (pb, b);
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
    /// [`LANES`] replays in one pass over the messages, lane `l` with the parameters of lane
    /// `l` of `tab`; `t` is scratch of `R x LANES` entries. Each lane does exactly the
    /// operations of [`Compiled::replay`] in the same order, so its result is bit-identical;
    /// the lanes' independent chains of `+` and `max` overlap in the processor, which is
    /// where the speed comes from.
    ///
    /// # Complexity
    /// `O((M + R) x LANES)`, about the time of a few single replays.
    pub fn replay_lanes(&self, tab: &LaneTables, t: &mut [f64], out: &mut [f64; LANES]) {
        t.iter_mut().for_each(|x| *x = 0.0);
        let eager = self.protocol == Protocol::Eager;
        for it in &self.items {
            let a = it.src as usize * LANES;
            let b = it.dst as usize * LANES;
            let p = it.pair as usize * LANES;
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
                    let c = x0[l] + x1[l] * it.bytes;
                    (_, e[l], es[l]) = message(s, r, c, eager);
                }
            }
            t[a..a + LANES].copy_from_slice(&es);
            t[b..b + LANES].copy_from_slice(&e);
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

/// One timeline segment: rank, kind (0 compute, 1 send, 2 recv, 3 wait), start, end, peer,
/// bytes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Seg {
    pub rank: u32,
    pub kind: u8,
    pub start: f64,
    pub end: f64,
    pub peer: u32,
    pub bytes: f64,
}

pub const KIND_NAMES: [&str; 4] = ["compute", "send", "recv", "wait"];

/// The replay of `assign` with every segment: compute; the sender's wait for a late receiver
/// (`wait`, from `s` to the transfer's start; rendezvous only) and its transfer (`send`, to the
/// end `e`; rendezvous only, an eager send takes no time); the receiver's wait for a late
/// sender (`wait`, from `r` to the start) and its receive (`recv`, from the start to `e`).
/// Segments of zero length are left out. At most `cap` segments are kept: the replay
/// stops listing once the cap is reached, and segments are then complete up to the returned
/// `shown_until` (the earliest time any rank had reached); segments starting later are
/// dropped. Returns `(segments sorted by start then rank, total segments, shown_until,
/// makespan)`.
///
/// # Complexity
/// `O(M + R + S log S)` for `S` kept segments.
pub fn timeline(
    c: &Compiled,
    p: &Platform,
    assign: &[u8],
    cap: usize,
) -> (Vec<Seg>, u64, f64, f64) {
    let r = c.ranks;
    let mut tab = Tables::new(r);
    c.exact_tables(p, assign, &mut tab);
    let eager = c.protocol == Protocol::Eager;
    let mut t = vec![0.0f64; r];
    let mut segs: Vec<Seg> = Vec::new();
    let mut total = 0u64;
    let mut cut: Option<f64> = None;
    let push = |segs: &mut Vec<Seg>, total: &mut u64, s: Seg| {
        if s.end > s.start {
            *total += 1;
            segs.push(s);
        }
    };
    for it in &c.items {
        let (a, b) = (it.src as usize, it.dst as usize);
        let s = t[a] + it.cs * tab.ratio[a];
        let rr = t[b] + it.cd * tab.ratio[b];
        let cost = tab.a0[it.pair as usize] + tab.a1[it.pair as usize] * it.bytes;
        let (start, e, es) = message(s, rr, cost, eager);
        // (rank, kind, start, end, peer, bytes) of the message's segments.
        let (ra, rb) = (a as u32, b as u32);
        let parts = [
            (ra, 0u8, t[a], s, u32::MAX, 0.0),
            (rb, 0, t[b], rr, u32::MAX, 0.0),
            (ra, 3, s, if eager { s } else { start }, rb, 0.0),
            (ra, 1, if eager { s } else { start }, es, rb, it.bytes),
            (rb, 3, rr, start, ra, 0.0),
            (rb, 2, start, e, ra, it.bytes),
        ];
        if cut.is_none() {
            for (rank, kind, start, end, peer, bytes) in parts {
                push(
                    &mut segs,
                    &mut total,
                    Seg {
                        rank,
                        kind,
                        start,
                        end,
                        peer,
                        bytes,
                    },
                );
            }
            if segs.len() >= cap {
                cut = Some(t.iter().copied().fold(f64::INFINITY, f64::min).min(e));
            }
        } else {
            // count only
            total += parts.iter().filter(|p| p.3 > p.2).count() as u64;
        }
        t[a] = es;
        t[b] = e;
    }
    let mut end = 0.0f64;
    for x in 0..r {
        let f = t[x] + c.tail[x] * tab.ratio[x];
        if cut.is_none() {
            push(
                &mut segs,
                &mut total,
                Seg {
                    rank: x as u32,
                    kind: 0,
                    start: t[x],
                    end: f,
                    peer: u32::MAX,
                    bytes: 0.0,
                },
            );
        } else if f > t[x] {
            total += 1;
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
