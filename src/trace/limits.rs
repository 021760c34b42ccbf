//! The limits a trace shares between the scenario's checks ([`super::scenario`], which
//! re-exports them) and the trace readers ([`super::alog`], [`super::ti`], [`super::text`]).

/// Most ranks of a trace and most nodes of a platform.
pub const MAX_NODES: u32 = 64;
/// Most events (compute, send and receive records) of a trace after parsing or generation.
pub const MAX_EVENTS: u64 = 2_000_000;
/// Largest time, size, flop count or ratio accepted anywhere.
pub const MAX_VALUE: f64 = 1e15;
