#!/usr/bin/env bash
# Builds the wasm engines into www/pkg/ and copies the examples into www/examples/.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh build
cargo build --lib --release --target wasm32-unknown-unknown
wasm-bindgen --target web --no-typescript --out-dir www/pkg --out-name placelab \
  target/wasm32-unknown-unknown/release/placelab.wasm
python3 scripts/examples_index.py
echo "[build] www/pkg/placelab_bg.wasm: $(wc -c < www/pkg/placelab_bg.wasm) bytes, $(gzip -9c www/pkg/placelab_bg.wasm | wc -c) gzipped" >&2
