//! `placelab study`: runs a study document on this machine's cores (or one shard of it), writes
//! (and submits) its Slurm job scripts, and merges shards. The study machinery is
//! [`placelab::study`] (the scripts' text: [`placelab::study::slurm`]); this file only reads
//! files and flags, draws the progress bar, runs `sbatch` and prints where the files are.

use placelab::study::{self, runner, slurm, BaseSource};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub const USAGE: &str =
    "  placelab study STUDY.json [-o DIR] [--threads N] [--max-points N] [--max-seconds S] [--shard K/N]
                 [--attach [NAME=]LOG]...
                             run a study (docs/format.md, 'Studies'): every point on N threads
                             (default: all cores), into DIR (default: STUDY.results beside the
                             study file): tidy.csv/.jsonl, aggregate.csv/.jsonl, points.jsonl,
                             study.json. Rerunning into DIR resumes. --max-points: admission
                             limit (default 100000); --max-seconds: the most estimated work of
                             the points, seconds of one core (default 28800, 8 h); --shard K/N:
                             run the K-th of N shards; --attach: a workload log the scenarios
                             name (as placelab run; with --slurm it is copied beside the scripts)
  placelab study STUDY.json --slurm DIR [--shards N] [--partition P] [--time T]
                 [--cpus-per-task C] [--account A] [--placelab PATH] [--submit]
                             write a Slurm job array (one task per shard, N default
                             min(points, 64)) and a merge job into DIR, with the study; print
                             how to submit them, or submit them (--submit: sbatch, the merge
                             after the array). The merged results land in DIR/results
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
    let mut max_seconds = study::DEFAULT_MAX_SECONDS;
    let mut max_points_given = false;
    let mut shard = (0u64, 1u64);
    let mut cluster = Cluster::default();
    let mut attach: Vec<String> = Vec::new();
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
            "--max-seconds" => match value()
                .and_then(|v| v.parse::<f64>().ok())
                .filter(|t| *t > 0.0)
            {
                Some(t) => max_seconds = t,
                None => return usage("--max-seconds needs a number of seconds above 0"),
            },
            "--max-points" => match value().and_then(|v| v.parse().ok()) {
                Some(m) => {
                    max_points = m;
                    max_points_given = true;
                }
                None => return usage("--max-points needs a whole number"),
            },
            "--slurm" => match value() {
                Some(v) => cluster.dir = Some(PathBuf::from(v)),
                None => return usage("--slurm needs a directory"),
            },
            "--shards" => match value().map(|v| v.parse::<u64>().map_err(|_| v)) {
                Some(Ok(n)) => cluster.shards = Some(n),
                Some(Err(v)) => return usage(&format!("--shards {v:?}: give a whole number")),
                None => return usage("--shards needs a whole number"),
            },
            "--cpus-per-task" => match value().and_then(|v| v.parse().ok()) {
                Some(c) => cluster.cpus_per_task = Some(c),
                None => return usage("--cpus-per-task needs a whole number"),
            },
            "--partition" | "--time" | "--account" | "--placelab" => match value() {
                Some(v) => {
                    let slot = match name {
                        "--partition" => &mut cluster.partition,
                        "--time" => &mut cluster.time,
                        "--account" => &mut cluster.account,
                        _ => &mut cluster.placelab,
                    };
                    *slot = Some(v);
                }
                None => return usage(&format!("{name} needs a value")),
            },
            "--attach" => match value() {
                Some(v) => attach.push(v),
                None => {
                    return usage("--attach needs [NAME=]PATH: a workload log the scenarios name")
                }
            },
            "--submit" => cluster.submit = true,
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
    // before the study is read: admission reads the logs its scenarios name
    let mut attached = Vec::new();
    for spec in &attach {
        match crate::run::attach_one(spec) {
            Ok(a) => attached.push(a),
            Err((e, code)) => return fail(e, code),
        }
    }
    cluster.attached = attached;
    if cluster.dir.is_some() {
        for (given, flag) in [
            (dir.is_some(), "-o"),
            (shard != (0, 1), "--shard"),
            (threads != 0, "--threads"),
        ] {
            if given {
                return usage(&format!(
                    "{flag} does not go with --slurm (the scripts set each shard's)"
                ));
            }
        }
    } else if let Some(flag) = cluster.flag_given() {
        return usage(&format!("{flag} needs --slurm DIR"));
    }
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
    if let Some(slurm_dir) = &cluster.dir {
        let limit = (max_points, max_points_given);
        return match slurm_main(&study, slurm_dir, &cluster, limit) {
            Ok(()) => ExitCode::SUCCESS,
            Err(m) => fail(m, 1),
        };
    }
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
        max_seconds,
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

/// The `--slurm` flags.
#[derive(Default)]
struct Cluster {
    dir: Option<PathBuf>,
    /// `(NAME, PATH)` of each `--attach`: copied beside the scripts.
    attached: Vec<(String, String)>,
    shards: Option<u64>,
    partition: Option<String>,
    time: Option<String>,
    cpus_per_task: Option<u64>,
    account: Option<String>,
    placelab: Option<String>,
    submit: bool,
}

impl Cluster {
    /// A flag that only means something with `--slurm`, if one was given.
    fn flag_given(&self) -> Option<&'static str> {
        [
            (self.shards.is_some(), "--shards"),
            (self.partition.is_some(), "--partition"),
            (self.time.is_some(), "--time"),
            (self.cpus_per_task.is_some(), "--cpus-per-task"),
            (self.account.is_some(), "--account"),
            (self.placelab.is_some(), "--placelab"),
            (self.submit, "--submit"),
        ]
        .into_iter()
        .find(|(given, _)| *given)
        .map(|(_, flag)| flag)
    }
}

