//! `placelab study`: runs a study document on this machine's cores (or one shard of it) and
//! merges shards. The study machinery is [`placelab::study`]; this file only reads files and
//! flags, draws the progress bar and prints where the files are.

use placelab::study::{self, runner, BaseSource};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub const USAGE: &str =
    "  placelab study STUDY.json [-o DIR] [--threads N] [--max-points N] [--shard K/N]
                             run a study (docs/format.md, 'Studies'): every point on N threads
                             (default: all cores), into DIR (default: STUDY.results beside the
                             study file): tidy.csv/.jsonl, aggregate.csv/.jsonl, points.jsonl,
                             study.json. Rerunning into DIR resumes. --max-points: admission
                             limit (default 100000); --shard K/N: run the K-th of N shards
  placelab study merge DIR... -o OUT
                             merge the shards' directories into the files a whole run writes";

/// The examples compiled into the binary, for `"example": "id"`.
mod examples {
    include!(concat!(env!("OUT_DIR"), "/examples.rs"));
}

fn fail(msg: impl std::fmt::Display, code: u8) -> ExitCode {
    eprintln!("placelab: {msg}");
    ExitCode::from(code)
}

fn usage(msg: &str) -> ExitCode {
    fail(format!("{msg}\n(see 'placelab --help')"), 2)
}

/// `placelab study ...` with the arguments after `study`.
pub fn main(args: &[String]) -> ExitCode {
    if args.first().map(String::as_str) == Some("merge") {
        return merge_main(&args[1..]);
    }
    let mut file: Option<&str> = None;
    let mut dir: Option<PathBuf> = None;
    let mut threads = 0usize;
    let mut max_points = study::DEFAULT_MAX_POINTS;
    let mut shard = (0u64, 1u64);
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        let (name, inline) = match a.split_once('=') {
            Some((n, v)) if n.starts_with('-') => (n, Some(v.to_string())),
            _ => (a, None),
        };
        let mut value = || -> Option<String> {
            inline.clone().or_else(|| {
                i += 1;
                args.get(i).cloned()
            })
        };
        match name {
            "-o" | "--output" => match value() {
                Some(v) => dir = Some(PathBuf::from(v)),
                None => return usage("-o needs a directory"),
            },
            "--threads" => match value().and_then(|v| v.parse().ok()).filter(|&t| t >= 1) {
                Some(t) => threads = t,
                None => return usage("--threads needs a whole number from 1"),
            },
            "--max-points" => match value().and_then(|v| v.parse().ok()) {
                Some(m) => max_points = m,
                None => return usage("--max-points needs a whole number"),
            },
            "--shard" => {
                let parsed = value().and_then(|v| {
                    let (k, n) = v.split_once('/')?;
                    Some((k.parse::<u64>().ok()?, n.parse::<u64>().ok()?))
                });
                match parsed {
                    Some((k, n)) if n >= 1 && k < n => shard = (k, n),
                    _ => return usage("--shard needs K/N with 0 <= K < N, e.g. --shard 0/8"),
                }
            }
            _ if a.starts_with('-') && a != "-" => return usage(&format!("unknown option {a}")),
            _ if file.is_none() => file = Some(a),
            _ => return usage(&format!("unexpected argument {a}")),
        }
        i += 1;
    }
    let Some(file) = file else {
        return usage("placelab study needs a study file");
    };
    let text = match read(Path::new(file)) {
        Ok(t) => t,
        Err((m, code)) => return fail(m, code),
    };
    let here = Path::new(file).parent().unwrap_or(Path::new(""));
    let mut resolve = |source: BaseSource<'_>| -> Result<String, String> {
        match source {
            BaseSource::File(p) => read(&here.join(p)).map_err(|(m, _)| m),
            BaseSource::Example(id) => examples::EXAMPLES
                .iter()
                .find(|(name, _, _)| name.strip_suffix(".json") == Some(id))
                .map(|(_, text, _)| text.to_string())
                .ok_or_else(|| {
                    let ids: Vec<&str> = examples::EXAMPLES
                        .iter()
                        .map(|(n, _, _)| n.trim_end_matches(".json"))
                        .collect();
                    format!("no example \"{id}\"; the examples: {}", ids.join(", "))
                }),
        }
    };
    let study = match study::parse(&text, &mut resolve) {
        Ok(s) => s,
        Err(e) => return fail(format!("{file}: {e}"), 1),
    };
    let dir = dir.unwrap_or_else(|| {
        let stem = Path::new(file)
            .file_stem()
            .map_or("study".into(), |s| s.to_string_lossy().into_owned());
        let name = if shard.1 > 1 {
            format!("{stem}.shard-{}-of-{}", shard.0, shard.1)
        } else {
            format!("{stem}.results")
        };
        here.join(name)
    });
    let opts = runner::Options {
        dir: dir.clone(),
        threads,
        shard,
        max_points,
    };
    let bar = progress_bar();
    let result = runner::run(&study, &opts, &|done, total| {
        if let Some(bar) = &bar {
            bar.set_length(total);
            bar.set_position(done);
        }
    });
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    match result {
        Ok(s) => {
            for (i, e) in s.invalid.iter().take(3) {
                eprintln!(
                    "placelab: {file}: point {i} ({}) is refused and is an error row: {e}",
                    study::describe_point(&study, *i)
                );
            }
            if s.invalid.len() > 3 {
                eprintln!(
                    "placelab: ... and {} more refused points",
                    s.invalid.len() - 3
                );
            }
            report(&s, &dir);
            ExitCode::SUCCESS
        }
        Err(runner::Error::Refused(e)) => fail(format!("{file}: {e}"), 1),
        Err(runner::Error::Files(m)) => fail(m, 1),
    }
}

