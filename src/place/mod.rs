//! Engine 4, placement (SPEC §2, Zhdanov & Korkhov): task graphs placed on tori, meshes and
//! fat/thin trees by five strategies, evaluated by static metrics and a flow-level network
//! simulation.

pub mod jobs;
pub mod strategy;
