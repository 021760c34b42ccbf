//! `placelab map GRAPH SYSTEM`: the placement `placelab run` reports for the same graph, machine,
//! strategy and seed (the map command only leaves the simulation out), every task on its own
//! host, the printed figures recounted from the routes, the launcher formats, and the error
//! paths (the graph file's line, SYSTEM's field, the option; exit codes).

mod support;

use placelab::netsim::{static_metrics, LinkParams};
use placelab::place::scenario::validate_system;
use std::path::PathBuf;
use std::process::{Command, Output};

fn placelab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_placelab"))
        .args(args)
        .output()
        .expect("run placelab")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("placelab-cli-map-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A fresh scratch folder `name` holding the test graph ([`graph_text`]) as `g.graph`: the folder
/// and the graph's path.
fn with_graph(name: &str) -> (PathBuf, String) {
    let dir = scratch(name);
    let graph = dir.join("g.graph");
    std::fs::write(&graph, graph_text()).unwrap();
    let g = graph.to_str().unwrap().to_string();
    (dir, g)
}

/// `placelab map ARGS -o OUT`, which must succeed: its output and the lines of OUT.
fn map_ok(args: &[&str], out: &std::path::Path) -> (Output, Vec<String>) {
    let mut a = vec!["map"];
    a.extend_from_slice(args);
    a.extend(["-o", out.to_str().unwrap()]);
    let o = placelab(&a);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let lines = std::fs::read_to_string(out)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    (o, lines)
}

/// `placelab map ARGS`, which must fail with exit status `code` and `msg` in its message.
fn map_fails(args: &[&str], code: i32, msg: &str) {
    let mut a = vec!["map"];
    a.extend_from_slice(args);
    let o = placelab(&a);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(code), "{args:?}: {err}");
    assert!(err.contains(msg), "{args:?}: {err}");
}

/// A weighted 5x4 grid with a chord, in the METIS format (weights: message volumes).
fn graph_text() -> String {
    let (w, h) = (5u32, 4u32);
    let mut adj: Vec<Vec<(u32, u32)>> = vec![Vec::new(); (w * h) as usize];
    let mut edges = 0;
    let add = |a: u32, b: u32, wt: u32, adj: &mut Vec<Vec<(u32, u32)>>| {
        adj[a as usize].push((b, wt));
        adj[b as usize].push((a, wt));
    };
    for y in 0..h {
        for x in 0..w {
            let v = y * w + x;
            if x + 1 < w {
                add(v, v + 1, 1 + (v % 3), &mut adj);
                edges += 1;
            }
            if y + 1 < h {
                add(v, v + w, 2 + (v % 5), &mut adj);
                edges += 1;
            }
        }
    }
    add(0, 19, 7, &mut adj);
    edges += 1;
    let mut s = format!("{} {edges} 001\n", w * h);
    for l in &adj {
        let row: Vec<String> = l.iter().map(|(u, wt)| format!("{} {wt}", u + 1)).collect();
        s.push_str(&row.join(" "));
        s.push('\n');
    }
    s
}

const SYSTEMS: [&str; 3] = [
    r#"{"kind": "torus2d", "x": 6, "y": 4}"#,
    r#"{"kind": "mesh3d", "x": 3, "y": 3, "z": 3}"#,
    r#"{"kind": "thinTree", "levels": 2, "down": 6, "up": 2}"#,
];

