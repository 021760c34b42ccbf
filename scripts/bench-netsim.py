#!/usr/bin/env python3
"""placelab's network simulator against SimGrid 3.32, same machine, same run, same scenario.

Usage: scripts/bench-netsim.py [--simgrid-mode actors|direct] [--scattered] [-- placelab netsim flags...]

Default scenario (the issue's benchmark): a 16x16x16 torus3d (4,096 hosts, 125 MB/s, 50 us
links), a 4,096-task wrapped 3D grid job (every task exchanges 1 MB with its 6 neighbours),
identity placement, 5 bulk-synchronous rounds, SimGrid's default network model (LV08).

Installs Debian's python3-simgrid if it is missing and builds `target/release/placelab` if
needed. The job's messages come from `placelab netsim --emit-messages`, so both simulators run
exactly the same traffic. `placelab netsim` simulates one round of a job alone and multiplies
it (docs/engines/netsim.md, "Rounds that repeat"); pass `-- --every-round` to time every round
as SimGrid simulates them (scripts/bench-netsim-fixtures.py runs every fixture scenario).
SimGrid modes:
- actors (default): one actor per task; each round it posts put_async to every neighbour's
  mailbox and get_async on its own, waits for all, then waits on a barrier of all tasks;
- direct: one actor per round posts Comm.sendto_async for every message and waits for all.
--scattered runs the issue's case twice, with the flags given: the compact (identity) placement
and a seeded random one (`--placement random --seed 1`), which makes nearly every flow share
links with every other (SimGrid takes many minutes on it).
Each simulator runs in its own process; the script prints wall time (the simulation alone,
and the whole process with platform building) and peak resident memory (each process's own
VmHWM) of both, and their ratios.
"""
import json
import os
import subprocess
import sys
import tempfile
import time
from simgrid_install import PYTHON, ensure_simgrid

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, "target", "release", "placelab")


def run_measured(cmd):
    """Runs cmd; returns (stdout, wall seconds). Peak memory is reported by the process itself
    (VmHWM): a child's ru_maxrss would include this Python process, copied at fork."""
    t0 = time.perf_counter()
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return out, time.perf_counter() - t0


def peak_rss_mib():
    """This process's peak resident memory (Linux VmHWM, reset at exec), in MiB."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024.0
    return float("nan")


def simgrid_child(path):
    """Runs one SimGrid simulation described by the JSON file `path`; prints a JSON line."""
    from simgrid import Actor, Barrier, Comm, Engine, Mailbox, this_actor
    with open(path) as f:
        task = json.load(f)
    fd, xpath = tempfile.mkstemp(suffix=".xml")
    os.close(fd)
    with open(xpath, "w") as f:
        f.write(task["xml"])
    t0 = time.perf_counter()
    e = Engine(["bench", "--log=root.thres:critical"])
    e.load_platform(xpath)
    os.unlink(xpath)
    hosts = sorted(e.all_hosts, key=lambda h: int(h.name.split("-")[1]))
    msgs, rounds, compute = task["messages"], task["rounds"], task["compute"]
    if task["mode"] == "direct":
        def controller():
            for _ in range(rounds):
                if compute > 0:
                    this_actor.sleep_for(compute)
                comms = [Comm.sendto_async(hosts[s], hosts[d], int(b)) for s, d, b in msgs]
                Comm.wait_all(comms)
        Actor.create("controller", hosts[0], controller)
    else:
        out_of, in_count = {}, {}
        for s, d, b in msgs:
            out_of.setdefault(s, []).append((d, int(b)))
            in_count[d] = in_count.get(d, 0) + 1
        tasks = sorted(set(out_of) | set(in_count))
        barrier = Barrier(len(tasks))

        def worker(h):
            own = Mailbox.by_name(f"m{h}")
            outs = [(Mailbox.by_name(f"m{d}"), b) for d, b in out_of.get(h, [])]
            for _ in range(rounds):
                if compute > 0:
                    this_actor.sleep_for(compute)
                comms = [mb.put_async(None, b) for mb, b in outs]
                # Keep the receive holders alive until the receptions end.
                gets = [own.get_async() for _ in range(in_count.get(h, 0))]
                Comm.wait_all(comms + [g[0] for g in gets])
                barrier.wait()

        for h in tasks:
            Actor.create(f"t{h}", hosts[h], worker, h)
    t1 = time.perf_counter()
    e.run()
    t2 = time.perf_counter()
    print(json.dumps({"simulatedTime": Engine.clock, "runSeconds": t2 - t1,
                      "setupSeconds": t1 - t0, "peakRssMiB": peak_rss_mib()}))


def platform_xml(case_flags):
    """SimGrid's platform for the flags (torus or fat tree, as placelab netsim reads them)."""
    def flag(name, default):
        return case_flags[case_flags.index(name) + 1] if name in case_flags else default
    system = flag("--system", "torus3d")
    bw = float(flag("--bandwidth", "125e6"))
    lat = float(flag("--latency", "50e-6"))
    if system in ("torus3d", "torus2d"):
        dims = flag("--dims", "16,16,16" if system == "torus3d" else "64,64")
        n = 1
        for d in dims.split(","):
            n *= int(d)
        topo, params = "TORUS", dims
    elif system == "fattree":
        params = flag("--tree", "6;4,4,4,4,4,4;1,4,4,4,4,4;1,1,1,1,1,1")
        if "-ary" in params:
            raise SystemExit("[bench] give the tree as SimGrid's 'levels;down;up;parallel'")
        n = 1
        for d in params.split(";")[1].split(","):
            n *= int(d)
        topo = "FAT_TREE"
    else:
        raise SystemExit(f"[bench] SimGrid has no {system} cluster")
    return f"""<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="c" prefix="node-" suffix="" radical="0-{n - 1}" speed="1Gf" bw="{bw}Bps" lat="{lat}s" topology="{topo}" topo_parameters="{params}"/>
</platform>
"""


