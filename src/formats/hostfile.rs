//! Placements out, as the files MPI launchers and Slurm take. Every writer gets the host name
//! of each rank, in rank order (`hosts[r]` runs rank `r`), and keeps that order exactly where
//! the format can say it:
//!
//! | [`Format`] | file | rank order kept |
//! |---|---|---|
//! | `mpich` | MPICH/Hydra machinefile: `host:n` for each run of consecutive ranks on one host (`mpiexec -f FILE`) | yes: Hydra fills the lines in order |
//! | `openmpi` | Open MPI hostfile: `host slots=n` per host, in order of its first rank (`mpirun --hostfile FILE`) | when each host's ranks are consecutive (mpirun maps by slot) |
//! | `rankfile` | Open MPI rankfile: `rank r=host slot=k`, `k` counting that host's earlier ranks (`mpirun --rankfile FILE`) | yes |
//! | `slurm-hostfile` | one host per line per rank: `SLURM_HOSTFILE=FILE srun --distribution=arbitrary` | yes |
//! | `nodelist` | the distinct hosts as one Slurm hostlist expression (`sbatch --nodelist=...`) | no: a set |
//!
//! A placement report also gives SimGrid's two files ([`SimgridFile`]): its machine as a
//! platform and a run's placement as a deployment, exactly as `placelab netsim --write-platform`
//! and `--write-deployment` write them ([`super::simgrid::write`]; hosts `node-0 ..`).
//!
//! # Complexity
//! `O(R)` for `R` ranks (`nodelist`: `O(R log R)`); a SimGrid platform `O(links)` (a mesh:
//! `O(hosts^2)` routes).

use super::hostlist;
use std::fmt::Write;

crate::params::choices! {
    /// The file written.
    pub enum Format {
        Mpich = ("mpich", "MPICH machinefile"),
        Openmpi = ("openmpi", "Open MPI hostfile"),
        Rankfile = ("rankfile", "Open MPI rankfile"),
        SlurmHostfile = ("slurm-hostfile", "SLURM_HOSTFILE (srun --distribution=arbitrary)"),
        Nodelist = ("nodelist", "Slurm nodelist"),
    }
}

crate::params::choices! {
    /// A SimGrid file of a placement report.
    pub enum SimgridFile {
        Platform = ("simgrid-platform", "SimGrid platform (XML)"),
        Deployment = ("simgrid-deployment", "SimGrid deployment (XML)"),
    }
}

/// The cluster or zone name of a written platform (`placelab netsim --zone`'s default).
pub const SIMGRID_ZONE: &str = "placelab";

/// Whether the file of `format` runs rank `r` on `hosts[r]` for every `r`.
pub fn keeps_rank_order(format: Format, hosts: &[String]) -> bool {
    match format {
        Format::Mpich | Format::Rankfile | Format::SlurmHostfile => true,
        Format::Nodelist => hosts.windows(2).all(|w| w[0] == w[1]),
        Format::Openmpi => {
            // each host's ranks consecutive
            let mut seen = std::collections::HashSet::new();
            let mut prev: Option<&String> = None;
            hosts.iter().all(|h| {
                let fresh = prev != Some(h);
                prev = Some(h);
                !fresh || seen.insert(h)
            })
        }
    }
}

/// The file of `format` for ranks placed on `hosts` (one host name per rank), ending with a
/// newline unless empty.
pub fn write(format: Format, hosts: &[String]) -> String {
    let mut out = String::new();
    match format {
        Format::Mpich => {
            let mut i = 0;
            while i < hosts.len() {
                let j = (i..hosts.len())
                    .find(|&j| hosts[j] != hosts[i])
                    .unwrap_or(hosts.len());
                let _ = writeln!(out, "{}:{}", hosts[i], j - i);
                i = j;
            }
        }
        Format::Openmpi => {
            let mut order: Vec<&String> = Vec::new();
            let mut slots: std::collections::HashMap<&String, usize> = Default::default();
            for h in hosts {
                let n = slots.entry(h).or_insert(0);
                if *n == 0 {
                    order.push(h);
                }
                *n += 1;
            }
            for h in order {
                let _ = writeln!(out, "{h} slots={}", slots[h]);
            }
        }
        Format::Rankfile => {
            let mut used: std::collections::HashMap<&String, usize> = Default::default();
            for (r, h) in hosts.iter().enumerate() {
                let k = used.entry(h).or_insert(0);
                let _ = writeln!(out, "rank {r}={h} slot={k}");
                *k += 1;
            }
        }
        Format::SlurmHostfile => {
            for h in hosts {
                let _ = writeln!(out, "{h}");
            }
        }
        Format::Nodelist => {
            if !hosts.is_empty() {
                let _ = writeln!(out, "{}", hostlist::compress(hosts));
            }
        }
    }
    out
}

