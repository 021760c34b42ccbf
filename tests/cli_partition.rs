//! `placelab partition` where scripts used `gpmetis`. `scripts/gpmetis-fixture.sh` ran the real gpmetis on the graphs of
//! `tests/fixtures/gpmetis/` with the arguments of `cases.txt` and saved its summary, its part
//! file and that file's name; here our binary runs with exactly the same arguments in a copy of
//! that folder, and each case checks: the same part-file name, the same number of lines, ids
//! below k, the balance constraint gpmetis's own partition meets, our printed cut and volume
//! equal to a recount from our part file (and gpmetis's printed cut equal to our recount of its
//! part file, so both programs define the figures alike), and a cut within a stated factor of
//! gpmetis's. Then the error paths: exit codes and messages.

use placelab::formats::metis::{parse_metis, parse_tpwgts, parse_xyz};
use placelab::partition::{metrics, Graph};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/gpmetis");

/// How much larger than gpmetis's cut ours may be in these cases. The goal is 1.10 per
/// case and 1.00 as a geometric mean, measured by the benchmark on large graphs; on these small
/// graphs a single run may differ more either way, so the test holds the partitioner to a bound
/// that only a partition unaware of the edges (e.g. the linear baseline on the randomly numbered
/// mesh, about 10x) breaks.
const CUT_FACTOR: f64 = 1.5;

fn placelab(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_placelab"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run placelab")
}

/// A fresh copy of the fixture folder's inputs (graphs and tpwgts files).
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "placelab-cli-partition-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for entry in std::fs::read_dir(FIXTURES).unwrap() {
        let p = entry.unwrap().path();
        let ext = p.extension().and_then(|e| e.to_str()).unwrap_or("");
        if ext == "graph" || ext == "tpwgts" {
            std::fs::copy(&p, dir.join(p.file_name().unwrap())).unwrap();
        }
    }
    dir
}

struct Case {
    name: String,
    args: Vec<String>,
}

fn cases() -> Vec<Case> {
    let text = std::fs::read_to_string(Path::new(FIXTURES).join("cases.txt")).unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut w = l.split_whitespace().map(String::from);
            Case {
                name: w.next().unwrap(),
                args: w.collect(),
            }
        })
        .collect()
}

/// The value of gpmetis option `-name=value` in `args`.
fn option<'a>(args: &'a [String], name: &str) -> Option<&'a str> {
    args.iter()
        .rev()
        .find_map(|a| a.strip_prefix(&format!("-{name}=")))
}

fn read_part(text: &str) -> Vec<u32> {
    text.lines().map(|l| l.trim().parse().unwrap()).collect()
}

/// `(edge cut, communication volume)` from a gpmetis-style summary line
/// ` - Edgecut: 104, communication volume: 210.`
fn printed_figures(stdout: &str) -> (u64, u64) {
    let line = stdout
        .lines()
        .find(|l| l.contains("Edgecut:"))
        .unwrap_or_else(|| panic!("no Edgecut line in:\n{stdout}"));
    let nums: Vec<u64> = line
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().unwrap())
        .collect();
    (nums[0], nums[1])
}

/// The largest part weight allowed: gpmetis's rule, `(1 + u/1000) * target` for k-way; for
/// recursive bisection the factor applies at each of the `ceil(log2 k)` levels. One vertex of
/// the largest weight is allowed beyond it (a part cannot hold a fraction of a vertex).
fn within_balance(g: &Graph, part: &[u32], k: u32, targets: &[f64], args: &[String]) -> bool {
    let rb = option(args, "ptype") == Some("rb");
    let u: f64 = option(args, "ufactor")
        .map(|v| v.parse().unwrap())
        .unwrap_or(if rb { 1.0 } else { 30.0 });
    let levels = if rb { 32 - (k - 1).leading_zeros() } else { 1 };
    let factor = (1.0 + u / 1000.0).powi(levels as i32);
    let total = g.total_vwgt() as f64;
    let heaviest = f64::from(*g.vwgt.iter().max().unwrap());
    metrics::part_weights(g, part, k)
        .iter()
        .zip(targets)
        .all(|(&w, &t)| w as f64 <= factor * t * total + heaviest)
}

