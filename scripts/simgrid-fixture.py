#!/usr/bin/env python3
"""Records SimGrid 3.32's routes and completion times on small platforms, once, as the ground
truth that tests/netsim.rs checks placelab's network simulator against (without SimGrid).

Usage: scripts/simgrid-fixture.py [OUTDIR]   (default tests/fixtures/simgrid)

Installs Debian's python3-simgrid if it is missing (root, apt-get), then writes:
- routes.json: for each platform (SimGrid XML cluster, TORUS or FAT_TREE, 125 MBps, 50 us,
  split-duplex), the name of every link and, for every ordered host pair, the route as indices
  into that list (host i is SimGrid's `node-i`);
- scenarios.json: flow scenarios (single flows, shared links, opposite flows, GRID / STAR /
  all-to-all jobs under compact, row-major and random placements, multi-round jobs) with the
  completion time SimGrid's default model (LV08) gives every flow or job, with its default
  lazy update (`finish`, `job_end`) and with `network/optim:Full` (`finish_full`,
  `job_end_full`).

Scenario flows are listed explicitly (hosts, bytes, start), so the test needs no generator.
Random placements use Python's random.Random(seed), recorded only through their flows.
"""
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from simgrid_install import PYTHON, ensure_simgrid

BW = "125MBps"
LAT = "50us"


def platform_xml(kind, params, hosts):
    return f"""<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="c" prefix="node-" suffix="" radical="0-{hosts - 1}" speed="1Gf" bw="{BW}" lat="{LAT}" topology="{kind}" topo_parameters="{params}"/>
</platform>
"""


def hosts_of(kind, params):
    if kind == "TORUS":
        n = 1
        for d in params.split(","):
            n *= int(d)
        return n
    down = params.split(";")[1].split(",")
    n = 1
    for d in down:
        n *= int(d)
    return n


def child(task):
    """Runs one SimGrid simulation in a fresh process (an Engine is one per process)."""
    fd, path = tempfile.mkstemp(suffix=".json")
    os.close(fd)
    with open(path, "w") as f:
        json.dump(task, f)
    out = subprocess.run([PYTHON, __file__, "--child", path], check=True,
                         capture_output=True, text=True).stdout
    os.unlink(path)
    return json.loads(out.strip().splitlines()[-1])


def run_child(path):
    from simgrid import Actor, Comm, Engine, this_actor
    with open(path) as f:
        task = json.load(f)
    xml = platform_xml(task["kind"], task["params"], task["hosts"])
    fd, xpath = tempfile.mkstemp(suffix=".xml")
    os.close(fd)
    with open(xpath, "w") as f:
        f.write(xml)
    e = Engine(["fixture", "--log=root.thres:critical"] + task.get("cfg", []))
    e.load_platform(xpath)
    os.unlink(xpath)
    hs = sorted(e.all_hosts, key=lambda h: int(h.name.split("-")[1]))
    if task["what"] == "routes":
        names, index, routes = [], {}, []
        for s in hs:
            row = []
            for d in hs:
                links, _lat = s.route_to(d)
                r = []
                for link in links:
                    if link.name not in index:
                        index[link.name] = len(names)
                        names.append(link.name)
                    r.append(index[link.name])
                row.append(r)
            routes.append(row)
        print(json.dumps({"links": names, "routes": routes}))
        return
    if task["what"] == "flows":
        finish = [None] * len(task["flows"])

        def one(i, s, d, b, t):
            if t > 0:
                this_actor.sleep_for(t)
            Comm.sendto_async(hs[s], hs[d], b).wait()
            finish[i] = Engine.clock

        for i, (s, d, b, t) in enumerate(task["flows"]):
            Actor.create(f"f{i}", hs[s], one, i, s, d, b, t)
        e.run()
        print(json.dumps({"finish": finish}))
        return
    if task["what"] == "rounds":
        ends = [None] * len(task["jobs"])

        def job(j, spec):
            if spec["start"] > 0:
                this_actor.sleep_for(spec["start"])
            for _ in range(spec["rounds"]):
                if spec["compute"] > 0:
                    this_actor.sleep_for(spec["compute"])
                comms = [Comm.sendto_async(hs[s], hs[d], b) for s, d, b in spec["messages"]]
                Comm.wait_all(comms)
            ends[j] = Engine.clock

        for j, spec in enumerate(task["jobs"]):
            Actor.create(f"job{j}", hs[0], job, j, spec)
        e.run()
        print(json.dumps({"job_end": ends}))
        return
    raise SystemExit("unknown task")


# ---------------------------------------------------------------- platforms and scenarios

ROUTE_PLATFORMS = [
    ("TORUS", "4,3"),
    ("TORUS", "5,4"),
    ("TORUS", "6,1"),
    ("TORUS", "2,3,2"),
    ("TORUS", "4,4,4"),
    ("TORUS", "3,2,5"),
    ("FAT_TREE", "2;4,4;1,4;1,1"),
    ("FAT_TREE", "2;4,4;1,2;1,2"),
    ("FAT_TREE", "3;2,3,2;1,2,3;2,1,2"),
    ("FAT_TREE", "3;4,4,4;1,2,2;1,1,1"),
    ("FAT_TREE", "3;2,2,2;1,2,2;1,2,1"),
]

