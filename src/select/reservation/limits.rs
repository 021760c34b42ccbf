//! The reservation protocol's limits, shared by the scenario's checks and field table
//! ([`crate::select::scenario`]) and the simulation ([`super::simulate`]).

/// Most stations in a simulation.
pub const MAX_STATIONS: u32 = 10_000;
/// Most initiators in a simulation.
pub const MAX_INITIATORS: u32 = 1_000;
/// Most `stations x initiators` (the per-channel tables grow with it).
pub const MAX_CHANNELS: u64 = 1_000_000;
/// Largest logical time (start, delays, holds, limits).
pub const MAX_TIME: u64 = 1_000_000_000;
/// Most events kept in the report's event list (`maxEvents`).
pub const MAX_EVENT_ROWS: u32 = 100_000;
/// Most holder intervals kept in the report.
pub const MAX_HOLD_ROWS: usize = 50_000;
/// Most violations listed (all are counted).
pub const MAX_VIOLATION_ROWS: usize = 100;
/// Most events processed in one simulation (`maxSteps`).
pub const MAX_STEPS: u64 = 20_000_000;
/// Most retries an initiator may be allowed.
pub const MAX_RETRIES: u32 = 10_000;
