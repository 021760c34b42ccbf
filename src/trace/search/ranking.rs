//! The ranking every search fills: assignments with their predicted times, in one total order.

use std::cmp::Ordering;

/// Marks a rank not yet placed.
pub const FREE: u8 = u8::MAX;

/// An assignment and its predicted time.
#[derive(Debug, Clone, PartialEq)]
pub struct Ranked {
    pub time: f64,
    /// Node per rank.
    pub assign: Vec<u8>,
}

/// The total order of the ranking: time, then assignment lexicographically.
pub fn order(a: &Ranked, b: &Ranked) -> Ordering {
    a.time
        .total_cmp(&b.time)
        .then_with(|| a.assign.cmp(&b.assign))
}

/// The best `cap` representatives seen, in [`order`], without repeats.
#[derive(Debug, Clone)]
pub struct TopList {
    pub cap: usize,
    pub rows: Vec<Ranked>,
}

impl TopList {
    pub fn new(cap: usize) -> Self {
        TopList {
            cap: cap.max(1),
            rows: Vec::new(),
        }
    }

    /// Time of the last row when full (nothing slower can enter), else infinity.
    pub fn threshold(&self) -> f64 {
        if self.rows.len() >= self.cap {
            self.rows[self.rows.len() - 1].time
        } else {
            f64::INFINITY
        }
    }

    /// Inserts a representative unless present or not among the best `cap`.
    pub fn insert(&mut self, time: f64, assign: &[u8]) {
        if self.rows.len() >= self.cap {
            let last = &self.rows[self.rows.len() - 1];
            if time
                .total_cmp(&last.time)
                .then_with(|| assign.cmp(&last.assign[..]))
                != Ordering::Less
            {
                return;
            }
        }
        let probe = |r: &Ranked| {
            r.time
                .total_cmp(&time)
                .then_with(|| r.assign[..].cmp(assign))
        };
        match self.rows.binary_search_by(probe) {
            Ok(_) => {}
            Err(i) => {
                self.rows.insert(
                    i,
                    Ranked {
                        time,
                        assign: assign.to_vec(),
                    },
                );
                self.rows.truncate(self.cap);
            }
        }
    }

    pub fn best(&self) -> Option<&Ranked> {
        self.rows.first()
    }
}

/// Counters of a search.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Stats {
    /// Search-tree nodes bounded, or assignments evaluated.
    pub visited: u64,
    /// Exact replays.
    pub replays: u64,
    /// Relaxed replays (bounds).
    pub bound_replays: u64,
    /// Per-rank bounds ([`super::RankBound`]).
    pub rank_bounds: u64,
    /// Children not opened because their bound exceeded the ranking's threshold.
    pub pruned: u64,
    /// Replay steps spent.
    pub steps: u64,
}

/// Why a search stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    Complete,
    Budget,
    Memory,
}

impl Stop {
    pub fn id(self) -> &'static str {
        match self {
            Stop::Complete => "complete",
            Stop::Budget => "budget",
            Stop::Memory => "memory",
        }
    }
}

/// The result of a search.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub top: TopList,
    pub stats: Stats,
    pub stop: Stop,
    /// Whether the ranking's first row is proven the least time of all assignments.
    pub proven: bool,
    /// No assignment is faster than this.
    pub lower_bound: f64,
    /// The identical ranks the search was reduced by.
    pub symmetry: Option<super::symmetry::RankSymmetry>,
}
