#!/usr/bin/env bash
# Runs every test: native (cargo test), browser (wasm tests in headless Chromium), end to end
# (playwright-core driving Debian's Chromium against the built page). Installs what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh test

echo "== formatting (cargo fmt --check)"
cargo fmt --check

echo "== native tests (cargo test)"
cargo test --lib --bins --tests
cargo check --benches   # benchmarks compile; run them with: cargo bench --bench allocation

echo "== browser tests (wasm32 in headless Chromium)"
# As a contributor types it, plus: --mode no-install (never download a wasm-bindgen: use the one
# setup.sh installed) and `--test wasm` (only wasm-tests/examples.rs has browser tests; plain
# `wasm-pack test --headless --chrome` also builds every native test for wasm32, which then
# reports no tests). Chromium's flags: webdriver.json. The runner gives up on a test run after
# WASM_BINDGEN_TEST_TIMEOUT seconds (20 by default; .cargo/config.toml sets 900): every example
# and sample scenario of every engine runs in one unoptimized wasm session.
WASM_BINDGEN_TEST_TIMEOUT=900 \
  wasm-pack test --mode no-install --headless --chrome -- --test wasm

echo "== end-to-end tests (playwright-core + Chromium)"
scripts/build.sh
(cd e2e && node --test --test-concurrency=1 tests/)

echo "== python package"
scripts/test-python.sh

echo "== slurm (a study through a real one-node Slurm cluster)"
scripts/test-slurm.sh
