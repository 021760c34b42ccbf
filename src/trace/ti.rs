//! SimGrid's time-independent traces (`smpirun -trace-ti`), one text per rank or merged.
//!
//! One action per line, `RANK ACTION ARGS...`, in program order per rank:
//!
//! | action | arguments | meaning |
//! |---|---|---|
//! | `compute` | `FLOPS` | computation, turned into seconds by the reference rate |
//! | `send` | `DST BYTES`, `DST TAG BYTES` or `DST TAG COUNT DATATYPE` | blocking send |
//! | `recv` | `SRC BYTES`, `SRC TAG BYTES` or `SRC TAG COUNT DATATYPE` | blocking receive |
//! | `init [ARG]`, `finalize`, `comm_size N` | | no effect on the replay |
//!
//! SimGrid 3.32 writes the last form, with `COUNT` elements of the datatype numbered as SMPI
//! encodes it ([`datatype_bytes`], measured with SMPI 3.32). The shorter forms count elements
//! of the default datatype, as SimGrid's replay reads them: bytes, or 8-byte doubles when the
//! rank's `init` line has an argument (SimGrid then takes the MPE convention, `MPI_DOUBLE`).
//! `RANK` is a whole number, optionally written `pN` or `rankN`. Tags are read and ignored:
//! messages match first-in first-out per ordered pair of ranks. Blank lines and `#` comments
//! are skipped. Any other action (collectives, non-blocking calls) is refused naming the line,
//! since only blocking point-to-point communication is modelled.
//!
//! # Complexity
//! `O(L)` for `L` lines.

use super::limits::{MAX_EVENTS, MAX_RANKS, MAX_VALUE};
use super::model::{
    amount_token, int_token, rank_token, records, short, Coll, CollKind, Op, Origin, ParseError,
    Trace,
};

/// Bytes of one element of an SMPI 3.32 datatype id as written in `-trace-ti` output
/// (0 double, 1 int, 2 char, 3 short, 4 long, 5 float, 6 byte, 7 long long, 8 signed char,
/// 9 unsigned char, 10 unsigned short, 11 unsigned, 12 unsigned long, 14 long double on
/// x86-64); None for ids not known.
pub fn datatype_bytes(id: i64) -> Option<f64> {
    Some(match id {
        0 | 4 | 7 | 12 => 8.0,
        1 | 5 | 11 => 4.0,
        2 | 6 | 8 | 9 => 1.0,
        3 | 10 => 2.0,
        14 => 16.0,
        _ => return None,
    })
}

/// Parses a rank token: `N`, `pN` or `rankN`.
fn rank_of(tok: &str, line: u32) -> Result<u32, ParseError> {
    let digits = tok
        .strip_prefix("rank")
        .or_else(|| tok.strip_prefix('p'))
        .unwrap_or(tok);
    rank_token(digits, "the rank", MAX_RANKS, line).map_err(|mut e| {
        e.message.push_str(alog_hint(digits));
        e
    })
}

/// MPE ALOG lines open with an event type (161/162, 155/156, -101/-102, headers -1 to -100)
/// where a time-independent line has its rank: the hint to append to an error on such a line
/// (empty otherwise). Event types 155 to 162 are valid ranks, so the line fails later, at its
/// action (the ALOG process id).
fn alog_hint(first: &str) -> &'static str {
    match first.parse::<i64>() {
        Ok(ty) if matches!(ty, 155 | 156 | 161 | 162 | -101 | -102) || (-100..=-1).contains(&ty) => {
            "; this looks like MPE ALOG text (event types 161/162, 155/156, -101/-102): give it with \"format\": \"alog\""
        }
        _ => "",
    }
}

/// Appends the actions of one text to `trace` (`file` is its index in `trace.files`, 0 for a
/// merged text); `rate` is the reference rate in flops per second.
///
/// # Errors
/// The first problem with its line.
pub fn parse_into(text: &str, file: u32, rate: f64, trace: &mut Trace) -> Result<(), ParseError> {
    TiParser::new(file, rate).lines(text, 0, trace)
}

/// One text of a trace read in pieces of whole lines ([`TiStream`] cuts a byte stream into
/// them): the state a text carries from line to line (each rank's default datatype, set by its
/// `init`) lives here.
#[derive(Debug, Clone)]
pub struct TiParser {
    /// Bytes of the default datatype per rank (set by the rank's `init`): what the forms
    /// without a datatype count.
    default_bytes: Vec<f64>,
    file: u32,
    rate: f64,
}

