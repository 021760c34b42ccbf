"""SimGrid's Python module for the scripts that compare with it (simgrid-fixture.py,
bench-netsim.py): Debian's python3-simgrid, installed with apt-get when missing, and the
script re-run in the system interpreter where that module lives. Standard library only."""
import os
import subprocess
import sys

PYTHON = "/usr/bin/python3"  # the Debian module lives in the system interpreter


def ensure_simgrid(tag):
    """Returns when `import simgrid` works; else re-runs the calling script under PYTHON,
    installing python3-simgrid first if that interpreter lacks it too (`tag` prefixes the
    message)."""
    try:
        import simgrid  # noqa: F401
        return
    except ImportError:
        pass
    if sys.executable != PYTHON and os.path.exists(PYTHON):
        os.execv(PYTHON, [PYTHON] + sys.argv)
    print(f"[{tag}] installing Debian python3-simgrid", file=sys.stderr)
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
    subprocess.run(["apt-get", "install", "-y", "-qq", "--no-install-recommends",
                    "python3-simgrid"], check=True, env=env)
    os.execv(PYTHON, [PYTHON] + sys.argv)
