//! Graph files: the METIS graph format (read and written), plain edge lists, METIS `.xyz`
//! coordinates, gpmetis part files and gpmetis `-tpwgts` files, one file per format:
//! [`graph_file`] (METIS `.graph`, read and written), [`edge_list`], [`xyz`], [`part`] (gpmetis
//! part files) and [`tpwgts`] (gpmetis `-tpwgts` files), on the shared tokenizer and number
//! parsing of [`text`]. They read into [`crate::graph::Graph`].
//!
//! # Complexity
//! Every reader is linear in the size of the text (`O(V + E)` for a graph), with `O(V + E)`
//! memory allocated only as lines are read, so a header announcing more vertices than the file
//! has lines is refused before any allocation. The symmetry check builds the transposed
//! adjacency once (`O(E)`) instead of searching lists.

pub mod edge_list;
pub mod graph_file;
pub mod part;
pub mod text;
pub mod tpwgts;
pub mod xyz;

pub use edge_list::*;
pub use graph_file::*;
pub use part::*;
pub use tpwgts::*;
pub use xyz::*;
