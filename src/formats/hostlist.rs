//! Slurm's hostlist expressions: `tux[000-003,008],login1` stands for `tux000 tux001 tux002
//! tux003 tux008 login1`.
//!
//! - [`compress`] writes a set of host names as one expression, the form `scontrol show
//!   hostlist` prints: names are split into a prefix and a trailing number; names of one prefix
//!   whose numbers are written with the same zero padding share a bracket of sorted ranges
//!   (`node[01-04,09]`); a name alone in its group is written plainly (`login1`). Groups come
//!   in order of their first name after sorting, duplicates are dropped.
//! - [`expand`] reads an expression back, with several brackets in one name taken as a
//!   cartesian product (`r[1-2]n[1-3]` is six names, the last bracket fastest), and counts the
//!   names before writing any, so `n[0-999999999]` is refused, not expanded.
//!
//! Invariant (property-tested): `expand(compress(names))` is the sorted set of `names`.
//!
//! # Complexity
//! `compress`: `O(H log H)` for `H` names; `expand`: `O(H)` after an `O(length)` count.

use std::collections::BTreeMap;

/// A name cut into its prefix and trailing number: `("node", Some((7, 2)))` for `node07`
/// (value, digits written), `("login", None)` for `login`.
fn split(name: &str) -> (&str, Option<(u64, usize)>) {
    let digits = name.bytes().rev().take_while(u8::is_ascii_digit).count();
    let (prefix, tail) = name.split_at(name.len() - digits);
    // At most 18 digits: the value fits a u64 and keeps its padding when written back.
    match tail.parse::<u64>() {
        Ok(v) if digits <= 18 => (prefix, Some((v, digits))),
        _ => (name, None),
    }
}

/// One hostlist expression for a set of names (see the module doc).
///
/// # Example
/// `compress(["n3", "n1", "n2", "n10", "login"])` is `"login,n[1-3,10]"`.
pub fn compress<S: AsRef<str>>(names: &[S]) -> String {
    // (prefix, padded width or 0 for unpadded) -> numbers
    let mut padded: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for n in names {
        if let (p, Some((_, w))) = split(n.as_ref()) {
            if w > 1 && n.as_ref().as_bytes()[p.len()] == b'0' {
                padded.entry(p).or_default().push(w);
            }
        }
    }
    let mut groups: BTreeMap<(&str, usize), Vec<u64>> = BTreeMap::new();
    let mut plain: Vec<&str> = Vec::new();
    for n in names {
        let n = n.as_ref();
        match split(n) {
            (p, Some((v, w))) => {
                let zero = w > 1 && n.as_bytes()[p.len()] == b'0';
                // an unpadded number as long as a padded group's is written the same way
                let width = if zero || padded.get(p).is_some_and(|ws| ws.contains(&w)) {
                    w
                } else {
                    0
                };
                groups.entry((p, width)).or_default().push(v);
            }
            (p, None) => plain.push(p),
        }
    }
    let mut parts: Vec<(String, String)> = plain
        .iter()
        .map(|p| (p.to_string(), p.to_string()))
        .collect();
    for ((prefix, width), mut values) in groups {
        values.sort_unstable();
        values.dedup();
        let num = |v: u64| format!("{v:0width$}");
        let first = format!("{prefix}{}", num(values[0]));
        if values.len() == 1 {
            parts.push((first.clone(), first));
            continue;
        }
        let mut ranges: Vec<String> = Vec::new();
        let mut i = 0;
        while i < values.len() {
            let mut j = i;
            while j + 1 < values.len() && values[j + 1] == values[j] + 1 {
                j += 1;
            }
            ranges.push(if i == j {
                num(values[i])
            } else {
                format!("{}-{}", num(values[i]), num(values[j]))
            });
            i = j + 1;
        }
        parts.push((first, format!("{prefix}[{}]", ranges.join(","))));
    }
    parts.sort();
    parts.dedup();
    parts
        .into_iter()
        .map(|(_, e)| e)
        .collect::<Vec<_>>()
        .join(",")
}

