//! `placelab trace INDEX --platform PLATFORM.json`: a trace SMPI recorded (`smpirun -trace-ti`:
//! an index file naming one file per rank) read as streams, then the trace engine's search for
//! the best assignment of ranks to the platform's nodes. The rank files are read in 64 KiB
//! chunks ([`placelab::trace::ti::TiStream`]): memory is the trace's events, not its bytes. The
//! run is the scenario `PLATFORM.json` plus `"trace": {"format": "ti", "attached": INDEX's name,
//! "digest": ...}`, so `placelab run` of that scenario with `--attach INDEX` gives the same report.
//! A merged trace (every rank's lines in one file) is taken in place of an index. `PLATFORM` may
//! also be a SimGrid platform file (XML): the scenario is then `{"simgrid": its text}`, every
//! host a node, or the hosts `--hosts` names.

use placelab::formats::digest::Fnv64;
use placelab::trace::model::{Origin, Trace};
use placelab::trace::ti::{index_files, TiStream};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub const USAGE: &str =
    "  placelab trace INDEX --platform PLATFORM.json|PLATFORM.xml [--hosts H1,H2,...]
                 [--search auto|exhaustive|branchAndBound|localSearch]
                 [--budget B] [-o REPORT.json] [--machinefile FILE]
                             read an SMPI time-independent trace (smpirun -trace-ti: the index and
                             the rank files it names, relative to the index's folder) as streams,
                             and search the best assignment of its ranks to the nodes of
                             PLATFORM.json (a trace scenario without \"trace\": nodes, links,
                             search) or of a SimGrid platform file PLATFORM.xml (its hosts, or
                             those --hosts names, and their routes); print the report (or write it
                             to REPORT.json) and the best assignment's machinefile to FILE";

/// Whether a platform file's text is SimGrid XML (a `<platform` element near its start) rather
/// than a JSON scenario.
fn is_simgrid_xml(text: &str) -> bool {
    let head: String = text.chars().take(4096).collect();
    head.trim_start_matches('\u{feff}')
        .trim_start()
        .starts_with('<')
        && head.contains("<platform")
}

fn fail(msg: impl std::fmt::Display, code: u8) -> ExitCode {
    eprintln!("placelab: {msg}");
    ExitCode::from(code)
}

/// Where a rank file the index names is: as written (absolute, or relative to the index's
/// folder), else its file name in the index's folder (a trace folder moved after recording).
fn locate(index: &Path, entry: &str) -> PathBuf {
    let dir = index.parent().unwrap_or(Path::new("."));
    let p = Path::new(entry);
    let first = if p.is_absolute() {
        p.to_path_buf()
    } else {
        dir.join(p)
    };
    if first.exists() {
        return first;
    }
    match p.file_name() {
        Some(name) if dir.join(name).exists() => dir.join(name),
        _ => first,
    }
}

/// Whether the file holds trace lines (`RANK ACTION ...`) rather than an index of paths: its
/// first line that is not blank or a comment, within the first 64 KiB.
fn is_trace_text(path: &Path) -> std::io::Result<bool> {
    let mut head = vec![0u8; 64 << 10];
    let mut f = std::fs::File::open(path)?;
    let mut n = 0;
    while n < head.len() {
        match f.read(&mut head[n..])? {
            0 => break,
            k => n += k,
        }
    }
    let text = String::from_utf8_lossy(&head[..n]);
    let first = text
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .find(|l| !l.is_empty());
    Ok(first.is_some_and(|l| {
        let mut f = l.split_whitespace();
        let rank = f.next().unwrap_or("");
        let rank = rank
            .strip_prefix("rank")
            .or_else(|| rank.strip_prefix('p'))
            .unwrap_or(rank);
        let action = f.next().unwrap_or("");
        !rank.is_empty()
            && rank.bytes().all(|b| b.is_ascii_digit())
            && !action.is_empty()
            && action.bytes().all(|b| b.is_ascii_alphabetic() || b == b'_')
    }))
}

/// Reads the index at `path` and every rank file it names, as streams, and attaches the trace
/// under the index's file name ([`placelab::attach::attach_trace`]); returns that name and the
/// trace's fingerprint. `Err`: the message (naming the file and line) and the exit code (2 for
/// a file that cannot be read, 1 for a bad trace).
pub fn attach_index(name: &str, path: &str) -> Result<(String, String), (String, u8)> {
    let index = Path::new(path);
    let files = if is_trace_text(index).map_err(|e| (format!("cannot read {path}: {e}"), 2))? {
        // a merged trace (every rank's lines in one text): the file is its own only rank file
        vec![index
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()]
    } else {
        let text =
            std::fs::read_to_string(index).map_err(|e| (format!("cannot read {path}: {e}"), 2))?;
        index_files(&text)
    };
    if files.is_empty() {
        return Err((
            format!("{path}: names no rank file (an SMPI -trace-ti index has one path per line)"),
            1,
        ));
    }
    let max = placelab::trace::limits::MAX_RANKS as usize;
    if files.len() > max {
        return Err((
            format!(
                "{path}: names {} rank files; at most {max} ranks",
                files.len()
            ),
            1,
        ));
    }
    let mut trace = Trace::new(0, Origin::Files);
    let mut digest = Fnv64::default();
    let mut buf = vec![0u8; 64 << 10];
    for (i, entry) in files.iter().enumerate() {
        let file = locate(index, entry);
        let shown = file.display().to_string();
        let mut f = std::fs::File::open(&file).map_err(|e| {
            (
                format!("cannot read {shown} (line {} of {path}): {e}", i + 1),
                2,
            )
        })?;
        let mut stream = TiStream::new(i as u32, 1.0);
        loop {
            let n = match f.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err((format!("cannot read {shown}: {e}"), 2)),
            };
            digest.update(&buf[..n]);
            stream
                .push(&buf[..n], &mut trace)
                .map_err(|e| (format!("{shown}: {e}"), 1))?;
        }
        stream
            .finish(&mut trace)
            .map_err(|e| (format!("{shown}: {e}"), 1))?;
    }
    let fingerprint = digest.fingerprint();
    placelab::attach::attach_trace(
        name,
        placelab::attach::AttachedTrace {
            trace,
            digest: fingerprint.clone(),
            files,
        },
    );
    Ok((name.to_string(), fingerprint))
}

