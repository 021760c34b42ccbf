#!/usr/bin/env python3
"""Records the SimGrid SMPI ground truth of the trace-prediction engine (tests/trace_smpi.rs).

Usage: scripts/smpi-fixture.py [OUTDIR]   (default tests/fixtures/smpi)

Installs Debian's libsimgrid-dev (smpicc, smpirun) with apt-get when smpicc is missing, then:
1. compiles scripts/smpi/lu.c and scripts/smpi/pingpong.c with smpicc;
2. records the LU's time-independent trace once on the homogeneous platform
   (scripts/smpi/homogeneous.xml), one file per rank: lu-block/rank-R.txt (block rows) and
   lu-cyclic5/rank-R.txt (block-cyclic rows, width 5), each R from 0;
3. measures every ordered host pair of the heterogeneous platform (scripts/smpi/heterogeneous.xml)
   with the ping-pong: samples.csv, `src,dst,bytes,seconds` (half the mean round trip);
4. runs the LU on the heterogeneous platform under all 24 rank-to-host assignments (the hostfile
   lists the hosts in rank order), twice: every MPI_Send a rendezvous
   (--cfg=smpi/send-is-detached-thresh:0: the send waits for its receive, the engine's blocking
   semantics) into lu-*/measured.csv, and SMPI's default (eager below 64 KiB) into
   lu-*/measured-eager.csv; `assignment,time`: the hosts of ranks 0..3 separated by spaces, and
   the simulated time of the last rank to finish (seconds);
5. writes hosts.csv (`host,speed_flops,ratio`, ratio = recording speed / speed), links.csv (each
   pair's link as declared), version.txt (smpirun -version) and, for each program,
   lu-*/scenario.json (the engine's scenario built from all of the above with the rendezvous
   times, see build_scenario; the test swaps in the eager CSV), also as
   playground-examples/trace-smpi-lu.json and trace-smpi-lu-cyclic.json; the block LU also as
   playground-examples/trace-smpi-lu-platform.json, its nodes and links read from
   heterogeneous.xml itself (the scenario's "simgrid", see platform_scenario);
6. runs the block LU on scripts/smpi/two-clusters.xml (two clusters joined by a WAN link, two
   cores on each west host) under every assignment of its 4 ranks within the hosts' cores, both
   send protocols, into two-clusters/measured.csv and measured-eager.csv (tests/trace_simgrid.rs
   reads the file as the engine's platform).

Every SimGrid run uses --cfg=smpi/simulate-computation:no: the LU declares its computation with
smpi_execute_flops, so no time measured on this machine enters the simulation and a re-run writes
the same bytes. Standard library only.
"""
import itertools
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SRC = os.path.join(ROOT, "scripts", "smpi")
HOSTS = ["h0", "h1", "h2", "h3"]
# Host speeds and links as declared in heterogeneous.xml (checked against the file below).
SPEEDS = {"h0": 100e6, "h1": 80e6, "h2": 50e6, "h3": 25e6}
RECORD_SPEED = 100e6  # every host of homogeneous.xml
N = 256  # matrix order of the LU
PROGRAMS = [("lu-block", 0), ("lu-cyclic5", 5)]  # (folder, WIDTH argument of lu.c)
# The playground's copies of the rendezvous scenarios (written when OUTDIR is the default).
EXAMPLES = {"lu-block": "trace-smpi-lu.json", "lu-cyclic5": "trace-smpi-lu-cyclic.json",
            "jacobi": "trace-smpi-jacobi.json"}
# How MPI_Send behaves, each measured in its own CSV and scenario: `rendezvous`, every send waits
# for its receive (the blocking semantics the engine replays); `eager`, SMPI's default: a send
# below 64 KiB returns at once and the transfer starts when the receive is posted.
PROTOCOLS = [("rendezvous", "measured.csv", ["--cfg=smpi/send-is-detached-thresh:0"]),
             ("eager", "measured-eager.csv", [])]
