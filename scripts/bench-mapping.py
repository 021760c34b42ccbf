#!/usr/bin/env python3
"""Task mapping benchmark: our placement strategies against Scotch and Mt-KaHyPar, in one run on
the same cases.

For every case (a task graph and a machine: torus, mesh, fat or thin tree; tasks = hosts, or
tasks = hosts / 2) it maps the task graph with
- Scotch 7 (`scotch_gmap`, Debian's `scotch`) onto the machine's target architecture
  (`torus2D`, `torus3D`, `mesh2D`, `mesh3D`, `tleaf`), one task per host (`-b0`, unit vertex
  weights `-sv`, deterministic `-Cd`), best hop-bytes over SCOTCH_OPTION_SETS; on half machines
  onto `sub` of the compact block (hosts 0 .. hosts/2 - 1: the slab z < Z/2 of a 3D grid, y < Y/2
  of a 2D grid, the first half of the top switch's subtrees of a tree);
- Mt-KaHyPar (PyPI `mtkahypar`, in a venv under target/) `Graph.map_onto_graph`, one thread,
  epsilon 0, onto the host graph (tori and meshes: their links, weight 1; trees and half
  machines: the complete graph of the block's hosts weighted by hops), skipped above
  MTK_MAX_HOSTS hosts (its cost grows with the cube of the number of blocks);
- our strategies through `placelab map GRAPH SYSTEM` (one process per strategy: the METIS graph,
  the case's machine as a placement scenario's `system`), or with --via-run (or a binary without
  `map`) through `placelab run` (a `metis` job carrying the graph, messageBytes 1, rounds 1);
  `identity` always through `placelab run`, with the built-in GRID/CUBE job when the case's
  graph is exactly that job's graph; `mapped` when the placelab binary accepts it, with
  `objective` `hopBytes` (what the anchors minimize) when it accepts that field.

It recounts every mapping's figures here from SimGrid's routes (an implementation independent of
placelab's: dimension-order routes on tori and meshes, shorter way round each ring; D-mod-k on
k:k'-ary n-trees): hop-bytes (both directions of every edge, volume x hops), mean and max
dilation, maximum bytes on one directed link; checks each mapping (every task on one distinct host
of the machine, within the block on half machines for the anchors), and checks that the recount
equals placelab's own figures for our strategies (any mismatch is a FAIL line and exit status 1).

Mapping time: wall time of the mapper; Scotch: its processes (reading the graph included),
summed over the option sets; Mt-KaHyPar: graph construction and map_onto_graph inside its
worker (not the interpreter's start); ours: the whole `placelab map` process (reading the graph,
building the machine, placing, writing the mapping), as gmap's; with --via-run the whole
`placelab run` process (the report's one-round simulation of 1-byte messages included).

Writes target/bench-mapping/results.json and results.csv.

Usage: scripts/bench-mapping.py [--quick] [--cases REGEX] [--seed S] [--placelab PATH]
                                [--no-mtk] [--mtk-max-hosts N] [--keep DIR] [--via-run]
  --quick      six cases of at most 128 hosts (smoke run, about a minute)
  --cases      only the cases whose name matches REGEX (re.search)
  --seed       seed of the generated graphs, placelab and Mt-KaHyPar (default 1)
  --placelab   the placelab binary (default target/release/placelab, built when missing)
  --no-mtk     skip Mt-KaHyPar
  --mtk-max-hosts N  run Mt-KaHyPar on at most N hosts (default MTK_MAX_HOSTS = 256)
  --keep       keep the graph, system, target and mapping files in DIR (one folder per case:
               what scripts/bench-map-ab.py compares two binaries on)
  --via-run    time our strategies through `placelab run` (as before `placelab map` existed)
Python 3.11 standard library (Mt-KaHyPar runs in its venv's interpreter, in a child process).
"""
import argparse
import csv
import json
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV = os.path.join(ROOT, "target", "mapbench-venv")
VENV_PY = os.path.join(VENV, "bin", "python")
OUT_DIR = os.path.join(ROOT, "target", "bench-mapping")
# Mt-KaHyPar's process mapping costs the cube of the number of blocks: minutes at 1,024 hosts.
MTK_MAX_HOSTS = 256
# Scotch strategy option sets tried on every case (always with -b0 -sv -Cd); the best is kept.
SCOTCH_OPTION_SETS = [[], ["-cb"], ["-cr"], ["-cbr"]]
OUR_STRATEGIES = ["simple", "random", "optimal", "advanced", "identity"]
# Within this share of the best hop-bytes counts as "as good as the best".
NEAR = 0.02


# ----------------------------------------------------------------------------- installation