impl TiParser {
    /// A parser of text `file` (its index in `trace.files`) with reference rate `rate`.
    pub fn new(file: u32, rate: f64) -> TiParser {
        TiParser {
            default_bytes: Vec::new(),
            file,
            rate,
        }
    }

    /// Appends the actions of `text` (whole lines, the first being line `offset + 1` of the
    /// file) to `trace`.
    ///
    /// # Errors
    /// The first problem with its line in the file.
    pub fn lines(&mut self, text: &str, offset: u32, trace: &mut Trace) -> Result<(), ParseError> {
        self.lines_inner(text, offset, trace).map_err(|mut e| {
            e.line = e.line.saturating_add(offset);
            e
        })
    }

    fn lines_inner(
        &mut self,
        text: &str,
        offset: u32,
        trace: &mut Trace,
    ) -> Result<(), ParseError> {
        let (file, rate) = (self.file, self.rate);
        let default_bytes = &mut self.default_bytes;
        for (line, f) in records(text, true) {
            if f.len() < 2 {
                return Err(ParseError::new(
                    line,
                    format!("a line is `RANK ACTION ARGS`, got only {:?}", short(f[0])),
                ));
            }
            let rank = rank_of(f[0], line)? as usize;
            while trace.ranks.len() <= rank {
                trace.ranks.push(Vec::new());
            }
            let args = &f[2..];
            if default_bytes.len() <= rank {
                default_bytes.resize(rank + 1, 1.0);
            }
            let unit = default_bytes[rank];
            let op = match f[1] {
                "init" => {
                    default_bytes[rank] = if args.is_empty() { 1.0 } else { 8.0 };
                    Parsed::Nothing
                }
                "finalize" | "comm_split" | "comm_dup" | "location" | "test" => Parsed::Nothing,
                "comm_size" => {
                    if args.len() != 1 {
                        return Err(ParseError::new(line, "comm_size takes one number"));
                    }
                    int_token(args[0], "the communicator size", line)?;
                    Parsed::Nothing
                }
                "compute" => {
                    if args.len() != 1 {
                        return Err(ParseError::new(
                            line,
                            format!(
                                "compute takes one number (flops), got {} arguments",
                                args.len()
                            ),
                        ));
                    }
                    let flops = amount_token(args[0], "the flop count", MAX_VALUE, line)?;
                    Parsed::Op(Op::Compute(flops / rate))
                }
                "sleep" => {
                    if args.len() != 1 {
                        return Err(ParseError::new(line, "sleep takes one number (seconds)"));
                    }
                    Parsed::Op(Op::Sleep(amount_token(
                        args[0],
                        "the sleep time",
                        MAX_VALUE,
                        line,
                    )?))
                }
                a @ ("send" | "recv" | "isend" | "irecv") => {
                    let peer = match args.first() {
                        Some(t) => rank_of(t, line)?,
                        None => {
                            return Err(ParseError::new(
                                line,
                                format!("{a} needs the peer rank and the size"),
                            ))
                        }
                    };
                    if peer as usize == rank {
                        return Err(ParseError::new(
                            line,
                            format!("rank {rank} sends to or receives from itself"),
                        ));
                    }
                    let what = if unit == 1.0 {
                        "the size in bytes"
                    } else {
                        "the element count (doubles: the init line has an argument)"
                    };
                    let (tag, bytes) = match args.len() {
                        2 => (0, amount_token(args[1], what, MAX_VALUE / unit, line)? * unit),
                        3 => (
                            tag_token(args[1], line)?,
                            amount_token(args[2], what, MAX_VALUE / unit, line)? * unit,
                        ),
                        4 => (
                            tag_token(args[1], line)?,
                            sized(args[2], Some(args[3]), unit, line)?,
                        ),
                        n => {
                            return Err(ParseError::new(
                                line,
                                format!(
                                    "{a} takes PEER BYTES, PEER TAG BYTES or PEER TAG COUNT DATATYPE, got {n} arguments"
                                ),
                            ))
                        }
                    };
                    Parsed::Op(match a {
                        "send" => Op::Send { peer, tag, bytes },
                        "recv" => Op::Recv { peer, tag, bytes },
                        "isend" => Op::Isend { peer, tag, bytes },
                        _ => Op::Irecv { peer, tag, bytes },
                    })
                }
                "wait" => {
                    if args.len() != 3 {
                        return Err(ParseError::new(
                            line,
                            format!("wait takes SRC DST TAG (the request's ranks and tag), got {} arguments", args.len()),
                        ));
                    }
                    Parsed::Op(Op::Wait {
                        src: rank_of(args[0], line)?,
                        dst: rank_of(args[1], line)?,
                        tag: tag_token(args[2], line)?,
                    })
                }
                "waitall" => {
                    if args.len() > 1 {
                        return Err(ParseError::new(
                            line,
                            "waitall takes at most one number (the request count)",
                        ));
                    }
                    Parsed::Op(Op::WaitAll)
                }
                "sendRecv" | "sendrecv" => {
                    if !(4..=6).contains(&args.len()) {
                        return Err(ParseError::new(
                            line,
                            format!("sendRecv takes SENDCOUNT DST RECVCOUNT SRC [DATATYPE1 DATATYPE2], got {} arguments", args.len()),
                        ));
                    }
                    let (dst, src) = (rank_of(args[1], line)?, rank_of(args[3], line)?);
                    if dst as usize == rank || src as usize == rank {
                        return Err(ParseError::new(
                            line,
                            format!("rank {rank} sends to or receives from itself"),
                        ));
                    }
                    Parsed::Coll(Coll {
                        kind: CollKind::SendRecv,
                        root: dst,
                        peer: src,
                        send: sized(args[0], args.get(4).copied(), unit, line)?,
                        recv: sized(args[2], args.get(5).copied(), unit, line)?,
                        comp: 0.0,
                        counts: Vec::new(),
                        raw: Vec::new(),
                        unit,
                        rate,
                    })
                }
                name => match collective(name) {
                    Some(kind) => Parsed::Coll(parse_collective(kind, args, unit, rate, line)?),
                    None => {
                        // an ALOG line: its event type read as the rank, its process as the action
                        let hint = if name.parse::<i64>().is_ok() {
                            alog_hint(f[0])
                        } else {
                            ""
                        };
                        return Err(ParseError::new(
                            line,
                            format!(
                                "action {:?} is not a SimGrid time-independent action (init, finalize, compute, sleep, send, recv, isend, irecv, test, wait, waitall, sendRecv, barrier, bcast, reduce, allreduce, alltoall, alltoallv, gather, gatherv, allgather, allgatherv, scatter, scatterv, reducescatter, scan, exscan, comm_size, comm_split, comm_dup, location){hint}",
                                short(name)
                            ),
                        ));
                    }
                },
            };
            let at = line.saturating_add(offset);
            match op {
                Parsed::Nothing => continue,
                Parsed::Op(op) => trace.push(rank, op, file, at),
                Parsed::Coll(c) => trace.push_coll(rank, c, file, at),
            }
            if trace.ranks[rank].len() as u64 > MAX_EVENTS {
                return Err(ParseError::new(
                    line,
                    format!("more than {MAX_EVENTS} events"),
                ));
            }
        }
        Ok(())
    }
}

