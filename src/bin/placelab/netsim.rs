//! `placelab netsim`: bulk-synchronous jobs on one platform from command-line flags, for
//! benchmarks against SimGrid (`scripts/bench-netsim.py`, `scripts/bench-netsim-fixtures.py`):
//! the flags parsed and the jobs built ([`parse`], pure), then
//! [`placelab::netsim::simulate_rounds_with`] (a job alone in its group of jobs sharing
//! capacities: one round, repeated) or, with `--every-round`,
//! [`placelab::netsim::simulate_every_round_with`] timed and its results printed as JSON
//! ([`main`]). The platform is built from flags or read from a SimGrid platform file
//! (`--platform`); a built one can be written as one (`--write-platform`), with the job's
//! placement as a SimGrid deployment (`--write-deployment`).

use placelab::netsim::{
    parse_fat_tree, simulate_every_round_with, simulate_rounds_with, Flow, JobTraffic, Lazy,
    LinkParams, Message, Model, Platform, System,
};
use placelab::rng::Rng;
use std::process::ExitCode;

/// Usage text of `placelab netsim`.
pub const USAGE: &str = "placelab netsim [options]   simulate bulk-synchronous jobs, print JSON
      --system KIND          torus3d (default), torus2d, mesh3d, mesh2d, torus (any number
                             of --dims, e.g. 4,4,4,4,2), fattree
      --dims X,Y[,Z]         sides of a torus or mesh (default 16,16,16)
      --tree SPEC            fat tree: SimGrid's 'levels;down;up;parallel' or 'k:k'-ary n-tree'
      --job KIND             cube (default: 3D nearest neighbour, 6 messages per task), grid
                             (2D, 4 per task), star (to and from task 0), tree (binary heap,
                             parent and children), full (all to all); every edge is exchanged
                             both ways each round
      --tasks N              tasks (default: every host); cube uses side round(cbrt N), grid
                             floor(sqrt N), leftover tasks idle
      --no-wrap              cube and grid without wrap-around edges
      --placement P          identity (task i on host i, default) or random
      --seed S               seed of the random placement (default 1)
      --bytes B              message size in bytes (default 1000000)
      --rounds R             rounds (default 5); a job alone repeats its first round
                             exactly (the model is shift-invariant in time), so one round is
                             simulated and multiplied
      --every-round          simulate every round of every job instead (--job, --jobs)
      --compute C            compute seconds per round (default 0)
      --model M              simgrid-lv08 (default) or max-min
      --bandwidth B          link bandwidth, bytes/s (default 125e6)
      --latency L            link latency, s (default 50e-6)
      --recompute R          how flow ends are recomputed: auto (default), scan (every touched
                             capacity summed from its flows) or slack (spare capacities kept)
      --end-tolerance E      a flow with at most E of its bytes left ends with an earlier end
                             (0, the default: exact; e.g. 0.01; --job and --jobs)
      --emit-messages        print the job's messages as JSON [[src,dst,bytes],...] and stop
      --platform FILE.xml    read the platform from a SimGrid platform file (version 4.1)
                             instead of --system/--dims/--tree/--bandwidth/--latency; host i is
                             the file's i-th host
      --route-all            route every ordered host pair, print as JSON the time taken to
                             read or build the platform (buildSeconds) and to route
                             (wallSeconds), stop
      --write-platform FILE  write the built platform as a SimGrid platform file (hosts
                             node-0..node-(n-1)) and stop (after --write-deployment)
      --write-deployment FILE  write the job's placement as a SimGrid deployment file: one
                             actor 'rank' per task on its host, with the task number as argument
      --zone NAME            the written cluster or zone's name (default placelab)
      --messages FILE.csv    the job as its one-way messages instead of --job: lines
                             src,dst,bytes[,start] (tasks; start s after the round's compute,
                             default 0; a pair may repeat; src = dst is a free loopback; '#'
                             comments, a 'src,...' header); tasks: one more than the largest
                             named; a round ends with its last message, rounds repeat it; prints
                             messageEnds (first round) and roundEnds
      --placement-file FILE  host of each task, one per line (task i on line i; '#' comments),
                             instead of --placement; sets --tasks
      --jobs FILE.json       several jobs at once instead of --job/--messages: a JSON array of
                             {\"messages\": [[src,dst,bytes],...] (hosts), \"compute\",
                             \"rounds\", \"start\"} (defaults --compute, --rounds, 0); jobs that
                             share no link are simulated apart, each for one round; prints
                             jobEnds
      --list-hosts           print the platform's host names (index order) as JSON and stop";

/// A parsed `placelab netsim` command.
pub struct NetsimCase {
    pub platform: Platform,
    pub job: JobTraffic,
    pub model: Model,
    /// Print the messages instead of simulating.
    pub emit_messages: bool,
    /// How flow ends are recomputed.
    pub lazy: Lazy,
    /// Share of its bytes a flow may have left and end with an earlier end.
    pub end_tolerance: f64,
    /// A one-line description for the report.
    pub description: String,
    /// Route every host pair and stop.
    pub route_all: bool,
    /// Write the platform / the deployment to these files and stop.
    pub write_platform: Option<String>,
    pub write_deployment: Option<String>,
    pub zone: String,
    /// Host of every task.
    pub placement: Vec<u32>,
    /// `--messages`: the flows of one round on their hosts (start times include `compute`).
    pub flows: Option<Vec<Flow>>,
    /// `--jobs`: several jobs on hosts (then `job` is the first).
    pub jobs: Option<Vec<JobTraffic>>,
    /// Simulate every round (`--every-round`).
    pub every_round: bool,
    /// Print the host names and stop.
    pub list_hosts: bool,
}

/// One message of a `--messages` file: tasks, bytes, start.
pub type TaskMessage = (u32, u32, f64, f64);

/// Reads `src,dst,bytes[,start]` lines (tasks 0-based; `#` comments and blank lines skipped; a
/// first line starting with `src` is a header).
///
/// # Errors
/// `NAME:LINE:COLUMN: ...` for a field that is missing, not a number, negative or not finite,
/// or for extra fields.
pub fn parse_messages_csv(text: &str, name: &str) -> Result<Vec<TaskMessage>, String> {
    let mut out = Vec::new();
    for (ln, line) in text.lines().enumerate() {
        let body = line.split('#').next().unwrap_or("");
        if body.trim().is_empty() || (out.is_empty() && body.trim_start().starts_with("src")) {
            continue;
        }
        let mut col = 1;
        let mut fields = Vec::new();
        for f in body.split(',') {
            fields.push((col + f.len() - f.trim_start().len(), f.trim()));
            col += f.len() + 1;
        }
        let at = |c: usize| format!("{name}:{}:{c}", ln + 1);
        if fields.len() < 3 || fields.len() > 4 {
            return Err(format!(
                "{}: expected src,dst,bytes[,start], got {} fields",
                at(1),
                fields.len()
            ));
        }
        let task = |k: usize| -> Result<u32, String> {
            let (c, f) = fields[k];
            f.parse::<u32>()
                .map_err(|_| format!("{}: task '{f}' is not a whole number >= 0", at(c)))
        };
        let num = |k: usize, what: &str| -> Result<f64, String> {
            let (c, f) = fields[k];
            match f.parse::<f64>() {
                Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
                _ => Err(format!(
                    "{}: {what} '{f}' is not a finite number >= 0",
                    at(c)
                )),
            }
        };
        let start = if fields.len() == 4 {
            num(3, "start")?
        } else {
            0.0
        };
        out.push((task(0)?, task(1)?, num(2, "bytes")?, start));
    }
    if out.is_empty() {
        return Err(format!("{name}: no message"));
    }
    Ok(out)
}

/// The host of each line of a hosts file, with its line and column (from 1): `#` comments and
/// blank lines skipped, the rest of the line trimmed.
pub fn host_lines(text: &str) -> impl Iterator<Item = (&str, usize, usize)> {
    text.lines().enumerate().filter_map(|(ln, line)| {
        let body = line.split('#').next().unwrap_or("");
        let t = body.trim();
        (!t.is_empty()).then(|| (t, ln + 1, body.len() - body.trim_start().len() + 1))
    })
}

/// Reads one host per line (`#` comments and blank lines skipped).
///
/// # Errors
/// `NAME:LINE:COLUMN: ...` for a line that is not a whole number.
pub fn parse_placement_file(text: &str, name: &str) -> Result<Vec<u32>, String> {
    let mut out = Vec::new();
    for (t, line, col) in host_lines(text) {
        out.push(
            t.parse::<u32>().map_err(|_| {
                format!("{name}:{line}:{col}: host '{t}' is not a whole number >= 0")
            })?,
        );
    }
    if out.is_empty() {
        return Err(format!("{name}: no host"));
    }
    Ok(out)
}

fn read(flag: &str, f: &str) -> Result<String, String> {
    std::fs::read_to_string(f).map_err(|e| format!("{flag}: {f}: {e}"))
}

fn value<'a>(args: &'a [String], i: &mut usize, name: &str) -> Result<&'a str, String> {
    *i += 1;
    args.get(*i)
        .map(String::as_str)
        .ok_or_else(|| format!("{name} needs a value"))
}

