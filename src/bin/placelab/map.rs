//! `placelab map GRAPH SYSTEM`: a task graph mapped onto a machine without simulating it, the
//! counterpart of Scotch's `gmap` ([`placelab::place::run::map`]). The graph is a METIS file
//! (edge weights: message volumes); the machine a placement scenario's `system` (or a SimGrid
//! platform file), checked by the one scenario parser, so a bad field is named by its JSON path
//! (a platform's by its file, line and column). It writes the host of each task (task i on line
//! i, what `placelab netsim --placement-file` reads) or a launcher's file (a platform's hosts by
//! their names), and prints the mapping's hop-bytes, dilation, congestion and time.

use placelab::formats::hostfile;
use placelab::place::run::{map, HostRef};
use placelab::place::strategy::Placement;
use placelab::place::Placement as PlaceEngine;
use serde_json::{json, Value};
use std::process::ExitCode;
use std::time::Instant;

pub const USAGE: &str =
    "  placelab map GRAPH SYSTEM [--strategy S] [--objective O] [--seed N] [--hosts FILE]
                  [--format F] [--prefix NAME] [-o OUT] [--nooutput] [--json]
                             map a METIS graph (edge weights: message volumes) onto a machine
                             without simulating it, as Scotch's gmap does. SYSTEM: a placement
                             scenario's \"system\" as JSON text ('{\"kind\": \"torus2d\", \"x\":
                             16, \"y\": 16}'), or a file holding one, a whole placement
                             scenario, or a SimGrid platform (XML). S: mapped (default), simple,
                             random, optimal, advanced, identity; O (Mapped's objective):
                             hopBytes (default), congestion, time (the least predicted round
                             time: no simulator here). FILE: the hosts the job may take (the
                             nodes it was given), one per line ('#' comments): an index, or a
                             platform's host name; the others count as busy. Writes
                             OUT (default GRAPH.map): the host of task i on line i, or with F
                             (mpich, openmpi, rankfile, slurm-hostfile, nodelist) that
                             launcher's file, hosts named by the platform file, or NAME + index
                             (default node). Prints
                             hop-bytes, dilation, congestion and the mapping's time (--json:
                             as one JSON object)";

fn fail(msg: impl std::fmt::Display, code: u8) -> ExitCode {
    eprintln!("placelab map: {msg}");
    ExitCode::from(code)
}

/// The command's options.
struct Args {
    graph: String,
    system: String,
    strategy: String,
    objective: String,
    seed: u64,
    format: Option<String>,
    prefix: Option<String>,
    hosts: Option<String>,
    out: Option<String>,
    nooutput: bool,
    json: bool,
}

fn parse(args: &[String]) -> Result<Args, String> {
    let mut positional = Vec::new();
    let mut a = Args {
        graph: String::new(),
        system: String::new(),
        strategy: "mapped".into(),
        objective: "hopBytes".into(),
        seed: 1,
        format: None,
        prefix: None,
        hosts: None,
        out: None,
        nooutput: false,
        json: false,
    };
    let mut i = 0;
    while i < args.len() {
        let arg = args[i].as_str();
        i += 1;
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) if n.starts_with('-') => (n, Some(v.to_string())),
            _ => (arg, None),
        };
        match name {
            "--nooutput" => a.nooutput = true,
            "--json" => a.json = true,
            "--strategy" | "--objective" | "--seed" | "--format" | "--prefix" | "--hosts"
            | "-o" => {
                let v = match inline {
                    Some(v) => v,
                    None => {
                        i += 1;
                        args.get(i - 1)
                            .cloned()
                            .ok_or_else(|| format!("{name} needs a value"))?
                    }
                };
                match name {
                    "--strategy" => a.strategy = v,
                    "--objective" => a.objective = v,
                    "--seed" => {
                        a.seed = v.parse().map_err(|_| {
                            format!("--seed: {v:?} is not a whole number from 0 to 2^64-1")
                        })?
                    }
                    "--format" if hostfile::Format::from_id(&v).is_some() => a.format = Some(v),
                    "--format" => {
                        return Err(format!(
                            "--format: {v:?} is not one of {}",
                            hostfile::Format::IDS.join(", ")
                        ))
                    }
                    "--prefix" => a.prefix = Some(v),
                    "--hosts" => a.hosts = Some(v),
                    _ => a.out = Some(v),
                }
            }
            _ if !name.starts_with('-') || name == "-" => positional.push(arg.to_string()),
            _ => return Err(format!("unknown option {arg}")),
        }
    }
    let [graph, system] = positional.as_slice() else {
        return Err(format!(
            "map takes GRAPH SYSTEM, got {} arguments",
            positional.len()
        ));
    };
    a.graph = graph.clone();
    a.system = system.clone();
    Ok(a)
}