/// One piece of a name: literal text or a bracket's list of `(from, to, width)` ranges.
enum Piece<'a> {
    Text(&'a str),
    Ranges(Vec<(u64, u64, usize)>),
}

fn parse_ranges(body: &str, at: &str) -> Result<Vec<(u64, u64, usize)>, String> {
    let mut out = Vec::new();
    for r in body.split(',') {
        let (a, b) = r.split_once('-').unwrap_or((r, r));
        let num = |t: &str| -> Result<u64, String> {
            if t.is_empty() || t.len() > 18 || !t.bytes().all(|c| c.is_ascii_digit()) {
                return Err(format!(
                    "{at}: {t:?} in [{body}] is not a number of at most 18 digits"
                ));
            }
            Ok(t.parse().expect("digits"))
        };
        let (x, y) = (num(a)?, num(b)?);
        if y < x {
            return Err(format!("{at}: the range {r} in [{body}] runs backwards"));
        }
        let width = if a.len() > 1 && a.starts_with('0') {
            a.len()
        } else {
            0
        };
        out.push((x, y, width));
    }
    Ok(out)
}

/// The pieces of every name of an expression and their total count (more than `max` is an
/// error, found before anything is expanded).
fn parse(expr: &str, max: u64) -> Result<(Vec<Vec<Piece<'_>>>, u64), String> {
    // split at top-level commas
    let mut names: Vec<&str> = Vec::new();
    let (mut depth, mut start) = (0i32, 0usize);
    for (i, c) in expr.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => depth -= 1,
            ',' if depth == 0 => {
                names.push(&expr[start..i]);
                start = i + 1;
            }
            _ => {}
        }
        if !(0..=1).contains(&depth) {
            return Err(format!(
                "{expr:?}: brackets do not nest in a hostlist (at character {})",
                i + 1
            ));
        }
    }
    if depth != 0 {
        return Err(format!("{expr:?}: a '[' is not closed"));
    }
    names.push(&expr[start..]);
    let mut pieces: Vec<Vec<Piece>> = Vec::new();
    let mut total: u64 = 0;
    for name in names {
        let name = name.trim();
        if name.is_empty() {
            return Err(format!("{expr:?}: an empty host name"));
        }
        let mut ps = Vec::new();
        let mut rest = name;
        let mut count: u64 = 1;
        while let Some(open) = rest.find('[') {
            let close = rest
                .find(']')
                .filter(|&c| c > open)
                .ok_or_else(|| format!("{name:?}: a '[' is not closed"))?;
            if open > 0 {
                ps.push(Piece::Text(&rest[..open]));
            }
            let ranges = parse_ranges(&rest[open + 1..close], name)?;
            let n: u64 = ranges
                .iter()
                .map(|&(x, y, _)| y - x + 1)
                .fold(0u64, u64::saturating_add);
            count = count.saturating_mul(n);
            ps.push(Piece::Ranges(ranges));
            rest = &rest[close + 1..];
        }
        if rest.contains(']') {
            return Err(format!("{name:?}: a ']' without its '['"));
        }
        if !rest.is_empty() {
            ps.push(Piece::Text(rest));
        }
        total = total.saturating_add(count);
        if total > max {
            return Err(format!("{expr:?} names more than {max} hosts"));
        }
        pieces.push(ps);
    }
    Ok((pieces, total))
}

/// How many names an expression stands for, counted without writing any (saturating at
/// `u64::MAX`): `count("r[1-2]n[1-3],login")` is 7.
///
/// # Errors
/// An unbalanced bracket, a bad range or an empty name.
pub fn count(expr: &str) -> Result<u64, String> {
    parse(expr, u64::MAX).map(|(_, total)| total)
}

