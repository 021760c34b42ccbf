//! The journal `points.jsonl`: the record of finished points from which every other file of a
//! results directory is rebuilt. It resumes an interrupted run and merges shards.
//!
//! Line 1, the header (keys in this order):
//! `{"placelabStudy":1,"hash":"<16 hex>","points":P,"shard":[k,n],"first":a,"end":b}`: the
//! study's hash ([`crate::study::Study::hash`]), its number of points, and the shard this
//! directory holds (points `a..b`; a whole run is shard `[0,1]`).
//! Then one line per finished point, in any order while running and sorted by point once the
//! run completes: `{"point":i,"rows":[{"g":[labels...],"v":[values...]},...]}` or
//! `{"error":"message","point":i}`.
//!
//! Invariant: a line is appended whole and flushed before its point counts as done, so after an
//! interruption only the last line can be incomplete; [`read`] drops such a tail and refuses
//! anything else malformed, naming the file and line.

use super::metrics::Row;
use super::table::push_json;
use super::{Outcome, Study};
use serde_json::{Map, Number, Value};

/// The journal's file name in a results directory.
pub const FILE: &str = "points.jsonl";

/// What a journal header says.
#[derive(Debug, Clone, PartialEq)]
pub struct Header {
    pub hash: String,
    pub points: u64,
    pub shard: (u64, u64),
    pub first: u64,
    pub end: u64,
}

/// The header line (with its `\n`).
pub fn header_line(study: &Study, shard: (u64, u64), range: &std::ops::Range<u64>) -> String {
    format!(
        "{{\"placelabStudy\":1,\"hash\":\"{}\",\"points\":{},\"shard\":[{},{}],\"first\":{},\"end\":{}}}\n",
        study.hash_hex(),
        study.points,
        shard.0,
        shard.1,
        range.start,
        range.end
    )
}

/// The line of one finished point (with its `\n`): compact JSON with its keys in sorted order,
/// `{"point":i,"rows":[{"g":[...],"v":[...]},...]}` or `{"error":"...","point":i}`, written
/// straight into one string (the text `serde_json` gives for the same object).
pub fn point_line(i: u64, outcome: &Outcome) -> String {
    let mut s = String::with_capacity(64);
    push_point_line(&mut s, i, outcome);
    s
}

/// The point of a line [`push_point_line`] wrote (`{"point":i,...` or `...,"point":i}`), read
/// without parsing the rest; `None` for any other line.
pub fn line_point(line: &str) -> Option<u64> {
    let line = line.trim_end();
    let digits = if let Some(rest) = line.strip_prefix("{\"point\":") {
        &rest[..rest.find(|c: char| !c.is_ascii_digit())?]
    } else {
        let body = line.strip_suffix('}')?;
        &body[body.rfind(",\"point\":")? + 9..]
    };
    digits.parse().ok()
}

/// Appends [`point_line`] to `s`.
pub fn push_point_line(s: &mut String, i: u64, outcome: &Outcome) {
    use std::fmt::Write;
    match outcome {
        Outcome::Ok(rows) => {
            let _ = write!(s, "{{\"point\":{i},\"rows\":[");
            for (k, r) in rows.iter().enumerate() {
                if k > 0 {
                    s.push(',');
                }
                s.push_str("{\"g\":");
                push_list(s, &r.groups);
                s.push_str(",\"v\":");
                push_list(s, &r.values);
                s.push('}');
            }
            s.push_str("]}\n");
        }
        Outcome::Error(m) => {
            s.push_str("{\"error\":");
            push_json(s, &Value::String(m.clone()));
            let _ = writeln!(s, ",\"point\":{i}}}");
        }
    }
}

fn push_list(s: &mut String, list: &[Value]) {
    s.push('[');
    for (k, v) in list.iter().enumerate() {
        if k > 0 {
            s.push(',');
        }
        push_json(s, v);
    }
    s.push(']');
}