fn number<T: std::str::FromStr>(s: &str, name: &str) -> Result<T, String> {
    s.parse()
        .map_err(|_| format!("{name}: '{s}' is not a valid number"))
}

/// Parses the flags (see [`USAGE`]) and builds the platform and the job.
///
/// # Errors
/// An unknown flag, a bad value, a platform that cannot be built, or more tasks than hosts.
pub fn parse(args: &[String]) -> Result<NetsimCase, String> {
    let mut system = "torus3d".to_string();
    let mut dims: Vec<u32> = vec![16, 16, 16];
    let mut tree = "6;4,4,4,4,4,4;1,4,4,4,4,4;1,1,1,1,1,1".to_string();
    let mut job = "cube".to_string();
    let mut tasks: Option<u32> = None;
    let mut wrap = true;
    let mut placement = "identity".to_string();
    let mut seed = 1u64;
    let mut bytes: f64 = 1e6;
    let mut rounds = 5u32;
    let mut compute: f64 = 0.0;
    let mut model = Model::SimgridLv08;
    let mut link = LinkParams::SOURCE;
    let mut emit = false;
    let mut lazy = Lazy::Auto;
    let mut end_tolerance = 0.0;
    let mut file: Option<String> = None;
    let mut route_all = false;
    let mut write_platform = None;
    let mut write_deployment = None;
    let mut zone = "placelab".to_string();
    let mut messages_file: Option<String> = None;
    let mut placement_file: Option<String> = None;
    let mut jobs_file: Option<String> = None;
    let mut every_round = false;
    let mut list_hosts = false;
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        match a {
            "--system" => system = value(args, &mut i, a)?.to_string(),
            "--dims" => {
                dims = value(args, &mut i, a)?
                    .split(',')
                    .map(|x| number(x.trim(), "--dims"))
                    .collect::<Result<_, _>>()?
            }
            "--tree" => tree = value(args, &mut i, a)?.to_string(),
            "--job" => job = value(args, &mut i, a)?.to_string(),
            "--tasks" => tasks = Some(number(value(args, &mut i, a)?, a)?),
            "--no-wrap" => wrap = false,
            "--placement" => placement = value(args, &mut i, a)?.to_string(),
            "--seed" => seed = number(value(args, &mut i, a)?, a)?,
            "--bytes" => bytes = number(value(args, &mut i, a)?, a)?,
            "--rounds" => rounds = number(value(args, &mut i, a)?, a)?,
            "--compute" => compute = number(value(args, &mut i, a)?, a)?,
            "--model" => {
                let m = value(args, &mut i, a)?;
                model = Model::from_id(m)
                    .ok_or_else(|| format!("--model: '{m}' is not simgrid-lv08 or max-min"))?
            }
            "--bandwidth" => link.bandwidth = number(value(args, &mut i, a)?, a)?,
            "--latency" => link.latency = number(value(args, &mut i, a)?, a)?,
            "--emit-messages" => emit = true,
            "--platform" => file = Some(value(args, &mut i, a)?.to_string()),
            "--route-all" => route_all = true,
            "--write-platform" => write_platform = Some(value(args, &mut i, a)?.to_string()),
            "--write-deployment" => write_deployment = Some(value(args, &mut i, a)?.to_string()),
            "--zone" => zone = value(args, &mut i, a)?.to_string(),
            "--messages" => messages_file = Some(value(args, &mut i, a)?.to_string()),
            "--placement-file" => placement_file = Some(value(args, &mut i, a)?.to_string()),
            "--jobs" => jobs_file = Some(value(args, &mut i, a)?.to_string()),
            "--every-round" => every_round = true,
            "--list-hosts" => list_hosts = true,
            "--recompute" => {
                lazy = match value(args, &mut i, a)? {
                    "auto" => Lazy::Auto,
                    "scan" => Lazy::Scan,
                    "slack" => Lazy::Slack,
                    r => return Err(format!("--recompute: '{r}' is not auto, scan or slack")),
                }
            }
            "--end-tolerance" => {
                end_tolerance = number(value(args, &mut i, a)?, a)?;
                if !(0.0..=0.5).contains(&end_tolerance) {
                    return Err(format!(
                        "--end-tolerance: must be from 0 to 0.5, got {end_tolerance}"
                    ));
                }
            }
            _ => return Err(format!("unknown option '{a}'")),
        }
        i += 1;
    }
    let need = |n: usize| -> Result<(), String> {
        if dims.len() == n {
            Ok(())
        } else {
            Err(format!(
                "--dims: {system} needs {n} sides, got {}",
                dims.len()
            ))
        }
    };
    let sys = match system.as_str() {
        _ if file.is_some() => System::Imported { hosts: 0 },
        "torus3d" | "mesh3d" => {
            need(3)?;
            let (x, y, z) = (dims[0], dims[1], dims[2]);
            if system == "torus3d" {
                System::Torus3d { x, y, z }
            } else {
                System::Mesh3d { x, y, z }
            }
        }
        "torus2d" | "mesh2d" => {
            need(2)?;
            let (x, y) = (dims[0], dims[1]);
            if system == "torus2d" {
                System::Torus2d { x, y }
            } else {
                System::Mesh2d { x, y }
            }
        }
        "torus" => System::Torus { dims: dims.clone() },
        "fattree" => System::FatTree(parse_fat_tree(&tree).map_err(|e| format!("--tree: {e}"))?),
        s => return Err(format!("--system: unknown system '{s}'")),
    };
    let platform = match &file {
        Some(f) => {
            let text = std::fs::read_to_string(f).map_err(|e| format!("--platform: {f}: {e}"))?;
            let sg = placelab::formats::simgrid::parse(&text, f)?;
            Platform::from_simgrid(sg).map_err(|e| format!("{f}: {e}"))?
        }
        None => Platform::build(&sys, link)?,
    };
    let jobs = match &jobs_file {
        Some(f) => Some(parse_jobs_json(
            &read("--jobs", f)?,
            f,
            &platform,
            compute,
            rounds,
        )?),
        None => None,
    };
    let task_messages = match &messages_file {
        Some(f) => Some(parse_messages_csv(&read("--messages", f)?, f)?),
        None => None,
    };
    let given = match &placement_file {
        Some(f) => Some(parse_placement_file(&read("--placement-file", f)?, f)?),
        None => None,
    };
    let named = task_messages
        .iter()
        .flatten()
        .map(|m| m.0.max(m.1) + 1)
        .max();
    let n = match (&given, named) {
        (Some(g), _) => g.len() as u32,
        (None, Some(k)) => tasks.unwrap_or(k),
        (None, None) => tasks.unwrap_or(platform.hosts()),
    };
    if let Some(k) = named.filter(|&k| k > n) {
        return Err(format!(
            "--messages: task {} needs {k} tasks; the job has {n}{}",
            k - 1,
            if given.is_some() {
                " (--placement-file lines)"
            } else {
                ""
            }
        ));
    }
    if let Some(t) = tasks.filter(|&t| given.is_some() && t != n) {
        return Err(format!(
            "--tasks {t}: --placement-file gives {n} hosts, one per task"
        ));
    }
    if n == 0 || (given.is_none() && n > platform.hosts()) {
        return Err(format!(
            "--tasks: {n} tasks do not fit on {} hosts",
            platform.hosts()
        ));
    }
    if !(bytes.is_finite() && bytes >= 0.0) {
        return Err(format!("--bytes: must be >= 0, got {bytes}"));
    }
    let edges = if task_messages.is_some() {
        Vec::new()
    } else {
        job_edges(&job, n, wrap)?
    };
    let hosts: Vec<u32> = match placement.as_str() {
        _ if given.is_some() => {
            let g = given.unwrap_or_default();
            if let Some((i, h)) = g.iter().enumerate().find(|x| *x.1 >= platform.hosts()) {
                return Err(format!(
                    "--placement-file: task {i} on host {h}; the platform's hosts are 0 to {}",
                    platform.hosts() - 1
                ));
            }
            placement = "given".into();
            g
        }
        "identity" => (0..n).collect(),
        "random" => {
            let mut all: Vec<u32> = (0..platform.hosts()).collect();
            let mut rng = Rng::seeded(seed);
            // Fisher-Yates on the first n slots.
            for k in 0..n as usize {
                let left = (all.len() - k) as u64;
                let j = k + rng.below(left) as usize;
                all.swap(k, j);
            }
            all.truncate(n as usize);
            all
        }
        p => return Err(format!("--placement: unknown placement '{p}'")),
    };
    let mut job = job;
    let mut messages = Vec::with_capacity(edges.len() * 2);
    for &(a, b) in &edges {
        for (s, d) in [(a, b), (b, a)] {
            messages.push(Message {
                src: hosts[s as usize],
                dst: hosts[d as usize],
                bytes,
            });
        }
    }
    let flows = task_messages.map(|tm| {
        tm.iter()
            .map(|&(a, b, bytes, start)| Flow {
                src: hosts[a as usize],
                dst: hosts[b as usize],
                bytes,
                start: compute + start,
            })
            .collect::<Vec<_>>()
    });
    if let Some(f) = &flows {
        job = "messages".into();
        messages = f
            .iter()
            .map(|f| Message {
                src: f.src,
                dst: f.dst,
                bytes: f.bytes,
            })
            .collect();
    }
    let description = format!(
        "{} {} {job} of {n} tasks ({} messages a round), {placement} placement, {}{rounds} rounds, {}",
        file.as_deref().map_or(system.as_str(), |_| "platform"),
        match (platform.dims(), &file) {
            (_, Some(f)) => f.clone(),
            (Some(d), None) => d.iter().map(|x| x.to_string()).collect::<Vec<_>>().join("x"),
            (None, None) => tree.clone(),
        },
        messages.len(),
        if flows.is_some() {
            String::new()
        } else {
            format!("{bytes} B, ")
        },
        model.id()
    );
    let mut job = JobTraffic {
        messages,
        compute,
        rounds,
        start: 0.0,
    };
    let mut description = description;
    if let Some(js) = &jobs {
        job = js[0].clone();
        description = format!(
            "{} {} {} jobs ({} messages a round in all), {}",
            file.as_deref().map_or(system.as_str(), |_| "platform"),
            match (platform.dims(), &file) {
                (_, Some(f)) => f.clone(),
                (Some(d), None) => d
                    .iter()
                    .map(|x| x.to_string())
                    .collect::<Vec<_>>()
                    .join("x"),
                (None, None) => tree.clone(),
            },
            js.len(),
            js.iter().map(|j| j.messages.len()).sum::<usize>(),
            model.id()
        );
    }
    Ok(NetsimCase {
        platform,
        job,
        model,
        emit_messages: emit,
        lazy,
        end_tolerance,
        description,
        route_all,
        write_platform,
        write_deployment,
        zone,
        placement: hosts,
        flows,
        jobs,
        every_round,
        list_hosts,
    })
}

