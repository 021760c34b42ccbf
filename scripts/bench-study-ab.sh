#!/usr/bin/env bash
# Two builds of `placelab study` on the same study, interleaved (A, B, A, B, ...), one line a
# run: the build, its wall seconds, and whether its files equal the first run's (byte for byte:
# tidy.csv, aggregate.csv, points.jsonl). For a change's same-run ratio, build the commit before
# into another target directory first:
#   git worktree add /tmp/before HEAD~1 && (cd /tmp/before && CARGO_TARGET_DIR=/tmp/before-target cargo build --release --bin placelab)
#   scripts/bench-study-ab.sh /tmp/before-target/release/placelab target/release/placelab 3 \
#     benches/scenarios/study-size-sweep-torus3d-1mb.json 2
set -euo pipefail
[ $# -ge 4 ] || { echo "usage: $0 BIN_A BIN_B RUNS STUDY.json [THREADS]" >&2; exit 2; }
a=$1 b=$2 runs=$3 study=$4 threads=${5:-2}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for _ in $(seq 1 "$runs"); do
  for bin in "$a" "$b"; do
    rm -rf "$out/run"
    t0=$(date +%s.%N)
    "$bin" study "$study" -o "$out/run" --threads "$threads" >/dev/null 2>&1
    t1=$(date +%s.%N)
    same=first
    if [ -d "$out/first" ]; then
      same=identical
      for f in tidy.csv aggregate.csv points.jsonl; do
        cmp -s "$out/first/$f" "$out/run/$f" || same="$f differs"
      done
    else
      cp -r "$out/run" "$out/first"
    fi
    echo "$bin $(python3 -c "print(round($t1 - $t0, 2))") s $same"
  done
done