# Sizes as the source measures (0..1000 step 25), then up to the LU's largest message (N*8).
SIZES = list(range(0, 1001, 25)) + list(range(1250, N * 8 + 1, 250)) + [N * 8]
REPS = 3
# Programs with non-blocking calls and collectives: (folder, program, arguments, largest message
# in bytes). Traced like the LU, then measured under SMPI's default sends only (a send below
# 64 KiB detached) into FOLDER/measured.csv; the engine replays them with protocol "size" and
# links fitted on the ping-pong samples up to twice the program's largest message.
NB_PROGRAMS = [("jacobi", "jacobi", [512, 20], 4096), ("fft", "fft", [256, 5], 65536),
               ("cg", "cg", [4096, 30], 512)]
# Sizes of the second ping-pong (samples-wide.csv), for the programs above.
WIDE_SIZES = [0, 8, 16, 64, 128, 256, 512, 768, 1024, 2048, 3072, 4096, 6144, 8192, 16384,
              32768, 49152, 65536, 98304, 131072]
CFG = ["--cfg=smpi/simulate-computation:no", "--log=root.thresh:warning"]


def log(msg):
    print(f"[smpi-fixture] {msg}", file=sys.stderr)


def ensure_smpi():
    if shutil.which("smpicc") and shutil.which("smpirun"):
        return
    log("installing Debian libsimgrid-dev")
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    subprocess.run(sudo + ["apt-get", "update", "-qq"], check=True, env=env)
    subprocess.run(sudo + ["apt-get", "install", "-y", "-qq", "--no-install-recommends",
                           "libsimgrid-dev"], check=True, env=env)


def run(cmd, cwd):
    out = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"[smpi-fixture] failed: {' '.join(cmd)}\n{out.stderr}")
    return out.stdout


def smpirun(tmp, platform, hosts, program, args, extra=()):
    hostfile = os.path.join(tmp, "hostfile")
    with open(hostfile, "w") as f:
        f.write("".join(h + "\n" for h in hosts))
    return run(["smpirun", "-np", str(len(hosts)), "-platform", os.path.join(SRC, platform),
                "-hostfile", hostfile, *extra, *CFG, os.path.join(tmp, program), *map(str, args)],
               tmp)


def lu_end(stdout):
    """(time of the last rank, per-rank checksums) from lu.c's `rank R end T check C` lines."""
    ends, checks = {}, {}
    for line in stdout.splitlines():
        f = line.split()
        if len(f) == 6 and f[0] == "rank" and f[2] == "end" and f[4] == "check":
            ends[int(f[1])] = float(f[3])
            checks[int(f[1])] = f[5]
    if sorted(ends) != list(range(len(HOSTS))):
        sys.exit(f"[smpi-fixture] lu printed no end for every rank:\n{stdout}")
    return max(ends.values()), [checks[r] for r in sorted(checks)]


def check_platform():
    """The speeds above are the ones heterogeneous.xml declares."""
    text = open(os.path.join(SRC, "heterogeneous.xml")).read()
    for h, s in SPEEDS.items():
        if f'<host id="{h}" speed="{int(s / 1e6)}Mf"/>' not in text:
            sys.exit(f"[smpi-fixture] heterogeneous.xml does not declare {h} at {s} flops")


def links_of(platform):
    import xml.etree.ElementTree as ET
    rows = []
    tree = ET.parse(os.path.join(SRC, platform))
    links = {l.get("id"): l for l in tree.iter("link")}
    for route in tree.iter("route"):
        link = links[route.find("link_ctn").get("id")]
        rows.append((route.get("src"), route.get("dst"), link.get("id"), link.get("bandwidth"),
                     link.get("latency")))
    return rows


def record_trace(tmp, folder, width, out, program="lu", args=None):
    trace = os.path.join(tmp, f"{folder}.txt")
    smpirun(tmp, "homogeneous.xml", HOSTS, program, [N, width] if args is None else args,
            ["-trace-ti", "-trace-file", trace])
    files = [l.strip() for l in open(trace) if l.strip()]
    if len(files) != len(HOSTS):
        sys.exit(f"[smpi-fixture] expected {len(HOSTS)} trace files, got {files}")
    os.makedirs(os.path.join(out, folder), exist_ok=True)
    for path in files:
        # SimGrid names the files ..._rank-R.txt with R from 1; the lines inside count from 0.
        r = int(path.rsplit("_rank-", 1)[1].split(".")[0]) - 1
        shutil.copyfile(os.path.join(tmp, path), os.path.join(out, folder, f"rank-{r}.txt"))


