//! A study on a Slurm cluster: the two job scripts `placelab study STUDY --slurm DIR` writes,
//! as plain text from plain options (no I/O here: the CLI writes the files and calls `sbatch`).
//!
//! The layout of `DIR` (every path in the scripts absolute, so neither script depends on the
//! directory it is submitted from):
//! - `study.json`: the study in canonical form ([`crate::study::Study::canonical`]: base inline,
//!   so the cluster never needs the caller's base file or working directory);
//! - `shards.sbatch`: a job array, task `K` of `0..N` running
//!   `placelab study DIR/study.json --shard K/N -o DIR/shard-K --threads $SLURM_CPUS_PER_TASK`;
//! - `merge.sbatch`: `placelab study merge DIR/shard-0 ... DIR/shard-(N-1) -o DIR/results`,
//!   submitted with `--dependency=afterok:<array job>` so it starts once every task succeeded
//!   (and is cancelled, `--kill-on-invalid-dep=yes`, when one fails);
//! - `logs/`: each task's output, `shard-K.out`, and `merge.out`;
//! - `shard-K/`, `results/`: results directories (`docs/format.md`, "Results directory").
//!
//! Quoting: the shell lines quote paths in single quotes (`'` written `'\''`); the `#SBATCH`
//! lines are read by sbatch's own parser, which takes double quotes and backslash escapes, and
//! the output file name doubles `%` (Slurm's file name patterns). A path with a control
//! character or a backslash (which turns Slurm's `%a` patterns off) is refused.

use std::fmt::Write;

/// The study's copy in the directory.
pub const STUDY_FILE: &str = "study.json";
/// The job array's script.
pub const ARRAY_SCRIPT: &str = "shards.sbatch";
/// The merge job's script.
pub const MERGE_SCRIPT: &str = "merge.sbatch";
/// The merged results directory.
pub const RESULTS_DIR: &str = "results";
/// The jobs' output files.
pub const LOGS_DIR: &str = "logs";
/// The most shards: Slurm's default `MaxArraySize` (1001) allows array indices 0 to 1000.
pub const MAX_SHARDS: u64 = 1000;
/// The shards when `--shards` is not given: one per point up to this many.
pub const DEFAULT_SHARDS: u64 = 64;

/// What the scripts need.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    /// The directory, absolute.
    pub dir: String,
    /// The placelab binary the jobs run, absolute.
    pub placelab: String,
    /// Array tasks, one shard each.
    pub shards: u64,
    /// `--partition` (a name or a comma-separated list), if any.
    pub partition: Option<String>,
    /// `--time`, checked by [`check_time`], if any.
    pub time: Option<String>,
    /// CPUs of each array task (the shard's threads).
    pub cpus_per_task: u64,
    /// `--account`, if any.
    pub account: Option<String>,
    /// `--max-points` for each shard, when the user gave one.
    pub max_points: Option<u64>,
    /// Files attached to the study's scenarios (workload logs), copied as
    /// `DIR/attached/NAME`; every shard attaches them (`--attach NAME=DIR/attached/NAME`).
    pub attach: Vec<String>,
}

/// Where attached files are copied, under the directory.
pub const ATTACHED_DIR: &str = "attached";

/// Why the scripts cannot be written: a sentence naming the option and the value.
#[derive(Debug, Clone, PartialEq)]
pub struct SlurmError(pub String);

impl std::fmt::Display for SlurmError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

fn refuse<T>(m: String) -> Result<T, SlurmError> {
    Err(SlurmError(m))
}

/// The default shard count of a study of `points` points: `min(points, 64)`, at least 1.
pub fn default_shards(points: u64) -> u64 {
    points.clamp(1, DEFAULT_SHARDS)
}