/// Host names for host indices: `prefix` and the index zero-padded to the digits of the
/// largest index of the machine (`hosts - 1`), e.g. `node0007` on a 4,096-host machine.
pub fn names(indices: &[u32], prefix: &str, machine_hosts: u32) -> Vec<String> {
    let width = machine_hosts.saturating_sub(1).max(1).to_string().len();
    indices
        .iter()
        .map(|&i| format!("{prefix}{i:0width$}"))
        .collect()
}

/// The name of each host of `indices`: the machine's own names (`own`, in host order: a
/// platform file's hosts, a Slurm topology's nodes) unless `prefix` is asked for or an index is
/// past them; otherwise `prefix` (default `node`) and the index, as [`names`].
pub fn names_of<S: AsRef<str>>(
    indices: &[u32],
    own: Option<&[S]>,
    prefix: Option<&str>,
    machine_hosts: u32,
) -> Vec<String> {
    match own {
        Some(n) if prefix.is_none() && indices.iter().all(|&i| (i as usize) < n.len()) => indices
            .iter()
            .map(|&i| n[i as usize].as_ref().to_string())
            .collect(),
        _ => names(indices, prefix.unwrap_or("node"), machine_hosts),
    }
}

/// Which placement of a report to write; every field optional.
#[derive(Debug, Clone, Default)]
pub struct Pick {
    /// Placement: the case (index); default 0.
    pub case: Option<usize>,
    /// Placement: the strategy id; default the fastest placed run of the case. Allocation: the
    /// policy id; default the first run.
    pub strategy: Option<String>,
    /// Allocation: the job (index in the run); default 0.
    pub job: Option<usize>,
    /// Trace: the ranking position from 1; default the best assignment.
    pub position: Option<usize>,
    /// Host names for engines whose hosts are numbers (placement, allocation): this prefix and
    /// the zero-padded index; default `node`.
    pub prefix: Option<String>,
}

/// A placement read from a report: one host name per rank, and what was picked, in words.
#[derive(Debug, Clone, PartialEq)]
pub struct Picked {
    pub hosts: Vec<String>,
    pub what: String,
}

/// The placement report's run `pick` names (case, strategy: default the fastest placed run of
/// case 0), and what was picked, in words.
fn place_run<'a>(
    r: &'a serde_json::Value,
    pick: &Pick,
) -> Result<(&'a serde_json::Value, String), String> {
    use serde_json::Value;
    let k = pick.case.unwrap_or(0);
    let cases = r["cases"].as_array().map_or(0, Vec::len);
    let case = r["cases"].get(k).ok_or_else(|| {
        format!(
            "case {k}: the report has {cases} cases (0 to {})",
            cases.max(1) - 1
        )
    })?;
    let runs: &[Value] = case["runs"].as_array().map_or(&[], Vec::as_slice);
    let placed: Vec<&Value> = runs.iter().filter(|x| x["placed"] == true).collect();
    let run = match &pick.strategy {
        Some(s) => *placed
            .iter()
            .find(|x| x["strategy"] == s.as_str())
            .ok_or_else(|| {
                let ids: Vec<&str> = placed
                    .iter()
                    .filter_map(|x| x["strategy"].as_str())
                    .collect();
                format!(
                    "strategy {s:?} placed nothing in case {k}; placed: {}",
                    ids.join(", ")
                )
            })?,
        None => *placed
            .iter()
            .filter(|x| x["time"].is_number())
            .min_by(|a, b| {
                a["time"]
                    .as_f64()
                    .unwrap()
                    .total_cmp(&b["time"].as_f64().unwrap())
            })
            .or(placed.first())
            .ok_or_else(|| format!("no strategy placed case {k}"))?,
    };
    let what = format!(
        "case {k} ({} of {} tasks), strategy {}",
        case["kind"].as_str().unwrap_or("?"),
        case["processes"],
        run["strategy"].as_str().unwrap_or("?")
    );
    Ok((run, what))
}