def measure_lu(tmp, folder, width, out, csv_name, cfg, program="lu", args=None):
    rows, reference = [], None
    for perm in itertools.permutations(HOSTS):
        t, checks = lu_end(smpirun(tmp, "heterogeneous.xml", list(perm), program,
                                   [N, width] if args is None else args, cfg))
        if reference is None:
            reference = checks
        elif checks != reference:
            sys.exit(f"[smpi-fixture] {folder}: the LU's result depends on the assignment")
        rows.append((" ".join(perm), t))
    with open(os.path.join(out, folder, csv_name), "w") as f:
        f.write("assignment,time\n")
        for a, t in rows:
            f.write(f"{a},{t:.9f}\n")
    return rows


def measure_links(tmp, out, name="samples.csv", sizes=SIZES):
    with open(os.path.join(out, name), "w") as f:
        f.write("src,dst,bytes,seconds\n")
        for src, dst in itertools.permutations(HOSTS, 2):
            text = smpirun(tmp, "heterogeneous.xml", [src, dst], "pingpong",
                           [REPS, *sizes])
            lines = text.split()
            if len(lines) != 2 * len(sizes):
                sys.exit(f"[smpi-fixture] ping-pong {src}-{dst} printed {text!r}")
            for size, sec in zip(lines[0::2], lines[1::2]):
                f.write(f"{src},{dst},{size},{float(sec):.12g}\n")


def write_tables(out):
    with open(os.path.join(out, "hosts.csv"), "w") as f:
        f.write("host,speed_flops,ratio\n")
        for h in HOSTS:
            f.write(f"{h},{SPEEDS[h]:.0f},{RECORD_SPEED / SPEEDS[h]:g}\n")
    with open(os.path.join(out, "links.csv"), "w") as f:
        f.write("src,dst,link,bandwidth,latency\n")
        for row in links_of("heterogeneous.xml"):
            f.write(",".join(row) + "\n")
    version = subprocess.run(["smpirun", "-version"], capture_output=True, text=True)
    package = subprocess.run(["dpkg-query", "-W", "libsimgrid-dev"], capture_output=True, text=True)
    with open(os.path.join(out, "version.txt"), "w") as f:
        f.write((version.stdout + version.stderr).strip() + "\n")
        if package.returncode == 0:
            f.write("Debian package: " + package.stdout.strip().replace("\t", " ") + "\n")


def rank_texts(out, folder):
    """A program's recorded rank files, in rank order."""
    return [open(os.path.join(out, folder, f"rank-{r}.txt")).read() for r in range(len(HOSTS))]


def fitted_links(out, csv_name, largest=None):
    """One link per ordered host pair with its ping-pong samples (up to `largest` bytes)."""
    samples = {}
    with open(os.path.join(out, csv_name)) as f:
        next(f)
        for line in f:
            src, dst, size, sec = line.strip().split(",")
            if largest is None or int(size) <= largest:
                samples.setdefault((src, dst), []).append([int(size), float(sec)])
    return [{"from": s, "to": d, "samples": samples[(s, d)]}
            for s, d in itertools.permutations(HOSTS, 2)]


def build_scenario(out, folder, width, name, csv_name):
    """The engine's scenario (docs/format.md, engine `trace`) of one LU program: its TI trace
    (one text per rank), the heterogeneous hosts as nodes (ratio = recording speed / speed, flops
    turned into seconds at the recording speed), one fitted link per ordered host pair from its
    ping-pong samples, and the 24 measured times."""
    files, links = rank_texts(out, folder), fitted_links(out, "samples.csv")
    measured = open(os.path.join(out, folder, csv_name)).read()
    dist = "block rows" if width == 0 else f"block-cyclic rows of width {width}"
    scenario = {
        "version": 1,
        "engine": "trace",
        "name": name,
        "description": (
            f"Ground truth from SimGrid 3.32 SMPI (scripts/smpi-fixture.py): a blocking LU of order "
            f"{N} over 4 ranks ({dist}), traced once on 4 identical hosts of 100 Mflop/s, then run "
            f"under all 24 assignments on hosts of 100, 80, 50 and 25 Mflop/s with a link of its own "
            f"per pair (ping-pong samples fitted to a0 + a1 N). Measured: SMPI's simulated times, "
            "every MPI_Send waiting for its receive (rendezvous)."),
        "trace": {"format": "ti", "files": files},
        "referenceRate": RECORD_SPEED,
        "nodes": [{"name": h, "ratio": RECORD_SPEED / SPEEDS[h]} for h in HOSTS],
        "links": links,
        "search": {"method": "exhaustive", "top": 24},
        "measured": measured,
    }
    text = json.dumps(scenario, indent=1)
    # one line per sample pair
    return re.sub(r"\[\s+(-?[0-9.e+-]+),\s+(-?[0-9.e+-]+)\s+\]", r"[\1, \2]", text) + "\n"


