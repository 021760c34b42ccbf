//! The native command line: `placelab run FILE.json` (or `-` for stdin) prints the report file
//! ([`placelab::api::report_file`]: the report JSON and one newline), byte-identical to the
//! page's export of the same scenario. `placelab partition GRAPH K` is a drop-in for `gpmetis`
//! (same arguments, same `GRAPH.part.K` file, a gpmetis-like summary); `placelab graph KIND`
//! writes a generated graph in the METIS format.

use std::io::Write;
use std::process::ExitCode;

#[path = "placelab/study.rs"]
mod study;

const USAGE: &str = "usage:
  placelab run FILE.json     run a scenario, print the report JSON on stdout ('-' reads stdin)
  placelab check FILE.json   validate a scenario without running it
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
  placelab netsim [options]  simulate one bulk-synchronous job on a torus, mesh or fat tree
                             and print its times as JSON (placelab netsim --help lists options)
  placelab --version
exit status: 0 ok, 1 refused input (bad scenario, graph or tpwgts file), 2 usage or unreadable file";

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

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("partition") => return partition_cmd::main(&args[1..]),
        Some("graph") => return partition_cmd::graph_main(&args[1..]),
        Some("netsim") => return netsim_main(&args[1..]),
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
        ["run", path] | ["check", path] => {
            let text = match read_input(path) {
                Ok(t) => t,
                Err((e, code)) => {
                    eprintln!("placelab: {e}");
                    return ExitCode::from(code);
                }
            };
            let result = if args[0] == "run" {
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
        ["--help"] | ["-h"] | ["help"] => {
            let usage = USAGE.replacen(
                "  placelab --version",
                &format!("{}\n  placelab --version", study::USAGE),
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

/// `placelab partition` and `placelab graph`.
mod partition_cmd {
    use placelab::formats::metis::{parse_metis, parse_tpwgts, write_metis, write_part};
    use placelab::partition::generate::{generate, GenKind, GenSpec};
    use placelab::partition::{metrics, partition, Effort, Method, Objective, Options};
    use std::process::ExitCode;
    use std::time::Instant;

    /// A command-line failure: the message (printed after `placelab: `) and the exit code.
    struct Fail(String, u8);

    fn usage(msg: String) -> Fail {
        Fail(format!("{msg}\n(see 'placelab --help')"), 2)
    }

    /// The most parts the command line accepts (the page's engine has its own, smaller limit).
    const MAX_PARTS: u32 = 1 << 20;

    /// gpmetis options accepted for compatibility that change nothing here (a note is printed).
    const IGNORED: [&str; 5] = ["ctype", "iptype", "rtype", "dbglvl", "no2hop"];
    /// gpmetis options whose meaning this partitioner does not offer (refused).
    const UNSUPPORTED: [&str; 3] = ["contig", "minconn", "ubvec"];

    /// Options and positionals of one command: `--name value`, `--name=value` and gpmetis's
    /// `-name=value` (also `-name value`) are the same; `flags` take no value.
    struct Parsed {
        positional: Vec<String>,
        values: Vec<(String, String)>,
    }

    fn parse_args(args: &[String], flags: &[&str], known: &[&str]) -> Result<Parsed, Fail> {
        let mut p = Parsed {
            positional: Vec::new(),
            values: Vec::new(),
        };
        let mut i = 0;
        while i < args.len() {
            let a = &args[i];
            i += 1;
            let body = match a.strip_prefix("--").or_else(|| a.strip_prefix('-')) {
                Some(b) if !b.is_empty() && a != "-" => b,
                _ => {
                    p.positional.push(a.clone());
                    continue;
                }
            };
            let (name, inline) = match body.split_once('=') {
                Some((n, v)) => (n, Some(v.to_string())),
                None => (body, None),
            };
            if UNSUPPORTED.contains(&name) {
                return Err(usage(format!(
                    "gpmetis option -{name} is not supported by placelab"
                )));
            }
            if flags.contains(&name) || IGNORED.contains(&name) && name == "no2hop" {
                if inline.is_some() {
                    return Err(usage(format!("option -{name} takes no value")));
                }
                p.values.push((name.to_string(), String::new()));
                continue;
            }
            if !known.contains(&name) && !IGNORED.contains(&name) {
                return Err(usage(format!("unknown option {a}")));
            }
            let value = match inline {
                Some(v) => v,
                None => {
                    let v = args
                        .get(i)
                        .ok_or_else(|| usage(format!("option {a} needs a value")))?;
                    i += 1;
                    v.clone()
                }
            };
            p.values.push((name.to_string(), value));
        }
        Ok(p)
    }

    impl Parsed {
        /// The last value given for `name` (a later option overrides an earlier one).
        fn get(&self, name: &str) -> Option<&str> {
            self.values
                .iter()
                .rev()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.as_str())
        }
        fn has(&self, name: &str) -> bool {
            self.values.iter().any(|(n, _)| n == name)
        }
        fn number<T: std::str::FromStr>(&self, name: &str, what: &str) -> Result<Option<T>, Fail> {
            match self.get(name) {
                None => Ok(None),
                Some(v) => v
                    .parse::<T>()
                    .map(Some)
                    .map_err(|_| usage(format!("-{name}: {v:?} is not {what}"))),
            }
        }
    }

    fn read_file(path: &str) -> Result<String, Fail> {
        let bytes = std::fs::read(path).map_err(|e| Fail(format!("cannot read {path}: {e}"), 2))?;
        String::from_utf8(bytes).map_err(|e| {
            Fail(
                format!(
                    "{path}: not UTF-8 text (bad byte at offset {})",
                    e.utf8_error().valid_up_to()
                ),
                1,
            )
        })
    }

    fn finish(r: Result<(), Fail>) -> ExitCode {
        match r {
            Ok(()) => ExitCode::SUCCESS,
            Err(Fail(msg, code)) => {
                eprintln!("placelab: {msg}");
                ExitCode::from(code)
            }
        }
    }

    pub fn main(args: &[String]) -> ExitCode {
        finish(run_partition(args))
    }

    pub fn graph_main(args: &[String]) -> ExitCode {
        finish(run_graph(args))
    }

    /// A gpmetis section title: the words, then dashes to column 78.
    fn section(title: &str) -> String {
        format!(
            "{title} {}",
            "-".repeat(77usize.saturating_sub(title.len()))
        )
    }

    fn run_partition(args: &[String]) -> Result<(), Fail> {
        let p = parse_args(
            args,
            &["strong", "nooutput"],
            &[
                "seed", "ufactor", "objtype", "ptype", "tpwgts", "ncuts", "niter",
            ],
        )?;
        let [path, k_text] = p.positional.as_slice() else {
            return Err(usage(format!(
                "partition takes GRAPH K, got {} arguments",
                p.positional.len()
            )));
        };
        let k: u32 = match k_text.parse() {
            Ok(k) if (1..=MAX_PARTS).contains(&k) => k,
            _ => {
                return Err(usage(format!(
                    "K = {k_text:?}: the number of parts is a whole number from 1 to {MAX_PARTS}"
                )))
            }
        };
        for (name, _) in &p.values {
            if IGNORED.contains(&name.as_str()) {
                eprintln!("placelab: note: gpmetis option -{name} is ignored");
            }
        }
        let method = match p.get("ptype").unwrap_or("kway") {
            "kway" => Method::Kway,
            "rb" => Method::Rb,
            v => return Err(usage(format!("-ptype: {v:?} is not kway or rb"))),
        };
        let objective = match p.get("objtype").unwrap_or("cut") {
            "cut" => Objective::Cut,
            "vol" => Objective::Volume,
            v => return Err(usage(format!("-objtype: {v:?} is not cut or vol"))),
        };
        // gpmetis's defaults: 30 for k-way, 1 for recursive bisection.
        let default_ufactor = if method == Method::Rb { 1 } else { 30 };
        let ufactor: u32 = p
            .number("ufactor", "a whole number >= 0")?
            .unwrap_or(default_ufactor);
        let seed: u64 = p
            .number("seed", "a whole number from 0 to 2^64-1")?
            .unwrap_or(Options::default().seed);
        let ncuts: u32 = p.number("ncuts", "a whole number >= 1")?.unwrap_or(1);
        let niter: u32 = p.number("niter", "a whole number >= 1")?.unwrap_or(10);
        if ncuts == 0 || niter == 0 {
            return Err(usage("-ncuts and -niter are at least 1".into()));
        }

        let t0 = Instant::now();
        let text = read_file(path)?;
        let file = parse_metis(&text).map_err(|e| Fail(format!("{path}: {e}"), 1))?;
        drop(text);
        let tpwgts = match p.get("tpwgts") {
            Some(tp) => {
                parse_tpwgts(&read_file(tp)?, k).map_err(|e| Fail(format!("{tp}: {e}"), 1))?
            }
            None => Vec::new(),
        };
        let io_time = t0.elapsed();
        let g = &file.graph;
        let opts = Options {
            k,
            tpwgts,
            ufactor,
            objective,
            method,
            effort: if p.has("strong") {
                Effort::Strong
            } else {
                Effort::Default
            },
            ncuts,
            niter,
            seed,
        };
        let t1 = Instant::now();
        let outcome = partition(g, &opts, &mut placelab::progress::NoProgress);
        let part_time = t1.elapsed();
        let part = outcome.part;
        if part.len() != g.n() as usize || part.iter().any(|&q| q >= k) {
            return Err(Fail(
                "internal error: the partitioner returned an invalid part vector".into(),
                1,
            ));
        }
        let targets = opts.targets();
        let cut = metrics::edge_cut(g, &part);
        let vol = metrics::comm_volume(g, &part, k);
        let weights = metrics::part_weights(g, &part, k);
        let balance = metrics::imbalance(&weights, &targets);
        let total = g.total_vwgt() as f64;
        // The most overweight part: the one with the largest weight / target (first on ties).
        let mut worst = (0usize, 0.0f64);
        for (q, (&w, &t)) in weights.iter().zip(&targets).enumerate() {
            let r = if t > 0.0 {
                w as f64 / (t * total)
            } else if w > 0 {
                f64::INFINITY
            } else {
                0.0
            };
            if r > worst.1 {
                worst = (q, r);
            }
        }

        let t2 = Instant::now();
        let out_name = format!("{path}.part.{k}");
        if !p.has("nooutput") {
            std::fs::write(&out_name, write_part(&part))
                .map_err(|e| Fail(format!("cannot write {out_name}: {e}"), 2))?;
        }
        let write_time = t2.elapsed();

        let mut s = String::new();
        use std::fmt::Write as _;
        let star = "*".repeat(78);
        let _ = writeln!(s, "{star}");
        let _ = writeln!(
            s,
            "placelab {} partition (gpmetis-compatible)\n",
            placelab::api::version()
        );
        let _ = writeln!(s, "{}", section("Graph Information"));
        let _ = writeln!(
            s,
            " Name: {path}, #Vertices: {}, #Edges: {}, #Parts: {k}\n",
            g.n(),
            g.m()
        );
        let _ = writeln!(s, "{}", section("Options"));
        let _ = writeln!(
            s,
            " ptype={}, objtype={}, effort={}, ufactor={:.3}",
            if method == Method::Rb { "rb" } else { "kway" },
            if objective == Objective::Volume {
                "vol"
            } else {
                "cut"
            },
            if opts.effort == Effort::Strong {
                "strong"
            } else {
                "default"
            },
            1.0 + f64::from(ufactor) / 1000.0
        );
        let _ = writeln!(
            s,
            " seed={seed}, niter={niter}, ncuts={ncuts}, tpwgts={}\n",
            p.get("tpwgts").unwrap_or("equal")
        );
        let title = if method == Method::Rb {
            "Recursive Partitioning"
        } else {
            "Direct k-way Partitioning"
        };
        let _ = writeln!(s, "{}", section(title));
        let _ = writeln!(s, " - Edgecut: {cut}, communication volume: {vol}.\n");
        let _ = writeln!(s, " - Balance:");
        let _ = writeln!(
            s,
            "     constraint #0:  {balance:.3} (max part weight / target; allowed {:.3})\n",
            1.0 + f64::from(ufactor) / 1000.0
        );
        let _ = writeln!(s, " - Most overweight partition:");
        let _ = writeln!(
            s,
            "     pid: {}, actual: {}, desired: {:.0}, ratio: {:.2}.\n",
            worst.0,
            weights[worst.0],
            targets[worst.0] * total,
            worst.1
        );
        let _ = writeln!(
            s,
            " - Levels: {} (vertices: {})\n",
            outcome.levels.len(),
            outcome
                .levels
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        );
        let _ = writeln!(s, "{}", section("Timing Information"));
        let _ = writeln!(s, "  I/O:          \t\t {:7.3} sec", io_time.as_secs_f64());
        let _ = writeln!(
            s,
            "  Partitioning: \t\t {:7.3} sec   (placelab time)",
            part_time.as_secs_f64()
        );
        let _ = writeln!(
            s,
            "  Reporting:    \t\t {:7.3} sec",
            write_time.as_secs_f64()
        );
        let _ = writeln!(s, "{star}");
        print!("{s}");
        Ok(())
    }

    fn run_graph(args: &[String]) -> Result<(), Fail> {
        let p = parse_args(
            args,
            &["wrap"],
            &["n", "dims", "radius", "seed", "o", "output"],
        )?;
        let [kind_name] = p.positional.as_slice() else {
            return Err(usage(format!(
                "graph takes one KIND, got {} arguments",
                p.positional.len()
            )));
        };
        let names: Vec<&str> = GenKind::ALL.iter().map(|k| k.name()).collect();
        let kind = GenKind::from_name(kind_name).ok_or_else(|| {
            usage(format!(
                "unknown graph kind {kind_name:?} (one of {})",
                names.join(", ")
            ))
        })?;
        let mut spec = GenSpec {
            kind,
            ..GenSpec::default()
        };
        if kind == GenKind::Cube3d {
            spec.dims = [10, 10, 10];
        }
        if let Some(d) = p.get("dims") {
            if !kind.uses_dims() {
                return Err(usage(format!("{kind_name} takes --n, not --dims")));
            }
            let sides: Vec<u32> = d
                .split(',')
                .map(|x| x.trim().parse::<u32>())
                .collect::<Result<_, _>>()
                .map_err(|_| usage(format!("--dims {d:?}: expected X,Y or X,Y,Z")))?;
            spec.dims = match (kind, sides.as_slice()) {
                (_, [x]) => [*x, *x, if kind == GenKind::Cube3d { *x } else { 1 }],
                (GenKind::Grid2d, [x, y]) => [*x, *y, 1],
                (GenKind::Cube3d, [x, y, z]) => [*x, *y, *z],
                _ => {
                    return Err(usage(format!(
                        "--dims {d:?}: {kind_name} takes {} sides",
                        if kind == GenKind::Grid2d { 2 } else { 3 }
                    )))
                }
            };
        }
        if let Some(n) = p.number::<u32>("n", "a whole number")? {
            if kind.uses_dims() {
                return Err(usage(format!("{kind_name} takes --dims X,Y[,Z], not --n")));
            }
            spec.n = n;
        }
        if p.has("wrap") {
            if !kind.uses_dims() {
                return Err(usage("--wrap applies to grid2d and cube3d only".into()));
            }
            spec.wrap = true;
        }
        if let Some(r) = p.number::<f64>("radius", "a number")? {
            if kind != GenKind::Geometric {
                return Err(usage("--radius applies to geometric only".into()));
            }
            spec.radius = Some(r);
        }
        let seed: u64 = p
            .number("seed", "a whole number from 0 to 2^64-1")?
            .unwrap_or(1);
        let g = generate(&spec, seed).map_err(|e| Fail(e.to_string(), 1))?;
        let text = write_metis(&g.graph);
        match p.get("o").or(p.get("output")) {
            None => print!("{text}"),
            Some(out) => {
                std::fs::write(out, text)
                    .map_err(|e| Fail(format!("cannot write {out}: {e}"), 2))?;
                let mut xyz = String::with_capacity(g.coords.len() * 40);
                use std::fmt::Write as _;
                for c in &g.coords {
                    if kind == GenKind::Cube3d {
                        let _ = writeln!(xyz, "{} {} {}", c[0], c[1], c[2]);
                    } else {
                        let _ = writeln!(xyz, "{} {}", c[0], c[1]);
                    }
                }
                let xyz_name = format!("{out}.xyz");
                std::fs::write(&xyz_name, xyz)
                    .map_err(|e| Fail(format!("cannot write {xyz_name}: {e}"), 2))?;
                eprintln!(
                    "placelab: wrote {out} ({} vertices, {} edges) and {xyz_name}",
                    g.graph.n(),
                    g.graph.m()
                );
            }
        }
        Ok(())
    }
}

/// This process's peak resident memory (Linux `VmHWM`), in MiB; `None` elsewhere.
fn peak_rss_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

/// `placelab netsim`: parses the flags ([`placelab::netsim::cli`]), runs the simulation, and
/// prints one JSON object with its results and the wall time of the simulation alone.
fn netsim_main(args: &[String]) -> ExitCode {
    use placelab::netsim::{cli, simulate_every_round};
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!("{}", cli::USAGE);
        return ExitCode::SUCCESS;
    }
    let case = match cli::parse(args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("placelab netsim: {e}\n{}", cli::USAGE);
            return ExitCode::from(2);
        }
    };
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
    let t0 = std::time::Instant::now();
    let jobs = [case.job];
    let r = simulate_every_round(
        &case.platform,
        &jobs,
        case.model,
        &mut placelab::progress::NoProgress,
    );
    let seconds = t0.elapsed().as_secs_f64();
    match r {
        Ok(r) => {
            let report = serde_json::json!({
                "case": case.description,
                "simulatedTime": r.makespan,
                "commTime": r.comm_time[0],
                "messagesPerRound": jobs[0].messages.len(),
                "solves": r.solves,
                "solvedFlows": r.solved_flows,
                "work": r.work,
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