SIM_PLATFORMS = {
    "torus3d-4x4x4": ("TORUS", "4,4,4"),
    "torus2d-8x8": ("TORUS", "8,8"),
    "fattree-4ary3": ("FAT_TREE", "3;4,4,4;1,4,4;1,1,1"),
    "thintree-4:2ary3": ("FAT_TREE", "3;4,4,4;1,2,2;1,1,1"),
    "fattree-parallel": ("FAT_TREE", "2;8,8;1,4;1,2"),
}

MB = 1_000_000
# SimGrid's default network model (LV08) solved at every event over the whole system, instead
# of its default lazy, selective update (which skips some constraints of flows that start
# sending in the same instant; see docs/format.md, "Network simulator").
FULL = ["--cfg=network/optim:Full"]


def coords(kind, params, h):
    dims = [int(x) for x in params.split(",")]
    c = []
    for d in dims:
        c.append(h % d)
        h //= d
    return c


def morton_order(kind, params, n):
    """Hosts in Z-order of their coordinates (compact blocks); trees: host order."""
    if kind != "TORUS":
        return list(range(n))

    def code(h):
        c = coords(kind, params, h)
        m = 0
        for bit in range(10):
            for k, x in enumerate(c):
                m |= ((x >> bit) & 1) << (bit * len(c) + k)
        return m
    return sorted(range(n), key=lambda h: (code(h), h))


