#!/usr/bin/env python3
"""Identical ranks: the searches of a trace whose rank shifts leave it unchanged, with the
reduction (`search.rankSymmetry` true, the default) against without it, same binary, same run.

Usage: scripts/bench-identical-ranks.py [--runs 3] [--bin PATH]

Runs `placelab run` on the example `trace-ring-8-identical-ranks` (a periodic ring of 8 ranks
on 8 distinct nodes) with exhaustive search and with branch and bound, each with the reduction
and without, alternated, and prints per case the median wall time, the replays, the best time
(which must be the same) and the ratios. Builds the release binary (in `CARGO_TARGET_DIR`,
else target/) if needed.
"""
import json
import os
import statistics
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET = os.environ.get("CARGO_TARGET_DIR", os.path.join(REPO, "target"))


def arg(name, default):
    if name in sys.argv:
        return sys.argv[sys.argv.index(name) + 1]
    return default


def main():
    runs = int(arg("--runs", "3"))
    binary = arg("--bin", os.path.join(TARGET, "release", "placelab"))
    if not os.path.exists(binary):
        subprocess.run(["cargo", "build", "--release"], cwd=REPO, check=True)
    with open(os.path.join(REPO, "playground-examples", "trace-ring-8-identical-ranks.json")) as f:
        base = json.load(f)
    for method in ["exhaustive", "branchAndBound"]:
        rows = {}
        for _ in range(runs):
            for on in [True, False]:
                s = json.loads(json.dumps(base))
                s["search"] = {"method": method, "top": 10, "rankSymmetry": on}
                t0 = time.perf_counter()
                out = subprocess.run([binary, "run", "-"], input=json.dumps(s).encode(),
                                     capture_output=True, check=True)
                dt = time.perf_counter() - t0
                rep = json.loads(out.stdout)
                rep = rep.get("report", rep)
                r = rows.setdefault(on, {"t": [], "rep": rep})
                r["t"].append(dt)
        on, off = rows[True], rows[False]
        t_on, t_off = statistics.median(on["t"]), statistics.median(off["t"])
        s_on, s_off = on["rep"]["search"], off["rep"]["search"]
        same = on["rep"]["ranking"][0]["time"] == off["rep"]["ranking"][0]["time"]
        print(f"{method}: with identical ranks {t_on:.3f} s, {s_on['replays']} replays; "
              f"without {t_off:.3f} s, {s_off['replays']} replays; "
              f"{t_off / t_on:.1f}x faster, {s_off['replays'] / max(1, s_on['replays']):.1f}x fewer replays; "
              f"proven {s_on['proven']} / {s_off['proven']}; best time "
              f"{'the same' if same else 'DIFFERS'} ({on['rep']['ranking'][0]['time']})")
        if not same:
            sys.exit(1)


if __name__ == "__main__":
    main()
