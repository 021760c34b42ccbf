//! Readers for the file formats of the field, shared by the engines.
//!
//! - [`metis`]: graph files (METIS `.graph`, edge lists, `.xyz` coordinates, gpmetis part and
//!   `-tpwgts` files).
//! - [`swf`]: the Standard Workload Format of the Parallel Workloads Archive.
//! - [`hostlist`]: Slurm's hostlist expressions (`tux[000-127,200]`), written and read.
//! - [`simgrid`]: SimGrid platform files (4.1), read for the network simulator and written
//!   from a built platform.
//! - [`hostfile`]: placements out: MPICH machinefiles, Open MPI hostfiles and rankfiles,
//!   `SLURM_HOSTFILE` and Slurm nodelists.

pub mod hostfile;
pub mod hostlist;
pub mod metis;
pub mod simgrid;
pub mod swf;
