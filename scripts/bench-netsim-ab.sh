#!/usr/bin/env bash
# Two builds of the simulator on the same case, interleaved (A, B, A, B, ...), one line a run:
# wall seconds, recomputed flows, recomputations and the simulated time to the last bit. For a
# change's same-run ratio, build the commit before into another target directory first:
#   git worktree add /tmp/before HEAD~1 && (cd /tmp/before && CARGO_TARGET_DIR=/tmp/before-target cargo build --release --bin placelab)
#   scripts/bench-netsim-ab.sh /tmp/before-target/release/placelab target/release/placelab 4 \
#     "--system torus2d --dims 64,64 --job grid --placement random --rounds 1 --end-tolerance 0.02"
set -euo pipefail
[ $# -eq 4 ] || { echo "usage: $0 BIN_A BIN_B RUNS \"placelab netsim arguments\"" >&2; exit 2; }
a=$1 b=$2 runs=$3 args=$4
for _ in $(seq 1 "$runs"); do
  for bin in "$a" "$b"; do
    # shellcheck disable=SC2086
    "$bin" netsim $args | python3 -c "import json, sys; d = json.load(sys.stdin); print(sys.argv[1], round(d['wallSeconds'], 2), d['solvedFlows'], d['solves'], repr(d['simulatedTime']))" "$bin"
  done
done
