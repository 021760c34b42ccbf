//! The worst admitted scenarios, per engine: `cargo bench --bench bounds [-- ENGINE...]`.
//!
//! An adversarial search of admission. For every engine, each *family* fixes the expensive
//! options at their most expensive values (the largest machine, every policy, deep EASY queues,
//! the largest population and islands exchanging every cycle, many variants under a tight
//! efficiency constraint, the largest search budget over many unequal nodes, every part of a
//! selection at once, ...) and leaves one size parameter free; admission (`api::check`) is
//! monotone in it, so bisection finds its largest admitted value. That scenario is then run by
//! the CLI (`placelab run`) in a child process, and the child's CPU time (user + system: on a
//! shared machine the wall time also counts other processes) and peak resident memory
//! (`VmHWM`) are printed beside the admission estimate (`api::estimate`), with
//! the ratios measured / estimated. The four families an earlier adversarial search found
//! (trace branch and bound on a short trace over 64 unequal nodes, the allocation deep EASY
//! queue on a 262,144-node tree, moldable sets of 16 variants under a 0.97 efficiency
//! constraint with 16 islands exchanging every cycle, and selection's four parts at once) are
//! among them.
//!
//! Per engine the table ends with its worst admitted scenario (the longest measured) and the
//! largest and smallest time ratio; the summary compares every engine's largest ratio with the
//! smallest of them (goal: within 3 times) and the worst time with the budget (goal: under
//! `MAX_SECONDS` = 10 s natively, 30 s in the page) and memory (768 MiB).
//!
//! Arguments (after `--`): engine ids (`allocation`, `partition`, `place`, `select`,
//! `moldable`, `trace`) to run those alone; `BOUNDS_QUICK=1` runs the first family of each;
//! `BOUNDS_WORST_DIR=DIR` writes each engine's worst admitted scenario to `DIR/ENGINE.json`
//! (then `node e2e/bench-bounds.mjs DIR` runs them in the page).

#[path = "../tests/support/trace_chain.rs"]
mod trace_chain;
use placelab::api;
use placelab::engine::{Estimate, MAX_BYTES, MAX_SECONDS};
use serde_json::{json, Value};
use std::process::{Command, Stdio};

/// `struct rusage` of Linux on 64-bit targets: two `timeval`s, then 14 `long`s.
#[repr(C)]
struct Rusage {
    utime: [i64; 2],
    stime: [i64; 2],
    maxrss: i64,
    rest: [i64; 13],
}

/// `wait4`'s option: return at once when the child is still running.
const WNOHANG: i32 = 1;

extern "C" {
    fn wait4(pid: i32, status: *mut i32, options: i32, rusage: *mut Rusage) -> i32;
}

/// What one child run of the CLI used: CPU seconds (user + system), peak resident bytes.
struct Measured {
    cpu: f64,
    peak: f64,
    ok: bool,
}

/// The child's peak resident memory so far (`VmHWM` of `/proc/PID/status`), bytes. Read from
/// `/proc` rather than `wait4`'s `ru_maxrss`, which on Linux also counts the memory the
/// child had before `exec` (this process's, as large as its biggest scenario text).
fn hwm(pid: u32) -> Option<f64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024.0)
}

