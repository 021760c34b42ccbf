//! The `slurmTree` policy against two oracles:
//!
//! - a line-by-line transcription of Slurm 22.05's `_eval_nodes_topo` (select/cons_tres,
//!   equal node weights, no required nodes, whole nodes) over node bitmaps and switch records
//!   built from the `topology.conf` as `topology_tree.c` builds them (file order, levels,
//!   `parent` left 0 for top-level switches, Floyd-Warshall switch distances), on random
//!   irregular trees and random sequences of allocations and releases;
//! - a real slurmctld's choices on a small irregular cluster, recorded by
//!   `scripts/slurm-tree-fixture.sh` in `tests/fixtures/slurm-tree/*.json`, replayed step by
//!   step.

// The oracle keeps the C code's index loops, to be read side by side with it.
#![allow(clippy::needless_range_loop)]

use placelab::alloc::machine::{Footprint, Machine, Placement};
use placelab::alloc::policy::Placer;
use placelab::alloc::scenario::{slurm_tree, Fallback, PolicyId};
use placelab::api;
use placelab::formats::topology_conf::{self, TopologyConf};
use placelab::progress::NoProgress;
use placelab::rng::Rng;
use placelab::topology::Topology;
use serde_json::{json, Value};

const INF: u32 = u32::MAX;

/// Slurm's switch records.
struct Records {
    level: Vec<i32>,
    parent: Vec<usize>,
    bitmap: Vec<Vec<bool>>,
    dist: Vec<Vec<u32>>,
}

fn records(conf: &TopologyConf) -> Records {
    let n_nodes = conf.nodes.len();
    let index = |name: &str| conf.nodes.iter().position(|x| x == name).unwrap();
    let s = conf.switches.len();
    let mut bitmap = vec![vec![false; n_nodes]; s];
    // bottom-up as Slurm's resolution loop: a switch's bitmap is the union of its children's
    let mut done = vec![false; s];
    while done.iter().any(|d| !d) {
        for i in 0..s {
            if done[i] {
                continue;
            }
            let sw = &conf.switches[i];
            if sw.children.is_empty() {
                for n in &sw.nodes {
                    bitmap[i][index(n)] = true;
                }
                done[i] = true;
            } else if sw.children.iter().all(|&c| done[c]) {
                for &c in &sw.children {
                    for v in 0..n_nodes {
                        bitmap[i][v] |= bitmap[c][v];
                    }
                }
                done[i] = true;
            }
        }
    }
    let mut parent = vec![0usize; s]; // xcalloc: 0 unless a switch lists it
    let mut dist = vec![vec![INF; s]; s];
    for i in 0..s {
        dist[i][i] = 0;
        for &c in &conf.switches[i].children {
            parent[c] = i;
            dist[i][c] = 1;
            dist[c][i] = 1;
        }
    }
    for i in 0..s {
        for j in 0..s {
            for k in 0..s {
                let tmp = if dist[j][i] == INF || dist[i][k] == INF {
                    INF
                } else {
                    dist[j][i] + dist[i][k]
                };
                if dist[j][k] > tmp {
                    dist[j][k] = tmp;
                }
            }
        }
    }
    Records {
        level: conf.switches.iter().map(|s| s.level as i32).collect(),
        parent,
        bitmap,
        dist,
    }
}

fn compare(r: &Records, cnt: &[usize], rem: usize, mut i: usize, mut j: usize) -> i32 {
    loop {
        let i_fit = cnt[i] >= rem;
        let j_fit = cnt[j] >= rem;
        if i_fit && j_fit {
            if cnt[i] < cnt[j] {
                return 1;
            }
            if cnt[i] > cnt[j] {
                return -1;
            }
            break;
        } else if i_fit {
            return 1;
        } else if j_fit {
            return -1;
        }
        if (r.parent[i] != i || r.parent[j] != j) && r.parent[i] != r.parent[j] {
            i = r.parent[i];
            j = r.parent[j];
            continue;
        }
        break;
    }
    if cnt[i] > cnt[j] {
        return 1;
    }
    if cnt[i] < cnt[j] {
        return -1;
    }
    if r.level[i] < r.level[j] {
        return 1;
    }
    if r.level[i] > r.level[j] {
        return -1;
    }
    0
}

