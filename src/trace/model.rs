//! The trace as the parsers and generators produce it: per rank, a sequence of events in
//! program order. Compute is in seconds on an unloaded node (ratio 1); messages carry their
//! peer rank and size in bytes. Every event remembers where it came from (text and line), so
//! that matching errors found later ([`super::replay::compile`]) can name the line.

/// One event of one rank.
///
/// Point-to-point operations carry the MPI tag they were recorded with (0 for formats
/// without tags); messages match per ordered pair of ranks and tag, first in first out, as
/// MPI matches them. A request of a non-blocking call is named by a later [`Op::Wait`] with
/// its `(src, dst, tag)`, as SimGrid's time-independent traces name it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Op {
    /// Computation, seconds on an unloaded node.
    Compute(f64),
    /// A pause of fixed length (seconds), whatever the node's speed (`sleep`).
    Sleep(f64),
    /// A blocking `MPI_Send` to `peer` of `bytes` bytes.
    Send { peer: u32, tag: i32, bytes: f64 },
    /// A blocking `MPI_Recv` from `peer` of up to `bytes` bytes.
    Recv { peer: u32, tag: i32, bytes: f64 },
    /// `MPI_Isend`: posts the send and goes on.
    Isend { peer: u32, tag: i32, bytes: f64 },
    /// `MPI_Irecv`: posts the receive and goes on.
    Irecv { peer: u32, tag: i32, bytes: f64 },
    /// `MPI_Wait` on the oldest request of this rank from `src` to `dst` with `tag` that is
    /// still outstanding; none is a no-op (SimGrid's replay: a test may have completed it).
    Wait { src: u32, dst: u32, tag: i32 },
    /// `MPI_Waitall`: every outstanding request of this rank.
    WaitAll,
    /// A collective or a `sendRecv`: `trace.colls[i]`.
    Coll(u32),
}

/// Collective operations (and `sendRecv`), replayed as the point-to-point messages of the
/// algorithm SMPI uses by default ([`super::collectives`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CollKind {
    Barrier,
    Bcast,
    Reduce,
    Allreduce,
    Alltoall,
    Alltoallv,
    Gather,
    Gatherv,
    Allgather,
    Allgatherv,
    Scatter,
    Scatterv,
    ReduceScatter,
    Scan,
    Exscan,
    SendRecv,
}

impl CollKind {
    /// The action's name in a time-independent trace.
    pub fn name(self) -> &'static str {
        match self {
            CollKind::Barrier => "barrier",
            CollKind::Bcast => "bcast",
            CollKind::Reduce => "reduce",
            CollKind::Allreduce => "allreduce",
            CollKind::Alltoall => "alltoall",
            CollKind::Alltoallv => "alltoallv",
            CollKind::Gather => "gather",
            CollKind::Gatherv => "gatherv",
            CollKind::Allgather => "allgather",
            CollKind::Allgatherv => "allgatherv",
            CollKind::Scatter => "scatter",
            CollKind::Scatterv => "scatterv",
            CollKind::ReduceScatter => "reducescatter",
            CollKind::Scan => "scan",
            CollKind::Exscan => "exscan",
            CollKind::SendRecv => "sendRecv",
        }
    }
}

/// One rank's call of a collective, sizes in bytes.
#[derive(Debug, Clone, PartialEq)]
pub struct Coll {
    pub kind: CollKind,
    /// The root (0 for rootless collectives); for `sendRecv`, the destination.
    pub root: u32,
    /// Bytes this rank sends to each peer (bcast, reduce, allreduce, scan: the buffer).
    pub send: f64,
    /// Bytes this rank receives from each peer; for `sendRecv`, what it receives from `peer`.
    pub recv: f64,
    /// Computation after the collective, seconds on an unloaded node (reduce, allreduce,
    /// reducescatter, scan: the operator's flops).
    pub comp: f64,
    /// For `sendRecv`, the source.
    pub peer: u32,
    /// Per-rank byte counts of the `v` forms: gatherv and allgatherv the receive counts,
    /// scatterv the send counts, reducescatter the receive counts, alltoallv the send counts
    /// then the receive counts.
    pub counts: Vec<f64>,
    /// The numbers of a `v` form as written, read once the number of ranks is known.
    pub raw: Vec<f64>,
    /// Bytes of the rank's default datatype when the line was read.
    pub unit: f64,
    /// Flops per second the `raw` flop count is divided by (the reference rate).
    pub rate: f64,
}

