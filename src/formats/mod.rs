//! Readers for the file formats of the field, shared by the engines.
//!
//! - [`metis`]: graph files (METIS `.graph`, edge lists, `.xyz` coordinates, gpmetis part and
//!   `-tpwgts` files).
//! - [`swf`]: the Standard Workload Format of the Parallel Workloads Archive.

pub mod metis;
pub mod swf;
