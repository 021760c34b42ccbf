#!/usr/bin/env python3
"""Workload logs of real size: replaying an SWF log attached beside the scenario, against the
same jobs given inside the scenario as text, same machine, same run.

Usage: scripts/bench-swf.py [--mb 10,100] [--jobs 10000]

Writes seeded archive-like SWF logs of each size (one job per line, about 70 bytes a line, a
header with MaxNodes), then, each in its own process, runs `placelab run SCENARIO --attach LOG`
(FCFS with EASY backfilling on a 16x16 mesh, closed-min and Hilbert, the first --jobs jobs) and
the baseline: the same first --jobs job lines copied into the scenario's `swf` text. Prints wall
time and peak resident memory (the process's own: bench_files.py) of each, and their ratios to the
baseline: memory follows the jobs kept, not the file. Builds target/release/placelab if needed.
"""
import json
import os
import subprocess
import sys
import tempfile

from bench_files import measure

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(REPO, "target", "release", "placelab")


def write_log(path, mb):
    """A seeded log of at least `mb` MiB; returns its first job lines' text (the header too)."""
    x = 12345
    mask = (1 << 64) - 1

    def nxt(m):
        nonlocal x
        x = (x * 6364136223846793005 + 1442695040888963407) & mask
        return (x >> 33) % m

    header = "; Version: 2.2\n; Computer: bench synthetic 256-node cluster\n; MaxNodes: 256\n; MaxProcs: 256\n"
    written, submit, job = 0, 0, 1
    with open(path, "w") as f:
        f.write(header)
        written += len(header)
        while written < mb << 20:
            lines = []
            for _ in range(10000):
                submit += nxt(120)
                run = 1 + nxt(3600)
                procs = 1 + nxt(64)
                lines.append(f"{job} {submit} -1 {run} {procs} -1 -1 {procs} {run + nxt(3600)} -1 1 {1 + nxt(50)} 1 -1 {1 + nxt(3)} 1 -1 -1")
                job += 1
            chunk = "\n".join(lines) + "\n"
            f.write(chunk)
            written += len(chunk)
    return written


def head_text(path, jobs):
    out = []
    with open(path) as f:
        for line in f:
            out.append(line)
            if not line.startswith(";"):
                jobs -= 1
                if jobs == 0:
                    break
    return "".join(out)


def scenario(workload):
    return {
        "version": 1, "engine": "allocation", "name": "SWF replay benchmark", "seed": 1,
        "system": {"kind": "mesh", "width": 16, "height": 16},
        "policies": ["closed-min-best", "hilbert"], "frames": 0, "workload": workload,
    }


def main():
    sizes, jobs = [10, 100], 10000
    argv = sys.argv[1:]
    for i, a in enumerate(argv):
        if a == "--mb":
            sizes = [int(v) for v in argv[i + 1].split(",")]
        if a == "--jobs":
            jobs = int(argv[i + 1])
    subprocess.run(["cargo", "build", "--release", "--bin", "placelab"], cwd=REPO, check=True)
    with tempfile.TemporaryDirectory() as d:
        rows = []
        base_report = None
        for mb in sizes:
            log = os.path.join(d, f"log{mb}.swf")
            size = write_log(log, mb)
            if base_report is None:
                s = os.path.join(d, "inline.json")
                json.dump(scenario({"kind": "swf", "backfill": "easy", "swf": head_text(log, jobs)}), open(s, "w"))
                wall, rss, out = measure([BIN, "run", s], os.path.join(d, "out.json"))
                base_report = json.loads(out)["report"]["runs"]
                rows.append((f"baseline: first {jobs} jobs inside the scenario", len(head_text(log, jobs)), wall, rss))
            s = os.path.join(d, f"attached{mb}.json")
            json.dump(scenario({"kind": "swf", "backfill": "easy", "swfFile": os.path.basename(log), "maxJobs": jobs}), open(s, "w"))
            wall, rss, out = measure([BIN, "run", s, "--attach", log], os.path.join(d, "out.json"))
            report = json.loads(out)["report"]
            assert report["runs"] == base_report, "the attached log replays as the same jobs given as text"
            rows.append((f"{mb} MiB log attached ({report['log']['replayed']} replayed, {report['log']['keptNotReplayed']} more counted)", size, wall, rss))
        bw, brss = rows[0][2], rows[0][3]
        print(f"{'case':<72} {'bytes':>11} {'wall s':>7} {'x base':>7} {'RSS MiB':>8} {'x base':>7}")
        for name, size, wall, rss in rows:
            print(f"{name:<72} {size:>11} {wall:>7.2f} {wall / bw:>7.2f} {rss:>8.1f} {rss / brss:>7.2f}")


if __name__ == "__main__":
    main()
