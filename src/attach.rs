//! Files given beside a scenario: workload logs too large to travel inside it.
//!
//! A scenario names such a file (`workload.swfFile` of the allocation engine, `swf.file` of the
//! moldable engine) and may pin its fingerprint ([`crate::formats::digest`]); the boundary
//! reads the file as a stream (the CLI's `--attach PATH`, the page's worker from the chosen
//! file) and attaches the parsed log here under its name, keeping at most
//! [`crate::alloc::scenario::MAX_JOBS`] jobs. Engines look a log up by name when they validate,
//! estimate and run, so a scenario stays a small text and a link still reproduces the run when
//! its reader attaches the same file: a file whose fingerprint differs from the one the scenario
//! pins is refused.
//!
//! The registry is process-wide (one per wasm instance, i.e. per worker); attaching a name again
//! replaces the log.

use crate::formats::swf::SwfLog;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

static LOGS: Mutex<BTreeMap<String, Arc<SwfLog>>> = Mutex::new(BTreeMap::new());
static TRACES: Mutex<BTreeMap<String, Arc<AttachedTrace>>> = Mutex::new(BTreeMap::new());

/// A time-independent trace read beside a scenario: an SMPI index and its rank files.
#[derive(Debug, Clone)]
pub struct AttachedTrace {
    /// Computes in flops (read at rate 1; the scenario divides by its reference rate).
    pub trace: crate::trace::model::Trace,
    /// FNV-1a 64 over the rank files' bytes in the index's order, and their total count.
    pub digest: String,
    /// The rank files, as the index names them.
    pub files: Vec<String>,
}

/// Attaches `trace` under `name`, replacing any trace of that name.
pub fn attach_trace(name: &str, trace: AttachedTrace) -> Arc<AttachedTrace> {
    put(&TRACES, name, trace)
}

/// The trace attached under `name`, its fingerprint checked against `digest`.
///
/// # Errors
/// At `path`: no trace of that name attached; at `digest_path`: different files.
pub fn trace_for(
    name: &str,
    digest: Option<&str>,
    path: &str,
    digest_path: &str,
) -> crate::error::Result<Arc<AttachedTrace>> {
    let t = get(&TRACES, name).ok_or_else(|| {
        crate::error::ScenarioError::at(
            path,
            format!(
                "the trace {name:?} is not attached: read it with `placelab trace \
                 PATH/{name} --platform PLATFORM.json`, or `--attach PATH/{name}`"
            ),
        )
    })?;
    check_digest(name, &t.digest, digest, digest_path, "holds other files")?;
    Ok(t)
}

/// Inserts `value` under `name` in `registry`.
fn put<T>(registry: &Mutex<BTreeMap<String, Arc<T>>>, name: &str, value: T) -> Arc<T> {
    let v = Arc::new(value);
    registry
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(name.to_string(), v.clone());
    v
}

/// The value under `name` in `registry`.
fn get<T>(registry: &Mutex<BTreeMap<String, Arc<T>>>, name: &str) -> Option<Arc<T>> {
    registry
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(name)
        .cloned()
}

/// Refuses at `digest_path` an attached file whose fingerprint `have` is not the `want` the
/// scenario pins (`differs` says how, e.g. "is a different file").
fn check_digest(
    name: &str,
    have: &str,
    want: Option<&str>,
    digest_path: &str,
    differs: &str,
) -> crate::error::Result<()> {
    match want {
        Some(d) if d != have => Err(crate::error::ScenarioError::at(
            digest_path,
            format!("the attached {name:?} {differs} (fingerprint {have:?}, the scenario replays {d:?})"),
        )),
        _ => Ok(()),
    }
}

/// Jobs kept of an attached log.
pub const MAX_KEPT_JOBS: usize = crate::alloc::scenario::MAX_JOBS;

/// Attaches `log` under `name`, replacing any log of that name.
pub fn attach_swf(name: &str, log: SwfLog) -> Arc<SwfLog> {
    put(&LOGS, name, log)
}

/// Reads an SWF log from `input` as a stream and attaches it under `name`.
///
/// # Errors
/// A read error or a bad line, as `"line N, column C: ..."`.
pub fn read_swf(name: &str, input: impl std::io::Read) -> Result<Arc<SwfLog>, String> {
    let log = crate::formats::swf::read(input, MAX_KEPT_JOBS)?;
    Ok(attach_swf(name, log))
}

/// The log attached under `name`.
pub fn swf(name: &str) -> Option<Arc<SwfLog>> {
    get(&LOGS, name)
}

/// The attached log a scenario names at `path`, its fingerprint checked against `digest`.
///
/// # Errors
/// At `path`: no log of that name attached; at `digest_path`: a different file.
pub fn swf_for(
    name: &str,
    digest: Option<&str>,
    path: &str,
    digest_path: &str,
) -> crate::error::Result<Arc<SwfLog>> {
    let log = swf(name).ok_or_else(|| {
        crate::error::ScenarioError::at(
            path,
            format!(
                "the log {name:?} is not attached: give it with `--attach PATH/{name}` (placelab \
                 run, check or study), or choose the file in the page"
            ),
        )
    })?;
    check_digest(
        name,
        &log.digest,
        digest,
        digest_path,
        "is a different file",
    )?;
    Ok(log)
}

/// Where a scenario gives an SWF log: its text, or the name of an attached file and optionally
/// its fingerprint, at these JSON paths.
pub struct SwfSource<'a> {
    pub text: Option<&'a str>,
    pub file: Option<&'a str>,
    pub digest: Option<&'a str>,
    /// Paths of the three fields, e.g. `["workload.swf", "workload.swfFile", "workload.swfDigest"]`.
    pub paths: [&'static str; 3],
}

impl SwfSource<'_> {
    /// The log: the text parsed (keeping at most `max_jobs` jobs), or the attached file
    /// ([`swf_for`]).
    ///
    /// # Errors
    /// Neither or both of text and file, a digest beside a text, a bad line, a file not
    /// attached or another file, each at its path.
    pub fn log(&self, max_jobs: usize) -> crate::error::Result<Arc<SwfLog>> {
        use crate::error::ScenarioError;
        let [tp, fp, dp] = self.paths;
        let key = |p: &str| p.rsplit('.').next().unwrap_or(p).to_string();
        let (tk, fk) = (key(tp), key(fp));
        match (self.text, self.file) {
            (Some(text), None) => {
                if self.digest.is_some() {
                    return Err(ScenarioError::at(
                        dp,
                        format!("pins an attached file ({fk:?}); this log is given as text"),
                    ));
                }
                let log = crate::formats::swf::parse(text, max_jobs)
                    .map_err(|e| ScenarioError::at(tp, e))?;
                Ok(Arc::new(log))
            }
            (None, Some(name)) => swf_for(name, self.digest, fp, dp),
            (None, None) => Err(ScenarioError::at(
                tp,
                format!(
                    "missing: the text of the SWF log ({tk:?}), or the name of an attached log \
                     file ({fk:?})"
                ),
            )),
            (Some(_), Some(_)) => Err(ScenarioError::at(
                fp,
                format!("give the log once: as text ({tk:?}) or as an attached file ({fk:?})"),
            )),
        }
    }
}
