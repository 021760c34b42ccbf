//! A 1,000-point study on 2 threads against 1, and the study machinery's overhead against the
//! bare runs of the same scenarios: `cargo bench --bench study`. Prints one line per case:
//! the best of nine interleaved rounds of each, the speed-up ratio and the overhead.
//!
//! `cargo bench --bench study merge`: merging 100 shards of 10,000 points each (one tidy row a
//! point) against merely reading the shards' journals and writing their concatenation.
//!
//! Cases: the smallest example (`fig1-4x4`, four jobs on a 4x4 mesh, tens of microseconds a
//! point: the machinery's cost shows) and a heavier allocation stream (a 16x16 mesh, 60
//! generated jobs, milliseconds a point: the engines' cost dominates).

use placelab::study::{self, runner};
use std::time::{Duration, Instant};

const FIG1: &str = include_str!("../playground-examples/fig1-4x4.json");

const STREAM: &str = r#"{"version":1,"engine":"allocation","name":"stream 16x16","seed":1,
  "system":{"kind":"mesh","width":16,"height":16},
  "policies":["sequential","hilbert","closed-min-best"],
  "workload":{"kind":"generated","count":60,"minTasks":1,"maxTasks":32,"meanInterarrival":3,"meanDuration":40}}"#;

/// Interleaved rounds of the study on 1 and 2 threads and of the bare runs.
const ROUNDS: usize = 15;

fn best_of(mut f: impl FnMut()) -> Duration {
    (0..ROUNDS)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .min()
        .unwrap()
}

/// This process's CPU time so far (all threads, user + system; Linux's `/proc/self/stat` in
/// clock ticks of 1/100 s), to tell the work from a busy machine's waiting; `None` elsewhere.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let after = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = after.split(' ').collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(ticks as f64 / 100.0)
}

fn case(name: &str, base: &str, axis: &str) {
    // 10 axis values x 100 replicates = 1,000 points.
    let text = format!(
        r#"{{"version":1,"base":{base},"axes":[{axis}],"replicates":{{"count":100,"baseSeed":1}}}}"#
    );
    let s = study::parse_inline(&text).expect("the bench study parses");
    assert_eq!(s.points, 1000);
    let dir = std::env::temp_dir().join(format!("placelab-bench-study-{}", std::process::id()));
    let timed = |threads: usize| {
        let _ = std::fs::remove_dir_all(&dir);
        let o = runner::Options {
            dir: dir.clone(),
            threads,
            shard: (0, 1),
            max_points: 1000,
            max_seconds: placelab::study::DEFAULT_MAX_SECONDS,
        };
        let t = Instant::now();
        runner::run(&s, &o, &|_, _| {}).expect("the bench study runs");
        t.elapsed()
    };
    let scenarios: Vec<String> = (0..s.points)
        .map(|i| study::point_scenario(&s, i))
        .collect();
    let bare_once = || {
        let t = Instant::now();
        for sc in &scenarios {
            placelab::api::run(sc, &mut placelab::progress::NoProgress).expect("runs");
        }
        t.elapsed()
    };
    // Rounds of the three, interleaved: a slow spell of the machine (they last seconds here and
    // move whole runs by up to 2x) then hits the three of a round alike. The ratios are each
    // round's, their median printed; the times are the best round's.
    let (mut ones, mut twos, mut bares) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..ROUNDS {
        bares.push(bare_once().as_secs_f64());
        ones.push(timed(1).as_secs_f64());
        twos.push(timed(2).as_secs_f64());
    }
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let speedup = median(ones.iter().zip(&twos).map(|(a, b)| a / b).collect());
    let overhead = median(ones.iter().zip(&bares).map(|(a, b)| a / b - 1.0).collect());
    let best = |v: &[f64]| v.iter().copied().fold(f64::INFINITY, f64::min);
    let (one, two, bare) = (best(&ones), best(&twos), best(&bares));
    let _ = std::fs::remove_dir_all(&dir);
    // Where a sequential study's time goes, phase by phase.
    let check = best_of(|| {
        for sc in &scenarios {
            placelab::api::check(sc).expect("valid");
        }
    });
    let texts = best_of(|| {
        for i in 0..s.points {
            std::hint::black_box(study::point_scenario(&s, i));
        }
    });
    let want = placelab::study::metrics::Want::of(&s.metrics);
    let captured = best_of(|| {
        for sc in &scenarios {
            std::hint::black_box(
                placelab::api::run_captured(sc, &mut placelab::progress::NoProgress, &want)
                    .expect("runs"),
            );
        }
    });
    let points = best_of(|| {
        for i in 0..s.points {
            std::hint::black_box(study::run_point(&s, i));
        }
    });
    println!(
        "{name}: phases on 1 thread: admission checks {:.3} s, point texts {:.3} s, runs captured (no report text) {:.3} s, run_point (text, run, rows) {:.3} s",
        check.as_secs_f64(),
        texts.as_secs_f64(),
        captured.as_secs_f64(),
        points.as_secs_f64()
    );
    println!(
        "{name}: 1,000 points: 1 thread {one:.3} s, 2 threads {two:.3} s, ratio {speedup:.2}x; bare runs {bare:.3} s, study overhead {:+.1} % (medians of {ROUNDS} rounds' ratios; best times)",
        overhead * 100.0
    );
}

