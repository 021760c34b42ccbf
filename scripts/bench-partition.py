#!/usr/bin/env python3
"""Benchmark of the partitioner against METIS and KaHIP, in one run on the
same graphs.

Installs Debian's `metis` (gpmetis) with apt-get and PyPI's `kahip` with pip when they are
missing, builds `placelab` (release), generates the graphs with `placelab graph`, then for every
graph and k runs `placelab partition` and `gpmetis` with ufactor 30 (imbalance <= 3 %) and
recounts each part file's edge cut and imbalance here (independently of both tools). Prints the
table (graph, k, our cut, gpmetis cut, ratio, both times, both imbalances), the geometric means
of the cut and time ratios, the worst case, and the quality mode (`--strong`) against KaHIP's `strong` mode on the graphs of at most
STRONG_MAX_N vertices (KaHIP strong takes minutes on the largest ones).

Times: each tool's whole process (reading the graph, partitioning, writing the part file) in
CPU seconds (user + system), measured here. gpmetis reports CPU time and placelab wall-clock
time, so on a shared machine their own reports are not comparable; their ratio is printed too.

Usage: scripts/bench-partition.py [--quick] [--keep DIR] [--no-strong] [--only TEXT] [--seeds N]
  --quick      only the 10,000-vertex graphs (and KaHIP on k = 2, 8, 32)
  --keep       write graphs and part files in DIR (default: a temporary directory)
  --no-strong  skip the quality mode against KaHIP
  --only       only the graphs whose name contains TEXT
  --seeds N    also run both tools with seeds 1..N on every case and compare the median cuts
               (one seed's cut on trees and random geometric graphs varies by +-20 % for both
               tools, so a single run compares luck as much as method)
Python 3 standard library only.
"""
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
UFACTOR = 30
KS = [2, 4, 8, 16, 32, 64]
STRONG_MAX_N = 30000
# Time resolution of the tools' reports (3 decimals): smaller times count as this.
MIN_TIME = 0.001


def graphs(quick):
    """(name, placelab graph arguments) of the benchmark graphs, 1,000 to 100,000 vertices."""
    sizes = [(10000, "100,100", "22,22,22")] if quick else [
        (1000, "32,32", "10,10,10"),
        (10000, "100,100", "22,22,22"),
        (100000, "316,316", "46,46,46"),
    ]
    out = []
    for n, grid, cube in sizes:
        out += [
            (f"grid2d-{grid.replace(',', 'x')}", ["grid2d", "--dims", grid]),
            (f"cube3d-{cube.replace(',', 'x')}", ["cube3d", "--dims", cube]),
            (f"tree-{n}", ["tree", "--n", str(n)]),
            (f"star-{n}", ["star", "--n", str(n)]),
            (f"delaunay-{n}", ["delaunay", "--n", str(n), "--seed", "1"]),
            (f"geometric-{n}", ["geometric", "--n", str(n), "--seed", "1"]),
        ]
    return out


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def timed(cmd):
    """(returncode, stdout + stderr, CPU seconds (user + system) of the process)."""
    with tempfile.TemporaryFile(mode="w+") as out:
        p = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, text=True)
        _, status, usage = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        return p.returncode, out.read(), max(usage.ru_utime + usage.ru_stime, MIN_TIME)


def ensure_tools():
    if shutil.which("gpmetis") is None:
        print("installing Debian metis (gpmetis) ...", flush=True)
        apt = ["apt-get"] if os.geteuid() == 0 else ["sudo", "apt-get"]
        subprocess.run(apt + ["update", "-qq"], check=False)
        subprocess.run(apt + ["install", "-y", "-qq", "metis"], check=True)
    try:
        import kahip  # noqa: F401
    except ImportError:
        print("installing PyPI kahip ...", flush=True)
        pip = [sys.executable, "-m", "pip", "install", "-q", "kahip"]
        if subprocess.run(pip).returncode != 0:
            subprocess.run(pip + ["--break-system-packages"], check=True)


def read_metis(path):
    """(xadj, adjncy, vwgt, adjwgt) of a METIS graph file (fmt 0, 1, 10, 11; one constraint)."""
    with open(path) as f:
        lines = [l for l in f if not l.startswith("%")]
    head = lines[0].split()
    n = int(head[0])
    fmt = head[2] if len(head) > 2 else "0"
    fmt = fmt.rjust(3, "0")
    has_vs, has_vw, has_ew = fmt[0] == "1", fmt[1] == "1", fmt[2] == "1"
    xadj, adjncy, vwgt, adjwgt = [0], [], [], []
    for line in lines[1 : n + 1]:
        t = [int(x) for x in line.split()]
        i = 0
        if has_vs:
            i += 1
        if has_vw:
            vwgt.append(t[i])
            i += 1
        else:
            vwgt.append(1)
        step = 2 if has_ew else 1
        for j in range(i, len(t), step):
            adjncy.append(t[j] - 1)
            adjwgt.append(t[j + 1] if has_ew else 1)
        xadj.append(len(adjncy))
    return xadj, adjncy, vwgt, adjwgt


