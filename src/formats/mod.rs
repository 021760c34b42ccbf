//! Readers for the file formats of the field, shared by the engines.
//!
//! - [`metis`]: graph files (METIS `.graph`, edge lists, `.xyz` coordinates, gpmetis part and
//!   `-tpwgts` files).
//! - [`swf`]: the Standard Workload Format of the Parallel Workloads Archive, read as a stream.
//! - [`lines`]: whole lines out of a stream fed in chunks.
//! - [`digest`]: the FNV-1a fingerprint of reports and attached files.
//! - [`hostlist`]: Slurm's hostlist expressions (`tux[000-127,200]`), written and read.
//! - [`topology_conf`]: Slurm's `topology.conf` (switches of the `topology/tree` plugin).
//! - [`simgrid`]: SimGrid platform files (4.1), read for the network simulator and written
//!   from a built platform.
//! - [`hostfile`]: placements out: MPICH machinefiles, Open MPI hostfiles and rankfiles,
//!   `SLURM_HOSTFILE` and Slurm nodelists.

pub mod digest;
pub mod hostfile;
pub mod hostlist;
pub mod lines;
pub mod metis;
pub mod simgrid;
pub mod swf;
pub mod topology_conf;