/// cons_common's `_job_test` for a switch-limited job: "test 0" (every node free) must fit the
/// limit, then "test 1" (the free nodes) gives the nodes and must fit it too.
fn job_test(r: &Records, avail: &[bool], n: usize, req_switch: Option<u32>) -> Option<Vec<usize>> {
    if req_switch.is_some() {
        eval_nodes_topo(r, &vec![true; avail.len()], n, req_switch)?;
    }
    eval_nodes_topo(r, avail, n, req_switch)
}

/// `_eval_nodes_topo` for `n` whole nodes among `avail`; then the `--switches` check.
fn eval_nodes_topo(
    r: &Records,
    avail: &[bool],
    n: usize,
    req_switch: Option<u32>,
) -> Option<Vec<usize>> {
    let s = r.level.len();
    let mut bm: Vec<Vec<bool>> = (0..s)
        .map(|i| {
            r.bitmap[i]
                .iter()
                .zip(avail)
                .map(|(a, b)| *a && *b)
                .collect()
        })
        .collect();
    let mut cnt: Vec<usize> = bm
        .iter()
        .map(|b| b.iter().filter(|&&x| x).count())
        .collect();
    let mut top: Option<usize> = None;
    for i in 0..s {
        if cnt[i] < n || cnt[i] == 0 {
            continue;
        }
        if top.is_none_or(|t| r.level[i] >= r.level[t]) {
            top = Some(i);
        }
    }
    let top = top?;
    let top_bm = bm[top].clone();
    for (i, b) in bm.iter_mut().enumerate() {
        if i != top {
            for (x, y) in b.iter_mut().zip(&top_bm) {
                *x &= *y;
            }
        }
    }
    for i in 0..s {
        cnt[i] = bm[i].iter().filter(|&&x| x).count();
    }
    let mut dist = vec![0u32; s];
    let mut map = vec![false; avail.len()];
    let mut rem = n;
    let mut prev = rem + 1;
    'outer: loop {
        if prev == rem {
            break;
        }
        prev = rem;
        let mut best: Option<usize> = None;
        for i in 0..s {
            if r.level[i] != 0 {
                continue;
            }
            match best {
                None => {
                    if cnt[i] > 0 && dist[i] < INF {
                        best = Some(i);
                    }
                }
                Some(_) if dist[i] == INF || cnt[i] == 0 => {}
                Some(b) => {
                    let tcs = compare(r, &cnt, rem, i, b);
                    if (dist[i] < dist[b] && tcs >= 0) || (dist[i] == dist[b] && tcs > 0) {
                        best = Some(i);
                    }
                }
            }
        }
        let Some(b) = best else { break };
        for i in 0..s {
            dist[i] = if r.dist[b][i] == INF || dist[i] == INF {
                INF
            } else {
                dist[i] + r.dist[b][i]
            };
        }
        for v in 0..avail.len() {
            if bm[b][v] && !map[v] {
                map[v] = true;
                rem -= 1;
                if rem == 0 {
                    break 'outer;
                }
            }
        }
        cnt[b] = 0;
    }
    if rem > 0 {
        return None;
    }
    let nodes: Vec<usize> = (0..avail.len()).filter(|&v| map[v]).collect();
    if let Some(k) = req_switch {
        let leaves = (0..s)
            .filter(|&i| r.level[i] == 0 && nodes.iter().any(|&v| bm[i][v]))
            .count();
        if leaves > k as usize {
            return None;
        }
    }
    Some(nodes)
}