/// Reads `--jobs`: a JSON array of `{"messages": [[src, dst, bytes], ...], "compute",
/// "rounds", "start"}` on the hosts of `p` (`compute` and `rounds` default to the flags', `start`
/// to 0).
///
/// # Errors
/// `NAME:LINE:COLUMN: ...` for JSON that does not parse; `NAME: jobs[j].FIELD...: ...` for a
/// missing or bad field or a host out of range.
pub fn parse_jobs_json(
    text: &str,
    name: &str,
    p: &Platform,
    compute: f64,
    rounds: u32,
) -> Result<Vec<JobTraffic>, String> {
    let v: serde_json::Value = serde_json::from_str(text)
        .map_err(|e| format!("{name}:{}:{}: {e}", e.line(), e.column()))?;
    let arr = v
        .as_array()
        .filter(|a| !a.is_empty())
        .ok_or_else(|| format!("{name}: expected a non-empty array of jobs"))?;
    let num = |x: Option<&serde_json::Value>, at: String, default: f64| -> Result<f64, String> {
        match x {
            None => Ok(default),
            Some(x) => x
                .as_f64()
                .filter(|v| v.is_finite() && *v >= 0.0)
                .ok_or_else(|| format!("{name}: {at}: expected a finite number >= 0, got {x}")),
        }
    };
    let mut out = Vec::with_capacity(arr.len());
    for (j, job) in arr.iter().enumerate() {
        let at = |f: &str| format!("jobs[{j}].{f}");
        let obj = job
            .as_object()
            .ok_or_else(|| format!("{name}: jobs[{j}]: expected an object"))?;
        if let Some(k) = obj
            .keys()
            .find(|k| !["messages", "compute", "rounds", "start"].contains(&k.as_str()))
        {
            return Err(format!("{name}: jobs[{j}].{k}: unknown field"));
        }
        let msgs = obj
            .get("messages")
            .and_then(|m| m.as_array())
            .ok_or_else(|| format!("{name}: {}: expected an array", at("messages")))?;
        let mut messages = Vec::with_capacity(msgs.len());
        for (i, m) in msgs.iter().enumerate() {
            let at = format!("jobs[{j}].messages[{i}]");
            let t = m
                .as_array()
                .filter(|t| t.len() == 3)
                .ok_or_else(|| format!("{name}: {at}: expected [src, dst, bytes]"))?;
            let host = |k: usize| -> Result<u32, String> {
                t[k].as_u64()
                    .filter(|&h| h < u64::from(p.hosts()))
                    .map(|h| h as u32)
                    .ok_or_else(|| {
                        format!(
                            "{name}: {at}[{k}]: expected a host 0 to {}, got {}",
                            p.hosts().saturating_sub(1),
                            t[k]
                        )
                    })
            };
            messages.push(Message {
                src: host(0)?,
                dst: host(1)?,
                bytes: num(Some(&t[2]), format!("{at}[2]"), 0.0)?,
            });
        }
        let rounds = match obj.get("rounds") {
            None => rounds,
            Some(r) => r
                .as_u64()
                .and_then(|r| u32::try_from(r).ok())
                .ok_or_else(|| {
                    format!("{name}: {}: expected a whole number, got {r}", at("rounds"))
                })?,
        };
        out.push(JobTraffic {
            messages,
            compute: num(obj.get("compute"), at("compute"), compute)?,
            rounds,
            start: num(obj.get("start"), at("start"), 0.0)?,
        });
    }
    Ok(out)
}

