//! The request syntax of the source's TORQUE/Maui extension: one job per line, one
//! `-L nodes=N@ppn=P@weight=W@walltime=HH:MM:SS` request per admissible variant, e.g.
//!
//! ```text
//! # job 1: rigid; job 2: two variants
//! -L nodes=4@ppn=8@walltime=01:00:00
//! -L nodes=2@ppn=8@weight=1@walltime=02:00:00 -L nodes=8@ppn=8@weight=0.8@walltime=00:35:00
//! ```
//!
//! A variant has `ranks = nodes x ppn` and `time` = the walltime in seconds. `nodes` and `ppn`
//! default to 1, `weight` to 1; `walltime` is required, written `[[[DD:]HH:]MM:]SS` as TORQUE
//! does. Spaces may surround `=` and `@` (the source writes `nodes = value @ ppn = value`).
//! `#` starts a comment; blank lines are skipped. Errors name the line and column (from 1).
//!
//! # Complexity
//! `O(length of the text)`.

use super::model::{Job, Variant};
use std::fmt;

/// A syntax error at a line and column (both from 1, columns in characters).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TorqueError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl fmt::Display for TorqueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {}: {}",
            self.line, self.column, self.message
        )
    }
}

struct Cursor<'a> {
    chars: Vec<char>,
    pos: usize,
    line: usize,
    _text: &'a str,
}

impl Cursor<'_> {
    fn err(&self, at: usize, message: impl Into<String>) -> TorqueError {
        TorqueError {
            line: self.line,
            column: at + 1,
            message: message.into(),
        }
    }
    fn skip_spaces(&mut self) {
        while self.pos < self.chars.len() && self.chars[self.pos].is_whitespace() {
            self.pos += 1;
        }
    }
    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }
    fn word(&mut self) -> (usize, String) {
        let start = self.pos;
        while self.pos < self.chars.len() {
            let c = self.chars[self.pos];
            if c.is_whitespace() || c == '=' || c == '@' || c == '#' {
                break;
            }
            self.pos += 1;
        }
        (start, self.chars[start..self.pos].iter().collect())
    }
}

/// Parses request text into jobs (named `L<line>`), at most `max_jobs`.
///
/// # Errors
/// The first syntax error, with its line and column.
pub fn parse(text: &str, max_jobs: usize) -> Result<Vec<Job>, TorqueError> {
    let mut jobs = Vec::new();
    for (li, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("");
        let mut c = Cursor {
            chars: line.chars().collect(),
            pos: 0,
            line: li + 1,
            _text: raw,
        };
        c.skip_spaces();
        if c.peek().is_none() {
            continue;
        }
        if jobs.len() >= max_jobs {
            return Err(c.err(c.pos, format!("more than {max_jobs} jobs")));
        }
        let mut variants = Vec::new();
        while c.peek().is_some() {
            let (at, flag) = c.word();
            if flag != "-L" {
                return Err(c.err(at, format!("expected -L before a request, found {flag:?}")));
            }
            c.skip_spaces();
            variants.push(request(&mut c)?);
            c.skip_spaces();
        }
        if variants.len() > super::limits::MAX_VARIANTS {
            return Err(c.err(
                0,
                format!("at most {} variants per job", super::limits::MAX_VARIANTS),
            ));
        }
        jobs.push(Job {
            name: format!("L{}", li + 1),
            variants,
            release: 0.0,
        });
    }
    Ok(jobs)
}