/// The `system` object SYSTEM names: JSON text, or a file holding a system, a whole placement
/// scenario (its `system`), or a SimGrid platform (XML: the system of kind `simgrid`); and the
/// platform file's name when it was one (its errors' lines and columns are the file's).
fn system_of(arg: &str) -> Result<(Value, Option<&str>), (String, u8)> {
    let (text, from) = if arg.trim_start().starts_with('{') {
        (arg.to_string(), "SYSTEM".to_string())
    } else {
        let t = std::fs::read_to_string(arg).map_err(|e| (format!("{arg}: {e}"), 2))?;
        (t, arg.to_string())
    };
    if text.trim_start().starts_with('<') {
        return Ok((json!({"kind": "simgrid", "platform": text}), Some(arg)));
    }
    let v: Value = serde_json::from_str(&text).map_err(|e| {
        (
            format!(
                "{from}: not JSON: line {}, column {}: {e}",
                e.line(),
                e.column()
            ),
            1,
        )
    })?;
    Ok((
        match v.get("system") {
            Some(s) if v.get("engine").is_some() => s.clone(),
            _ => v,
        },
        None,
    ))
}

/// The hosts of a `--hosts` file, one a line (`#` comments and blank lines skipped): each an
/// index or a platform file's host name, and beside them each one's line and column.
///
/// # Errors
/// `--hosts: NAME: no host` for a file without one.
fn host_list(text: &str, name: &str) -> Result<(Vec<HostRef>, Vec<(usize, usize)>), String> {
    let (refs, at): (Vec<HostRef>, Vec<(usize, usize)>) = crate::netsim::host_lines(text)
        .map(|(t, line, col)| {
            let h = match t.parse::<u32>() {
                Ok(i) => HostRef::Index(i),
                Err(_) => HostRef::Name(t.to_string()),
            };
            (h, (line, col))
        })
        .unzip();
    if refs.is_empty() {
        return Err(format!("--hosts: {name}: no host"));
    }
    Ok((refs, at))
}

