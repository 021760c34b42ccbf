//! The native command line: `placelab run FILE.json` (or `-` for stdin) prints the report JSON,
//! byte-identical to what the page computes for the same scenario.

use std::io::{Read, Write};
use std::process::ExitCode;

const USAGE: &str = "usage:
  placelab run FILE.json     run a scenario, print the report JSON on stdout ('-' reads stdin)
  placelab check FILE.json   validate a scenario without running it
  placelab engines           print the engines and their parameter tables (JSON)
  placelab --version";

fn read_input(path: &str) -> Result<String, String> {
    if path == "-" {
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .map_err(|e| format!("cannot read stdin: {e}"))?;
        Ok(s)
    } else {
        std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let out = std::io::stdout();
    let mut out = out.lock();
    match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["run", path] | ["check", path] => {
            let text = match read_input(path) {
                Ok(t) => t,
                Err(e) => {
                    eprintln!("placelab: {e}");
                    return ExitCode::from(2);
                }
            };
            let result = if args[0] == "run" {
                placelab::api::run(&text, &mut placelab::progress::NoProgress).map(Some)
            } else {
                placelab::api::check(&text).map(|_| None)
            };
            match result {
                Ok(Some(report)) => {
                    let _ = writeln!(out, "{report}");
                    ExitCode::SUCCESS
                }
                Ok(None) => {
                    eprintln!("placelab: {path}: ok");
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("placelab: {path}: {e}");
                    ExitCode::from(1)
                }
            }
        }
        ["engines"] => {
            let _ = writeln!(out, "{}", placelab::api::engines_json());
            ExitCode::SUCCESS
        }
        ["--version"] | ["-V"] => {
            let _ = writeln!(out, "placelab {}", placelab::api::version());
            ExitCode::SUCCESS
        }
        _ => {
            eprintln!("{USAGE}");
            ExitCode::from(2)
        }
    }
}
