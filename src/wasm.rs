//! The wasm boundary: the only file that knows about wasm-bindgen, web-sys and
//! serde-wasm-bindgen. Each export is a shim over [`crate::api`], the same for every engine;
//! errors leave through one funnel ([`funnel`]) as a JS `Error` whose message is the JSON
//! `{"path": ..., "message": ...}`; partial results are posted to the page for every engine
//! ([`JsProgress`]).

use crate::progress::{Progress, Throttle};
use crate::split::{Part, Round, Split};
use crate::ScenarioError;
use serde::Serialize;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

/// Calls a JS `onProgress(done, total)` for the ticks [`Throttle`] passes (about every 1 % of
/// the work) and posts the engine's partial results to the page.
struct JsProgress {
    callback: Option<js_sys::Function>,
    throttle: Throttle,
}

impl JsProgress {
    fn new(callback: Option<js_sys::Function>) -> JsProgress {
        JsProgress {
            callback,
            throttle: Throttle::new(),
        }
    }
}

impl Progress for JsProgress {
    /// Calls `onProgress(null, null, name)`: a phase starts now (always, never throttled).
    fn phase(&mut self, name: &str) {
        if let Some(cb) = &self.callback {
            let _ = cb.call3(
                &JsValue::NULL,
                &JsValue::NULL,
                &JsValue::NULL,
                &JsValue::from_str(name),
            );
        }
    }

    fn wants_partial(&self) -> bool {
        self.callback.is_some()
    }

    /// Posts `{type: 'partial', value}` to the page straight from the worker, whatever the
    /// engine (the worker runs one scenario at a time, so the page knows which run it belongs
    /// to); nothing outside a dedicated worker.
    fn partial(&mut self, value: &serde_json::Value) {
        let msg = serde_json::json!({"type": "partial", "value": value});
        let Ok(js) = msg.serialize(&serde_wasm_bindgen::Serializer::json_compatible()) else {
            return;
        };
        if let Ok(scope) = js_sys::global().dyn_into::<web_sys::DedicatedWorkerGlobalScope>() {
            let _ = scope.post_message(&js);
        }
    }

    fn tick(&mut self, done: u64, total: u64) {
        let Some(cb) = &self.callback else { return };
        if self.throttle.pass(done, total) {
            let _ = cb.call2(
                &JsValue::NULL,
                &JsValue::from_f64(done as f64),
                &JsValue::from_f64(total as f64),
            );
        }
    }
}

/// The one way an error leaves: a JS `Error` whose message is `{"path": ..., "message": ...}`.
fn funnel(e: crate::ScenarioError) -> JsError {
    JsError::new(&e.to_json())
}

/// Runs a scenario; returns the report JSON. `on_progress(done, total)` is optional; it is also
/// called as `on_progress(null, null, name)` when a named phase of the run starts.
#[wasm_bindgen]
pub fn run(scenario: &str, on_progress: Option<js_sys::Function>) -> Result<String, JsError> {
    let mut p = JsProgress::new(on_progress);
    crate::api::run(scenario, &mut p).map_err(funnel)
}

/// [`run`] for a live preview ([`crate::api::run_preview`]): the engine may reduce the report to
/// what the drawing needs, and then says `"preview": true` in the envelope.
#[wasm_bindgen]
pub fn run_preview(
    scenario: &str,
    on_progress: Option<js_sys::Function>,
) -> Result<String, JsError> {
    let mut p = JsProgress::new(on_progress);
    crate::api::run_preview(scenario, &mut p).map_err(funnel)
}

/// Parses and validates a scenario without running it.
#[wasm_bindgen]
pub fn check(scenario: &str) -> Result<(), JsError> {
    crate::api::check(scenario).map_err(funnel)
}

/// Every engine with its parameter table (JSON).
#[wasm_bindgen]
pub fn engines() -> String {
    crate::api::engines_json()
}

/// The crate version.
#[wasm_bindgen]
pub fn version() -> String {
    crate::api::version().to_string()
}