/// Checks a shard count against the study: from 1 to [`MAX_SHARDS`], at most one per point,
/// and each shard within the admission limit `max_points`.
///
/// # Errors
/// A message naming `--shards`, the value and what would be accepted.
pub fn check_shards(shards: u64, points: u64, max_points: u64) -> Result<(), SlurmError> {
    if shards == 0 || shards > MAX_SHARDS {
        return refuse(format!(
            "--shards {shards}: give from 1 to {MAX_SHARDS} shards (one Slurm array task each; \
             Slurm's default MaxArraySize allows array indices up to 1000)"
        ));
    }
    if shards > points {
        return refuse(format!(
            "--shards {shards}: the study has {points} points; give at most {points} shards"
        ));
    }
    let largest = points.div_ceil(shards);
    if largest > max_points {
        return refuse(format!(
            "--shards {shards}: a shard would hold {largest} points; the limit is {max_points} \
             (give more shards, or raise the limit with --max-points)"
        ));
    }
    Ok(())
}

/// Checks a `--time` value against Slurm's forms: `M`, `M:S`, `H:M:S`, `D-H`, `D-H:M`,
/// `D-H:M:S` (whole numbers; minutes and seconds after a `:` below 60, hours after a `-`
/// below 24; not zero), or `UNLIMITED`/`INFINITE`.
///
/// # Errors
/// A message naming `--time`, the value and the accepted forms.
pub fn check_time(time: &str) -> Result<(), SlurmError> {
    let bad = |why: &str| {
        refuse(format!(
            "--time {time:?}: {why}; give minutes (30), M:S, H:M:S (2:00:00), D-H, D-H:M, \
             D-H:M:S (1-12:00:00) or UNLIMITED"
        ))
    };
    if ["unlimited", "infinite"].contains(&time.to_ascii_lowercase().as_str()) {
        return Ok(());
    }
    let (days, clock) = match time.split_once('-') {
        Some((d, rest)) => (Some(d), rest),
        None => (None, time),
    };
    let parts: Vec<&str> = clock.split(':').collect();
    let all = days.iter().copied().chain(parts.iter().copied());
    let mut numbers = Vec::new();
    for p in all {
        if p.is_empty() || p.len() > 9 || !p.bytes().all(|b| b.is_ascii_digit()) {
            return bad("not a time limit");
        }
        numbers.push(p.parse::<u64>().expect("digits"));
    }
    // Which fields are bounded: after a day count the first clock field is hours (< 24);
    // among the clock fields every one after the first is minutes or seconds (< 60).
    let clock_numbers = &numbers[numbers.len() - parts.len()..];
    if days.is_some() {
        if parts.len() > 3 {
            return bad("too many fields");
        }
        if clock_numbers[0] >= 24 {
            return bad("hours after a day count must be below 24");
        }
    } else if parts.len() > 3 {
        return bad("too many fields");
    }
    if clock_numbers[1..].iter().any(|&x| x >= 60) {
        return bad("minutes and seconds must be below 60");
    }
    if numbers.iter().all(|&x| x == 0) {
        return bad("a zero time limit");
    }
    Ok(())
}

/// Checks a partition (`name` or `a,b`) or account name: letters, digits, `_`, `-`, `.`
/// (and `,` between partitions).
fn check_name(option: &str, value: &str, list: bool) -> Result<(), SlurmError> {
    let ok = |c: char| c.is_ascii_alphanumeric() || "_-.".contains(c) || (list && c == ',');
    if value.is_empty() || !value.chars().all(ok) {
        return refuse(format!(
            "{option} {value:?}: a name of letters, digits, '_', '-' and '.'{}",
            if list {
                " (partitions separated by ',')"
            } else {
                ""
            }
        ));
    }
    Ok(())
}

/// Checks a path the scripts will hold: absolute, no control character, no backslash.
fn check_path(what: &str, path: &str) -> Result<(), SlurmError> {
    if !path.starts_with('/') {
        return refuse(format!("{what} {path:?} is not an absolute path"));
    }
    if path.chars().any(|c| c.is_control() || c == '\\') {
        return refuse(format!(
            "{what} {path:?}: a path with a control character or a backslash cannot go into a \
             Slurm script; use another directory"
        ));
    }
    Ok(())
}

