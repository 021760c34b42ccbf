#!/usr/bin/env python3
"""Traces from files: `placelab trace` reading a time-independent trace as a stream, a 1 MiB
trace (the baseline) against one of ten million events (the engine's event limit, about 150 MB),
same machine, same run.

Usage: scripts/bench-trace-files.py [--events 10000000] [--mb MIB]

Writes seeded merged traces (4 ranks passing 64 KiB around a ring, computing between: three
events a message), runs `placelab trace TRACE --platform P` on the 4 heterogeneous hosts of the
trace-smpi-lu example (exhaustive search, every assignment proven), each in its own process, and
prints the bytes and events read, wall time, the phases the CLI reports (reading; checking and
compiling; the search, with its replay rate in events per second), peak resident memory, its
ratio to the baseline's, and the memory per event beyond the baseline's. `--mb` sizes the large
trace in MiB instead. Builds the release binary (in `CARGO_TARGET_DIR`, else target/) if needed.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

from bench_files import measure

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET = os.environ.get("CARGO_TARGET_DIR", os.path.join(REPO, "target"))
BIN = os.path.join(TARGET, "release", "placelab")


def write(path, mb=None, events=None):
    """A ring trace of at least `mb` MiB, or of at most `events` events (three a message);
    returns its bytes."""
    written, k = 0, 0
    with open(path, "w") as f:
        while (mb is not None and written < mb << 20) or (events is not None and 3 * (k + 1) <= events):
            lines = []
            for _ in range(2000):
                if events is not None and 3 * (k + 1) > events:
                    break
                r = k % 4
                lines += [f"{r} compute {1000000 + 1000 * r}", f"{r} send {(r + 1) % 4} 65536", f"{(r + 1) % 4} recv {r} 65536"]
                k += 1
            chunk = "\n".join(lines) + "\n"
            f.write(chunk)
            written += len(chunk)
    return written


def phases(err):
    """(read, compile, search seconds, replays, M events/s) from the CLI's summary line."""
    m = re.search(r"read in ([\d.]+) s; checked and compiled in ([\d.]+) s, searched in ([\d.]+) s \(([\d.]+) replays, ([\d.]+) M events/s\)", err)
    return tuple(float(x) for x in m.groups()) if m else (float("nan"),) * 5


def main():
    events, mb = 10_000_000, None
    if "--events" in sys.argv:
        events = int(sys.argv[sys.argv.index("--events") + 1])
    if "--mb" in sys.argv:
        mb, events = int(sys.argv[sys.argv.index("--mb") + 1]), None
    subprocess.run(["cargo", "build", "--release", "--bin", "placelab"], cwd=REPO, check=True)
    with tempfile.TemporaryDirectory() as d:
        platform = json.load(open(os.path.join(REPO, "playground-examples", "trace-smpi-lu.json")))
        del platform["trace"]
        platform.pop("measured", None)
        p = os.path.join(d, "platform.json")
        json.dump(platform, open(p, "w"))
        rows = []
        for name, size in [("1 MiB", dict(mb=1)), ("large", dict(mb=mb, events=events))]:
            t = os.path.join(d, "ring.ti")
            b = write(t, **size)
            wall, rss, out, err = measure([BIN, "trace", t, "--platform", p], os.path.join(d, "out.json"), stderr=True)
            os.remove(t)
            r = json.loads(out)["report"]
            rows.append((name, b, r["trace"]["events"], wall, rss, r["search"]["proven"], phases(err)))
        base = rows[0]
        print(f"{'trace':>6} {'bytes':>11} {'events':>9} {'wall s':>7} {'x base':>7} {'read s':>7} {'compile s':>9} {'search s':>8} {'replays':>7} {'M ev/s':>7} {'RSS MiB':>8} {'x base':>7} {'B/event over base':>18} proven")
        for name, b, ev, wall, rss, proven, (rd, comp, search, replays, rate) in rows:
            per = (rss - base[4]) * (1 << 20) / max(1, ev - base[2]) if ev > base[2] else float("nan")
            print(f"{name:>6} {b:>11} {ev:>9} {wall:>7.2f} {wall / base[3]:>7.2f} {rd:>7.2f} {comp:>9.2f} {search:>8.2f} {replays:>7.0f} {rate:>7.1f} {rss:>8.1f} {rss / base[4]:>7.2f} {per:>18.1f} {proven}")


if __name__ == "__main__":
    main()
