//! Progress reporting from engines to whoever runs them (the CLI ignores it; the page draws a bar).
//! Engines call [`Progress::tick`] often; implementations throttle.

/// Receives `done` out of `total` units of work.
pub trait Progress {
    /// Called as work advances; `done <= total`.
    fn tick(&mut self, done: u64, total: u64);
}

/// Discards progress.
pub struct NoProgress;

impl Progress for NoProgress {
    fn tick(&mut self, _done: u64, _total: u64) {}
}
