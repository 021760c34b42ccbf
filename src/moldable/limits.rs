//! The limits a moldable job set shares between the scenario's checks ([`super::scenario`],
//! which re-exports them) and the TORQUE request reader ([`super::torque`]).

/// Most machines (`n`): 2^20, sixteen times the source's largest system.
pub const MAX_MACHINES: u32 = 1 << 20;
/// Most variants of one job.
pub const MAX_VARIANTS: usize = 16;
/// Largest time of a variant (and release time), in the scenario's time unit.
pub const MAX_TIME: f64 = 1e9;
