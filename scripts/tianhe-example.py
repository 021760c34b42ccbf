#!/usr/bin/env python3
"""Writes playground-examples/tianhe-npb-stream.json: the paper's Tianhe-1A experiment as a job
stream. Every NPB kernel and class of Table 1 runs four times (A with 4 processes, B with 16, C with
64; duration = the Table 1 baseline), in a random order, while other users' all-to-all jobs keep
the 384-core machine shared. Seeded, so the file is reproducible: python3 scripts/tianhe-example.py
"""
import json
import random
from pathlib import Path

TABLE1 = {  # Zhang & Lin, Table 1 (s): A,4  B,16  C,64
    "EP": (2.332, 2.458, 2.452), "IS": (0.274, 0.440, 1.000), "FT": (1.534, 7.354, 13.300),
    "CG": (0.514, 8.942, 9.218), "MG": (0.680, 1.242, 2.530), "LU": (15.424, 20.956, 28.362),
    "BT": (20.284, 24.704, 25.858), "SP": (18.916, 32.408, 31.888),
}
COMM = {"EP": "none", "IS": "all", "FT": "all"}
REPEATS = 4  # runs of every kernel and class (the paper averaged several runs)
rng = random.Random(7)
npb = [(k, c) for k in TABLE1 for c in range(3)] * REPEATS
rng.shuffle(npb)
jobs, t, users = [], 0.0, 0
for k, c in npb:
    # another user's job arrives now and then, so the machine stays shared
    if rng.random() < 0.6:
        users += 1
        t += rng.uniform(0.5, 6.0)
        jobs.append({"name": f"user{users}", "tasks": rng.choice([12, 24, 36, 48, 60, 96]),
                     "comm": "all", "arrival": round(t, 3),
                     "duration": round(rng.uniform(20.0, 90.0), 3)})
    t += rng.uniform(0.5, 6.0)
    cls = "ABC"[c]
    jobs.append({"name": f"{k}.{cls}.{(4, 16, 64)[c]}", "tasks": (4, 16, 64)[c],
                 "comm": COMM.get(k, "neighbor"), "kernel": f"{k}.{cls}",
                 "arrival": round(t, 3), "duration": TABLE1[k][c]})
doc = {
    "version": 1, "engine": "allocation", "name": "Tianhe-1A subsystem, NPB stream",
    "description": (
        "The paper's testbed: a tree of 2 NRMs x 2 R modules x 8 nodes, 12 cores per node (384 "
        "cores). Every NPB 3.3 kernel of Table 1 runs four times, as 4 (class A), 16 (B) and 64 (C) "
        "processes, while other users' all-to-all jobs share the machine; durations are Table 1's "
        "baseline times. With contention on, every running job's traffic (the kernel's profile: "
        "EP none, IS/FT all-to-all, CG/MG/LU/BT/SP neighbours and reductions) goes through the "
        "network simulator with everyone else's, and its run time stretches by its slowdown. "
        "Sequential takes the lowest free nodes and lets jobs share R-module links; closed-min "
        "keeps every job in its own subtree."),
    "seed": 7,
    "system": {"kind": "tree", "arities": [2, 2, 8], "coresPerNode": 12},
    "policies": ["sequential", "closed-min-paper", "closed-min-best"],
    "fallback": "wait",
    "contention": {"model": "simgrid-lv08"},
    "workload": {"kind": "stream", "backfill": "none", "jobs": jobs},
}
out = Path(__file__).resolve().parent.parent / "playground-examples" / "tianhe-npb-stream.json"
out.write_text(json.dumps(doc, indent=2) + "\n")
print(f"{out}: {len(jobs)} jobs ({users} other users')")