/// An event and its origin: `file` (0 for a merged text, else the index in `trace.files`) and
/// `line` (from 1; 0 for generated events).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Event {
    pub op: Op,
    pub file: u32,
    pub line: u32,
}

/// Where the events came from, to name it in errors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// `trace.text`.
    Text,
    /// `trace.files[i]`.
    Files,
    /// `generate`.
    Generated,
}

/// A trace: `ranks[r]` is rank `r`'s events in program order.
#[derive(Debug, Clone, PartialEq)]
pub struct Trace {
    pub ranks: Vec<Vec<Event>>,
    /// The collective calls the events [`Op::Coll`] name, in the order they were read.
    pub colls: Vec<Coll>,
    pub origin: Origin,
}

impl Trace {
    /// An empty trace of `n` ranks.
    pub fn new(n: usize, origin: Origin) -> Self {
        Trace {
            ranks: vec![Vec::new(); n],
            colls: Vec::new(),
            origin,
        }
    }

    /// Appends `op` to rank `r`, merging it into a directly preceding compute when both are
    /// computes (so `events` counts merged computes once).
    pub fn push(&mut self, r: usize, op: Op, file: u32, line: u32) {
        let v = &mut self.ranks[r];
        if let (
            Op::Compute(d),
            Some(Event {
                op: Op::Compute(prev),
                ..
            }),
        ) = (op, v.last_mut())
        {
            *prev += d;
            return;
        }
        if let Op::Compute(d) = op {
            if d == 0.0 {
                return;
            }
        }
        v.push(Event { op, file, line });
    }

    /// The trace with every compute divided by `rate`: flop counts (a trace read with rate 1)
    /// into seconds at `rate` flops per second. Reading with rate 1 and dividing afterwards gives
    /// the same bits whoever reads the text, at whatever rate the scenario says later.
    pub fn divide_compute(&mut self, rate: f64) {
        for r in &mut self.ranks {
            for e in r.iter_mut() {
                if let Op::Compute(d) = &mut e.op {
                    *d /= rate;
                }
            }
        }
        for c in &mut self.colls {
            c.comp /= rate;
            c.rate *= rate;
        }
    }

    /// Appends a collective call of rank `r`.
    pub fn push_coll(&mut self, r: usize, c: Coll, file: u32, line: u32) {
        let i = self.colls.len() as u32;
        self.colls.push(c);
        self.ranks[r].push(Event {
            op: Op::Coll(i),
            file,
            line,
        });
    }

    /// Whether every event is a compute, a sleep or a blocking send or receive (the trace
    /// compiles without a lowered copy: [`super::limits::BYTES_PER_EVENT`]).
    pub fn blocking_only(&self) -> bool {
        self.ranks.iter().all(|r| {
            r.iter().all(|e| {
                matches!(
                    e.op,
                    Op::Compute(_) | Op::Sleep(_) | Op::Send { .. } | Op::Recv { .. }
                )
            })
        })
    }

    /// Peak bytes an event of this trace costs from reading to the report.
    pub fn bytes_per_event(&self) -> f64 {
        if self.blocking_only() {
            super::limits::BYTES_PER_EVENT
        } else {
            super::limits::BYTES_PER_EVENT_GENERAL
        }
    }