/// `--slurm DIR`: the study and the two scripts into DIR, the instructions on stdout, and with
/// `--submit` the two `sbatch` calls.
fn slurm_main(
    study: &study::Study,
    dir: &Path,
    c: &Cluster,
    (max_points, max_points_given): (u64, bool),
) -> Result<(), String> {
    let absolute = |p: &Path, what: &str| -> Result<String, String> {
        let a = std::path::absolute(p).map_err(|e| format!("{}: {e}", p.display()))?;
        a.to_str()
            .map(str::to_string)
            .ok_or_else(|| format!("{what} {} is not UTF-8 text", a.display()))
    };
    let dir_text = absolute(dir, "the directory")?;
    let placelab = match &c.placelab {
        Some(p) => absolute(Path::new(p), "--placelab")?,
        None => {
            let exe = std::env::current_exe().map_err(|e| {
                format!("cannot find this placelab binary ({e}); give --placelab PATH")
            })?;
            absolute(&exe, "the placelab binary")?
        }
    };
    let shards = c
        .shards
        .unwrap_or_else(|| slurm::default_shards(study.points));
    slurm::check_shards(shards, study.points, max_points).map_err(|e| e.to_string())?;
    let opts = slurm::Options {
        dir: dir_text.clone(),
        placelab,
        shards,
        partition: c.partition.clone(),
        time: c.time.clone(),
        cpus_per_task: c.cpus_per_task.unwrap_or(1),
        account: c.account.clone(),
        max_points: max_points_given.then_some(max_points),
        attach: c.attached.iter().map(|(n, _)| n.clone()).collect(),
    };
    let (array, merge) = slurm::scripts(&opts).map_err(|e| e.to_string())?;

    let dir = Path::new(&dir_text);
    let study_path = dir.join(slurm::STUDY_FILE);
    let canonical = study.canonical();
    // The jobs read the copy: it must be this very study (same hash, same points).
    match study::parse_inline(&canonical) {
        Ok(copy) if copy.hash_hex() == study.hash_hex() => {}
        _ => {
            return Err(
                "the study's canonical form does not read back to the same study (a \
                        number in the base written with 17 significant digits?); shorten it \
                        and retry"
                    .to_string(),
            )
        }
    }
    match std::fs::read_to_string(&study_path) {
        Ok(old) if old != canonical => {
            return Err(format!(
                "{}: holds another study; use another directory for --slurm or delete this one",
                study_path.display()
            ))
        }
        _ => {}
    }
    let logs = dir.join(slurm::LOGS_DIR);
    std::fs::create_dir_all(&logs).map_err(|e| format!("{}: {e}", logs.display()))?;
    if !c.attached.is_empty() {
        // the shards read the copies (the cluster's nodes may not see the original paths)
        let to = dir.join(slurm::ATTACHED_DIR);
        std::fs::create_dir_all(&to).map_err(|e| format!("{}: {e}", to.display()))?;
        for (name, path) in &c.attached {
            let copy = to.join(name);
            std::fs::copy(path, &copy).map_err(|e| format!("{}: {e}", copy.display()))?;
        }
    }
    let write = |name: &str, text: &str, mode: u32| -> Result<PathBuf, String> {
        let path = dir.join(name);
        runner::write_atomic(&path, text).map_err(|e| e.to_string())?;
        set_mode(&path, mode)?;
        Ok(path)
    };
    write(slurm::STUDY_FILE, &canonical, 0o644)?;
    let array_path = write(slurm::ARRAY_SCRIPT, &array, 0o755)?;
    let merge_path = write(slurm::MERGE_SCRIPT, &merge, 0o755)?;
    print!("{}", slurm::instructions(&opts, study.points));
    if !c.submit {
        return Ok(());
    }
    let array_id = sbatch(&[], &array_path)?;
    let merge_id =
        sbatch(&[format!("--dependency=afterok:{array_id}")], &merge_path).map_err(|e| {
            format!(
                "{e}
the array job {array_id} is submitted; submit the merge by hand or scancel {array_id}"
            )
        })?;
    println!("array job {array_id} ({shards} tasks)");
    println!("merge job {merge_id} (after every task of {array_id} succeeds)");
    eprintln!(
        "placelab: submitted; the results will be in {}",
        dir.join(slurm::RESULTS_DIR).display()
    );
    Ok(())
}

#[cfg(unix)]
fn set_mode(path: &Path, mode: u32) -> Result<(), String> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
        .map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(not(unix))]
fn set_mode(_: &Path, _: u32) -> Result<(), String> {
    Ok(())
}

/// `sbatch --parsable ARGS SCRIPT`, returning the job id.
fn sbatch(args: &[String], script: &Path) -> Result<String, String> {
    let out = std::process::Command::new("sbatch")
        .arg("--parsable")
        .args(args)
        .arg(script)
        .output()
        .map_err(|e| {
            format!("cannot run sbatch ({e}): --submit needs Slurm's sbatch on the PATH (a cluster's login node)")
        })?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        return Err(format!(
            "sbatch {} failed ({}): {}",
            script.display(),
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    slurm::parse_job_id(&stdout).map_err(|e| e.to_string())
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
