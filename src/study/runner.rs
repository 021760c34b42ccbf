//! The native study runner: the points of a study (or of one shard) on a rayon pool, the
//! results directory written as points finish, resumed when rerun, merged from shards
//! ([`run`], [`merge`]); or every point kept in memory, no file written ([`run_in_memory`]).
//!
//! A results directory holds:
//! - `study.json`: the study in canonical form ([`Study::canonical`]);
//! - `points.jsonl`: the journal ([`journal`]), one line appended per finished point (flushed at
//!   least every [`FLUSH_EVERY`], whole lines only);
//! - `tidy.csv`, `tidy.jsonl`: the tidy table, written in point order as the points before
//!   each finish (a reorder buffer holds the points that finished early), so a reader can follow
//!   a run with `tail -f` (the points run costliest first, [`super::Admission::costliest_first`],
//!   so the table may grow late in a study whose first points are its cheapest; the journal
//!   grows as points finish);
//! - `aggregate.csv`, `aggregate.jsonl`: the aggregate table, written when the run completes.
//!
//! Invariants:
//! - once a run completes, every file is a function of the study and its points' outcomes
//!   alone (the journal is rewritten sorted, the tables from it), so the files are identical
//!   byte for byte whatever the thread count, the order points finished, resumptions, or
//!   whether the points ran in shards and were merged ([`merge`]);
//! - every file is replaced atomically (written to `NAME.tmp`, then renamed) or appended whole
//!   lines at a time, so an interrupted run (Ctrl-C) leaves valid files: a journal whose
//!   complete lines are finished points, tidy tables that are a prefix of the final ones (the
//!   points of the last [`FLUSH_EVERY`] may be missing from both, and are recomputed);
//! - rerunning into the same directory keeps the journal's points (after checking the study's
//!   hash) and computes only the others.

use super::journal::{self, Journal};
use super::table::{self, csv_header, jsonl_keys, tidy_columns};
use super::{check_limit, refuse_if_all_invalid, run_point, shard_range, Outcome, Study};
use crate::error::ScenarioError;
use rayon::prelude::*;
use std::fs::{self, File, OpenOptions};
use std::io::{BufWriter, Write};

/// How often the journal and the tidy files are flushed while points finish: an interruption
/// loses at most this much finished work (recomputed on resume), and a study of tiny points
/// does not pay three system calls a point.
const FLUSH_EVERY: std::time::Duration = std::time::Duration::from_millis(100);
use std::path::{Path, PathBuf};

/// How to run.
#[derive(Debug, Clone)]
pub struct Options {
    pub dir: PathBuf,
    /// Worker threads; 0 for one per core.
    pub threads: usize,
    /// `(k, n)`: run shard `k` of `n` (`(0, 1)`: the whole study).
    pub shard: (u64, u64),
    /// The most points this run may compute (the admission limit).
    pub max_points: u64,
    /// The most estimated native seconds of one core the run's points may need
    /// ([`super::check_work_limit`]; the CLI's default [`super::DEFAULT_MAX_SECONDS`]).
    pub max_seconds: f64,
}

/// What a run did.
#[derive(Debug, Clone, Default)]
pub struct Summary {
    /// Points of this run (the shard's).
    pub points: u64,
    /// Points kept from an earlier run into the same directory.
    pub kept: u64,
    /// Points computed now.
    pub computed: u64,
    /// Points that ended as error rows.
    pub failed: u64,
    /// Points the engine refused at admission (they are error rows too), with the message.
    pub invalid: Vec<(u64, String)>,
    /// Metrics without a value in any point (a typo, or another mode of the engine).
    pub absent_metrics: Vec<String>,
    /// The files written.
    pub files: Vec<PathBuf>,
}

/// Why a run or a merge stopped before computing.
#[derive(Debug, Clone)]
pub enum Error {
    /// The study (or one of its points) is refused.
    Refused(ScenarioError),
    /// A file cannot be read or written, or a results directory is not this study's.
    Files(String),
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Refused(e) => write!(f, "{e}"),
            Error::Files(m) => write!(f, "{m}"),
        }
    }
}

fn io(path: &Path, e: std::io::Error) -> Error {
    Error::Files(format!("{}: {e}", path.display()))
}