/// What one line gives.
enum Parsed {
    Nothing,
    Op(Op),
    Coll(Coll),
}

/// A tag: a 32-bit whole number, as MPI's.
fn tag_token(tok: &str, line: u32) -> Result<i32, ParseError> {
    let v = int_token(tok, "the tag", line)?;
    i32::try_from(v).map_err(|_| {
        ParseError::new(
            line,
            format!("the tag must be a 32-bit whole number, got {v}"),
        )
    })
}

/// Bytes of `count` elements of datatype `dt` (an SMPI datatype id), or of the default
/// datatype (`unit` bytes) when absent.
fn sized(count: &str, dt: Option<&str>, unit: f64, line: u32) -> Result<f64, ParseError> {
    let b = match dt {
        None => unit,
        Some(t) => {
            let id = int_token(t, "the datatype", line)?;
            datatype_bytes(id).ok_or_else(|| {
                ParseError::new(
                    line,
                    format!("unknown SMPI datatype id {id} (known: 0 to 12 and 14)"),
                )
            })?
        }
    };
    let n = amount_token(count, "the element count", MAX_VALUE / b, line)?;
    Ok(n * b)
}

/// The collective an action names.
fn collective(name: &str) -> Option<CollKind> {
    Some(match name {
        "barrier" => CollKind::Barrier,
        "bcast" => CollKind::Bcast,
        "reduce" => CollKind::Reduce,
        "allreduce" => CollKind::Allreduce,
        "alltoall" => CollKind::Alltoall,
        "alltoallv" => CollKind::Alltoallv,
        "gather" => CollKind::Gather,
        "gatherv" => CollKind::Gatherv,
        "allgather" => CollKind::Allgather,
        "allgatherv" => CollKind::Allgatherv,
        "scatter" => CollKind::Scatter,
        "scatterv" => CollKind::Scatterv,
        "reducescatter" => CollKind::ReduceScatter,
        "scan" => CollKind::Scan,
        "exscan" => CollKind::Exscan,
        _ => return None,
    })
}

