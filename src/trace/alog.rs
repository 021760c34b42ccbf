//! MPE ALOG text, the source's trace format (its table 1).
//!
//! Each line is `type process task data cycle timestamp [comment]`: `type` the event, `process`
//! the rank, `timestamp` in microseconds. Lines of types -1 to -100 are header records and are
//! skipped. The events read:
//!
//! | type | meaning | fields used |
//! |---|---|---|
//! | 161 / 162 | `MPI_Send` begins / ends | rank, timestamp (the line's last field) |
//! | 155 / 156 | `MPI_Recv` begins / ends | rank, timestamp (the line's last field) |
//! | -101 | a message leaves, inside a send | rank, `data` = destination, timestamp, `tag size` (the last two fields) |
//! | -102 | a message arrives, inside a receive | rank, `data` = source, timestamp, `tag size` |
//!
//! The timestamp is the last field of a call line and the third from last of a message line:
//! MPE versions differ in the fields between `data` and the timestamp (the source's table 1
//! shows an extra one on some lines), so only the position from the end is relied on. Sizes
//! are bytes as MPE logs them (`count x sizeof(type)`): table 1's `7992` is a row of 999 doubles,
//! which the source's text calls "999". The time between two calls of a rank is computation; the
//! first call's start is measured from the earliest timestamp of the log (every rank starts
//! together); nothing after a rank's last call is known, so no computation is added there.
//! Any other event type is refused naming its line (only blocking send and receive are
//! modelled).
//!
//! # Complexity
//! `O(L)` for `L` lines.

use super::limits::{MAX_EVENTS, MAX_RANKS, MAX_VALUE};
use super::model::{int_token, rank_token, records, Op, Origin, ParseError, Trace};

#[derive(Clone, Copy, PartialEq)]
enum State {
    /// Between calls.
    Idle,
    /// Inside `MPI_Send` begun at `line`; `msg` once the -101 line was seen.
    Send { line: u32, msg: Option<(u32, f64)> },
    /// Inside `MPI_Recv`.
    Recv { line: u32, msg: Option<(u32, f64)> },
}

struct RankState {
    state: State,
    /// Time of the last call's end (or of the origin), microseconds: compute runs from it to
    /// the next call's begin.
    last: i64,
    /// Time of the rank's latest event of any kind, microseconds.
    seen: i64,
}

