#!/usr/bin/env bash
# `placelab study --slurm DIR --submit` against a real Slurm cluster: builds the release CLI,
# starts a one-node cluster on this machine (scripts/slurm-cluster.sh), submits a 24-point study
# (4 widths x 2 heights x 3 replicates of the fig1-4x4 example) as 12 array tasks plus the merge
# job, waits for the merge, checks every task's and the merge's outputs (a job can be reported
# COMPLETED without having run), and compares the merged files with a local `placelab study` run
# byte for byte. The results directory's name holds a space and a quote, to prove the scripts'
# quoting. The cluster is stopped however the test ends.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
work=$(mktemp -d /tmp/placelab-slurm.XXXXXX)
chmod 0755 "$work" # munged wants its socket's directories searchable by all
cluster=$work/cluster
out="$work/it's a sweep"
shards=12
points=24

finish() {
  local status=$?
  if [ $status -ne 0 ] && [ -d "$out/logs" ]; then
    echo "-- the jobs' output:" >&2
    tail -n 20 "$out/logs/"* >&2 || true
  fi
  "$root/scripts/slurm-cluster.sh" stop "$cluster" >/dev/null 2>&1 || true
  rm -rf "$work"
  [ $status -eq 0 ] || echo "test-slurm: FAILED" >&2
  exit $status
}
trap finish EXIT

cargo build --release --bin placelab
bin=$root/target/release/placelab
scripts/slurm-cluster.sh start "$cluster"
# shellcheck disable=SC1091
source "$cluster/env"

cat > "$work/sweep.json" <<'EOF'
{"version": 1, "name": "fig1 on Slurm", "example": "fig1-4x4",
 "axes": [{"path": "system.width", "values": [4, 5, 6, 7]},
          {"path": "system.height", "values": [4, 6]}],
 "replicates": {"count": 3, "baseSeed": 17}}
EOF
"$bin" study "$work/sweep.json" --slurm "$out" --shards $shards --time 5 --submit > "$work/submitted.txt"
array=$(sed -n 's/^array job \([0-9][0-9]*\) .*/\1/p' "$work/submitted.txt")
merge=$(sed -n 's/^merge job \([0-9][0-9]*\) .*/\1/p' "$work/submitted.txt")
[ -n "$array" ] && [ -n "$merge" ] || { cat "$work/submitted.txt"; echo "no job ids printed" >&2; exit 1; }
echo "submitted: array job $array ($shards tasks), merge job $merge"

# Without accounting, scontrol is the record: poll the merge job until its state is terminal.
state() { scontrol -o show job "$1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p'; }
for _ in $(seq 600); do
  case "$(state "$merge")" in
    PENDING | RUNNING | CONFIGURING | COMPLETING | "") sleep 0.5 ;;
    *) break ;;
  esac
done
merge_state=$(state "$merge")
array_states=$(state "$array" | sort | uniq -c | tr -s ' ' | tr '\n' ';')
echo "merge job: $merge_state; array tasks: $array_states"
[ "$merge_state" = COMPLETED ] || { echo "the merge job ended $merge_state" >&2; exit 1; }
[ "$(state "$array" | grep -c '^COMPLETED$')" -eq $shards ] \
  || { echo "not every array task completed" >&2; exit 1; }

# The outputs, not only the states: every shard complete, the merge's report, the files.
for k in $(seq 0 $((shards - 1))); do
  [ -s "$out/shard-$k/aggregate.csv" ] || { echo "shard $k wrote no aggregate.csv" >&2; exit 1; }
done
grep -q "^placelab: $points points (0 failed) merged from $shards shards" "$out/logs/merge.out" \
  || { echo "the merge job did not report the merge" >&2; exit 1; }

"$bin" study "$work/sweep.json" -o "$work/local" > /dev/null 2>&1
for f in study.json points.jsonl tidy.csv tidy.jsonl aggregate.csv aggregate.jsonl; do
  cmp "$out/results/$f" "$work/local/$f"
done
[ "$(tail -n +2 "$out/results/tidy.csv" | wc -l)" -ge $points ]
echo "slurm: $points points in $shards array tasks + merge on a real slurmctld; the merged files equal a local run's byte for byte"