/// Writes `text` to `path` atomically: `path.tmp`, then a rename over `path`.
pub fn write_atomic(path: &Path, text: &str) -> Result<(), Error> {
    let tmp = path.with_extension(format!(
        "{}.tmp",
        path.extension().and_then(|e| e.to_str()).unwrap_or("")
    ));
    fs::write(&tmp, text).map_err(|e| io(&tmp, e))?;
    fs::rename(&tmp, path).map_err(|e| io(path, e))
}

/// The outcome of point `i`, an engine panic included (as an error row).
fn compute(study: &Study, i: u64) -> Outcome {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run_point(study, i))) {
        Ok(o) => o,
        Err(payload) => {
            let msg = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "no message".into());
            Outcome::Error(format!("the engine stopped on an internal error: {msg}"))
        }
    }
}

/// The tidy files, appended in point order as points finish.
struct TidyWriter {
    csv: BufWriter<File>,
    jsonl: BufWriter<File>,
    keys: Vec<String>,
    next: u64,
}

impl TidyWriter {
    fn open(dir: &Path, study: &Study, start: u64) -> Result<Self, Error> {
        let columns = tidy_columns(study);
        let mut csv = BufWriter::new(File::create(dir.join("tidy.csv")).map_err(|e| io(dir, e))?);
        let jsonl = BufWriter::new(File::create(dir.join("tidy.jsonl")).map_err(|e| io(dir, e))?);
        csv.write_all(csv_header(&columns).as_bytes())
            .map_err(|e| io(dir, e))?;
        Ok(TidyWriter {
            csv,
            jsonl,
            keys: jsonl_keys(&columns),
            next: start,
        })
    }
    /// Writes every point from `next` on that `outcomes` holds.
    fn advance(
        &mut self,
        study: &Study,
        start: u64,
        outcomes: &[Option<Outcome>],
    ) -> std::io::Result<()> {
        let mut csv = String::new();
        let mut jsonl = String::new();
        while let Some(Some(o)) = outcomes.get((self.next - start) as usize) {
            table::push_tidy(study, &self.keys, &[(self.next, o)], &mut csv, &mut jsonl);
            self.next += 1;
        }
        if !csv.is_empty() {
            self.csv.write_all(csv.as_bytes())?;
            self.jsonl.write_all(jsonl.as_bytes())?;
        }
        Ok(())
    }
}

/// A rayon pool of `threads` threads (0: one per core).
fn thread_pool(threads: usize) -> Result<rayon::ThreadPool, Error> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Error::Files(format!("cannot start the threads: {e}")))
}

/// Admission on `pool`: every point of `range` validated before anything runs; the refused
/// ones, sorted, become error rows ([`super::Admission::invalid`]), and the points run in the
/// order of [`super::Admission::costliest_first`].
fn admit_on(
    pool: &rayon::ThreadPool,
    study: &Study,
    range: &std::ops::Range<u64>,
    max_seconds: f64,
) -> Result<super::Admission, Error> {
    // Validity and the work estimate do not depend on the seed: one judgement per combination
    // (at its first point in the range), in parallel, then spread over its replicates.
    let firsts: Vec<u64> = range
        .clone()
        .filter(|&i| i == range.start || study.combination_of(i) != study.combination_of(i - 1))
        .collect();
    let judged: Vec<std::result::Result<f64, ScenarioError>> = pool.install(|| {
        firsts
            .par_iter()
            .map(|&i| super::judge_point(study, i))
            .collect()
    });
    let mut admission = super::Admission::new(study.points);
    let mut k = 0;
    for i in range.clone() {
        if k + 1 < firsts.len() && firsts[k + 1] == i {
            k += 1;
        }
        admission.add(i, &judged[k]);
    }
    refuse_if_all_invalid(study, range, &admission.invalid).map_err(Error::Refused)?;
    super::check_work_limit(study, &admission, max_seconds).map_err(Error::Refused)?;
    Ok(admission)
}

/// Every point's outcome, in point order, kept in memory.
#[derive(Debug, Clone)]
pub struct Outcomes {
    /// The outcome of point `i` at index `i`.
    pub outcomes: Vec<Outcome>,
    /// Points the engine refused at admission (error rows among `outcomes` too).
    pub invalid: Vec<(u64, ScenarioError)>,
}

impl Outcomes {
    /// The points with their outcomes, as [`table::render_all`] takes them.
    pub fn done(&self) -> Vec<(u64, &Outcome)> {
        (0u64..).zip(&self.outcomes).collect()
    }
}