/// Undirected task-graph edges `(a, b)`, `a < b`, sorted, of a built-in job of `n` tasks.
///
/// # Errors
/// An unknown kind.
pub fn job_edges(kind: &str, n: u32, wrap: bool) -> Result<Vec<(u32, u32)>, String> {
    let mut e: Vec<(u32, u32)> = Vec::new();
    let mut push = |a: u32, b: u32| {
        if a != b {
            e.push((a.min(b), a.max(b)));
        }
    };
    match kind {
        "cube" => {
            let mut s = 1u32;
            while (s + 1) * (s + 1) * (s + 1) <= n {
                s += 1;
            }
            // round(cbrt n): take s + 1 when it is nearer and still fits... it cannot fit, so
            // leftover tasks stay idle (the source's rule uses the cube that fits).
            for t in 0..s * s * s {
                let (x, y, z) = (t % s, (t / s) % s, t / (s * s));
                let id = |x: u32, y: u32, z: u32| x + s * (y + s * z);
                if x + 1 < s || wrap {
                    push(t, id((x + 1) % s, y, z));
                }
                if y + 1 < s || wrap {
                    push(t, id(x, (y + 1) % s, z));
                }
                if z + 1 < s || wrap {
                    push(t, id(x, y, (z + 1) % s));
                }
            }
        }
        "grid" => {
            let mut s = 1u32;
            while (s + 1) * (s + 1) <= n {
                s += 1;
            }
            for t in 0..s * s {
                let (x, y) = (t % s, t / s);
                if x + 1 < s || wrap {
                    push(t, (x + 1) % s + s * y);
                }
                if y + 1 < s || wrap {
                    push(t, x + s * ((y + 1) % s));
                }
            }
        }
        "star" => (1..n).for_each(|t| push(0, t)),
        "tree" => (1..n).for_each(|t| push((t - 1) / 2, t)),
        "full" => {
            for a in 0..n {
                for b in a + 1..n {
                    push(a, b);
                }
            }
        }
        k => return Err(format!("--job: unknown job '{k}'")),
    }
    e.sort_unstable();
    e.dedup();
    Ok(e)
}

