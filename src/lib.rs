//! placelab: a laboratory for placing parallel jobs on parallel machines. Scenario text in,
//! report JSON out, the same natively (`src/bin/placelab/`) and in the browser (`src/wasm.rs`).
//!
//! The engines, pure (no I/O, no clock, seeded randomness), in the registry's order:
//! 1. [`alloc`]: multi-job allocation by closed minimum graph partitioning on meshes and trees.
//! 2. [`partition`]: a multilevel graph partitioner against simple baselines.
//! 3. [`place`]: one job's task graph placed on a torus, mesh or fat tree by five strategies.
//! 4. [`select`]: which machines one job should get (selection, subsystems, reservation).
//! 5. [`moldable`]: moldable job sets on `n` machines (strip packing, a genetic algorithm).
//! 6. [`trace`]: an MPI trace replayed on heterogeneous nodes, task-to-node assignments searched.
//!
//! The shared layers:
//! - [`scenario`]: the one parser, scenario text to the envelope and an engine's typed fields.
//! - [`json`]: strict JSON (duplicate keys, paths) under the parser.
//! - [`params`]: an engine's field table: each field's default, range, label and options, read
//!   by the parser, serde's defaults and the page's form.
//! - [`error`]: the one error funnel, [`ScenarioError`] naming the JSON path.
//! - [`engine`]: the [`engine::Engine`] trait every engine implements.
//! - [`engines`]: the registry, one line per engine.
//! - [`api`]: the dispatcher the CLI and the wasm boundary call.
//! - [`progress`]: progress from engines to the CLI or the page, and its throttle.
//! - [`split`]: a run split across workers (the plan the page's pool asks for).
//! - [`study`]: one scenario swept over fields and seeds, each point run through [`api`], the
//!   reports reduced to tidy and aggregate tables (`placelab study`).
//! - [`rng`]: the one seeded random generator.
//! - [`topology`]: meshes and trees, node numbering and routes.
//! - [`netsim`]: the flow-level network simulator.
//! - [`graph`]: the CSR graph of the readers, the partitioner and the placement engine.
//! - [`formats`]: readers for the field's file formats (METIS graph files, SWF workload logs).
//! - `wasm` (wasm32 only): the wasm boundary.

pub mod alloc;
pub mod moldable;
pub mod partition;
pub mod place;
pub mod select;
pub mod trace;

pub mod api;
pub mod attach;
pub mod engine;
pub mod engines;
pub mod error;
pub mod formats;
pub mod graph;
pub mod json;
pub mod netsim;
pub mod params;
pub mod progress;
pub mod rng;
pub mod scenario;
pub mod split;
pub mod study;
pub mod topology;

#[cfg(target_arch = "wasm32")]
pub mod wasm;

pub use error::ScenarioError;
