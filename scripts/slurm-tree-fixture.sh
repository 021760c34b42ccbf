#!/usr/bin/env bash
# Records which nodes a real slurmctld (Debian's slurm-wlm 22.05, select/cons_tres with
# topology/tree) gives a fixed sequence of jobs on a small irregular cluster, for
# tests/slurm_tree.rs:
#   scripts/slurm-tree-fixture.sh NAME    writes tests/fixtures/slurm-tree/NAME.json
# NAME is one of the cases below. The cluster is imaginary (scripts/slurm-cluster.sh with
# SLURM_CLUSTER_TOPOLOGY): munged and slurmctld only, every node State=CLOUD with 1 CPU and equal
# weights, so a placed job stays CONFIGURING on the nodes Slurm chose. Nodes are declared in
# tree order (the order placelab numbers them, see src/formats/topology_conf.rs).
#
# Steps: `submit JOB N [SWITCHES]` runs `sbatch -N N [--switches=SWITCHES]` and records the
# job's NodeList once it leaves PENDING; a job still PENDING after 8 s (Slurm found no nodes,
# or only nodes on more leaf switches than SWITCHES) is recorded as null and cancelled, as is a
# job sbatch refuses (no switch could ever hold it).
# `cancel JOB` cancels a placed job and waits until its nodes are idle again.
#
# Every node is powered up (State=POWER_UP) before the first job and stays so (idle#: waiting
# for a slurmd that never comes, allocatable): a powered-down node carries Slurm's "boot
# required" scheduling weight (node_scheduler.c, _set_sched_weight), so a mix of powered-down
# and powered-up nodes would not be the cluster of equal weights the policy models. This
# matters most for --switches: select/cons_tres first evaluates the job with every node free
# ("test 0", cons_common/job_test.c), and that evaluation must also fit the switch count.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
name=${1:?usage: $0 NAME (irregular or two-roots)}

case "$name" in
  irregular)
    # three levels, arities 3 / (3, 2, 4) / 1 to 8 nodes; switches listed out of tree order
    topology='# an irregular three-level tree (placelab test fixture)
SwitchName=leaf4 Nodes=tux[013-020]
SwitchName=core Switches=agg[1-3] LinkSpeed=100
SwitchName=leaf1 Nodes=tux[001-006]
SwitchName=agg2 Switches=leaf[4-5]
SwitchName=leaf2 Nodes=tux[007-010]
SwitchName=agg1 Switches=leaf[1-3]
SwitchName=leaf3 Nodes=tux[011-012]
SwitchName=leaf5 Nodes=tux[021-023]
SwitchName=agg3 Switches=leaf[6-9]
SwitchName=leaf6 Nodes=tux[024-028]
SwitchName=leaf7 Nodes=tux029
SwitchName=leaf8 Nodes=tux[030-035]
SwitchName=leaf9 Nodes=tux[036-039]'
    steps='submit j1 5
submit j2 3
submit j3 7
submit j4 2
submit j5 1
cancel j2
submit j6 4 1
submit j7 10 2
submit j8 6
cancel j1
cancel j4
submit j9 8 1
submit j10 2
submit j11 8
cancel j3
submit j12 7 2
submit j13 3 1
cancel j8
submit j14 5 1
submit j15 1
cancel j10
submit j16 7'
    ;;
  two-roots)
    # two top-level switches: no job spans both
    topology='SwitchName=ra Switches=a[1-2]
SwitchName=a1 Nodes=n[01-05]
SwitchName=a2 Nodes=n[06-08]
SwitchName=rb Switches=b[1-3]
SwitchName=b1 Nodes=n[09-10]
SwitchName=b2 Nodes=n[11-16]
SwitchName=b3 Nodes=n[17-19]'
    steps='submit j1 9
submit j2 4
submit j3 12
submit j4 3
cancel j1
submit j5 6 1
submit j6 2
submit j7 7
cancel j2
submit j8 5
submit j9 1'
    ;;
  *)
    echo "$0: unknown case $name" >&2
    exit 2
    ;;
esac

work=$(mktemp -d /tmp/slurm-tree.XXXXXX)
chmod 0755 "$work" # munged wants its socket's directories searchable by all
cluster=$work/cluster
finish() {
  local status=$?
  "$root/scripts/slurm-cluster.sh" stop "$cluster" >/dev/null 2>&1 || true
  if [ $status -ne 0 ] && [ -f "$cluster/log/slurmctld.log" ]; then
    tail -n 30 "$cluster/log/slurmctld.log" >&2
  fi
  rm -rf "$work"
  exit $status
}
trap finish EXIT

printf '%s\n' "$topology" > "$work/topology.conf"
# node names in tree order: placelab's reading of the file
python3 - "$work/topology.conf" > "$work/nodes" <<'EOF'
import re, sys
def expand(expr):
    out, depth, start, parts = [], 0, 0, []
    for i, c in enumerate(expr):
        depth += c == '['
        depth -= c == ']'
        if c == ',' and depth == 0:
            parts.append(expr[start:i]); start = i + 1
    parts.append(expr[start:])
    for p in parts:
        m = re.fullmatch(r'(.*?)\[(.*)\](.*)', p)
        if not m:
            out.append(p); continue
        for r in m.group(2).split(','):
            a, _, b = r.partition('-')
            b = b or a
            for v in range(int(a), int(b) + 1):
                out.append(f"{m.group(1)}{v:0{len(a)}d}{m.group(3)}")
    return out