/// A collective's arguments, as SimGrid 3.32's replay reads them (sizes are element counts of
/// the datatype given, else of the rank's default datatype). The `v` forms, whose argument
/// count depends on the number of ranks, keep their numbers in `raw` and are read when the
/// trace is compiled ([`super::collectives::resolve`]).
fn parse_collective(
    kind: CollKind,
    args: &[&str],
    unit: f64,
    rate: f64,
    line: u32,
) -> Result<Coll, ParseError> {
    let mut c = Coll {
        kind,
        root: 0,
        send: 0.0,
        recv: 0.0,
        comp: 0.0,
        peer: 0,
        counts: Vec::new(),
        raw: Vec::new(),
        unit,
        rate,
    };
    let name = kind.name();
    let arity = |lo: usize, hi: usize, form: &str| {
        if args.len() < lo || args.len() > hi {
            Err(ParseError::new(
                line,
                format!("{name} takes {form}, got {} arguments", args.len()),
            ))
        } else {
            Ok(())
        }
    };
    let root =
        |i: usize| -> Result<u32, ParseError> { args.get(i).map_or(Ok(0), |t| rank_of(t, line)) };
    match kind {
        CollKind::Barrier => arity(0, 0, "no argument")?,
        CollKind::Bcast => {
            arity(1, 3, "SIZE [ROOT [DATATYPE]]")?;
            c.send = sized(args[0], args.get(2).copied(), unit, line)?;
            c.root = root(1)?;
        }
        CollKind::Reduce | CollKind::Allreduce | CollKind::Scan | CollKind::Exscan => {
            if kind == CollKind::Reduce {
                arity(2, 4, "COUNT FLOPS [ROOT [DATATYPE]]")?;
                c.root = root(2)?;
                c.send = sized(args[0], args.get(3).copied(), unit, line)?;
            } else {
                arity(2, 3, "COUNT FLOPS [DATATYPE]")?;
                c.send = sized(args[0], args.get(2).copied(), unit, line)?;
            }
            c.comp = amount_token(args[1], "the flop count", MAX_VALUE, line)? / rate;
        }
        CollKind::Alltoall | CollKind::Allgather => {
            arity(2, 4, "SENDCOUNT RECVCOUNT [DATATYPE1 [DATATYPE2]]")?;
            c.send = sized(args[0], args.get(2).copied(), unit, line)?;
            c.recv = sized(args[1], args.get(3).copied(), unit, line)?;
        }
        CollKind::Gather | CollKind::Scatter => {
            arity(2, 5, "SENDCOUNT RECVCOUNT [ROOT [DATATYPE1 [DATATYPE2]]]")?;
            c.root = root(2)?;
            c.send = sized(args[0], args.get(3).copied(), unit, line)?;
            c.recv = sized(args[1], args.get(4).copied(), unit, line)?;
        }
        _ => {
            if args.is_empty() {
                return Err(ParseError::new(line, format!("{name} needs its counts")));
            }
            for t in args {
                c.raw.push(amount_token(t, "a count", MAX_VALUE, line)?);
            }
        }
    }
    Ok(c)
}

/// Longest line a [`TiStream`] reads, in bytes.
pub const MAX_LINE: usize = 64 << 10;

/// One text of a trace fed as bytes in chunks of any size (a rank's file read from disk or from
/// a browser file), cut into whole lines for its [`TiParser`]: memory is the trace's compact
/// form ([`Trace`]'s events) plus one chunk, whatever the file's size. Chunk boundaries never
/// change the result.
#[derive(Debug)]
pub struct TiStream {
    parser: TiParser,
    /// The current, unfinished line.
    carry: crate::formats::lines::Carry,
    /// Lines read so far.
    lines: u32,
}

impl TiStream {
    /// A stream of text `file` with reference rate `rate` ([`TiParser::new`]).
    pub fn new(file: u32, rate: f64) -> TiStream {
        TiStream {
            parser: TiParser::new(file, rate),
            carry: Default::default(),
            lines: 0,
        }
    }

