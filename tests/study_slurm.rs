//! `placelab study --slurm DIR`: the directory it writes, and its two scripts run as Slurm would
//! run them (bash with `SLURM_ARRAY_TASK_ID` set, one call per array task, then the merge),
//! giving exactly the files of a local run. (`scripts/test-slurm.sh` runs the same scripts
//! through a real slurmctld.)
#![cfg(unix)]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const FILES: [&str; 6] = [
    "study.json",
    "points.jsonl",
    "tidy.csv",
    "tidy.jsonl",
    "aggregate.csv",
    "aggregate.jsonl",
];

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "placelab-study-slurm-{}-{name}",
        std::process::id()
    ));
    let _ = fs::remove_dir_all(&d);
    fs::create_dir_all(&d).unwrap();
    d
}

fn cli(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_placelab"))
        .current_dir(dir)
        .arg("study")
        .args(args)
        .output()
        .unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A 12-point study of an example, written into `dir/s.json`, and a base file beside it.
fn write_study(dir: &Path) {
    fs::write(
        dir.join("s.json"),
        r#"{"version":1,"example":"fig1-4x4",
            "axes":[{"path":"system.width","values":[4,5,6]},{"path":"system.height","values":[4,5]}],
            "replicates":{"count":2,"baseSeed":9}}"#,
    )
    .unwrap();
}

#[test]
fn the_scripts_run_as_array_tasks_then_merge_into_the_files_of_a_local_run() {
    let work = temp_dir("run");
    write_study(&work);
    // A relative --slurm directory with a space and a quote: the scripts hold it absolute.
    let out = cli(
        &work,
        &["s.json", "--slurm", "it's on slurm", "--shards", "5"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let printed = String::from_utf8(out.stdout).unwrap();
    let dir = work.join("it's on slurm");
    assert!(
        printed.starts_with(&format!(
            "The study (12 points) as a Slurm job array of 5 shards in {}:",
            dir.display()
        )),
        "{printed}"
    );
    assert!(printed.contains("sbatch --dependency=afterok:${array%%;*} "));
    let array = fs::read_to_string(dir.join("shards.sbatch")).unwrap();
    assert!(array.contains("#SBATCH --array=0-4\n"), "{array}");
    assert!(array.contains(&format!("exec {} study ", env!("CARGO_BIN_EXE_placelab"))));
    assert!(dir.join("logs").is_dir());
    // The study's copy stands alone: base inline, no file or example to resolve.
    let copy = fs::read_to_string(dir.join("study.json")).unwrap();
    assert!(copy.contains("\"base\"") && !copy.contains("\"example\""));

    // Run from elsewhere, as the cluster would: every array task, then the merge.
    let elsewhere = temp_dir("elsewhere");
    for k in 0..5 {
        let o = Command::new("bash")
            .arg(dir.join("shards.sbatch"))
            .current_dir(&elsewhere)
            .env("SLURM_ARRAY_TASK_ID", k.to_string())
            .env("SLURM_CPUS_PER_TASK", "2")
            .output()
            .unwrap();
        assert!(o.status.success(), "task {k}: {}", stderr(&o));
    }
    let o = Command::new("bash")
        .arg(dir.join("merge.sbatch"))
        .current_dir(&elsewhere)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("12 points (0 failed) merged from 5 shards"));

    let local = work.join("local");
    let o = cli(&work, &["s.json", "-o", local.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    for f in FILES {
        assert_eq!(
            fs::read(dir.join("results").join(f)).unwrap(),
            fs::read(local.join(f)).unwrap(),
            "{f}"
        );
    }

    // Outside sbatch the array script says what it needs.
    let o = Command::new("bash")
        .arg(dir.join("shards.sbatch"))
        .env_remove("SLURM_ARRAY_TASK_ID")
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("submit this script with sbatch"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn bad_slurm_options_are_refused_with_what_would_do() {
    let work = temp_dir("bad");
    write_study(&work);
    for (args, code, message) in [
        (
            &["--slurm", "d", "--shards", "13"][..],
            1,
            "--shards 13: the study has 12 points; give at most 12 shards",
        ),
        (
            &["--slurm", "d", "--shards", "0"][..],
            1,
            "--shards 0: give from 1 to 1000",
        ),
        (
            &["--slurm", "d", "--shards", "many"][..],
            2,
            "--shards \"many\": give a whole number",
        ),
        (
            &["--slurm", "d", "--time", "1:75:00"][..],
            1,
            "--time \"1:75:00\": minutes and seconds must be below 60",
        ),
        (
            &["--slurm", "d", "--partition", "a b"][..],
            1,
            "--partition \"a b\"",
        ),
        (&["--time", "30"][..], 2, "--time needs --slurm DIR"),
        (&["--submit"][..], 2, "--submit needs --slurm DIR"),
        (
            &["--slurm", "d", "--shard", "0/2"][..],
            2,
            "--shard does not go with --slurm",
        ),
        (
            &["--slurm", "d", "-o", "x"][..],
            2,
            "-o does not go with --slurm",
        ),
    ] {
        let mut all = vec!["s.json"];
        all.extend_from_slice(args);
        let o = cli(&work, &all);
        assert_eq!(o.status.code(), Some(code), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(message), "{args:?}: {}", stderr(&o));
        assert!(!work.join("d").join("shards.sbatch").exists(), "{args:?}");
    }
    // A directory holding another study's copy is refused, naming the file.
    let o = cli(&work, &["s.json", "--slurm", "d"]);
    assert!(o.status.success(), "{}", stderr(&o));
    fs::write(
        work.join("s.json"),
        r#"{"version":1,"example":"fig1-4x4","replicates":{"count":3}}"#,
    )
    .unwrap();
    let o = cli(&work, &["s.json", "--slurm", "d"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("d/study.json: holds another study"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn submit_without_sbatch_says_where_to_run_it() {
    let work = temp_dir("nosbatch");
    write_study(&work);
    let o = Command::new(env!("CARGO_BIN_EXE_placelab"))
        .current_dir(&work)
        .env("PATH", work.as_os_str())
        .args(["study", "s.json", "--slurm", "d", "--submit"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("cannot run sbatch") && stderr(&o).contains("login node"),
        "{}",
        stderr(&o)
    );
    // The files are written before the submission is tried.
    assert!(work.join("d/merge.sbatch").exists());
}