/// A random topology.conf: `levels` levels under one or two top-level switches, 1 to 4
/// children per switch, 1 to 6 nodes per leaf switch; switches listed in a shuffled order.
fn random_conf(rng: &mut Rng) -> String {
    let levels = 1 + rng.index_below(3);
    let roots = 1 + rng.index_below(2);
    let mut lines: Vec<String> = Vec::new();
    let (mut sw, mut node) = (0usize, 0usize);
    let mut frontier: Vec<(usize, usize)> = (0..roots)
        .map(|_| {
            sw += 1;
            (sw - 1, 0)
        })
        .collect();
    while let Some((id, depth)) = frontier.pop() {
        if depth + 1 == levels {
            let k = 1 + rng.index_below(6);
            lines.push(format!(
                "SwitchName=s{id} Nodes=n[{}-{}]",
                node,
                node + k - 1
            ));
            node += k;
        } else {
            let k = 1 + rng.index_below(4);
            let kids: Vec<usize> = (sw..sw + k).collect();
            sw += k;
            lines.push(format!(
                "SwitchName=s{id} Switches=s[{}-{}]",
                kids[0],
                kids[k - 1]
            ));
            for &c in kids.iter().rev() {
                frontier.push((c, depth + 1));
            }
        }
    }
    for i in (1..lines.len()).rev() {
        let j = rng.index_below(i + 1);
        lines.swap(i, j);
    }
    lines.join("\n")
}

fn placer(topo: &Topology) -> Placer {
    Placer::new(PolicyId::SlurmTree, Fallback::Wait, topo, Rng::seeded(1))
}

/// Our node ids are the file's tree order, as the oracle's indices.
#[test]
fn the_policy_follows_slurms_code_on_random_trees_and_sequences() {
    let mut rng = Rng::seeded(2022);
    let mut checked = 0;
    for _ in 0..300 {
        let text = random_conf(&mut rng);
        let conf = topology_conf::parse(&text, 10_000).unwrap();
        let tree = slurm_tree(&text).unwrap();
        let topo = Topology::Tree(tree);
        let rec = records(&conf);
        let mut m = Machine::new(topo.clone());
        let mut p = placer(&topo);
        let mut running: Vec<(u32, Placement)> = Vec::new();
        let total = topo.nodes();
        for step in 0..40u32 {
            if !running.is_empty() && rng.index_below(3) == 0 {
                let (_, pl) = running.remove(rng.index_below(running.len()));
                m.release(&pl, &Footprint::default());
                continue;
            }
            let n = 1 + rng.index_below(total.min(12));
            let sw = (rng.index_below(3) == 0).then(|| 1 + rng.index_below(3) as u32);
            let avail: Vec<bool> = (0..total).map(|v| m.is_free(v)).collect();
            let want = job_test(&rec, &avail, n, sw);
            let got = p.place_job(&m, n, sw);
            let got_nodes = got
                .as_ref()
                .map(|g| g.nodes.iter().map(|&v| v as usize).collect::<Vec<_>>());
            assert_eq!(
                got_nodes, want,
                "step {step}, n = {n}, switches {sw:?}\n{text}"
            );
            if let Some(g) = got {
                m.commit(step, &g, &Footprint::default());
                running.push((step, g));
                checked += 1;
            }
        }
    }
    assert!(checked > 3000, "{checked} placements checked");
}