/// This process's peak resident memory (Linux `VmHWM`), in MiB; `None` elsewhere.
fn peak_rss_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

/// `placelab netsim`: parses the flags ([`parse`]), runs the simulation, and
/// prints one JSON object with its results and the wall time of the simulation alone.
pub fn main(args: &[String]) -> ExitCode {
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!("{}", USAGE);
        return ExitCode::SUCCESS;
    }
    let t_build = std::time::Instant::now();
    let parsed = parse(args);
    let build_seconds = t_build.elapsed().as_secs_f64();
    let case = match parsed {
        Ok(c) => c,
        Err(e) => {
            eprintln!("placelab netsim: {e}\n{}", USAGE);
            return ExitCode::from(2);
        }
    };
    if case.write_platform.is_some() || case.write_deployment.is_some() {
        return match write_files(&case) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("placelab netsim: {e}");
                ExitCode::from(2)
            }
        };
    }
    if case.route_all {
        let t0 = std::time::Instant::now();
        let n = case.platform.hosts();
        let mut route = Vec::new();
        let mut links = 0u64;
        for s in 0..n {
            for d in 0..n {
                route.clear();
                case.platform.route(s, d, &mut route);
                links += route.len() as u64;
            }
        }
        let report = serde_json::json!({
            "case": case.description,
            "hosts": n,
            "links": case.platform.links(),
            "routedPairs": u64::from(n) * u64::from(n),
            "routeLinks": links,
            "buildSeconds": build_seconds,
            "wallSeconds": t0.elapsed().as_secs_f64(),
        });
        println!("{report}");
        return ExitCode::SUCCESS;
    }
    if case.list_hosts {
        let names: Vec<String> = (0..case.platform.hosts())
            .map(|h| match case.platform.routed() {
                Some(r) => r.description().host_name(h).to_string(),
                None => format!("node-{h}"),
            })
            .collect();
        println!("{}", serde_json::to_string(&names).unwrap_or_default());
        return ExitCode::SUCCESS;
    }
    if case.emit_messages {
        let m: Vec<(u32, u32, f64)> = case
            .job
            .messages
            .iter()
            .map(|m| (m.src, m.dst, m.bytes))
            .collect();
        println!("{}", serde_json::to_string(&m).unwrap_or_default());
        return ExitCode::SUCCESS;
    }
    if let Some(flows) = &case.flows {
        return simulate_messages(&case, flows);
    }
    let t0 = std::time::Instant::now();
    let jobs = case.jobs.unwrap_or_else(|| vec![case.job]);
    let simulate = if case.every_round {
        simulate_every_round_with
    } else {
        simulate_rounds_with
    };
    let r = simulate(
        &case.platform,
        &jobs,
        case.model,
        placelab::netsim::Sharing {
            lazy: case.lazy,
            end_tolerance: case.end_tolerance,
        },
        &mut placelab::progress::NoProgress,
    );
    let seconds = t0.elapsed().as_secs_f64();
    match r {
        Ok(r) => {
            let report = serde_json::json!({
                "case": case.description,
                "simulatedTime": r.makespan,
                "commTime": r.comm_time[0],
                "jobEnds": r.job_end,
                "messagesPerRound": jobs.iter().map(|j| j.messages.len()).sum::<usize>(),
                "solves": r.solves,
                "solvedFlows": r.solved_flows,
                "work": r.work,
                "batchedEnds": r.batched_ends,
                "wallSeconds": seconds,
                "peakRssMiB": peak_rss_mib(),
            });
            println!("{report}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("placelab netsim: {e}");
            ExitCode::from(1)
        }
    }
}

