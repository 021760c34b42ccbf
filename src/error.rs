//! The one error funnel: every way a scenario can be wrong ends up as a [`ScenarioError`],
//! which names the JSON path of the bad value and says what is wrong in a sentence.

use std::fmt;

/// A problem with the input: malformed JSON, an unknown field, a wrong type, an impossible value or
/// a size over the documented limits. Drawable outcomes (a job that does not fit) are not errors:
/// they are data in the report.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ScenarioError {
    /// JSON path of the offending value, `$` for the document, e.g. `$.workload.jobs[3].tasks`.
    pub path: String,
    /// What is wrong, as a sentence.
    pub message: String,
}

impl ScenarioError {
    /// An error at `path` (written without the leading `$`, e.g. `system.width`; empty for the root).
    pub fn at(path: impl AsRef<str>, message: impl Into<String>) -> Self {
        let p = path.as_ref();
        let path = if p.is_empty() {
            "$".to_string()
        } else if p.starts_with('[') {
            format!("${p}")
        } else {
            format!("$.{p}")
        };
        ScenarioError {
            path,
            message: message.into(),
        }
    }

    /// The error as the JSON object `{"path": ..., "message": ...}` the page shows.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self)
            .unwrap_or_else(|_| "{\"path\":\"$\",\"message\":\"error\"}".into())
    }
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

impl std::error::Error for ScenarioError {}

/// Shorthand used by validators.
pub type Result<T> = std::result::Result<T, ScenarioError>;

/// Checks `lo <= v <= hi` for an integer field.
pub fn check_range<T: PartialOrd + fmt::Display + Copy>(
    path: &str,
    v: T,
    lo: T,
    hi: T,
) -> Result<()> {
    if v < lo || v > hi {
        return Err(ScenarioError::at(
            path,
            format!("must be a whole number from {lo} to {hi}, got {v}"),
        ));
    }
    Ok(())
}

/// Checks that a number is finite and within `[lo, hi]`.
pub fn check_number(path: &str, v: f64, lo: f64, hi: f64) -> Result<()> {
    if !v.is_finite() || v < lo || v > hi {
        return Err(ScenarioError::at(
            path,
            format!(
                "must be a number from {} to {}, got {}",
                compact_number(lo),
                compact_number(hi),
                compact_number(v)
            ),
        ));
    }
    Ok(())
}

/// A number as a user would write it, never hundreds of digits: whole numbers below a million
/// (or not ending in 000) in full (`512`, `4294967295`), other large and tiny magnitudes in
/// exponent form (`1e12`, `2.5e9`, `1e308`, `1e-9`), the rest in plain decimals (`0.25`); each is
/// the shortest text that reads back as the same `f64`.
pub fn compact_number(v: f64) -> String {
    if !v.is_finite() {
        return v.to_string();
    }
    let a = v.abs();
    if v.fract() == 0.0 && a < 1e15 && (a < 1e6 || v % 1000.0 != 0.0) {
        format!("{}", v as i64)
    } else if a != 0.0 && !(1e-4..1e6).contains(&a) {
        format!("{v:e}")
    } else {
        format!("{v}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_in_messages_are_compact() {
        assert_eq!(compact_number(1e308), "1e308");
        assert_eq!(compact_number(1e12), "1e12");
        assert_eq!(compact_number(2.5e9), "2.5e9");
        assert_eq!(compact_number(512.0), "512");
        assert_eq!(compact_number(4294967295.0), "4294967295");
        assert_eq!(compact_number(0.25), "0.25");
        assert_eq!(compact_number(1e-9), "1e-9");
        assert_eq!(compact_number(-3.0), "-3");
        let e = check_number("x", 1e308, 0.0, 1e12).unwrap_err();
        assert_eq!(e.message, "must be a number from 0 to 1e12, got 1e308");
    }
}
