#!/usr/bin/env python3
"""Copies playground-examples/*.json (scenarios) and playground-examples/studies/*.json (studies)
to www/examples/ and writes www/examples/index.json: one entry per scenario, then one per study
(`"study": true`, its engine the base scenario's), which the page lists as one click away."""
import json, pathlib, shutil

root = pathlib.Path(__file__).resolve().parent.parent
src, dst = root / "playground-examples", root / "www" / "examples"
if dst.exists():
    shutil.rmtree(dst)
(dst / "studies").mkdir(parents=True)
DEFAULT = "tianhe-npb-stream.json"
entries = []
for f in sorted(src.glob("*.json")):
    doc = json.loads(f.read_text())
    shutil.copy(f, dst / f.name)
    entries.append({"file": f.name, "name": doc.get("name", f.stem), "engine": doc["engine"],
                    "description": doc.get("description", "")})
# the default example first, then the others in file order
entries.sort(key=lambda e: e["file"] != DEFAULT)


def base_engine(study, path):
    """The engine of a study's base: inline, an example's id, or a file beside the study."""
    if isinstance(study.get("base"), dict):
        return study["base"]["engine"]
    if "example" in study:
        return json.loads((src / f"{study['example']}.json").read_text())["engine"]
    return json.loads((path.parent / study["baseFile"]).read_text())["engine"]


for f in sorted((src / "studies").glob("*.json")):
    doc = json.loads(f.read_text())
    shutil.copy(f, dst / "studies" / f.name)
    entries.append({"file": f"studies/{f.name}", "name": doc["name"], "engine": base_engine(doc, f),
                    "description": doc.get("description", ""), "study": True})
(dst / "index.json").write_text(json.dumps({"default": DEFAULT, "examples": entries}, indent=1))
