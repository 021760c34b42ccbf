//! The selection engine (SPEC §3 and §5): which machines one job should get.
//! This placeholder only exposes the reservation protocol; the engine itself lives on h8-selcore.

pub mod reservation;