/// A journal as read: its header and its points (sorted by point, each once).
#[derive(Debug, Clone)]
pub struct Journal {
    pub header: Header,
    pub points: Vec<(u64, Outcome)>,
    /// Whether the last line was incomplete (dropped).
    pub truncated_tail: bool,
}

fn parse_header(line: &str) -> Option<Header> {
    let Value::Object(v) = exact::parse(line)? else {
        return None;
    };
    if v.get("placelabStudy")?.as_u64()? != 1 {
        return None;
    }
    let shard = v.get("shard")?.as_array()?;
    Some(Header {
        hash: v.get("hash")?.as_str()?.to_string(),
        points: v.get("points")?.as_u64()?,
        shard: (shard.first()?.as_u64()?, shard.get(1)?.as_u64()?),
        first: v.get("first")?.as_u64()?,
        end: v.get("end")?.as_u64()?,
    })
}

/// One point line: `{"point":i,"rows":[{"g":[...],"v":[...]},...]}` or
/// `{"error":"...","point":i}`, keys in any order, each once; `None` when it is anything else.
fn parse_point(line: &str, study: &Study) -> Option<(u64, Outcome)> {
    let mut c = exact::Cursor::new(line);
    let (mut point, mut rows, mut error) = (None, None, None);
    c.object(|c, key| match key {
        "point" if point.is_none() => {
            point = Some(c.value(0)?.as_u64()?);
            Some(())
        }
        "error" if error.is_none() => {
            error = Some(c.string()?);
            Some(())
        }
        "rows" if rows.is_none() => {
            let mut list = Vec::new();
            c.array(|c| {
                let (mut g, mut v) = (None, None);
                c.object(|c, key| {
                    let slot = match key {
                        "g" if g.is_none() => &mut g,
                        "v" if v.is_none() => &mut v,
                        _ => return None,
                    };
                    let Value::Array(items) = c.value(0)? else {
                        return None;
                    };
                    *slot = Some(items);
                    Some(())
                })?;
                let (groups, values) = (g?, v?);
                if groups.len() != study.groups.len() || values.len() != study.metrics.len() {
                    return None;
                }
                list.push(Row { groups, values });
                Some(())
            })?;
            rows = Some(list);
            Some(())
        }
        _ => None,
    })?;
    c.end()?;
    match (point?, rows, error) {
        (i, Some(rows), None) => Some((i, Outcome::Ok(rows))),
        (i, None, Some(e)) => Some((i, Outcome::Error(e))),
        _ => None,
    }
}

/// A JSON reader for journal lines whose numbers read back exactly: a number is the `f64`
/// nearest its decimal text (Rust's `str::parse`, correctly rounded), so the text `serde_json`
/// writes for a double reads back to that double and is written again identically. (`serde_json`
/// without its `float_roundtrip` feature reads about one double in six a unit in the last place
/// off, which would make a resumed or merged run's files differ from a whole run's.) Integers
/// read as `serde_json` reads them: without `.`/`e`, a `u64` or a negative `i64`, else (too
/// large, or `-0`) a double.
pub(crate) mod exact {
    use super::{Map, Number, Value};

    /// Deepest nesting read (a journal line needs 4, a metric value rarely more).
    const MAX_DEPTH: usize = 128;