/// Runs every point of a whole study in memory on `threads` threads (0: one per core), with
/// the admission of [`run`], writing no file: for a caller that wants the tables, not a results
/// directory (the Python package renders them with [`table::render_all`], byte for byte the
/// files [`run`] writes). Each worker calls `progress(done, total)` after a point (one at a time)
/// and stops taking points once it returns `false`.
///
/// # Returns
/// `Ok(None)` when `progress` stopped the run before every point finished.
///
/// # Errors
/// Those of [`run`] before anything computes: more points than `max_points`, every point
/// refused, or no threads.
pub fn run_in_memory(
    study: &Study,
    threads: usize,
    max_points: u64,
    progress: &(dyn Fn(u64, u64) -> bool + Sync),
) -> Result<Option<Outcomes>, Error> {
    check_limit(study, max_points).map_err(Error::Refused)?;
    let pool = thread_pool(threads)?;
    let range = 0..study.points;
    let admission = admit_on(&pool, study, &range, super::DEFAULT_MAX_SECONDS)?;
    let order = admission.costliest_first();
    let done = std::sync::Mutex::new(0u64);
    // Handed out costliest first (as `run` does), collected by point.
    let finished: Option<Vec<(u64, Outcome)>> = pool.install(|| {
        order
            .into_iter()
            .par_bridge()
            .map(|i| {
                let o = compute(study, i);
                let mut d = done.lock().unwrap_or_else(|p| p.into_inner());
                *d += 1;
                progress(*d, study.points).then_some((i, o))
            })
            .collect()
    });
    Ok(finished.map(|mut finished| {
        finished.sort_unstable_by_key(|(i, _)| *i);
        Outcomes {
            outcomes: finished.into_iter().map(|(_, o)| o).collect(),
            invalid: admission.invalid,
        }
    }))
}

/// The metrics without a value in any finished point (a typo, or another mode of the engine).
pub fn absent_metrics(study: &Study, done: &[(u64, &Outcome)]) -> Vec<String> {
    study
        .metrics
        .iter()
        .enumerate()
        .filter(|(m, _)| {
            !done.iter().any(|(_, o)| match o {
                Outcome::Ok(rows) => rows.iter().any(|r| !r.values[*m].is_null()),
                Outcome::Error(_) => false,
            })
        })
        .map(|(_, metric)| metric.text.clone())
        .collect()
}