/// The whole numbers of a report's JSON array (host indices, sides); none when it is not one.
/// A JSON array of names (`None` when absent).
fn str_list(v: &serde_json::Value) -> Option<Vec<&str>> {
    v.as_array()
        .map(|a| a.iter().map(|x| x.as_str().unwrap_or("")).collect())
}

fn u32_list(v: &serde_json::Value) -> Vec<u32> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_u64())
                .map(|x| x as u32)
                .collect()
        })
        .unwrap_or_default()
}

/// The placement `pick` names in a report document (`placelab run`'s output: `engine` and
/// `report`). Placement: the run's `hosts` (host index per task). Allocation: the job's nodes
/// (`nodeRanges`), its tasks filled node by node, `coresPerNode` to a node, named by the
/// machine's `nodeNames` when it has them (a Slurm topology.conf) and no prefix is asked; a
/// placement on a SimGrid platform file its `hostNames` the same way. Trace: the
/// assignment's `hosts` (node names per rank).
///
/// # Errors
/// An engine that places nothing, a case, strategy, policy, job or position the report does
/// not have, a run that placed nothing.
pub fn hosts_of_report(doc: &serde_json::Value, pick: &Pick) -> Result<Picked, String> {
    let engine = doc["engine"].as_str().unwrap_or("");
    let r = &doc["report"];
    match engine {
        "place" => {
            let (run, what) = place_run(r, pick)?;
            let machine = r["system"]["hosts"].as_u64().unwrap_or(1) as u32;
            let hosts = u32_list(&run["hosts"]);
            // a platform file's hosts have their own names, unless a prefix is asked for
            let named = str_list(&r["system"]["hostNames"]);
            Ok(Picked {
                hosts: names_of(&hosts, named.as_deref(), pick.prefix.as_deref(), machine),
                what,
            })
        }
        "allocation" => {
            let runs = r["runs"].as_array().cloned().unwrap_or_default();
            let run = match &pick.strategy {
                Some(p) => runs.iter().find(|x| x["policy"] == p.as_str()).ok_or_else(|| {
                    let ids: Vec<&str> = runs.iter().filter_map(|x| x["policy"].as_str()).collect();
                    format!("no policy {p:?} in the report; its policies: {}", ids.join(", "))
                })?,
                None => runs.first().ok_or("the report has no run")?,
            };
            let j = pick.job.unwrap_or(0);
            let jobs = run["jobs"].as_array().map_or(0, Vec::len);
            let job = run["jobs"]
                .get(j)
                .ok_or_else(|| format!("job {j}: the run has {jobs} jobs"))?;
            if job["placed"] != true {
                return Err(format!("job {j} was not placed"));
            }
            // `nodeRanges`: [first, count] runs of ascending node ids
            let mut nodes = Vec::new();
            for range in job["nodeRanges"].as_array().cloned().unwrap_or_default() {
                let (first, count) = (range[0].as_u64().unwrap_or(0), range[1].as_u64().unwrap_or(0));
                nodes.extend((first..first.saturating_add(count)).map(|x| x as u32));
            }
            if nodes.is_empty() {
                return Err(format!("job {j} has no nodes in the report"));
            }
            let cores = r["topology"]["coresPerNode"].as_u64().unwrap_or(1).max(1);
            let tasks = job["tasks"].as_u64().unwrap_or(nodes.len() as u64);
            let machine = r["topology"]["nodes"].as_u64().unwrap_or(1) as u32;
            let per_task: Vec<u32> = (0..tasks)
                .map(|t| nodes[((t / cores) as usize).min(nodes.len().saturating_sub(1))])
                .collect();
            // a machine with named nodes (a Slurm topology.conf) gives its names, unless a prefix
            // is asked for
            let named = str_list(&r["topology"]["nodeNames"]);
            let hosts = names_of(&per_task, named.as_deref(), pick.prefix.as_deref(), machine);
            Ok(Picked {
                hosts,
                what: format!(
                    "policy {}, job {j} ({}: {tasks} tasks on {} nodes)",
                    run["policy"].as_str().unwrap_or("?"),
                    job["name"].as_str().unwrap_or(""),
                    nodes.len()
                ),
            })
        }
        "trace" => {
            let (row, what) = match pick.position {
                None => (&r["best"], "the best assignment".to_string()),
                Some(p) => {
                    let n = r["ranking"].as_array().map_or(0, Vec::len);
                    let row = r["ranking"]
                        .get(p.wrapping_sub(1))
                        .ok_or_else(|| format!("position {p}: the ranking has {n} rows (1 to {n})"))?;
                    (row, format!("ranking position {p}"))
                }
            };
            let hosts: Vec<String> = row["hosts"]
                .as_str()
                .unwrap_or("")
                .split_whitespace()
                .map(str::to_string)
                .collect();
            if hosts.is_empty() {
                return Err("the report has no assignment".into());
            }
            Ok(Picked { hosts, what })
        }
        other => Err(format!(
            "a {other:?} report places no ranks on hosts; hostfiles come from placement, allocation and trace reports"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn every_format_of_one_placement() {
        let hosts = h(&["n1", "n1", "n3", "n1"]);
        assert_eq!(write(Format::Mpich, &hosts), "n1:2\nn3:1\nn1:1\n");
        assert_eq!(write(Format::Openmpi, &hosts), "n1 slots=3\nn3 slots=1\n");
        assert_eq!(
            write(Format::Rankfile, &hosts),
            "rank 0=n1 slot=0\nrank 1=n1 slot=1\nrank 2=n3 slot=0\nrank 3=n1 slot=2\n"
        );
        assert_eq!(write(Format::SlurmHostfile, &hosts), "n1\nn1\nn3\nn1\n");
        assert_eq!(write(Format::Nodelist, &hosts), "n[1,3]\n");
        assert!(!keeps_rank_order(Format::Openmpi, &hosts));
        assert!(keeps_rank_order(Format::Openmpi, &h(&["a", "a", "b"])));
        assert_eq!(write(Format::Mpich, &[]), "");
    }

    #[test]
    fn names_are_padded_to_the_machine() {
        assert_eq!(names(&[7, 4095], "node", 4096), ["node0007", "node4095"]);
        assert_eq!(names(&[0], "h", 1), ["h0"]);
    }
}

/// The launcher file of `format` for the placement `pick` names in a report's text (an
/// envelope as `placelab run` prints it), and what was picked: the page's downloads and
/// `placelab hostfile` both come here.
///
/// # Errors
/// Text that is not a report's JSON, and what [`hosts_of_report`] refuses.
pub fn from_report_text(
    text: &str,
    format: Format,
    pick: &Pick,
) -> Result<(String, Picked), String> {
    let doc: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("not a report's JSON: {e}"))?;
    if doc.get("report").is_none() {
        return Err("not a report: no \"report\" field".into());
    }
    let picked = hosts_of_report(&doc, pick)?;
    Ok((write(format, &picked.hosts), picked))
}

/// Every `--format` id: the launcher files ([`Format`]), then SimGrid's ([`SimgridFile`]).
pub fn format_ids() -> Vec<&'static str> {
    Format::IDS
        .iter()
        .chain(SimgridFile::IDS)
        .copied()
        .collect()
}

/// A file written from a report ([`file_from_report_text`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Written {
    pub text: String,
    pub picked: Picked,
    /// The format's label.
    pub label: &'static str,
    /// Whether the file runs rank `r` on `picked.hosts[r]` for every `r`.
    pub keeps_order: bool,
}