/// `--messages`: one round as flows ([`placelab::netsim::simulate`]), repeated `--rounds`
/// times (each round starts when the last ended, on an empty network, so all last the same).
fn simulate_messages(case: &NetsimCase, flows: &[Flow]) -> ExitCode {
    let t0 = std::time::Instant::now();
    let r = placelab::netsim::simulate(
        &case.platform,
        flows,
        case.model,
        &mut placelab::progress::NoProgress,
    );
    let seconds = t0.elapsed().as_secs_f64();
    match r {
        Ok(r) => {
            let round = r.makespan.max(case.job.compute);
            let rounds = case.job.rounds;
            let report = serde_json::json!({
                "case": case.description,
                "simulatedTime": round * f64::from(rounds),
                "messagesPerRound": flows.len(),
                "messageEnds": r.finish,
                "roundEnds": (1..=rounds).map(|k| round * f64::from(k)).collect::<Vec<_>>(),
                "solves": r.solves,
                "solvedFlows": r.solved_flows,
                "wallSeconds": seconds,
                "peakRssMiB": peak_rss_mib(),
            });
            println!("{report}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("placelab netsim: {e}");
            ExitCode::from(1)
        }
    }
}

/// Writes `--write-platform` and `--write-deployment`.
fn write_files(case: &NetsimCase) -> Result<(), String> {
    use placelab::formats::simgrid::write;
    if let Some(f) = &case.write_platform {
        let xml = write::platform(&case.platform, &case.zone)?;
        std::fs::write(f, xml).map_err(|e| format!("--write-platform: {f}: {e}"))?;
    }
    if let Some(f) = &case.write_deployment {
        let xml = write::deployment(&case.placement, "rank")?;
        std::fs::write(f, xml).map_err(|e| format!("--write-deployment: {f}: {e}"))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn cube_of_4096_has_six_neighbours_per_task() {
        let e = job_edges("cube", 4096, true).unwrap();
        assert_eq!(e.len(), 3 * 4096);
        let c = parse(&args("--rounds 2")).unwrap();
        assert_eq!(c.job.messages.len(), 6 * 4096);
        assert_eq!(c.platform.hosts(), 4096);
    }

    #[test]
    fn random_placement_uses_distinct_hosts() {
        let c = parse(&args("--dims 4,4,4 --tasks 27 --placement random --seed 3")).unwrap();
        let mut hosts: Vec<u32> = c.job.messages.iter().map(|m| m.src).collect();
        hosts.sort_unstable();
        hosts.dedup();
        assert_eq!(hosts.len(), 27);
    }

    #[test]
    fn refuses_bad_flags() {
        for bad in [
            "--system ring",
            "--dims 4,4",
            "--tasks 5000",
            "--job blob",
            "--bytes -1",
            "--model fast",
            "--frobnicate",
            "--seed",
            "--platform /nonexistent.xml",
        ] {
            assert!(parse(&args(bad)).is_err(), "{bad}");
        }
    }

    #[test]
    fn reads_a_simgrid_platform_file() {
        let f = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/simgrid-xml/cluster_torus.xml"
        );
        let c = parse(&args(&format!("--platform {f} --job grid --rounds 1"))).unwrap();
        assert_eq!(c.platform.hosts(), 12);
        assert!(c.description.starts_with("platform "), "{}", c.description);
        let e = parse(&args(&format!("--platform {f} --tasks 13")))
            .err()
            .unwrap();
        assert!(e.contains("13 tasks do not fit on 12 hosts"), "{e}");
    }

    fn temp(name: &str, text: &str) -> String {
        let dir = std::env::temp_dir().join(format!("placelab-netsim-msg-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join(name);
        std::fs::write(&f, text).unwrap();
        f.display().to_string()
    }

    #[test]
    fn messages_and_placement_files_become_timed_flows_on_the_given_hosts() {
        let m = temp(
            "m.csv",
            "src,dst,bytes,start\n0,3,1e6\n0,3,1e6,0.001 # again, later\n\n2,2,5e5,0.5\n1,0,0\n",
        );
        let p = temp("p.txt", "# hosts\n5\n 9\n2\n7\n");
        let c = parse(&args(&format!(
            "--system torus2d --dims 4,4 --messages {m} --placement-file {p} --compute 0.25"
        )))
        .unwrap();
        assert_eq!(c.placement, vec![5, 9, 2, 7]);
        let f = c.flows.unwrap();
        let want = [
            (5, 7, 1e6, 0.25),
            (5, 7, 1e6, 0.251),
            (2, 2, 5e5, 0.75),
            (9, 5, 0.0, 0.25),
        ];
        assert_eq!(f.len(), 4);
        for (f, w) in f.iter().zip(want) {
            assert_eq!((f.src, f.dst, f.bytes, f.start), w);
        }
        // without a placement file: identity on 1 + the largest task
        let c = parse(&args(&format!(
            "--system torus2d --dims 4,4 --messages {m}"
        )))
        .unwrap();
        assert_eq!(c.placement, vec![0, 1, 2, 3]);
    }

    /// The CLI and a placement scenario with the same messages and strategy `given` give the
    /// same message ends.
    #[test]
    fn cli_message_ends_equal_the_placement_engines() {
        let m = temp(
            "m3.csv",
            "0,3,1e6\n0,3,1e6,0.001\n2,1,2e6,0.0005\n4,4,1e6,0.003\n",
        );
        let p = temp("p4.txt", "15\n2\n7\n9\n4\n");
        let c = parse(&args(&format!(
            "--system torus2d --dims 4,4 --messages {m} --placement-file {p} --compute 0.001"
        )))
        .unwrap();
        let flows = c.flows.unwrap();
        let cli = placelab::netsim::simulate(
            &c.platform,
            &flows,
            c.model,
            &mut placelab::progress::NoProgress,
        )
        .unwrap();
        let doc = serde_json::json!({"version": 1, "engine": "place",
            "system": {"kind": "torus2d", "x": 4, "y": 4},
            "job": {"kind": "messages", "rounds": 1, "compute": 1e6, "messages": [
                {"src": 0, "dst": 3, "bytes": 1e6}, {"src": 0, "dst": 3, "bytes": 1e6, "start": 0.001},
                {"src": 2, "dst": 1, "bytes": 2e6, "start": 0.0005}, {"src": 4, "dst": 4, "bytes": 1e6, "start": 0.003}]},
            "strategies": ["given"], "placement": [15, 2, 7, 9, 4]});
        let out =
            placelab::api::run(&doc.to_string(), &mut placelab::progress::NoProgress).unwrap();
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        let ends = v["report"]["cases"][0]["runs"][0]["messageEnds"]
            .as_array()
            .unwrap();
        assert_eq!(ends.len(), 4);
        for (a, b) in ends.iter().zip(&cli.finish) {
            assert!((a.as_f64().unwrap() - b).abs() <= 1e-15 * b, "{a} vs {b}");
        }
    }

    #[test]
    fn bad_messages_and_placement_files_name_line_and_column() {
        let cases = [
            (
                "0,1\n",
                "m.csv:1:1: expected src,dst,bytes[,start], got 2 fields",
            ),
            ("0,1,5\n0, x,5\n", "m.csv:2:4: task 'x'"),
            ("0,1,-5\n", "m.csv:1:5: bytes '-5'"),
            ("0,1,5,inf\n", "m.csv:1:7: start 'inf'"),
            ("# nothing\n", "m.csv: no message"),
        ];
        for (text, want) in cases {
            let e = parse_messages_csv(text, "m.csv").unwrap_err();
            assert!(e.contains(want), "{text:?}: {e}");
        }
        let e = parse_placement_file("1\n  two\n", "p").unwrap_err();
        assert!(e.contains("p:2:3: host 'two'"), "{e}");
        let m = temp("m2.csv", "0,5,1\n");
        let p = temp("p2.txt", "0\n1\n2\n");
        let e = parse(&args(&format!(
            "--system torus2d --dims 4,4 --messages {m} --placement-file {p}"
        )))
        .err()
        .unwrap();
        assert!(e.contains("task 5 needs 6 tasks; the job has 3"), "{e}");
        let p = temp("p3.txt", "0\n1\n2\n3\n4\n16\n");
        let e = parse(&args(&format!(
            "--system torus2d --dims 4,4 --messages {m} --placement-file {p}"
        )))
        .err()
        .unwrap();
        assert!(e.contains("task 5 on host 16"), "{e}");
        let e = parse(&args(&format!(
            "--system torus2d --dims 4,4 --placement-file {p} --tasks 3"
        )))
        .err()
        .unwrap();
        assert!(e.contains("--tasks 3"), "{e}");
    }

    #[test]
    fn jobs_files_give_several_jobs_and_name_bad_fields() {
        let j = temp(
            "jobs.json",
            r#"[{"messages": [[0, 5, 1e6], [5, 0, 1e6]], "compute": 0.001, "rounds": 3},
                {"messages": [[8, 9, 2e6]], "start": 0.5}]"#,
        );
        let c = parse(&args(&format!(
            "--system torus2d --dims 4,4 --jobs {j} --rounds 7 --compute 0.25"
        )))
        .unwrap();
        let js = c.jobs.unwrap();
        assert_eq!(js.len(), 2);
        assert_eq!((js[0].rounds, js[0].compute, js[0].start), (3, 0.001, 0.0));
        assert_eq!((js[1].rounds, js[1].compute, js[1].start), (7, 0.25, 0.5));
        assert_eq!(js[1].messages[0].bytes, 2e6);
        let p = Platform::build(&System::Torus2d { x: 4, y: 4 }, LinkParams::SOURCE).unwrap();
        for (text, want) in [
            ("[", "j.json:1:1: "),
            ("{}", "j.json: expected a non-empty array of jobs"),
            ("[]", "j.json: expected a non-empty array of jobs"),
            ("[3]", "j.json: jobs[0]: expected an object"),
            ("[{}]", "j.json: jobs[0].messages: expected an array"),
            (
                r#"[{"messages": [], "speed": 1}]"#,
                "jobs[0].speed: unknown field",
            ),
            (
                r#"[{"messages": [[0, 1]]}]"#,
                "jobs[0].messages[0]: expected [src, dst, bytes]",
            ),
            (
                r#"[{"messages": [[0, 16, 1]]}]"#,
                "jobs[0].messages[0][1]: expected a host 0 to 15, got 16",
            ),
            (
                r#"[{"messages": [[0, 1, -1]]}]"#,
                "jobs[0].messages[0][2]: expected a finite",
            ),
            (
                r#"[{"messages": [], "rounds": 1.5}]"#,
                "jobs[0].rounds: expected a whole",
            ),
            (
                r#"[{"messages": [], "start": "x"}]"#,
                "jobs[0].start: expected a finite",
            ),
        ] {
            let e = parse_jobs_json(text, "j.json", &p, 0.0, 1).unwrap_err();
            assert!(e.contains(want), "{text}: {e}");
        }
    }

    #[test]
    fn bad_platform_files_are_named_with_line_and_column() {
        let dir = std::env::temp_dir().join(format!("placelab-netsim-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("bad.xml");
        std::fs::write(
            &f,
            "<platform version=\"4.1\">\n  <zone id=\"z\" routing=\"Ful\"/>\n</platform>\n",
        )
        .unwrap();
        let e = parse(&args(&format!("--platform {}", f.display())))
            .err()
            .unwrap();
        assert!(
            e.contains("bad.xml:2:3: zone routing \"ful\" is not supported"),
            "{e}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
