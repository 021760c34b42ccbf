#!/usr/bin/env python3
"""placelab netsim against SimGrid 3.32 on every fixture scenario, repeated for many rounds,
same machine, same run, same traffic, each simulation in its own process.

Usage: scripts/bench-netsim-fixtures.py [--rounds R] [--only TEXT] [--simgrid-cfg CFG]...
                                        [--bin PATH]

Scenarios (R rounds each, default 50):
- every scenario of tests/fixtures/simgrid/scenarios.json (scripts/simgrid-fixture.py): the
  flows of a scenario (with their start times) are one round's messages; a rounds scenario
  keeps its jobs' compute and start times, every job running R rounds;
- every scenario of tests/fixtures/simgrid-xml/*.json (scripts/simgrid-xml-fixture.py) on its
  platform file, the same way;
- the scattered GRID: a 256-task wrapped 2D grid, 1 MB messages, randomly placed (seed 1) on a
  16x16 torus2d (the messages come from `placelab netsim --emit-messages`).

A round: the job computes (`compute` s), then sends each message at its start time after
that, and ends when its last message arrives; the next round starts then. SimGrid: one actor
per job posts every message with Comm.sendto_async (sleeping until each start time) and waits
for all; its default configuration unless --simgrid-cfg (e.g. network/optim:Full, the sharing
placelab computes exactly). placelab: `placelab netsim --messages FILE.csv` (one job),
`--jobs FILE.json` (several) or `--job grid` (the scattered GRID).

Prints per scenario: the simulation's wall time in both (SimGrid's Engine.run, placelab's
wallSeconds), the whole process's in both, their ratios, the simulated times' relative
relative difference (ours - SimGrid's) / SimGrid's and whether they agree: `exact` (within 1e-9), `5%` (within 5 %), else `NO`.
Installs Debian's python3-simgrid if it is missing; builds placelab if --bin does not exist.
"""
import glob
import json
import os
import subprocess
import sys
import tempfile
import time
from simgrid_install import PYTHON, ensure_simgrid

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIX = os.path.join(ROOT, "tests", "fixtures")


def simgrid_child(path):
    """One SimGrid run of the task in JSON file `path`; prints a JSON line."""
    from simgrid import Actor, Comm, Engine, this_actor
    with open(path) as f:
        task = json.load(f)
    t0 = time.perf_counter()
    e = Engine(["bench", "--log=root.thres:critical"] + [f"--cfg={c}" for c in task["cfg"]])
    e.load_platform(task["platform"])
    by_name = {h.name: h for h in e.all_hosts}
    ends = [None] * len(task["jobs"])

    def job(j, spec):
        # Messages grouped by start time (s after the round's compute).
        groups = {}
        for s, d, b, t in spec["messages"]:
            groups.setdefault(t, []).append((by_name[s], by_name[d], int(b)))
        order = sorted(groups)
        if spec["start"] > 0:
            this_actor.sleep_for(spec["start"])
        for _ in range(spec["rounds"]):
            if spec["compute"] > 0:
                this_actor.sleep_for(spec["compute"])
            t0 = Engine.clock
            comms = []
            for t in order:
                if t > 0:
                    this_actor.sleep_until(t0 + t)
                comms += [Comm.sendto_async(s, d, b) for s, d, b in groups[t]]
            Comm.wait_all(comms)
        ends[j] = Engine.clock

    first = next(iter(by_name.values()))
    for j, spec in enumerate(task["jobs"]):
        Actor.create(f"job{j}", first, job, j, spec)
    t1 = time.perf_counter()
    e.run()
    t2 = time.perf_counter()
    print(json.dumps({"simulatedTime": max(ends), "runSeconds": t2 - t1,
                      "setupSeconds": t1 - t0}))


def cluster_xml(kind, params):
    n = 1
    for d in (params.split(",") if kind == "TORUS" else params.split(";")[1].split(",")):
        n *= int(d)
    return f"""<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="c" prefix="node-" suffix="" radical="0-{n - 1}" speed="1Gf" bw="125MBps" lat="50us" topology="{kind}" topo_parameters="{params}"/>
</platform>
"""


