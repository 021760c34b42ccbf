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
            format!("must be between {lo} and {hi}, got {v}"),
        ));
    }
    Ok(())
}

/// Checks that a number is finite and within `[lo, hi]`.
pub fn check_number(path: &str, v: f64, lo: f64, hi: f64) -> Result<()> {
    if !v.is_finite() || v < lo || v > hi {
        return Err(ScenarioError::at(
            path,
            format!("must be a number between {lo} and {hi}, got {v}"),
        ));
    }
    Ok(())
}