/// The names of an expression, in the order written (see the module doc).
///
/// # Errors
/// An unbalanced bracket, a bad range, an empty name, or more than `max` names (counted
/// before any name is written).
pub fn expand(expr: &str, max: u64) -> Result<Vec<String>, String> {
    let (pieces, total) = parse(expr, max)?;
    let mut out = Vec::with_capacity(total as usize);
    for ps in &pieces {
        let mut acc = vec![String::new()];
        for p in ps {
            acc = match p {
                Piece::Text(t) => acc.into_iter().map(|s| s + t).collect(),
                Piece::Ranges(rs) => acc
                    .iter()
                    .flat_map(|s| {
                        rs.iter()
                            .flat_map(move |&(x, y, w)| (x..=y).map(move |v| format!("{s}{v:0w$}")))
                    })
                    .collect(),
            };
        }
        out.extend(acc);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn compress_writes_ranges_per_prefix_and_padding() {
        assert_eq!(
            compress(&["n3", "n1", "n2", "n10", "login"]),
            "login,n[1-3,10]"
        );
        assert_eq!(
            compress(&["tux000", "tux001", "tux002", "tux003", "tux008"]),
            "tux[000-003,008]"
        );
        assert_eq!(compress(&["node08", "node09", "node10"]), "node[08-10]");
        assert_eq!(compress(&["a5"]), "a5");
        assert_eq!(compress(&["a5", "a5"]), "a5");
        assert_eq!(compress::<&str>(&[]), "");
    }

    #[test]
    fn expand_reads_ranges_products_and_lists() {
        assert_eq!(
            expand("tux[000-002,008],login1", 100).unwrap(),
            ["tux000", "tux001", "tux002", "tux008", "login1"]
        );
        assert_eq!(
            expand("r[1-2]n[1-2]", 100).unwrap(),
            ["r1n1", "r1n2", "r2n1", "r2n2"]
        );
        assert_eq!(expand("n[9-11]", 100).unwrap(), ["n9", "n10", "n11"]);
    }

    #[test]
    fn expand_refuses_bad_expressions_and_counts_before_expanding() {
        assert!(expand("n[0-999999999999]", 1_000_000)
            .unwrap_err()
            .contains("more than 1000000 hosts"));
        assert!(expand("n[3-1]", 10).unwrap_err().contains("runs backwards"));
        assert!(expand("n[1-2", 10).unwrap_err().contains("not closed"));
        assert!(expand("n1],a", 10).unwrap_err().contains("do not nest"));
        assert!(expand("n1]", 10).is_err());
        assert!(expand("n[[1]]", 10).is_err());
        assert!(expand("a,,b", 10).unwrap_err().contains("empty host name"));
        assert!(expand("n[x]", 10).unwrap_err().contains("not a number"));
    }

    #[test]
    fn count_agrees_with_expand_and_saturates() {
        for e in [
            "tux[000-002,008],login1",
            "r[1-2]n[1-3]",
            "a",
            "n[9-11]x[1-2],b[1-3]",
        ] {
            assert_eq!(
                count(e).unwrap(),
                expand(e, 1000).unwrap().len() as u64,
                "{e}"
            );
        }
        assert_eq!(
            count("a[0-999999999999999999]b[0-999999999999999999]").unwrap(),
            u64::MAX
        );
        assert!(count("n[1-2").is_err());
    }

    proptest! {
        #[test]
        fn expand_inverts_compress(names in proptest::collection::vec(
            (prop_oneof!["node", "n", "rack1n", "login"], 0u64..300, 0usize..4), 0..40)) {
            let names: Vec<String> = names.iter().map(|(p, v, w)| {
                if *w == 0 { format!("{p}{v}") } else { format!("{p}{v:0w$}", w = (*w).max(v.to_string().len())) }
            }).collect();
            let expr = compress(&names);
            let mut back = if names.is_empty() { vec![] } else { expand(&expr, 10_000).unwrap() };
            let mut want = names.clone();
            want.sort();
            want.dedup();
            back.sort();
            prop_assert_eq!(back, want, "{}", expr);
        }
    }
}