/// Parses ALOG text into a trace (compute in seconds).
///
/// # Errors
/// The first problem with its line: an unknown event type, a malformed or negative field, a
/// call ending without beginning, a message outside a call, time going backwards on a rank,
/// a call never ended, more than `MAX_EVENTS` events.
pub fn parse(text: &str) -> Result<Trace, ParseError> {
    // First pass: the origin (earliest timestamp of an event).
    let mut origin: Option<i64> = None;
    for (line, f) in records(text, false) {
        let ty = int_token(f[0], "the event type", line)?;
        if (-100..=-1).contains(&ty) {
            continue;
        }
        let ts_at = match ty {
            155 | 156 | 161 | 162 => {
                if f.len() < 6 {
                    return Err(ParseError::new(
                        line,
                        format!(
                            "event {ty} needs 6 fields (type process task data cycle timestamp), got {}",
                            f.len()
                        ),
                    ));
                }
                f.len() - 1
            }
            -101 | -102 => {
                if f.len() < 8 {
                    return Err(ParseError::new(
                        line,
                        format!(
                            "message event {ty} needs 8 fields (type process task data cycle timestamp tag size), got {}",
                            f.len()
                        ),
                    ));
                }
                f.len() - 3
            }
            _ => {
                return Err(ParseError::new(
                    line,
                    format!(
                        "unknown event type {ty}: this engine reads 161/162 (MPI_Send), 155/156 (MPI_Recv), -101/-102 (message leaves/arrives) and header lines -1 to -100"
                    ),
                ))
            }
        };
        let ts = int_token(f[ts_at], "the timestamp", line)?;
        if ts < 0 {
            return Err(ParseError::new(
                line,
                format!("negative time {ts} (timestamps are microseconds from the start)"),
            ));
        }
        if ts as f64 > MAX_VALUE {
            return Err(ParseError::new(
                line,
                format!("timestamp {ts} is too large"),
            ));
        }
        origin = Some(origin.map_or(ts, |o: i64| o.min(ts)));
    }
    let origin = origin.unwrap_or(0);
    let mut trace = Trace::new(0, Origin::Text);
    let mut st: Vec<RankState> = Vec::new();
    // Second pass: the events (every line was checked by the first pass; headers skipped).
    for (line, f) in records(text, false) {
        let ty = int_token(f[0], "the event type", line)?;
        if (-100..=-1).contains(&ty) {
            continue;
        }
        let rank = rank_token(f[1], "the process (rank)", MAX_RANKS, line)? as usize;
        while st.len() <= rank {
            st.push(RankState {
                state: State::Idle,
                last: origin,
                seen: origin,
            });
            trace.ranks.push(Vec::new());
        }
        let ts_at = if ty < 0 { f.len() - 3 } else { f.len() - 1 };
        let ts = int_token(f[ts_at], "the timestamp", line)?;
        let s = &mut st[rank];
        // Every event of a rank, a call's begin and its message lines included, is at or after
        // the rank's previous event: a call cannot end before it begins.
        if ts < s.seen {
            return Err(ParseError::new(
                line,
                format!(
                    "time goes backwards on rank {rank}: {ts} us after {} us",
                    s.seen
                ),
            ));
        }
        s.seen = ts;
        match (ty, s.state) {
            (161, State::Idle) | (155, State::Idle) => {
                let gap = (ts - s.last) as f64 * 1e-6;
                trace.push(rank, Op::Compute(gap), 0, line);
                s.state = if ty == 161 {
                    State::Send { line, msg: None }
                } else {
                    State::Recv { line, msg: None }
                };
            }
            (161, _) | (155, _) => {
                return Err(ParseError::new(
                    line,
                    format!("rank {rank} begins a call while its call begun earlier has not ended (only blocking calls, one at a time)"),
                ))
            }
            (-101, State::Send { line: l0, msg: None }) | (-102, State::Recv { line: l0, msg: None }) => {
                let peer = rank_token(f[3], "the peer rank (data field)", MAX_RANKS, line)?;
                let size = int_token(f[f.len() - 1], "the message size", line)?;
                if size < 0 {
                    return Err(ParseError::new(
                        line,
                        format!("negative message size {size}"),
                    ));
                }
                if size as f64 > MAX_VALUE {
                    return Err(ParseError::new(
                        line,
                        format!(
                            "the message size must be at most {} bytes, got {size}",
                            crate::error::compact_number(MAX_VALUE)
                        ),
                    ));
                }
                let msg = Some((peer, size as f64));
                s.state = if ty == -101 {
                    State::Send { line: l0, msg }
                } else {
                    State::Recv { line: l0, msg }
                };
            }
            (-101, _) => {
                return Err(ParseError::new(
                    line,
                    format!("message leaves rank {rank} outside an MPI_Send (161 ... -101 ... 162), or twice in one send"),
                ))
            }
            (-102, _) => {
                return Err(ParseError::new(
                    line,
                    format!("message arrives at rank {rank} outside an MPI_Recv (155 ... -102 ... 156), or twice in one receive"),
                ))
            }
            (162, State::Send { msg, .. }) | (156, State::Recv { msg, .. }) => {
                let Some((peer, bytes)) = msg else {
                    let what = if ty == 162 { "MPI_Send has no -101" } else { "MPI_Recv has no -102" };
                    return Err(ParseError::new(
                        line,
                        format!("the {what} message line between its begin and end on rank {rank}"),
                    ));
                };
                if peer as usize == rank {
                    return Err(ParseError::new(
                        line,
                        format!("rank {rank} sends to or receives from itself"),
                    ));
                }
                let op = if ty == 162 {
                    Op::Send { peer, tag: 0, bytes }
                } else {
                    Op::Recv { peer, tag: 0, bytes }
                };
                let l0 = match s.state {
                    State::Send { line, .. } | State::Recv { line, .. } => line,
                    State::Idle => line,
                };
                trace.push(rank, op, 0, l0);
                s.state = State::Idle;
                s.last = ts;
            }
            (162, _) => {
                return Err(ParseError::new(
                    line,
                    format!("MPI_Send ends (162) on rank {rank} without having begun (161)"),
                ))
            }
            (_, _) => {
                return Err(ParseError::new(
                    line,
                    format!("MPI_Recv ends (156) on rank {rank} without having begun (155)"),
                ))
            }
        }
        if trace.ranks[rank].len() as u64 > MAX_EVENTS {
            return Err(ParseError::new(
                line,
                format!("more than {MAX_EVENTS} events"),
            ));
        }
    }
    for (r, s) in st.iter().enumerate() {
        match s.state {
            State::Idle => {}
            State::Send { line, .. } => {
                return Err(ParseError::new(
                    line,
                    format!("the MPI_Send begun here on rank {r} never ends (no 162)"),
                ))
            }
            State::Recv { line, .. } => {
                return Err(ParseError::new(
                    line,
                    format!("the MPI_Recv begun here on rank {r} never ends (no 156)"),
                ))
            }
        }
    }
    if trace.events() > MAX_EVENTS {
        return Err(ParseError::new(0, format!("more than {MAX_EVENTS} events")));
    }
    if trace.ranks.is_empty() {
        return Err(ParseError::new(
            0,
            "no events: the log has no send or receive",
        ));
    }
    Ok(trace)
}

