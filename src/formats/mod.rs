//! Readers for the file formats of the field, shared by the engines.
//!
//! - [`swf`]: the Standard Workload Format of the Parallel Workloads Archive.

pub mod swf;
pub mod metis;