/// How the scenario runs on a host with `threads` hardware threads ([`crate::api::plan`]):
/// `{workers, parts, ticks}`; `workers` 1: [`run`] runs it; more: a pool of workers hosts the
/// parts ([`SplitPart`]) and the engine's worker coordinates them ([`SplitRun`]).
#[wasm_bindgen]
pub fn plan(scenario: &str, threads: u32) -> Result<JsValue, JsError> {
    let plan = crate::api::plan(scenario, threads).map_err(funnel)?;
    plan.serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| funnel(ScenarioError::at("", format!("the plan: {e}"))))
}

/// The coordinator of a split run ([`crate::split::Split`]), in the engine's worker: its
/// progress and partial results go where [`run`]'s go. The pool calls [`SplitRun::next`]; while
/// it says `true` it hands every part its [`SplitRun::mail`] and gives back each part's answer
/// ([`SplitRun::answer`]); then [`SplitRun::report`] is [`run`]'s report, byte for byte.
#[wasm_bindgen]
pub struct SplitRun {
    split: Box<dyn Split<Report = String>>,
    progress: JsProgress,
    started: bool,
    answers: Vec<Option<Vec<u32>>>,
    mail: Vec<Vec<u32>>,
    report: Option<String>,
}

#[wasm_bindgen]
impl SplitRun {
    #[wasm_bindgen(constructor)]
    pub fn new(scenario: &str, on_progress: Option<js_sys::Function>) -> Result<SplitRun, JsError> {
        let split = crate::api::split(scenario)
            .map_err(funnel)?
            .ok_or_else(|| funnel(ScenarioError::at("", "this scenario runs on one worker")))?;
        Ok(SplitRun {
            answers: vec![None; split.parts() as usize],
            split,
            progress: JsProgress::new(on_progress),
            started: false,
            mail: Vec::new(),
            report: None,
        })
    }

    /// Reads the last round's answers; `true`: another round (its mail is ready), `false`: the
    /// report is ready.
    pub fn next(&mut self) -> Result<bool, JsError> {
        let answers = if self.started {
            let missing = self.answers.iter().position(Option::is_none);
            if let Some(i) = missing {
                return Err(funnel(ScenarioError::at(
                    "",
                    format!("part {i} did not answer"),
                )));
            }
            self.answers
                .iter_mut()
                .map(|a| a.take().unwrap_or_default())
                .collect()
        } else {
            Vec::new()
        };
        self.started = true;
        match self
            .split
            .next(&answers, &mut self.progress)
            .map_err(funnel)?
        {
            Round::Mail(mail) => {
                self.mail = mail;
                Ok(true)
            }
            Round::Done(report) => {
                self.report = Some(report);
                Ok(false)
            }
        }
    }

    /// This round's mail for part `part`.
    pub fn mail(&self, part: u32) -> Vec<u32> {
        self.mail.get(part as usize).cloned().unwrap_or_default()
    }

    /// Part `part`'s answer to this round.
    pub fn answer(&mut self, part: u32, words: Vec<u32>) -> Result<(), JsError> {
        let slot = self.answers.get_mut(part as usize).ok_or_else(|| {
            funnel(ScenarioError::at(
                "",
                format!("an answer from part {part}, which does not exist"),
            ))
        })?;
        *slot = Some(words);
        Ok(())
    }

    /// The report, once [`SplitRun::next`] said `false`.
    pub fn report(&mut self) -> Option<String> {
        self.report.take()
    }
}

/// One part of a split run ([`crate::split::Part`]), hosted by a pool's worker.
#[wasm_bindgen]
pub struct SplitPart(Box<dyn Part>);

#[wasm_bindgen]
impl SplitPart {
    #[wasm_bindgen(constructor)]
    pub fn new(scenario: &str, index: u32) -> Result<SplitPart, JsError> {
        crate::api::part(scenario, index)
            .map(SplitPart)
            .map_err(funnel)
    }

    /// Reads this round's mail, works, and answers.
    pub fn step(&mut self, mail: &[u32]) -> Result<Vec<u32>, JsError> {
        self.0.step(mail).map_err(funnel)
    }
}

/// A study ([`crate::study`]) parsed once in a worker: its outline, its points run one at a
/// time, the tables of the points that finished ([`crate::study::page`]).
#[wasm_bindgen]
pub struct StudyHost(crate::study::Study);