#[test]
fn map_places_as_run_reports_and_its_figures_are_the_routes() {
    let (dir, g) = with_graph("same");
    let (g, text) = (g.as_str(), graph_text());
    for system in SYSTEMS {
        for (strategy, objective) in [
            ("mapped", "hopBytes"),
            ("mapped", "congestion"),
            ("advanced", "hopBytes"),
            ("simple", "hopBytes"),
        ] {
            let (o, lines) = map_ok(
                &[
                    g,
                    system,
                    "--strategy",
                    strategy,
                    "--objective",
                    objective,
                    "--seed",
                    "7",
                    "--json",
                ],
                &dir.join("g.map"),
            );
            let printed: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
            let hosts: Vec<u32> = lines.iter().map(|l| l.parse().unwrap()).collect();
            assert_eq!(hosts.len(), 20);
            let mut seen = hosts.clone();
            seen.sort_unstable();
            seen.dedup();
            assert_eq!(seen.len(), 20, "every task on its own host");

            // the same scenario through `placelab run`: the same hosts
            let scenario = serde_json::json!({
                "version": 1, "engine": "place", "seed": 7,
                "system": serde_json::from_str::<serde_json::Value>(system).unwrap(),
                "job": {"kind": "metis", "graph": text, "rounds": 1, "messageBytes": 1},
                "strategies": [strategy], "objective": objective,
            });
            let sc = dir.join("s.json");
            std::fs::write(&sc, scenario.to_string()).unwrap();
            let r = placelab(&["run", sc.to_str().unwrap()]);
            assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
            let report: serde_json::Value = serde_json::from_slice(&r.stdout).unwrap();
            let run = &report["report"]["cases"][0]["runs"][0];
            let run_hosts = support::hosts_of(&run["hosts"]);
            // `time` would differ (the run judges Mapped's finalists by simulation); these
            // objectives do not simulate
            assert_eq!(hosts, run_hosts, "{system} {strategy} {objective}");

            // hop-bytes, dilation and congestion recounted from the platform's routes
            let spec = serde_json::from_str(system).unwrap();
            let p = validate_system(&spec)
                .unwrap()
                .platform(LinkParams {
                    bandwidth: 125e6,
                    latency: 5e-5,
                })
                .unwrap();
            let gr = placelab::formats::metis::parse_metis(&text).unwrap().graph;
            let m = static_metrics(&p, &support::edge_flows(&gr, &hosts)).unwrap();
            assert_eq!(printed["hopBytes"].as_f64().unwrap(), m.hop_bytes);
            assert_eq!(printed["congestion"].as_f64().unwrap(), m.congestion);
            assert_eq!(
                printed["dilationMax"].as_u64().unwrap(),
                u64::from(m.max_hops)
            );
            assert_eq!(printed["hosts"].as_u64().unwrap(), u64::from(p.hosts()));
        }
    }
}

