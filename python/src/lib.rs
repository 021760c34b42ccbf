//! `placelab._placelab`, the extension module under the Python package `placelab`
//! (`python/placelab/__init__.py` is the API users call; docs/python.md documents it).
//!
//! The module holds no logic of its own: scenario text goes to [`placelab::api`] and study text
//! to [`placelab::study`] and its in-memory runner ([`runner::run_in_memory`]); reports and
//! tables come back as the very text the CLI prints or writes, and the Python side parses
//! them. Every call releases the GIL while Rust works; a study's points run on a rayon pool.
//! Errors go through one funnel: a [`placelab::ScenarioError`] becomes `placelab.ScenarioError`
//! (a `ValueError` with `path` and `message`), an engine's panic a `RuntimeError`.

use placelab::study::{self, runner, table, BaseSource};
use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::RecvTimeoutError;
use std::time::Duration;

mod bundled {
    include!(concat!(env!("OUT_DIR"), "/examples.rs"));
}

create_exception!(
    placelab,
    ScenarioError,
    PyValueError,
    "A scenario or study that placelab refuses: `path` is the JSON path of the bad value \
     (`$` for the whole document, e.g. `$.system.width`), `message` says what is wrong; \
     str(error) is `path: message`, as the CLI prints it."
);

/// The one error funnel for refused input.
fn scenario_error(py: Python<'_>, e: &placelab::ScenarioError) -> PyErr {
    let err = ScenarioError::new_err(e.to_string());
    let value = err.value(py);
    // Setting two attributes on a fresh exception instance cannot fail.
    let _ = value.setattr("path", &e.path);
    let _ = value.setattr("message", &e.message);
    err
}

/// The message of a caught panic.
fn panic_message(payload: Box<dyn std::any::Any + Send>) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".into())
}

/// `f` without the GIL; a panic (a bug in an engine) becomes a `RuntimeError`.
fn detached<T: Send>(
    py: Python<'_>,
    f: impl FnOnce() -> Result<T, placelab::ScenarioError> + Send,
) -> PyResult<T> {
    match py.detach(|| std::panic::catch_unwind(std::panic::AssertUnwindSafe(f))) {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) => Err(scenario_error(py, &e)),
        Err(payload) => Err(PyRuntimeError::new_err(format!(
            "the engine stopped on an internal error (a bug in placelab): {}",
            panic_message(payload)
        ))),
    }
}

/// Runs a scenario: the report file's text (`placelab run`'s output: the report and `\n`).
#[pyfunction]
fn run(py: Python<'_>, text: String) -> PyResult<String> {
    detached(py, || {
        placelab::api::run(&text, &mut placelab::progress::NoProgress)
            .map(|r| placelab::api::report_file(&r))
    })
}

/// Validates a scenario without running it.
#[pyfunction]
fn check(py: Python<'_>, text: String) -> PyResult<()> {
    detached(py, || placelab::api::check(&text))
}

/// The text of a file's or a `bytes` document's bytes; bytes that are not UTF-8 are refused at
/// `$` naming the offset of the first bad byte, as the CLI does.
#[pyfunction]
fn decode(py: Python<'_>, bytes: &[u8]) -> PyResult<String> {
    placelab::scenario::decode_utf8(bytes.to_vec()).map_err(|e| scenario_error(py, &e))
}

/// The engines and their field tables as JSON (`placelab engines`).
#[pyfunction]
fn engines_json() -> String {
    placelab::api::engines_json()
}

/// The crate's version.
#[pyfunction]
fn version() -> &'static str {
    placelab::api::version()
}

/// The examples compiled in: `(id, scenario text)` pairs.
#[pyfunction]
fn examples() -> Vec<(&'static str, &'static str)> {
    bundled::EXAMPLES.to_vec()
}