#[wasm_bindgen]
impl StudyHost {
    /// Parses a study document with an inline base.
    #[wasm_bindgen(constructor)]
    pub fn new(study: &str) -> Result<StudyHost, JsError> {
        crate::study::parse_inline(study)
            .map(StudyHost)
            .map_err(funnel)
    }

    /// `{name, engine, points, combinations, replicates, hash, axes, groups, metrics, tidyColumns}`.
    pub fn outline(&self) -> String {
        crate::study::page::outline(&self.0)
    }

    /// Refuses the study over `max_points` points, or when the engine refuses every point;
    /// otherwise every point in the order to run them ([`crate::study::Admission::costliest_first`]).
    pub fn admit(&self, max_points: f64) -> Result<Vec<f64>, JsError> {
        let all = 0..self.0.points;
        crate::study::admit(&self.0, max_points as u64, all)
            .map(|a| a.costliest_first().into_iter().map(|i| i as f64).collect())
            .map_err(funnel)
    }

    /// Runs point `i`: `{point, line, csv}`.
    pub fn point(&self, i: f64) -> String {
        crate::study::page::point_record(&self.0, i as u64)
    }

    /// The four tables of the points whose journal lines `lines` holds.
    pub fn tables(&self, lines: &str) -> Result<String, JsError> {
        crate::study::page::tables(&self.0, lines).map_err(funnel)
    }
}

/// A placement out of a report's text as a launcher's file or a SimGrid file (`placelab
/// hostfile`'s formats, [`crate::formats::hostfile::file_from_report_text`]): the JSON text of
/// `{text, what, ranks, hosts, keepsOrder, label}`; `case`, `strategy` (a placement's strategy or
/// an allocation's policy) and `job` as the CLI's options (unset: case 0, the fastest strategy or
/// the first policy, job 0).
#[wasm_bindgen]
pub fn hostfile(
    report: &str,
    format: &str,
    case: Option<u32>,
    strategy: Option<String>,
    job: Option<u32>,
) -> Result<String, JsError> {
    use crate::formats::hostfile::{file_from_report_text, Pick};
    let pick = Pick {
        case: case.map(|c| c as usize),
        strategy,
        job: job.map(|j| j as usize),
        ..Pick::default()
    };
    let w = file_from_report_text(report, format, &pick).map_err(|e| JsError::new(&e))?;
    let hosts = w
        .picked
        .hosts
        .iter()
        .collect::<std::collections::BTreeSet<_>>()
        .len();
    let out = serde_json::json!({
        "text": w.text,
        "what": w.picked.what,
        "ranks": w.picked.hosts.len(),
        "hosts": hosts,
        "keepsOrder": w.keeps_order,
        "label": w.label,
    });
    Ok(out.to_string())
}

/// The statistics of each list of a JSON list of number lists ([`crate::study::page::summaries`]).
#[wasm_bindgen]
pub fn study_summaries(lists: &str) -> Result<String, JsError> {
    crate::study::page::summaries(lists).map_err(funnel)
}

/// Axes, groups and metrics of a tidy table's header ([`crate::study::page::tidy_layout`]).
#[wasm_bindgen]
pub fn study_tidy_layout(columns: &str) -> Result<String, JsError> {
    crate::study::page::tidy_layout(columns).map_err(funnel)
}

/// An SWF log read as a stream from the page's chosen file ([`crate::formats::swf::SwfReader`])
/// and attached under its name ([`crate::attach`]) for scenarios that name it
/// (`workload.swfFile`): the worker pushes the file's chunks, then `finish` attaches it.
#[wasm_bindgen]
pub struct SwfAttach {
    name: String,
    reader: crate::formats::swf::SwfReader,
}

#[wasm_bindgen]
impl SwfAttach {
    #[wasm_bindgen(constructor)]
    pub fn new(name: &str) -> SwfAttach {
        SwfAttach {
            name: name.to_string(),
            reader: crate::formats::swf::SwfReader::new(crate::attach::MAX_KEPT_JOBS),
        }
    }

