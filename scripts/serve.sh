#!/usr/bin/env bash
# Builds the page and serves dist/ (the folder a static host publishes) on
# http://127.0.0.1:${PORT:-8000}/ (Ctrl-C stops).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
PORT="${PORT:-8000}"
echo "placelab playground: http://127.0.0.1:${PORT}/"
exec python3 -m http.server "$PORT" --bind 127.0.0.1 --directory dist