/// The base of a study given as `"baseFile"` (relative to `base_dir`) or `"example"`.
fn resolve(source: BaseSource<'_>, base_dir: &std::path::Path) -> Result<String, String> {
    match source {
        BaseSource::File(p) => {
            let path = base_dir.join(p);
            let file = std::fs::File::open(&path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            placelab::scenario::read_text(file).map_err(|e| format!("{}: {e}", path.display()))
        }
        BaseSource::Example(id) => bundled::EXAMPLES
            .iter()
            .find(|(name, _)| *name == id)
            .map(|(_, text)| text.to_string())
            .ok_or_else(|| {
                let ids: Vec<&str> = bundled::EXAMPLES.iter().map(|(n, _)| *n).collect();
                format!("no example \"{id}\"; the examples: {}", ids.join(", "))
            }),
    }
}

/// How often a running study looks for Ctrl-C (the main thread's pending signals).
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// Runs a study in memory on `threads` threads (0: one per core) and returns a dict: the
/// tables as the CLI writes them (`tidy_csv`, `tidy_jsonl`, `aggregate_csv`,
/// `aggregate_jsonl`), their columns, `points`, `failed`, `refused` (`[(point, description,
/// message)]`) and `absent_metrics`. A `"baseFile"` is read relative to `base_dir`.
#[pyfunction]
#[pyo3(signature = (text, threads, max_points, base_dir))]
fn run_study<'py>(
    py: Python<'py>,
    text: String,
    threads: usize,
    max_points: u64,
    base_dir: PathBuf,
) -> PyResult<Bound<'py, PyDict>> {
    let parsed = py.detach(|| study::parse(&text, &mut |s| resolve(s, &base_dir)));
    let study = parsed.map_err(|e| scenario_error(py, &e))?;
    let cancelled = AtomicBool::new(false);
    let mut interrupt: Option<PyErr> = None;
    // The points run on a helper thread (its rayon pool under it) while this, the calling
    // thread, looks for Ctrl-C every SIGNAL_POLL: a KeyboardInterrupt stops the workers after
    // the points in flight.
    let result = py.detach(|| {
        std::thread::scope(|scope| {
            let (tx, rx) = std::sync::mpsc::channel();
            let (study, cancelled) = (&study, &cancelled);
            scope.spawn(move || {
                let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    runner::run_in_memory(study, threads, max_points, &|_, _| {
                        !cancelled.load(Ordering::Relaxed)
                    })
                }));
                let _ = tx.send(r.map_err(panic_message));
            });
            loop {
                match rx.recv_timeout(SIGNAL_POLL) {
                    Ok(r) => return r,
                    Err(RecvTimeoutError::Disconnected) => {
                        return Err("the study thread ended without a result".to_string())
                    }
                    Err(RecvTimeoutError::Timeout) if interrupt.is_some() => {}
                    Err(RecvTimeoutError::Timeout) => {
                        if let Err(e) = Python::attach(|py| py.check_signals()) {
                            interrupt = Some(e);
                            cancelled.store(true, Ordering::Relaxed);
                        }
                    }
                }
            }
        })
    });
    if let Some(e) = interrupt {
        return Err(e);
    }
    let outcomes = match result {
        Ok(Ok(Some(o))) => o,
        Ok(Ok(None)) => return Err(PyRuntimeError::new_err("the study was stopped")),
        Ok(Err(runner::Error::Refused(mut e))) => {
            // the admission limit's advice, in this API's words
            e.message = e.message.replace(
                "raise it with --max-points, or run shards",
                "raise it with max_points=",
            );
            return Err(scenario_error(py, &e));
        }
        Ok(Err(runner::Error::Files(m))) => return Err(PyRuntimeError::new_err(m)),
        // the runner catches the engines' panics: only a bug in the runner itself lands here
        Err(m) => {
            return Err(PyRuntimeError::new_err(format!(
                "the study runner stopped on an internal error (a bug in placelab): {m}"
            )))
        }
    };
    let (tables, failed, absent) = py.detach(|| {
        let done = outcomes.done();
        let failed = done
            .iter()
            .filter(|(_, o)| matches!(o, study::Outcome::Error(_)))
            .count() as u64;
        (
            table::render_all(&study, &done),
            failed,
            runner::absent_metrics(&study, &done),
        )
    });
    let [tidy_csv, tidy_jsonl, aggregate_csv, aggregate_jsonl] = tables;
    let refused: Vec<(u64, String, String)> = outcomes
        .invalid
        .iter()
        .map(|(i, e)| (*i, study::describe_point(&study, *i), e.to_string()))
        .collect();
    let d = PyDict::new(py);
    d.set_item("tidy_columns", table::tidy_columns(&study))?;
    d.set_item("aggregate_columns", table::aggregate_columns(&study))?;
    d.set_item("tidy_csv", tidy_csv)?;
    d.set_item("tidy_jsonl", tidy_jsonl)?;
    d.set_item("aggregate_csv", aggregate_csv)?;
    d.set_item("aggregate_jsonl", aggregate_jsonl)?;
    d.set_item("points", study.points)?;
    d.set_item("failed", failed)?;
    d.set_item("refused", refused)?;
    d.set_item("absent_metrics", absent)?;
    d.set_item("name", &study.name)?;
    d.set_item("hash", study.hash_hex())?;
    d.set_item("canonical", study.canonical())?;
    Ok(d)
}

/// The default admission limit of a study (`--max-points` of the CLI).
const DEFAULT_MAX_POINTS: u64 = study::DEFAULT_MAX_POINTS;

#[pymodule]
fn _placelab(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("ScenarioError", m.py().get_type::<ScenarioError>())?;
    m.add("DEFAULT_MAX_POINTS", DEFAULT_MAX_POINTS)?;
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(decode, m)?)?;
    m.add_function(wrap_pyfunction!(engines_json, m)?)?;
    m.add_function(wrap_pyfunction!(version, m)?)?;
    m.add_function(wrap_pyfunction!(examples, m)?)?;
    m.add_function(wrap_pyfunction!(run_study, m)?)?;
    Ok(())
}