def sh(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def scotch_binary():
    """Path of Scotch's gmap (`scotch_gmap` on Debian, `gmap` elsewhere), or None."""
    return shutil.which("scotch_gmap") or shutil.which("gmap")


def ensure_tools(args):
    """Installs what is missing, idempotently: Debian's scotch, PyPI's mtkahypar in VENV, and
    the placelab binary. Returns (gmap path, placelab path, mtk available)."""
    if scotch_binary() is None:
        print("installing Debian scotch ...", flush=True)
        apt = ["apt-get"] if os.geteuid() == 0 else ["sudo", "apt-get"]
        subprocess.run(apt + ["update", "-qq"], check=False)
        subprocess.run(apt + ["install", "-y", "-qq", "scotch"], check=True)
    gmap = scotch_binary()
    if gmap is None:
        sys.exit("scotch installed but neither scotch_gmap nor gmap is on PATH")
    mtk = False
    if not args.no_mtk:
        if not os.path.exists(VENV_PY):
            print(f"creating {VENV} ...", flush=True)
            subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
        if sh([VENV_PY, "-c", "import mtkahypar"]).returncode != 0:
            print("installing PyPI mtkahypar ...", flush=True)
            subprocess.run([VENV_PY, "-m", "pip", "install", "-q", "mtkahypar"], check=True)
        mtk = sh([VENV_PY, "-c", "import mtkahypar"]).returncode == 0
    exe = args.placelab or os.path.join(ROOT, "target", "release", "placelab")
    if not os.path.exists(exe):
        if args.placelab:
            sys.exit(f"{exe} does not exist")
        print("building placelab (release) ...", flush=True)
        subprocess.run(["cargo", "build", "--release", "--bin", "placelab"], cwd=ROOT, check=True)
    return gmap, exe, mtk


def tool_versions(gmap, exe, mtk):
    """Version strings of the tools, for the results file."""
    v = {"python": sys.version.split()[0]}
    out = sh([gmap, "-V"])
    m = re.search(r"version (\S+)", out.stdout + out.stderr)
    v["scotch"] = m.group(1) if m else "?"
    if mtk:
        out = sh([VENV_PY, "-m", "pip", "show", "mtkahypar"])
        m = re.search(r"Version: (\S+)", out.stdout)
        v["mtkahypar"] = m.group(1) if m else "?"
    rev = sh(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"]).stdout.strip()
    v["placelab"] = f"{exe} (commit {rev})"
    return v


# ----------------------------------------------------------------------------- task graphs


class TaskGraph:
    """An undirected task graph: `n` tasks, `edges` as (u, v, w) with u < v, no duplicates; `w`
    is the message volume (units) exchanged in each direction per round. `builtin` is the
    (kind, wrap) of placelab's GRID/CUBE job that has the same graph, when there is one."""

    def __init__(self, name, n, edges, builtin=None):
        merged = {}
        for u, v, w in edges:
            if u == v:
                continue
            a, b = (u, v) if u < v else (v, u)
            merged[(a, b)] = merged.get((a, b), 0) + w
        self.name = name
        self.n = n
        self.edges = sorted((a, b, w) for (a, b), w in merged.items())
        self.builtin = builtin

    def adjacency(self):
        adj = [[] for _ in range(self.n)]
        for u, v, w in self.edges:
            adj[u].append((v, w))
            adj[v].append((u, w))
        return adj

    def metis(self):
        """The graph as METIS text (edge weights, format 1)."""
        lines = [f"{self.n} {len(self.edges)} 1"]
        for nb in self.adjacency():
            lines.append(" ".join(f"{v + 1} {w}" for v, w in nb))
        return "\n".join(lines) + "\n"

    def scotch(self):
        """The graph in Scotch's source graph format (base 0, edge weights, no vertex weights)."""
        adj = self.adjacency()
        lines = ["0", f"{self.n} {2 * len(self.edges)}", "0 010"]
        for nb in adj:
            lines.append(" ".join([str(len(nb))] + [f"{w} {v}" for v, w in nb]))
        return "\n".join(lines) + "\n"


def grid_graph(dims, wrap):
    """Nearest-neighbour grid of `dims` (task x + X (y + Y z)), rings closed when `wrap`."""
    dims = list(dims)
    n = math.prod(dims)
    edges = []
    for v in range(n):
        c, stride = v, 1
        for d in dims:
            x = c % d
            c //= d
            if x + 1 < d:
                edges.append((v, v + stride, 1))
            elif wrap and d > 2:
                edges.append((v, v - (d - 1) * stride, 1))
            stride *= d
    name = f"grid{len(dims)}d-{'x'.join(map(str, dims))}{'w' if wrap else ''}"
    return TaskGraph(name, n, edges)


def binary_tree(n):
    """Binary heap tree: task i's parent is (i - 1) / 2."""
    return TaskGraph(f"bintree-{n}", n, [((i - 1) // 2, i, 1) for i in range(1, n)])


def star(n):
    """Every task exchanges with task 0."""
    return TaskGraph(f"star-{n}", n, [(0, i, 1) for i in range(1, n)])


def read_metis(text):
    """(n, edges) of a METIS graph text (formats 0, 1, 10, 11; one constraint)."""
    lines = [l for l in text.splitlines() if not l.startswith("%")]
    head = lines[0].split()
    n = int(head[0])
    fmt = (head[2] if len(head) > 2 else "0").rjust(3, "0")
    has_vw, has_ew = fmt[1] == "1", fmt[2] == "1"
    edges = []
    for v, line in enumerate(lines[1 : n + 1]):
        t = [int(x) for x in line.split()]
        i = 1 if has_vw else 0
        step = 2 if has_ew else 1
        for j in range(i, len(t), step):
            u = t[j] - 1
            if v < u:
                edges.append((v, u, t[j + 1] if has_ew else 1))
    return n, edges


def generated(exe, kind, n, seed):
    """placelab's seeded `geometric` or `delaunay` generator (the partitioner's), unit weights."""
    out = sh([exe, "graph", kind, "--n", str(n), "--seed", str(seed)], check=True).stdout
    m, edges = read_metis(out)
    assert m == n
    return TaskGraph(f"{kind}-{n}", n, edges)


def heavy(rng, base):
    """A heavy-tailed message volume: base x Pareto(alpha 1.5), capped at 1,000 x base."""
    return max(1, int(base * min(rng.paretovariate(1.5), 1000.0)))


def npb_like(kind, n, seed):
    """NPB-like communication patterns with heavy-tailed (Pareto) edge volumes:
    - `cg`: r x c process grid (c = r or 2r); recursive-doubling partners within each row
      (column index xor 2^k) and, on a square grid, the transpose partner (i, j) - (j, i);
    - `mg`: 3D grid (wrapped) with the nearest neighbours of the fine level (volume ~64) and the
      coarse levels' neighbours at stride 2 and 4 among tasks whose coordinates are multiples
      of the stride (volume ~16 and ~4);
    - `lu`: 2D grid, not wrapped (the wavefront's neighbours), volume ~64;
    - `ft`: all to all (the transposes), volume ~4."""
    rng = random.Random(f"{kind}-{n}-{seed}")
    edges = []
    if kind == "cg":
        r = int(round(math.sqrt(n)))
        if r * r != n:
            r = int(round(math.sqrt(n / 2)))
        c = n // r
        assert r * c == n
        for i in range(r):
            for j in range(c):
                k = 1
                while k < c:
                    p = j ^ k
                    if p > j:
                        edges.append((i * c + j, i * c + p, heavy(rng, 32)))
                    k *= 2
                if r == c and j > i:
                    edges.append((i * c + j, j * c + i, heavy(rng, 64)))
    elif kind == "mg":
        dims = cubic_dims(n)
        x_, y_, z_ = dims
        for level, base in ((1, 64), (2, 16), (4, 4)):
            for v in range(n):
                x, y, z = v % x_, (v // x_) % y_, v // (x_ * y_)
                if x % level or y % level or z % level:
                    continue
                for d, (cx, side, stride) in enumerate(((x, x_, 1), (y, y_, x_), (z, z_, x_ * y_))):
                    if side <= level:
                        continue
                    t = (cx + level) % side
                    edges.append((v, v + (t - cx) * stride, heavy(rng, base)))
    elif kind == "lu":
        a = int(round(math.sqrt(n)))
        while n % a:
            a -= 1
        b = n // a
        for y in range(b):
            for x in range(a):
                v = x + a * y
                if x + 1 < a:
                    edges.append((v, v + 1, heavy(rng, 64)))
                if y + 1 < b:
                    edges.append((v, v + a, heavy(rng, 64)))
    elif kind == "ft":
        for u in range(n):
            for v in range(u + 1, n):
                edges.append((u, v, heavy(rng, 4)))
    else:
        raise ValueError(kind)
    return TaskGraph(f"npb-{kind}-{n}", n, edges)


def cubic_dims(n):
    """The most cubic a x b x c = n (a >= b >= c), as a list [a, b, c]."""
    best = None
    for c in range(1, n + 1):
        if n % c:
            continue
        for b in range(c, n // c + 1):
            if (n // c) % b:
                continue
            a = n // c // b
            if a < b:
                continue
            if best is None or a - c < best[0] - best[2]:
                best = (a, b, c)
    return list(best)


# ----------------------------------------------------------------------------- machines


class Machine:
    """A torus or mesh (`dims`, host x + X (y + Y z)) or a k:k'-ary n-tree (`levels`, `down`,
    `up`), with SimGrid's routes, reimplemented here from SimGrid's rules (not placelab's code)."""

    def __init__(self, kind, dims=None, levels=None, down=None, up=None):
        self.kind = kind
        if kind in ("fatTree", "thinTree"):
            self.levels, self.k = levels, down
            self.kup = up if up is not None else (down if kind == "fatTree" else 2)
            self.down = [down] * levels
            self.upv = [1] + [self.kup] * (levels - 1)
            self.hosts = down**levels
            self.name = f"{'fat' if kind == 'fatTree' else 'thin'}{down}" + (
                f":{self.kup}" if kind == "thinTree" else "") + f"^{levels}"
        else:
            self.dims = list(dims)
            self.wrap = kind.startswith("torus")
            self.hosts = math.prod(self.dims)
            self.name = f"{kind}-{'x'.join(map(str, self.dims))}"

    def is_tree(self):
        return self.kind in ("fatTree", "thinTree")

    def system(self):
        """The `system` object of a placement scenario."""
        if self.is_tree():
            return {"kind": self.kind, "levels": self.levels, "down": self.k, "up": self.kup}
        s = {"kind": self.kind, "x": self.dims[0], "y": self.dims[1]}
        if len(self.dims) == 3:
            s["z"] = self.dims[2]
        return s

    def scotch_arch(self):
        """Scotch's target architecture of the whole machine."""
        if self.is_tree():
            # top level first; distance = sum of link costs from the common level down: cost 2
            # per level gives the hop count 2 x level
            return f"tleaf {self.levels} " + " ".join(f"{self.k} 2" for _ in range(self.levels))
        name = ("torus" if self.wrap else "mesh") + f"{len(self.dims)}D"
        return f"{name} {' '.join(map(str, self.dims))}"

    def hops(self, a, b):
        if self.is_tree():
            if a == b:
                return 2
            lvl = 0
            while a != b:
                a //= self.k
                b //= self.k
                lvl += 1
            return 2 * lvl
        h = 0
        for d in self.dims:
            diff = abs(a % d - b % d)
            h += min(diff, d - diff) if self.wrap else diff
            a //= d
            b //= d
        return h

    def route(self, src, dst):
        """Directed links (hashable keys) of SimGrid's route from host src to host dst."""
        return self._tree_route(src, dst) if self.is_tree() else self._grid_route(src, dst)

    def _grid_route(self, src, dst):
        # Torus: dimension order; in dimension j go up when s < t <= s + d/2, or when s > d/2
        # and (s + d/2) mod d >= t; otherwise down. A link is named by the host that owns it
        # (its lower end in the +1 direction), the dimension, and the direction.
        out = []
        cur, stride = src, 1
        for j, d in enumerate(self.dims):
            s = (src // stride) % d
            t = (dst // stride) % d
            if s != t:
                if self.wrap:
                    up = (s < t <= s + d // 2) or (s > d // 2 and (s + d // 2) % d >= t)
                else:
                    up = t > s
                c = s
                while c != t:
                    if up:
                        out.append((cur, j, 0))
                        if c == d - 1:
                            cur -= (d - 1) * stride
                            c = 0
                        else:
                            cur += stride
                            c += 1
                    else:
                        if c == 0:
                            nxt, c = cur + (d - 1) * stride, d - 1
                        else:
                            nxt, c = cur - stride, c - 1
                        out.append((nxt, j, 1))
                        cur = nxt
            stride *= d
        return out

    def _label(self, h):
        lab = []
        for _ in range(self.levels):
            lab.append(h % self.k)
            h //= self.k
        return lab

    def _tree_route(self, src, dst):
        # Vertices are (level, label); a switch of level l covers the hosts whose label digits
        # l..L-1 equal its own. Up: parent port (dst / prod(up[0..l])) mod up[l], the parent's
        # label is the child's with digit l set to the port. Down: the child whose digit l-1 is
        # the destination's. A link is (child vertex, parent vertex, direction).
        L = self.levels
        dl = self._label(dst)
        lvl, lab = 0, self._label(src)
        out = []

        def covers(level, label):
            return level > 0 and all(label[i] == dl[i] for i in range(level, L))

        while not covers(lvl, lab):
            q = dst
            for i in range(lvl):
                q //= self.upv[i]
            port = q % self.upv[lvl]
            plab = list(lab)
            plab[lvl] = port
            out.append(((lvl, tuple(lab)), (lvl + 1, tuple(plab)), "up"))
            lvl, lab = lvl + 1, plab
        while lvl > 0:
            clab = list(lab)
            clab[lvl - 1] = dl[lvl - 1]
            out.append(((lvl - 1, tuple(clab)), (lvl, tuple(lab)), "down"))
            lvl, lab = lvl - 1, clab
        return out

    def mtk_target(self, block):
        """Mt-KaHyPar's target graph over the hosts of `block` (block position = block id):
        (edges, weights). A whole torus or mesh: its links, weight 1 (shortest paths are the
        hops); otherwise the complete graph weighted by hops."""
        k = len(block)
        if not self.is_tree() and k == self.hosts:
            edges = set()
            for v in range(k):
                for u in range(k):
                    if u > v and self.hops(u, v) == 1:
                        edges.add((v, u))
            edges = sorted(edges)
            return edges, [1] * len(edges)
        edges, weights = [], []
        for i in range(k):
            for j in range(i + 1, k):
                edges.append((i, j))
                weights.append(self.hops(block[i], block[j]))
        return edges, weights


def tree(levels, down, up=None, thin=False):
    return Machine("thinTree" if thin else "fatTree", levels=levels, down=down, up=up)


def torus(*dims):
    return Machine(f"torus{len(dims)}d", dims=dims)


def mesh(*dims):
    return Machine(f"mesh{len(dims)}d", dims=dims)


# ----------------------------------------------------------------------------- cases


class Case:
    """A task graph on a machine; `half`: tasks = hosts / 2 (the anchors get the block of hosts
    0 .. hosts/2 - 1, a slab of a grid or the first half of a tree's top-level subtrees)."""

    def __init__(self, graph, machine, half=False):
        self.graph, self.machine, self.half = graph, machine, half
        need = machine.hosts // 2 if half else machine.hosts
        assert graph.n == need, (graph.name, machine.name, graph.n, need)
        self.name = f"{graph.name}@{machine.name}" + ("/half" if half else "")
        self.block = list(range(graph.n))


def with_builtin(g, kind, wrap):
    g.builtin = (kind, wrap)
    return g


def case_set(exe, seed, quick):
    """The benchmark's cases: (graph factory, machine, half) lists, graphs built lazily."""
    G2 = lambda x, y, w: with_builtin(grid_graph([x, y], w), "GRID", w)
    G3 = lambda x, y, z, w: with_builtin(grid_graph([x, y, z], w), "CUBE", w)
    geo = lambda n: generated(exe, "geometric", n, seed)
    dela = lambda n: generated(exe, "delaunay", n, seed)
    npb = lambda k, n: npb_like(k, n, seed)
    full = [
        (lambda: G2(16, 16, True), torus(16, 16)),
        (lambda: G2(16, 16, False), mesh(16, 16)),
        (lambda: G2(32, 32, True), torus(32, 32)),
        (lambda: grid_graph([32, 8], False), torus(16, 16)),
        (lambda: grid_graph([64, 16], True), torus(32, 32)),
        (lambda: G3(4, 4, 4, False), torus(4, 4, 4)),
        (lambda: G3(8, 8, 8, True), torus(8, 8, 8)),
        (lambda: G3(8, 8, 8, False), mesh(8, 8, 8)),
        (lambda: grid_graph([16, 8, 8], True), torus(16, 8, 8)),
        (lambda: grid_graph([8, 8, 4], True), torus(16, 16)),
        (lambda: grid_graph([32, 16], True), torus(8, 8, 8)),
        (lambda: G2(16, 16, True), tree(4, 4)),
        (lambda: G3(8, 8, 8, False), tree(3, 8, 4, thin=True)),
        (lambda: binary_tree(256), torus(16, 16)),
        (lambda: binary_tree(1024), tree(5, 4)),
        (lambda: star(64), torus(4, 4, 4)),
        (lambda: star(256), tree(4, 4)),
        (lambda: geo(256), torus(16, 16)),
        (lambda: geo(512), mesh(8, 8, 8)),
        (lambda: geo(1024), torus(16, 8, 8)),
        (lambda: dela(256), tree(4, 4, 2, thin=True)),
        (lambda: dela(512), torus(8, 8, 8)),
        (lambda: dela(1024), mesh(32, 32)),
        (lambda: npb("cg", 256), tree(4, 4)),
        (lambda: npb("mg", 512), torus(8, 8, 8)),
        (lambda: npb("lu", 1024), torus(32, 32)),
        (lambda: npb("ft", 64), tree(3, 4)),
    ]
    half = [
        (lambda: G2(16, 8, True), torus(16, 16)),
        (lambda: G3(8, 8, 4, False), torus(8, 8, 8)),
        (lambda: dela(512), torus(32, 32)),
        (lambda: geo(128), tree(4, 4)),
        (lambda: binary_tree(512), torus(16, 8, 8)),
        (lambda: npb("mg", 256), mesh(8, 8, 8)),
        (lambda: npb("lu", 128), tree(4, 4, 2, thin=True)),
        (lambda: star(512), tree(5, 4)),
    ]
    big = [
        (lambda: G3(16, 16, 16, True), torus(16, 16, 16)),
        (lambda: dela(4096), tree(6, 4)),
    ]
    items = [(f, m, False) for f, m in full] + [(f, m, True) for f, m in half]
    items += [(f, m, False) for f, m in big]
    if quick:
        # at most 128 hosts for Mt-KaHyPar: about a minute in all
        keep = {5, 15, 26, 27, 30, 33}
        items = [it for i, it in enumerate(items) if i in keep]
    return items


# ----------------------------------------------------------------------------- figures


def figures(case, hosts):
    """Validity and figures of a mapping `hosts` (host of each task) of `case`: a dict with
    `valid`, `error`, `hopBytes`, `dilationMean`, `dilationMax`, `congestion`."""
    g, m = case.graph, case.machine
    if hosts is None or len(hosts) != g.n:
        return {"valid": False, "error": f"{0 if hosts is None else len(hosts)} hosts for {g.n} tasks"}
    if any(not (0 <= h < m.hosts) for h in hosts):
        return {"valid": False, "error": "a host outside the machine"}
    if len(set(hosts)) != g.n:
        return {"valid": False, "error": f"{g.n - len(set(hosts))} tasks share a host"}
    hop_bytes, hsum, hmax = 0, 0, 0
    load = {}
    for u, v, w in g.edges:
        for a, b in ((hosts[u], hosts[v]), (hosts[v], hosts[u])):
            r = m.route(a, b)
            n = len(r)
            hop_bytes += w * n
            hsum += n
            hmax = max(hmax, n)
            for link in r:
                load[link] = load.get(link, 0) + w
    msgs = 2 * len(g.edges)
    return {
        "valid": True,
        "hopBytes": hop_bytes,
        "dilationMean": hsum / msgs if msgs else 0.0,
        "dilationMax": hmax,
        "congestion": max(load.values()) if load else 0,
    }


# ----------------------------------------------------------------------------- mappers


def timed(cmd, **kw):
    t0 = time.perf_counter()
    p = sh(cmd, **kw)
    return p, time.perf_counter() - t0


def run_scotch(gmap, case, work):
    """Scotch's best mapping over SCOTCH_OPTION_SETS: (hosts, seconds summed, note)."""
    g = case.graph
    grf = os.path.join(work, "g.grf")
    tgt = os.path.join(work, "t.tgt")
    with open(grf, "w") as f:
        f.write(g.scotch())
    arch = case.machine.scotch_arch()
    if case.half:
        arch = f"sub {len(case.block)} {' '.join(map(str, case.block))} {arch}"
    with open(tgt, "w") as f:
        f.write(arch + "\n")
    best, total, notes = None, 0.0, []
    for opts in SCOTCH_OPTION_SETS:
        out = os.path.join(work, f"m{''.join(opts) or '-default'}.map")
        p, dt = timed([gmap, grf, tgt, out, "-b0", "-sv", "-Cd"] + opts)
        total += dt
        label = " ".join(opts) or "default"
        if p.returncode != 0:
            notes.append(f"{label}: exit {p.returncode} {p.stderr.strip()[:80]}")
            continue
        with open(out) as f:
            tok = f.read().split()
        hosts = [None] * g.n
        for i in range(int(tok[0])):
            v, t = int(tok[1 + 2 * i]), int(tok[2 + 2 * i])
            hosts[v] = case.block[t] if 0 <= t < len(case.block) else -1
        fig = figures(case, hosts if None not in hosts else None)
        if not fig["valid"]:
            notes.append(f"{label}: {fig['error']}")
            continue
        if best is None or fig["hopBytes"] < best[1]:
            best = (hosts, fig["hopBytes"], label)
    if best is None:
        return None, total, "; ".join(notes)
    return best[0], total, f"best of {len(SCOTCH_OPTION_SETS)} option sets: {best[2]}"


def run_mtk(case, seed, work, max_hosts):
    """Mt-KaHyPar's process mapping in its venv: (hosts, seconds, note); not run (hosts None,
    note 'skipped (cost)') above MTK_MAX_HOSTS blocks."""
    k = len(case.block)
    if k > max_hosts:
        return None, None, "skipped (cost)"
    edges, weights = case.machine.mtk_target(case.block)
    job = {
        "n": case.graph.n,
        "edges": [[u, v] for u, v, _ in case.graph.edges],
        "weights": [w for _, _, w in case.graph.edges],
        "k": k,
        "targetEdges": [list(e) for e in edges],
        "targetWeights": weights,
        "seed": seed,
    }
    inp, outp = os.path.join(work, "mtk-in.json"), os.path.join(work, "mtk-out.json")
    with open(inp, "w") as f:
        json.dump(job, f)
    p = sh([VENV_PY, os.path.abspath(__file__), "--mtk-worker", inp, outp])
    if p.returncode != 0:
        return None, None, f"failed: {p.stderr.strip().splitlines()[-1:]}"
    with open(outp) as f:
        res = json.load(f)
    hosts = [case.block[b] if 0 <= b < k else -1 for b in res["blocks"]]
    return hosts, res["seconds"], "map_onto_graph, 1 thread, epsilon 0"


def mtk_worker(inp, outp):
    """Runs inside the venv: reads the job, maps, writes {blocks, seconds}."""
    import mtkahypar

    with open(inp) as f:
        job = json.load(f)
    mtkahypar.set_seed(job["seed"])
    init = mtkahypar.initialize(1, False)
    t0 = time.perf_counter()
    ctx = init.context_from_preset(mtkahypar.PresetType.DEFAULT)
    ctx.logging = False
    ctx.set_mapping_parameters(job["k"], 0.0)
    edges = [tuple(e) for e in job["edges"]]
    g = init.create_graph(ctx, job["n"], len(edges), edges, [1] * job["n"], job["weights"])
    tedges = [tuple(e) for e in job["targetEdges"]]
    tg = init.create_target_graph(ctx, job["k"], len(tedges), tedges, job["targetWeights"])
    pg = g.map_onto_graph(tg, ctx)
    blocks = [pg.block_id(v) for v in range(job["n"])]
    dt = time.perf_counter() - t0
    with open(outp, "w") as f:
        json.dump({"blocks": blocks, "seconds": dt}, f)


def placelab_accepts(exe, strategy, work, **fields):
    """Whether this placelab binary accepts `strategy` with the scenario `fields` (a tiny
    scenario through `placelab check`)."""
    sc = {"version": 1, "engine": "place", "seed": 1, "system": {"kind": "torus2d", "x": 4, "y": 4},
          "job": {"kind": "GRID", "processes": 16, "rounds": 1}, "strategies": [strategy]}
    sc.update(fields)
    path = os.path.join(work, "probe.json")
    with open(path, "w") as f:
        json.dump(sc, f)
    return sh([exe, "check", path]).returncode == 0


def placelab_maps(exe):
    """Whether this placelab binary has `placelab map` (gmap's counterpart)."""
    return sh([exe, "map", "--help"]).returncode == 0


def map_ours(exe, case, strategy, seed, work, fields):
    """One of our strategies through `placelab map GRAPH SYSTEM` (mapping only, as gmap):
    (hosts, seconds, note, its printed figures)."""
    graph = os.path.join(work, "g.graph")
    if not os.path.exists(graph):
        with open(graph, "w") as f:
            f.write(case.graph.metis())
        # the machine too, so a kept case can be mapped again (scripts/bench-map-ab.py)
        with open(os.path.join(work, "system.json"), "w") as f:
            json.dump(case.machine.system(), f)
    out = os.path.join(work, f"{strategy}.map")
    cmd = [exe, "map", graph, json.dumps(case.machine.system()), "--strategy", strategy,
           "--seed", str(seed), "-o", out, "--json"]
    if strategy == "mapped" and "objective" in fields:
        cmd += ["--objective", fields["objective"]]
    p, dt = timed(cmd)
    if p.returncode != 0:
        msg = p.stderr.strip()
        if "not placed" in msg:
            return None, dt, msg.split("not placed: ", 1)[1][:200], None
        return None, dt, f"placelab failed: {msg[:200]}", None
    with open(out) as f:
        hosts = [int(x) for x in f.read().split()]
    return hosts, dt, "", json.loads(p.stdout)


def run_ours(exe, case, strategy, seed, work, fields, maps=False):
    """One of our strategies: (hosts, seconds, note, figures to check or None). With `maps`
    through `placelab map` ([`map_ours`]), except `identity`, which needs the built-in GRID/CUBE
    job (when it has the case's exact graph); otherwise through `placelab run` (the time then
    includes the report's one-round simulation). `fields` are added to the scenario of
    `mapped` (its objective)."""
    g = case.graph
    if maps and strategy != "identity":
        return map_ours(exe, case, strategy, seed, work, fields)
    job = {"kind": "metis", "graph": g.metis(), "rounds": 1, "messageBytes": 1}
    if strategy == "identity":
        if g.builtin is None:
            return None, None, "n/a (not a GRID/CUBE job)", None
        kind, wrap = g.builtin
        job = {"kind": kind, "processes": g.n, "wrap": wrap, "rounds": 1, "messageBytes": 1}
    sc = {"version": 1, "engine": "place", "seed": seed, "system": case.machine.system(),
          "job": job, "strategies": [strategy]}
    if strategy == "mapped":
        sc.update(fields)
    path = os.path.join(work, f"place-{strategy}.json")
    with open(path, "w") as f:
        json.dump(sc, f)
    p, dt = timed([exe, "run", path])
    if p.returncode != 0:
        return None, dt, f"placelab failed: {p.stderr.strip()[:200]}", None
    rep = json.loads(p.stdout)["report"]
    c = rep["cases"][0]
    if strategy == "identity":
        flat = c["taskEdges"]
        te = sorted(zip(flat[0::2], flat[1::2]))
        if te != [(u, v) for u, v, _ in g.edges]:
            return None, None, "n/a (built-in job's graph differs)", None
    run = c["runs"][0]
    if not run["placed"]:
        return None, dt, f"not placed: {run.get('reason')}", None
    return run["hosts"], dt, run.get("reason") or "", run


# ----------------------------------------------------------------------------- driver


def fmt_num(x):
    if x is None:
        return "-"
    if isinstance(x, float) and not x.is_integer():
        return f"{x:.3f}"
    return f"{int(x):,}"


def gmean(xs):
    xs = [x for x in xs if x is not None and x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--cases", default=None)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--placelab", default=None)
    ap.add_argument("--no-mtk", action="store_true")
    ap.add_argument("--mtk-max-hosts", type=int, default=MTK_MAX_HOSTS)
    ap.add_argument("--keep", default=None)
    ap.add_argument("--via-run", action="store_true")
    ap.add_argument("--mtk-worker", nargs=2, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.mtk_worker:
        mtk_worker(*args.mtk_worker)
        return 0
    t_start = time.perf_counter()
    gmap, exe, mtk = ensure_tools(args)
    versions = tool_versions(gmap, exe, mtk)
    work_root = args.keep or tempfile.mkdtemp(prefix="mapbench-")
    os.makedirs(work_root, exist_ok=True)
    try:
        return run_cases(args, gmap, exe, mtk, versions, work_root, t_start)
    finally:
        if not args.keep:
            shutil.rmtree(work_root, ignore_errors=True)


def run_cases(args, gmap, exe, mtk, versions, work_root, t_start):
    """Maps every selected case with every mapper, prints the tables and the summary, writes
    the results files; returns the exit status (1 when any FAIL line was printed)."""
    strategies = list(OUR_STRATEGIES)
    mapped_fields = {}
    if placelab_accepts(exe, "mapped", work_root):
        strategies.append("mapped")
        # the anchors minimize hop-bytes: so does `mapped` here (its default may differ)
        if placelab_accepts(exe, "mapped", work_root, objective="hopBytes"):
            mapped_fields = {"objective": "hopBytes"}
    else:
        print("note: this placelab has no `mapped` strategy; running the other five", flush=True)
    if mapped_fields:
        print(f"mapped runs with {json.dumps(mapped_fields)}", flush=True)
    mappers = ["scotch"] + (["mtkahypar"] if mtk else []) + strategies
    maps = placelab_maps(exe) and not args.via_run
    print("our strategies' time: " + ("`placelab map` (mapping only)" if maps else
          "`placelab run` (with the report's one-round simulation)"), flush=True)
    ctx = {"gmap": gmap, "exe": exe, "seed": args.seed, "mtkMaxHosts": args.mtk_max_hosts,
           "mappedFields": mapped_fields, "maps": maps}
    print("versions: " + ", ".join(f"{k} {v}" for k, v in versions.items()), flush=True)
    load0 = os.getloadavg()[0]
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} cores, "
          f"load average {load0:.1f}", flush=True)

    rx = re.compile(args.cases) if args.cases else None
    results, fails = [], []
    for factory, machine, half in case_set(exe, args.seed, args.quick):
        graph = factory()
        case = Case(graph, machine, half)
        if rx and not rx.search(case.name):
            continue
        work = os.path.join(work_root, re.sub(r"[^A-Za-z0-9.-]+", "_", case.name))
        os.makedirs(work, exist_ok=True)
        rows = map_case(case, mappers, ctx, work, fails)
        valid = [r["hopBytes"] for r in rows.values() if r["valid"]]
        best = min(valid) if valid else None
        results.append({"case": case.name, "graph": graph.name, "machine": machine.name,
                        "half": half, "tasks": graph.n, "edges": len(graph.edges),
                        "hosts": machine.hosts, "best": best, "mappers": rows})
        print_case(case, rows, best)

    summary = summarize(results, mappers)
    wall = time.perf_counter() - t_start
    write_results(results, {"seed": args.seed, "quick": args.quick, "cases": args.cases,
                            "versions": versions, "wallSeconds": wall, "cores": os.cpu_count(),
                            "loadAverage": [load0, os.getloadavg()[0]], "summary": summary,
                            "fails": fails})
    print(f"\nwrote {OUT_DIR}/results.json and results.csv; wall time {wall:.0f} s, "
          f"load average {load0:.1f} at the start, {os.getloadavg()[0]:.1f} at the end")
    for line in fails:
        print(line)
    if fails:
        print(f"{len(fails)} FAIL line(s)")
        return 1
    return 0


def write_results(results, meta):
    """OUT_DIR/results.json (`meta` and every case's rows) and results.csv (a row per case and
    mapper)."""
    os.makedirs(OUT_DIR, exist_ok=True)
    with open(os.path.join(OUT_DIR, "results.json"), "w") as f:
        json.dump(dict(meta, results=results), f, indent=1)
    with open(os.path.join(OUT_DIR, "results.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["case", "tasks", "hosts", "half", "mapper", "valid", "hopBytes",
                    "hopBytesOverScotch", "dilationMean", "dilationMax", "congestion", "seconds",
                    "note"])
        for r in results:
            sc = r["mappers"]["scotch"].get("hopBytes")
            for k, m in r["mappers"].items():
                hb = m.get("hopBytes")
                w.writerow([r["case"], r["tasks"], r["hosts"], r["half"], k, m["valid"], hb,
                            f"{hb / sc:.4f}" if hb is not None and sc else "",
                            m.get("dilationMean"), m.get("dilationMax"), m.get("congestion"),
                            m["seconds"], m["note"] if m["valid"] else m.get("error")])


def map_case(case, mappers, ctx, work, fails):
    """Maps `case` with every mapper: {mapper: figures with `seconds` and `note`}. Appends (and
    prints) a FAIL line to `fails` for an invalid mapping of ours or a recount of ours that
    differs from the report; an anchor's invalid mapping is its row's error."""
    rows = {}
    for mapper in mappers:
        report_run = None
        if mapper == "scotch":
            hosts, secs, note = run_scotch(ctx["gmap"], case, work)
        elif mapper == "mtkahypar":
            hosts, secs, note = run_mtk(case, ctx["seed"], work, ctx["mtkMaxHosts"])
        else:
            hosts, secs, note, report_run = run_ours(ctx["exe"], case, mapper, ctx["seed"], work,
                                                      ctx["mappedFields"], ctx["maps"])
        fig = figures(case, hosts) if hosts is not None else {"valid": False, "error": note}
        if hosts is not None and not fig["valid"]:
            if mapper in ("scotch", "mtkahypar"):
                fig["error"] = f"invalid mapping: {fig['error']}"
            else:
                fails.append(f"FAIL {case.name} {mapper}: invalid mapping: {fig['error']}")
                print(fails[-1], flush=True)
        if mapper in ("scotch", "mtkahypar") and fig["valid"] and case.half:
            assert set(hosts) <= set(case.block)
        if report_run is not None and fig["valid"]:
            for key in ("hopBytes", "dilationMax", "dilationMean", "congestion"):
                ours, theirs = fig[key], report_run[key]
                if abs(ours - theirs) > 1e-9 * max(1.0, abs(theirs)):
                    fails.append(f"FAIL {case.name} {mapper}: recounted {key} {ours} != "
                                 f"placelab's {theirs}")
                    print(fails[-1], flush=True)
        rows[mapper] = dict(fig, seconds=secs, note=note)
    return rows


def print_case(case, rows, best):
    """One case's table: every mapper's figures, its hop-bytes over Scotch's, `*` on the best."""
    g = case.graph
    sc = rows["scotch"]["hopBytes"] if rows["scotch"]["valid"] else None
    print(f"\n{case.name}: {g.n} tasks, {len(g.edges)} edges, {case.machine.hosts} hosts"
          + (f" (anchors on hosts 0..{g.n - 1})" if case.half else ""), flush=True)
    print(f"  {'mapper':10} {'hop-bytes':>12} {'/scotch':>8} {'dil.mean':>8} {'dil.max':>7} "
          f"{'congestion':>11} {'time s':>8}  note")
    for k, r in rows.items():
        t = "-" if r["seconds"] is None else f"{r['seconds']:.3f}"
        if not r["valid"]:
            print(f"  {k:10} {r.get('error') or r['note']}")
            continue
        rel = f"{r['hopBytes'] / sc:.3f}" if sc else "-"
        mark = " *" if r["hopBytes"] == best else ""
        print(f"  {k:10} {r['hopBytes']:>12,} {rel:>8} {r['dilationMean']:>8.3f} "
              f"{r['dilationMax']:>7} {r['congestion']:>11,} {t:>8}  {r['note']}{mark}")


def summarize(results, mappers):
    """Prints and returns the summary: per mapper the geometric mean of hop-bytes and of mapping
    time relative to Scotch's (cases where both have a valid mapping), the cases where it is the
    best or within NEAR of it, and the cases where `mapped` is more than NEAR above the best
    anchor."""
    print(f"\nSummary over {len(results)} cases (ratios: geometric means over the cases where "
          "both mappers have a valid mapping)")
    print(f"  {'mapper':10} {'cases':>5} {'hop-bytes/scotch':>16} {'time/gmap':>10} "
          f"{'within 2% of best':>18}")
    summary = {}
    for k in mappers:
        hb, tm, near, n = [], [], 0, 0
        for r in results:
            m, s = r["mappers"].get(k), r["mappers"]["scotch"]
            if not m or not m["valid"]:
                continue
            n += 1
            if m["hopBytes"] <= r["best"] * (1 + NEAR):
                near += 1
            if s["valid"] and s["hopBytes"] > 0:
                hb.append(m["hopBytes"] / s["hopBytes"])
                if m["seconds"] and s["seconds"]:
                    tm.append(m["seconds"] / s["seconds"])
        g_hb, g_tm = gmean(hb), gmean(tm)
        summary[k] = {"cases": n, "hopBytesOverScotch": g_hb, "timeOverGmap": g_tm,
                      "withinNearOfBest": near}
        print(f"  {k:10} {n:>5} {fmt_num(g_hb):>16} {fmt_num(g_tm):>10} {near:>10} of {n}")
    if "mapped" in mappers:
        worse = []
        for r in results:
            m = r["mappers"].get("mapped")
            anchors = {a: r["mappers"][a]["hopBytes"] for a in ("scotch", "mtkahypar")
                       if a in r["mappers"] and r["mappers"][a]["valid"]}
            if not m or not m["valid"] or not anchors:
                continue
            who = min(anchors, key=anchors.get)
            if m["hopBytes"] > anchors[who] * (1 + NEAR):
                worse.append({"case": r["case"], "mapped": m["hopBytes"],
                              "best": anchors[who], "by": who,
                              "ratio": m["hopBytes"] / anchors[who]})
        summary["mappedWorseThanAnchors"] = worse
        print(f"\n`mapped` more than {NEAR:.0%} above the best anchor: {len(worse)} case(s)")
        for w in worse:
            print(f"  {w['case']}: mapped {w['mapped']:,}, {w['by']} {w['best']:,} "
                  f"({w['ratio']:.3f}x)")
    return summary


if __name__ == "__main__":
    sys.exit(main())
