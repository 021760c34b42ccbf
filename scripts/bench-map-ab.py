#!/usr/bin/env python3
"""Two placelab binaries against each other on the mapping benchmark's cases: CPU time of
`placelab map` and whether they write the same mappings.

For an optimization that must not move a mapping: run `scripts/bench-mapping.py --keep DIR` once
(it writes each case's METIS graph and machine under DIR/CASE/), then

    scripts/bench-map-ab.py DIR BEFORE AFTER [--runs N] [--strategies mapped,advanced]

maps every case with both binaries, N rounds (default 3), the two binaries' order alternating
from round to round, and takes each case's least CPU time (user + system of the process, from
the OS's accounting of children: steadier than wall time on a shared machine). It prints the
sums, the geometric mean over the cases of AFTER's time over BEFORE's, and how many mappings
are byte for byte the same (`mapped` with the objective `hopBytes`, as the benchmark runs it).
Exit status 1 when a mapping differs or a run fails. Python 3.11 standard library.
"""
import argparse
import json
import math
import os
import resource
import subprocess
import sys
import tempfile


def cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--strategies", default="mapped")
    args = ap.parse_args()
    cases = sorted(c for c in os.listdir(args.dir)
                   if os.path.exists(os.path.join(args.dir, c, "system.json")))
    if not cases:
        sys.exit(f"{args.dir}: no kept case (run scripts/bench-mapping.py --keep {args.dir})")
    bins = [args.before, args.after]
    strategies = args.strategies.split(",")
    best = {(b, c, s): math.inf for b in range(2) for c in cases for s in strategies}
    maps = {}
    failed = 0
    tmp = tempfile.mkdtemp(prefix="map-ab-")
    for r in range(args.runs):
        for c in cases:
            d = os.path.join(args.dir, c)
            with open(os.path.join(d, "system.json")) as f:
                system = f.read()
            for s in strategies:
                for b in ([0, 1] if r % 2 == 0 else [1, 0]):
                    out = os.path.join(tmp, f"{b}.map")
                    cmd = [bins[b], "map", os.path.join(d, "g.graph"), system,
                           "--strategy", s, "-o", out]
                    if s == "mapped":
                        cmd += ["--objective", "hopBytes"]
                    t = cpu()
                    p = subprocess.run(cmd, capture_output=True, text=True)
                    dt = cpu() - t
                    if p.returncode != 0:
                        print(f"FAIL {c} {s} {bins[b]}: {p.stderr.strip()[:200]}")
                        failed += 1
                        continue
                    best[(b, c, s)] = min(best[(b, c, s)], dt)
                    with open(out) as f:
                        maps[(b, c, s)] = f.read()
    same = sum(1 for c in cases for s in strategies
               if maps.get((0, c, s)) is not None and maps.get((0, c, s)) == maps.get((1, c, s)))
    n = len(cases) * len(strategies)
    for s in strategies:
        ratios = [max(best[(1, c, s)], 1e-4) / max(best[(0, c, s)], 1e-4) for c in cases
                  if best[(0, c, s)] < math.inf and best[(1, c, s)] < math.inf]
        g = math.exp(sum(math.log(x) for x in ratios) / len(ratios)) if ratios else float("nan")
        sums = [sum(best[(b, c, s)] for c in cases if best[(b, c, s)] < math.inf) for b in (0, 1)]
        print(f"{s}: {len(cases)} cases, least CPU time of {args.runs} runs; before {sums[0]:.3f} s, "
              f"after {sums[1]:.3f} s in all; after / before per case (geometric mean) {g:.3f}")
    print(f"mappings the same: {same} of {n}")
    sys.exit(1 if failed or same != n else 0)


if __name__ == "__main__":
    main()
