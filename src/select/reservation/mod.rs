//! The reservation protocol of Qi & Ju, the selection engine's `reservation` part: [`protocol`]
//! (the protocol and its fixes), [`mod@simulate`] (the discrete-event
//! simulation) and [`report`] (what a simulation reports). The scenario's spec,
//! its defaults and checks are in [`crate::select::scenario`] with the engine's field table.

pub mod limits;
pub mod protocol;
pub mod report;
pub mod simulate;

// the scenario's part, declared with the selection engine's field table
pub use crate::select::scenario::{DelaySpec, FixesSpec, InitiatorSpec, ReservationSpec};
pub use protocol::*;
pub use report::*;
pub use simulate::*;
