//! Placements out: every file written from a report gives back the report's rank-to-host map
//! (read the way the launcher reads it), the nodelist is the set of hosts, and reports that
//! place nothing are refused with a message.

use placelab::api;
use placelab::formats::hostfile::{self, Format, Pick};
use placelab::formats::hostlist;
use placelab::progress::NoProgress;
use serde_json::Value;

fn report(example: &str) -> Value {
    let path = format!(
        "{}/playground-examples/{example}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(path).unwrap();
    serde_json::from_str(&api::run(&text, &mut NoProgress).unwrap()).unwrap()
}

/// Ranks in order, as each launcher reads its file.
fn read_back(format: Format, file: &str) -> Vec<String> {
    let lines = file.lines();
    match format {
        Format::Mpich => lines
            .flat_map(|l| {
                let (h, n) = l.rsplit_once(':').unwrap();
                std::iter::repeat_n(h.to_string(), n.parse().unwrap())
            })
            .collect(),
        // mpirun --hostfile maps by slot: every slot of the first host, then the next
        Format::Openmpi => lines
            .flat_map(|l| {
                let (h, s) = l.split_once(" slots=").unwrap();
                std::iter::repeat_n(h.to_string(), s.parse().unwrap())
            })
            .collect(),
        Format::Rankfile => {
            let mut v: Vec<(usize, String)> = lines
                .map(|l| {
                    let rest = l.strip_prefix("rank ").unwrap();
                    let (r, hs) = rest.split_once('=').unwrap();
                    (
                        r.parse().unwrap(),
                        hs.split(' ').next().unwrap().to_string(),
                    )
                })
                .collect();
            v.sort();
            v.into_iter().map(|x| x.1).collect()
        }
        Format::SlurmHostfile => lines.map(str::to_string).collect(),
        Format::Nodelist => hostlist::expand(file.trim(), 1 << 20).unwrap(),
    }
}

#[test]
fn every_format_gives_back_the_reports_placement() {
    let cases: [(&str, Pick); 4] = [
        ("place-fattree", Pick::default()),
        (
            "place-zk-exp1-torus3d",
            Pick {
                case: Some(5),
                strategy: Some("random".into()),
                ..Pick::default()
            },
        ),
        (
            "fig1-4x4",
            Pick {
                job: Some(1),
                ..Pick::default()
            },
        ),
        ("trace-lu-cyclic-4", Pick::default()),
    ];
    for (example, pick) in cases {
        let doc = report(example);
        let picked = hostfile::hosts_of_report(&doc, &pick).unwrap();
        assert!(!picked.hosts.is_empty(), "{example}");
        for f in Format::ALL {
            let file = hostfile::write(f, &picked.hosts);
            let back = read_back(f, &file);
            if f == Format::Nodelist {
                let mut set = picked.hosts.clone();
                set.sort();
                set.dedup();
                let mut b = back.clone();
                b.sort();
                assert_eq!(b, set, "{example}: nodelist {file}");
            } else if hostfile::keeps_rank_order(f, &picked.hosts) {
                assert_eq!(back, picked.hosts, "{example}: {}", f.id());
            } else {
                assert_ne!(
                    back,
                    picked.hosts,
                    "{example}: {} claims to lose the order",
                    f.id()
                );
            }
        }
    }
}

/// An allocation job's hosts are its report nodes (`nodeRanges` are `[first, count]`), by
/// name on a machine read from a Slurm topology.conf (the report's `hosts` hostlist).
#[test]
fn allocation_hosts_are_the_jobs_nodes_by_index_or_by_name() {
    let doc = report("fig1-4x4");
    let jobs = doc["report"]["runs"][0]["jobs"].as_array().unwrap().clone();
    for (j, job) in jobs.iter().enumerate().filter(|(_, x)| x["placed"] == true) {
        let pick = Pick {
            job: Some(j),
            ..Pick::default()
        };
        let mut got = hostfile::hosts_of_report(&doc, &pick).unwrap().hosts;
        got.sort();
        got.dedup();
        let mut want: Vec<String> = Vec::new();
        for r in job["nodeRanges"].as_array().unwrap() {
            let (a, n) = (r[0].as_u64().unwrap(), r[1].as_u64().unwrap());
            want.extend((a..a + n).map(|v| format!("node{v:02}")));
        }
        want.sort();
        assert_eq!(got, want, "job {j}");
    }
    let doc = report("slurm-tree-vs-closed-min");
    let mut checked = 0;
    for run in doc["report"]["runs"].as_array().unwrap() {
        for (j, job) in run["jobs"].as_array().unwrap().iter().enumerate() {
            if job["placed"] != true {
                continue;
            }
            let pick = Pick {
                job: Some(j),
                strategy: Some(run["policy"].as_str().unwrap().to_string()),
                ..Pick::default()
            };
            let hosts = hostfile::hosts_of_report(&doc, &pick).unwrap().hosts;
            assert_eq!(hosts.len() as u64, job["tasks"].as_u64().unwrap());
            let mut set = hosts.clone();
            set.sort();
            set.dedup();
            let mut want = hostlist::expand(job["hosts"].as_str().unwrap(), 1000).unwrap();
            want.sort();
            assert_eq!(set, want, "{} job {j}", run["policy"]);
            checked += 1;
        }
    }
    assert!(checked >= 30);
    // a hand-edited report whose placed job lists no nodes
    let mut bad = doc.clone();
    bad["report"]["runs"][0]["jobs"][0]["nodeRanges"] = serde_json::json!([]);
    assert_eq!(
        hostfile::hosts_of_report(&bad, &Pick::default()).unwrap_err(),
        "job 0 has no nodes in the report"
    );
    // a prefix asked for still names nodes by index
    let pick = Pick {
        prefix: Some("n".into()),
        ..Pick::default()
    };
    assert!(hostfile::hosts_of_report(&doc, &pick).unwrap().hosts[0].starts_with('n'));
}

#[test]
fn the_placement_engine_writes_the_strategy_asked_for_or_the_fastest() {
    let doc = report("place-zk-exp1-torus3d");
    let case = &doc["report"]["cases"][5];
    let random: Vec<u64> = case["runs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["strategy"] == "random")
        .unwrap()["hosts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h.as_u64().unwrap())
        .collect();
    let pick = Pick {
        case: Some(5),
        strategy: Some("random".into()),
        prefix: Some("c".into()),
        ..Pick::default()
    };
    let picked = hostfile::hosts_of_report(&doc, &pick).unwrap();
    let want: Vec<String> = random.iter().map(|h| format!("c{h:03}")).collect();
    assert_eq!(picked.hosts, want);
    let fastest = hostfile::hosts_of_report(
        &doc,
        &Pick {
            case: Some(5),
            ..Pick::default()
        },
    )
    .unwrap();
    let best = case["runs"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["time"].is_number())
        .min_by(|a, b| {
            a["time"]
                .as_f64()
                .unwrap()
                .total_cmp(&b["time"].as_f64().unwrap())
        })
        .unwrap()["strategy"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        fastest.what.ends_with(&format!("strategy {best}")),
        "{}",
        fastest.what
    );
}

#[test]
fn reports_without_a_placement_and_bad_picks_are_refused_with_a_message() {
    let e =
        hostfile::hosts_of_report(&report("partition-star-1000"), &Pick::default()).unwrap_err();
    assert!(e.contains("places no ranks on hosts"), "{e}");
    let doc = report("place-fattree");
    let e = hostfile::hosts_of_report(
        &doc,
        &Pick {
            case: Some(99),
            ..Pick::default()
        },
    )
    .unwrap_err();
    assert!(e.starts_with("case 99: the report has"), "{e}");
    let e = hostfile::hosts_of_report(
        &doc,
        &Pick {
            strategy: Some("nope".into()),
            ..Pick::default()
        },
    )
    .unwrap_err();
    assert!(e.contains("strategy \"nope\" placed nothing"), "{e}");
    let e = hostfile::hosts_of_report(
        &report("trace-lu-cyclic-4"),
        &Pick {
            position: Some(0),
            ..Pick::default()
        },
    )
    .unwrap_err();
    assert!(e.starts_with("position 0: the ranking has"), "{e}");
}

/// Every placed job of every policy: its ranks fill its own nodes (the report's `nodeRanges`,
/// `[first, count]` runs) in order, `coresPerNode` ranks a node; an unplaced job is refused.
#[test]
fn an_allocation_job_runs_on_exactly_its_nodes() {
    for example in ["swf-log-16x16", "fig1-4x4"] {
        let doc = report(example);
        let cores = doc["report"]["topology"]["coresPerNode"].as_u64().unwrap() as usize;
        let nodes = doc["report"]["topology"]["nodes"].as_u64().unwrap();
        let width = (nodes - 1).to_string().len();
        for run in doc["report"]["runs"].as_array().unwrap() {
            for (j, job) in run["jobs"].as_array().unwrap().iter().enumerate() {
                let pick = Pick {
                    strategy: Some(run["policy"].as_str().unwrap().into()),
                    job: Some(j),
                    ..Pick::default()
                };
                let got = hostfile::hosts_of_report(&doc, &pick);
                if job["placed"] != true {
                    assert!(got.is_err(), "{example} job {j}");
                    continue;
                }
                let mut want_nodes = Vec::new();
                for r in job["nodeRanges"].as_array().unwrap() {
                    let (a, c) = (r[0].as_u64().unwrap(), r[1].as_u64().unwrap());
                    want_nodes.extend(a..a + c);
                }
                let tasks = job["tasks"].as_u64().unwrap() as usize;
                let want: Vec<String> = (0..tasks)
                    .map(|t| format!("node{:0width$}", want_nodes[t / cores]))
                    .collect();
                assert_eq!(
                    got.unwrap().hosts,
                    want,
                    "{example} {} job {j}",
                    run["policy"]
                );
            }
        }
    }
}

/// `placelab netsim` with `args` writing its platform and deployment; the two files' text.
fn netsim_files(args: &[&str], placement: &[u64]) -> (String, String) {
    let dir = std::env::temp_dir().join(format!("placelab-hostfile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (p, d, f) = (dir.join("p.xml"), dir.join("d.xml"), dir.join("hosts.txt"));
    let lines: Vec<String> = placement.iter().map(|h| h.to_string()).collect();
    std::fs::write(&f, lines.join("\n") + "\n").unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_placelab"))
        .arg("netsim")
        .args(args)
        .args(["--placement-file", f.to_str().unwrap()])
        .args(["--write-platform", p.to_str().unwrap()])
        .args(["--write-deployment", d.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let files = (
        std::fs::read_to_string(&p).unwrap(),
        std::fs::read_to_string(&d).unwrap(),
    );
    let _ = std::fs::remove_dir_all(&dir);
    files
}

/// A placement report's SimGrid files are byte for byte what `placelab netsim` writes for the
/// same machine (links included) and the same placement; other reports are refused.
#[test]
fn simgrid_files_of_a_placement_report_are_the_ones_netsim_writes() {
    for (example, strategy, case) in [
        ("place-messages-given", "given", 0),
        ("place-thintree", "simple", 1),
    ] {
        let doc = report(example);
        let text = doc.to_string();
        let pick = Pick {
            case: Some(case),
            strategy: Some(strategy.into()),
            ..Pick::default()
        };
        let sys = &doc["report"]["system"];
        let run = doc["report"]["cases"][case]["runs"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["strategy"] == strategy)
            .unwrap();
        let placement: Vec<u64> = run["hosts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h.as_u64().unwrap())
            .collect();
        let (bw, lat) = (sys["bandwidth"].to_string(), sys["latency"].to_string());
        let shape: Vec<String> = match sys["kind"].as_str().unwrap() {
            "torus2d" => {
                let d = &sys["dims"];
                vec![
                    "--system".into(),
                    "torus2d".into(),
                    "--dims".into(),
                    format!("{},{}", d[0], d[1]),
                ]
            }
            _ => vec![
                "--system".into(),
                "fattree".into(),
                "--tree".into(),
                sys["simgrid"].as_str().unwrap().into(),
            ],
        };
        let mut args: Vec<&str> = shape.iter().map(String::as_str).collect();
        args.extend(["--bandwidth", &bw, "--latency", &lat]);
        let (platform, deployment) = netsim_files(&args, &placement);
        let p = hostfile::file_from_report_text(&text, "simgrid-platform", &pick).unwrap();
        assert_eq!(p.text, platform, "{example}: platform");
        assert_eq!(p.picked.hosts.len() as u64, sys["hosts"].as_u64().unwrap());
        let d = hostfile::file_from_report_text(&text, "simgrid-deployment", &pick).unwrap();
        assert_eq!(d.text, deployment, "{example}: deployment");
        assert_eq!(d.text.matches("<actor ").count(), placement.len());
        assert!(d.picked.what.contains(strategy));
    }
    let alloc = report("fig1-4x4").to_string();
    let e = hostfile::file_from_report_text(&alloc, "simgrid-platform", &Pick::default());
    assert!(e.unwrap_err().contains("placement reports"));
    let e = hostfile::file_from_report_text(&alloc, "simgrid", &Pick::default());
    assert!(e.unwrap_err().contains("simgrid-deployment"));
}
