//! Progress reporting from engines to whoever runs them (the CLI ignores it; the page draws a bar).
//! Engines call [`Progress::tick`] often; implementations throttle.

/// Receives `done` out of `total` units of work. An engine's units are proportional to its
/// estimated work over the whole run (the allocation engine: each policy's simulation, then its
/// contention sweep and report rows, see `alloc::progress_phases`), so a bar drawn from them
/// moves roughly linearly in time.
pub trait Progress {
    /// Called as work advances: `done <= total`, `done` never decreases, `total` stays the same,
    /// and the last call has `done == total`.
    fn tick(&mut self, done: u64, total: u64);
    /// Says that a named phase of the run starts now (e.g. one method of the partitioning
    /// engine; `end` after the last), so a host with a clock can time each phase: the page
    /// shows them, the engine itself never reads a clock. Ignored by default.
    fn phase(&mut self, _name: &str) {}
    /// Whether [`Progress::partial`] is listened to; engines build partial results only then.
    fn wants_partial(&self) -> bool {
        false
    }
    /// Offers a partial result while the run goes on (e.g. the moldable GA's convergence curve
    /// and best schedule so far), for a host that shows it live; the final report does not
    /// depend on it. Ignored by default.
    fn partial(&mut self, _value: &serde_json::Value) {}
}

/// One part of a run seen as the whole: maps the part's own `tick(done, total)` onto its span
/// `base .. base + span` of the run's `total` (engines that run several methods or cases in turn).
pub struct Span<'a> {
    pub progress: &'a mut dyn Progress,
    pub base: u64,
    pub span: u64,
    pub total: u64,
}

impl Progress for Span<'_> {
    fn tick(&mut self, done: u64, total: u64) {
        let f = if total == 0 {
            1.0
        } else {
            (done as f64 / total as f64).clamp(0.0, 1.0)
        };
        let at = self.base + (self.span as f64 * f) as u64;
        self.progress.tick(at.min(self.total), self.total);
    }
}

/// Discards progress.
pub struct NoProgress;

impl Progress for NoProgress {
    fn tick(&mut self, _done: u64, _total: u64) {}
}

/// Decides which ticks a host passes on (the page posts each one across a worker boundary): the
/// first tick at 1 % of the work or more, then each tick at least 1 % past the last one passed,
/// and always the last (`done == total`). Counts in permille of `total`; `total == 0` is done.
#[derive(Debug, Default, Clone)]
pub struct Throttle {
    last_permille: u64,
}

impl Throttle {
    pub fn new() -> Throttle {
        Throttle::default()
    }

    /// Whether the tick `done` of `total` is passed on.
    pub fn pass(&mut self, done: u64, total: u64) -> bool {
        let permille = if total == 0 {
            1000
        } else {
            done.saturating_mul(1000) / total
        };
        if permille >= self.last_permille + 10 || done == total {
            self.last_permille = permille;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Throttle;

    fn passed(total: u64, ticks: impl IntoIterator<Item = u64>) -> Vec<u64> {
        let mut t = Throttle::new();
        ticks.into_iter().filter(|&d| t.pass(d, total)).collect()
    }

    #[test]
    fn about_one_tick_per_percent_and_always_the_last() {
        let p = passed(10_000, 0..=10_000);
        assert_eq!(p.len(), 100);
        assert_eq!(p[0], 100, "the first tick passed is at 1 %");
        assert!(p.windows(2).all(|w| w[1] - w[0] == 100));
        assert_eq!(*p.last().unwrap(), 10_000);
    }

    #[test]
    fn few_units_pass_every_tick_and_zero_total_is_done() {
        assert_eq!(passed(3, 0..=3), vec![1, 2, 3]);
        assert_eq!(passed(0, [0, 0]), vec![0, 0]);
    }

    #[test]
    fn the_last_tick_passes_even_right_after_another() {
        assert_eq!(passed(1000, [10, 15, 999, 1000]), vec![10, 999, 1000]);
    }

    #[test]
    fn huge_counts_do_not_overflow() {
        // done × 1000 saturates: half of u64::MAX reads as 1 permille, not 500
        assert_eq!(passed(u64::MAX, [u64::MAX / 2, u64::MAX]), vec![u64::MAX]);
    }
}
