//! The native command line: `placelab run FILE.json` (or `-` for stdin) prints the report file
//! ([`placelab::api::report_file`]: the report JSON and one newline), byte-identical to the
//! page's export of the same scenario. `placelab partition GRAPH K` is a drop-in for `gpmetis`
//! (same arguments, same `GRAPH.part.K` file, a gpmetis-like summary); `placelab graph KIND`
//! writes a generated graph in the METIS format; `placelab netsim` simulates one job on a
//! network; `placelab study` runs a study (a scenario swept over fields and seeds). One file per
//! command: [`run`] (run and check), [`gpmetis`] (partition and graph), [`netsim`], [`study`].

mod gpmetis;
mod hostfile;
mod map;
mod netsim;
mod run;
mod trace;
// native only: its runner uses threads (the wasm32 build of this binary only exists for
// `wasm-pack test`, which builds every target)
#[cfg(not(target_arch = "wasm32"))]
mod study;

use std::io::Write;
use std::process::ExitCode;

const USAGE: &str = "usage:
  placelab run FILE.json [--attach [NAME=]LOG]...
                             run a scenario, print the report JSON on stdout ('-' reads stdin);
                             --attach streams a workload log (.swf) or an SMPI trace index
                             (and its rank files) the scenario names by NAME (\"swfFile\",
                             \"trace.attached\"; default NAME: the file's name), of any size
  placelab check FILE.json [--attach [NAME=]LOG]...
                             validate a scenario without running it
  placelab engines           print the engines and their parameter tables (JSON)
  placelab partition GRAPH K [options]
                             partition a METIS graph file into K parts, as gpmetis does: writes
                             GRAPH.part.K (the part of vertex i on line i) and prints the edge
                             cut, communication volume, balance and time. Options (gpmetis's
                             -name=value spelling works too):
      --seed S               random seed, 0 to 2^64-1 (default 1)
      --ufactor U            allowed imbalance 1+U/1000 (default 30, or 1 with --ptype rb)
      --objtype cut|vol      minimize the edge cut (default) or the communication volume
      --ptype kway|rb        multilevel k-way (default) or recursive bisection
      --tpwgts FILE          target part weights, gpmetis format: lines 'part = fraction'
      --ncuts N              tries, the best is kept (default 1)
      --niter N              refinement passes per level (default 10)
      --strong               quality mode: more time for a smaller cut
      --nooutput             do not write the part file
  placelab graph KIND [--n N] [--dims X,Y[,Z]] [--wrap] [--radius R] [--seed S] [-o FILE]
                             generate a graph (KIND: grid2d, cube3d, tree, star, complete,
                             geometric, delaunay) in the METIS format on stdout, or in FILE
                             with its coordinates in FILE.xyz
  placelab netsim [options]  simulate bulk-synchronous jobs on a torus, mesh, fat tree or
                             SimGrid platform file and print its times as JSON; write a
                             platform as SimGrid XML (placelab netsim --help lists options)
  placelab --version
exit status: 0 ok, 1 refused input (bad scenario, graph or tpwgts file), 2 usage or unreadable file";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("partition") => return gpmetis::main(&args[1..]),
        Some("graph") => return gpmetis::graph_main(&args[1..]),
        Some("netsim") => return netsim::main(&args[1..]),
        Some("hostfile") => return hostfile::main(&args[1..]),
        Some("map") => return map::main(&args[1..]),
        Some("trace") => return trace::main(&args[1..]),
        #[cfg(not(target_arch = "wasm32"))]
        Some("study") => return study::main(&args[1..]),
        _ => {}
    }
    let out = std::io::stdout();
    let mut out = out.lock();
    match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["run", path, attach @ ..] | ["check", path, attach @ ..] => {
            match run::attach_all(attach) {
                Ok(()) => run::run_or_check(args[0] == "run", path, &mut out),
                Err((e, code)) => {
                    eprintln!("placelab: {e}");
                    ExitCode::from(code)
                }
            }
        }
        ["engines"] => {
            let _ = writeln!(out, "{}", placelab::api::engines_json());
            ExitCode::SUCCESS
        }
        ["--help"] | ["-h"] | ["help"] => {
            #[cfg(not(target_arch = "wasm32"))]
            let more = format!(
                "{}\n{}\n{}\n{}",
                map::USAGE,
                hostfile::USAGE,
                trace::USAGE,
                study::USAGE
            );
            #[cfg(target_arch = "wasm32")]
            let more = format!("{}\n{}\n{}", map::USAGE, hostfile::USAGE, trace::USAGE);
            let usage = USAGE.replacen(
                "  placelab --version",
                &format!("{more}\n  placelab --version"),
                1,
            );
            let _ = writeln!(out, "{usage}");
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
