//! SimGrid's units for bandwidths, times and speeds (its `xbt_parse_get_*` rules): a number
//! (`strtod` syntax) followed by a unit; a bare number is allowed only when it is 0 (SimGrid
//! warns on other unit-less values; we refuse them).
//!
//! - Bandwidth: `Bps` (bytes/s) and `bps` (bits/s, 1/8 byte), with decimal prefixes `k M G T P
//!   E Z Y` (x1000) or binary prefixes `Ki Mi Gi Ti Pi Ei Zi Yi` (x1024).
//! - Time: `w d h m s ms us ns ps`.
//! - Speed: `f` or `flops`, decimal prefixes (`kf`, `Mf`, ..., or `kiloflops`, ...).

const DEC: [&str; 8] = ["k", "M", "G", "T", "P", "E", "Z", "Y"];
const BIN: [&str; 8] = ["Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "Zi", "Yi"];
const DEC_LONG: [&str; 8] = [
    "kilo", "mega", "giga", "tera", "peta", "exa", "zeta", "yotta",
];

/// Splits `s` into its leading number and the rest (the unit).
fn split_number(s: &str) -> Option<(f64, &str)> {
    let b = s.as_bytes();
    let mut i = 0;
    if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
        i += 1;
    }
    let digits_start = i;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    if i < b.len() && b[i] == b'.' {
        i += 1;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
    }
    if i == digits_start || (i == digits_start + 1 && b[digits_start] == b'.') {
        return None;
    }
    // Exponent, only when digits follow.
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        let mut j = i + 1;
        if j < b.len() && (b[j] == b'+' || b[j] == b'-') {
            j += 1;
        }
        let k = j;
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        if j > k {
            i = j;
        }
    }
    let v: f64 = s[..i].parse().ok()?;
    Some((v, &s[i..]))
}

fn scaled(unit: &str, base: &str, base_value: f64, prefixes: &[&str], mult: f64) -> Option<f64> {
    if unit == base {
        return Some(base_value);
    }
    let mut v = base_value;
    for p in prefixes {
        v *= mult;
        if unit.len() == p.len() + base.len() && unit.starts_with(p) && unit.ends_with(base) {
            return Some(v);
        }
    }
    None
}

fn value(
    s: &str,
    what: &str,
    default_unit: &str,
    scale: impl Fn(&str) -> Option<f64>,
) -> Result<f64, String> {
    let t = s.trim();
    let (v, unit) =
        split_number(t).ok_or_else(|| format!("{what}: cannot parse a number in {s:?}"))?;
    let unit = if unit.is_empty() {
        if v != 0.0 {
            return Err(format!(
                "{what}: {s:?} has no unit (write e.g. \"{t}{default_unit}\")"
            ));
        }
        default_unit
    } else {
        unit
    };
    let m = scale(unit).ok_or_else(|| format!("{what}: unknown unit {unit:?} in {s:?}"))?;
    let r = v * m;
    if !r.is_finite() {
        return Err(format!("{what}: {s:?} is out of range"));
    }
    Ok(r)
}

/// A bandwidth in bytes/s.
///
/// # Errors
/// No number, no unit on a non-zero value, an unknown unit, or an infinite result.
pub fn bandwidth(s: &str, what: &str) -> Result<f64, String> {
    value(s, what, "Bps", |u| {
        scaled(u, "Bps", 1.0, &DEC, 1000.0)
            .or_else(|| scaled(u, "Bps", 1.0, &BIN, 1024.0))
            .or_else(|| scaled(u, "bps", 0.125, &DEC, 1000.0))
            .or_else(|| scaled(u, "bps", 0.125, &BIN, 1024.0))
    })
}

/// A time in seconds.
///
/// # Errors
/// As [`bandwidth`].
pub fn time(s: &str, what: &str) -> Result<f64, String> {
    value(s, what, "s", |u| {
        Some(match u {
            "w" => 7.0 * 24.0 * 3600.0,
            "d" => 24.0 * 3600.0,
            "h" => 3600.0,
            "m" => 60.0,
            "s" => 1.0,
            "ms" => 1e-3,
            "us" => 1e-6,
            "ns" => 1e-9,
            "ps" => 1e-12,
            _ => return None,
        })
    })
}

/// A speed in flop/s (the first of a comma-separated list of power states).
///
/// # Errors
/// As [`bandwidth`].
pub fn speed(s: &str, what: &str) -> Result<f64, String> {
    let first = s.split(',').next().unwrap_or("");
    value(first, what, "f", |u| {
        scaled(u, "f", 1.0, &DEC, 1000.0).or_else(|| scaled(u, "flops", 1.0, &DEC_LONG, 1000.0))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bandwidth_units_follow_simgrid() {
        assert_eq!(bandwidth("125MBps", "b").unwrap(), 125e6);
        assert_eq!(bandwidth("10Gbps", "b").unwrap(), 10e9 / 8.0);
        assert_eq!(bandwidth("1KiBps", "b").unwrap(), 1024.0);
        assert_eq!(
            bandwidth("2Mibps", "b").unwrap(),
            2.0 * 1024.0 * 1024.0 / 8.0
        );
        assert_eq!(bandwidth("41.279125MBps", "b").unwrap(), 41.279125 * 1e6);
        assert_eq!(bandwidth("0", "b").unwrap(), 0.0);
        assert_eq!(bandwidth("1e3Bps", "b").unwrap(), 1000.0);
        assert_eq!(bandwidth("3TBps", "b").unwrap(), 3e12);
        assert!(bandwidth("12", "b").unwrap_err().contains("no unit"));
        assert!(bandwidth("12MBs", "b")
            .unwrap_err()
            .contains("unknown unit"));
        assert!(bandwidth("fast", "b").unwrap_err().contains("cannot parse"));
    }

    #[test]
    fn time_and_speed_units_follow_simgrid() {
        // As SimGrid computes it: the number times the unit.
        assert_eq!(time("50us", "t").unwrap(), 50.0 * 1e-6);
        assert_eq!(time("1.461517ms", "t").unwrap(), 1.461517 * 1e-3);
        assert_eq!(time("2m", "t").unwrap(), 120.0);
        assert_eq!(time("1h", "t").unwrap(), 3600.0);
        assert_eq!(time("3ps", "t").unwrap(), 3.0 * 1e-12);
        assert_eq!(time("0", "t").unwrap(), 0.0);
        assert!(time("5 parsecs", "t").is_err());
        assert_eq!(speed("1Gf", "s").unwrap(), 1e9);
        assert_eq!(speed("98.095Mf", "s").unwrap(), 98.095 * 1e6);
        assert_eq!(speed("2kiloflops", "s").unwrap(), 2000.0);
        assert_eq!(speed("1Gf,500Mf", "s").unwrap(), 1e9);
        assert!(speed("1Gbps", "s").is_err());
    }
}