def system_flags(kind, params):
    if kind == "TORUS":
        d = params.split(",")
        return ["--system", {2: "torus2d", 3: "torus3d"}.get(len(d), "torus"), "--dims", params]
    return ["--system", "fattree", "--tree", params]


def scenarios(rounds, tmp, binary):
    """(name, placelab flags, SimGrid platform file, jobs with host names)."""
    out = []
    with open(os.path.join(FIX, "simgrid", "scenarios.json")) as f:
        fx = json.load(f)
    written = {}
    for sc in fx["scenarios"]:
        key = (sc["kind"], sc["params"])
        if key not in written:
            path = os.path.join(tmp, f"cluster{len(written)}.xml")
            with open(path, "w") as f:
                f.write(cluster_xml(*key))
            written[key] = path
        name = f"{sc['platform']}: {sc['family']} {sc['name']}"
        node = "node-{}".format
        if "flows" in sc:
            jobs = [{"messages": [[node(s), node(d), b, t] for s, d, b, t in sc["flows"]],
                     "compute": 0.0, "start": 0.0}]
        else:
            jobs = [{"messages": [[node(s), node(d), b, 0.0] for s, d, b in j["messages"]],
                     "compute": j["compute"], "start": j["start"]} for j in sc["jobs"]]
        out.append((name, system_flags(*key), written[key], jobs))
    for js in sorted(glob.glob(os.path.join(FIX, "simgrid-xml", "*.json"))):
        with open(js) as f:
            fx = json.load(f)
        xml = js[:-5] + ".xml"
        for sc in fx["scenarios"]:
            jobs = [{"messages": sc["flows"], "compute": 0.0, "start": 0.0}]
            out.append((f"{fx['platform']}: {sc['name']}", ["--platform", xml], xml, jobs))
    grid = ["--system", "torus2d", "--dims", "16,16", "--job", "grid", "--tasks", "256",
            "--placement", "random", "--seed", "1"]
    msgs = json.loads(subprocess.run([binary, "netsim", *grid, "--emit-messages"], check=True,
                                     capture_output=True, text=True).stdout)
    path = os.path.join(tmp, "torus16x16.xml")
    with open(path, "w") as f:
        f.write(cluster_xml("TORUS", "16,16"))
    jobs = [{"messages": [[f"node-{s}", f"node-{d}", b, 0.0] for s, d, b in msgs],
             "compute": 0.0, "start": 0.0}]
    out.append(("torus2d 16x16: GRID 256 scattered (random, seed 1), 1 MB", grid, path, jobs))
    for _, _, _, jobs in out:
        for j in jobs:
            j["rounds"] = rounds
    return out


def placelab_args(flags, jobs, names, tmp, rounds):
    """The placelab netsim command for `jobs` (host names) on the platform of `flags`."""
    if "--job" in flags:
        return [*flags, "--rounds", str(rounds)]
    index = {n: i for i, n in enumerate(names)}
    if len(jobs) == 1 and jobs[0]["start"] == 0.0:
        path = os.path.join(tmp, "messages.csv")
        with open(path, "w") as f:
            f.write("src,dst,bytes,start\n")
            for s, d, b, t in jobs[0]["messages"]:
                f.write(f"{index[s]},{index[d]},{b!r},{t!r}\n")
        # Tasks are hosts: task i on host i.
        return [*flags, "--messages", path, "--compute", repr(jobs[0]["compute"]),
                "--rounds", str(rounds)]
    path = os.path.join(tmp, "jobs.json")
    with open(path, "w") as f:
        json.dump([{"messages": [[index[s], index[d], b] for s, d, b, t in j["messages"]],
                    "compute": j["compute"], "rounds": j["rounds"], "start": j["start"]}
                   for j in jobs], f)
    return [*flags, "--jobs", path]


