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
/// Most events (compute, send and receive records) of a trace after parsing or generation:
/// readers stop as soon as a trace passes it. Memory, not time, sets it: at
/// [`BYTES_PER_EVENT`] the largest trace holds under the memory budget
/// ([`crate::engine::MAX_BYTES`]) with the search's own memory beside it, and reading,
/// compiling and replaying ten million events natively takes seconds (`docs/benchmarks.md`).
pub const MAX_EVENTS: u64 = 10_000_000;
/// Peak bytes one event of a blocking point-to-point trace costs from reading to the report: 32
/// in the trace's compact form ([`super::model::Event`]), and while it is compiled its message
/// id (4) and its share of a message (at most half of one: the matching's 16 bytes, the
/// replay's 32-byte message, 4 bytes of the send's queue), then the search's and the report's
/// tables per instruction. Measured over the whole run (`scripts/bench-trace-files.py`, the
/// process's peak beyond a 1 MiB trace's): 52 bytes on a ring of ten million events (a compute
/// a message), 61 on one without computes (two events a message, the worst case); rounded up.
/// Admission counts it ([`super::scenario::estimate`]).
pub const BYTES_PER_EVENT: f64 = 64.0;
/// Peak bytes an event costs when the trace has non-blocking calls or collectives: its ranks are
/// lowered into a copy (40 bytes an operation) and compiled into 48-byte instructions with
/// their request slots. Measured 130 on a non-blocking ring of 3,000,000 events (`isend`,
/// `irecv`, two `wait`s and a compute a message), rounded up.
pub const BYTES_PER_EVENT_GENERAL: f64 = 144.0;
/// Largest time, size, flop count or ratio accepted anywhere.
pub const MAX_VALUE: f64 = 1e15;
