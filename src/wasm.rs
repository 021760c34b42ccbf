//! The wasm boundary: the only file that knows about wasm-bindgen, web-sys and
//! serde-wasm-bindgen. Each export is a shim over
//! [`crate::api`]; errors leave through one funnel as a JS `Error` whose message is the JSON
//! `{"path": ..., "message": ...}`.

use crate::progress::Progress;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

/// Calls a JS `onProgress(done, total)` at most about every 1% of the work.
struct JsProgress {
    callback: Option<js_sys::Function>,
    last_permille: u64,
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

    /// Posts `{type: 'partial', value}` to the page straight from the worker (the worker runs
    /// one scenario at a time, so the page knows which run it belongs to); nothing outside a
    /// dedicated worker.
    fn partial(&mut self, value: &serde_json::Value) {
        use serde::Serialize;
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
        let permille = if total == 0 {
            1000
        } else {
            done.saturating_mul(1000) / total
        };
        if permille >= self.last_permille + 10 || done == total {
            self.last_permille = permille;
            let _ = cb.call2(
                &JsValue::NULL,
                &JsValue::from_f64(done as f64),
                &JsValue::from_f64(total as f64),
            );
        }
    }
}

fn funnel(e: crate::ScenarioError) -> JsError {
    JsError::new(&e.to_json())
}

/// Runs a scenario; returns the report JSON. `on_progress(done, total)` is optional; it is also
/// called as `on_progress(null, null, name)` when a named phase of the run starts.
#[wasm_bindgen]
pub fn run(scenario: &str, on_progress: Option<js_sys::Function>) -> Result<String, JsError> {
    let mut p = JsProgress {
        callback: on_progress,
        last_permille: 0,
    };
    crate::api::run(scenario, &mut p).map_err(funnel)
}

/// [`run`] for a live preview ([`crate::api::run_preview`]): the engine may reduce the report to
/// what the drawing needs, and then says `"preview": true` in the envelope.
#[wasm_bindgen]
pub fn run_preview(
    scenario: &str,
    on_progress: Option<js_sys::Function>,
) -> Result<String, JsError> {
    let mut p = JsProgress {
        callback: on_progress,
        last_permille: 0,
    };
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

/// The moldable GA's plan for running its islands in several workers (JSON of
/// [`crate::moldable::parallel::Plan`]), or `undefined` when the scenario runs as one (also
/// when it is refused: [`run`] then says why).
#[wasm_bindgen]
pub fn moldable_plan(scenario: &str) -> Option<String> {
    crate::moldable::parallel::plan_of_text(scenario)
        .map(|plan| serde_json::to_string(&plan).expect("plans serialize"))
}

/// One island of a moldable GA, hosted by a page's island worker (the step API of
/// [`crate::moldable::parallel::IslandRun`]).
#[wasm_bindgen]
pub struct MoldableIsland(crate::moldable::parallel::IslandRun);

#[wasm_bindgen]
impl MoldableIsland {
    #[wasm_bindgen(constructor)]
    pub fn new(scenario: &str, island: u32) -> Result<MoldableIsland, JsError> {
        crate::moldable::parallel::IslandRun::new(scenario, island)
            .map(MoldableIsland)
            .map_err(funnel)
    }
    pub fn run_to(&mut self, cycle: u32) {
        self.0.run_to(cycle)
    }
    pub fn cycle(&self) -> u32 {
        self.0.cycle()
    }
    pub fn makespan(&self) -> f64 {
        self.0.makespan()
    }
    pub fn curve_from(&self, from: u32) -> Vec<f64> {
        self.0.curve_from(from)
    }
    pub fn migrant(&self) -> Vec<u32> {
        self.0.migrant()
    }
    pub fn inject(&mut self, words: &[u32]) -> Result<(), JsError> {
        self.0.inject(words).map_err(|e| JsError::new(&e))
    }
    /// The partial result (JSON) of this island's best after `cycle`, with the islands' curve.
    pub fn partial(&self, cycle: u32, curve: &[f64]) -> String {
        self.0.partial(cycle, curve).to_string()
    }
    pub fn result_words(&self) -> Vec<u32> {
        self.0.result_words()
    }
}

/// The report of a moldable scenario whose islands ran in workers:
/// [`crate::moldable::parallel::finish`].
#[wasm_bindgen]
pub fn moldable_finish(scenario: &str, results: &[u32]) -> Result<String, JsError> {
    crate::moldable::parallel::finish(scenario, results).map_err(funnel)
}
