//! The one scenario parser, used natively and in wasm alike.
//!
//! A scenario is `{"version": 1, "engine": "...", "name", "description", "seed", ...engine fields}`.
//! [`parse_envelope`] checks the size limit, the JSON syntax and the envelope, and hands the rest of
//! the object to the engine's own typed parser ([`parse_engine_fields`]), which reports the JSON
//! path of any unknown field, wrong type or impossible value.

use crate::error::{Result, ScenarioError};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{Map, Value};

/// Largest scenario text accepted (bytes). Links and pasted JSON above this are refused at once.
pub const MAX_SCENARIO_BYTES: usize = 4 * 1024 * 1024;
/// The only format version so far. Old versions keep their parser forever once a new one exists.
pub const FORMAT_VERSION: u64 = 1;
const MAX_NAME_CHARS: usize = 200;
const MAX_DESCRIPTION_CHARS: usize = 4000;

/// The fields every scenario has, whatever its engine.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Meta {
    pub engine: String,
    pub name: String,
    pub description: String,
    pub seed: u64,
}

impl Meta {
    /// Bytes left for an engine's report under a cap of `cap` bytes for the whole report file,
    /// once the envelope has written the scenario's name (as a JSON string) beside it.
    pub fn report_budget(&self, cap: usize) -> usize {
        let name_bytes = serde_json::to_string(&self.name).map_or(0, |t| t.len());
        cap.saturating_sub(name_bytes)
    }
}

/// A scenario split into its envelope and the engine's own fields (still as JSON).
#[derive(Debug, Clone)]
pub struct Envelope {
    pub meta: Meta,
    pub fields: Map<String, Value>,
}

/// Reads scenario text from a file or stream the way the CLI does: at most
/// [`MAX_SCENARIO_BYTES`]` + 1` bytes are read, so a larger input is refused without being read
/// whole, and bytes that are not UTF-8 are refused naming the offset of the first bad byte.
///
/// # Errors
/// A [`ScenarioError`] at `$` for an input over the limit, not UTF-8, or unreadable.
pub fn read_text(reader: impl std::io::Read) -> Result<String> {
    use std::io::Read;
    let mut bytes = Vec::new();
    reader
        .take(MAX_SCENARIO_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| ScenarioError::at("", format!("cannot read the input: {e}")))?;
    if bytes.len() > MAX_SCENARIO_BYTES {
        return Err(ScenarioError::at(
            "",
            format!(
                "the scenario is more than {MAX_SCENARIO_BYTES} bytes (4 MiB), the limit; reading stopped there"
            ),
        ));
    }
    decode_utf8(bytes)
}

/// The text of `bytes`, or an error naming the byte offset (from 0) of the first byte that is
/// not valid UTF-8.
pub fn decode_utf8(bytes: Vec<u8>) -> Result<String> {
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let byte = e.as_bytes()[at];
        ScenarioError::at(
            "",
            format!("not UTF-8 text: byte {at} (counting from 0) is 0x{byte:02x}; save the scenario as UTF-8"),
        )
    })
}

/// Parses the envelope: size limit, JSON syntax, `version`, `engine`, `name`, `description`, `seed`.
///
/// # Errors
/// A [`ScenarioError`] naming the path of the first problem found.
pub fn parse_envelope(text: &str, known_engines: &[&str]) -> Result<Envelope> {
    if text.len() > MAX_SCENARIO_BYTES {
        return Err(ScenarioError::at(
            "",
            format!(
                "the scenario is {} bytes; the limit is {} bytes",
                text.len(),
                MAX_SCENARIO_BYTES
            ),
        ));
    }
    let value = crate::json::parse(text)?;
    let Value::Object(mut obj) = value else {
        return Err(ScenarioError::at("", "a scenario must be a JSON object"));
    };
    let version = match obj.remove("version") {
        None => {
            return Err(ScenarioError::at(
                "version",
                "missing; write \"version\": 1",
            ))
        }
        Some(v) => v,
    };
    if version.as_f64() == Some(FORMAT_VERSION as f64) && version.as_u64().is_none() {
        return Err(ScenarioError::at(
            "version",
            format!("write the version as the whole number {FORMAT_VERSION}, got {version}"),
        ));
    }
    if version.as_u64() != Some(FORMAT_VERSION) {
        return Err(ScenarioError::at(
            "version",
            format!(
                "unsupported format version {version}; this build reads version {FORMAT_VERSION}"
            ),
        ));
    }
    let engine = match obj.remove("engine") {
        None => {
            return Err(ScenarioError::at(
                "engine",
                format!("missing; one of: {}", known_engines.join(", ")),
            ))
        }
        Some(Value::String(s)) => s,
        Some(other) => {
            return Err(ScenarioError::at(
                "engine",
                format!("must be a string, got {}", kind_of(&other)),
            ))
        }
    };
    if !known_engines.contains(&engine.as_str()) {
        return Err(ScenarioError::at(
            "engine",
            format!(
                "unknown engine {:?}; one of: {}",
                truncate(&engine, 40),
                known_engines.join(", ")
            ),
        ));
    }
    let name = take_string(&mut obj, "name", MAX_NAME_CHARS)?;
    let description = take_string(&mut obj, "description", MAX_DESCRIPTION_CHARS)?;
    let seed = match obj.remove("seed") {
        None => 1,
        Some(v) => v.as_u64().ok_or_else(|| {
            ScenarioError::at(
                "seed",
                format!(
                    "must be a whole number from 0 to 18446744073709551615, got {}",
                    short(&v)
                ),
            )
        })?,
    };
    Ok(Envelope {
        meta: Meta {
            engine,
            name,
            description,
            seed,
        },
        fields: obj,
    })
}

