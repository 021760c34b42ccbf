//! `placelab run FILE.json` (or `-` for stdin) prints the report file
//! ([`placelab::api::report_file`]: the report JSON and one newline), byte-identical to the
//! page's export of the same scenario; `placelab check FILE.json` validates it only. Both take
//! `--attach [NAME=]PATH`: a workload log read as a stream and attached under NAME
//! ([`placelab::attach`]) before the scenario is read.

use std::io::Write;
use std::process::ExitCode;

/// The scenario text of `path` (`-`: stdin), read through [`placelab::scenario::read_text`]: at
/// most the size limit plus one byte is read, and non-UTF-8 input names the bad byte's offset.
/// `Err` carries the message and the exit code: 2 when the file cannot be opened, 1 (as for any
/// refused scenario) when its text is over the limit or not UTF-8.
fn read_input(path: &str) -> Result<String, (String, u8)> {
    let text = if path == "-" {
        placelab::scenario::read_text(std::io::stdin().lock())
    } else {
        let file =
            std::fs::File::open(path).map_err(|e| (format!("cannot read {path}: {e}"), 2))?;
        placelab::scenario::read_text(file)
    };
    text.map_err(|e| (format!("{path}: {e}"), 1))
}

/// Reads every `--attach [NAME=]PATH` of `args` and attaches it ([`attach_one`]).
pub fn attach_all(args: &[&str]) -> Result<(), (String, u8)> {
    let mut it = args.iter();
    while let Some(&flag) = it.next() {
        match (flag, it.next()) {
            ("--attach", Some(&spec)) => {
                attach_one(spec)?;
            }
            _ => {
                return Err((
                    format!("unexpected {flag:?}: expected --attach [NAME=]PATH"),
                    2,
                ))
            }
        }
    }
    Ok(())
}

/// Reads the file of `[NAME=]PATH` as a stream and attaches it under NAME (default: the
/// file's name) ([`placelab::attach`]): a workload log when it ends in `.swf`, else an SMPI
/// trace index with its rank files ([`crate::trace::attach_index`]); returns `(NAME, PATH)`. `Err` carries the message
/// and the exit code: 2 for an unreadable file, 1 for a log that is not SWF.
pub fn attach_one(spec: &str) -> Result<(String, String), (String, u8)> {
    let (name, path) = match spec.split_once('=') {
        Some((n, p)) if !n.is_empty() && !n.contains('/') => (n.to_string(), p),
        _ => {
            let name = std::path::Path::new(spec)
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            (name, spec)
        }
    };
    if !name.to_ascii_lowercase().ends_with(".swf") {
        // anything else is an SMPI time-independent trace index with its rank files
        crate::trace::attach_index(&name, path)?;
        return Ok((name, path.to_string()));
    }
    let file = std::fs::File::open(path).map_err(|e| (format!("cannot read {path}: {e}"), 2))?;
    placelab::attach::read_swf(&name, std::io::BufReader::new(file))
        .map_err(|e| (format!("{path}: {e}"), 1))?;
    Ok((name, path.to_string()))
}

/// `placelab run PATH` (`run`) or `placelab check PATH`: the report file on `out`, or `ok` with
/// the admission estimate (`ok: estimated 1.2 s natively, 40 MiB (...)`), or the refusal on
/// stderr.
pub fn run_or_check(run: bool, path: &str, out: &mut impl Write) -> ExitCode {
    let text = match read_input(path) {
        Ok(t) => t,
        Err((e, code)) => {
            eprintln!("placelab: {e}");
            return ExitCode::from(code);
        }
    };
    let result = if run {
        placelab::api::run(&text, &mut placelab::progress::NoProgress).map(Some)
    } else {
        placelab::api::check(&text).map(|_| None)
    };
    match result {
        Ok(Some(report)) => {
            let _ = out.write_all(placelab::api::report_file(&report).as_bytes());
            ExitCode::SUCCESS
        }
        Ok(None) => {
            // admitted, so the estimate is within the budget; say how far
            match placelab::api::estimate(&text) {
                Ok(e) => eprintln!(
                    "placelab: {path}: ok: estimated {} s natively, {:.0} MiB ({:.2e} work units of {:.3} ns)",
                    placelab::engine::seconds_words(e.seconds()),
                    e.mib().ceil(),
                    e.work,
                    e.ns_per_unit
                ),
                Err(_) => eprintln!("placelab: {path}: ok"),
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("placelab: {path}: {e}");
            ExitCode::from(1)
        }
    }
}