/// `s` quoted for a POSIX shell: in single quotes, each `'` written `'\''`; plain words as is.
pub fn shell_quote(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+=:,@%".contains(c))
    {
        return s.to_string();
    }
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// `s` quoted for an `#SBATCH` line: in double quotes, `"` and `\` escaped with `\` (sbatch's
/// parser reads a backslash as an escape inside quotes too, and an unquoted `#` as a comment).
fn sbatch_quote(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', r"\\").replace('"', "\\\""))
}

/// The two scripts' texts, `(shards.sbatch, merge.sbatch)`.
///
/// # Errors
/// A [`SlurmError`] for a bad `--time`, partition or account name, or a path the scripts
/// cannot hold.
pub fn scripts(o: &Options) -> Result<(String, String), SlurmError> {
    check_path("the directory", &o.dir)?;
    check_path("the placelab binary", &o.placelab)?;
    if o.shards == 0 || o.shards > MAX_SHARDS {
        return refuse(format!(
            "--shards {}: give from 1 to {MAX_SHARDS}",
            o.shards
        ));
    }
    if o.cpus_per_task == 0 || o.cpus_per_task > 4096 {
        return refuse(format!(
            "--cpus-per-task {}: give from 1 to 4096",
            o.cpus_per_task
        ));
    }
    if let Some(t) = &o.time {
        check_time(t)?;
    }
    if let Some(p) = &o.partition {
        check_name("--partition", p, true)?;
    }
    if let Some(a) = &o.account {
        check_name("--account", a, false)?;
    }
    let dir = o.dir.trim_end_matches('/');
    let dir = if dir.is_empty() { "/" } else { dir };
    let join = |name: &str| {
        if dir == "/" {
            format!("/{name}")
        } else {
            format!("{dir}/{name}")
        }
    };
    let common = |s: &mut String, name: &str, output: &str| {
        let _ = writeln!(s, "#SBATCH --job-name={name}");
        if let Some(p) = &o.partition {
            let _ = writeln!(s, "#SBATCH --partition={p}");
        }
        if let Some(a) = &o.account {
            let _ = writeln!(s, "#SBATCH --account={a}");
        }
        if let Some(t) = &o.time {
            let _ = writeln!(s, "#SBATCH --time={t}");
        }
        let pattern = format!("{}/{output}", join(LOGS_DIR).replace('%', "%%"));
        let _ = writeln!(s, "#SBATCH --output={}", sbatch_quote(&pattern));
    };
    let n = o.shards;
    let bin = shell_quote(&o.placelab);
    let qdir = shell_quote(dir);

    let mut array = String::from("#!/bin/bash\n");
    let _ = writeln!(
        array,
        "# placelab study on Slurm: array task K runs shard K of {n} of {} into {}.",
        join(STUDY_FILE),
        join("shard-K")
    );
    let _ = writeln!(
        array,
        "# Written by 'placelab study --slurm'; {MERGE_SCRIPT} merges the shards afterwards."
    );
    common(&mut array, "placelab-shards", "shard-%a.out");
    let _ = writeln!(array, "#SBATCH --array=0-{}", n - 1);
    let _ = writeln!(array, "#SBATCH --cpus-per-task={}", o.cpus_per_task);
    let _ = writeln!(array, "set -euo pipefail");
    let _ = writeln!(array, "dir={qdir}");
    let _ = writeln!(
        array,
        "k=\"${{SLURM_ARRAY_TASK_ID:?submit this script with sbatch}}\""
    );
    let mut limit = o
        .max_points
        .map_or(String::new(), |m| format!(" --max-points {m}"));
    for name in &o.attach {
        let spec = shell_quote(&format!("{name}="));
        let _ = write!(
            limit,
            " \\\n  --attach {spec}\"$dir/{ATTACHED_DIR}/\"{}",
            shell_quote(name)
        );
    }
    let _ = writeln!(
        array,
        "exec {bin} study \"$dir/{STUDY_FILE}\" --shard \"$k/{n}\" -o \"$dir/shard-$k\" \\\n  --threads \"${{SLURM_CPUS_PER_TASK:-{}}}\"{limit}",
        o.cpus_per_task
    );

    let mut merge = String::from("#!/bin/bash\n");
    let _ = writeln!(
        merge,
        "# placelab study on Slurm: merges the {n} shards of {ARRAY_SCRIPT} into {}.",
        join(RESULTS_DIR)
    );
    let _ = writeln!(
        merge,
        "# Submit with --dependency=afterok:<the array's job id>."
    );
    common(&mut merge, "placelab-merge", "merge.out");
    let _ = writeln!(merge, "#SBATCH --cpus-per-task=1");
    let _ = writeln!(merge, "#SBATCH --kill-on-invalid-dep=yes");
    let _ = writeln!(merge, "set -euo pipefail");
    let _ = writeln!(merge, "dir={qdir}");
    let _ = writeln!(merge, "shards=()");
    let _ = writeln!(
        merge,
        "for ((k = 0; k < {n}; k++)); do shards+=(\"$dir/shard-$k\"); done"
    );
    let _ = writeln!(
        merge,
        "exec {bin} study merge \"${{shards[@]}}\" -o \"$dir/{RESULTS_DIR}\""
    );
    Ok((array, merge))
}