def figures(g, part, k):
    """(edge cut, imbalance = max part weight / (total / k)) recounted from a part vector."""
    xadj, adjncy, vwgt, adjwgt = g
    cut = 0
    for v in range(len(vwgt)):
        pv = part[v]
        for j in range(xadj[v], xadj[v + 1]):
            if part[adjncy[j]] != pv:
                cut += adjwgt[j]
    w = [0] * k
    for v, p in enumerate(part):
        w[p] += vwgt[v]
    total = sum(vwgt)
    return cut // 2, (max(w) * k / total if total else 1.0)


def read_part(path):
    with open(path) as f:
        return [int(x) for x in f.read().split()]


def reported_time(text):
    m = re.search(r"Partitioning:\s+([\d.]+)", text)
    return max(float(m.group(1)), MIN_TIME) if m else float("nan")


def ours(exe, path, k, strong=False, seed=None):
    """(part vector, CPU seconds, partitioning time as reported) of placelab."""
    cmd = [exe, "partition", path, str(k), "--ufactor", str(UFACTOR)]
    if strong:
        cmd.append("--strong")
    if seed is not None:
        cmd += ["--seed", str(seed)]
    code, text, cpu = timed(cmd)
    if code != 0:
        raise SystemExit(f"placelab failed on {path} k={k}: {text}")
    return read_part(f"{path}.part.{k}"), cpu, reported_time(text)


def gpmetis(path, k, seed=None):
    """(part vector, CPU seconds, partitioning time as reported) of gpmetis."""
    extra = [] if seed is None else [f"-seed={seed}"]
    code, text, cpu = timed(["gpmetis", f"-ufactor={UFACTOR}", *extra, path, str(k)])
    if code != 0:
        raise SystemExit(f"gpmetis failed on {path} k={k}: {text}")
    return read_part(f"{path}.part.{k}"), cpu, reported_time(text)


def kahip_strong(g, k):
    import kahip

    xadj, adjncy, vwgt, adjwgt = g
    t0 = time.perf_counter()
    cut, blocks = kahip.kaffpa(vwgt, xadj, adjwgt, adjncy, k, UFACTOR / 1000.0, True, 1, 2)
    return list(blocks), time.perf_counter() - t0


def geomean(xs):
    xs = [x for x in xs if x > 0 and math.isfinite(x)]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def ratio(a, b):
    if b == 0:
        return 1.0 if a == 0 else float("inf")
    return a / b


