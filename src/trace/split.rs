//! Exhaustive search in several workers at once: the trace engine's [`crate::split::Split`]
//! (what it means for the host: `src/split.rs`). The subtrees below the assignments of the
//! first two ranks ([`search::prefixes`]) are dealt round robin to the parts (prefix `k` to part
//! `k mod P`); in each of [`ROUNDS`] rounds every part searches the next share of its subtrees
//! and answers the replay steps it spent (the coordinator ticks the run's progress, as
//! [`super::run`] does), and a last round collects every part's ranking and counters, which
//! [`search::merge_exhaustive`] joins (theorem at [`search::exhaustive_over`]): the report is
//! byte for byte the one [`crate::api::run`] returns, whatever the number of workers.
//!
//! Words: mail is `[STEP]` or `[END]`. A part answers `STEP` with the steps of that round
//! `(lo, hi)` and `END` with `[visited, replays, steps (each lo, hi), rows, then per row time
//! (IEEE-754 bits, lo, hi) and the node of each rank]`. Words that do not decode are an error,
//! never a panic.

use super::report::TraceReport;
use super::scenario::{build, Built, Method, TraceScenario};
use super::search::{self, Outcome, Problem, Stats, Stop, TopList};
use crate::error::{Result, ScenarioError};
use crate::progress::Progress;
use crate::scenario::Meta;
use crate::split::{Part, Round, Split};
use std::rc::Rc;

/// Rounds in which the parts search their subtrees (progress between them).
pub const ROUNDS: u32 = 8;
const STEP: u32 = 0;
const END: u32 = 1;

/// The split of an admitted scenario ([`crate::engines::Engine::split`]): an exhaustive search
/// in several workers when the scenario asks for several (`search.workers`) and its first two
/// ranks leave at least two subtrees.
///
/// # Errors
/// Building the scenario's trace and platform (as [`super::TracePrediction::run`]).
#[allow(clippy::type_complexity)]
pub fn split(
    s: TraceScenario,
    _meta: &Meta,
) -> Result<Option<Box<dyn Split<Report = TraceReport>>>> {
    if s.search.workers < 2 {
        return Ok(None);
    }
    let b = build(&s)?;
    if b.method != Method::Exhaustive {
        return Ok(None);
    }
    let prefixes = {
        let prob = Problem::searched(&b.compiled, &b.platform, s.search.rank_symmetry);
        search::prefixes(&prob, 2)
    };
    if prefixes.len() < 2 {
        return Ok(None);
    }
    let parts = s.search.workers.min(prefixes.len() as u32);
    Ok(Some(Box::new(Subtrees {
        s: Rc::new(s),
        b,
        prefixes: Rc::new(prefixes),
        parts,
        round: 0,
        spent: 0,
    })))
}

/// The coordinator: deals the subtrees, ticks progress, merges the parts' outcomes.
pub struct Subtrees {
    s: Rc<TraceScenario>,
    b: Rc<Built>,
    prefixes: Rc<Vec<Vec<u8>>>,
    parts: u32,
    /// Rounds mailed so far.
    round: u32,
    /// Replay steps the parts have spent.
    spent: u64,
}

impl Subtrees {
    fn problem(&self) -> Problem<'_> {
        Problem::searched(
            &self.b.compiled,
            &self.b.platform,
            self.s.search.rank_symmetry,
        )
    }
}

fn bad(e: String) -> ScenarioError {
    ScenarioError::at("", format!("the search parts' answers: {e}"))
}

fn words_u64(x: u64, out: &mut Vec<u32>) {
    out.push(x as u32);
    out.push((x >> 32) as u32);
}

fn read_u64(w: &[u32], at: &mut usize) -> std::result::Result<u64, String> {
    match w.get(*at..*at + 2) {
        Some(&[lo, hi]) => {
            *at += 2;
            Ok(u64::from(lo) | (u64::from(hi) << 32))
        }
        _ => Err(format!("{} words end inside a number", w.len())),
    }
}

/// A part's outcome from its words (see the module's documentation).
fn read_outcome(
    w: &[u32],
    ranks: usize,
    nodes: usize,
    top: usize,
) -> std::result::Result<Outcome, String> {
    let mut at = 0;
    let visited = read_u64(w, &mut at)?;
    let replays = read_u64(w, &mut at)?;
    let steps = read_u64(w, &mut at)?;
    let rows = *w.get(at).ok_or("no row count")? as usize;
    at += 1;
    if rows > top {
        return Err(format!("{rows} rows, more than the {top} listed"));
    }
    let mut list = TopList::new(top);
    for _ in 0..rows {
        let time = f64::from_bits(read_u64(w, &mut at)?);
        let assign = w.get(at..at + ranks).ok_or("a row ends early")?;
        at += ranks;
        if assign.iter().any(|&u| u as usize >= nodes) || !time.is_finite() {
            return Err("a row names no node or no time".into());
        }
        let assign: Vec<u8> = assign.iter().map(|&u| u as u8).collect();
        list.insert(time, &assign);
    }
    if at != w.len() {
        return Err("trailing words".into());
    }
    Ok(Outcome {
        top: list,
        stats: Stats {
            visited,
            replays,
            steps,
            ..Stats::default()
        },
        stop: Stop::Complete,
        proven: true,
        lower_bound: 0.0,
        symmetry: None,
    })
}