/// A 1,000,000-point study (100 axis values x 10,000 replicates, three scalar metrics): 100
/// shards of 10,000 points, their journals written from made-up outcomes (the engines are not
/// what this measures), merged by [`runner::merge`] against the baseline of reading the 100
/// journals and writing their concatenation to one file (the least a merge must do).
fn merge_case() {
    const SHARDS: u64 = 100;
    let text = format!(
        r#"{{"version":1,"base":{STREAM},
            "axes":[{{"path":"workload.meanInterarrival","from":1,"to":100,"count":100}}],
            "replicates":{{"count":10000,"baseSeed":1}},
            "metrics":["report.runs[0].summary.meanWait","report.runs[0].summary.utilization","report.runs[0].policy"]}}"#
    );
    let s = study::parse_inline(&text).expect("the merge study parses");
    assert_eq!(s.points, 1_000_000);
    let root = std::env::temp_dir().join(format!("placelab-bench-merge-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let dirs: Vec<std::path::PathBuf> = (0..SHARDS)
        .map(|k| {
            let dir = root.join(format!("shard-{k}"));
            std::fs::create_dir_all(&dir).unwrap();
            let range = study::shard_range(s.points, k, SHARDS);
            let outcomes: Vec<(u64, study::Outcome)> = range
                .clone()
                .map(|i| {
                    let x = study::seed::splitmix64(7, i);
                    let o = if x % 1000 == 0 {
                        study::Outcome::Error(format!("made-up failure of point {i}"))
                    } else {
                        study::Outcome::Ok(vec![study::metrics::Row {
                            groups: vec![],
                            values: vec![
                                serde_json::Value::from((x % 100_000) as f64 / 7.0),
                                serde_json::Value::from((x >> 40) as f64 / (1u64 << 24) as f64),
                                serde_json::Value::from("closed-min-best"),
                            ],
                        }])
                    };
                    (i, o)
                })
                .collect();
            let done: Vec<(u64, &study::Outcome)> = outcomes.iter().map(|(i, o)| (*i, o)).collect();
            std::fs::write(dir.join("study.json"), s.canonical()).unwrap();
            std::fs::write(
                dir.join(study::journal::FILE),
                study::journal::render(&s, (k, SHARDS), &range, &done),
            )
            .unwrap();
            dir
        })
        .collect();
    let out = root.join("merged");
    let concat = root.join("concatenated.jsonl");
    // Each timed call starts from nothing on disk: deleting the last call's output (458 MB
    // of page cache) happens before the clock starts.
    let timed = |mut f: Box<dyn FnMut() + '_>, clean: &dyn Fn()| {
        let mut best = Duration::MAX;
        let mut cpu = 0.0;
        for _ in 0..3 {
            clean();
            let c0 = cpu_seconds();
            let t = Instant::now();
            f();
            best = best.min(t.elapsed());
            cpu += match (c0, cpu_seconds()) {
                (Some(a), Some(b)) => (b - a) / 3.0,
                _ => 0.0,
            };
        }
        (best, cpu)
    };
    let (baseline, baseline_cpu) = timed(
        Box::new(|| {
            let mut all = Vec::new();
            for d in &dirs {
                all.extend(std::fs::read(d.join(study::journal::FILE)).unwrap());
            }
            std::fs::write(&concat, &all).unwrap();
        }),
        &|| {
            let _ = std::fs::remove_file(&concat);
        },
    );
    let mut bytes = 0;
    let (merge, merge_cpu) = timed(
        Box::new(|| {
            let summary = runner::merge(&dirs, &out).expect("the shards merge");
            assert_eq!(summary.points, s.points);
            bytes = summary
                .files
                .iter()
                .map(|f| std::fs::metadata(f).unwrap().len())
                .sum::<u64>();
        }),
        &|| {
            let _ = std::fs::remove_dir_all(&out);
        },
    );
    let _ = std::fs::remove_dir_all(&root);
    println!(
        "merge: 100 shards x 10,000 points: merge {:.3} s wall, {:.2} s CPU (writes {:.0} MB); read + concatenate the journals {:.3} s wall, {:.2} s CPU; ratio {:.1}x wall",
        merge.as_secs_f64(),
        merge_cpu,
        bytes as f64 / 1e6,
        baseline.as_secs_f64(),
        baseline_cpu,
        merge.as_secs_f64() / baseline.as_secs_f64()
    );
}

fn main() {
    // `cargo bench` passes `--bench`; a filter argument, if any, picks cases by name.
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let want = |n: &str| filter.is_empty() || filter.iter().any(|f| n.contains(f.as_str()));
    if want("fig1-4x4") {
        case(
            "fig1-4x4",
            FIG1,
            r#"{"path":"system.width","from":4,"to":13,"step":1}"#,
        );
    }
    if want("stream-16x16") {
        case(
            "stream-16x16",
            STREAM,
            r#"{"path":"workload.meanInterarrival","from":1,"to":10,"count":10}"#,
        );
    }
    if want("merge") {
        merge_case();
    }
}
