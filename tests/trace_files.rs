//! Traces from files: an SMPI `-trace-ti` index and its rank files read as streams
//! (`placelab trace`, `--attach`), giving the report the same trace gives inside a scenario, byte
//! for byte; chunked reading equal to whole-text reading; clear errors naming file and line.

use placelab::trace::model::{Origin, Trace};
use placelab::trace::ti::{parse_into, TiStream};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::process::Command;

fn example() -> Value {
    serde_json::from_str(
        &std::fs::read_to_string("playground-examples/trace-smpi-lu.json").unwrap(),
    )
    .unwrap()
}

/// The example's rank texts written as an SMPI trace folder; returns (dir, index path).
fn folder(tag: &str) -> (PathBuf, PathBuf) {
    let dir = std::env::temp_dir().join(format!("placelab-trace-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let files = example()["trace"]["files"].as_array().unwrap().clone();
    let mut index = String::new();
    for (i, f) in files.iter().enumerate() {
        std::fs::write(dir.join(format!("rank-{i}.txt")), f.as_str().unwrap()).unwrap();
        index += &format!(
            "{}/rank-{i}.txt\n",
            if i % 2 == 0 { "moved-away" } else { "." }
        );
    }
    let idx = dir.join("lu.txt");
    std::fs::write(&idx, index).unwrap();
    let mut platform = example();
    platform.as_object_mut().unwrap().remove("trace");
    std::fs::write(dir.join("platform.json"), platform.to_string()).unwrap();
    (dir, idx)
}

fn placelab(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_placelab"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn a_trace_read_from_its_files_gives_the_scenarios_report() {
    let (dir, idx) = folder("same");
    let inline = placelab(&["run", "playground-examples/trace-smpi-lu.json"]);
    assert!(inline.status.success());
    let p = dir.join("platform.json");
    let mf = dir.join("machinefile");
    let out = placelab(&[
        "trace",
        idx.to_str().unwrap(),
        "--platform",
        p.to_str().unwrap(),
        "--machinefile",
        mf.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(out.stdout, inline.stdout, "the same report, byte for byte");
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        std::fs::read_to_string(&mf).unwrap(),
        r["report"]["best"]["machinefile"].as_str().unwrap()
    );
    // the scenario that names the attached trace, run with --attach
    let mut s = example();
    s["trace"] = json!({"format": "ti", "attached": "lu.txt"});
    let sp = dir.join("s.json");
    std::fs::write(&sp, s.to_string()).unwrap();
    let attached = placelab(&[
        "run",
        sp.to_str().unwrap(),
        "--attach",
        idx.to_str().unwrap(),
    ]);
    assert!(
        attached.status.success(),
        "{}",
        String::from_utf8_lossy(&attached.stderr)
    );
    assert_eq!(attached.stdout, inline.stdout);
    // not attached, or another trace under that name
    let missing = placelab(&["run", sp.to_str().unwrap()]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&missing.stderr)
        .contains("$.trace.attached: the trace \"lu.txt\" is not attached"));
    s["trace"]["digest"] = json!("0000000000000000 1");
    std::fs::write(&sp, s.to_string()).unwrap();
    let other = placelab(&[
        "run",
        sp.to_str().unwrap(),
        "--attach",
        idx.to_str().unwrap(),
    ]);
    assert!(String::from_utf8_lossy(&other.stderr)
        .contains("$.trace.digest: the attached \"lu.txt\" holds other files"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_files_are_named_with_their_line() {
    let (dir, idx) = folder("bad");
    let p = dir.join("platform.json");
    let run = |extra: &[&str]| {
        let mut a = vec![
            "trace",
            idx.to_str().unwrap(),
            "--platform",
            p.to_str().unwrap(),
        ];
        a.extend_from_slice(extra);
        placelab(&a)
    };
    // a bad action on line 3 of rank 1's file
    let r1 = dir.join("rank-1.txt");
    let good = std::fs::read_to_string(&r1).unwrap();
    let mut lines: Vec<&str> = good.lines().collect();
    lines[2] = "1 teleport 3";
    std::fs::write(&r1, lines.join("\n")).unwrap();
    let out = run(&[]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        err.contains(
            "rank-1.txt: line 3: action \"teleport\" is not a SimGrid time-independent action"
        ),
        "{err}"
    );
    std::fs::write(&r1, good).unwrap();
    // a rank file that is not there
    std::fs::remove_file(dir.join("rank-2.txt")).unwrap();
    let out = run(&[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("(line 3 of"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // a platform file that gives its own trace
    std::fs::write(&p, example().to_string()).unwrap();
    let out = run(&[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("$.trace: the trace comes from"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn reading_in_chunks_of_any_size_gives_the_same_trace() {
    let files = example()["trace"]["files"].as_array().unwrap().clone();
    let mut whole = Trace::new(0, Origin::Files);
    for (i, f) in files.iter().enumerate() {
        parse_into(f.as_str().unwrap(), i as u32, 1.0, &mut whole).unwrap();
    }
    for size in [1, 2, 7, 64, 4096] {
        let mut t = Trace::new(0, Origin::Files);
        for (i, f) in files.iter().enumerate() {
            let mut s = TiStream::new(i as u32, 1.0);
            for c in f.as_str().unwrap().as_bytes().chunks(size) {
                s.push(c, &mut t).unwrap();
            }
            s.finish(&mut t).unwrap();
        }
        assert_eq!(t, whole, "chunks of {size} bytes");
    }
    // the error of a line cut across chunks names the file's line, not the chunk's
    let mut t = Trace::new(0, Origin::Files);
    let mut s = TiStream::new(0, 1.0);
    let text = "0 init\n0 compute 5\n0 compute 1x\n";
    for c in text.as_bytes().chunks(3) {
        if let Err(e) = s.push(c, &mut t) {
            assert_eq!(e.line, 3);
            return;
        }
    }
    panic!("the bad line was accepted");
}

/// Regression: the limit is ten million events (it was two million); a trace past it is
/// refused while it is read, within a chunk of the limit, naming the line where reading
/// stopped. The input is made as it is fed, 64 KiB at a time, never stored.
#[test]
fn a_trace_over_the_event_limit_is_refused_while_it_is_read() {
    let limit = placelab::trace::limits::MAX_EVENTS;
    assert!(
        limit >= 10_000_000,
        "the limit is at least ten million events"
    );
    // four events a block: two merged computes, a send, a receive
    let block = b"0 compute 1\n1 compute 2\n0 send 1 8\n1 recv 0 8\n";
    let chunk: Vec<u8> = block.repeat((64 << 10) / block.len());
    let per_chunk = 4 * (chunk.len() / block.len()) as u64;
    let mut t = Trace::new(0, Origin::Files);
    let mut s = TiStream::new(0, 1.0);
    let mut fed = 0u64;
    let err = loop {
        if let Err(e) = s.push(&chunk, &mut t) {
            break e;
        }
        fed += per_chunk;
        assert!(fed <= limit + 2 * per_chunk, "read past the limit");
    };
    assert!(
        err.message.contains(&format!(
            "the trace passes {limit} events, the limit; reading stopped here"
        )),
        "{}",
        err.message
    );
    assert!(t.events() > limit, "refused only past the limit");
    assert!(
        t.events() <= limit + per_chunk,
        "stopped within a chunk of the limit"
    );
    // the line named is the last line read (a line an event here), in the file's numbering
    assert_eq!(err.line as u64, fed + per_chunk, "{}", err.line);
}

/// Admission by memory before compiling: a trace of non-blocking calls costs about 144 bytes an
/// event to compile (a lowered copy and 48-byte instructions), so one of 5.9 million events,
/// under the event limit, is refused at `$.trace` before it is compiled, naming its memory;
/// the same events of blocking calls (64 bytes an event) would fit.
#[test]
fn a_non_blocking_trace_over_the_memory_budget_is_refused_before_it_is_compiled() {
    use placelab::trace::limits::{BYTES_PER_EVENT, BYTES_PER_EVENT_GENERAL};
    let budget = placelab::engine::MAX_BYTES;
    let events = (budget / BYTES_PER_EVENT_GENERAL) as u64 + 20_000;
    assert!(events < placelab::trace::limits::MAX_EVENTS);
    assert!(events as f64 * BYTES_PER_EVENT < budget);
    // five events a block: a compute, an isend, an irecv and the two waits
    let block = b"0 compute 5\n0 isend 1 0 8\n1 irecv 0 0 8\n0 wait 0 1 0\n1 wait 0 1 0\n";
    let chunk: Vec<u8> = block.repeat((64 << 10) / block.len());
    let mut t = Trace::new(0, Origin::Files);
    let mut s = TiStream::new(0, 1.0);
    while t.events() < events {
        s.push(&chunk, &mut t).unwrap();
    }
    s.finish(&mut t).unwrap();
    let n = t.events();
    placelab::attach::attach_trace(
        "nb-huge",
        placelab::attach::AttachedTrace {
            trace: t,
            digest: "0000000000000000 0".into(),
            files: vec!["nb-huge".into()],
        },
    );
    let doc = json!({"version": 1, "engine": "trace",
        "trace": {"format": "ti", "attached": "nb-huge"},
        "nodes": [{"name": "a"}, {"name": "b"}], "defaultLink": {"a0": 1e-5, "a1": 1e-9}});
    let e = placelab::api::check(&doc.to_string()).unwrap_err();
    assert_eq!(e.path, "$.trace", "{e}");
    assert!(
        e.message.starts_with(&format!(
            "refused before compiling: the trace's {n} events need about"
        )) && e
            .message
            .contains("144 bytes an event with non-blocking calls or collectives")
            && e.message.contains("the limit is 768 MiB"),
        "{e}"
    );
}