    pub struct Cursor<'a> {
        b: &'a [u8],
        s: &'a str,
        at: usize,
    }

    /// The whole of `text` as one JSON value.
    pub fn parse(text: &str) -> Option<Value> {
        let mut c = Cursor::new(text);
        let v = c.value(0)?;
        c.end()?;
        Some(v)
    }

    impl<'a> Cursor<'a> {
        pub fn new(s: &'a str) -> Self {
            Cursor {
                b: s.as_bytes(),
                s,
                at: 0,
            }
        }

        fn ws(&mut self) {
            while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.b.get(self.at) {
                self.at += 1;
            }
        }

        fn peek(&mut self) -> Option<u8> {
            self.ws();
            self.b.get(self.at).copied()
        }

        fn eat(&mut self, byte: u8) -> Option<()> {
            (self.peek()? == byte).then(|| self.at += 1)
        }

        /// Only white space left.
        pub fn end(&mut self) -> Option<()> {
            self.peek().is_none().then_some(())
        }

        /// An object, `member(cursor, key)` reading each member's value.
        pub fn object(
            &mut self,
            mut member: impl FnMut(&mut Self, &str) -> Option<()>,
        ) -> Option<()> {
            self.eat(b'{')?;
            if self.eat(b'}').is_some() {
                return Some(());
            }
            loop {
                let key = self.string()?;
                self.eat(b':')?;
                member(self, &key)?;
                match self.peek()? {
                    b',' => self.at += 1,
                    b'}' => {
                        self.at += 1;
                        return Some(());
                    }
                    _ => return None,
                }
            }
        }

        /// An array, `item(cursor)` reading each item.
        pub fn array(&mut self, mut item: impl FnMut(&mut Self) -> Option<()>) -> Option<()> {
            self.eat(b'[')?;
            if self.eat(b']').is_some() {
                return Some(());
            }
            loop {
                item(self)?;
                match self.peek()? {
                    b',' => self.at += 1,
                    b']' => {
                        self.at += 1;
                        return Some(());
                    }
                    _ => return None,
                }
            }
        }

        pub fn value(&mut self, depth: usize) -> Option<Value> {
            if depth > MAX_DEPTH {
                return None;
            }
            match self.peek()? {
                b'{' => {
                    let mut map = Map::new();
                    self.object(|c, key| {
                        let v = c.value(depth + 1)?;
                        map.insert(key.to_string(), v);
                        Some(())
                    })?;
                    Some(Value::Object(map))
                }
                b'[' => {
                    let mut list = Vec::new();
                    self.array(|c| {
                        list.push(c.value(depth + 1)?);
                        Some(())
                    })?;
                    Some(Value::Array(list))
                }
                b'"' => self.string().map(Value::String),
                b'-' | b'0'..=b'9' => self.number(),
                _ => {
                    for (word, v) in [
                        ("null", Value::Null),
                        ("true", Value::Bool(true)),
                        ("false", Value::Bool(false)),
                    ] {
                        if self.b[self.at..].starts_with(word.as_bytes()) {
                            self.at += word.len();
                            return Some(v);
                        }
                    }
                    None
                }
            }
        }

        /// A number by JSON's grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
        fn number(&mut self) -> Option<Value> {
            let start = self.at;
            let digits = |c: &mut Self| {
                let from = c.at;
                while c.b.get(c.at).is_some_and(u8::is_ascii_digit) {
                    c.at += 1;
                }
                c.at > from
            };
            let negative = self.b.get(self.at) == Some(&b'-');
            if negative {
                self.at += 1;
            }
            let int_start = self.at;
            if !digits(self) || (self.b[int_start] == b'0' && self.at - int_start > 1) {
                return None;
            }
            let mut float = false;
            if self.b.get(self.at) == Some(&b'.') {
                self.at += 1;
                float = true;
                if !digits(self) {
                    return None;
                }
            }
            if let Some(b'e' | b'E') = self.b.get(self.at) {
                self.at += 1;
                float = true;
                if let Some(b'+' | b'-') = self.b.get(self.at) {
                    self.at += 1;
                }
                if !digits(self) {
                    return None;
                }
            }
            let text = &self.s[start..self.at];
            if !float {
                if negative {
                    if let Ok(n) = text.parse::<i64>() {
                        if n < 0 {
                            return Some(Value::Number(n.into()));
                        }
                    }
                } else if let Ok(n) = text.parse::<u64>() {
                    return Some(Value::Number(n.into()));
                }
            }
            let x: f64 = text.parse().ok()?;
            Number::from_f64(x).map(Value::Number)
        }

        /// A string, its escapes decoded (`\uXXXX` surrogate pairs joined; a lone surrogate
        /// is refused).
        pub fn string(&mut self) -> Option<String> {
            self.eat(b'"')?;
            let mut out = String::new();
            loop {
                let from = self.at;
                while let Some(&c) = self.b.get(self.at) {
                    if c == b'"' || c == b'\\' || c < 0x20 {
                        break;
                    }
                    self.at += 1;
                }
                out.push_str(&self.s[from..self.at]);
                match *self.b.get(self.at)? {
                    b'"' => {
                        self.at += 1;
                        return Some(out);
                    }
                    b'\\' => {
                        self.at += 1;
                        let e = *self.b.get(self.at)?;
                        self.at += 1;
                        out.push(match e {
                            b'"' => '"',
                            b'\\' => '\\',
                            b'/' => '/',
                            b'b' => '\u{8}',
                            b'f' => '\u{c}',
                            b'n' => '\n',
                            b'r' => '\r',
                            b't' => '\t',
                            b'u' => {
                                let hi = self.hex4()?;
                                match hi {
                                    0xD800..=0xDBFF => {
                                        if !self.b[self.at..].starts_with(b"\\u") {
                                            return None;
                                        }
                                        self.at += 2;
                                        let lo = self.hex4()?;
                                        if !(0xDC00..=0xDFFF).contains(&lo) {
                                            return None;
                                        }
                                        char::from_u32(
                                            0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00),
                                        )?
                                    }
                                    _ => char::from_u32(hi)?,
                                }
                            }
                            _ => return None,
                        });
                    }
                    _ => return None, // a control character
                }
            }
        }

        fn hex4(&mut self) -> Option<u32> {
            let h = self.s.get(self.at..self.at + 4)?;
            if !h.bytes().all(|c| c.is_ascii_hexdigit()) {
                return None;
            }
            self.at += 4;
            u32::from_str_radix(h, 16).ok()
        }
    }
}