/// One recorded run of the real slurmctld.
#[test]
fn the_policy_gives_the_nodes_a_real_slurmctld_gave() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/slurm-tree");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    for f in files {
        let doc: Value = serde_json::from_str(&std::fs::read_to_string(&f).unwrap()).unwrap();
        let text = doc["topologyConf"].as_str().unwrap();
        let topo = Topology::Tree(slurm_tree(text).unwrap());
        let names = match &topo {
            Topology::Tree(t) => t.names().unwrap().nodes.clone(),
            Topology::Mesh(_) => unreachable!(),
        };
        let mut m = Machine::new(topo.clone());
        let mut p = placer(&topo);
        let mut held: Vec<(String, Placement)> = Vec::new();
        let mut placed = 0;
        for (k, step) in doc["steps"].as_array().unwrap().iter().enumerate() {
            let job = step["job"].as_str().unwrap().to_string();
            if step["action"] == "cancel" {
                let pos = held.iter().position(|(j, _)| *j == job).unwrap();
                let (_, pl) = held.remove(pos);
                m.release(&pl, &Footprint::default());
                continue;
            }
            let n = step["nodes"].as_u64().unwrap() as usize;
            let sw = step["switches"].as_u64().map(|s| s as u32);
            let got = p.place_job(&m, n, sw);
            let got_hosts = got.as_ref().map(|g| {
                let mut list: Vec<String> =
                    g.nodes.iter().map(|&v| names[v as usize].clone()).collect();
                list.sort();
                list
            });
            let want = step["slurm"].as_str().map(|h| {
                let mut list = placelab::formats::hostlist::expand(h, 100_000).unwrap();
                list.sort();
                list
            });
            assert_eq!(
                got_hosts,
                want,
                "{}: step {k} (job {job}, {n} nodes, switches {sw:?})",
                f.display()
            );
            if let Some(g) = got {
                m.commit(k as u32, &g, &Footprint::default());
                held.push((job, g));
                placed += 1;
            }
        }
        assert!(placed >= 5, "{}", f.display());
    }
}

fn run(doc: &Value) -> Result<Value, String> {
    api::run(&doc.to_string(), &mut NoProgress)
        .map(|t| serde_json::from_str(&t).unwrap())
        .map_err(|e| e.to_string())
}

const CONF: &str = "SwitchName=top Switches=agg[1-2]\n\
    SwitchName=agg1 Switches=leaf[1-2]\n\
    SwitchName=agg2 Switches=leaf3\n\
    SwitchName=leaf1 Nodes=tux[01-04]\n\
    SwitchName=leaf2 Nodes=tux[05-06]\n\
    SwitchName=leaf3 Nodes=tux[07-12]\n";

fn scenario(policies: Value, jobs: Value) -> Value {
    json!({"version": 1, "engine": "allocation", "seed": 1,
        "system": {"kind": "slurmTopology", "topologyConf": CONF},
        "policies": policies, "workload": {"kind": "set", "jobs": jobs}})
}

#[test]
fn a_topology_conf_machine_runs_every_tree_policy_and_names_nodes() {
    let doc = scenario(
        json!([
            "sequential",
            "closed-min-best",
            "closed-min-paper",
            "random",
            "hilbert",
            "slurmTree"
        ]),
        json!([{"tasks": 2}, {"tasks": 5}, {"tasks": 3, "switches": 1}]),
    );
    let r = run(&doc).unwrap();
    let topo = &r["report"]["topology"];
    assert_eq!(topo["nodes"], 12);
    assert_eq!(topo["routers"], 6);
    assert_eq!(topo["nodeNames"][6], "tux07");
    assert_eq!(topo["switches"][3]["name"], "leaf1");
    assert_eq!(topo["switches"][3]["parent"], 1);
    let runs = r["report"]["runs"].as_array().unwrap();
    let hosts =
        |run: usize, job: usize| runs[run]["jobs"][job]["hosts"].as_str().map(str::to_string);
    // closed-min best: 2 nodes into the tightest leaf switch (leaf2), 5 into leaf3, 3 into leaf1
    assert_eq!(hosts(1, 0).as_deref(), Some("tux[05-06]"));
    assert_eq!(hosts(1, 1).as_deref(), Some("tux[07-11]"));
    assert_eq!(hosts(1, 2).as_deref(), Some("tux[01-03]"));
    // Slurm: best fit leaf2 for 2; 5 fits only leaf3; 3 fits leaf1 (4 free)
    assert_eq!(hosts(5, 0).as_deref(), Some("tux[05-06]"));
    assert_eq!(hosts(5, 1).as_deref(), Some("tux[07-11]"));
    assert_eq!(hosts(5, 2).as_deref(), Some("tux[01-03]"));
    // a job needing two leaf switches with switches = 1 is not placed
    // Slurm takes leaf1 (the larger of two non-fitting halves' first), then the nearer leaf2,
    // then leaf3: three leaf switches
    let doc = scenario(
        json!(["slurmTree"]),
        json!([{"tasks": 7, "switches": 2}, {"tasks": 7, "switches": 3}]),
    );
    let r = run(&doc).unwrap();
    let jobs = &r["report"]["runs"][0]["jobs"];
    assert_eq!(jobs[0]["placed"], false);
    assert_eq!(jobs[1]["hosts"], "tux[01-07]");
}

