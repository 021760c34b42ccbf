//! What every graph-file reader shares: errors on a line, whole numbers, comments, tokens.

use crate::graph::GraphError;

pub(super) fn err(line: u64, message: impl Into<String>) -> GraphError {
    GraphError {
        line: Some(line),
        message: message.into(),
    }
}

/// A token read as an integer: the value, or why it is not one.
pub(super) enum Int {
    Value(u64),
    Negative,
    TooLarge,
    NotNumber,
}

/// Reads a decimal integer with an optional sign (as C's `strtol` accepts), without floats.
pub(super) fn parse_int(tok: &str) -> Int {
    let (neg, digits) = match tok.as_bytes().first() {
        Some(b'-') => (true, &tok[1..]),
        Some(b'+') => (false, &tok[1..]),
        _ => (false, tok),
    };
    if digits.is_empty() {
        return Int::NotNumber;
    }
    // One pass: a non-digit anywhere makes it not a number, even after an overflow.
    let mut v: u64 = 0;
    let mut overflow = false;
    for b in digits.bytes() {
        if !b.is_ascii_digit() {
            return Int::NotNumber;
        }
        match v
            .checked_mul(10)
            .and_then(|x| x.checked_add(u64::from(b - b'0')))
        {
            Some(x) => v = x,
            None => overflow = true,
        }
    }
    if overflow {
        return if neg { Int::Negative } else { Int::TooLarge };
    }
    if neg && v != 0 {
        Int::Negative
    } else {
        Int::Value(v)
    }
}

/// Reads a `u32` quantity named `what` that must be at least `min`.
pub(super) fn parse_u32(tok: &str, line: u64, what: &str, min: u32) -> Result<u32, GraphError> {
    parse_u32_with(tok, line, || what.to_string(), min)
}

/// [`parse_u32`] whose description is only built for an error message (the hot loop of a
/// million-entry file must not format one per number).
pub(super) fn parse_u32_with(
    tok: &str,
    line: u64,
    what: impl FnOnce() -> String,
    min: u32,
) -> Result<u32, GraphError> {
    if let Int::Value(v) = parse_int(tok) {
        if v >= u64::from(min) && v <= u64::from(u32::MAX) {
            return Ok(v as u32);
        }
    }
    let what = what();
    match parse_int(tok) {
        Int::Value(v) if v > u64::from(u32::MAX) => Err(err(
            line,
            format!("{what} {tok} is too large (at most {})", u32::MAX),
        )),
        Int::Value(v) if v < u64::from(min) => Err(err(
            line,
            format!("{what} {tok} is below {min} (it must be at least {min})"),
        )),
        Int::Value(v) => Ok(v as u32),
        Int::Negative => Err(err(
            line,
            format!("{what} {tok} is negative (it must be at least {min})"),
        )),
        Int::TooLarge => Err(err(
            line,
            format!("{what} {tok} is too large (at most {})", u32::MAX),
        )),
        Int::NotNumber => Err(err(
            line,
            format!("{what} {:?} is not a whole number", shorten(tok)),
        )),
    }
}

/// At most 40 characters of a token, for messages.
pub(super) fn shorten(tok: &str) -> String {
    match tok.char_indices().nth(40) {
        Some((i, _)) => format!("{}...", &tok[..i]),
        None => tok.to_string(),
    }
}

pub(super) fn is_comment(line: &str, marks: &[char]) -> bool {
    // Most lines start with a digit: answer those without trimming.
    match line.as_bytes().first() {
        Some(b) if b.is_ascii_digit() => false,
        _ => line.trim_start().starts_with(marks),
    }
}

/// The whitespace-separated tokens of a line (`str::split_ascii_whitespace` without its
/// generic splitting machinery: this loop reads every number of the file).
pub(super) struct Tokens<'a> {
    line: &'a str,
    at: usize,
}

impl<'a> Tokens<'a> {
    pub(super) fn new(line: &'a str) -> Self {
        Tokens { line, at: 0 }
    }
}

impl<'a> Iterator for Tokens<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let b = self.line.as_bytes();
        let mut i = self.at;
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        if i == b.len() {
            self.at = i;
            return None;
        }
        let start = i;
        while i < b.len() && !b[i].is_ascii_whitespace() {
            i += 1;
        }
        self.at = i;
        // Token bounds are ASCII whitespace or the ends, so they are char boundaries.
        Some(&self.line[start..i])
    }
}

/// The value of a token of 1 to 9 plain digits (the common case), `None` otherwise (then
/// [`parse_int`] classifies it).
#[inline]
pub(super) fn small_int(b: &[u8]) -> Option<u64> {
    if b.is_empty() || b.len() > 9 {
        return None;
    }
    let mut v = 0u64;
    for &c in b {
        let d = c.wrapping_sub(b'0');
        if d > 9 {
            return None;
        }
        v = v * 10 + u64::from(d);
    }
    Some(v)
}