/// Deserializes the engine's fields into its typed scenario strictly ([`crate::json::from_value`]:
/// no list where an object belongs, messages in words), naming the JSON path of any error;
/// `params` (the engine's form table) give the ranges named in messages.
pub fn parse_engine_fields<T: DeserializeOwned>(
    fields: Map<String, Value>,
    params: &[crate::params::Param],
) -> Result<T> {
    crate::json::from_value(&Value::Object(fields), params)
}

fn take_string(obj: &mut Map<String, Value>, key: &str, max_chars: usize) -> Result<String> {
    match obj.remove(key) {
        None => Ok(String::new()),
        Some(Value::String(s)) => {
            if s.chars().count() > max_chars {
                Err(ScenarioError::at(
                    key,
                    format!("at most {max_chars} characters"),
                ))
            } else {
                Ok(s)
            }
        }
        Some(other) => Err(ScenarioError::at(
            key,
            format!("must be a string, got {}", kind_of(&other)),
        )),
    }
}

fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn short(v: &Value) -> String {
    truncate(&v.to_string(), 40)
}

fn truncate(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(n).collect::<String>())
    }
}

/// The report document: the envelope's fields around the engine's report.
#[derive(Serialize)]
pub struct ReportEnvelope<'a, R: Serialize> {
    pub version: u64,
    pub engine: &'a str,
    pub name: &'a str,
    pub seed: u64,
    /// A live preview reduced by the engine (`Engine::preview`), not the complete report; only
    /// written when true, so complete reports never carry it.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub preview: bool,
    pub report: &'a R,
}

#[cfg(test)]
mod tests {
    use super::*;
    const E: &[&str] = &["allocation"];

    #[test]
    fn missing_version_names_the_field() {
        let e = parse_envelope(r#"{"engine":"allocation"}"#, E).unwrap_err();
        assert_eq!(e.path, "$.version");
    }

    #[test]
    fn wrong_version_and_unknown_engine_are_errors() {
        assert_eq!(
            parse_envelope(r#"{"version":2,"engine":"allocation"}"#, E)
                .unwrap_err()
                .path,
            "$.version"
        );
        let e = parse_envelope(r#"{"version":1,"engine":"nope"}"#, E).unwrap_err();
        assert_eq!(e.path, "$.engine");
        assert!(e.message.contains("allocation"));
    }

    #[test]
    fn malformed_json_and_non_objects_are_errors() {
        assert_eq!(parse_envelope("{", E).unwrap_err().path, "$");
        assert_eq!(parse_envelope("[1,2]", E).unwrap_err().path, "$");
        assert!(parse_envelope(&"[".repeat(100_000), E).is_err());
    }

    #[test]
    fn oversized_text_is_refused_before_parsing() {
        let big = " ".repeat(MAX_SCENARIO_BYTES + 1);
        assert!(parse_envelope(&big, E)
            .unwrap_err()
            .message
            .contains("limit"));
    }

    #[test]
    fn envelope_defaults() {
        let env = parse_envelope(r#"{"version":1,"engine":"allocation","x":1}"#, E).unwrap();
        assert_eq!(env.meta.seed, 1);
        assert_eq!(env.meta.name, "");
        assert!(env.fields.contains_key("x"));
        assert_eq!(
            parse_envelope(r#"{"version":1,"engine":"allocation","seed":-1}"#, E)
                .unwrap_err()
                .path,
            "$.seed"
        );
    }
}
