//! The Standard Workload Format (SWF, Parallel Workloads Archive): one job per line, 18
//! whitespace-separated fields, `-1` for unknown, header comments starting with `;`.
//!
//! Fields used: 1 job number, 2 submit time (s), 4 run time (s), 5 allocated processors,
//! 8 requested processors, 9 requested time (s, the walltime estimate), 12 user, 15 queue,
//! 16 partition. The allocation engine replays `processors` (allocated, else requested) and
//! plans EASY reservations with `walltime`; the moldable engine schedules
//! `requested_processors` (requested, else allocated). Jobs with a run time or processor count
//! that is unknown or not positive are skipped and counted, as is customary when replaying
//! archive logs. Submit times are shifted so that the first job arrives at 0. Header lines
//! `; MaxNodes: N`, `; MaxProcs: N` and `; Computer: ...` are kept ([`SwfHeader`]).
//!
//! # Streaming
//! [`SwfReader`] takes the file in chunks of any size (a native `Read`, or a browser file's
//! stream in a worker) and keeps at most `max_jobs` jobs: its memory is `O(max_jobs + longest
//! line)`, whatever the file's size. Lines after the kept jobs are still read, to count them and
//! to fingerprint the whole file ([`super::digest`]), so a scenario can name the exact file it
//! replays. Chunk boundaries never change the result: the reader sees the same lines.
//!
//! # Errors
//! `"line N, column C: ..."` for a field that is not a number, `"line N: ..."` for a job line
//! with fewer than 9 fields, bytes that are not text, or a line longer than [`MAX_LINE`] bytes
//! (so a file without newlines cannot fill memory).

use super::digest::Fnv64;

/// Longest line read, in bytes.
pub const MAX_LINE: usize = 64 << 10;

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
    /// User id (field 12), queue (15) and partition (16); `None` where the log says `-1`.
    pub user: Option<u32>,
    pub queue: Option<u32>,
    pub partition: Option<u32>,
}

/// What a log's header comments say of its machine.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SwfHeader {
    /// `; Computer:` (at most 200 characters kept).
    pub computer: Option<String>,
    /// `; MaxNodes:`.
    pub max_nodes: Option<u64>,
    /// `; MaxProcs:`.
    pub max_procs: Option<u64>,
}

/// A parsed log.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SwfLog {
    pub jobs: Vec<SwfJob>,
    /// Lines describing jobs that could not be replayed (unknown run time or size).
    pub skipped: usize,
    /// Job lines after the kept jobs (read, counted, not kept).
    pub beyond: u64,
    pub header: SwfHeader,
    /// The file's fingerprint ([`Fnv64::fingerprint`]: FNV-1a 64 in hex, a space, the bytes).
    pub digest: String,
}

/// Parses SWF text, keeping at most `max_jobs` jobs.
///
/// # Errors
/// As [`SwfReader::push`].
pub fn parse(text: &str, max_jobs: usize) -> Result<SwfLog, String> {
    let mut r = SwfReader::new(max_jobs);
    r.push(text.as_bytes())?;
    r.finish()
}

/// Reads a whole log from `input` in 64 KiB chunks ([`SwfReader`]).
///
/// # Errors
/// A read error, or those of [`SwfReader::push`].
pub fn read(mut input: impl std::io::Read, max_jobs: usize) -> Result<SwfLog, String> {
    let mut r = SwfReader::new(max_jobs);
    let mut buf = vec![0u8; 64 << 10];
    loop {
        let n = match input.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(format!("cannot read: {e}")),
        };
        r.push(&buf[..n])?;
    }
    r.finish()
}

/// A log read chunk by chunk (module doc).
#[derive(Debug)]
pub struct SwfReader {
    max_jobs: usize,
    log: SwfLog,
    first_submit: Option<f64>,
    /// Number of the line being read (1-based once started).
    line: u64,
    /// The current, unfinished line.
    carry: super::lines::Carry,
    digest: Fnv64,
}