pub fn main(args: &[String]) -> ExitCode {
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!("usage:\n{USAGE}");
        return ExitCode::SUCCESS;
    }
    let a = match parse(args) {
        Ok(a) => a,
        Err(e) => return fail(format!("{e}\nusage:\n{USAGE}"), 2),
    };
    let t0 = Instant::now();
    let graph = match std::fs::read_to_string(&a.graph) {
        Ok(t) => t,
        Err(e) => return fail(format!("{}: {e}", a.graph), 2),
    };
    let (system, platform_file) = match system_of(&a.system) {
        Ok(s) => s,
        Err((e, code)) => return fail(e, code),
    };
    // one scenario, checked by the one parser: the fields' names, ranges and limits hold here
    let scenario = json!({
        "version": 1,
        "engine": "place",
        "seed": a.seed,
        "system": system,
        "job": {"kind": "metis", "graph": graph},
        "strategies": [a.strategy],
        "objective": a.objective,
    });
    drop(graph);
    let (meta, s) = match placelab::engines::admit_text::<PlaceEngine>(&scenario.to_string()) {
        Ok(x) => x,
        Err(e) => {
            // each error where the user wrote it: the graph file (its lines), SYSTEM (its
            // field), or the option
            let msg = e.to_string();
            let at = [
                ("$.job.graph: ", format!("{}: ", a.graph)),
                (
                    "$.system.platform: platform:",
                    format!("{}:", platform_file.unwrap_or("SYSTEM: platform")),
                ),
                ("$.system.", "SYSTEM: ".to_string()),
                ("$.system: ", "SYSTEM: ".to_string()),
                ("$.strategies[0]: ", "--strategy: ".to_string()),
                ("$.objective: ", "--objective: ".to_string()),
            ];
            let msg = at
                .iter()
                .find_map(|(from, to)| msg.strip_prefix(from).map(|rest| format!("{to}{rest}")))
                .unwrap_or(msg);
            return fail(msg, 1);
        }
    };
    // the hosts the job may take, checked against the machine
    let only = match &a.hosts {
        None => None,
        Some(f) => {
            let text = match std::fs::read_to_string(f) {
                Ok(t) => t,
                Err(e) => return fail(format!("--hosts: {f}: {e}"), 2),
            };
            match host_list(&text, f) {
                Ok(l) => Some(l),
                Err(e) => return fail(e, 1),
            }
        }
    };
    let t1 = Instant::now();
    let mut done = match map(&s, meta.seed, only.as_ref().map(|l| l.0.as_slice())) {
        Ok(d) => d,
        Err(e) => {
            // the entry where the user wrote it: its file, line and column
            let f = a.hosts.as_deref().unwrap_or("");
            let (line, col) = only.as_ref().expect("an error names a listed host").1[e.entry];
            return fail(format!("--hosts: {f}:{line}:{col}: {}", e.message), 1);
        }
    };
    let t2 = Instant::now();
    let machine_hosts = done.hosts;
    let m = done.mappings.pop().expect("one case, one strategy");
    let hosts = match m.placement {
        Placement::Placed(h) => h,
        Placement::NotPlaced(why) => return fail(format!("not placed: {why}"), 1),
    };
    let stat = m.metrics.expect("placed");
    let text = match &a.format {
        None => placelab::formats::metis::write_part(&hosts),
        Some(f) => {
            let format = hostfile::Format::from_id(f).expect("checked id");
            // a platform file's hosts by their names, unless a prefix is asked for
            let names = hostfile::names_of(
                &hosts,
                done.host_names.as_deref(),
                a.prefix.as_deref(),
                machine_hosts,
            );
            hostfile::write(format, &names)
        }
    };
    let out = a.out.clone().unwrap_or_else(|| format!("{}.map", a.graph));
    if !a.nooutput {
        if let Err(e) = std::fs::write(&out, text) {
            return fail(format!("{out}: {e}"), 2);
        }
    }
    let t3 = Instant::now();
    let summary = json!({
        "tasks": hosts.len(),
        "hosts": machine_hosts,
        "strategy": a.strategy,
        "objective": a.objective,
        "hopBytes": stat.hop_bytes,
        "dilationMean": stat.mean_hops,
        "dilationMax": stat.max_hops,
        "congestion": stat.congestion,
        "readSeconds": (t1 - t0).as_secs_f64(),
        "mapSeconds": (t2 - t1).as_secs_f64(),
        "totalSeconds": (t3 - t0).as_secs_f64(),
        "output": if a.nooutput { Value::Null } else { json!(out) },
    });
    if a.json {
        println!("{summary}");
    } else {
        println!(
            "{} tasks on {} hosts, strategy {}, objective {}\n\
             hop-bytes {}  dilation mean {:.3} max {}  congestion {} bytes\n\
             read {:.3} s, mapped in {:.3} s, {:.3} s in all{}",
            hosts.len(),
            machine_hosts,
            a.strategy,
            a.objective,
            stat.hop_bytes,
            stat.mean_hops,
            stat.max_hops,
            stat.congestion,
            (t1 - t0).as_secs_f64(),
            (t2 - t1).as_secs_f64(),
            (t3 - t0).as_secs_f64(),
            if a.nooutput {
                String::new()
            } else {
                format!("; wrote {out}")
            }
        );
    }
    ExitCode::SUCCESS
}