def timed(cmd):
    t0 = time.perf_counter()
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1]), time.perf_counter() - t0


def main():
    argv = sys.argv[1:]
    rounds, only, cfg = 50, None, []
    binary = os.path.join(os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target")),
                          "release", "placelab")
    while argv:
        a = argv.pop(0)
        if a == "--rounds":
            rounds = int(argv.pop(0))
        elif a == "--only":
            only = argv.pop(0)
        elif a == "--simgrid-cfg":
            cfg.append(argv.pop(0))
        elif a == "--bin":
            binary = argv.pop(0)
        else:
            raise SystemExit(f"[bench] unknown argument {a}\n{__doc__}")
    if not os.path.exists(binary):
        print("[bench] building placelab", file=sys.stderr)
        subprocess.run(["cargo", "build", "--release", "--quiet", "--bin", "placelab"],
                       cwd=ROOT, check=True)
    tmp = tempfile.mkdtemp(prefix="bench-netsim-fixtures-")
    rows = []
    print(f"{rounds} rounds; SimGrid 3.32 cfg {cfg or 'default'}; placelab {binary}")
    print(f"{'scenario':<62} {'msgs':>5} {'SimGrid sim':>11} {'ours sim':>10} {'ratio':>8} "
          f"{'SimGrid proc':>12} {'ours proc':>9} {'ratio':>7} {'simulated (s)':>13} "
          f"{'rel diff':>9} agree")
    for name, flags, platform, jobs in scenarios(rounds, tmp, binary):
        if only and only not in name:
            continue
        names = json.loads(subprocess.run([binary, "netsim", *flags, "--list-hosts"],
                                          check=True, capture_output=True, text=True).stdout)
        task_path = os.path.join(tmp, "task.json")
        with open(task_path, "w") as f:
            json.dump({"platform": platform, "jobs": jobs, "cfg": cfg}, f)
        sg, sg_wall = timed([PYTHON, os.path.abspath(__file__), "--child", task_path])
        pl, pl_wall = timed([binary, "netsim",
                             *placelab_args(flags, jobs, names, tmp, rounds)])
        a, b = pl["simulatedTime"], sg["simulatedTime"]
        diff = (a - b) / b if b else (0.0 if a == b else float("inf"))
        agree = "exact" if abs(diff) <= 1e-9 else "5%" if abs(diff) <= 0.05 else "NO"
        sim_ratio = sg["runSeconds"] / max(pl["wallSeconds"], 1e-9)
        proc_ratio = sg_wall / pl_wall
        msgs = sum(len(j["messages"]) for j in jobs)
        rows.append((name, sim_ratio, proc_ratio, agree, sg["runSeconds"], pl["wallSeconds"]))
        print(f"{name[:62]:<62} {msgs:>5} {sg['runSeconds']:>10.4f}s {pl['wallSeconds']:>9.5f}s "
              f"{sim_ratio:>7.0f}x {sg_wall:>11.3f}s {pl_wall:>8.4f}s {proc_ratio:>6.0f}x "
              f"{b:>13.6f} {diff:>+9.1e} {agree}", flush=True)
    if not rows:
        raise SystemExit("[bench] no scenario matched")
    worst_sim = min(rows, key=lambda r: r[1])
    worst_proc = min(rows, key=lambda r: r[2])
    count = {k: sum(r[3] == k for r in rows) for k in ("exact", "5%", "NO")}
    print(f"{len(rows)} scenarios; simulated times: {count['exact']} exact (1e-9), "
          f"{count['5%']} within 5 %, {count['NO']} beyond")
    print(f"smallest ratio, simulation: {worst_sim[1]:.0f}x ({worst_sim[0]}); whole process: "
          f"{worst_proc[2]:.0f}x ({worst_proc[0]})")
    print(f"total simulation wall: SimGrid {sum(r[4] for r in rows):.2f} s, placelab "
          f"{sum(r[5] for r in rows):.3f} s")


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        simgrid_child(sys.argv[2])
    else:
        ensure_simgrid("bench")
        main()