/// Runs `placelab run FILE` on `text` in a child process; its CPU time (from `wait4`) and its
/// peak memory (`VmHWM`, read every 2 ms until it exits).
fn run_child(text: &str) -> Measured {
    let path = std::env::temp_dir().join(format!("placelab-bounds-{}.json", std::process::id()));
    std::fs::write(&path, text).expect("temporary scenario file");
    let child = Command::new(env!("CARGO_BIN_EXE_placelab"))
        .arg("run")
        .arg(&path)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("placelab runs");
    let pid = child.id();
    let mut status = 0i32;
    let mut ru = Rusage {
        utime: [0; 2],
        stime: [0; 2],
        maxrss: 0,
        rest: [0; 13],
    };
    let mut peak = 0.0f64;
    let r = loop {
        if let Some(h) = hwm(pid) {
            peak = peak.max(h);
        }
        // SAFETY: polls (and finally reaps) our own child, writing into the two locals.
        let r = unsafe { wait4(pid as i32, &mut status, WNOHANG, &mut ru) };
        if r != 0 {
            break r;
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    };
    let _ = std::fs::remove_file(&path);
    let secs = |t: [i64; 2]| t[0] as f64 + t[1] as f64 * 1e-6;
    Measured {
        cpu: secs(ru.utime) + secs(ru.stime),
        peak,
        ok: r > 0 && status == 0,
    }
}

/// One family: a scenario for each value of its free size parameter in `lo..=hi`.
struct Family {
    engine: &'static str,
    label: &'static str,
    param: &'static str,
    lo: u64,
    hi: u64,
    make: Box<dyn Fn(u64) -> String>,
    /// Also run at the largest admitted value over 2, 4, 8 and 16: where the work is not
    /// monotone in the parameter (the placement simulator's completion events), the worst
    /// ratio of measured to estimated may lie at middling sizes.
    scan: bool,
}

impl Family {
    fn scanned(mut self) -> Family {
        self.scan = true;
        self
    }
}

fn family(
    engine: &'static str,
    label: &'static str,
    param: &'static str,
    (lo, hi): (u64, u64),
    make: impl Fn(u64) -> String + 'static,
) -> Family {
    Family {
        engine,
        label,
        param,
        lo,
        hi,
        make: Box::new(make),
        scan: false,
    }
}

/// The largest `x` in `lo..=hi` whose scenario admission accepts (bisection: admission is
/// monotone in `x`), or none when it refuses `lo`.
fn largest_admitted(f: &Family) -> Option<u64> {
    let ok = |x: u64| api::check(&(f.make)(x)).is_ok();
    if !ok(f.lo) {
        return None;
    }
    if ok(f.hi) {
        return Some(f.hi);
    }
    let (mut lo, mut hi) = (f.lo, f.hi);
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if ok(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(lo)
}

fn nodes_json(n: usize, step: f64) -> Value {
    Value::Array(
        (0..n)
            .map(|i| json!({"name": format!("n{i}"), "ratio": 1.0 + step * i as f64}))
            .collect(),
    )
}

fn allocation() -> Vec<Family> {
    // a saturating EASY stream: jobs up to 1/32 of the machine, one a second, 1000 s each
    let saturating = |system: Value, nodes: u64, policies: Value| {
        move |count: u64| {
            json!({"version": 1, "engine": "allocation", "seed": 1, "system": system,
                "policies": policies, "fallback": "wait",
                "workload": {"kind": "generated", "count": count, "backfill": "easy",
                    "minTasks": 1, "maxTasks": (nodes / 32).max(1), "sizeDistribution": "uniform",
                    "meanInterarrival": 1, "meanDuration": 1000}})
            .to_string()
        }
    };
    // every job at once, powers of two up to the whole machine, EASY looking 100,000 deep
    let deep = |policies: Value| {
        move |count: u64| {
            json!({"version": 1, "engine": "allocation", "seed": 1,
                "system": {"kind": "tree", "arities": [8, 8, 8, 8, 8, 8]},
                "policies": policies, "fallback": "wait", "frames": 0,
                "workload": {"kind": "generated", "count": count, "backfill": "easy",
                    "minTasks": 1, "maxTasks": 262_144, "sizeDistribution": "powersOfTwo",
                    "meanInterarrival": 0.0, "meanDuration": 1000.0, "backfillDepth": 100_000}})
            .to_string()
        }
    };
    let tree4 = json!({"kind": "tree", "arities": [8, 8, 8, 8]});
    let mesh512 = json!({"kind": "mesh", "width": 512, "height": 512});
    let mesh141 = json!({"kind": "mesh", "width": 141, "height": 141});
    vec![
        family(
            "allocation",
            "deep EASY queue, tree 8^6, hilbert + sequential",
            "jobs",
            (1, 100_000),
            deep(json!(["hilbert", "sequential"])),
        ),
        family(
            "allocation",
            "saturating EASY stream, tree 8^4, sequential",
            "jobs",
            (1, 100_000),
            saturating(tree4.clone(), 4096, json!(["sequential"])),
        ),
        family(
            "allocation",
            "saturating EASY stream, tree 8^4, closed-min-best",
            "jobs",
            (1, 100_000),
            saturating(tree4, 4096, json!(["closed-min-best"])),
        ),
        family(
            "allocation",
            "saturating EASY stream, mesh 512x512, closed-min-best",
            "jobs",
            (1, 100_000),
            saturating(mesh512, 512 * 512, json!(["closed-min-best"])),
        ),
        family(
            "allocation",
            "saturating EASY stream, mesh 141x141, hilbert",
            "jobs",
            (1, 100_000),
            saturating(mesh141, 141 * 141, json!(["hilbert"])),
        ),
    ]
}

fn partition() -> Vec<Family> {
    let doc = |kind: &'static str, k: u64, methods: Value| {
        move |n: u64| {
            json!({"version": 1, "engine": "partition", "seed": 1,
                "graph": {"kind": kind, "n": n}, "k": k, "methods": methods})
            .to_string()
        }
    };
    vec![
        family(
            "partition",
            "delaunay, quality mode, k = 4096",
            "vertices",
            (4096, 2_000_000),
            doc("delaunay", 4096, json!(["strong"])),
        ),
        family(
            "partition",
            "delaunay, all five methods, k = 64",
            "vertices",
            (64, 2_000_000),
            doc(
                "delaunay",
                64,
                json!(["kway", "rb", "strong", "linear", "random"]),
            ),
        ),
        family(
            "partition",
            "binary tree, k-way, k = 4096",
            "vertices",
            (4096, 2_000_000),
            doc("binaryTree", 4096, json!(["kway"])),
        ),
    ]
}

fn place() -> Vec<Family> {
    let torus = |x: u64, y: u64, z: u64| {
        if z > 1 {
            json!({"kind": "torus3d", "x": x, "y": y, "z": z})
        } else {
            json!({"kind": "torus2d", "x": x, "y": y})
        }
    };
    let full = |system: Value, strategies: Value| {
        move |p: u64| {
            json!({"version": 1, "engine": "place", "seed": 1, "system": system,
                "job": {"kind": "FULL", "processes": p, "rounds": 10, "messageBytes": 1048576},
                "strategies": strategies})
            .to_string()
        }
    };
    let five = json!(["simple", "random", "optimal", "advanced", "identity"]);
    vec![
        family(
            "place",
            "fat tree 16,384 hosts, 1 MB messages, GRID",
            "processes",
            (2, 16384),
            |p: u64| {
                json!({"version": 1, "engine": "place", "seed": 1,
                    "system": {"kind": "fatTree", "simgrid": "3;32,32,16;1,32,32;1,1,1"},
                    "job": {"kind": "GRID", "processes": p, "rounds": 10,
                        "messageBytes": 1048576, "wrap": true}})
                .to_string()
            },
        ),
        family(
            "place",
            "torus 3D 16^3, every strategy, FULL job",
            "processes",
            (2, 4096),
            full(torus(16, 16, 16), five.clone()),
        )
        .scanned(),
        family(
            "place",
            "torus 3D 16^3, Random alone, FULL job, 1 MB",
            "processes",
            (2, 4096),
            full(torus(16, 16, 16), json!(["random"])),
        )
        .scanned(),
        family(
            "place",
            "torus 2D 64x64, every strategy, FULL job, 1 MB",
            "processes",
            (2, 4096),
            full(torus(64, 64, 1), five.clone()),
        )
        .scanned(),
        family(
            "place",
            "torus 3D 16^3, the source's experiment 1 point, 1 MB, every strategy and Mapped",
            "processes (CUBE)",
            (8, 4096),
            |p: u64| {
                json!({"version": 1, "engine": "place", "seed": 1,
                    "system": {"kind": "torus3d", "x": 16, "y": 16, "z": 16},
                    "job": {"kind": "CUBE", "processes": p, "rounds": 50,
                        "messageBytes": 1048576, "wrap": true},
                    "strategies": ["simple", "random", "optimal", "advanced", "identity", "mapped"]})
                .to_string()
            },
        )
        .scanned(),
        family(
            "place",
            "torus 3D 16^3, Advanced alone, TREE job, 1 byte",
            "processes",
            (2, 4096),
            |p: u64| {
                json!({"version": 1, "engine": "place", "seed": 1,
                    "system": {"kind": "torus3d", "x": 16, "y": 16, "z": 16},
                    "job": {"kind": "TREE", "processes": p, "rounds": 50, "messageBytes": 1},
                    "strategies": ["advanced"]})
                .to_string()
            },
        ),
        family(
            "place",
            "torus 3D 8^3, the source's experiment 2, background fill 0.8, 1 MB",
            "rounds",
            (1, 1_000_000),
            |r: u64| {
                json!({"version": 1, "engine": "place", "seed": 1,
                    "system": {"kind": "torus3d", "x": 8, "y": 8, "z": 8},
                    "job": {"kind": "CUBE", "processes": 128, "rounds": r,
                        "messageBytes": 1048576, "wrap": true},
                    "background": {"fill": 0.8, "processes": 32}})
                .to_string()
            },
        )
        .scanned(),
    ]
}

/// A long custom formula (about 1,900 characters of arithmetic on P).
fn long_formula() -> String {
    let term = "sqrt(P + 3) * log(P + 2) / (P + 1) + ";
    let mut f = String::new();
    while f.len() + term.len() < 1900 {
        f.push_str(term);
    }
    f.push('1');
    f
}

fn select() -> Vec<Family> {
    let stations = |q: u64| -> Value {
        Value::Array(
            (0..q)
                .map(|i| json!({"name": format!("W{i}"), "load": [0.01 * (i % 50) as f64, 0.01 * (i % 50) as f64 + 0.05]}))
                .collect(),
        )
    };
    let hierarchy = json!({"objective": "distance", "m": 24,
        "hierarchy": {"arities": [2, 2, 4, 8], "values": [8, 4, 2, 1]}});
    let layouts = |r: u64| {
        json!({"ranks": [r, r - 1, r - 2, r - 3], "nodes": 4096,
        "socketsPerNode": 2, "coresPerSocket": 8})
    };
    let reservation = |steps: u64| {
        json!({"stations": 1000,
        "initiators": (0..100).map(|i| json!({"start": i, "wants": 8, "threshold": 0.5, "holdFor": 60})).collect::<Vec<_>>(),
        "delay": {"min": 1, "max": 8}, "loss": 0.05, "maxSteps": steps, "maxTime": 1_000_000_000u64})
    };
    let f = long_formula();
    let f2 = f.clone();
    vec![
        family(
            "select",
            "all four parts at once",
            "scale (per mille of each part's own largest)",
            (1, 1000),
            move |x: u64| {
                json!({"version": 1, "engine": "select", "seed": 1,
                    "stations": stations((3000 * x / 1000).max(2)),
                    "model": {"preset": "custom", "N": 1000, "ts": f2, "tc": f2, "tr": f2, "to": f2},
                    "alltoall": {"subsystem": {"objective": "distance", "m": 24,
                        "hierarchy": {"arities": [2, 2, 4, 8], "values": [8, 4, 2, 1]},
                        "exactNodes": (100_000_000 * x / 1000).max(1)},
                        "layouts": layouts((4096 * x / 1000).max(8))},
                    "reservation": reservation((20_000_000 * x / 1000).max(1))})
                .to_string()
            },
        ),
        family(
            "select",
            "T(P) over ranged stations, four long formulas",
            "stations",
            (2, 3000),
            move |q: u64| {
                json!({"version": 1, "engine": "select", "seed": 1, "stations": stations(q),
                    "model": {"preset": "custom", "N": 1000, "ts": f, "tc": f, "tr": f, "to": f}})
                .to_string()
            },
        ),
        family(
            "select",
            "subsystem exact search, 128 machines",
            "exactNodes",
            (1, 100_000_000),
            move |x: u64| {
                let mut h = hierarchy.clone();
                h["exactNodes"] = json!(x);
                json!({"version": 1, "engine": "select", "seed": 1,
                    "alltoall": {"subsystem": h}})
                .to_string()
            },
        ),
        family(
            "select",
            "layouts, four rank counts",
            "ranks",
            (8, 4096),
            move |r: u64| {
                json!({"version": 1, "engine": "select", "seed": 1,
                    "alltoall": {"layouts": layouts(r)}})
                .to_string()
            },
        ),
        family(
            "select",
            "reservation, 1,000 stations, 100 initiators",
            "maxSteps",
            (1, 20_000_000),
            move |steps: u64| {
                json!({"version": 1, "engine": "select", "seed": 1,
                    "reservation": reservation(steps)})
                .to_string()
            },
        ),
    ]
}

/// `m` listed jobs of 16 variants each (seeded), weights 0.5 to 1.
fn variant_jobs(m: u64) -> Value {
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    Value::Array(
        (0..m)
            .map(|_| {
                let vs: Vec<Value> = (0..16)
                    .map(|v| {
                        json!({"ranks": 1 + next() % 1024, "time": 1.0 + (next() % 99_000) as f64 / 1000.0,
                            "weight": if v == 0 { 1.0 } else { 0.5 + (next() % 500) as f64 / 1000.0 }})
                    })
                    .collect();
                json!({"variants": vs})
            })
            .collect(),
    )
}

fn moldable() -> Vec<Family> {
    let generated = |n: u64, m: u64, decoder: &'static str, k: u64, islands: u64| {
        move |v: u64| {
            json!({"version": 1, "engine": "moldable", "seed": 1, "machines": n,
                "generate": {"kind": "random", "jobs": m, "maxVariants": 3},
                "ga": {"population": k, "cycles": v, "decoder": decoder, "islands": islands}})
            .to_string()
        }
    };
    vec![
        family(
            "moldable",
            "16 variants, efficiency 0.97, K = 256, 16 islands exchanging every cycle, G = 64",
            "jobs (2 cycles)",
            (2, 5136),
            |m: u64| {
                json!({"version": 1, "engine": "moldable", "seed": 1, "machines": 1024,
                    "efficiency": 0.97, "jobs": variant_jobs(m),
                    "ga": {"population": 256, "cycles": 2, "parts": 64, "islands": 16,
                        "exchangeEvery": 1}})
                .to_string()
            },
        ),
        family(
            "moldable",
            "the source's scale, n = 1024, m = 3000, shelves",
            "cycles",
            (0, 100_000),
            generated(1024, 3000, "shelf", 16, 1),
        ),
        family(
            "moldable",
            "one machine, m = 2000, shelves",
            "cycles",
            (0, 100_000),
            generated(1, 2000, "shelf", 16, 1),
        ),
        family(
            "moldable",
            "tiny list set, m = 2, K = 256, 16 islands",
            "cycles",
            (0, 100_000),
            generated(64, 2, "list", 256, 16),
        ),
        family(
            "moldable",
            "list decoder, n = 64, m = 3000",
            "cycles",
            (0, 100_000),
            generated(64, 3000, "list", 16, 1),
        ),
    ]
}