#[test]
fn bad_slurm_scenarios_name_the_field() {
    let err = |doc: Value| run(&doc).unwrap_err();
    let mut doc = scenario(json!(["slurmTree"]), json!([{"tasks": 1}]));
    doc["system"]["topologyConf"] = json!("SwitchName=r Switches=a,b\nSwitchName=a Nodes=x1\nSwitchName=b Switches=c\nSwitchName=c Nodes=x2");
    let e = err(doc);
    assert!(
        e.contains("system.topologyConf") && e.contains("different depths"),
        "{e}"
    );
    let mut doc = scenario(json!(["slurmTree"]), json!([{"tasks": 1}]));
    doc["system"]["topologyConf"] = json!("SwitchName=a Nodes=x1 Speed=3");
    let e = err(doc);
    assert!(
        e.contains("system.topologyConf") && e.contains("line 1, column 23"),
        "{e}"
    );
    let mut doc = scenario(json!(["slurmTree"]), json!([{"tasks": 1}]));
    doc["system"]
        .as_object_mut()
        .unwrap()
        .remove("topologyConf");
    assert!(err(doc).contains("system.topologyConf"));
    let mut doc = scenario(json!(["slurmTree"]), json!([{"tasks": 1}]));
    doc["system"]["arity"] = json!(2);
    assert!(err(doc).contains("system.arity"));
    let mut doc = scenario(json!(["slurmTree"]), json!([{"tasks": 1}]));
    doc["system"] = json!({"kind": "tree", "arities": [2, 2], "topologyConf": CONF});
    assert!(err(doc).contains("system.topologyConf"));
    let mut doc = scenario(json!(["sequential", "slurmTree"]), json!([{"tasks": 1}]));
    doc["system"] = json!({"kind": "mesh", "width": 2, "height": 2});
    assert!(err(doc).contains("policies[1]"));
    let doc = scenario(
        json!(["slurmTree"]),
        json!([{"tasks": 1, "switchesWait": 3}]),
    );
    assert!(err(doc).contains("workload.jobs[0].switchesWait"));
    let mut doc = scenario(
        json!(["slurmTree"]),
        json!([{"tasks": 1, "arrival": 0, "duration": 1, "switches": 1}]),
    );
    doc["workload"]["kind"] = json!("stream");
    doc["workload"]["backfill"] = json!("easy");
    assert!(err(doc).contains("workload.jobs[0].switches"));
    let mut doc = scenario(
        json!(["slurmTree"]),
        json!([{"tasks": 1, "arrival": 0, "duration": 1}]),
    );
    doc["workload"]["kind"] = json!("stream");
    doc["contention"] = json!({"model": "max-min"});
    let e = err(doc);
    assert!(
        e.contains("$.contention") && e.contains("contention.simgrid"),
        "{e}"
    );
}

/// A stream job waits for its switches until `switchesWait` has passed, then takes any nodes.
#[test]
fn a_job_waits_for_its_switches_then_gives_up() {
    let jobs = json!([
        {"tasks": 3, "arrival": 0, "duration": 1000},
        {"tasks": 9, "arrival": 1, "duration": 10, "switches": 1, "switchesWait": 50},
        {"tasks": 1, "arrival": 100, "duration": 10}
    ]);
    let mut doc = scenario(json!(["slurmTree"]), jobs);
    doc["workload"]["kind"] = json!("stream");
    let r = run(&doc).unwrap();
    let jobs = &r["report"]["runs"][0]["jobs"];
    // 9 nodes need two leaf switches: the job waits, and starts at the next event after 51 s
    assert_eq!(jobs[1]["start"], 100.0);
}

