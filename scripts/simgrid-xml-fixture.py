#!/usr/bin/env python3
"""Records what SimGrid 3.32 makes of SimGrid platform files, as the ground truth that
tests/simgrid_xml.rs checks placelab's importer against (without SimGrid).

Usage: scripts/simgrid-xml-fixture.py [DIR]   (default tests/fixtures/simgrid-xml)

For every DIR/NAME.xml, writes DIR/NAME.json:
- hosts: host names, sorted;
- routes: for every ordered host pair (by those names), the names of the links of SimGrid's
  route (Host.route_to after the platform is sealed by an empty Engine.run());
- scenarios: a few traffic sets (one flow, the same pair twice, staggered starts, a shift
  permutation), each flow as [src, dst, bytes, start] by host name, with the completion time
  SimGrid's default model (LV08) gives every flow under network/optim:Full (`finish`).

Installs Debian's python3-simgrid if it is missing (root, apt-get). Standard library only.
"""
import glob
import json
import os
import subprocess
import sys
import tempfile
from simgrid_install import PYTHON, ensure_simgrid

MB = 1_000_000


def child(task):
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
    e = Engine(["fixture", "--log=root.thres:critical", "--cfg=network/optim:Full"])
    e.load_platform(task["platform"])
    by_name = {h.name: h for h in e.all_hosts}
    if task["what"] == "routes":
        e.run()  # seals the platform: routes across zones need it
        names = sorted(by_name)
        routes = []
        for s in names:
            for d in names:
                links, _lat = by_name[s].route_to(by_name[d])
                routes.append([s, d, [link.name for link in links]])
        print(json.dumps({"hosts": names, "routes": routes}))
        return
    finish = [None] * len(task["flows"])

    def one(i, s, d, b, t):
        if t > 0:
            this_actor.sleep_for(t)
        Comm.sendto_async(by_name[s], by_name[d], b).wait()
        finish[i] = Engine.clock

    for i, (s, d, b, t) in enumerate(task["flows"]):
        Actor.create(f"f{i}", by_name[s], one, i, s, d, b, t)
    e.run()
    print(json.dumps({"finish": finish}))


def scenarios(hosts, routes):
    """Traffic between host pairs that have a route (SimGrid aborts on an empty one)."""
    ok = {(s, d) for s, d, links in routes if links and s != d}
    n = len(hosts)
    a, z = hosts[0], hosts[-1]
    if (a, z) not in ok or (z, a) not in ok:
        a, z = min(p for p in ok if (p[1], p[0]) in ok)
    b = next((h for h in hosts if h != a and (h, z) in ok), a)
    out = [
        ("one flow", [(a, z, MB, 0.0)]),
        ("small flow", [(b, z, 1000, 0.0)]),
        ("same pair twice", [(a, z, MB, 0.0), (a, z, MB, 0.0)]),
        ("staggered", [(a, z, MB, 0.0), (b, z, 2 * MB, 0.001), (z, a, MB, 0.002)]),
    ]
    k = min(n, 16)
    shift = [(hosts[i], hosts[(i + n // 2) % n], MB, 0.0) for i in range(k)
             if (hosts[i], hosts[(i + n // 2) % n]) in ok]
    out.append(("shift", shift))
    return out


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "--child":
        run_child(sys.argv[2])
        return
    ensure_simgrid("simgrid-xml-fixture")
    here = os.path.dirname(os.path.abspath(__file__))
    d = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "tests", "fixtures",
                                                           "simgrid-xml")
    for xml in sorted(glob.glob(os.path.join(d, "*.xml"))):
        xml = os.path.abspath(xml)
        r = child({"what": "routes", "platform": xml})
        scen = []
        for name, flows in scenarios(r["hosts"], r["routes"]):
            flows = [[s, t, by, st] for s, t, by, st in flows]
            f = child({"what": "flows", "platform": xml, "flows": flows})
            scen.append({"name": name, "flows": flows, "finish": f["finish"]})
        out = {"platform": os.path.basename(xml), "simgrid": "3.32", "model": "LV08, optim:Full",
               "hosts": r["hosts"], "routes": r["routes"], "scenarios": scen}
        with open(xml[:-4] + ".json", "w") as f:
            json.dump(out, f, indent=None, separators=(",", ":"))
            f.write("\n")
        print(f"{os.path.basename(xml)}: {len(r['hosts'])} hosts, {len(scen)} scenarios")


if __name__ == "__main__":
    main()