fn trace() -> Vec<Family> {
    let generated =
        |program: &'static str, size: u64, ranks: u64, n: usize, method: &'static str| {
            move |budget: u64| {
                json!({"version": 1, "engine": "trace", "seed": 1,
                "generate": {"program": program, "size": size, "ranks": ranks},
                "nodes": nodes_json(n, 0.37), "defaultLink": {"a0": 1e-4, "a1": 1e-8},
                "search": {"method": method, "budget": budget}})
                .to_string()
            }
        };
    vec![
        family(
            "trace",
            "matmul 1000, 16 ranks on 64 unequal nodes, branch and bound",
            "budget",
            (1000, 2_000_000_000),
            generated("matmul", 1000, 16, 64, "branchAndBound"),
        ),
        family(
            "trace",
            "matmul 1000, 32 ranks on 64 unequal nodes, branch and bound",
            "budget",
            (1000, 2_000_000_000),
            generated("matmul", 1000, 32, 64, "branchAndBound"),
        ),
        family(
            "trace",
            "ring of 64 ranks (126 events) on 64 unequal nodes, default search",
            "budget",
            (1000, 2_000_000_000),
            |budget: u64| {
                let text = trace_chain::chain_text(64);
                json!({"version": 1, "engine": "trace", "seed": 1,
                    "trace": {"format": "text", "text": text},
                    "nodes": nodes_json(64, 0.37), "defaultLink": {"a0": 1e-4, "a1": 1e-8},
                    "search": {"budget": budget}})
                .to_string()
            },
        ),
        family(
            "trace",
            "LU uneven 2000, 16 ranks on 16 unequal nodes, branch and bound",
            "budget",
            (1000, 2_000_000_000),
            generated("luUneven", 2000, 16, 16, "branchAndBound"),
        ),
        family(
            "trace",
            "LU uneven, 8 ranks on 8 nodes, exhaustive",
            "size",
            (2, 100_000),
            |size: u64| {
                json!({"version": 1, "engine": "trace", "seed": 1,
                    "generate": {"program": "luUneven", "size": size, "ranks": 8},
                    "nodes": nodes_json(8, 0.37), "defaultLink": {"a0": 1e-4, "a1": 1e-8},
                    "search": {"method": "exhaustive"}})
                .to_string()
            },
        ),
    ]
}

