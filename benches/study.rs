//! A 1,000-point study on 2 threads against 1, and the study machinery's overhead against the
//! bare runs of the same scenarios: `cargo bench --bench study`. Prints one line per case:
//! the best of three wall times of each, the speed-up ratio and the overhead.
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

fn best_of_3(mut f: impl FnMut()) -> Duration {
    (0..3)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .min()
        .unwrap()
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
        best_of_3(|| {
            let _ = std::fs::remove_dir_all(&dir);
            let o = runner::Options {
                dir: dir.clone(),
                threads,
                shard: (0, 1),
                max_points: 1000,
            };
            runner::run(&s, &o, &|_, _| {}).expect("the bench study runs");
        })
    };
    let one = timed(1);
    let two = timed(2);
    let scenarios: Vec<String> = (0..s.points)
        .map(|i| study::point_scenario(&s, i))
        .collect();
    let bare = best_of_3(|| {
        for sc in &scenarios {
            placelab::api::run(sc, &mut placelab::progress::NoProgress).expect("runs");
        }
    });
    let _ = std::fs::remove_dir_all(&dir);
    // Where a sequential study's time goes, phase by phase.
    let check = best_of_3(|| {
        for sc in &scenarios {
            placelab::api::check(sc).expect("valid");
        }
    });
    let texts = best_of_3(|| {
        for i in 0..s.points {
            std::hint::black_box(study::point_scenario(&s, i));
        }
    });
    let points = best_of_3(|| {
        for i in 0..s.points {
            std::hint::black_box(study::run_point(&s, i));
        }
    });
    println!(
        "{name}: phases on 1 thread: admission checks {:.3} s, point texts {:.3} s, run_point (run + metrics) {:.3} s",
        check.as_secs_f64(),
        texts.as_secs_f64(),
        points.as_secs_f64()
    );
    println!(
        "{name}: 1,000 points: 1 thread {:.3} s, 2 threads {:.3} s, ratio {:.2}x; bare runs {:.3} s, study overhead {:+.1} %",
        one.as_secs_f64(),
        two.as_secs_f64(),
        one.as_secs_f64() / two.as_secs_f64(),
        bare.as_secs_f64(),
        (one.as_secs_f64() / bare.as_secs_f64() - 1.0) * 100.0
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
}