/// When each phase of the run began, seconds from its start (for the timings printed).
struct Phases {
    start: std::time::Instant,
    at: Vec<(String, f64)>,
}

impl placelab::progress::Progress for Phases {
    fn tick(&mut self, _done: u64, _total: u64) {}

    fn phase(&mut self, name: &str) {
        self.at
            .push((name.to_string(), self.start.elapsed().as_secs_f64()));
    }
}

/// `placelab trace ...` with the arguments after `trace`.
pub fn main(args: &[String]) -> ExitCode {
    let (mut index, mut platform, mut out, mut machinefile) = (None, None, None, None);
    let (mut search, mut budget) = (None::<String>, None::<f64>);
    let mut hosts = None::<String>;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |what: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{a} needs {what}"))
        };
        let r = match a.as_str() {
            "--platform" => value("a scenario file").map(|v| platform = Some(v)),
            "-o" | "--output" => value("a file").map(|v| out = Some(v)),
            "--machinefile" => value("a file").map(|v| machinefile = Some(v)),
            "--search" => value("a method").map(|v| search = Some(v)),
            "--hosts" => value("host names separated by commas").map(|v| hosts = Some(v)),
            "--budget" => value("a number").and_then(|v| {
                v.parse::<f64>()
                    .map(|b| budget = Some(b))
                    .map_err(|_| format!("--budget {v:?}: give a number"))
            }),
            s if s.starts_with('-') => Err(format!("unknown option {s}")),
            s if index.is_none() => {
                index = Some(s.to_string());
                Ok(())
            }
            s => Err(format!("unexpected argument {s}")),
        };
        if let Err(e) = r {
            return fail(format!("{e}\n{USAGE}"), 2);
        }
    }
    let (Some(index), Some(platform)) = (index, platform) else {
        return fail(
            format!("placelab trace needs an index file and --platform\n{USAGE}"),
            2,
        );
    };
    let ptext = match std::fs::read_to_string(&platform) {
        Ok(t) => t,
        Err(e) => return fail(format!("cannot read {platform}: {e}"), 2),
    };
    let xml = is_simgrid_xml(&ptext);
    if hosts.is_some() && !xml {
        return fail(
            format!("--hosts chooses hosts of a SimGrid platform file; {platform} is a JSON scenario (name its nodes there)"),
            2,
        );
    }
    let parsed = if xml {
        let mut doc = serde_json::json!({ "simgrid": ptext });
        if let Some(h) = &hosts {
            let nodes: Vec<serde_json::Value> = h
                .split(',')
                .map(str::trim)
                .filter(|x| !x.is_empty())
                .map(|x| serde_json::json!({ "name": x }))
                .collect();
            doc["nodes"] = serde_json::Value::Array(nodes);
        }
        Ok(doc)
    } else {
        serde_json::from_str(&ptext)
    };
    let mut doc: serde_json::Value = match parsed {
        Ok(serde_json::Value::Object(m)) => serde_json::Value::Object(m),
        Ok(_) => return fail(format!("{platform}: a trace scenario is a JSON object"), 1),
        Err(e) => {
            return fail(
                format!("{platform}: line {}, column {}: {e}", e.line(), e.column()),
                1,
            )
        }
    };
    for key in ["trace", "generate"] {
        if doc.get(key).is_some() {
            return fail(format!("{platform}: $.{key}: the trace comes from {index}; leave {key:?} out of the platform file"), 1);
        }
    }
    let name = Path::new(&index)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| index.clone());
    let t0 = std::time::Instant::now();
    let (name, digest) = match attach_index(&name, &index) {
        Ok(a) => a,
        Err((e, code)) => return fail(e, code),
    };
    let read_s = t0.elapsed().as_secs_f64();
    let o = doc.as_object_mut().expect("an object");
    o.entry("version").or_insert(serde_json::json!(1));
    o.entry("engine").or_insert(serde_json::json!("trace"));
    o.insert(
        "trace".into(),
        serde_json::json!({"format": "ti", "attached": name, "digest": digest}),
    );
    if search.is_some() || budget.is_some() {
        let s = o.entry("search").or_insert(serde_json::json!({}));
        if let Some(m) = &search {
            s["method"] = serde_json::json!(m);
        }
        if let Some(b) = budget {
            s["budget"] = serde_json::json!(b);
        }
    }
    let scenario = doc.to_string();
    let t1 = std::time::Instant::now();
    let mut phases = Phases {
        start: t1,
        at: Vec::new(),
    };
    let report = match placelab::api::run(&scenario, &mut phases) {
        Ok(r) => r,
        Err(e) => return fail(format!("{platform}: {e}"), 1),
    };
    let file = placelab::api::report_file(&report);
    let written = match &out {
        Some(p) => std::fs::write(p, &file).map_err(|e| format!("cannot write {p}: {e}")),
        None => {
            print!("{file}");
            Ok(())
        }
    };
    if let Err(e) = written {
        return fail(e, 2);
    }
    let r: serde_json::Value = serde_json::from_str(&report).expect("reports are JSON");
    if let Some(mf) = &machinefile {
        let text = r["report"]["best"]["machinefile"].as_str().unwrap_or("");
        if let Err(e) = std::fs::write(mf, text) {
            return fail(format!("cannot write {mf}: {e}"), 2);
        }
    }
    let at = |name: &str| {
        phases
            .at
            .iter()
            .find(|(n, _)| n == name)
            .map_or(0.0, |(_, t)| *t)
    };
    let (search_at, report_at) = (at("search"), at("report"));
    let search_s = report_at - search_at;
    let replays = r["report"]["search"]["replays"].as_f64().unwrap_or(0.0);
    let events = r["report"]["trace"]["events"].as_f64().unwrap_or(0.0);
    eprintln!(
        "placelab trace: {index}: {} bytes read in {read_s:.2} s; checked and compiled in {search_at:.2} s, searched in {search_s:.2} s ({replays} replays, {:.1} M events/s), reported in {:.2} s; best {} s ({})",
        digest.split(' ').nth(1).unwrap_or("?"),
        replays * events / search_s.max(1e-9) / 1e6,
        t1.elapsed().as_secs_f64() - report_at,
        r["report"]["best"]["time"],
        r["report"]["best"]["hosts"].as_str().unwrap_or("")
    );
    ExitCode::SUCCESS
}
