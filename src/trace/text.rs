//! Our own plain text trace format: one event per line, in program order per rank.
//!
//! ```text
//! # comments start with '#'; blank lines are skipped
//! ranks 4                 # optional: the rank count (ranks without events included)
//! 0 compute 0.0125        # rank 0 computes 12.5 ms (seconds on an unloaded node)
//! 0 send 1 8000           # rank 0 sends 8000 bytes to rank 1 (blocking MPI_Send)
//! 1 recv 0 8000           # rank 1 receives them (blocking MPI_Recv)
//! ```
//!
//! Lines of different ranks may interleave in any way; only the order within a rank matters.
//! Messages match first-in first-out per ordered pair of ranks.
//!
//! # Complexity
//! `O(L)` for `L` lines.

use super::limits::{MAX_EVENTS, MAX_RANKS, MAX_VALUE};
use super::model::{amount_token, rank_token, records, short, Op, Origin, ParseError, Trace};

/// Parses text in our format.
///
/// # Errors
/// The first problem with its line.
pub fn parse(text: &str) -> Result<Trace, ParseError> {
    let mut t = Trace::new(0, Origin::Text);
    for (line, f) in records(text, true) {
        if f[0] == "ranks" {
            if f.len() != 2 {
                return Err(ParseError::new(line, "write `ranks N`"));
            }
            let n = rank_token(f[1], "the rank count", MAX_RANKS + 1, line)? as usize;
            if n < t.ranks.len() {
                return Err(ParseError::new(
                    line,
                    format!("`ranks {n}` but rank {} has events", t.ranks.len() - 1),
                ));
            }
            t.ranks.resize(n, Vec::new());
            continue;
        }
        let rank = rank_token(f[0], "the rank", MAX_RANKS, line)? as usize;
        if t.ranks.len() <= rank {
            t.ranks.resize(rank + 1, Vec::new());
        }
        let op = match (f.get(1).copied(), f.len()) {
            (Some("compute"), 3) => Op::Compute(amount_token(f[2], "the compute time (seconds)", MAX_VALUE, line)?),
            (Some(a @ ("send" | "recv")), 4) => {
                let peer = rank_token(f[2], "the peer rank", MAX_RANKS, line)?;
                if peer as usize == rank {
                    return Err(ParseError::new(
                        line,
                        format!("rank {rank} sends to or receives from itself"),
                    ));
                }
                let bytes = amount_token(f[3], "the size in bytes", MAX_VALUE, line)?;
                if a == "send" {
                    Op::Send { peer, tag: 0, bytes }
                } else {
                    Op::Recv { peer, tag: 0, bytes }
                }
            }
            (Some(a @ ("compute" | "send" | "recv")), n) => {
                return Err(ParseError::new(
                    line,
                    format!(
                        "{a} takes {}, got {} arguments",
                        if a == "compute" { "SECONDS" } else { "PEER BYTES" },
                        n - 2
                    ),
                ))
            }
            (Some(other), _) => {
                return Err(ParseError::new(
                    line,
                    format!(
                        "unknown event {:?}: write `RANK compute SECONDS`, `RANK send DST BYTES` or `RANK recv SRC BYTES`",
                        short(other)
                    ),
                ))
            }
            (None, _) => {
                return Err(ParseError::new(line, "a rank alone: write `RANK EVENT ARGS`"))
            }
        };
        t.push(rank, op, 0, line);
        if t.ranks[rank].len() as u64 > MAX_EVENTS {
            return Err(ParseError::new(
                line,
                format!("more than {MAX_EVENTS} events"),
            ));
        }
    }
    Ok(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_events_and_the_rank_count() {
        let t =
            parse("ranks 3\n0 compute 0.5 # half a second\n0 send 1 8\n\n1 recv 0 8\n").unwrap();
        assert_eq!(t.ranks.len(), 3);
        assert_eq!(t.ranks[0][0].op, Op::Compute(0.5));
        assert_eq!(t.ranks[1][0].line, 5);
    }

    #[test]
    fn errors_name_the_line() {
        assert_eq!(parse("0 compute 1\n0 jump 1\n").unwrap_err().line, 2);
        assert!(parse("0 compute -1\n")
            .unwrap_err()
            .message
            .contains("negative"));
        assert_eq!(parse("0 send 0 5\n").unwrap_err().line, 1);
    }
}
