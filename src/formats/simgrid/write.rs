//! Writing SimGrid platform files (placeholder, filled below).