    /// Feeds the file's next chunk; a bad line is an error naming its line and column.
    pub fn push(&mut self, chunk: &[u8]) -> Result<(), JsError> {
        self.reader.push(chunk).map_err(|e| JsError::new(&e))
    }

    /// Bytes read so far.
    pub fn bytes(&self) -> f64 {
        self.reader.bytes() as f64
    }

    /// Attaches the log; returns the JSON text of `{name, digest, jobs, skipped, beyond,
    /// widest, computer, maxNodes, maxProcs}` (`widest`: the most processors a kept job
    /// requests).
    pub fn finish(self) -> Result<String, JsError> {
        let log = self.reader.finish().map_err(|e| JsError::new(&e))?;
        let log = crate::attach::attach_swf(&self.name, log);
        Ok(serde_json::json!({
            "name": self.name,
            "digest": log.digest,
            "jobs": log.jobs.len(),
            "skipped": log.skipped,
            "beyond": log.beyond,
            "widest": log.jobs.iter().map(|j| j.requested_processors).max().unwrap_or(0),
            "computer": log.header.computer,
            "maxNodes": log.header.max_nodes,
            "maxProcs": log.header.max_procs,
        })
        .to_string())
    }
}

/// A time-independent trace read as streams from the page's chosen files (an SMPI index's rank
/// files, or one merged text) and attached under the index's name ([`crate::attach`]) for
/// scenarios that name it (`trace.attached`): for each file `begin`, its chunks `push`ed, `end`;
/// then `finish` attaches it.
#[wasm_bindgen]
pub struct TraceAttach {
    name: String,
    trace: crate::trace::model::Trace,
    digest: crate::formats::digest::Fnv64,
    files: Vec<String>,
    stream: Option<crate::trace::ti::TiStream>,
}

#[wasm_bindgen]
impl TraceAttach {
    #[wasm_bindgen(constructor)]
    pub fn new(name: &str) -> TraceAttach {
        TraceAttach {
            name: name.to_string(),
            trace: crate::trace::model::Trace::new(0, crate::trace::model::Origin::Files),
            digest: Default::default(),
            files: Vec::new(),
            stream: None,
        }
    }

    /// Starts the next rank file, named `file` in errors.
    pub fn begin(&mut self, file: &str) -> Result<(), JsError> {
        let max = crate::trace::limits::MAX_RANKS as usize;
        if self.files.len() >= max {
            return Err(JsError::new(&format!("more than {max} rank files")));
        }
        self.stream = Some(crate::trace::ti::TiStream::new(
            self.files.len() as u32,
            1.0,
        ));
        self.files.push(file.to_string());
        Ok(())
    }

    /// Feeds the current file's next chunk; a bad line is an error naming the file and line.
    pub fn push(&mut self, chunk: &[u8]) -> Result<(), JsError> {
        self.digest.update(chunk);
        let file = self.files.last().cloned().unwrap_or_default();
        let s = self
            .stream
            .as_mut()
            .ok_or_else(|| JsError::new("push before begin"))?;
        s.push(chunk, &mut self.trace)
            .map_err(|e| JsError::new(&format!("{file}: {e}")))
    }

    /// Ends the current file.
    pub fn end(&mut self) -> Result<(), JsError> {
        let file = self.files.last().cloned().unwrap_or_default();
        if let Some(s) = self.stream.take() {
            s.finish(&mut self.trace)
                .map_err(|e| JsError::new(&format!("{file}: {e}")))?;
        }
        Ok(())
    }

    /// Attaches the trace; returns the JSON text of `{name, digest, files, ranks, events}`.
    pub fn finish(mut self) -> Result<String, JsError> {
        self.end()?;
        let (ranks, events) = (self.trace.ranks.len(), self.trace.events());
        let digest = self.digest.fingerprint();
        crate::attach::attach_trace(
            &self.name,
            crate::attach::AttachedTrace {
                trace: self.trace,
                digest: digest.clone(),
                files: self.files.clone(),
            },
        );
        Ok(serde_json::json!({
            "name": self.name, "digest": digest, "files": self.files, "ranks": ranks, "events": events,
        })
        .to_string())
    }
}