impl SwfReader {
    /// A reader that keeps at most `max_jobs` jobs.
    pub fn new(max_jobs: usize) -> SwfReader {
        SwfReader {
            max_jobs,
            log: SwfLog::default(),
            first_submit: None,
            line: 0,
            carry: Default::default(),
            digest: Fnv64::default(),
        }
    }

    /// Bytes read so far.
    pub fn bytes(&self) -> u64 {
        self.digest.len()
    }

    /// Jobs kept so far.
    pub fn jobs(&self) -> usize {
        self.log.jobs.len()
    }

    /// Feeds the next `chunk` of the file.
    ///
    /// # Errors
    /// The first bad line (module doc); the reader should then be dropped.
    pub fn push(&mut self, chunk: &[u8]) -> Result<(), String> {
        self.digest.update(chunk);
        let mut carry = std::mem::take(&mut self.carry);
        let r = carry.push(chunk, MAX_LINE, |lines| {
            // every line of `lines` ends with '\n'
            lines[..lines.len() - 1]
                .split(|&b| b == b'\n')
                .try_for_each(|l| self.line(l))
        });
        self.carry = carry;
        r.map_err(|e| {
            e.unwrap_or_else(|| {
                format!(
                    "line {}: longer than {MAX_LINE} bytes (is this an SWF log?)",
                    self.line + 1
                )
            })
        })
    }

    /// The log, once the last chunk is pushed.
    ///
    /// # Errors
    /// A bad last line (without a final newline).
    pub fn finish(mut self) -> Result<SwfLog, String> {
        let last = std::mem::take(&mut self.carry).finish();
        if !last.is_empty() {
            self.line(&last)?;
        }
        self.log.digest = self.digest.fingerprint();
        Ok(self.log)
    }

    fn line(&mut self, bytes: &[u8]) -> Result<(), String> {
        self.line += 1;
        let n = self.line;
        if bytes.len() > MAX_LINE {
            return Err(format!(
                "line {n}: longer than {MAX_LINE} bytes (is this an SWF log?)"
            ));
        }
        let text = std::str::from_utf8(bytes).map_err(|e| {
            format!(
                "line {n}, column {}: not text (an SWF log is plain ASCII)",
                e.valid_up_to() + 1
            )
        })?;
        let line = text.trim();
        if line.is_empty() {
            return Ok(());
        }
        if let Some(comment) = line.strip_prefix(';') {
            self.header_line(comment);
            return Ok(());
        }
        if self.log.jobs.len() >= self.max_jobs {
            self.log.beyond += 1;
            return Ok(());
        }
        let mut fields = [0f64; 18];
        let mut count = 0;
        let mut rest = text;
        let mut column = 1;
        while count < 18 {
            let start = rest.len() - rest.trim_start().len();
            column += start;
            rest = &rest[start..];
            if rest.is_empty() {
                break;
            }
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            let f = &rest[..end];
            let v = f
                .parse::<f64>()
                .map_err(|_| format!("line {n}, column {column}: {f:?} is not a number"))?;
            if !v.is_finite() {
                return Err(format!("line {n}, column {column}: numbers must be finite"));
            }
            fields[count] = v;
            count += 1;
            column += end;
            rest = &rest[end..];
        }
        if count < 9 {
            return Err(format!(
                "line {n}: an SWF job line has 18 fields, found {count}"
            ));
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
            self.log.skipped += 1;
            return Ok(());
        }
        // fields 12, 15, 16: ids, -1 (or absent, in a short line) when unknown
        let id_of = |i: usize| {
            let v = fields[i];
            (i < count && v >= 0.0 && v <= u32::MAX as f64).then_some(v as u32)
        };
        let t0 = *self.first_submit.get_or_insert(submit);
        self.log.jobs.push(SwfJob {
            id: id as i64,
            arrival: (submit - t0).max(0.0),
            run_time: run,
            processors: procs as u64,
            requested_processors: requested as u64,
            walltime: if req_time >= run { req_time } else { run },
            user: id_of(11),
            queue: id_of(14),
            partition: id_of(15),
        });
        Ok(())
    }

