#!/usr/bin/env python3
"""Makes dist/: the page as one self-contained static folder that any static host serves as is.

Input: www/ after scripts/build.sh has put the wasm in www/pkg/ and the examples in www/examples/.

Rules the output keeps (e2e/tests/hosting.test.mjs checks them in a browser):
- Every script, the stylesheet and the wasm get a content hash in their name (`main.3f2a9c1b04.js`,
  `pkg/placelab_bg.<hash>.wasm`), so a new release never mixes with a cached old one. A module's
  hash covers its text after its own imports were rewritten, so it changes whenever anything it
  imports changes (modules are hashed leaves first; an import cycle is an error).
- Every reference is relative (`./x.js`, `../x.js`, `x.css`), so the folder works under any
  sub-path (GitHub Pages serves it from `/<repository>/`); a root-absolute or other-origin
  reference is an error.
- Only `index.html` and the examples (data fetched at run time by name) keep their names.
- `manifest.json` maps each source path to its hashed path (tests import modules through it).
"""
import hashlib, json, pathlib, posixpath, re, shutil, sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
# Usage: scripts/dist.py [SOURCE OUTPUT] (default www/ and dist/).
SRC, OUT = (pathlib.Path(a).resolve() for a in sys.argv[1:3]) if len(sys.argv) >= 3 else (ROOT / "www", ROOT / "dist")
HASH_LEN = 10
HASHED_EXT = {".js", ".css", ".wasm"}

# The references a module can make to another file: static and dynamic imports, re-exports,
# and `new URL('x', import.meta.url)` (the worker and the wasm are loaded this way).
JS_REFS = [  # (pattern, url_like)
    (re.compile(r"""(\bfrom\s*)(['"])([^'"]+)\2"""), False),
    (re.compile(r"""(\bimport\s*)(['"])([^'"]+)\2"""), False),
    (re.compile(r"""(\bimport\s*\(\s*)(['"])([^'"]+)\2"""), False),
    (re.compile(r"""(\bnew\s+URL\s*\(\s*)(['"])([^'"]+)\2(?=\s*,\s*import\.meta\.url)"""), True),
]
HTML_REFS = re.compile(r"""(\b(?:src|href)\s*=\s*)(["'])([^"']+)\2""")


def fail(msg):
    sys.exit(f"[dist] error: {msg}")


def content_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:HASH_LEN]


def hashed_name(rel: str, data: bytes) -> str:
    stem, ext = posixpath.splitext(rel)
    return f"{stem}.{content_hash(data)}{ext}"


def resolve(from_rel: str, spec: str, url_like: bool = False) -> str:
    """The source path `spec` (relative to file `from_rel`) points to, None for what is not a file
    reference; errors on another origin or a root-absolute path. An import specifier is a file only
    with `./`, `../` or `/`; a URL (`url_like`: `new URL(spec, import.meta.url)`, src, href) is
    relative without them too."""
    if re.match(r"^[a-z][a-z0-9+.-]*:", spec, re.I) or spec.startswith("//"):
        if spec.startswith("data:"):
            return None
        fail(f"{from_rel}: '{spec}' is on another origin; the page must fetch nothing from elsewhere")
    if not url_like and not spec.startswith((".", "/")):
        return None  # not a file reference (bare words, e.g. in a comment: browsers need ./ or ../)
    if spec.startswith("/"):
        fail(f"{from_rel}: '{spec}' is root-absolute; use a relative path so any sub-path works")
    target = posixpath.normpath(posixpath.join(posixpath.dirname(from_rel), spec))
    if target.startswith("../"):
        fail(f"{from_rel}: '{spec}' leaves the page's folder")
    return target


def relative(from_rel: str, to_rel: str, dot: bool) -> str:
    rel = posixpath.relpath(to_rel, posixpath.dirname(from_rel) or ".")
    return f"./{rel}" if dot and not rel.startswith("../") else rel


def main():
    if not (SRC / "pkg" / "placelab_bg.wasm").exists():
        fail(f"{SRC}/pkg/placelab_bg.wasm is missing; run scripts/build.sh")
    files = {p.relative_to(SRC).as_posix(): p for p in SRC.rglob("*") if p.is_file()}
    files = {k: v for k, v in files.items() if not k.endswith(".gitignore") and not k.endswith(".d.ts")}
    texts = {k: v.read_text(encoding="utf-8") for k, v in files.items() if k.endswith(".js")}

    deps = {}
    for rel, text in texts.items():
        deps[rel] = set()
        for rx, url_like in JS_REFS:
            for m in rx.finditer(text):
                target = resolve(rel, m.group(3), url_like)
                if target is None:
                    continue
                if target not in files:
                    fail(f"{rel}: '{m.group(3)}' refers to {target}, which is not in {SRC}")
                deps[rel].add(target)

    names = {}  # source path -> hashed path

    def rewrite_js(rel, text):
        for rx, url_like in JS_REFS:
            def sub(m):
                target = resolve(rel, m.group(3), url_like)
                if target is None:
                    return m.group(0)
                new = relative(rel, names[target], m.group(3).startswith("."))
                return f"{m.group(1)}{m.group(2)}{new}{m.group(2)}"
            text = rx.sub(sub, text)
        return text

    outputs = {}
    for rel, path in files.items():
        if posixpath.splitext(rel)[1] in HASHED_EXT and not rel.endswith(".js"):
            data = path.read_bytes()
            names[rel] = hashed_name(rel, data)
            outputs[names[rel]] = data

    visiting = set()

    def visit(rel):
        if rel in names:
            return
        if rel in visiting:
            fail(f"import cycle through {rel}")
        visiting.add(rel)
        for d in sorted(deps.get(rel, ())):
            visit(d)
        data = rewrite_js(rel, texts[rel]).encode("utf-8")
        names[rel] = hashed_name(rel, data)
        outputs[names[rel]] = data
        visiting.discard(rel)

    for rel in sorted(texts):
        visit(rel)

    html = files["index.html"].read_text(encoding="utf-8")

    def sub_html(m):
        target = resolve("index.html", m.group(3), True)
        if target is None:
            return m.group(0)
        if target not in names:
            fail(f"index.html: '{m.group(3)}' is not a hashed asset")
        return f"{m.group(1)}{m.group(2)}{names[target]}{m.group(2)}"

    outputs["index.html"] = HTML_REFS.sub(sub_html, html).encode("utf-8")
    for rel, path in files.items():
        if rel.startswith("examples/"):
            outputs[rel] = path.read_bytes()
    outputs["manifest.json"] = (json.dumps(dict(sorted(names.items())), indent=1) + "\n").encode()
    # GitHub Pages: serve the folder as is (no Jekyll processing).
    outputs[".nojekyll"] = b""

    if OUT.exists():
        shutil.rmtree(OUT)
    for rel, data in outputs.items():
        dest = OUT / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes(data)
    total = sum(len(d) for d in outputs.values())
    print(f"[dist] {OUT}: {len(outputs)} files, {total} bytes; entry {names['main.js']}", file=sys.stderr)


if __name__ == "__main__":
    main()
