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
