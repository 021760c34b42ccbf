//! `placelab hostfile FILE [options]`: a placement out of a report (or of a scenario, run
//! first) as the file an MPI launcher or Slurm takes ([`placelab::formats::hostfile`]).

use placelab::formats::hostfile::{self, Pick};
use std::process::ExitCode;

pub const USAGE: &str =
    "  placelab hostfile FILE [--format F] [--case K] [--strategy S] [--job J] [--position P]
                  [--prefix NAME] [-o OUT]
                             a placement as a launcher's file: FILE is a report (placelab run's
                             output) or a scenario (run first) of the placement, allocation or
                             trace engine. F: mpich (machinefile, default), openmpi (hostfile),
                             rankfile (Open MPI), slurm-hostfile (SLURM_HOSTFILE for srun
                             --distribution=arbitrary), nodelist (Slurm hostlist); of a
                             placement, simgrid-platform (its machine) or simgrid-deployment (one
                             actor per task), as placelab netsim --write-platform and
                             --write-deployment write them. Placement:
                             case K (default 0), strategy S (default the fastest); allocation:
                             policy S (default the first), job J (default 0); trace: ranking
                             position P (default the best). Hosts numbered by the engine are
                             named NAME + index (default node, zero-padded)";

fn fail(msg: impl std::fmt::Display, code: u8) -> ExitCode {
    eprintln!("placelab hostfile: {msg}");
    ExitCode::from(code)
}

pub fn main(args: &[String]) -> ExitCode {
    let mut file: Option<&str> = None;
    let mut out: Option<&str> = None;
    let mut format = "mpich".to_string();
    let mut pick = Pick::default();
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        let (name, inline) = match a.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n, Some(v.to_string())),
            _ => (a, None),
        };
        let takes_value = matches!(
            name,
            "--format"
                | "--case"
                | "--strategy"
                | "--policy"
                | "--job"
                | "--position"
                | "--prefix"
                | "-o"
        );
        let value = if takes_value {
            match inline.or_else(|| {
                i += 1;
                args.get(i).cloned()
            }) {
                Some(v) => v,
                None => return fail(format!("{name} needs a value"), 2),
            }
        } else {
            String::new()
        };
        let index = |v: &str| {
            v.parse::<usize>()
                .map_err(|_| format!("{name} takes a whole number, got {v:?}"))
        };
        match name {
            "--format" if hostfile::format_ids().contains(&value.as_str()) => format = value,
            "--format" => {
                return fail(
                    format!(
                        "--format: {value:?} is not one of {}",
                        hostfile::format_ids().join(", ")
                    ),
                    2,
                )
            }
            "--case" => match index(&value) {
                Ok(k) => pick.case = Some(k),
                Err(e) => return fail(e, 2),
            },
            "--job" => match index(&value) {
                Ok(k) => pick.job = Some(k),
                Err(e) => return fail(e, 2),
            },
            "--position" => match index(&value) {
                Ok(k) => pick.position = Some(k),
                Err(e) => return fail(e, 2),
            },
            "--strategy" | "--policy" => pick.strategy = Some(value),
            "--prefix" => pick.prefix = Some(value),
            "-o" => out = Some(&args[i]),
            "--help" | "-h" => {
                println!("usage:\n{USAGE}");
                return ExitCode::SUCCESS;
            }
            _ if file.is_none() && !a.starts_with("--") => file = Some(a),
            _ => return fail(format!("unexpected argument {a:?}\nusage:\n{USAGE}"), 2),
        }
        i += 1;
    }
    let Some(file) = file else {
        return fail(format!("which report?\nusage:\n{USAGE}"), 2);
    };
    let text = match std::fs::read_to_string(file) {
        Ok(t) => t,
        Err(e) => return fail(format!("{file}: {e}"), 2),
    };
    let doc: serde_json::Value = match serde_json::from_str(&text) {
        Ok(d) => d,
        Err(e) => return fail(format!("{file}: not JSON: {e}"), 1),
    };
    // a scenario is run first
    let report = if doc.get("report").is_none() {
        match placelab::api::run(&text, &mut placelab::progress::NoProgress) {
            Ok(r) => r,
            Err(e) => return fail(format!("{file}: {e}"), 1),
        }
    } else {
        text
    };
    let w = match hostfile::file_from_report_text(&report, &format, &pick) {
        Ok(w) => w,
        Err(e) => return fail(format!("{file}: {e}"), 1),
    };
    if format == "simgrid-platform" {
        eprintln!("placelab hostfile: {}, {}", w.picked.what, w.label);
    } else {
        report_ranks(&w);
    }
    match out {
        Some(path) => {
            if let Err(e) = std::fs::write(path, w.text) {
                return fail(format!("{path}: {e}"), 2);
            }
        }
        None => print!("{}", w.text),
    }
    ExitCode::SUCCESS
}

/// Says on stderr what was written: ranks, hosts, and whether the format keeps the rank order.
fn report_ranks(w: &hostfile::Written) {
    let order = if w.keeps_order {
        "rank order kept"
    } else {
        "rank order NOT kept by this format: use mpich, rankfile or slurm-hostfile"
    };
    eprintln!(
        "placelab hostfile: {}: {} ranks on {} hosts, {} ({order})",
        w.picked.what,
        w.picked.hosts.len(),
        w.picked
            .hosts
            .iter()
            .collect::<std::collections::BTreeSet<_>>()
            .len(),
        w.label
    );
}
