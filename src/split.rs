//! Runs split across workers: a scenario may ask to run on several workers at once (the moldable
//! GA's islands do). The host asks the dispatcher for the scenario's [`Plan`]
//! ([`crate::api::plan`]); engines that do not split answer with one worker (the default of
//! [`crate::engines::Engine::split`]), and the host then calls [`crate::api::run`].
//!
//! A split run has parts (`0..parts`), each hosted by one worker ([`Plan::parts`]: part `i` on
//! worker `i mod W`), and a coordinator ([`Split`]) where the run's progress goes. They meet in
//! rounds: the coordinator writes every part's mail ([`Round::Mail`]), each part reads its mail,
//! works and answers ([`Part::step`]), and the coordinator reads every answer and writes the
//! next round's mail, until it has the report ([`Round::Done`]). Mail and answers are words
//! (`u32`) whose meaning only the engine knows, so the host routes them without knowing the
//! engine. The coordinator ticks the run's progress and offers partial results through the
//! [`Progress`] it is given, as a run in one worker does. The report never depends on the
//! number of workers or on timing: it is byte for byte the one [`crate::api::run`] returns.

use crate::error::Result;
use crate::progress::Progress;
use serde::Serialize;

/// Most workers a split run uses, whatever the scenario asks and the host has.
pub const MAX_WORKERS: u32 = 8;

/// How a scenario runs on a host: how many workers, which parts each hosts, and the run's
/// progress ticks. The parts' results merge in the coordinator ([`Split`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Plan {
    /// Workers that run the scenario; 1: one worker runs it whole ([`crate::api::run`]).
    pub workers: u32,
    /// The parts worker `k` hosts (`parts[k]`); empty when one worker runs it whole.
    pub parts: Vec<Vec<u32>>,
    /// The `total` of the run's progress ticks, when known before it runs (split runs).
    pub ticks: Option<u64>,
}

impl Plan {
    /// One worker runs the scenario whole.
    pub fn one() -> Plan {
        Plan {
            workers: 1,
            parts: Vec::new(),
            ticks: None,
        }
    }

    /// `parts` parts over `W = min(wanted, parts, threads, MAX_WORKERS)` workers, part `i` on
    /// worker `i mod W`; [`Plan::one`] when `W < 2`.
    pub fn deal(parts: u32, wanted: u32, threads: u32, ticks: u64) -> Plan {
        let w = wanted.min(parts).min(threads).min(MAX_WORKERS);
        if w < 2 {
            return Plan::one();
        }
        Plan {
            workers: w,
            parts: (0..w)
                .map(|k| (0..parts).filter(|i| i % w == k).collect())
                .collect(),
            ticks: Some(ticks),
        }
    }
}

/// What the coordinator wants next.
pub enum Round<R> {
    /// Another round: part `i` receives `mail[i]`.
    Mail(Vec<Vec<u32>>),
    /// The run is over: its report.
    Done(R),
}

/// One part of a split run, hosted by a worker.
pub trait Part {
    /// Reads this round's mail, works, and answers the coordinator.
    ///
    /// # Errors
    /// Mail that does not decode (never a panic).
    fn step(&mut self, mail: &[u32]) -> Result<Vec<u32>>;
}

/// A scenario split into parts ([`crate::engines::Engine::split`]): builds the parts (in the
/// workers) and coordinates the rounds (where the run's progress goes).
pub trait Split {
    /// The run's report.
    type Report;
    /// The number of parts.
    fn parts(&self) -> u32;
    /// The workers the scenario asks for (the host caps them: [`Plan::deal`]).
    fn workers(&self) -> u32;
    /// The `total` of the run's progress ticks.
    fn ticks(&self) -> u64;
    /// Builds part `index`.
    ///
    /// # Errors
    /// `index` not below [`Split::parts`].
    fn part(&self, index: u32) -> Result<Box<dyn Part>>;
    /// Reads every part's answer to the last round (`answers[i]` from part `i`; empty before
    /// the first round) and says what comes next.
    ///
    /// # Errors
    /// Answers that do not decode or do not match the scenario.
    fn next(
        &mut self,
        answers: &[Vec<u32>],
        progress: &mut dyn Progress,
    ) -> Result<Round<Self::Report>>;
}

/// Runs a split run's rounds here, one part after another, as a host's workers would (the tests,
/// and a host without workers): the report [`crate::api::run`] gives for the same text.
///
/// # Errors
/// The split run's errors.
pub fn run_here<R>(split: &mut dyn Split<Report = R>, progress: &mut dyn Progress) -> Result<R> {
    let mut parts = (0..split.parts())
        .map(|i| split.part(i))
        .collect::<Result<Vec<_>>>()?;
    let mut answers = Vec::new();
    loop {
        match split.next(&answers, progress)? {
            Round::Done(report) => return Ok(report),
            Round::Mail(mail) => {
                answers = parts
                    .iter_mut()
                    .zip(&mail)
                    .map(|(p, m)| p.step(m))
                    .collect::<Result<Vec<_>>>()?;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Plan;

    #[test]
    fn parts_are_dealt_round_robin_over_the_workers_the_host_affords() {
        let p = Plan::deal(5, 4, 3, 100);
        assert_eq!(p.workers, 3);
        assert_eq!(p.parts, vec![vec![0, 3], vec![1, 4], vec![2]]);
        assert_eq!(p.ticks, Some(100));
        assert_eq!(Plan::deal(16, 16, 64, 1).workers, super::MAX_WORKERS);
        assert_eq!(Plan::deal(4, 4, 1, 100), Plan::one());
        assert_eq!(Plan::deal(1, 4, 4, 100), Plan::one());
        assert_eq!(Plan::deal(4, 1, 4, 100), Plan::one());
    }
}
