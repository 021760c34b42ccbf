#!/usr/bin/env python3
"""Times reading a 4,096-host SimGrid platform file and routing every host pair with
`placelab netsim --platform FILE --route-all`, against the same torus built from parameters
in the same run (the baseline), natively.

Usage: python3 scripts/bench-simgrid-xml.py [--runs N] [--bin target/release/placelab]

Platforms (written to a temporary directory):
- torus: <cluster topology="TORUS" topo_parameters="16,16,16">, 4,096 hosts (the baseline is
  `--system torus3d --dims 16,16,16`: the same links and routes);
- flat: a FLAT <cluster> of 4,096 hosts with a backbone (routes: private link up, backbone,
  private link down);
- dijkstra: a Dijkstra zone of 4,096 hosts on a 64x64 mesh of explicit routes (every host's
  shortest paths computed at load).
Prints one line per case: medians of build (read + route tables) and routing seconds, and the
ratio of the total against the baseline's. Standard library only.
"""
import argparse
import json
import os
import statistics
import subprocess
import tempfile


def torus_xml():
    return ("<?xml version='1.0'?>\n<platform version=\"4.1\">\n"
            "  <cluster id=\"t\" prefix=\"node-\" suffix=\"\" radical=\"0-4095\" speed=\"1Gf\" "
            "bw=\"125MBps\" lat=\"50us\" topology=\"TORUS\" topo_parameters=\"16,16,16\"/>\n"
            "</platform>\n")


def flat_xml():
    return ("<?xml version='1.0'?>\n<platform version=\"4.1\">\n"
            "  <cluster id=\"f\" prefix=\"node-\" suffix=\"\" radical=\"0-4095\" speed=\"1Gf\" "
            "bw=\"125MBps\" lat=\"50us\" bb_bw=\"10GBps\" bb_lat=\"1us\"/>\n</platform>\n")


def dijkstra_xml(side=64):
    out = ["<?xml version='1.0'?>\n<platform version=\"4.1\">\n",
           "<zone id=\"d\" routing=\"Dijkstra\">\n"]
    for h in range(side * side):
        out.append(f"<host id=\"node-{h}\" speed=\"1Gf\"/>\n")
    for h in range(side * side):
        x, y = h % side, h // side
        for nb, tag in ((h + 1, "x") if x + 1 < side else (None, None),
                        (h + side, "y") if y + 1 < side else (None, None)):
            if nb is None:
                continue
            out.append(f"<link id=\"l{h}{tag}\" bandwidth=\"125MBps\" latency=\"50us\" "
                       f"sharing_policy=\"SPLITDUPLEX\"/>"
                       f"<route src=\"node-{h}\" dst=\"node-{nb}\">"
                       f"<link_ctn id=\"l{h}{tag}\" direction=\"UP\"/></route>\n")
    out.append("</zone>\n</platform>\n")
    return "".join(out)


def run(binary, args):
    out = subprocess.run([binary, "netsim", "--route-all"] + args, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--bin", default=os.path.join(os.path.dirname(__file__), "..", "target",
                                                  "release", "placelab"))
    a = ap.parse_args()
    d = tempfile.mkdtemp()
    files = {}
    for name, text in (("torus", torus_xml()), ("flat", flat_xml()),
                       ("dijkstra", dijkstra_xml())):
        files[name] = os.path.join(d, name + ".xml")
        with open(files[name], "w") as f:
            f.write(text)
    cases = [("baseline: torus3d 16x16x16 from parameters", ["--system", "torus3d", "--dims",
                                                              "16,16,16"])]
    for name in ("torus", "flat", "dijkstra"):
        cases.append((f"{name}.xml ({os.path.getsize(files[name])} bytes)",
                      ["--platform", files[name]]))
    base = None
    for label, args in cases:
        rs = [run(a.bin, args) for _ in range(a.runs)]
        b = statistics.median(r["buildSeconds"] for r in rs)
        w = statistics.median(r["wallSeconds"] for r in rs)
        tot = statistics.median(r["buildSeconds"] + r["wallSeconds"] for r in rs)
        if base is None:
            base = tot
        print(f"{label}: {rs[0]['hosts']} hosts, {rs[0]['routedPairs']} pairs, "
              f"{rs[0]['routeLinks']} route links; build {b:.3f} s, route {w:.3f} s, "
              f"total {tot:.3f} s = {tot / base:.2f}x the baseline")
    for f in files.values():
        os.unlink(f)
    os.rmdir(d)


if __name__ == "__main__":
    main()
