"""The Python package's cost over the CLI on one study: `placelab.run_study` against
`placelab study` (a release build) with the same threads, both measured in this run, alternating,
the median of each printed with their ratio. Both must produce the same tidy.csv.

    cargo build --release --bin placelab
    target/pyenv/bin/python python/benches/study_overhead.py [--cli target/release/placelab] [--threads 2] [--repeats 5]
"""

import argparse
import copy
import importlib.util
import json
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

import placelab

try:  # imported once here, not inside the first measurement
    import pandas  # noqa: F401
except ImportError:
    pass

REPO = pathlib.Path(__file__).resolve().parents[2]

# The worked example's study (docs/python-example.py, loaded from the file) with 16 replicates:
# 64 points.
_spec = importlib.util.spec_from_file_location("python_example", REPO / "docs" / "python-example.py")
_example = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_example)  # defines STUDY and main() only; main() is not run
STUDY = copy.deepcopy(_example.STUDY)
STUDY["name"] = "bench: " + STUDY["name"][0].lower() + STUDY["name"][1:]
STUDY["replicates"]["count"] = 16


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", default=str(REPO / "target" / "release" / "placelab"))
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        study_file = pathlib.Path(tmp) / "study.json"
        study_file.write_text(json.dumps(STUDY))
        cli_times, py_times, pandas_times = [], [], []
        for k in range(args.repeats):
            out = pathlib.Path(tmp) / f"out{k}"
            t = time.perf_counter()
            subprocess.run(
                [args.cli, "study", str(study_file), "-o", str(out), "--threads", str(args.threads)],
                check=True,
                capture_output=True,
            )
            cli_times.append(time.perf_counter() - t)
            # the tables as lists of dicts (pandas hidden), then as DataFrames
            saved = sys.modules.get("pandas")
            sys.modules["pandas"] = None
            try:
                t = time.perf_counter()
                result = placelab.run_study(STUDY, threads=args.threads)
                py_times.append(time.perf_counter() - t)
            finally:
                if saved is None:
                    del sys.modules["pandas"]
                else:
                    sys.modules["pandas"] = saved
            t = time.perf_counter()
            placelab.run_study(STUDY, threads=args.threads)
            pandas_times.append(time.perf_counter() - t)
            assert result.files["tidy.csv"] == (out / "tidy.csv").read_text(), "tables differ"
    cli = statistics.median(cli_times)
    py = statistics.median(py_times)
    pd = statistics.median(pandas_times)
    print(f"study: 64 points x 3 policies, threads={args.threads}, median of {args.repeats} (os.cpu_count() = {os.cpu_count()})")
    print(f"placelab study (CLI, release)        {cli * 1000:8.1f} ms   1.00")
    print(f"placelab.run_study (lists of dicts)  {py * 1000:8.1f} ms   {py / cli:.2f}")
    print(f"placelab.run_study (pandas)          {pd * 1000:8.1f} ms   {pd / cli:.2f}")


if __name__ == "__main__":
    main()
