//! The reservation protocol of Qi & Ju, the selection engine's `reservation` part: [`protocol`]
//! (the protocol, its fixes and the scenario's spec), [`mod@simulate`] (the discrete-event
//! simulation) and [`report`] (what a simulation reports). The spec's checks are
//! [`crate::select::scenario::validate_reservation`].

pub mod protocol;
pub mod report;
pub mod simulate;

pub use protocol::*;
pub use report::*;
pub use simulate::*;