    /// Events of all ranks.
    pub fn events(&self) -> u64 {
        self.ranks.iter().map(|r| r.len() as u64).sum()
    }

    /// The JSON path (without `$.`) of the text an event came from.
    pub fn path_of(&self, file: u32) -> String {
        match self.origin {
            Origin::Text => "trace.text".into(),
            Origin::Files => format!("trace.files[{file}]"),
            Origin::Generated => "generate".into(),
        }
    }

    /// `line N: message` for an event, or the message alone for generated events.
    pub fn at_line(line: u32, message: impl Into<String>) -> String {
        let m = message.into();
        if line == 0 {
            m
        } else {
            format!("line {line}: {m}")
        }
    }
}

/// A parse error: the line (from 1) and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    pub line: u32,
    pub message: String,
}

impl ParseError {
    pub fn new(line: u32, message: impl Into<String>) -> Self {
        ParseError {
            line,
            message: message.into(),
        }
    }
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// The non-empty lines of a trace text as `(line number from 1, whitespace-separated fields)`;
/// with `comments`, whatever follows a `#` is left out first. Line numbers saturate at
/// `u32::MAX`. One reader of lines for every trace format, so they count lines alike.
pub fn records(text: &str, comments: bool) -> impl Iterator<Item = (u32, Vec<&str>)> {
    text.lines().enumerate().filter_map(move |(i, raw)| {
        let line = (i + 1).min(u32::MAX as usize) as u32;
        let body = if comments {
            raw.split('#').next().unwrap_or("")
        } else {
            raw
        };
        let f: Vec<&str> = body.split_whitespace().collect();
        (!f.is_empty()).then_some((line, f))
    })
}

/// Parses a whole number token, naming `what` in the error.
pub fn int_token(tok: &str, what: &str, line: u32) -> Result<i64, ParseError> {
    tok.parse::<i64>().map_err(|_| {
        let digits = tok.strip_prefix(['-', '+']).unwrap_or(tok);
        let message = if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
            // A whole number, only too long for any field of a trace.
            format!(
                "{what} is too large: {} has {} digits (at most {})",
                short(tok),
                digits.len(),
                i64::MAX
            )
        } else {
            format!("{what} must be a whole number, got {:?}", short(tok))
        };
        ParseError::new(line, message)
    })
}

/// Parses a rank or peer token: a whole number from 0 to `max - 1`.
pub fn rank_token(tok: &str, what: &str, max: u32, line: u32) -> Result<u32, ParseError> {
    let v = int_token(tok, what, line)?;
    if v < 0 || v >= max as i64 {
        return Err(ParseError::new(
            line,
            format!("{what} must be from 0 to {}, got {v}", max - 1),
        ));
    }
    Ok(v as u32)
}

/// Parses a finite number from 0 to `max`, naming `what`; negative values are refused with
/// their own message.
pub fn amount_token(tok: &str, what: &str, max: f64, line: u32) -> Result<f64, ParseError> {
    let v: f64 = tok.parse().map_err(|_| {
        ParseError::new(
            line,
            format!("{what} must be a number, got {:?}", short(tok)),
        )
    })?;
    if !v.is_finite() {
        return Err(ParseError::new(
            line,
            format!("{what} must be finite, got {:?}", short(tok)),
        ));
    }
    if v < 0.0 {
        return Err(ParseError::new(
            line,
            format!(
                "{what} must not be negative, got {}",
                crate::error::compact_number(v)
            ),
        ));
    }
    if v > max {
        return Err(ParseError::new(
            line,
            format!(
                "{what} must be at most {}, got {}",
                crate::error::compact_number(max),
                crate::error::compact_number(v)
            ),
        ));
    }
    Ok(v)
}

/// A token cut to 30 characters for messages.
pub fn short(tok: &str) -> String {
    if tok.chars().count() <= 30 {
        tok.to_string()
    } else {
        format!("{}…", tok.chars().take(30).collect::<String>())
    }
}