fn merge_main(args: &[String]) -> ExitCode {
    let mut dirs = Vec::new();
    let mut out: Option<PathBuf> = None;
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "-o" | "--output" => {
                i += 1;
                match args.get(i) {
                    Some(v) => out = Some(PathBuf::from(v)),
                    None => return usage("-o needs a directory"),
                }
            }
            a if a.starts_with('-') => return usage(&format!("unknown option {a}")),
            a => dirs.push(PathBuf::from(a)),
        }
        i += 1;
    }
    let Some(out) = out else {
        return usage("placelab study merge needs -o OUT");
    };
    if dirs.is_empty() {
        return usage("placelab study merge needs the shards' directories");
    }
    match runner::merge(&dirs, &out) {
        Ok(s) => {
            eprintln!(
                "placelab: {} points ({} failed) merged from {} shards into {}",
                s.points,
                s.failed,
                dirs.len(),
                out.display()
            );
            for f in &s.files {
                println!("{}", f.display());
            }
            ExitCode::SUCCESS
        }
        Err(e) => fail(e, 1),
    }
}

/// The summary on stderr, the files on stdout (one path a line).
fn report(s: &runner::Summary, dir: &Path) {
    eprintln!(
        "placelab: {} points ({} kept, {} computed, {} failed) in {}",
        s.points,
        s.kept,
        s.computed,
        s.failed,
        dir.display()
    );
    for m in &s.absent_metrics {
        eprintln!("placelab: warning: the metric {m} has no value in any point");
    }
    for f in &s.files {
        println!("{}", f.display());
    }
}

/// A bar on stderr when it is a terminal: points done, rate, time left.
fn progress_bar() -> Option<indicatif::ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new(0);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:40} {pos}/{len} points  {per_sec}  {eta} left",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    Some(bar)
}

fn read(path: &Path) -> Result<String, (String, u8)> {
    let file = std::fs::File::open(path)
        .map_err(|e| (format!("cannot read {}: {e}", path.display()), 2))?;
    placelab::scenario::read_text(file).map_err(|e| (format!("{}: {e}", path.display()), 1))
}