/// Runs a study (or the shard `opts.shard`) into `opts.dir`, calling `progress(done, total)` as
/// points finish (`done` counts kept points too; called from the worker threads, one at a time).
///
/// # Errors
/// [`Error::Refused`] when the shard has more points than `opts.max_points` or every point is
/// refused; [`Error::Files`] when a file cannot be written or the directory holds another
/// study's (or shard's) journal.
pub fn run(
    study: &Study,
    opts: &Options,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<Summary, Error> {
    let (k, n) = opts.shard;
    let range = shard_range(study.points, k, n);
    let total = range.end - range.start;
    if n > 1 {
        if total > opts.max_points {
            return Err(Error::Refused(ScenarioError::at(
                "",
                format!(
                    "shard {k}/{n} has {total} points; the limit is {} (raise it with --max-points)",
                    opts.max_points
                ),
            )));
        }
    } else {
        check_limit(study, opts.max_points).map_err(Error::Refused)?;
    }
    let pool = thread_pool(opts.threads)?;
    let admission = admit_on(&pool, study, &range, opts.max_seconds)?;

    let dir = &opts.dir;
    fs::create_dir_all(dir).map_err(|e| io(dir, e))?;
    let journal_path = dir.join(journal::FILE);
    let kept: Vec<(u64, Outcome)> = match fs::read_to_string(&journal_path) {
        Ok(text) => {
            let j: Journal = journal::read(&text, &journal_path.display().to_string(), study)
                .map_err(|m| {
                    Error::Files(format!(
                        "{m}; use another directory (-o) or delete this one"
                    ))
                })?;
            if j.header.shard != opts.shard {
                return Err(Error::Files(format!(
                    "{}: holds shard {}/{} of this study, not {k}/{n}",
                    journal_path.display(),
                    j.header.shard.0,
                    j.header.shard.1
                )));
            }
            j.points
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(io(&journal_path, e)),
    };
    write_atomic(&dir.join("study.json"), &study.canonical())?;

    let mut outcomes: Vec<Option<Outcome>> = vec![None; total as usize];
    for (i, o) in kept {
        outcomes[(i - range.start) as usize] = Some(o);
    }
    let kept_count = outcomes.iter().filter(|o| o.is_some()).count() as u64;
    {
        let done: Vec<(u64, &Outcome)> = outcomes
            .iter()
            .enumerate()
            .filter_map(|(j, o)| o.as_ref().map(|o| (range.start + j as u64, o)))
            .collect();
        write_atomic(
            &journal_path,
            &journal::render(study, opts.shard, &range, &done),
        )?;
    }
    let journal_file = OpenOptions::new()
        .append(true)
        .open(&journal_path)
        .map_err(|e| io(&journal_path, e))?;
    let mut tidy = TidyWriter::open(dir, study, range.start)?;
    tidy.advance(study, range.start, &outcomes)
        .map_err(|e| io(dir, e))?;

    // Costliest first, as the page does (why: `Admission::costliest_first`).
    let todo: Vec<u64> = admission
        .costliest_first()
        .into_iter()
        .filter(|&i| outcomes[(i - range.start) as usize].is_none())
        .collect();
    progress(kept_count, total);
    // The workers record their own points under one lock (appending the journal line, then
    // writing whatever prefix of the tidy table is complete): no hand-over to another thread
    // per point, and on one thread no lock contention at all.
    struct Shared {
        journal: BufWriter<File>,
        /// The last point the journal holds, and whether its points are in order so far.
        journal_last: Option<u64>,
        journal_sorted: bool,
        flushed: std::time::Instant,
        tidy: TidyWriter,
        outcomes: Vec<Option<Outcome>>,
        done: u64,
        failure: Option<Error>,
    }
    impl Shared {
        fn flush(&mut self) -> std::io::Result<()> {
            self.journal.flush()?;
            self.tidy.csv.flush()?;
            self.tidy.jsonl.flush()?;
            self.flushed = std::time::Instant::now();
            Ok(())
        }
    }
    let journal_last = outcomes
        .iter()
        .rposition(Option::is_some)
        .map(|j| range.start + j as u64);
    let shared = std::sync::Mutex::new(Shared {
        journal: BufWriter::new(journal_file),
        journal_last,
        journal_sorted: true,
        flushed: std::time::Instant::now(),
        tidy,
        outcomes,
        done: kept_count,
        failure: None,
    });
    pool.install(|| {
        // par_bridge hands the points out in `todo`'s order.
        todo.into_iter().par_bridge().for_each(|i| {
            let o = compute(study, i);
            let line = journal::point_line(i, &o);
            let mut g = shared.lock().unwrap_or_else(|p| p.into_inner());
            if g.failure.is_some() {
                return;
            }
            if let Err(e) = g.journal.write_all(line.as_bytes()) {
                g.failure = Some(io(&journal_path, e));
                return;
            }
            if g.journal_last.is_some_and(|last| i < last) {
                g.journal_sorted = false;
            }
            g.journal_last = Some(g.journal_last.map_or(i, |last| last.max(i)));
            let Shared { tidy, outcomes, .. } = &mut *g;
            outcomes[(i - range.start) as usize] = Some(o);
            if let Err(e) = tidy.advance(study, range.start, outcomes) {
                g.failure = Some(io(dir, e));
                return;
            }
            g.done += 1;
            if g.flushed.elapsed() >= FLUSH_EVERY {
                if let Err(e) = g.flush() {
                    g.failure = Some(io(dir, e));
                    return;
                }
            }
            progress(g.done, total);
        })
    });
    let mut shared = shared.into_inner().unwrap_or_else(|p| p.into_inner());
    shared.flush().map_err(|e| io(dir, e))?;
    if let Some(e) = shared.failure {
        return Err(e);
    }
    let (outcomes, journal_sorted) = (shared.outcomes, shared.journal_sorted);

    // Complete: every file from the sorted outcomes.
    let done: Vec<(u64, &Outcome)> = outcomes
        .iter()
        .enumerate()
        .map(|(j, o)| (range.start + j as u64, o.as_ref().expect("every point ran")))
        .collect();
    // The tidy files are complete and in point order already; the journal is in the order
    // points finished, sorted now unless it already is.
    let streams = Streams::Live { journal_sorted };
    let mut summary = pool.install(|| finish(study, dir, opts.shard, &range, &done, streams))?;
    summary.kept = kept_count;
    summary.computed = total - kept_count;
    summary.invalid = admission
        .invalid
        .into_iter()
        .map(|(i, e)| (i, e.to_string()))
        .collect();
    Ok(summary)
}

/// Points per piece of text rendered on one thread when a run completes or shards merge.
const CHUNK_POINTS: usize = 1024;
/// Pieces rendered at once (in parallel) before they are written.
const BATCH_CHUNKS: usize = 32;

/// How [`finish`] comes by the journal and the tidy files.
#[derive(Debug, Clone, Copy)]
enum Streams {
    /// Rendered from the outcomes (a merge).
    Render,
    /// Written as points finished ([`run`]): the tidy files complete and in point order, the
    /// journal complete, in point order when `journal_sorted`.
    Live { journal_sorted: bool },
}

/// The journal at `path` with its point lines sorted by point (the header line first): the
/// bytes [`journal::render`] gives for the same outcomes, since each line is
/// [`journal::push_point_line`]'s.
fn sort_journal(path: &Path) -> Result<(), Error> {
    let text = fs::read_to_string(path).map_err(|e| io(path, e))?;
    let (head, body) = text.split_at(text.find('\n').map_or(text.len(), |n| n + 1));
    let mut lines: Vec<(u64, &str)> = body
        .split_inclusive('\n')
        .map(|line| (journal::line_point(line).unwrap_or(u64::MAX), line))
        .collect();
    lines.sort_by_key(|&(i, _)| i);
    let mut out = String::with_capacity(text.len());
    out.push_str(head);
    for (_, line) in lines {
        out.push_str(line);
    }
    write_atomic(path, &out)
}

/// Writes every file of a completed directory from its sorted outcomes. The journal and tidy
/// files are streamed: batches of [`BATCH_CHUNKS`] pieces of [`CHUNK_POINTS`] points are
/// rendered on the current rayon pool, then written in order (so the bytes do not depend on
/// the thread count, and the memory held is one batch's text, not the files'); the aggregate
/// rows are rendered in runs of whole combinations. Each file goes to `NAME.tmp` first and is
/// renamed over `NAME` once everything is written.
fn finish(
    study: &Study,
    dir: &Path,
    shard: (u64, u64),
    range: &std::ops::Range<u64>,
    done: &[(u64, &Outcome)],
    from: Streams,
) -> Result<Summary, Error> {
    fs::create_dir_all(dir).map_err(|e| io(dir, e))?;
    let (tidy_cols, agg_cols) = (tidy_columns(study), table::aggregate_columns(study));
    let (tidy_keys, agg_keys) = (jsonl_keys(&tidy_cols), jsonl_keys(&agg_cols));
    let tmp_of = |path: &Path| {
        path.with_extension(format!(
            "{}.tmp",
            path.extension().and_then(|e| e.to_str()).unwrap_or("")
        ))
    };

    // The journal, tidy.csv and tidy.jsonl, streamed.
    let mut streams = Vec::new();
    let stream_files: Vec<PathBuf> = [journal::FILE, "tidy.csv", "tidy.jsonl"]
        .iter()
        .map(|n| dir.join(n))
        .collect();
    let render_streams = match from {
        Streams::Render => true,
        Streams::Live { journal_sorted } => {
            if !journal_sorted {
                sort_journal(&stream_files[0])?;
            }
            false
        }
    };
    let heads = [
        journal::header_line(study, shard, range),
        csv_header(&tidy_cols),
        String::new(),
    ];
    for (path, head) in stream_files.iter().zip(heads).filter(|_| render_streams) {
        let path = path.clone();
        let tmp = tmp_of(&path);
        let mut f = File::create(&tmp).map_err(|e| io(&tmp, e))?;
        f.write_all(head.as_bytes()).map_err(|e| io(&tmp, e))?;
        streams.push((path, tmp, f));
    }
    // Bytes a point takes in each stream, learnt from the last batch, so the strings of the
    // next are allocated once.
    let mut per_point = [80usize, 120, 240];
    let render = |batch: &[(u64, &Outcome)], per_point: [usize; 3]| -> Vec<[String; 3]> {
        batch
            .par_chunks(CHUNK_POINTS)
            .map(|part| {
                let mut t = per_point.map(|b| String::with_capacity(b * part.len()));
                for (i, o) in part {
                    journal::push_point_line(&mut t[0], *i, o);
                }
                let [_, csv, jsonl] = &mut t;
                table::push_tidy(study, &tidy_keys, part, csv, jsonl);
                t
            })
            .collect()
    };
    let write = |streams: &mut Vec<(PathBuf, PathBuf, File)>, parts: &[[String; 3]]| {
        for part in parts {
            for ((_, tmp, f), text) in streams.iter_mut().zip(part) {
                f.write_all(text.as_bytes()).map_err(|e| io(tmp, e))?;
            }
        }
        Ok::<(), Error>(())
    };
    // Batch k is written while batch k + 1 renders.
    let mut written: Vec<[String; 3]> = Vec::new();
    for batch in done
        .chunks(CHUNK_POINTS * BATCH_CHUNKS)
        .filter(|_| render_streams)
    {
        let (w, parts) = rayon::join(
            || write(&mut streams, &written),
            || render(batch, per_point),
        );
        w?;
        for (k, b) in per_point.iter_mut().enumerate() {
            let bytes: usize = parts.iter().map(|p| p[k].len()).sum();
            *b = (*b).max(bytes / batch.len() + 16);
        }
        written = parts;
    }
    write(&mut streams, &written)?;

    // The aggregate, in runs of whole combinations (each about CHUNK_POINTS points or one
    // combination).
    let mut runs = Vec::new();
    let mut from = 0;
    while from < done.len() {
        let mut to = (from + CHUNK_POINTS).min(done.len());
        let c = study.combination_of(done[to - 1].0);
        while to < done.len() && study.combination_of(done[to].0) == c {
            to += 1;
        }
        runs.push(&done[from..to]);
        from = to;
    }
    let aggregate: Vec<[String; 2]> = runs
        .par_iter()
        .map(|part| {
            let [mut csv, mut jsonl] = [String::new(), String::new()];
            table::push_aggregate(study, &agg_keys, part, &mut csv, &mut jsonl);
            [csv, jsonl]
        })
        .collect();
    let mut agg_csv = csv_header(&agg_cols);
    let mut agg_jsonl = String::new();
    for [csv, jsonl] in &aggregate {
        agg_csv.push_str(csv);
        agg_jsonl.push_str(jsonl);
    }

    // Every file in place, in this order.
    let study_path = dir.join("study.json");
    write_atomic(&study_path, &study.canonical())?;
    let mut files = vec![study_path];
    for (path, tmp, f) in streams {
        drop(f);
        fs::rename(&tmp, &path).map_err(|e| io(&path, e))?;
    }
    files.extend(stream_files);
    for (name, text) in [("aggregate.csv", agg_csv), ("aggregate.jsonl", agg_jsonl)] {
        let path = dir.join(name);
        write_atomic(&path, &text)?;
        files.push(path);
    }
    let failed = done
        .iter()
        .filter(|(_, o)| matches!(o, Outcome::Error(_)))
        .count() as u64;
    let absent_metrics = absent_metrics(study, done);
    Ok(Summary {
        points: range.end - range.start,
        failed,
        absent_metrics,
        files,
        ..Summary::default()
    })
}

/// Merges the results directories of a study's shards (`placelab study STUDY --shard k/n`)
/// into `out`, writing exactly the files a whole run writes.
///
/// # Errors
/// [`Error::Files`] naming the file: a directory without `study.json` or journal, shards of
/// different studies, a shard missing or given twice, a truncated or incomplete shard.
pub fn merge(dirs: &[PathBuf], out: &Path) -> Result<Summary, Error> {
    let first = dirs
        .first()
        .ok_or_else(|| Error::Files("no shard directories given".into()))?;
    let study_path = first.join("study.json");
    let text = fs::read_to_string(&study_path).map_err(|e| io(&study_path, e))?;
    let study = super::parse_inline(&text)
        .map_err(|e| Error::Files(format!("{}: {e}", study_path.display())))?;
    // The journals are read and parsed in parallel, then checked in the order given (the
    // first problem in that order is the one reported).
    let journals: Vec<Result<Journal, Error>> = dirs
        .par_iter()
        .map(|dir| {
            let path = dir.join(journal::FILE);
            let text = fs::read_to_string(&path).map_err(|e| io(&path, e))?;
            journal::read(&text, &path.display().to_string(), &study)
                .map_err(|m| Error::Files(format!("{m} (the study is {})", study_path.display())))
        })
        .collect();
    let mut shards: std::collections::BTreeMap<u64, &PathBuf> = Default::default();
    let mut count = None;
    let mut all: Vec<(u64, Outcome)> = Vec::with_capacity(study.points as usize);
    for (dir, j) in dirs.iter().zip(journals) {
        let j = j?;
        let name = dir.join(journal::FILE).display().to_string();
        let (k, n) = j.header.shard;
        let n_all = *count.get_or_insert(n);
        if n != n_all || k >= n {
            return Err(Error::Files(format!(
                "{name}: holds shard {k}/{n}, but {} holds one of {n_all}",
                first.display(),
            )));
        }
        if let Some(other) = shards.get(&k) {
            return Err(Error::Files(format!(
                "{name}: shard {k}/{n} is also in {}",
                other.display()
            )));
        }
        let expected = shard_range(study.points, k, n);
        if (j.header.first, j.header.end) != (expected.start, expected.end) {
            return Err(Error::Files(format!(
                "{name}:1: shard {k}/{n} should hold points {}..{}",
                expected.start, expected.end
            )));
        }
        let have = j.points.len() as u64;
        if j.truncated_tail || have != expected.end - expected.start {
            return Err(Error::Files(format!(
                "{name}: truncated: holds {have} of the shard's {} points; rerun the shard into its directory to finish it",
                expected.end - expected.start
            )));
        }
        shards.insert(k, dir);
        all.extend(j.points);
    }
    let n = count.unwrap_or(1);
    if let Some(k) = (0..n).find(|k| !shards.contains_key(k)) {
        let r = shard_range(study.points, k, n);
        return Err(Error::Files(format!(
            "shard {k}/{n} (points {}..{}) is missing: none of the {} directories given holds it; give every shard's directory",
            r.start,
            r.end,
            dirs.len()
        )));
    }
    // Shards hold disjoint blocks, each sorted: given in order, they need no sort.
    if !all.is_sorted_by_key(|(i, _)| *i) {
        all.sort_by_key(|(i, _)| *i);
    }
    let done: Vec<(u64, &Outcome)> = all.iter().map(|(i, o)| (*i, o)).collect();
    let summary = finish(
        &study,
        out,
        (0, 1),
        &(0..study.points),
        &done,
        Streams::Render,
    );
    drop(done);
    // Millions of small allocations: freed on every core.
    all.into_par_iter().for_each(drop);
    summary
}

#[cfg(test)]
mod tests {
    use super::*;

    const STUDY: &str = r#"{"version":1,
        "base":{"version":1,"engine":"allocation","seed":3,
          "system":{"kind":"mesh","width":6,"height":6},"policies":["sequential","hilbert"],
          "workload":{"kind":"generated","count":8,"minTasks":1,"maxTasks":9,"meanInterarrival":2,"meanDuration":20}},
        "axes":[{"path":"system.width","values":[1,4,6]}],
        "replicates":{"count":3,"baseSeed":5}}"#;

    #[test]
    fn in_memory_tables_are_the_files_a_run_writes_on_any_thread_count() {
        let study = crate::study::parse_inline(STUDY).unwrap();
        let dir = std::env::temp_dir().join(format!("placelab-runner-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let opts = Options {
            dir: dir.clone(),
            threads: 2,
            shard: (0, 1),
            max_points: 100,
            max_seconds: crate::study::DEFAULT_MAX_SECONDS,
        };
        run(&study, &opts, &|_, _| {}).unwrap();
        let files = ["tidy.csv", "tidy.jsonl", "aggregate.csv", "aggregate.jsonl"]
            .map(|f| fs::read_to_string(dir.join(f)).unwrap());
        let _ = fs::remove_dir_all(&dir);
        for threads in [1, 2] {
            let o = run_in_memory(&study, threads, 100, &|_, _| true)
                .unwrap()
                .unwrap();
            assert_eq!(table::render_all(&study, &o.done()), files);
        }
    }

    #[test]
    fn in_memory_run_stops_when_progress_says_so_and_refuses_over_the_limit() {
        let study = crate::study::parse_inline(STUDY).unwrap();
        assert!(run_in_memory(&study, 1, 100, &|done, _| done < 2)
            .unwrap()
            .is_none());
        let calls = std::sync::atomic::AtomicU64::new(0);
        run_in_memory(&study, 2, 100, &|_, total| {
            assert_eq!(total, 9);
            calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            true
        })
        .unwrap()
        .unwrap();
        assert_eq!(calls.into_inner(), 9);
        match run_in_memory(&study, 1, 8, &|_, _| true) {
            Err(Error::Refused(e)) => assert!(e.message.contains("9 points"), "{e}"),
            other => panic!("{other:?}"),
        }
    }
}
