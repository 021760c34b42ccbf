#!/usr/bin/env bash
# Installs what placelab needs, idempotently, only from crates.io, Debian apt and npm.
# Usage: scripts/setup.sh [build|test]
#   build: the wasm target and wasm-bindgen-cli (enough to build and serve the page)
#   test:  also wasm-pack (the browser tests: `wasm-pack test --headless --chrome`), Debian's
#          Chromium + ChromeDriver and the e2e node modules
set -euo pipefail
cd "$(dirname "$0")/.."
WANT="${1:-test}"
# Must equal the wasm-bindgen version pinned in Cargo.toml (and so in Cargo.lock).
WASM_BINDGEN_VERSION=0.2.130
# wasm-pack runs the browser tests; it finds the wasm-bindgen-test-runner installed with
# wasm-bindgen-cli above (same version), and chromedriver on PATH (/usr/bin/chromedriver).
WASM_PACK_VERSION=0.15.1

log() { printf '[setup] %s\n' "$*" >&2; }

if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  log "adding rust target wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi

if ! rustup component list --installed 2>/dev/null | grep -q '^rustfmt'; then
  log "adding rust component rustfmt (the tests check formatting)"
  rustup component add rustfmt
fi

if ! command -v wasm-bindgen >/dev/null 2>&1 || \
   [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$WASM_BINDGEN_VERSION" ]; then
  log "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (about 4 minutes on 2 cores, once)"
  # Not --locked: the lock file published with 0.2.130 pins a webpki-roots release that the
  # registry no longer serves, so a locked install always fails. The CLI version itself is pinned.
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --force
fi

if [ "$WANT" = test ]; then
  if ! command -v wasm-pack >/dev/null 2>&1 || \
     [ "$(wasm-pack --version 2>/dev/null | awk '{print $2}')" != "$WASM_PACK_VERSION" ]; then
    log "installing wasm-pack $WASM_PACK_VERSION (about 2 minutes on 2 cores, once)"
    cargo install wasm-pack --version "$WASM_PACK_VERSION" --locked --force
  fi
  if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
    log "installing Debian chromium + chromium-driver"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends chromium chromium-driver >/dev/null
  fi
  if [ ! -d e2e/node_modules/playwright-core ]; then
    log "installing e2e node modules (playwright-core, no browser download)"
    (cd e2e && npm ci --no-audit --no-fund --loglevel=error)
  fi
fi
log "ok"