    /// Feeds the next `chunk`; its whole lines go into `trace`.
    ///
    /// # Errors
    /// The first bad line; bytes that are not text; a line over [`MAX_LINE`] bytes.
    pub fn push(&mut self, chunk: &[u8], trace: &mut Trace) -> Result<(), ParseError> {
        let mut carry = std::mem::take(&mut self.carry);
        let r = carry.push(chunk, MAX_LINE, |lines| self.text(lines, trace));
        self.carry = carry;
        r.map_err(|e| {
            e.unwrap_or_else(|| {
                ParseError::new(
                    self.lines.saturating_add(1),
                    format!("longer than {MAX_LINE} bytes (is this a time-independent trace?)"),
                )
            })
        })
    }

    /// The last line (without a final newline) into `trace`.
    ///
    /// # Errors
    /// As [`TiStream::push`].
    pub fn finish(mut self, trace: &mut Trace) -> Result<(), ParseError> {
        let rest = std::mem::take(&mut self.carry).finish();
        self.text(&rest, trace)
    }

    fn text(&mut self, bytes: &[u8], trace: &mut Trace) -> Result<(), ParseError> {
        let text = std::str::from_utf8(bytes).map_err(|e| {
            let line = bytes[..e.valid_up_to()]
                .iter()
                .filter(|&&b| b == b'\n')
                .count();
            ParseError::new(
                self.lines.saturating_add(line as u32 + 1),
                "not text (a time-independent trace is plain ASCII)",
            )
        })?;
        self.parser.lines(text, self.lines, trace)?;
        let n = bytes.iter().filter(|&&b| b == b'\n').count();
        self.lines = self.lines.saturating_add(n as u32);
        // a trace over the engine's limit is refused while it is read, not once it is all in memory
        if trace.events() > MAX_EVENTS {
            return Err(ParseError::new(
                self.lines,
                format!("the trace passes {MAX_EVENTS} events, the limit; reading stopped here"),
            ));
        }
        Ok(())
    }
}

/// The rank files an SMPI `-trace-ti` index names, one path per line (blank lines skipped), in
/// its order.
pub fn index_files(text: &str) -> Vec<String> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

/// Parses one merged text.
///
/// # Errors
/// See [`parse_into`].
pub fn parse(text: &str, rate: f64) -> Result<Trace, ParseError> {
    let mut t = Trace::new(0, Origin::Text);
    parse_into(text, 0, rate, &mut t)?;
    Ok(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smpi_lines_are_read_with_datatype_sizes() {
        let t = parse(
            "0 init\n0 compute 2e9\n0 send 1 7 100 0\n1 init\n1 recv 0 7 100 0\n1 finalize\n0 finalize\n",
            1e9,
        )
        .unwrap();
        assert_eq!(t.ranks[0].len(), 2);
        assert_eq!(t.ranks[0][0].op, Op::Compute(2.0));
        assert_eq!(
            t.ranks[0][1].op,
            Op::Send {
                tag: 7,
                peer: 1,
                bytes: 800.0
            }
        );
        assert_eq!(
            t.ranks[1][0].op,
            Op::Recv {
                tag: 7,
                peer: 0,
                bytes: 800.0
            }
        );
        let t = parse("p0 send 1 64\nrank1 recv 0 3 64\n", 1.0).unwrap();
        assert_eq!(
            t.ranks[1][0].op,
            Op::Recv {
                tag: 3,
                peer: 0,
                bytes: 64.0
            }
        );
    }

    #[test]
    fn unsupported_actions_name_their_line() {
        let e = parse("0 init\n0 ibarrier\n", 1.0).unwrap_err();
        assert_eq!(e.line, 2);
        assert!(
            e.message
                .contains("\"ibarrier\" is not a SimGrid time-independent action"),
            "{e}"
        );
        let e = parse("0 init\n0 wait 1 0\n", 1.0).unwrap_err();
        assert!(e.message.contains("wait takes SRC DST TAG"), "{e}");
        let e = parse("0 bcast\n", 1.0).unwrap_err();
        assert!(
            e.message.contains("bcast takes SIZE [ROOT [DATATYPE]]"),
            "{e}"
        );
        let e = parse("0 isend 1 99999999999 8\n", 1.0).unwrap_err();
        assert!(e.message.contains("32-bit"), "{e}");
        assert_eq!(parse("0 compute -1\n", 1.0).unwrap_err().line, 1);
        assert!(parse("0 send 1 1 1 13\n", 1.0)
            .unwrap_err()
            .message
            .contains("datatype"));
    }
}