    fn header_line(&mut self, comment: &str) {
        let Some((key, value)) = comment.split_once(':') else {
            return;
        };
        let value = value.trim();
        let number = || value.parse::<u64>().ok().filter(|&v| v > 0);
        match key.trim().to_ascii_lowercase().as_str() {
            "maxnodes" => self.log.header.max_nodes = number(),
            "maxprocs" => self.log.header.max_procs = number(),
            "computer" if !value.is_empty() => {
                self.log.header.computer = Some(value.chars().take(200).collect())
            }
            _ => {}
        }
    }
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
                walltime: 7200.0,
                user: Some(1),
                queue: Some(1),
                partition: None,
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
                walltime: 60.0,
                user: Some(1),
                queue: Some(1),
                partition: None,
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
            .starts_with("line 1, column 5:"));
        assert_eq!(parse(LOG, 1).unwrap().jobs.len(), 1);
    }

    #[test]
    fn any_chunking_reads_the_same_log() {
        let whole = parse(LOG, 10).unwrap();
        let bytes = LOG.as_bytes();
        for size in 1..=bytes.len() {
            let mut r = SwfReader::new(10);
            for c in bytes.chunks(size) {
                r.push(c).unwrap();
            }
            assert_eq!(r.finish().unwrap(), whole, "chunks of {size} bytes");
        }
        assert_eq!(read(bytes, 10).unwrap(), whole);
        let mut fnv = Fnv64::default();
        fnv.update(bytes);
        assert_eq!(whole.digest, fnv.fingerprint());
    }

    #[test]
    fn the_header_names_the_machine_and_unknown_ids_stay_unknown() {
        let log = parse(
            "; Computer: IBM SP2\n;  MaxNodes: 128\n; MaxProcs:128\n; Note: x\n\
             1 0 0 10 4 -1 -1 4 20 -1 1 -1 -1 -1 -1 -1 -1 -1\n",
            10,
        )
        .unwrap();
        assert_eq!(
            log.header,
            SwfHeader {
                computer: Some("IBM SP2".into()),
                max_nodes: Some(128),
                max_procs: Some(128)
            }
        );
        assert_eq!(
            (log.jobs[0].user, log.jobs[0].queue, log.jobs[0].partition),
            (None, None, None)
        );
    }

    #[test]
    fn lines_after_the_kept_jobs_are_counted_and_fingerprinted() {
        let a = parse(LOG, 1).unwrap();
        assert_eq!((a.jobs.len(), a.beyond), (1, 2));
        let b = parse(LOG, 10).unwrap();
        assert_eq!(a.digest, b.digest);
        let other = parse(&LOG.replace("7200", "7201"), 1).unwrap();
        assert_ne!(a.digest, other.digest);
    }

    #[test]
    fn bad_bytes_name_line_and_column() {
        assert_eq!(
            parse("1 0 0 10 4 -1 -1 4 2x0 -1 1 1 1 1 1 -1 -1 -1\n", 10).unwrap_err(),
            "line 1, column 20: \"2x0\" is not a number"
        );
        assert_eq!(
            parse("; ok\n  1 0 0 1e999 4 -1 -1 4 20\n", 10).unwrap_err(),
            "line 2, column 9: numbers must be finite"
        );
        let mut r = SwfReader::new(10);
        assert_eq!(
            r.push(b"; ok\n1 0 \xff\n").unwrap_err(),
            "line 2, column 5: not text (an SWF log is plain ASCII)"
        );
        // a file without newlines is refused once a line passes the limit, chunk by chunk
        let mut r = SwfReader::new(10);
        let chunk = vec![b'1'; 1000];
        let err = (0..100).find_map(|_| r.push(&chunk).err()).unwrap();
        assert_eq!(
            err,
            format!("line 1: longer than {MAX_LINE} bytes (is this an SWF log?)")
        );
        assert!(r.carry.carried() <= MAX_LINE);
    }
}
