//! The Standard Workload Format (SWF, Parallel Workloads Archive): one job per line, 18
//! whitespace-separated fields, `-1` for unknown, header comments starting with `;`.
//!
//! Fields used: 1 job number, 2 submit time (s), 4 run time (s), 5 allocated processors,
//! 8 requested processors, 9 requested time (s, the walltime estimate). The allocation engine
//! replays `processors` (allocated, else requested); the moldable engine schedules
//! `requested_processors` (requested, else allocated). Jobs with a run time or
//! processor count that is unknown or not positive are skipped and counted, as is customary when
//! replaying archive logs. Submit times are shifted so that the first job arrives at 0.

/// One job read from an SWF log.
#[derive(Debug, Clone, PartialEq)]
pub struct SwfJob {
    pub id: i64,
    pub arrival: f64,
    pub run_time: f64,
    pub processors: u64,
    /// Requested processors (field 8), else the allocated ones.
    pub requested_processors: u64,
    /// Requested time, at least the run time.
    pub walltime: f64,
}

/// A parsed log.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SwfLog {
    pub jobs: Vec<SwfJob>,
    /// Lines describing jobs that could not be replayed (unknown run time or size).
    pub skipped: usize,
}

/// Parses SWF text, keeping at most `max_jobs` jobs.
///
/// # Errors
/// `"line N: ..."` for a line that is not a comment and has fewer than 9 numeric fields.
pub fn parse(text: &str, max_jobs: usize) -> Result<SwfLog, String> {
    let mut log = SwfLog::default();
    let mut first_submit: Option<f64> = None;
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with(';') {
            continue;
        }
        if log.jobs.len() >= max_jobs {
            break;
        }
        let fields: Vec<f64> = line
            .split_whitespace()
            .take(18)
            .map(|f| {
                f.parse::<f64>()
                    .map_err(|_| format!("line {}: {f:?} is not a number", i + 1))
            })
            .collect::<Result<_, _>>()?;
        if fields.len() < 9 {
            return Err(format!(
                "line {}: an SWF job line has 18 fields, found {}",
                i + 1,
                fields.len()
            ));
        }
        if fields.iter().any(|v| !v.is_finite()) {
            return Err(format!("line {}: numbers must be finite", i + 1));
        }
        let (id, submit, run, alloc, req_procs, req_time) = (
            fields[0], fields[1], fields[3], fields[4], fields[7], fields[8],
        );
        let procs = if alloc > 0.0 { alloc } else { req_procs };
        let requested = if req_procs > 0.0 && req_procs <= (1u64 << 30) as f64 {
            req_procs
        } else {
            procs
        };
        if run <= 0.0 || procs <= 0.0 || submit < 0.0 || procs > (1u64 << 30) as f64 {
            log.skipped += 1;
            continue;
        }
        let t0 = *first_submit.get_or_insert(submit);
        log.jobs.push(SwfJob {
            id: id as i64,
            arrival: (submit - t0).max(0.0),
            run_time: run,
            processors: procs as u64,
            requested_processors: requested as u64,
            walltime: if req_time >= run { req_time } else { run },
        });
    }
    Ok(log)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOG: &str = "; Version: 2.2
; Computer: test
    1     100   5   3600   64  -1 -1   64  7200 -1 1 1 1 1 1 -1 -1 -1
    2     160   0     -1   32  -1 -1   32  3600 -1 0 1 1 1 1 -1 -1 -1
    3     200   9     60   -1  -1 -1   16    30 -1 1 1 1 1 1 -1 -1 -1
";

    #[test]
    fn reads_jobs_and_skips_unknown_run_times() {
        let log = parse(LOG, 10).unwrap();
        assert_eq!(log.skipped, 1);
        assert_eq!(log.jobs.len(), 2);
        assert_eq!(
            log.jobs[0],
            SwfJob {
                id: 1,
                arrival: 0.0,
                run_time: 3600.0,
                processors: 64,
                requested_processors: 64,
                walltime: 7200.0
            }
        );
        // requested processors when the allocation is unknown; walltime at least the run time
        assert_eq!(
            log.jobs[1],
            SwfJob {
                id: 3,
                arrival: 100.0,
                run_time: 60.0,
                processors: 16,
                requested_processors: 16,
                walltime: 60.0
            }
        );
    }

    #[test]
    fn requested_processors_are_kept_beside_the_allocated_ones() {
        let log = parse("1 0 0 100 8 -1 -1 12 200 -1 1 1 1 1 1 -1 -1 -1\n", 10).unwrap();
        assert_eq!(log.jobs[0].processors, 8);
        assert_eq!(log.jobs[0].requested_processors, 12);
    }

    #[test]
    fn bad_lines_name_their_number() {
        assert_eq!(
            parse("; c\n1 2 3\n", 10).unwrap_err(),
            "line 2: an SWF job line has 18 fields, found 3"
        );
        assert!(parse("1 2 x 4 5 6 7 8 9", 10)
            .unwrap_err()
            .starts_with("line 1:"));
        assert_eq!(parse(LOG, 1).unwrap().jobs.len(), 1);
    }
}
