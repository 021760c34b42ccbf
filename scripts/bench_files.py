"""Shared by the file benchmarks (bench-swf.py, bench-trace-files.py): one process measured
alone, its wall time and its own peak resident memory."""
import subprocess
import sys
import time

# Runs argv[2:] with stdout to the file argv[1] and prints the child's peak resident memory
# (KiB). A fresh small interpreter starts it: a child's ru_maxrss counts the memory of the
# process it was forked from until its exec, so forking from this script (which holds reports)
# would inflate it.
SPAWN = """
import os, subprocess, sys
with open(sys.argv[1], "wb") as out:
    p = subprocess.Popen(sys.argv[2:], stdout=out)
    _, status, usage = os.wait4(p.pid, 0)
print(usage.ru_maxrss, status)
"""


def measure(args, out_path, stderr=False):
    """(wall seconds, peak RSS MiB, stdout bytes) of one process; with `stderr`, its standard
    error text too."""
    t0 = time.perf_counter()
    r = subprocess.run([sys.executable, "-c", SPAWN, out_path, *args], capture_output=True, text=True)
    wall = time.perf_counter() - t0
    rss_kib, status = r.stdout.split()
    if status != "0":
        sys.exit(f"{' '.join(args)} failed: {r.stderr}")
    with open(out_path, "rb") as f:
        if stderr:
            return wall, int(rss_kib) / 1024, f.read(), r.stderr
        return wall, int(rss_kib) / 1024, f.read()
