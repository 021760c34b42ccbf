//! Workload logs attached beside a scenario (`workload.swfFile`, `src/attach.rs`): read as a
//! stream, they replay exactly as the same log given inside the scenario, the fingerprint pins the
//! file, and every misuse is a clear error at its JSON path. The CLI's `--attach` does the same.

use placelab::api;
use placelab::progress::NoProgress;
use serde_json::{json, Value};

/// A small seeded log: `n` jobs, some without a run time (skipped).
fn log_text(n: usize) -> String {
    let mut x: u64 = 7;
    let mut next = |m: u64| {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (x >> 33) % m
    };
    let mut s = String::from("; Computer: test cluster\n; MaxNodes: 64\n; MaxProcs: 64\n");
    let mut submit = 0;
    for id in 1..=n {
        submit += next(100);
        let run = if id % 17 == 0 {
            -1
        } else {
            1 + next(600) as i64
        };
        let procs = 1 + next(16);
        let req = run.max(0) + next(600) as i64;
        s += &format!(
            "{id} {submit} -1 {run} {procs} -1 -1 {procs} {req} -1 1 {} 1 -1 {} {} -1 -1\n",
            1 + next(9),
            1 + next(3),
            if id % 2 == 0 { -1 } else { 2 }
        );
    }
    s
}

fn scenario(workload: Value) -> String {
    json!({
        "version": 1, "engine": "allocation", "name": "attached log", "seed": 3,
        "system": {"kind": "mesh", "width": 8, "height": 8},
        "policies": ["closed-min-best", "hilbert"],
        "workload": workload,
    })
    .to_string()
}

fn report(text: &str) -> Value {
    serde_json::from_str(&api::run(text, &mut NoProgress).unwrap()).unwrap()
}

fn error(text: &str) -> (String, String) {
    let e = api::run(text, &mut NoProgress).unwrap_err();
    (e.path.clone(), e.message.clone())
}

#[test]
fn an_attached_log_replays_as_the_same_log_given_as_text() {
    let text = log_text(400);
    // attached in chunks of 7 bytes, as a worker's stream would
    let log = placelab::attach::read_swf(
        "t1.swf",
        std::io::BufReader::with_capacity(7, text.as_bytes()),
    )
    .unwrap();
    let inline = report(&scenario(
        json!({"kind": "swf", "backfill": "easy", "swf": text, "maxJobs": 300}),
    ));
    let attached = report(&scenario(json!({
        "kind": "swf", "backfill": "easy", "swfFile": "t1.swf", "swfDigest": log.digest, "maxJobs": 300
    })));
    assert_eq!(inline["report"]["runs"], attached["report"]["runs"]);
    let l = &attached["report"]["log"];
    assert_eq!(l["file"], "t1.swf");
    assert_eq!(l["digest"], inline["report"]["log"]["digest"]);
    assert_eq!(l["replayed"], 300);
    assert_eq!(l["skipped"], 400 / 17);
    // the lines after the replayed jobs: the text log stopped reading at maxJobs, the attached
    // one kept them all (up to the limit) and counts them
    assert_eq!(l["keptNotReplayed"], 400 - 400 / 17 - 300);
    assert_eq!(
        (l["maxNodes"].as_u64(), l["maxProcs"].as_u64()),
        (Some(64), Some(64))
    );
    assert_eq!(l["computer"], "test cluster");
    let jobs = attached["report"]["runs"][0]["jobs"].as_array().unwrap();
    assert!(jobs
        .iter()
        .all(|j| j["user"].as_u64().is_some() && j["queue"].as_u64().is_some()));
    assert!(
        jobs.iter().any(|j| j.get("partition").is_none()),
        "partition -1 stays unknown"
    );
    // and the job is the log's: swf1 is the first line
    assert_eq!(jobs[0]["name"], "swf1");
}

#[test]
fn misuse_is_refused_at_its_path() {
    let text = log_text(50);
    let log = placelab::attach::read_swf("t2.swf", text.as_bytes()).unwrap();
    let wl = |w: Value| scenario(w);
    assert_eq!(
        error(&wl(json!({"kind": "swf", "swfFile": "absent.swf"}))).0,
        "$.workload.swfFile"
    );
    assert!(error(&wl(json!({"kind": "swf", "swfFile": "absent.swf"})))
        .1
        .contains("\"absent.swf\" is not attached"));
    let (path, msg) = error(&wl(
        json!({"kind": "swf", "swfFile": "t2.swf", "swfDigest": "0 1"}),
    ));
    assert_eq!(path, "$.workload.swfDigest");
    assert!(msg.contains("a different file"), "{msg}");
    assert_eq!(
        error(&wl(
            json!({"kind": "swf", "swfFile": "t2.swf", "swf": text})
        ))
        .0,
        "$.workload.swfFile"
    );
    assert_eq!(
        error(&wl(
            json!({"kind": "swf", "swf": text, "swfDigest": log.digest})
        ))
        .0,
        "$.workload.swfDigest"
    );
    assert_eq!(
        error(&wl(
            json!({"kind": "generated", "count": 3, "swfFile": "t2.swf"})
        ))
        .0,
        "$.workload.swfFile"
    );
    assert_eq!(error(&wl(json!({"kind": "swf"}))).0, "$.workload.swf");
    // a log with no replayable job, attached
    placelab::attach::read_swf("t3.swf", "1 0 -1 -1 4 -1 -1 4 10\n".as_bytes()).unwrap();
    let (path, msg) = error(&wl(json!({"kind": "swf", "swfFile": "t3.swf"})));
    assert_eq!(
        (path.as_str(), msg.as_str()),
        (
            "$.workload.swfFile",
            "the log has no job that can be replayed"
        )
    );
}