#[test]
fn placelab_partition_replays_every_recorded_gpmetis_run() {
    let all = cases();
    assert!(all.len() >= 6, "cases.txt lists the recorded runs");
    for case in &all {
        let dir = scratch(&case.name);
        let fixture = |ext: &str| {
            std::fs::read_to_string(Path::new(FIXTURES).join(format!("{}.{ext}", case.name)))
                .unwrap_or_else(|e| {
                    panic!("{}.{ext}: {e} (run scripts/gpmetis-fixture.sh)", case.name)
                })
        };
        let n_args = case.args.len();
        let graph_name = &case.args[n_args - 2];
        let k: u32 = case.args[n_args - 1].parse().unwrap();
        let g = parse_metis(&std::fs::read_to_string(dir.join(graph_name)).unwrap())
            .unwrap()
            .graph;
        let targets = match option(&case.args, "tpwgts") {
            Some(f) => parse_tpwgts(&std::fs::read_to_string(dir.join(f)).unwrap(), k).unwrap(),
            None => vec![1.0 / f64::from(k); k as usize],
        };

        // gpmetis's recorded run, recounted with our metrics: the figures mean the same.
        let theirs = read_part(&fixture("part"));
        let (their_cut, their_vol) = printed_figures(&fixture("stdout"));
        assert_eq!(metrics::edge_cut(&g, &theirs), their_cut, "{}", case.name);
        assert_eq!(
            metrics::comm_volume(&g, &theirs, k),
            their_vol,
            "{}",
            case.name
        );
        assert!(
            within_balance(&g, &theirs, k, &targets, &case.args),
            "{}",
            case.name
        );

        let args: Vec<&str> = std::iter::once("partition")
            .chain(case.args.iter().map(String::as_str))
            .collect();
        let out = placelab(&dir, &args);
        let stdout = String::from_utf8(out.stdout).unwrap();
        assert!(
            out.status.success(),
            "{}: {}\n{stdout}",
            case.name,
            String::from_utf8_lossy(&out.stderr)
        );
        let outname = fixture("outname");
        let ours_path = dir.join(outname.trim());
        let ours_text = std::fs::read_to_string(&ours_path)
            .unwrap_or_else(|e| panic!("{}: no {}: {e}", case.name, outname.trim()));
        let ours = read_part(&ours_text);
        assert_eq!(ours.len(), theirs.len(), "{}: lines", case.name);
        assert!(ours.iter().all(|&p| p < k), "{}: ids below k", case.name);
        assert!(
            within_balance(&g, &ours, k, &targets, &case.args),
            "{}: part weights {:?} for targets {targets:?}",
            case.name,
            metrics::part_weights(&g, &ours, k)
        );
        let (cut, vol) = printed_figures(&stdout);
        assert_eq!(
            cut,
            metrics::edge_cut(&g, &ours),
            "{}: printed cut",
            case.name
        );
        assert_eq!(
            vol,
            metrics::comm_volume(&g, &ours, k),
            "{}: printed volume",
            case.name
        );
        let balance = stdout
            .lines()
            .find_map(|l| l.trim().strip_prefix("constraint #0:"))
            .and_then(|r| r.split_whitespace().next())
            .unwrap_or_else(|| panic!("{}: no balance line in\n{stdout}", case.name));
        let recount = metrics::imbalance(&metrics::part_weights(&g, &ours, k), &targets);
        assert_eq!(
            balance,
            format!("{recount:.3}"),
            "{}: printed balance",
            case.name
        );
        assert!(
            cut as f64 <= CUT_FACTOR * their_cut as f64,
            "{}: our cut {cut} vs gpmetis {their_cut}",
            case.name
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn gpmetis_and_gnu_spellings_of_options_give_the_same_partition() {
    let dir = scratch("spellings");
    let a = placelab(
        &dir,
        &["partition", "-ufactor=50", "-seed=3", "mesh.graph", "4"],
    );
    assert!(a.status.success());
    let first = std::fs::read_to_string(dir.join("mesh.graph.part.4")).unwrap();
    let b = placelab(
        &dir,
        &[
            "partition",
            "mesh.graph",
            "4",
            "--ufactor",
            "50",
            "--seed=3",
        ],
    );
    assert!(b.status.success());
    let second = std::fs::read_to_string(dir.join("mesh.graph.part.4")).unwrap();
    assert_eq!(first, second);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn errors_have_exit_codes_and_name_the_file_and_line() {
    let dir = scratch("errors");
    std::fs::write(dir.join("bad.graph"), "% a comment\n3 2\n2\n1 3\n1\n").unwrap();
    std::fs::write(dir.join("bad.tpwgts"), "0 = 0.5\n9 = 0.1\n").unwrap();
    std::fs::write(dir.join("multi.graph"), "2 1 10 2\n1 1 2\n1 1 1\n").unwrap();
    // (arguments, exit code, fragment of stderr)
    let cases: &[(&[&str], i32, &str)] = &[
        (
            &["partition", "bad.graph", "2"],
            1,
            "placelab: bad.graph: line 4: vertex 2 lists 3",
        ),
        (
            &["partition", "multi.graph", "2"],
            1,
            "multi.graph: line 1: multi-constraint graphs (ncon = 2) are not supported",
        ),
        (
            &["partition", "-tpwgts=bad.tpwgts", "mesh.graph", "4"],
            1,
            "placelab: bad.tpwgts: line 2: part 9 is out of range",
        ),
        (
            &["partition", "missing.graph", "2"],
            2,
            "cannot read missing.graph",
        ),
        (&["partition", "mesh.graph", "0"], 2, "number of parts"),
        (
            &["partition", "mesh.graph", "4000000000"],
            2,
            "number of parts",
        ),
        (&["partition", "mesh.graph"], 2, "GRAPH K"),
        (
            &["partition", "-ufactor=x", "mesh.graph", "2"],
            2,
            "-ufactor",
        ),
        (
            &["partition", "-ptype=ml", "mesh.graph", "2"],
            2,
            "not kway or rb",
        ),
        (
            &["partition", "-objtype=comm", "mesh.graph", "2"],
            2,
            "not cut or vol",
        ),
        (
            &["partition", "-contig", "mesh.graph", "2"],
            2,
            "not supported",
        ),
        (
            &["partition", "--frobnicate", "mesh.graph", "2"],
            2,
            "unknown option",
        ),
        (&["graph", "hexagon"], 2, "unknown graph kind"),
        (&["graph", "grid2d", "--n", "5"], 2, "--dims"),
        (&["graph", "complete", "--n", "100000"], 1, "limit"),
        (&[], 2, "usage"),
    ];
    for &(args, code, fragment) in cases {
        let out = placelab(&dir, args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "{args:?}: {stderr}");
        assert!(stderr.contains(fragment), "{args:?}: {stderr}");
    }
    // A refused run writes no part file.
    assert!(!dir.join("bad.graph.part.2").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn graph_command_writes_metis_and_coordinates_that_read_back() {
    let dir = scratch("graph");
    let out = placelab(
        &dir,
        &[
            "graph", "cube3d", "--dims", "3,4,5", "--wrap", "-o", "c.graph",
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let g = parse_metis(&std::fs::read_to_string(dir.join("c.graph")).unwrap())
        .unwrap()
        .graph;
    assert_eq!(g.n(), 60);
    let xyz = parse_xyz(
        &std::fs::read_to_string(dir.join("c.graph.xyz")).unwrap(),
        60,
    )
    .unwrap();
    assert_eq!(xyz[59], [2.0, 3.0, 4.0]);
    // Without -o the graph goes to stdout, the same for the same seed.
    let a = placelab(&dir, &["graph", "delaunay", "--n", "500", "--seed", "4"]);
    let b = placelab(&dir, &["graph", "delaunay", "--n=500", "-seed=4"]);
    assert!(a.status.success());
    assert_eq!(a.stdout, b.stdout);
    let g = parse_metis(&String::from_utf8(a.stdout).unwrap())
        .unwrap()
        .graph;
    assert_eq!(g.n(), 500);
    // The generated graph partitions like any file.
    let out = placelab(&dir, &["partition", "c.graph", "3", "-nooutput"]);
    assert!(out.status.success());
    assert!(!dir.join("c.graph.part.3").exists());
    let _ = std::fs::remove_dir_all(&dir);
}