def build_nb_scenario(out, folder, program, args, largest):
    """The engine's scenario of a program with non-blocking calls and collectives: as
    build_scenario, with protocol "size" (SMPI's default), links fitted on the wide ping-pong
    up to twice the largest message, and SMPI's default-send times as measured."""
    files, links = rank_texts(out, folder), fitted_links(out, "samples-wide.csv", 2 * largest)
    what = {
        "jacobi": "a 2D Jacobi sweep (512 x 512, 20 iterations, rows shared 1:2:3:4) with its halo rows "
                  "exchanged by MPI_Isend/MPI_Irecv/MPI_Waitall while the interior is computed and the "
                  "residual summed by MPI_Allreduce",
        "fft": "an FFT-like transpose (256 x 256 complex, 5 iterations, uneven row work) with "
               "MPI_Alltoall, MPI_Reduce and MPI_Bcast",
        "cg": "a CG-like kernel (4,096 rows shared 1:2:3:4, 30 iterations) with a ring halo by "
              "MPI_Isend/MPI_Irecv/MPI_Waitall, two MPI_Allreduce per iteration and an MPI_Allgather "
              "every tenth",
    }[program]
    scenario = {
        "version": 1,
        "engine": "trace",
        "name": f"SMPI {program}",
        "description": (
            f"Ground truth from SimGrid 3.32 SMPI (scripts/smpi-fixture.py): {what}, over 4 ranks, "
            f"traced once on 4 identical hosts of 100 Mflop/s, then run under all 24 assignments on "
            f"hosts of 100, 80, 50 and 25 Mflop/s with a link of its own per pair (ping-pong samples "
            f"up to {2 * largest} bytes fitted to a0 + a1 N). Measured: SMPI's simulated times with "
            f"its default sends (eager below 64 KiB)."),
        "trace": {"format": "ti", "files": files},
        "referenceRate": RECORD_SPEED,
        "protocol": "size",
        "nodes": [{"name": h, "ratio": RECORD_SPEED / SPEEDS[h]} for h in HOSTS],
        "links": links,
        "search": {"method": "exhaustive", "top": 24},
        "measured": open(os.path.join(out, folder, "measured.csv")).read(),
    }
    text = json.dumps(scenario, indent=1)
    return re.sub(r"\[\s+(-?[0-9.e+-]+),\s+(-?[0-9.e+-]+)\s+\]", r"[\1, \2]", text) + "\n"


