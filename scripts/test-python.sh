#!/usr/bin/env bash
# Tests the Python package (python/, docs/python.md): a virtual environment in target/pyenv with
# maturin, pytest and pandas from PyPI (installed only when missing), the extension built by
# maturin into a wheel (cargo's build in target/python, incremental), the wheel installed into
# the environment when it changed, then python/tests/ (against the debug CLI, built if needed)
# and the worked example docs/python-example.py. Idempotent; a warm run rebuilds nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=target/pyenv
PY="$VENV/bin/python"
WHEELS=target/python/wheels

if [ ! -x "$PY" ]; then
  python3 -m venv "$VENV" || {
    rm -rf "$VENV"
    echo "[python] python3 -m venv failed: Python 3.9 or later with its venv module is needed (Debian: apt-get install python3-venv)" >&2
    exit 1
  }
fi
# What is missing, by installed distribution (no import: pandas alone takes a second to import).
read -r -a missing <<< "$("$PY" - <<'PYEOF'
import importlib.metadata as md
def have(name, prefix=""):
    try:
        return md.version(name).startswith(prefix)
    except md.PackageNotFoundError:
        return False
want = [("maturin>=1.16,<1.17", "maturin", "1.16."), ("pytest", "pytest", ""), ("pandas", "pandas", "")]
print(" ".join(spec for spec, name, prefix in want if not have(name, prefix)))
PYEOF
)"
if [ ${#missing[@]} -gt 0 ]; then
  echo "[python] installing ${missing[*]} into $VENV" >&2
  "$PY" -m pip install --quiet --disable-pip-version-check "${missing[@]}"
fi

# The wheel (cp3XX, manylinux); its cargo build is separate from the root crate's (python/Cargo.toml).
# SOURCE_DATE_EPOCH: the same wheel bytes when nothing changed, so a warm run installs nothing.
rm -rf "$WHEELS"
SOURCE_DATE_EPOCH=315532800 CARGO_TARGET_DIR=target/python "$VENV/bin/maturin" build --release --quiet \
  --manifest-path python/Cargo.toml --interpreter "$PY" --out "$WHEELS" --compression-method stored
wheel=$(ls "$WHEELS"/placelab-*.whl)
stamp="$VENV/.placelab-wheel.sha256"
if ! sha256sum --status -c "$stamp" 2>/dev/null || ! "$PY" -c 'import placelab' 2>/dev/null; then
  "$PY" -m pip install --quiet --disable-pip-version-check --no-deps --force-reinstall "$wheel"
  (cd "$WHEELS" && sha256sum "$(basename "$wheel")") | sed "s|  |  $WHEELS/|" > "$stamp"
fi

cargo build --quiet --bin placelab   # the CLI the tests compare with
PLACELAB_CLI="$PWD/target/debug/placelab" "$PY" -m pytest -q -p no:cacheprovider python/tests
"$PY" docs/python-example.py