/// Reads a journal's text (`name` for messages) for `study`.
///
/// # Errors
/// A message naming the file (and line) when the header is missing or malformed, the hash is
/// another study's, or a line other than the last is malformed, out of the shard's range or a
/// repeat of an earlier point.
pub fn read(text: &str, name: &str, study: &Study) -> Result<Journal, String> {
    let mut lines = text.split_inclusive('\n');
    let first = lines
        .next()
        .ok_or_else(|| format!("{name}: empty; not a study journal"))?;
    let header = parse_header(first.trim_end())
        .filter(|_| first.ends_with('\n'))
        .ok_or_else(|| format!("{name}:1: not a study journal header"))?;
    if header.hash != study.hash_hex() {
        return Err(format!(
            "{name}: belongs to another study (hash {}, this study's is {})",
            header.hash,
            study.hash_hex()
        ));
    }
    if header.points != study.points || header.first > header.end || header.end > study.points {
        return Err(format!(
            "{name}:1: the header's point counts do not match the study"
        ));
    }
    let rest: Vec<&str> = lines.collect();
    let mut points: Vec<(u64, Outcome)> = Vec::with_capacity(rest.len());
    // A finished journal is sorted: a repeat is then caught by the order alone, and the set
    // of points seen is only built once a line comes out of order.
    let mut seen: Option<std::collections::HashSet<u64>> = None;
    let mut previous: Option<u64> = None;
    let mut truncated_tail = false;
    for (k, line) in rest.iter().enumerate() {
        let last = k + 1 == rest.len();
        let parsed = if line.ends_with('\n') {
            parse_point(line.trim_end(), study)
        } else {
            None
        };
        match parsed {
            Some((i, o)) => {
                if i < header.first || i >= header.end {
                    return Err(format!(
                        "{name}:{}: point {i} is outside this shard's points {}..{}",
                        k + 2,
                        header.first,
                        header.end
                    ));
                }
                let repeat = match (&mut seen, previous) {
                    (None, Some(l)) if i <= l => {
                        let set: std::collections::HashSet<u64> =
                            points.iter().map(|(p, _)| *p).collect();
                        let repeat = set.contains(&i);
                        seen = Some(set);
                        repeat
                    }
                    (None, _) => false,
                    (Some(set), _) => !set.insert(i),
                };
                if repeat {
                    return Err(format!("{name}:{}: point {i} is recorded twice", k + 2));
                }
                if let Some(set) = &mut seen {
                    set.insert(i);
                }
                previous = Some(i);
                points.push((i, o));
            }
            None if last => truncated_tail = true,
            None => return Err(format!("{name}:{}: not a point record", k + 2)),
        }
    }
    if seen.is_some() {
        points.sort_by_key(|(i, _)| *i);
    }
    Ok(Journal {
        header,
        points,
        truncated_tail,
    })
}