impl Split for Subtrees {
    type Report = TraceReport;

    fn parts(&self) -> u32 {
        self.parts
    }

    fn workers(&self) -> u32 {
        self.s.search.workers
    }

    /// As [`super::run`] ticks: its progress units.
    fn ticks(&self) -> u64 {
        super::PROGRESS_UNITS
    }

    fn part(&self, index: u32) -> Result<Box<dyn Part>> {
        if index >= self.parts {
            return Err(ScenarioError::at(
                "search.workers",
                format!("part {index} of {}", self.parts),
            ));
        }
        let mine: Vec<Vec<u8>> = self
            .prefixes
            .iter()
            .skip(index as usize)
            .step_by(self.parts as usize)
            .cloned()
            .collect();
        Ok(Box::new(SubtreePart {
            s: self.s.clone(),
            b: self.b.clone(),
            mine,
            next: 0,
            round: 0,
            out: Vec::new(),
        }))
    }

    fn next(
        &mut self,
        answers: &[Vec<u32>],
        progress: &mut dyn Progress,
    ) -> Result<Round<TraceReport>> {
        let n = self.parts as usize;
        if self.round > 0 && answers.len() != n {
            return Err(bad(format!("{} answers for {n} parts", answers.len())));
        }
        if self.round == 0 {
            progress.tick(0, super::PROGRESS_UNITS);
            progress.phase("search");
        } else if self.round <= ROUNDS {
            for a in answers {
                let mut at = 0;
                self.spent += read_u64(a, &mut at).map_err(bad)?;
                if at != a.len() {
                    return Err(bad("trailing words".into()));
                }
            }
            let expected = (search::assignments_on(&self.b.platform, self.b.compiled.ranks)
                * self.b.compiled.steps() as f64)
                .max(1.0);
            let at = ((self.spent as f64 / expected).min(1.0) * 900.0) as u64;
            progress.tick(at, super::PROGRESS_UNITS);
        } else {
            let top = self.s.search.top as usize;
            let (r, nodes) = (self.b.compiled.ranks, self.b.platform.n);
            let outs = answers
                .iter()
                .enumerate()
                .map(|(i, a)| read_outcome(a, r, nodes, top).map_err(|e| format!("part {i}: {e}")))
                .collect::<std::result::Result<Vec<_>, _>>()
                .map_err(bad)?;
            let prob = self.problem();
            let out = search::merge_exhaustive(&prob, top, &outs);
            progress.tick(900, super::PROGRESS_UNITS);
            progress.phase("report");
            let rep = super::build_report(&self.b, &out);
            progress.tick(super::PROGRESS_UNITS, super::PROGRESS_UNITS);
            progress.phase("end");
            return Ok(Round::Done(rep));
        }
        self.round += 1;
        let kind = if self.round <= ROUNDS { STEP } else { END };
        Ok(Round::Mail(vec![vec![kind]; n]))
    }
}

/// One part: its subtrees, searched a share a round, and its outcome so far.
pub struct SubtreePart {
    s: Rc<TraceScenario>,
    b: Rc<Built>,
    mine: Vec<Vec<u8>>,
    /// Subtrees searched so far.
    next: usize,
    round: u32,
    out: Vec<Outcome>,
}

impl Part for SubtreePart {
    fn step(&mut self, mail: &[u32]) -> Result<Vec<u32>> {
        let bad = |e: &str| ScenarioError::at("", format!("a search part's mail: {e}"));
        let prob = Problem::searched(
            &self.b.compiled,
            &self.b.platform,
            self.s.search.rank_symmetry,
        );
        let top = self.s.search.top as usize;
        match mail {
            [STEP] => {
                self.round += 1;
                let end = (self.mine.len() * self.round as usize)
                    .div_ceil(ROUNDS as usize)
                    .min(self.mine.len());
                let o = search::exhaustive_over(
                    &prob,
                    top,
                    true,
                    &self.mine[self.next..end],
                    &mut |_| {},
                );
                self.next = end;
                let mut w = Vec::new();
                words_u64(o.stats.steps, &mut w);
                self.out.push(o);
                Ok(w)
            }
            [END] => {
                let o = search::merge_exhaustive(&prob, top, &self.out);
                let mut w = Vec::new();
                words_u64(o.stats.visited, &mut w);
                words_u64(o.stats.replays, &mut w);
                words_u64(o.stats.steps, &mut w);
                w.push(o.top.rows.len() as u32);
                for row in &o.top.rows {
                    words_u64(row.time.to_bits(), &mut w);
                    w.extend(row.assign.iter().map(|&u| u32::from(u)));
                }
                Ok(w)
            }
            _ => Err(bad("not a step nor the end")),
        }
    }
}