/// One `key=value@key=value...` request.
fn request(c: &mut Cursor) -> Result<Variant, TorqueError> {
    let begin = c.pos;
    let (mut nodes, mut ppn, mut weight, mut walltime) = (None, None, None, None);
    loop {
        c.skip_spaces();
        let (kat, key) = c.word();
        if key.is_empty() {
            return Err(c.err(kat, "expected a key (nodes, ppn, weight or walltime)"));
        }
        c.skip_spaces();
        if c.peek() != Some('=') {
            return Err(c.err(c.pos, format!("expected = after {key}")));
        }
        c.pos += 1;
        c.skip_spaces();
        let (vat, value) = c.word();
        if value.is_empty() {
            return Err(c.err(vat, format!("{key} needs a value")));
        }
        let slot_taken = |s: &Option<_>| s.is_some();
        match key.as_str() {
            "nodes" | "ppn" => {
                let v: u32 = value.parse().ok().filter(|&v| v >= 1).ok_or_else(|| {
                    c.err(
                        vat,
                        format!("{key} must be a whole number from 1, got {value:?}"),
                    )
                })?;
                let slot = if key == "nodes" { &mut nodes } else { &mut ppn };
                if slot_taken(slot) {
                    return Err(c.err(kat, format!("{key} given twice")));
                }
                *slot = Some(v);
            }
            "weight" => {
                let v: f64 = value
                    .parse()
                    .ok()
                    .filter(|v: &f64| v.is_finite() && *v >= 0.0)
                    .ok_or_else(|| {
                        c.err(
                            vat,
                            format!("weight must be a number from 0, got {value:?}"),
                        )
                    })?;
                if weight.is_some() {
                    return Err(c.err(kat, "weight given twice"));
                }
                weight = Some(v);
            }
            "walltime" => {
                let v = walltime_seconds(&value).ok_or_else(|| {
                    c.err(vat, format!("walltime is [[[DD:]HH:]MM:]SS, got {value:?}"))
                })?;
                if walltime.is_some() {
                    return Err(c.err(kat, "walltime given twice"));
                }
                walltime = Some(v);
            }
            _ => {
                return Err(c.err(
                    kat,
                    format!("unknown key {key:?}; nodes, ppn, weight or walltime"),
                ))
            }
        }
        let save = c.pos;
        c.skip_spaces();
        if c.peek() == Some('@') {
            c.pos += 1;
            continue;
        }
        c.pos = save;
        break;
    }
    let time = walltime.ok_or_else(|| c.err(begin, "the request has no walltime"))?;
    let ranks = nodes.unwrap_or(1) as u64 * ppn.unwrap_or(1) as u64;
    if ranks > super::limits::MAX_MACHINES as u64 {
        return Err(c.err(
            begin,
            format!(
                "nodes x ppn = {ranks} is over the limit {}",
                super::limits::MAX_MACHINES
            ),
        ));
    }
    Ok(Variant {
        ranks: ranks as u32,
        time,
        weight: weight.unwrap_or(1.0),
    })
}

/// `[[[DD:]HH:]MM:]SS` in seconds (more than 0).
pub fn walltime_seconds(s: &str) -> Option<f64> {
    let parts: Vec<&str> = s.split(':').collect();
    if parts.is_empty() || parts.len() > 4 {
        return None;
    }
    let mut total: u64 = 0;
    let scale = [86_400u64, 3600, 60, 1];
    for (k, p) in parts.iter().enumerate() {
        if p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()) || p.len() > 9 {
            return None;
        }
        let v: u64 = p.parse().ok()?;
        total += v * scale[4 - parts.len() + k];
    }
    (total > 0 && (total as f64) <= super::limits::MAX_TIME).then_some(total as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_sources_request_with_spaces_and_several_variants() {
        let text = "# a comment\n-L nodes = 4 @ ppn = 8 @ weight = 0.9 @ walltime = 01:00:00\n\n\
                    -L nodes=2@ppn=8@walltime=7200 -L nodes=8@ppn=8@weight=0.5@walltime=1:00:30:00\n";
        let jobs = parse(text, 10).unwrap();
        assert_eq!(jobs.len(), 2);
        assert_eq!(jobs[0].name, "L2");
        assert_eq!(
            jobs[0].variants,
            vec![Variant {
                ranks: 32,
                time: 3600.0,
                weight: 0.9
            }]
        );
        assert_eq!(jobs[1].variants.len(), 2);
        assert_eq!(jobs[1].variants[1].time, 86_400.0 + 1800.0);
        assert_eq!(jobs[1].variants[0].weight, 1.0);
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = parse("-L nodes=4@walltime=10\n-L nodes=x@walltime=10", 10).unwrap_err();
        assert_eq!((e.line, e.column), (2, 10));
        let e = parse("  -L nodes=4@ppn=2", 10).unwrap_err();
        assert_eq!((e.line, e.column), (1, 6));
        assert!(e.message.contains("walltime"));
        let e = parse("nodes=4", 10).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 1, column 1: expected -L before a request, found \"nodes\""
        );
        let e = parse("-L nodes=4@mem=2@walltime=5", 10).unwrap_err();
        assert_eq!(e.column, 12);
        let e = parse("-L walltime=1:2:3:4:5", 10).unwrap_err();
        assert!(e.message.contains("walltime is"));
        let e = parse("-L nodes=1 walltime=5", 10).unwrap_err();
        assert!(e.message.contains("walltime"));
    }
}