def placements(kind, params, n, p, seed):
    row = list(range(p))
    compact = morton_order(kind, params, n)[:p]
    if kind != "TORUS":
        # On trees row-major is compact; spread the tasks instead (every (n // p)-th host).
        row = [i * (n // p) for i in range(p)]
    rnd = random.Random(seed).sample(range(n), p)
    return {"compact": compact, "row-major": row, "random": rnd}


def grid_edges(p):
    side = int(p ** 0.5)
    while p % side:
        side -= 1
    w, h = side, p // side
    out = []
    for t in range(p):
        x, y = t % w, t // w
        for nx, ny in (((x + 1) % w, y), ((x - 1) % w, y), (x, (y + 1) % h), (x, (y - 1) % h)):
            u = ny * w + nx
            if u != t:
                out.append((t, u))
    return sorted(set(out))


def star_edges(p):
    return [(t, 0) for t in range(1, p)]


def all_edges(p):
    return [(a, b) for a in range(p) for b in range(p) if a != b]


def scenarios():
    out = []

    def add(family, platform, name, flows):
        out.append({"family": family, "platform": platform, "name": name,
                    "flows": [[s, d, b, t] for s, d, b, t in flows]})

    t3 = "torus3d-4x4x4"
    # Single flows: 1 to 6 hops, 1 MB and 1 B.
    for d in (1, 2, 5, 10, 42):
        for b in (MB, 1):
            add("single", t3, f"0->{d} {b} B", [(0, d, b, 0.0)])
    for plat, pairs in (("fattree-4ary3", [(0, 1), (0, 5), (0, 63)]),
                        ("thintree-4:2ary3", [(0, 1), (3, 20), (7, 60)]),
                        ("fattree-parallel", [(0, 1), (0, 9), (5, 63)])):
        for s, d in pairs:
            add("single", plat, f"{s}->{d}", [(s, d, MB, 0.0)])
    # Shared links: flows of different lengths into one link, staggered starts.
    add("shared", t3, "two into one link", [(0, 2, MB, 0.0), (1, 2, MB, 0.0)])
    add("shared", t3, "three of 1,2,3 hops", [(0, 3, MB, 0.0), (1, 3, MB, 0.0), (2, 3, MB, 0.0)])
    add("shared", t3, "staggered starts", [(0, 2, MB, 0.0), (1, 2, 2 * MB, 0.002),
                                            (0, 1, MB, 0.004)])
    add("shared", t3, "unequal sizes", [(0, 1, MB, 0.0), (0, 1, 3 * MB, 0.0), (0, 2, 2 * MB, 0.0)])
    add("shared", "fattree-4ary3", "leaf uplink shared", [(0, 16, MB, 0.0), (1, 32, MB, 0.0),
                                                          (2, 48, MB, 0.0), (3, 20, MB, 0.0)])
    add("shared", "thintree-4:2ary3", "thin uplinks", [(s, 63 - s, MB, 0.0) for s in range(8)])
    add("shared", "fattree-parallel", "parallel links", [(s, 63 - s, MB, 0.0) for s in range(8)])
    # Opposite flows.
    add("opposite", t3, "one hop both ways", [(0, 1, MB, 0.0), (1, 0, MB, 0.0)])
    add("opposite", t3, "three hops both ways", [(0, 21, MB, 0.0), (21, 0, MB, 0.0)])
    add("opposite", t3, "crossing pairs", [(0, 2, MB, 0.0), (2, 0, MB, 0.0), (1, 3, MB, 0.0),
                                           (3, 1, MB, 0.0)])
    add("opposite", "fattree-4ary3", "across the root", [(0, 63, MB, 0.0), (63, 0, MB, 0.0)])
    add("opposite", "thintree-4:2ary3", "across the root", [(0, 63, MB, 0.0), (63, 0, MB, 0.0),
                                                            (1, 62, MB, 0.0), (62, 1, MB, 0.0)])
    # Jobs: one round of every message at once.
    for plat, p in ((t3, 16), ("torus2d-8x8", 16), ("fattree-4ary3", 16),
                    ("thintree-4:2ary3", 16), ("fattree-parallel", 16)):
        kind, params = SIM_PLATFORMS[plat]
        n = hosts_of(kind, params)
        for job, edges in (("GRID", grid_edges(p)), ("STAR", star_edges(p)),
                           ("all-to-all", all_edges(p))):
            for pname, nodes in placements(kind, params, n, p, seed=7).items():
                for b in (MB, 1):
                    flows = [(nodes[a], nodes[c], b, 0.0) for a, c in edges]
                    add(job, plat, f"{job} {p} {pname} {b} B", flows)
    return out


def round_scenarios():
    out = []
    t3 = "torus3d-4x4x4"
    kind, params = SIM_PLATFORMS[t3]
    pl = placements(kind, params, 64, 16, seed=11)
    g = grid_edges(16)
    job = lambda nodes, compute, rounds, start: {  # noqa: E731
        "messages": [[nodes[a], nodes[c], MB] for a, c in g],
        "compute": compute, "rounds": rounds, "start": start}
    out.append({"family": "rounds", "platform": t3, "name": "GRID 16 random, 3 rounds",
                "jobs": [job(pl["random"], 0.001, 3, 0.0)]})
    out.append({"family": "rounds", "platform": t3, "name": "two GRID jobs sharing the torus",
                "jobs": [job(pl["random"], 0.001, 3, 0.0),
                         job(list(range(16, 32)), 0.0005, 4, 0.0003)]})
    kind, params = SIM_PLATFORMS["thintree-4:2ary3"]
    pl = placements(kind, params, 64, 16, seed=5)
    out.append({"family": "rounds", "platform": "thintree-4:2ary3",
                "name": "GRID spread and random",
                "jobs": [job(pl["row-major"], 0.002, 2, 0.0), job(pl["random"], 0.0, 3, 0.0)]})
    return out


def main():
    outdir = sys.argv[1] if len(sys.argv) > 1 else "tests/fixtures/simgrid"
    os.makedirs(outdir, exist_ok=True)
    import simgrid
    version = simgrid.simgrid_version if hasattr(simgrid, "simgrid_version") else "?"
    routes = []
    for kind, params in ROUTE_PLATFORMS:
        n = hosts_of(kind, params)
        r = child({"what": "routes", "kind": kind, "params": params, "hosts": n})
        routes.append({"kind": kind, "params": params, "hosts": n, **r})
        print(f"[fixture] routes {kind} {params}: {len(r['links'])} links", file=sys.stderr)
    with open(os.path.join(outdir, "routes.json"), "w") as f:
        json.dump({"simgrid": str(version), "bandwidth": 125e6, "latency": 50e-6,
                   "zone": "c", "platforms": routes}, f, separators=(",", ":"))
        f.write("\n")
    sims = []
    for sc in scenarios():
        kind, params = SIM_PLATFORMS[sc["platform"]]
        n = hosts_of(kind, params)
        task = {"what": "flows", "kind": kind, "params": params, "hosts": n,
                "flows": sc["flows"]}
        r = child(task)
        full = child({**task, "cfg": FULL})
        sims.append({**sc, "kind": kind, "params": params, "finish": r["finish"],
                     "finish_full": full["finish"]})
        print(f"[fixture] {sc['family']} {sc['platform']} {sc['name']}: "
              f"{max(r['finish']):.6f} s", file=sys.stderr)
    for sc in round_scenarios():
        kind, params = SIM_PLATFORMS[sc["platform"]]
        n = hosts_of(kind, params)
        task = {"what": "rounds", "kind": kind, "params": params, "hosts": n,
                "jobs": sc["jobs"]}
        r = child(task)
        full = child({**task, "cfg": FULL})
        sims.append({**sc, "kind": kind, "params": params, "job_end": r["job_end"],
                     "job_end_full": full["job_end"]})
        print(f"[fixture] rounds {sc['name']}: {r['job_end']}", file=sys.stderr)
    with open(os.path.join(outdir, "scenarios.json"), "w") as f:
        json.dump({"simgrid": str(version), "model": "LV08 (SimGrid's default)",
                   "full_cfg": FULL,
                   "bandwidth": 125e6, "latency": 50e-6, "scenarios": sims}, f,
                  separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        run_child(sys.argv[2])
    else:
        ensure_simgrid("fixture")
        main()
