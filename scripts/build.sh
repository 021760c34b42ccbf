#!/usr/bin/env bash
# Builds the page: the wasm engines into www/pkg/, the examples into www/examples/, then dist/,
# the self-contained static folder a host serves as is (content-hashed names, relative paths;
# see scripts/dist.py). www/ stays the source; dist/ is what gets published.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh build
cargo build --lib --release --target wasm32-unknown-unknown
wasm-bindgen --target web --no-typescript --out-dir www/pkg --out-name placelab \
  "${CARGO_TARGET_DIR:-target}/wasm32-unknown-unknown/release/placelab.wasm"
python3 scripts/examples_index.py
python3 scripts/dist.py
echo "[build] www/pkg/placelab_bg.wasm: $(wc -c < www/pkg/placelab_bg.wasm) bytes, $(gzip -9c www/pkg/placelab_bg.wasm | wc -c) gzipped" >&2
