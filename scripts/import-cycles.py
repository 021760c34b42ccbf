#!/usr/bin/env python3
"""Reports import circles in the library (src/, the CLI and wasm boundary excluded by default).

Every file is a module (`src/a/b.rs` and `src/a/b/mod.rs` are `a::b`). An edge `x -> y` is a
path in `x` (a `use` tree or an inline path, with `crate::`, `super::` or `self::`) that
resolves to a module `y` or an item in it. Unit-test modules are left out. Two levels are reported:
- top level: `crate::alloc` -> `crate::scenario` etc., edges inside one top-level module ignored;
- files: within each top-level module, the files' edges among themselves (`mod.rs` declaring
  its children is not an edge; its re-exports are).
A circle is a strongly connected component of more than one module.

Usage: scripts/import-cycles.py [-v] [src-dir]   (-v: the edges inside each file-level circle)
"""
import os
import re
import sys

VERBOSE = "-v" in sys.argv
sys.argv = [a for a in sys.argv if a != "-v"]
ROOT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "src")
ROOT = os.path.normpath(ROOT)


def modules():
    mods = {}
    for dirpath, _, files in os.walk(ROOT):
        rel = os.path.relpath(dirpath, ROOT)
        if rel.split(os.sep)[0] == "bin":
            continue
        for f in files:
            if not f.endswith(".rs"):
                continue
            parts = [] if rel == "." else rel.split(os.sep)
            if f in ("mod.rs", "lib.rs"):
                name = tuple(parts)
            else:
                name = tuple(parts + [f[:-3]])
            if name == ("wasm",):
                continue
            mods[name] = os.path.join(dirpath, f)
    return mods


def strip_comments(text):
    # unit tests (a `#[cfg(test)] mod` at the end of a file) are not part of the layering
    text = re.split(r"\n#\[cfg\(test\)\]\nmod ", text)[0]
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def expand_use_tree(tree):
    """'a::{b, c::{d, e}}' -> ['a::b', 'a::c::d', 'a::c::e']"""
    tree = tree.strip()
    i = tree.find("{")
    if i < 0:
        return [tree.split(" as ")[0].strip()]
    prefix = tree[:i]
    body = tree[i + 1 : tree.rfind("}")]
    items, depth, cur = [], 0, ""
    for ch in body:
        if ch == "," and depth == 0:
            items.append(cur)
            cur = ""
            continue
        depth += ch == "{"
        depth -= ch == "}"
        cur += ch
    items.append(cur)
    out = []
    for it in items:
        if it.strip():
            for p in expand_use_tree(it):
                out.append(prefix + p if p != "self" else prefix.rstrip(":"))
    return out


def inline_modules_seen_from_their_file(text):
    """Inside an inline `mod name { ... }`, `super::` is the file's own module: written `self::`."""
    out, i = [], 0
    for m in re.finditer(r"\bmod\s+[A-Za-z_][A-Za-z0-9_]*\s*\{", text):
        if m.start() < i:
            continue
        depth, j = 1, m.end()
        while j < len(text) and depth:
            depth += text[j] == "{"
            depth -= text[j] == "}"
            j += 1
        out.append(text[i : m.end()])
        out.append(re.sub(r"\bsuper::", "self::", text[m.end() : j]))
        i = j
    out.append(text[i:])
    return "".join(out)


def paths_in(text):
    text = inline_modules_seen_from_their_file(strip_comments(text))
    paths = []
    for m in re.finditer(r"\buse\s+([^;]+);", text):
        paths += expand_use_tree(m.group(1))
    text = re.sub(r"\buse\s+[^;]+;", "", text)
    # inline paths: from the crate, a parent, or (bare) a child module
    paths += re.findall(r"(?<![A-Za-z0-9_:])(?:[A-Za-z_][A-Za-z0-9_]*)(?:::[A-Za-z_][A-Za-z0-9_]*)+", text)
    return paths


TEXT = {}
ITEM = r"^\s*(?:pub(?:\([a-z ]+\))?\s+)?(?:const\s+fn|fn|struct|enum|const|static|type|trait|macro_rules!)\s+%s\b"


def defines(m, name):
    return re.search(ITEM % re.escape(name), TEXT[m], re.M) is not None


