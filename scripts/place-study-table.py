#!/usr/bin/env python3
"""The tables of docs/studies.md ("Placement at the source's full size") from a placement study's
tidy.csv (placelab study FILE -o DIR writes DIR/tidy.csv; the study's metrics must include
report.cases[*].runs[*].ratio and .sourceRatio).

Per job kind, each strategy's cell is the mean of its ratio (time over Advanced's in the same
point) over the points whose simulations finished; "(n of m)" follows the mean when some did
not, "–" when none did (or the strategy placed nothing). The source's figures are the points'
sourceRatio (the same for every point of a kind).

Usage: scripts/place-study-table.py DIR/tidy.csv [--label "1 MB"] [--check-mapped]
--check-mapped: also print, per point, whether Mapped (ours) is at most every other finished
strategy's time but Random's (what docs/studies.md states), and exit 1 if not.
"""
import csv
import sys
from collections import defaultdict

COLS = ["simple", "random", "optimal", "identity", "mapped"]
SOURCE = ["simple", "random", "optimal"]


def main(argv):
    if not argv or argv[0].startswith("-"):
        print(__doc__, file=sys.stderr)
        return 2
    path, label, check = argv[0], None, "--check-mapped" in argv
    if "--label" in argv:
        label = argv[argv.index("--label") + 1]
    rows = list(csv.DictReader(open(path, newline="")))
    ratio = next(c for c in rows[0] if c.endswith(".ratio"))
    source = next(c for c in rows[0] if c.endswith(".sourceRatio"))
    time = next(c for c in rows[0] if c.endswith(".time"))
    points = defaultdict(set)
    cells = defaultdict(list)
    src = {}
    kinds = []
    by_point = defaultdict(dict)
    for r in rows:
        kind = r["job.kind"]
        if kind not in kinds:
            kinds.append(kind)
        points[kind].add(r["point"] + "/" + r["replicate"])
        st = r["runs"]
        if r[ratio] not in ("", "null"):
            cells[(kind, st)].append(float(r[ratio]))
        if r[source] not in ("", "null"):
            src[(kind, st)] = float(r[source])
        if r[time] not in ("", "null"):
            by_point[(r["point"], r["replicate"], kind, r["job.processes"])][st] = float(r[time])
    head = "| job |" + (" message |" if label else "") + " Simple | Random | Optimal | Identity | Mapped | source: Simple / Random / Optimal |"
    print(head)
    print("|" + "---|" * (head.count("|") - 1))
    for kind in kinds:
        n = len(points[kind])
        out = []
        for st in COLS:
            v = cells.get((kind, st), [])
            if not v:
                out.append("–")
            elif len(v) < n:
                out.append(f"{sum(v) / len(v):.3f} ({len(v)} of {n})")
            else:
                out.append(f"{sum(v) / len(v):.3f}")
        s = " / ".join(f"{src[(kind, st)]:g}" if (kind, st) in src else "–" for st in SOURCE)
        msg = f" {label} |" if label else ""
        print(f"| {kind} |{msg} " + " | ".join(out) + f" | {s} |")
    if check:
        bad = 0
        for key, t in sorted(by_point.items()):
            if "mapped" not in t:
                print(f"point {key}: Mapped has no time", file=sys.stderr)
                bad += 1
                continue
            worse = [st for st, x in t.items() if st not in ("mapped", "random") and x < t["mapped"]]
            if worse:
                print(f"point {key}: Mapped {t['mapped']} slower than {worse}", file=sys.stderr)
                bad += 1
        print(f"Mapped at most every finished strategy's time but Random's in {len(by_point) - bad} of {len(by_point)} points", file=sys.stderr)
        return 1 if bad else 0
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