#[test]
fn map_writes_launcher_files_and_names_what_is_wrong() {
    let (dir, g) = with_graph("errors");
    let g = g.as_str();
    let torus = SYSTEMS[0];

    // a launcher's file: one rankfile line per task, in task order
    let (_, lines) = map_ok(&[g, torus, "--format", "rankfile"], &dir.join("rankfile"));
    assert_eq!(lines.len(), 20);
    assert!(lines[0].starts_with("rank 0=node"), "{}", lines[0]);
    // the default output is GRAPH.map, and a whole scenario file may give the system
    let sc = dir.join("scenario.json");
    std::fs::write(
        &sc,
        format!(
            r#"{{"version": 1, "engine": "place", "system": {torus}, "job": {{"kind": "GRID"}}}}"#
        ),
    )
    .unwrap();
    let o = placelab(&["map", g, sc.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("hop-bytes"));
    assert!(dir.join("g.graph.map").exists());

    // only the hosts given: every task on one of them, the others untouched
    let given = dir.join("nodes.txt");
    let nodes: Vec<u32> = (0..24).filter(|h| h % 6 != 0).collect();
    let text: String = nodes.iter().map(|h| format!("{h}\n")).collect();
    std::fs::write(&given, format!("# the job's nodes\n{text}")).unwrap();
    let (_, lines) = map_ok(
        &[g, torus, "--hosts", given.to_str().unwrap()],
        &dir.join("given.map"),
    );
    let mapped: Vec<u32> = lines.iter().map(|l| l.parse().unwrap()).collect();
    assert_eq!(mapped.len(), 20);
    assert!(mapped.iter().all(|h| nodes.contains(h)), "{mapped:?}");
    let few = dir.join("few.txt");
    std::fs::write(&few, "0\n1\n2\n").unwrap();
    let far = dir.join("far.txt");
    std::fs::write(&far, "0\n99\n").unwrap();
    let word = dir.join("word.txt");
    std::fs::write(&word, "0\n  x1\n").unwrap();
    for (file, msg) in [
        (&few, "20 tasks but only 3 free nodes"),
        (&far, "host 99 is not on the machine (hosts 0 to 23)"),
        (&word, "word.txt:2:3: host 'x1' is not a whole number"),
    ] {
        map_fails(&[g, torus, "--hosts", file.to_str().unwrap()], 1, msg);
    }

    let bad = dir.join("bad.graph");
    std::fs::write(&bad, "3 2\n2\n1 3\n").unwrap();
    let cases: [(Vec<&str>, u8, &str); 7] = [
        (vec![bad.to_str().unwrap(), torus], 1, "bad.graph: line 1"),
        (
            vec![g, r#"{"kind": "torus2d", "x": 6, "y": "a"}"#],
            1,
            "SYSTEM: y: must be",
        ),
        (
            vec![g, r#"{"kind": "torus2d", "x": 2, "y": 2}"#],
            1,
            "20 tasks; the system has 4 hosts",
        ),
        (
            vec![g, r#"{"kind": "torus2d""#],
            1,
            "SYSTEM: not JSON: line 1",
        ),
        (
            vec![g, torus, "--strategy", "best"],
            1,
            "--strategy: must be one of",
        ),
        (vec![g, torus, "--format", "xml"], 2, "--format"),
        (vec![g], 2, "map takes GRAPH SYSTEM"),
    ];
    for (args, code, msg) in cases {
        map_fails(&args, i32::from(code), msg);
    }
}

#[test]
fn map_takes_a_simgrid_platform_file_and_its_host_names() {
    let (dir, g) = with_graph("platform");
    let g = g.as_str();
    // two 16-host clusters on a backbone: the platform file itself is SYSTEM
    let xml = r#"<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="campus" routing="Full">
    <cluster id="west" prefix="west-" suffix="" radical="0-15" speed="1Gf" bw="125MBps" lat="50us" bb_bw="1.25GBps" bb_lat="1us" router_id="west-router"/>
    <cluster id="east" prefix="east-" suffix="" radical="0-15" speed="1Gf" bw="125MBps" lat="50us" bb_bw="1.25GBps" bb_lat="1us" router_id="east-router"/>
    <link id="wan" bandwidth="12.5MBps" latency="100us"/>
    <zoneRoute src="west" dst="east" gw_src="west-router" gw_dst="east-router">
      <link_ctn id="wan"/>
    </zoneRoute>
  </zone>
</platform>
"#;
    let platform = dir.join("campus.xml");
    std::fs::write(&platform, xml).unwrap();
    let p = platform.to_str().unwrap();

    // the same placement as the system of kind simgrid holding the XML
    let (_, by_file) = map_ok(&[g, p], &dir.join("file.map"));
    let system = serde_json::json!({"kind": "simgrid", "platform": xml}).to_string();
    let (_, by_json) = map_ok(&[g, &system], &dir.join("json.map"));
    assert_eq!(by_file, by_json);
    assert_eq!(by_file.len(), 20);

    // launcher files name the platform's hosts, in task order, unless a prefix is asked for
    let names = |i: u32| {
        if i < 16 {
            format!("west-{i}")
        } else {
            format!("east-{}", i - 16)
        }
    };
    let (_, mpich) = map_ok(&[g, p, "--format", "mpich"], &dir.join("hosts"));
    let want: Vec<String> = by_file
        .iter()
        .map(|l| format!("{}:1", names(l.parse().unwrap())))
        .collect();
    assert_eq!(mpich, want);
    let (_, numbered) = map_ok(
        &[g, p, "--format", "mpich", "--prefix", "n"],
        &dir.join("numbered"),
    );
    assert!(numbered[0].starts_with('n') && !numbered[0].contains('-'));

    // the job's nodes by name or by index, mixed: every task on one of them
    let given = dir.join("nodes.txt");
    let mut text = String::from("# the nodes Slurm gave\n");
    let nodes: Vec<u32> = (4..28).collect();
    for &h in &nodes {
        if h % 2 == 0 {
            text.push_str(&format!("{}\n", names(h)));
        } else {
            text.push_str(&format!("  {h}\n"));
        }
    }
    std::fs::write(&given, text).unwrap();
    let (_, lines) = map_ok(
        &[g, p, "--hosts", given.to_str().unwrap()],
        &dir.join("given.map"),
    );
    let mapped: Vec<u32> = lines.iter().map(|l| l.parse().unwrap()).collect();
    assert!(mapped.iter().all(|h| nodes.contains(h)), "{mapped:?}");

    // errors where they are: the --hosts file's line and column, the platform's
    let unknown = dir.join("unknown.txt");
    std::fs::write(&unknown, "west-1\n\n  north-3\n").unwrap();
    let numbered_word = dir.join("word.txt");
    std::fs::write(&numbered_word, "1\n west-1\n").unwrap();
    let broken = dir.join("broken.xml");
    std::fs::write(&broken, xml.replacen("radical=", "radicl=", 1)).unwrap();
    let torus = SYSTEMS[0];
    let u = unknown.to_str().unwrap();
    let w = numbered_word.to_str().unwrap();
    let b = broken.to_str().unwrap();
    let want_unknown = format!("{u}:3:3: host 'north-3' is not a host of the platform");
    let want_word = format!("{w}:2:2: host 'west-1' is not a whole number >= 0");
    let want_broken = format!("{b}:5:5: <cluster> has no attribute \"radicl\"");
    for (args, msg) in [
        (vec![g, p, "--hosts", u], want_unknown.as_str()),
        (vec![g, torus, "--hosts", w], want_word.as_str()),
        (vec![g, b], want_broken.as_str()),
    ] {
        map_fails(&args, 1, msg);
    }
}