/// On a regular tree the policy runs too (file order = router id order).
#[test]
fn slurm_tree_runs_on_regular_trees() {
    let doc = json!({"version": 1, "engine": "allocation", "seed": 1,
        "system": {"kind": "tree", "arities": [2, 3, 4]},
        "policies": ["slurmTree", "closed-min-best"],
        "workload": {"kind": "set", "jobs": [{"tasks": 3}, {"tasks": 4}, {"tasks": 2}, {"tasks": 9}]}});
    let r = run(&doc).unwrap();
    let jobs = &r["report"]["runs"][0]["jobs"];
    // node ranges are [first, count]
    assert_eq!(jobs[0]["nodeRanges"], json!([[0, 3]]));
    assert_eq!(jobs[1]["nodeRanges"], json!([[4, 4]]));
    // 2 nodes: the first leaf switch's one free node does not fit; the tightest that does
    assert_eq!(jobs[2]["nodeRanges"], json!([[8, 2]]));
    assert!(jobs[0]["hosts"].is_null());
}

/// A FCFS stream on the imported machine: replaying the report's starts and ends in time order
/// (ends first at equal times), every job's nodes are the policy's choice on the machine of that
/// moment, and no two running jobs share a node. With EASY backfilling, no two running jobs share
/// a node either.
#[test]
fn streams_on_an_imported_machine_give_each_job_the_policys_choice() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/playground-examples/slurm-tree-vs-closed-min.json"
    ))
    .unwrap();
    let mut doc: Value = serde_json::from_str(&text).unwrap();
    doc["policies"] = json!(["slurmTree"]);
    let mut rng = Rng::seeded(9);
    let jobs: Vec<Value> = (0..60)
        .map(|i| json!({"tasks": 1 + rng.index_below(14), "arrival": i * 3, "duration": 5 + rng.index_below(120)}))
        .collect();
    doc["workload"] = json!({"kind": "stream", "jobs": jobs});
    let conf = doc["system"]["topologyConf"].as_str().unwrap().to_string();
    for backfill in ["none", "easy"] {
        doc["workload"]["backfill"] = json!(backfill);
        let r = run(&doc).unwrap();
        let rows = r["report"]["runs"][0]["jobs"].as_array().unwrap().clone();
        let nodes_of = |j: &Value| -> Vec<u32> {
            j["nodeRanges"]
                .as_array()
                .unwrap()
                .iter()
                .flat_map(|r| {
                    let (a, n) = (r[0].as_u64().unwrap() as u32, r[1].as_u64().unwrap() as u32);
                    a..a + n
                })
                .collect()
        };
        // events: (time, 0 = end / 1 = start, job)
        let mut events: Vec<(f64, u8, usize)> = Vec::new();
        for (i, j) in rows.iter().enumerate() {
            assert_eq!(j["placed"], true, "{backfill}: job {i}");
            events.push((j["start"].as_f64().unwrap(), 1, i));
            events.push((j["end"].as_f64().unwrap(), 0, i));
        }
        events.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
        let topo = Topology::Tree(slurm_tree(&conf).unwrap());
        let mut m = Machine::new(topo.clone());
        let mut p = placer(&topo);
        for (_, kind, i) in events {
            let pl = Placement {
                nodes: nodes_of(&rows[i]),
                ..Default::default()
            };
            if kind == 0 {
                m.release(&pl, &Footprint::default());
                continue;
            }
            assert!(
                pl.nodes.iter().all(|&v| m.is_free(v as usize)),
                "{backfill}: job {i} on busy nodes"
            );
            if backfill == "none" {
                let n = rows[i]["nodes"].as_u64().unwrap() as usize;
                assert_eq!(p.place(&m, n).unwrap().nodes, pl.nodes, "job {i}");
            }
            m.commit(i as u32, &pl, &Footprint::default());
        }
    }
}
