#!/usr/bin/env python3
"""Records SimGrid SMPI's ping-pong under size-dependent latency and bandwidth factors
(--cfg=smpi/lat-factor, --cfg=smpi/bw-factor), the ground truth of the trace engine's `latFactor`
and `bwFactor` (tests/trace_factors.rs).

Usage: scripts/smpi-factors-fixture.py [OUTDIR]   (default tests/fixtures/smpi/factors)

Compiles scripts/smpi/pingpong.c with smpicc (installing Debian's libsimgrid-dev with apt-get
when smpicc is missing, as scripts/smpi-fixture.py does) and runs it between h0 and h1 of
scripts/smpi/homogeneous.xml (one 100 MB/s, 20 us link) at sizes on both sides of each
breakpoint, every send a rendezvous (--cfg=smpi/send-is-detached-thresh:0) and without
cross-traffic (--cfg=network/crosstraffic:0: by default SimGrid also sends 5 % of every message
back over the same shared link), once with the factors (FACTORS below) and once with factors of
1. Writes pingpong.csv (`bytes,seconds,seconds_unit`: half the mean round trip with the factors
and with factors of 1) and factors.json (the factor strings, the link's latency and bandwidth,
SimGrid's version). Standard library only.
"""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SRC = os.path.join(ROOT, "scripts", "smpi")
FACTORS = {"latFactor": "0:1.5;4096:3", "bwFactor": "0:0.8;8192:0.4;65536:0.9"}
# Sizes away from the breakpoints by more than SMPI's own per-message bytes (about 16: SimGrid
# 3.32 looks the factors up, and sends, a little more than the payload), on both sides of each.
SIZES = [0, 100, 1000, 3000, 3900, 4400, 6000, 7900, 8600, 20000, 60000, 65000, 70000, 200000,
         1000000]
CFG = ["--cfg=smpi/simulate-computation:no", "--log=root.thresh:warning",
       "--cfg=smpi/send-is-detached-thresh:0", "--cfg=network/crosstraffic:0"]


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "tests", "fixtures", "smpi", "factors")
    import importlib.util
    spec = importlib.util.spec_from_file_location("smpi_fixture", os.path.join(ROOT, "scripts", "smpi-fixture.py"))
    base = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(base)
    base.ensure_smpi()
    os.makedirs(out, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        base.run(["smpicc", "-O2", "-o", os.path.join(tmp, "pingpong"), os.path.join(SRC, "pingpong.c")], tmp)
        hostfile = os.path.join(tmp, "hostfile")
        with open(hostfile, "w") as f:
            f.write("h0\nh1\n")

        def pingpong(factors):
            cfg = [f"--cfg=smpi/lat-factor:{factors['latFactor']}", f"--cfg=smpi/bw-factor:{factors['bwFactor']}"]
            text = base.run(["smpirun", "-np", "2", "-platform", os.path.join(SRC, "homogeneous.xml"),
                             "-hostfile", hostfile, *CFG, *cfg, os.path.join(tmp, "pingpong"), "3",
                             *map(str, SIZES)], tmp)
            rows = {}
            for line in text.splitlines():
                f = line.split()
                if len(f) == 2 and f[0].isdigit():
                    rows[int(f[0])] = f[1]
            return rows

        with_f = pingpong(FACTORS)
        unit = pingpong({"latFactor": "0:1", "bwFactor": "0:1"})
    with open(os.path.join(out, "pingpong.csv"), "w") as f:
        f.write("bytes,seconds,seconds_unit\n")
        for n in SIZES:
            f.write(f"{n},{with_f[n]},{unit[n]}\n")
    version = subprocess.run(["smpirun", "-version"], capture_output=True, text=True)
    meta = dict(FACTORS, latency=20e-6, bandwidth=100e6, cfg=CFG,
                simgrid=(version.stdout or version.stderr).strip().splitlines()[0])
    with open(os.path.join(out, "factors.json"), "w") as f:
        json.dump(meta, f, indent=1)
        f.write("\n")
    print(f"[smpi-factors-fixture] wrote {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