def median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2] if len(xs) % 2 else (xs[len(xs) // 2 - 1] + xs[len(xs) // 2]) / 2


def seeds_table(exe, work, rows, nseeds):
    """Both tools with seeds 1..nseeds on every case of `rows`: median cuts and their ratio."""
    print(f"\nSeeds 1..{nseeds}: median cut of each tool (min-max)")
    print(f"{'graph':22} {'k':>3} {'ours median':>12} {'(min-max)':>13} {'gpmetis median':>15} {'(min-max)':>13} {'ratio':>6}")
    ratios = []
    for name, _, k, _, _, _, _, _, _, _, g, _ in rows:
        path = os.path.join(work, name + ".graph")
        co, cm = [], []
        for seed in range(1, nseeds + 1):
            co.append(figures(g, ours(exe, path, k, seed=seed)[0], k)[0])
            cm.append(figures(g, gpmetis(path, k, seed=seed)[0], k)[0])
        r = ratio(median(co), median(cm))
        ratios.append((r, name, k, median(co), median(cm)))
        print(f"{name:22} {k:3} {median(co):12} {f'({min(co)}-{max(co)})':>13} {median(cm):15} {f'({min(cm)}-{max(cm)})':>13} {r:6.3f}", flush=True)
    worst = max(ratios)
    print(f"\nSummary (median of seeds 1..{nseeds}, both tools)")
    print(f"  edge cut ratio of medians, geometric mean: {geomean([r[0] for r in ratios]):.3f}")
    print(f"  worst case: {worst[1]} k={worst[2]}: {worst[3]} vs {worst[4]} = {worst[0]:.3f}")
    print(f"  cases worse than 1.10: {sum(1 for r in ratios if r[0] > 1.10)} of {len(ratios)}")


def main():
    quick = "--quick" in sys.argv
    keep = None
    if "--keep" in sys.argv:
        keep = sys.argv[sys.argv.index("--keep") + 1]
    ensure_tools()
    print("building placelab (release) ...", flush=True)
    subprocess.run(["cargo", "build", "--release", "--quiet", "--bin", "placelab"], cwd=ROOT, check=True)
    exe = os.path.join(ROOT, "target", "release", "placelab")
    work = keep or tempfile.mkdtemp(prefix="bench-partition-")
    os.makedirs(work, exist_ok=True)

    rows = []
    print(f"\n{'graph':22} {'k':>3} {'ours':>8} {'gpmetis':>8} {'ratio':>6} {'t ours':>8} {'t metis':>8} {'imb ours':>8} {'imb metis':>9}")
    only = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else ""
    for name, args in graphs(quick):
        if only not in name:
            continue
        path = os.path.join(work, name + ".graph")
        if not os.path.exists(path):
            run([exe, "graph", *args, "-o", path]).check_returncode()
        g = read_metis(path)
        for k in KS:
            p, t_o, rt_o = ours(exe, path, k)
            c_o, i_o = figures(g, p, k)
            p, t_m, rt_m = gpmetis(path, k)
            c_m, i_m = figures(g, p, k)
            r = ratio(c_o, c_m)
            rows.append((name, len(g[2]), k, c_o, c_m, r, t_o, t_m, i_o, i_m, g, rt_o / rt_m))
            print(f"{name:22} {k:3} {c_o:8} {c_m:8} {r:6.3f} {t_o:8.3f} {t_m:8.3f} {i_o:8.3f} {i_m:9.3f}", flush=True)

    cut_gm = geomean([r[5] for r in rows])
    time_gm = geomean([r[6] / r[7] for r in rows])
    worst = max(rows, key=lambda r: r[5])
    print("\nSummary (ours vs gpmetis, ufactor 30, same graphs, same run)")
    print(f"  edge cut ratio, geometric mean: {cut_gm:.3f}  (goal <= 1.00)")
    print(f"  worst case: {worst[0]} k={worst[2]}: {worst[3]} vs {worst[4]} = {worst[5]:.3f}  (goal <= 1.10)")
    print(f"  cases worse than 1.10: {sum(1 for r in rows if r[5] > 1.10)} of {len(rows)}")
    print(f"  CPU time ratio (whole process), geometric mean: {time_gm:.2f}x  (goal <= 2x)")
    print(f"  reported partitioning time ratio (placelab wall clock / METIS CPU), geometric mean: "
          f"{geomean([r[11] for r in rows]):.2f}x")
    print(f"  max imbalance: ours {max(r[8] for r in rows):.3f}, gpmetis {max(r[9] for r in rows):.3f}")

    if "--seeds" in sys.argv:
        seeds_table(exe, work, rows, int(sys.argv[sys.argv.index("--seeds") + 1]))

    if "--no-strong" in sys.argv:
        rows = []
    print(f"\nQuality mode (placelab --strong) vs KaHIP strong (graphs of <= {STRONG_MAX_N} vertices)")
    print(f"{'graph':22} {'k':>3} {'strong':>8} {'kahip':>8} {'ratio':>6} {'t ours':>8} {'t kahip':>8} {'imb ours':>8} {'imb kahip':>9}")
    srows = []
    sks = [2, 8, 32] if quick else KS
    for name, n, k, _, c_m, _, _, _, _, _, g, _ in rows:
        if n > STRONG_MAX_N or k not in sks:
            continue
        path = os.path.join(work, name + ".graph")
        p, t_s, _ = ours(exe, path, k, strong=True)
        c_s, i_s = figures(g, p, k)
        p, t_k = kahip_strong(g, k)
        c_k, i_k = figures(g, p, k)
        r = ratio(c_s, c_k)
        srows.append((r, ratio(c_s, c_m), ratio(c_k, c_m)))
        print(f"{name:22} {k:3} {c_s:8} {c_k:8} {r:6.3f} {t_s:8.3f} {t_k:8.3f} {i_s:8.3f} {i_k:9.3f}", flush=True)
    if srows:
        print("\nSummary (quality mode)")
        print(f"  ours strong / KaHIP strong, geometric mean: {geomean([r[0] for r in srows]):.3f}  (goal <= 1.03)")
        print(f"  ours strong / gpmetis: {geomean([r[1] for r in srows]):.3f}; KaHIP strong / gpmetis: {geomean([r[2] for r in srows]):.3f}")
    if not keep:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