/// What to type on the cluster's login node, for the printed instructions.
pub fn instructions(o: &Options, points: u64) -> String {
    let dir = o.dir.trim_end_matches('/');
    let q = |name: &str| shell_quote(&format!("{dir}/{name}"));
    format!(
        "The study ({points} points) as a Slurm job array of {n} shards in {dir}:\n\
         \x20 {study}  the study, base inline\n\
         \x20 {array}  array job: task K runs shard K into {dir}/shard-K\n\
         \x20 {merge}  merge job: the shards into {dir}/{RESULTS_DIR}\n\
         Submit them from a login node ({dir} must be on a file system the nodes share), or\n\
         run this command again with --submit:\n\
         \x20 array=$(sbatch --parsable {array})\n\
         \x20 sbatch --dependency=afterok:${{array%%;*}} {merge}\n\
         Follow them with squeue --me; the jobs' output goes to {dir}/{LOGS_DIR}. A failed task\n\
         leaves its shard resumable: resubmit it with sbatch --array=K {array}, then the merge.\n",
        n = o.shards,
        study = q(STUDY_FILE),
        array = q(ARRAY_SCRIPT),
        merge = q(MERGE_SCRIPT),
    )
}

/// The job id in `sbatch --parsable`'s output (`ID` or `ID;CLUSTER`).
///
/// # Errors
/// A message quoting the output when it holds no job id.
pub fn parse_job_id(stdout: &str) -> Result<String, SlurmError> {
    let line = stdout.lines().map(str::trim).find(|l| !l.is_empty());
    let id = line.and_then(|l| l.split(';').next()).unwrap_or("");
    if id.is_empty() || !id.bytes().all(|b| b.is_ascii_digit()) {
        return refuse(format!(
            "sbatch --parsable printed {stdout:?}, not a job id"
        ));
    }
    Ok(id.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options() -> Options {
        Options {
            dir: "/scratch/me/width sweep".into(),
            placelab: "/opt/placelab/bin/placelab".into(),
            shards: 8,
            partition: Some("short".into()),
            time: Some("0:30:00".into()),
            cpus_per_task: 4,
            account: Some("proj-42".into()),
            max_points: None,
            attach: Vec::new(),
        }
    }

    #[test]
    fn the_scripts_are_exactly_this_text() {
        let (array, merge) = scripts(&options()).unwrap();
        assert_eq!(
            array,
            r#"#!/bin/bash
# placelab study on Slurm: array task K runs shard K of 8 of /scratch/me/width sweep/study.json into /scratch/me/width sweep/shard-K.
# Written by 'placelab study --slurm'; merge.sbatch merges the shards afterwards.
#SBATCH --job-name=placelab-shards
#SBATCH --partition=short
#SBATCH --account=proj-42
#SBATCH --time=0:30:00
#SBATCH --output="/scratch/me/width sweep/logs/shard-%a.out"
#SBATCH --array=0-7
#SBATCH --cpus-per-task=4
set -euo pipefail
dir='/scratch/me/width sweep'
k="${SLURM_ARRAY_TASK_ID:?submit this script with sbatch}"
exec /opt/placelab/bin/placelab study "$dir/study.json" --shard "$k/8" -o "$dir/shard-$k" \
  --threads "${SLURM_CPUS_PER_TASK:-4}"
"#
        );
        assert_eq!(
            merge,
            r#"#!/bin/bash
# placelab study on Slurm: merges the 8 shards of shards.sbatch into /scratch/me/width sweep/results.
# Submit with --dependency=afterok:<the array's job id>.
#SBATCH --job-name=placelab-merge
#SBATCH --partition=short
#SBATCH --account=proj-42
#SBATCH --time=0:30:00
#SBATCH --output="/scratch/me/width sweep/logs/merge.out"
#SBATCH --cpus-per-task=1
#SBATCH --kill-on-invalid-dep=yes
set -euo pipefail
dir='/scratch/me/width sweep'
shards=()
for ((k = 0; k < 8; k++)); do shards+=("$dir/shard-$k"); done
exec /opt/placelab/bin/placelab study merge "${shards[@]}" -o "$dir/results"
"#
        );
    }

    #[test]
    fn optional_lines_appear_only_when_given() {
        let o = Options {
            partition: None,
            time: None,
            account: None,
            max_points: Some(500_000),
            attach: Vec::new(),
            shards: 1,
            cpus_per_task: 1,
            dir: "/d/".into(),
            ..options()
        };
        let (array, merge) = scripts(&o).unwrap();
        for s in [&array, &merge] {
            assert!(
                !s.contains("--partition") && !s.contains("--time") && !s.contains("--account")
            );
            assert!(s.contains("dir=/d\n"), "{s}");
        }
        assert!(array.contains("#SBATCH --array=0-0\n"));
        assert!(array.contains("--threads \"${SLURM_CPUS_PER_TASK:-1}\" --max-points 500000\n"));
        assert!(array.contains("--output=\"/d/logs/shard-%a.out\""));
    }

    #[test]
    fn every_shard_attaches_the_copied_logs() {
        let o = Options {
            attach: vec!["sp2.swf".into(), "it's.swf".into()],
            ..options()
        };
        let (array, _) = scripts(&o).unwrap();
        assert!(
            array.contains(
                "  --attach sp2.swf=\"$dir/attached/\"sp2.swf \\\n  --attach 'it'\\''s.swf='\"$dir/attached/\"'it'\\''s.swf'\n"
            ),
            "{array}"
        );
    }

    #[test]
    fn awkward_paths_are_quoted_for_the_shell_and_for_sbatch() {
        let o = Options {
            dir: "/tmp/it's 100% \"mine\" #1".into(),
            placelab: "/opt/my tools/placelab".into(),
            ..options()
        };
        let (array, merge) = scripts(&o).unwrap();
        assert!(
            array.contains(r#"dir='/tmp/it'\''s 100% "mine" #1'"#),
            "{array}"
        );
        assert!(
            array.contains(r#"#SBATCH --output="/tmp/it's 100%% \"mine\" #1/logs/shard-%a.out""#)
        );
        assert!(merge.contains(r#"#SBATCH --output="/tmp/it's 100%% \"mine\" #1/logs/merge.out""#));
        assert!(array.contains("exec '/opt/my tools/placelab' study "));
        assert_eq!(shell_quote("/plain/path-1.2"), "/plain/path-1.2");
        assert_eq!(shell_quote(""), "''");
        assert_eq!(shell_quote("a'b"), r"'a'\''b'");
    }

    #[test]
    fn paths_that_no_script_can_hold_are_refused() {
        for (dir, why) in [
            ("relative/dir", "not an absolute path"),
            ("/tmp/a\nb", "control character"),
            ("/tmp/a\\b", "backslash"),
        ] {
            let e = scripts(&Options {
                dir: dir.into(),
                ..options()
            })
            .unwrap_err()
            .to_string();
            assert!(e.contains(why), "{e}");
        }
    }

    #[test]
    fn time_limits_in_slurms_forms_pass_and_others_are_refused() {
        for ok in [
            "30",
            "90",
            "5:30",
            "2:00:00",
            "100:00:00",
            "1-0",
            "1-12",
            "1-12:30",
            "7-00:00:00",
            "UNLIMITED",
            "infinite",
        ] {
            assert_eq!(check_time(ok), Ok(()), "{ok}");
        }
        for (bad, why) in [
            ("", "not a time limit"),
            ("1h", "not a time limit"),
            ("-5", "not a time limit"),
            ("1:2:3:4", "too many fields"),
            ("1-1:2:3:4", "too many fields"),
            ("1:60", "below 60"),
            ("1:75:00", "below 60"),
            ("1-24", "below 24"),
            ("0", "zero"),
            ("0:00:00", "zero"),
            ("1.5", "not a time limit"),
            ("1--2", "not a time limit"),
        ] {
            let e = check_time(bad).unwrap_err().to_string();
            assert!(
                e.starts_with(&format!("--time {bad:?}: ")) && e.contains(why),
                "{e}"
            );
            assert!(e.contains("H:M:S"), "{e}");
        }
        let e = scripts(&Options {
            time: Some("2h".into()),
            ..options()
        })
        .unwrap_err();
        assert!(e.0.contains("--time \"2h\""));
    }

    #[test]
    fn shard_counts_are_checked_against_the_study() {
        assert_eq!(default_shards(12), 12);
        assert_eq!(default_shards(1_000_000), 64);
        assert_eq!(default_shards(0), 1);
        assert_eq!(check_shards(8, 100, 100_000), Ok(()));
        for (n, points, limit, why) in [
            (0, 100, 100_000, "give from 1 to 1000"),
            (1001, 5000, 100_000, "give from 1 to 1000"),
            (
                13,
                12,
                100_000,
                "the study has 12 points; give at most 12 shards",
            ),
            (
                2,
                300_000,
                100_000,
                "a shard would hold 150000 points; the limit is 100000",
            ),
        ] {
            let e = check_shards(n, points, limit).unwrap_err().to_string();
            assert!(
                e.starts_with(&format!("--shards {n}: ")) && e.contains(why),
                "{e}"
            );
        }
    }

    #[test]
    fn bad_names_and_cpu_counts_are_refused() {
        for (o, why) in [
            (
                Options {
                    partition: Some("a b".into()),
                    ..options()
                },
                "--partition \"a b\"",
            ),
            (
                Options {
                    account: Some("x;rm".into()),
                    ..options()
                },
                "--account \"x;rm\"",
            ),
            (
                Options {
                    cpus_per_task: 0,
                    ..options()
                },
                "--cpus-per-task 0",
            ),
        ] {
            let e = scripts(&o).unwrap_err().to_string();
            assert!(e.starts_with(why), "{e}");
        }
        assert!(scripts(&Options {
            partition: Some("short,long".into()),
            ..options()
        })
        .is_ok());
    }

    #[test]
    fn job_ids_are_read_from_sbatch_parsable() {
        assert_eq!(parse_job_id("1234\n").unwrap(), "1234");
        assert_eq!(parse_job_id("77;cluster-a\n").unwrap(), "77");
        assert!(parse_job_id("sbatch: error: x\n").is_err());
        assert!(parse_job_id("").is_err());
    }

    #[test]
    fn instructions_name_the_scripts_and_the_dependency() {
        let text = instructions(&options(), 96);
        assert!(text.contains("array=$(sbatch --parsable '/scratch/me/width sweep/shards.sbatch')"));
        assert!(text.contains(
            "sbatch --dependency=afterok:${array%%;*} '/scratch/me/width sweep/merge.sbatch'"
        ));
        assert!(text.starts_with("The study (96 points) as a Slurm job array of 8 shards"));
    }
}