def reexports(m):
    """`pub use` paths of module m, expanded."""
    out = []
    for u in re.finditer(r"\bpub(?:\([a-z ]+\))?\s+use\s+([^;]+);", TEXT[m]):
        out += expand_use_tree(u.group(1))
    return out


def resolve(mod, path, mods, depth=0):
    """The module that defines what `path` (used in `mod`) names, seen through re-exports."""
    parts = path.replace(" ", "").split("::")
    if parts[0] == "crate":
        base, rest = (), parts[1:]
    elif parts[0] in ("super", "self"):
        base = mod
        rest = parts
        while rest and rest[0] in ("super", "self"):
            if rest[0] == "super":
                base = base[:-1]
            rest = rest[1:]
    elif mod + (parts[0],) in mods:
        # a path relative to the module: one of its children
        base, rest = mod, parts
    elif depth < 8:
        # a name the module imported (`use crate::graph;`, `use super::scenario::{self, X}`)
        for u in re.finditer(r"\buse\s+([^;]+);", TEXT.get(mod, "")):
            for q in expand_use_tree(u.group(1)):
                segs = q.split("::")
                if segs[-1] == parts[0] and segs[0] in ("crate", "super", "self"):
                    return resolve(mod, "::".join(segs + parts[1:]), mods, depth + 1)
        return None
    else:
        return None
    target = base
    i = 0
    while i < len(rest) and target + (rest[i],) in mods:
        target = target + (rest[i],)
        i += 1
    if i < len(rest) and rest[i] not in ("*", "self") and depth < 8 and not defines(target, rest[i]):
        # an item the module re-exports: follow the re-export to the module that defines it
        name = rest[i]
        for r in reexports(target):
            last = r.split("::")[-1]
            if last == name:
                t = resolve(target, r, mods, depth + 1)
                if t is not None:
                    return t
            elif last == "*":
                t = resolve(target, r[:-3], mods, depth + 1)
                if t is not None and t != target and defines(t, name):
                    return t
    return target


def sccs(nodes, edges):
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def strong(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(nodes):
        if v not in index:
            strong(v)
    return out


def name(m):
    return "crate" if not m else "::".join(m)


def main():
    mods = modules()
    for m, f in mods.items():
        with open(f) as fh:
            TEXT[m] = strip_comments(fh.read())
    file_edges = {}
    for m, f in mods.items():
        with open(f) as fh:
            text = fh.read()
        for p in paths_in(text):
            t = resolve(m, p, mods)
            if t is None or t == m or t == m[: len(t)] and len(t) < len(m) and t == ():
                continue
            # A module using its own ancestor's items (e.g. `super::Foo` from a child) is an edge;
            # the crate root re-exports nothing that matters here.
            if t == ():
                continue
            file_edges.setdefault(m, set()).add(t)

    top_edges = {}
    for a, ts in file_edges.items():
        for b in ts:
            if a and b and a[0] != b[0]:
                top_edges.setdefault((a[0],), set()).add((b[0],))
    tops = {(m[0],) for m in mods if m}
    found = 0
    print("Top-level circles (edges inside one top-level module ignored):")
    for comp in sccs(tops, top_edges):
        found += 1
        print("  " + " <-> ".join(name(c) for c in comp))
        for a in comp:
            for b in comp:
                if b in top_edges.get(a, ()):
                    why = sorted(
                        name(x) + " -> " + name(y)
                        for x, ys in file_edges.items()
                        for y in ys
                        if x and y and (x[0],) == a and (y[0],) == b
                    )
                    print("    %s -> %s: %s" % (name(a), name(b), "; ".join(why)))
    print("File-level circles inside a top-level module:")
    for top in sorted(tops):
        nodes = {m for m in mods if m[:1] == top}
        edges = {a: {b for b in ts if b in nodes} for a, ts in file_edges.items() if a in nodes}
        for comp in sccs(nodes, edges):
            found += 1
            print("  " + " <-> ".join(name(c) for c in comp))
            if VERBOSE:
                for a in comp:
                    inner = sorted(name(b) for b in edges.get(a, ()) if b in comp)
                    print("    %s -> %s" % (name(a), ", ".join(inner)))
    if not found:
        print("  none")


if __name__ == "__main__":
    main()