#[test]
fn the_cli_streams_a_log_given_with_attach() {
    let dir = std::env::temp_dir().join(format!("placelab-swf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("cli.swf");
    std::fs::write(&log, log_text(120)).unwrap();
    let s = dir.join("s.json");
    std::fs::write(&s, scenario(json!({"kind": "swf", "swfFile": "cli.swf"}))).unwrap();
    let exe = env!("CARGO_BIN_EXE_placelab");
    let run = |args: &[&str]| std::process::Command::new(exe).args(args).output().unwrap();
    let ok = run(&[
        "run",
        s.to_str().unwrap(),
        "--attach",
        log.to_str().unwrap(),
    ]);
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    let r: Value = serde_json::from_slice(&ok.stdout).unwrap();
    assert_eq!(r["report"]["log"]["replayed"], 120 - 120 / 17);
    // another name for the same file
    let named = run(&[
        "run",
        s.to_str().unwrap(),
        "--attach",
        &format!("cli.swf={}", log.to_str().unwrap()),
    ]);
    assert_eq!(named.stdout, ok.stdout);
    // not attached: exit 1 and the path; a missing file: exit 2
    let missing = run(&["run", s.to_str().unwrap()]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("$.workload.swfFile"));
    let unreadable = run(&[
        "check",
        s.to_str().unwrap(),
        "--attach",
        "/nonexistent/x.swf",
    ]);
    assert_eq!(unreadable.status.code(), Some(2));
    // a bad log names its file, line and column
    let bad = dir.join("bad.swf");
    std::fs::write(&bad, "; c\n1 0 -1 1x 4 -1 -1 4 10\n").unwrap();
    let out = run(&[
        "check",
        s.to_str().unwrap(),
        "--attach",
        bad.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim(),
        format!(
            "placelab: {}: line 2, column 8: \"1x\" is not a number",
            bad.display()
        )
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_mesh_without_sides_takes_the_log_header_machine() {
    use placelab::alloc::scenario::log_mesh;
    assert_eq!(log_mesh(128), Some((16, 8)));
    assert_eq!(log_mesh(430), Some((43, 10)));
    assert_eq!(log_mesh(100), Some((10, 10)));
    assert_eq!(log_mesh(7), Some((7, 1)));
    assert_eq!(log_mesh(521), None, "a prime above 512");
    // brute force: the most nearly square exact factorisation
    for n in 1..2000u64 {
        let best = (1..=n).filter(|h| n % h == 0 && n / h >= *h).max().unwrap();
        let want = (n / best <= 512).then_some(((n / best) as usize, best as usize));
        assert_eq!(log_mesh(n), want, "{n}");
    }
    let text = log_text(60);
    let s = |w: Value| {
        json!({
            "version": 1, "engine": "allocation", "name": "sized by its log",
            "system": {"kind": "mesh"}, "policies": ["closed-min-best"], "workload": w,
        })
        .to_string()
    };
    let r = report(&s(json!({"kind": "swf", "swf": text})));
    assert_eq!(
        (
            &r["report"]["topology"]["width"],
            &r["report"]["topology"]["height"]
        ),
        (&json!(8), &json!(8)),
        "MaxNodes: 64"
    );
    // MaxProcs over cores per node when MaxNodes is absent
    let procs_only = text.replace("; MaxNodes: 64\n", "");
    let r = report(
        &s(json!({"kind": "swf", "swf": procs_only}))
            .replace("\"kind\":\"mesh\"", "\"kind\":\"mesh\",\"coresPerNode\":2"),
    );
    assert_eq!(r["report"]["topology"]["nodes"], 32);
    // no size in the header: the error asks for one
    let bare = procs_only.replace("; MaxProcs: 64\n", "");
    assert_eq!(
        error(&s(json!({"kind": "swf", "swf": bare}))).0,
        "$.system.width"
    );
}

#[test]
fn the_moldable_engine_reads_the_same_attached_log() {
    let example: Value = serde_json::from_str(
        &std::fs::read_to_string("playground-examples/moldable-swf-sample.json").unwrap(),
    )
    .unwrap();
    let text = example["swf"]["text"].as_str().unwrap().to_string();
    let log = placelab::attach::read_swf("m1.swf", text.as_bytes()).unwrap();
    let mut attached = example.clone();
    attached["swf"]["text"] = Value::Null;
    attached["swf"].as_object_mut().unwrap().remove("text");
    attached["swf"]["file"] = json!("m1.swf");
    attached["swf"]["digest"] = json!(log.digest);
    assert_eq!(
        api::run(&example.to_string(), &mut NoProgress).unwrap(),
        api::run(&attached.to_string(), &mut NoProgress).unwrap()
    );
    attached["swf"]["digest"] = json!("0 0");
    assert_eq!(error(&attached.to_string()).0, "$.swf.digest");
    attached["swf"]["text"] = json!(text);
    assert_eq!(error(&attached.to_string()).0, "$.swf.file");
}