sw = {}
order = []
for line in open(sys.argv[1]):
    line = line.split('#')[0].split()
    if not line:
        continue
    kv = dict(t.split('=', 1) for t in line)
    sw[kv['SwitchName']] = kv
    order.append(kv['SwitchName'])
children = {s: expand(kv['Switches']) for s, kv in sw.items() if 'Switches' in kv}
parent = {c: s for s, cs in children.items() for c in cs}
def walk(s):
    if s in children:
        for c in children[s]:
            yield from walk(c)
    else:
        yield from expand(sw[s]['Nodes'])
for s in order:
    if s not in parent:
        for n in walk(s):
            print(n)
EOF

SLURM_CLUSTER_TOPOLOGY=$work/topology.conf SLURM_CLUSTER_NODES=$work/nodes \
  scripts/slurm-cluster.sh start "$cluster" >&2
# shellcheck disable=SC1091
source "$cluster/env"
scontrol show topology >&2
all=$(paste -sd, "$work/nodes")
scontrol update NodeName="$all" State=POWER_UP
powered() { [ "$(sinfo -h -N -o %T | sort -u)" = "idle#" ]; }
for _ in $(seq 300); do powered && break; sleep 0.1; done
powered || { echo "$0: the nodes did not all power up: $(sinfo -h -N -o %T | sort | uniq -c | tr '\n' ' ')" >&2; exit 1; }

field() { # field NAME from `scontrol -o show job ID`
  scontrol -o show job "$2" | tr ' ' '\n' | sed -n "s/^$1=//p" | head -1
}

declare -A jobid nodes_of
records=()
while read -r action job n sw; do
  case "$action" in
    submit)
      args=(-N "$n" --job-name "$job" -o /dev/null --wrap "sleep 100000")
      [ -n "${sw:-}" ] && args+=("--switches=$sw")
      if ! id=$(sbatch --parsable "${args[@]}" 2>"$work/sbatch.err"); then
        # no switch could ever hold the job: refused at submission
        echo "$job ($n nodes${sw:+, switches $sw}): refused ($(cat "$work/sbatch.err"))" >&2
        records+=("{\"action\": \"submit\", \"job\": \"$job\", \"nodes\": $n${sw:+, \"switches\": $sw}, \"slurm\": null}")
        continue
      fi
      jobid[$job]=$id
      state=PENDING
      for _ in $(seq 80); do
        state=$(field JobState "$id")
        [ "$state" != PENDING ] && break
        sleep 0.1
      done
      if [ "$state" = PENDING ]; then
        echo "$job ($n nodes${sw:+, switches $sw}): pending ($(field Reason "$id"))" >&2
        scancel "$id"
        records+=("{\"action\": \"submit\", \"job\": \"$job\", \"nodes\": $n${sw:+, \"switches\": $sw}, \"slurm\": null}")
      else
        list=$(field NodeList "$id")
        nodes_of[$job]=$list
        echo "$job ($n nodes${sw:+, switches $sw}): $state on $list" >&2
        records+=("{\"action\": \"submit\", \"job\": \"$job\", \"nodes\": $n${sw:+, \"switches\": $sw}, \"slurm\": \"$list\"}")
      fi
      ;;
    cancel)
      scancel "${jobid[$job]}"
      list=${nodes_of[$job]}
      gone() { [ -z "$(squeue -h -j "${jobid[$job]}" 2>/dev/null)" ]; }
      for _ in $(seq 100); do gone && break; sleep 0.1; done
      idle() { [ "$(sinfo -h -N -n "$list" -o %T | sort -u)" = "idle#" ]; }
      for _ in $(seq 300); do idle && break; sleep 0.1; done
      idle || { echo "$0: nodes $list are not idle again: $(sinfo -h -N -n "$list" -o %T | sort -u | tr '\n' ' ')" >&2; exit 1; }
      echo "$job cancelled, $list free" >&2
      records+=("{\"action\": \"cancel\", \"job\": \"$job\"}")
      ;;
  esac
done <<< "$steps"

out=tests/fixtures/slurm-tree/$name.json
mkdir -p "$(dirname "$out")"
{
  printf '{"generator": "scripts/slurm-tree-fixture.sh %s", "slurm": "%s",\n' "$name" "$(sinfo -V)"
  printf ' "topologyConf": %s,\n' "$(python3 -c 'import json,sys; print(json.dumps(sys.stdin.read()))' < "$work/topology.conf")"
  printf ' "steps": [\n'
  for i in "${!records[@]}"; do
    printf '  %s%s\n' "${records[$i]}" "$([ "$i" -lt $((${#records[@]} - 1)) ] && echo ,)"
  done
  printf ']}\n'
} > "$out"
echo "wrote $out" >&2
