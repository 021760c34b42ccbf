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
//! # Complexity
//! `O(R)` for `R` ranks (`nodelist`: `O(R log R)`).

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
    use serde_json::Value;
    let engine = doc["engine"].as_str().unwrap_or("");
    let r = &doc["report"];
    let prefix = pick.prefix.as_deref().unwrap_or("node");
    let list = |v: &Value| -> Vec<u32> {
        v.as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|x| x.as_u64())
                    .map(|x| x as u32)
                    .collect()
            })
            .unwrap_or_default()
    };
    match engine {
        "place" => {
            let k = pick.case.unwrap_or(0);
            let cases = r["cases"].as_array().map_or(0, Vec::len);
            let case = r["cases"]
                .get(k)
                .ok_or_else(|| format!("case {k}: the report has {cases} cases (0 to {})", cases.max(1) - 1))?;
            let runs = case["runs"].as_array().cloned().unwrap_or_default();
            let placed: Vec<&Value> = runs.iter().filter(|x| x["placed"] == true).collect();
            let run = match &pick.strategy {
                Some(s) => *placed.iter().find(|x| x["strategy"] == s.as_str()).ok_or_else(|| {
                    let ids: Vec<&str> = placed.iter().filter_map(|x| x["strategy"].as_str()).collect();
                    format!("strategy {s:?} placed nothing in case {k}; placed: {}", ids.join(", "))
                })?,
                None => *placed
                    .iter()
                    .filter(|x| x["time"].is_number())
                    .min_by(|a, b| a["time"].as_f64().unwrap().total_cmp(&b["time"].as_f64().unwrap()))
                    .or(placed.first())
                    .ok_or_else(|| format!("no strategy placed case {k}"))?,
            };
            let machine = r["system"]["hosts"].as_u64().unwrap_or(1) as u32;
            let hosts = list(&run["hosts"]);
            // a platform file's hosts have their own names, unless a prefix is asked for
            let named: Option<Vec<&str>> = r["system"]["hostNames"]
                .as_array()
                .filter(|_| pick.prefix.is_none())
                .map(|a| a.iter().map(|x| x.as_str().unwrap_or("")).collect());
            Ok(Picked {
                hosts: match named {
                    Some(n) if hosts.iter().all(|&h| (h as usize) < n.len()) => {
                        hosts.iter().map(|&h| n[h as usize].to_string()).collect()
                    }
                    _ => names(&hosts, prefix, machine),
                },
                what: format!(
                    "case {k} ({} of {} tasks), strategy {}",
                    case["kind"].as_str().unwrap_or("?"),
                    case["processes"],
                    run["strategy"].as_str().unwrap_or("?")
                ),
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
            let named: Option<Vec<&str>> = r["topology"]["nodeNames"]
                .as_array()
                .filter(|_| pick.prefix.is_none())
                .map(|a| a.iter().map(|x| x.as_str().unwrap_or("")).collect());
            let hosts = match named {
                Some(n) if per_task.iter().all(|&v| (v as usize) < n.len()) => {
                    per_task.iter().map(|&v| n[v as usize].to_string()).collect()
                }
                _ => names(&per_task, prefix, machine),
            };
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
