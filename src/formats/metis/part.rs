//! gpmetis part files: one part id per line, vertex 1 first.

use std::fmt::Write as _;

/// A part file as gpmetis writes it: the part id of vertex `i` on line `i + 1`.
pub fn write_part(part: &[u32]) -> String {
    let mut s = String::with_capacity(part.len() * 3);
    for &p in part {
        let _ = writeln!(s, "{p}");
    }
    s
}