/// The six lines of the source's table 1 (two ranks, one 7992-byte message from rank 0 to 1).
pub const TABLE1: &str = "155 1 0 1 0 1189\n161 0 0 1 0 1335\n-101 0 0 1 0 1 1395 0 7992\n162 0 0 2 0 1 1575\n-102 1 0 0 0 1 2158 0 7992\n156 1 0 2 0 1 2198\n";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::model::Event;

    #[test]
    fn table1_gives_one_message_and_the_gap_before_the_send() {
        let t = parse(TABLE1).unwrap();
        assert_eq!(t.ranks.len(), 2);
        // rank 0: 146 us of compute (1335 - 1189), then the send
        assert_eq!(t.ranks[0].len(), 2);
        match t.ranks[0][0].op {
            Op::Compute(d) => assert!((d - 146e-6).abs() < 1e-12),
            _ => panic!(),
        }
        assert_eq!(
            t.ranks[0][1],
            Event {
                op: Op::Send {
                    tag: 0,
                    peer: 1,
                    bytes: 7992.0
                },
                file: 0,
                line: 2
            }
        );
        assert_eq!(
            t.ranks[1],
            vec![Event {
                op: Op::Recv {
                    tag: 0,
                    peer: 0,
                    bytes: 7992.0
                },
                file: 0,
                line: 1
            }]
        );
    }

    #[test]
    fn errors_name_the_line() {
        let e = parse("155 1 0 1 0 10\n999 0 0 0 0 5\n").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.message.contains("unknown event type 999"));
        assert_eq!(parse("161 0 0 1 0 -5\n").unwrap_err().line, 1);
        assert!(parse("161 0 0 1 0 -5\n")
            .unwrap_err()
            .message
            .contains("negative time"));
        assert_eq!(parse("162 0 0 1 0 5\n").unwrap_err().line, 1);
        let e = parse("161 0 0 1 0 5\n").unwrap_err();
        assert!(e.message.contains("never ends"), "{e}");
        let e = parse("161 0 0 1 0 5\n162 0 0 1 0 6\n").unwrap_err();
        assert!(e.message.contains("no -101"), "{e}");
    }
}
