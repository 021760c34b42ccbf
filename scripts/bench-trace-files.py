#!/usr/bin/env python3
"""Traces from files: `placelab trace` reading a time-independent trace as a stream, a 1 MiB
trace (the baseline) against a 30 MiB one (about 2 million events, the engine's event limit),
same machine, same run.

Usage: scripts/bench-trace-files.py [--mb 30]

Writes seeded merged traces (4 ranks passing 64 KiB around a ring, computing between), runs
`placelab trace TRACE --platform P` on the 4 heterogeneous hosts of the trace-smpi-lu example
(exhaustive search, every assignment proven), each in its own process, and prints the bytes and
events read, wall time, read rate, peak resident memory, and the memory per event beyond the
baseline's. Builds target/release/placelab if needed.
"""
import json
import os
import subprocess
import sys
import tempfile

from bench_files import measure

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(REPO, "target", "release", "placelab")


def write(path, mb):
    """A ring trace of at least `mb` MiB; returns its bytes."""
    written, block = 0, 0
    with open(path, "w") as f:
        while written < mb << 20:
            lines = []
            for k in range(2000):
                r = (block * 2000 + k) % 4
                lines += [f"{r} compute {1000000 + 1000 * r}", f"{r} send {(r + 1) % 4} 65536", f"{(r + 1) % 4} recv {r} 65536"]
            chunk = "\n".join(lines) + "\n"
            f.write(chunk)
            written += len(chunk)
            block += 1
    return written


def main():
    mb = 30
    if "--mb" in sys.argv:
        mb = int(sys.argv[sys.argv.index("--mb") + 1])
    subprocess.run(["cargo", "build", "--release", "--bin", "placelab"], cwd=REPO, check=True)
    with tempfile.TemporaryDirectory() as d:
        platform = json.load(open(os.path.join(REPO, "playground-examples", "trace-smpi-lu.json")))
        del platform["trace"]
        platform.pop("measured", None)
        p = os.path.join(d, "platform.json")
        json.dump(platform, open(p, "w"))
        rows = []
        for size in [1, mb]:
            t = os.path.join(d, f"ring{size}.ti")
            b = write(t, size)
            wall, rss, out = measure([BIN, "trace", t, "--platform", p], os.path.join(d, "out.json"))
            r = json.loads(out)["report"]
            rows.append((size, b, r["trace"]["events"], wall, rss, r["search"]["proven"]))
        base = rows[0]
        print(f"{'trace':>8} {'bytes':>11} {'events':>9} {'wall s':>7} {'MB/s':>6} {'RSS MiB':>8} {'x base':>7} {'B/event over base':>18} proven")
        for size, b, ev, wall, rss, proven in rows:
            per = (rss - base[4]) * (1 << 20) / max(1, ev - base[2]) if ev > base[2] else float("nan")
            print(f"{size:>5}MiB {b:>11} {ev:>9} {wall:>7.2f} {b / wall / 1e6:>6.1f} {rss:>8.1f} {rss / base[4]:>7.2f} {per:>18.1f} {proven}")


if __name__ == "__main__":
    main()