/// One measured family.
struct Row {
    engine: &'static str,
    label: &'static str,
    est: Estimate,
    m: Measured,
    text: String,
}

fn main() {
    let wanted: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let quick = std::env::var("BOUNDS_QUICK").is_ok();
    // BOUNDS_WORST_DIR=DIR: each engine's worst admitted scenario is written to DIR/ENGINE.json,
    // for `node e2e/bench-bounds.mjs DIR` to time in the page.
    let worst_dir = std::env::var("BOUNDS_WORST_DIR").ok();
    if let Some(dir) = &worst_dir {
        std::fs::create_dir_all(dir).expect("BOUNDS_WORST_DIR is created");
    }
    let engines: [(&str, fn() -> Vec<Family>); 6] = [
        ("allocation", allocation),
        ("partition", partition),
        ("place", place),
        ("select", select),
        ("moldable", moldable),
        ("trace", trace),
    ];
    println!(
        "budget: {MAX_SECONDS} s natively, {:.0} MiB; times are the child's CPU seconds",
        MAX_BYTES / 1048576.0
    );
    let mut rows: Vec<Row> = Vec::new();
    for (id, families) in engines {
        if !wanted.is_empty() && !wanted.iter().any(|w| w == id) {
            continue;
        }
        println!(
            "\n{:<10} {:<70} {:>12} {:>8} {:>8} {:>8} {:>8} {:>7} {:>7}",
            "engine",
            "family (free parameter)",
            "largest",
            "est s",
            "cpu s",
            "est MiB",
            "peak MiB",
            "t ratio",
            "m ratio"
        );
        let mut fams = families();
        if quick {
            fams.truncate(1);
        }
        for f in fams {
            let label = format!("{} ({})", f.label, f.param);
            let Some(x) = largest_admitted(&f) else {
                println!("{:<10} {label:<70} refused even at {}", f.engine, f.lo);
                continue;
            };
            let mut values = vec![x];
            if f.scan {
                values.extend([2, 4, 8, 16].iter().map(|d| x / d).filter(|&v| v >= f.lo));
            }
            for v in values {
                let text = (f.make)(v);
                let est = api::estimate(&text).expect("admitted scenarios estimate");
                let m = run_child(&text);
                println!(
                    "{:<10} {label:<70} {v:>12} {:>8.2} {:>8.2} {:>8.0} {:>8.0} {:>7.2} {:>7.2}{}",
                    f.engine,
                    est.seconds(),
                    m.cpu,
                    est.mib(),
                    m.peak / 1048576.0,
                    m.cpu / est.seconds(),
                    m.peak / est.bytes,
                    if m.ok { "" } else { "  (run failed)" }
                );
                rows.push(Row {
                    engine: f.engine,
                    label: f.label,
                    est,
                    m,
                    text,
                });
            }
        }
    }
    println!("\nper engine: worst admitted scenario, ratios measured / estimated");
    let mut worst_ratios = Vec::new();
    for (id, _) in engines {
        let mine: Vec<&Row> = rows.iter().filter(|r| r.engine == id).collect();
        let Some(worst) = mine.iter().max_by(|a, b| a.m.cpu.total_cmp(&b.m.cpu)) else {
            continue;
        };
        let ratios: Vec<f64> = mine.iter().map(|r| r.m.cpu / r.est.seconds()).collect();
        let hi = ratios.iter().copied().fold(0.0, f64::max);
        let lo = ratios.iter().copied().fold(f64::INFINITY, f64::min);
        let peak = mine.iter().map(|r| r.m.peak).fold(0.0, f64::max);
        worst_ratios.push((id, hi));
        if let Some(dir) = &worst_dir {
            let path = std::path::Path::new(dir).join(format!("{id}.json"));
            std::fs::write(&path, &worst.text).expect("the worst scenario is written");
        }
        println!(
            "{id:<10} worst {:.2} s CPU (estimated {:.2} s), {:.0} MiB peak: {}; time ratio {lo:.2} to {hi:.2}",
            worst.m.cpu,
            worst.est.seconds(),
            peak / 1048576.0,
            worst.label
        );
    }
    if let Some(best) = worst_ratios
        .iter()
        .map(|(_, r)| *r)
        .filter(|r| *r > 0.0)
        .reduce(f64::min)
    {
        for (id, r) in &worst_ratios {
            println!(
                "{id:<10} largest ratio {r:.2} = {:.1} x the best-calibrated engine's ({best:.2})",
                r / best
            );
        }
    }
}
