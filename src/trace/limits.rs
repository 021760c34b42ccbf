//! The limits a trace shares between the scenario's checks ([`super::scenario`], which
//! re-exports them) and the trace readers ([`super::alog`], [`super::ti`], [`super::text`]).

/// Most nodes of a platform (node indices are bytes in the searches' assignments).
pub const MAX_NODES: u32 = 64;
/// Most ranks of a trace. A replay's tables hold a link per ordered pair of ranks (16 bytes
/// each, and [`super::replay::LANES`] times that for the searches' lane tables: 128 MiB at 1,024
/// ranks, counted by admission), so the rank limit is set by memory, not by the nodes.
pub const MAX_RANKS: u32 = 1024;
/// Most cores of one node (ranks it may hold).
pub const MAX_CORES: u32 = 1024;
/// Most events (compute, send and receive records) of a trace after parsing or generation.
pub const MAX_EVENTS: u64 = 2_000_000;
/// Largest time, size, flop count or ratio accepted anywhere.
pub const MAX_VALUE: f64 = 1e15;
