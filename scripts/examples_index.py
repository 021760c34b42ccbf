#!/usr/bin/env python3
"""Copies playground-examples/*.json to www/examples/ and writes www/examples/index.json."""
import json, pathlib, shutil

root = pathlib.Path(__file__).resolve().parent.parent
src, dst = root / "playground-examples", root / "www" / "examples"
if dst.exists():
    shutil.rmtree(dst)
dst.mkdir(parents=True)
DEFAULT = "tianhe-npb-stream.json"
entries = []
for f in sorted(src.glob("*.json")):
    doc = json.loads(f.read_text())
    shutil.copy(f, dst / f.name)
    entries.append({"file": f.name, "name": doc.get("name", f.stem), "engine": doc["engine"],
                    "description": doc.get("description", "")})
# the default example first, then the others in file order
entries.sort(key=lambda e: e["file"] != DEFAULT)
(dst / "index.json").write_text(json.dumps({"default": DEFAULT, "examples": entries}, indent=1))