def main():
    default = os.path.join(ROOT, "tests", "fixtures", "smpi")
    out = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else default)
    default_out = out == os.path.abspath(default)
    ensure_smpi()
    check_platform()
    os.makedirs(out, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="smpi-fixture-") as tmp:
        for prog in ("lu", "pingpong", *[p[1] for p in NB_PROGRAMS]):
            run(["smpicc", "-O2", "-o", os.path.join(tmp, prog),
                 os.path.join(SRC, prog + ".c"), "-lm"], tmp)
        for folder, width in PROGRAMS:
            record_trace(tmp, folder, width, out)
            for protocol, csv_name, cfg in PROTOCOLS:
                rows = measure_lu(tmp, folder, width, out, csv_name, cfg)
                best = min(rows, key=lambda r: r[1])
                log(f"{folder} {protocol}: best {best[0]} {best[1]:.6f} s, worst "
                    f"{max(r[1] for r in rows):.6f} s")
        for folder, program, args, _ in NB_PROGRAMS:
            record_trace(tmp, folder, 0, out, program, args)
            rows = measure_lu(tmp, folder, 0, out, "measured.csv", [], program, args)
            best = min(rows, key=lambda r: r[1])
            log(f"{folder}: best {best[0]} {best[1]:.6f} s, worst {max(r[1] for r in rows):.6f} s")
        measure_links(tmp, out)
        measure_links(tmp, out, "samples-wide.csv", WIDE_SIZES)
        measure_two_clusters(tmp, out)
    write_tables(out)
    for folder, program, args, largest in NB_PROGRAMS:
        text = build_nb_scenario(out, folder, program, args, largest)
        with open(os.path.join(out, folder, "scenario.json"), "w") as f:
            f.write(text)
        if default_out and folder in EXAMPLES:
            with open(os.path.join(ROOT, "playground-examples", EXAMPLES[folder]), "w") as f:
                f.write(text)
    for folder, width in PROGRAMS:
        name = "SMPI LU, block" if width == 0 else f"SMPI LU, cyclic {width}"
        text = build_scenario(out, folder, width, name, "measured.csv")
        with open(os.path.join(out, folder, "scenario.json"), "w") as f:
            f.write(text)
        if default_out:
            with open(os.path.join(ROOT, "playground-examples", EXAMPLES[folder]), "w") as f:
                f.write(text)
            if folder == "lu-block":
                path = os.path.join(ROOT, "playground-examples", "trace-smpi-lu-platform.json")
                with open(path, "w") as f:
                    f.write(platform_scenario(text))
    log(f"wrote {out}")


# Hosts of two-clusters.xml and their cores: an assignment puts at most that many ranks on each.
TWO_CLUSTERS = {"west-0": 2, "west-1": 2, "east-0": 1, "east-1": 1}


def measure_two_clusters(tmp, out):
    """The block LU on two-clusters.xml under every assignment of its ranks within the cores."""
    os.makedirs(os.path.join(out, "two-clusters"), exist_ok=True)
    hosts = list(TWO_CLUSTERS)
    perms = [a for a in itertools.product(hosts, repeat=len(HOSTS))
             if all(a.count(h) <= TWO_CLUSTERS[h] for h in hosts)]
    for protocol, csv_name, cfg in PROTOCOLS:
        rows = []
        for a in perms:
            t, _ = lu_end(smpirun(tmp, "two-clusters.xml", list(a), "lu", [N, 0], cfg))
            rows.append((" ".join(a), t))
        with open(os.path.join(out, "two-clusters", csv_name), "w") as f:
            f.write("assignment,time\n")
            f.writelines(f"{a},{t:.9f}\n" for a, t in rows)
        best = min(rows, key=lambda r: r[1])
        log(f"two-clusters {protocol}: {len(rows)} assignments, best {best[0]} {best[1]:.6f} s")


def platform_scenario(text):
    """The scenario `text` with its nodes and fitted links replaced by heterogeneous.xml, the
    platform file SMPI ran it on (the engine derives each pair's link from the routes)."""
    scenario = json.loads(text)
    for key in ("nodes", "links", "defaultLink", "intraLink"):
        scenario.pop(key, None)
    scenario["name"] += ", on its platform file"
    scenario["description"] = (
        "The SMPI LU of 'SMPI LU, block', its nodes and links read from the SimGrid platform "
        "file SMPI ran it on (scripts/smpi/heterogeneous.xml, field simgrid): a node's ratio is "
        "the reference rate over its host's speed, each pair's link the route's latency and "
        "bottleneck bandwidth under SMPI's default factors. Measured: SMPI's simulated times "
        "(rendezvous); compare the fitted links of 'SMPI LU, block'.")
    with open(os.path.join(SRC, "heterogeneous.xml")) as f:
        scenario["simgrid"] = f.read()
    keys = ["version", "engine", "name", "description", "trace", "referenceRate", "simgrid"]
    ordered = {k: scenario[k] for k in keys if k in scenario}
    ordered.update({k: v for k, v in scenario.items() if k not in ordered})
    return json.dumps(ordered, indent=1) + "\n"


if __name__ == "__main__":
    main()