def main():
    argv = sys.argv[1:]
    if "--scattered" in argv:
        argv.remove("--scattered")
        rest = argv[argv.index("--") + 1:] if "--" in argv else []
        head = argv[:argv.index("--")] if "--" in argv else argv
        for placement in (["--placement", "identity"], ["--placement", "random", "--seed", "1"]):
            print(f"== {' '.join(placement)}", flush=True)
            sys.argv = [sys.argv[0], *head, "--", *rest, *placement]
            main()
        return
    mode = "actors"
    if "--simgrid-mode" in argv:
        i = argv.index("--simgrid-mode")
        mode = argv[i + 1]
        del argv[i:i + 2]
    if argv and argv[0] == "--":
        argv = argv[1:]
    flags = argv
    if not os.path.exists(BIN):
        print("[bench] building target/release/placelab", file=sys.stderr)
        subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    msgs = json.loads(subprocess.run([BIN, "netsim", *flags, "--emit-messages"], check=True,
                                     capture_output=True, text=True).stdout)

    def flag(name, default):
        return flags[flags.index(name) + 1] if name in flags else default
    task = {"xml": platform_xml(flags), "messages": msgs, "mode": mode,
            "rounds": int(flag("--rounds", "5")), "compute": float(flag("--compute", "0"))}
    if flag("--model", "simgrid-lv08") != "simgrid-lv08":
        raise SystemExit("[bench] SimGrid's default model is simgrid-lv08")
    fd, tpath = tempfile.mkstemp(suffix=".json")
    os.close(fd)
    with open(tpath, "w") as f:
        json.dump(task, f)
    print(f"[bench] {len(msgs)} messages a round, SimGrid mode '{mode}'", file=sys.stderr)
    sg_out, sg_wall = run_measured([PYTHON, os.path.abspath(__file__), "--child", tpath])
    os.unlink(tpath)
    sg = json.loads(sg_out.strip().splitlines()[-1])
    pl_out, pl_wall = run_measured([BIN, "netsim", *flags])
    pl = json.loads(pl_out)
    sg_rss, pl_rss = sg["peakRssMiB"], pl["peakRssMiB"]
    diff = (pl["simulatedTime"] - sg["simulatedTime"]) / sg["simulatedTime"]
    print(f"case: {pl['case']}")
    print(f"simulated time  SimGrid {sg['simulatedTime']:.6f} s   placelab "
          f"{pl['simulatedTime']:.6f} s   difference {100 * diff:+.3f} %")
    print(f"simulation wall SimGrid {sg['runSeconds']:.3f} s   placelab "
          f"{pl['wallSeconds']:.3f} s   ratio {sg['runSeconds'] / pl['wallSeconds']:.1f}x")
    print(f"process wall    SimGrid {sg_wall:.3f} s   placelab {pl_wall:.3f} s   "
          f"ratio {sg_wall / pl_wall:.1f}x")
    print(f"peak memory     SimGrid {sg_rss:.1f} MiB   placelab {pl_rss:.1f} MiB   "
          f"ratio {sg_rss / pl_rss:.1f}x")


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        simgrid_child(sys.argv[2])
    else:
        ensure_simgrid("bench")
        main()
