"""Shared fixtures: the repository, and the CLI the package is compared with."""

import os
import pathlib
import shutil

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def repo():
    return REPO


@pytest.fixture(scope="session")
def cli():
    """The `placelab` binary: $PLACELAB_CLI (scripts/test-python.sh sets it), else the debug
    build in target/; tests comparing with the CLI are skipped when neither exists (a package
    installed outside the repository)."""
    path = os.environ.get("PLACELAB_CLI") or str(REPO / "target" / "debug" / "placelab")
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        if os.environ.get("PLACELAB_CLI"):
            pytest.fail(f"PLACELAB_CLI={path} is not an executable")
        pytest.skip("no placelab CLI built (cargo build --bin placelab)")
    return path
