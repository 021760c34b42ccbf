//! placelab: a laboratory for placing parallel jobs on parallel machines.
//!
//! The pipeline, the same natively and in the browser:
//! 1. [`scenario`]: one parser turns scenario text into the envelope and the engine's typed
//!    fields, or a [`ScenarioError`] naming the JSON path ([`error`] is the one error funnel).
//! 2. [`engines`]: the registry; each engine validates its scenario and size limits.
//! 3. [`api`]: the dispatcher, scenario text in, report JSON out; used by the CLI
//!    (`src/bin/placelab.rs`) and the wasm boundary (`src/wasm.rs`) alike.
//! 4. The engines, pure (no I/O, no clock, seeded randomness):
//!    - [`alloc`]: multi-job allocation by closed minimum graph partitioning on meshes and trees;
//!    - [`select`]: which machines one job should get (workstation selection, all-to-all
//!      subsystems and layouts);
//!    - [`moldable`]: moldable job sets on `n` machines (FFDH/BFDH strip packing, a genetic
//!      algorithm);
//!    - [`trace`]: replays an MPI trace on heterogeneous nodes and searches the task-to-node
//!      assignments (exhaustive, branch and bound, local search).
//! 5. [`study`]: studies: one scenario swept over fields and seeds, each point run through
//!    [`api`], the reports reduced to tidy and aggregate tables (`placelab study`).
//! 6. [`topology`]: machines, node numbering and routes, shared by the engines;
//!    [`formats`]: readers for the field's file formats (SWF workload logs).

pub mod alloc;
pub mod api;
pub mod engines;
pub mod error;
pub mod formats;
pub mod json;
pub mod moldable;
pub mod netsim;
pub mod params;
pub mod partition;
pub mod place;
pub mod progress;
pub mod rng;
pub mod scenario;
pub mod select;
pub mod study;
pub mod topology;
pub mod trace;

#[cfg(target_arch = "wasm32")]
pub mod wasm;

pub use error::ScenarioError;