/// The file of format `id` (any of [`format_ids`]) for what `pick` names in a report's text:
/// `placelab hostfile --format` and the page's "Launcher file" downloads both come here.
///
/// # Errors
/// An unknown format; what [`from_report_text`] and [`simgrid_of_report`] refuse.
pub fn file_from_report_text(text: &str, id: &str, pick: &Pick) -> Result<Written, String> {
    if let Some(f) = Format::from_id(id) {
        let (text, picked) = from_report_text(text, f, pick)?;
        let keeps_order = keeps_rank_order(f, &picked.hosts);
        return Ok(Written {
            text,
            picked,
            label: f.label(),
            keeps_order,
        });
    }
    let file = SimgridFile::from_id(id)
        .ok_or_else(|| format!("{id:?} is not one of {}", format_ids().join(", ")))?;
    let doc: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("not a report's JSON: {e}"))?;
    let (text, picked) = simgrid_of_report(&doc, file, pick)?;
    Ok(Written {
        text,
        picked,
        label: file.label(),
        keeps_order: true,
    })
}

/// SimGrid's platform (the machine of a placement report, zone [`SIMGRID_ZONE`]) or deployment
/// (the run `pick` names: one actor `rank` per task on its host `node-H`, the task as its
/// argument), byte for byte what `placelab netsim --write-platform` / `--write-deployment`
/// write for the same machine and placement. `pick.prefix` does not apply (SimGrid's hosts are
/// `node-0 ..`).
///
/// # Errors
/// A report of another engine; what [`place_run`] refuses (deployment); a machine the platform
/// writer refuses (a mesh over [`super::simgrid::write::MAX_FULL_HOSTS`] hosts).
pub fn simgrid_of_report(
    doc: &serde_json::Value,
    file: SimgridFile,
    pick: &Pick,
) -> Result<(String, Picked), String> {
    use super::simgrid::write;
    use crate::netsim::{parse_fat_tree, LinkParams, Platform, System};
    let engine = doc["engine"].as_str().unwrap_or("");
    if engine != "place" {
        return Err(format!(
            "SimGrid files come from placement reports; this report is of the {engine:?} engine"
        ));
    }
    let r = &doc["report"];
    // SimGrid's host names: `node-H`, a platform file's own
    let file_names = r["system"]["hostNames"].as_array();
    let sg_names = |hosts: &[u32]| -> Vec<String> {
        hosts
            .iter()
            .map(
                |&h| match file_names.and_then(|n| n.get(h as usize)?.as_str()) {
                    Some(name) => name.to_string(),
                    None => format!("node-{h}"),
                },
            )
            .collect()
    };
    match file {
        SimgridFile::Platform => {
            let s = &r["system"];
            let kind = s["kind"].as_str().unwrap_or("");
            let d = u32_list(&s["dims"]);
            let side = |i: usize| d.get(i).copied().ok_or("the report's system has no dims");
            let system = match kind {
                "torus2d" => System::Torus2d {
                    x: side(0)?,
                    y: side(1)?,
                },
                "torus3d" => System::Torus3d {
                    x: side(0)?,
                    y: side(1)?,
                    z: side(2)?,
                },
                "mesh2d" => System::Mesh2d {
                    x: side(0)?,
                    y: side(1)?,
                },
                "mesh3d" => System::Mesh3d {
                    x: side(0)?,
                    y: side(1)?,
                    z: side(2)?,
                },
                "fatTree" | "thinTree" => System::FatTree(parse_fat_tree(
                    s["simgrid"]
                        .as_str()
                        .ok_or("the report's tree has no simgrid parameters")?,
                )?),
                "torus" => System::Torus { dims: d.clone() },
                "dragonfly" | "simgrid" => System::Imported { hosts: 0 },
                other => return Err(format!("the report's system {other:?} is not a machine")),
            };
            let link = LinkParams {
                bandwidth: s["bandwidth"]
                    .as_f64()
                    .ok_or("the report's system has no bandwidth")?,
                latency: s["latency"]
                    .as_f64()
                    .ok_or("the report's system has no latency")?,
            };
            let hosts = s["hosts"].as_u64().unwrap_or(0) as u32;
            let text = match kind {
                "dragonfly" => write::dragonfly(
                    SIMGRID_ZONE,
                    s["simgrid"]
                        .as_str()
                        .ok_or("the report's dragonfly has no simgrid parameters")?,
                    hosts,
                    link,
                    s["speed"].as_f64().unwrap_or(1e9),
                ),
                "simgrid" => {
                    return Err(
                        "the machine came from a SimGrid platform file: that file is \
                                its platform (the scenario's system.platform)"
                            .into(),
                    )
                }
                _ => write::platform(&Platform::build(&system, link)?, SIMGRID_ZONE)?,
            };
            let all: Vec<u32> = (0..hosts).collect();
            let what = format!("the machine ({kind}, {hosts} hosts, zone {SIMGRID_ZONE:?})");
            Ok((
                text,
                Picked {
                    hosts: sg_names(&all),
                    what,
                },
            ))
        }
        SimgridFile::Deployment => {
            let (run, what) = place_run(r, pick)?;
            let hosts = u32_list(&run["hosts"]);
            let names = sg_names(&hosts);
            Ok((
                write::deployment_on(&names, "rank")?,
                Picked { hosts: names, what },
            ))
        }
    }
}