/// The whole journal text of finished points (sorted by point).
pub fn render(
    study: &Study,
    shard: (u64, u64),
    range: &std::ops::Range<u64>,
    done: &[(u64, &Outcome)],
) -> String {
    let mut s = header_line(study, shard, range);
    for (i, o) in done {
        push_point_line(&mut s, *i, o);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn line_point_reads_the_point_of_both_kinds_of_line() {
        let ok = Outcome::Ok(Vec::new());
        let err = Outcome::Error("a \"point\":3} inside".into());
        assert_eq!(line_point(&point_line(42, &ok)), Some(42));
        assert_eq!(line_point(&point_line(7, &err)), Some(7));
        assert_eq!(line_point("{\"x\":1}\n"), None);
        assert_eq!(line_point(""), None);
    }

    fn study() -> Study {
        crate::study::parse_inline(
            r#"{"version":1,"base":{"version":1,"engine":"allocation","seed":7,
                "system":{"kind":"mesh","width":4,"height":4},
                "workload":{"kind":"set","jobs":[{"tasks":4}]}},
              "replicates":{"count":4,"baseSeed":3},
              "metrics":["report.runs[*].summary.meanWait","report.runs[*].policy"]}"#,
        )
        .unwrap()
    }

    /// The line as `serde_json` writes the same object (what the journal format is).
    fn reference_line(i: u64, o: &Outcome) -> String {
        let v = match o {
            Outcome::Ok(rows) => json!({
                "point": i,
                "rows": rows.iter().map(|r| json!({"g": r.groups, "v": r.values})).collect::<Vec<_>>(),
            }),
            Outcome::Error(m) => json!({"error": m, "point": i}),
        };
        v.to_string() + "\n"
    }

    fn row(v: Value) -> Row {
        Row {
            groups: vec![Value::from("closed-min \"best\"")],
            values: vec![v, json!({"b": [1, -2, 2.5e-300], "a": "é\u{1}\n"})],
        }
    }

    #[test]
    fn point_lines_are_serde_jsons_text_and_read_back_to_the_same_line() {
        let s = study();
        // 90355229.85714285 and 4.000887762015429e-14 are doubles that serde_json's default
        // reader takes a unit in the last place off.
        let outcomes = [
            Outcome::Ok(vec![row(Value::from(90355229.85714285)), row(Value::Null)]),
            Outcome::Ok(vec![row(Value::from(4.000887762015429e-14))]),
            Outcome::Error("$.system.width: \"bad\"\ttab \\ slash".into()),
            Outcome::Ok(vec![row(Value::from(u64::MAX)), row(Value::from(-0.0))]),
        ];
        let mut text = header_line(&s, (0, 1), &(0..4));
        for (i, o) in outcomes.iter().enumerate() {
            let line = point_line(i as u64, o);
            assert_eq!(line, reference_line(i as u64, o));
            text.push_str(&line);
        }
        let j = read(&text, "points.jsonl", &s).unwrap();
        assert!(!j.truncated_tail);
        for ((i, o), want) in j.points.iter().zip(&outcomes) {
            assert_eq!(o, want);
            assert_eq!(point_line(*i, o), point_line(*i, want));
        }
    }

    #[test]
    fn doubles_read_back_exactly() {
        let mut x: u64 = 88172645463325252;
        for k in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let f = match k % 3 {
                0 => f64::from_bits(x >> 1),
                1 => (x % 1_000_000_007) as f64 / 7.0,
                _ => x as f64 / 3.0e17,
            };
            if !f.is_finite() {
                continue;
            }
            let text = Value::from(f).to_string();
            assert_eq!(
                exact::parse(&text).and_then(|v| v.as_f64()),
                Some(f),
                "{text}"
            );
        }
    }

    #[test]
    fn numbers_and_strings_read_as_serde_json_reads_them() {
        for text in [
            "0",
            "-5",
            "18446744073709551615",
            "18446744073709551616",
            "-0",
            "-0.0",
            "1e5",
            "2.5E-3",
            "\"a\\u00e9\\ud83d\\ude00\\/\"",
            "[]",
            "{}",
            "[1,[2,{\"x\":null}]]",
            " true ",
            "false",
        ] {
            let want: Value = serde_json::from_str(text).unwrap();
            assert_eq!(exact::parse(text), Some(want), "{text}");
        }
        for bad in [
            "01",
            "1.",
            ".5",
            "1e",
            "-",
            "+1",
            "\"\\ud800\"",
            "\"a\nb\"",
            "[1,]",
            "{\"a\"}",
            "nul",
            "1 2",
            "\"\\x\"",
            "[",
        ] {
            assert_eq!(exact::parse(bad), None, "{bad}");
        }
        let deep = "[".repeat(10_000) + &"]".repeat(10_000);
        assert_eq!(exact::parse(&deep), None);
    }

    #[test]
    fn malformed_lines_are_refused_naming_the_line_and_a_cut_tail_is_dropped() {
        let s = study();
        let head = header_line(&s, (0, 1), &(0..4));
        let good = point_line(0, &Outcome::Ok(vec![row(Value::from(1.5))]));
        for (bad, why) in [
            ("{\"point\":1}\n", "not a point record"),
            (
                "{\"point\":1,\"rows\":[],\"error\":\"x\"}\n",
                "not a point record",
            ),
            (
                "{\"point\":1,\"rows\":[{\"g\":[],\"v\":[1,2]}]}\n",
                "not a point record",
            ),
            (
                "{\"point\":9,\"rows\":[]}\n",
                "outside this shard's points 0..4",
            ),
            (good.as_str(), "point 0 is recorded twice"),
        ] {
            let text = format!("{head}{good}{bad}{good}");
            let e = read(&text, "dir/points.jsonl", &s).unwrap_err();
            assert!(
                e.starts_with("dir/points.jsonl:3: ") && e.contains(why),
                "{e}"
            );
        }
        // Out of order (a run still going) is fine, and read sorted; a repeat after that is not.
        let line = |i| point_line(i, &Outcome::Ok(vec![row(Value::from(i))]));
        let shuffled = format!("{head}{}{}{}", line(2), line(0), line(3));
        let j = read(&shuffled, "p", &s).unwrap();
        assert_eq!(
            j.points.iter().map(|(i, _)| *i).collect::<Vec<_>>(),
            [0, 2, 3]
        );
        let e = read(&format!("{shuffled}{}{}", line(1), line(2)), "p", &s).unwrap_err();
        assert_eq!(e, "p:6: point 2 is recorded twice");
        let cut = format!("{head}{good}{}", &good[..good.len() / 2]);
        let j = read(&cut, "p", &s).unwrap();
        assert!(j.truncated_tail);
        assert_eq!(j.points.len(), 1);
    }
}
