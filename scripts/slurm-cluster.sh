#!/usr/bin/env bash
# A real one-node Slurm cluster on this machine, for testing `placelab study --slurm`:
#   scripts/slurm-cluster.sh start DIR    install slurm-wlm + munge if missing (apt), then start
#                                         munged, slurmctld and slurmd with everything in DIR
#   scripts/slurm-cluster.sh status DIR   the daemons, the node, the queue
#   scripts/slurm-cluster.sh stop DIR     cancel every job, wait for an empty queue, shut down
# Clients need the configuration: `source DIR/env` (exports SLURM_CONF; without it sbatch and
# squeue look for DNS SRV records and fail).
#
# An imaginary cluster instead (no slurmd, nothing runs): with SLURM_CLUSTER_TOPOLOGY=FILE (a
# topology.conf) and SLURM_CLUSTER_NODES=FILE (node names, one a line, in Slurm's node order),
# `start` declares those nodes State=CLOUD with 1 CPU and equal weights (visible when powered
# down: PrivateData=cloud), topology/tree and
# sched/builtin, and starts munged and slurmctld only: a placed job stays CONFIGURING on the
# nodes Slurm chose (scripts/slurm-tree-fixture.sh records them).
#
# How (Debian 12's slurm-wlm 22.05 and munge 0.5.15 as plain background daemons, as root, no
# systemd): every daemon gets explicit paths inside DIR; the node is this host, on 127.0.0.1
# only, with the CPUs and memory `slurmd -C` reports; cgroup-free plugins (with the cgroup ones
# every job fails here and is still reported COMPLETED); no accounting (poll `scontrol -o show
# job`, not sacct); batch_sched_delay=0 (array tasks start at once, not in waves 3 s apart);
# kill_invalid_depend (a job waiting on a failed one is cancelled, not left pending). The ports
# are the first free pair from 6817/6818 on, so two clusters can run at once. Stopping ends only
# the processes whose pid files are in DIR, after checking each pid is still that program.
set -euo pipefail

usage() {
  echo "usage: $0 start|stop|status DIR" >&2
  exit 2
}
[ $# -eq 2 ] || usage
cmd=$1
mkdir -p "$2"
dir=$(cd "$2" && pwd)
case "$dir" in
  *[[:space:]]*) echo "$0: $dir: Slurm's configuration cannot hold a path with spaces" >&2; exit 2 ;;
esac
conf=$dir/slurm.conf
export SLURM_CONF=$conf

# Whether process $1 is alive and runs program $2 (a zombie is not alive).
running() {
  local state
  [ -n "$1" ] && [ -r "/proc/$1/stat" ] || return 1
  [ "$(cat "/proc/$1/comm" 2>/dev/null)" = "$2" ] || return 1
  state=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1)
  [ -n "$state" ] && [ "$state" != Z ]
}

# Whether pid file $1 names a live process running program $2.
alive() {
  [ -s "$1" ] && running "$(pid_of "$1")" "$2"
}

pid_of() { tr -dc 0-9 < "$1" 2>/dev/null || true; }

# Waits up to $1 tenths of a second for the command $2... to succeed.
wait_for() {
  local tenths=$1
  shift
  for _ in $(seq "$tenths"); do
    if "$@"; then return 0; fi
    sleep 0.1
  done
  "$@"
}

install() {
  if command -v slurmctld >/dev/null && command -v slurmd >/dev/null \
    && command -v munged >/dev/null && command -v sbatch >/dev/null; then
    return
  fi
  echo "installing slurm-wlm and munge (apt)" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y --no-install-recommends slurm-wlm munge >/dev/null \
    || { apt-get update >/dev/null && apt-get install -y --no-install-recommends slurm-wlm munge >/dev/null; }
}

port_free() { [ -z "$(ss -Hltn "sport = :$1" 2>/dev/null)" ]; }

start() {
  install
  if alive "$dir/run/slurmctld.pid" slurmctld; then
    echo "$0: a cluster already runs in $dir (stop it first)" >&2
    exit 1
  fi
  mkdir -p "$dir/run" "$dir/log" "$dir/state" "$dir/spool" "$dir/munge"
  # munged wants its socket's directory searchable by all (0755), its key private (0600), and
  # a socket path under 108 bytes: a long DIR gets its socket in a short directory of /tmp.
  local sockdir=$dir/munge/socket
  if [ ${#sockdir} -gt 80 ]; then
    sockdir=$(mktemp -d /tmp/munge.XXXXXX)
  fi
  mkdir -p "$sockdir"
  chmod 0755 "$dir/munge" "$sockdir"
  local socket=$sockdir/munge.socket
  echo "$sockdir" > "$dir/munge/socket-dir"
  if [ ! -s "$dir/munge/munge.key" ]; then
    dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
  fi
  chmod 0600 "$dir/munge/munge.key"
  munged --socket="$socket" --key-file="$dir/munge/munge.key" \
    --pid-file="$dir/munge/munged.pid" --log-file="$dir/log/munged.log" \
    --seed-file="$dir/munge/munged.seed"
  wait_for 50 test -S "$socket" || { echo "$0: munged did not start: see $dir/log/munged.log" >&2; exit 1; }

  local ctld=6817
  while ! { port_free "$ctld" && port_free $((ctld + 1)); }; do
    ctld=$((ctld + 2))
  done
  local host node cloud=${SLURM_CLUSTER_TOPOLOGY:-}
  host=$(hostname -s)
  if [ -n "$cloud" ]; then
    cp "$cloud" "$dir/topology.conf"
    node=$(sed 's/^\(.*\)$/NodeName=\1 NodeAddr=127.0.0.1 CPUs=1 Weight=1000 State=CLOUD/' "${SLURM_CLUSTER_NODES:?a node list file}")
  else
    node="$(slurmd -C | head -1) NodeAddr=127.0.0.1 State=UNKNOWN"
  fi
  cat > "$conf" <<EOF
# A one-node test cluster written by scripts/slurm-cluster.sh; everything lives in $dir.
ClusterName=placelab
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$ctld
SlurmdPort=$((ctld + 1))
CommunicationParameters=NoCtldInAddrAny,NoInAddrAny
AuthType=auth/munge
AuthInfo=socket=$socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerParameters=batch_sched_delay=0
DependencyParameters=kill_invalid_depend
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
$node
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
  if [ -n "$cloud" ]; then
    cat >> "$conf" <<EOF
TopologyPlugin=topology/tree
SchedulerType=sched/builtin
ResumeProgram=/bin/true
SuspendProgram=/bin/true
ResumeTimeout=36000
SuspendTime=36000
SuspendTimeout=2
PrivateData=cloud
EOF
  fi
  slurmctld -i -f "$conf"
  wait_for 100 scontrol ping >/dev/null 2>&1 \
    || { echo "$0: slurmctld did not answer: see $dir/log/slurmctld.log" >&2; exit 1; }
  if [ -z "$cloud" ]; then
    slurmd -f "$conf" -N "$(echo "$node" | sed 's/^NodeName=\([^ ]*\).*/\1/')"
    node_idle() { [ "$(sinfo -h -o %T 2>/dev/null)" = idle ]; }
    wait_for 300 node_idle \
      || { echo "$0: the node did not become idle: see $dir/log/slurmd.log" >&2; sinfo >&2; exit 1; }
  fi
  echo "export SLURM_CONF='$conf'" > "$dir/env"
  echo "slurm cluster up in $dir (ports $ctld/$((ctld + 1))); clients: source $dir/env"
}

status() {
  local up=0
  for d in munge/munged.pid:munged run/slurmctld.pid:slurmctld run/slurmd.pid:slurmd; do
    if alive "$dir/${d%%:*}" "${d##*:}"; then
      echo "${d##*:}: running (pid $(pid_of "$dir/${d%%:*}"))"
      up=1
    else
      echo "${d##*:}: not running"
    fi
  done
  if alive "$dir/run/slurmctld.pid" slurmctld; then
    sinfo
    squeue
  fi
  [ $up = 1 ]
}

stop() {
  # The daemons remove their pid files as they end: note the pids first.
  local ours=() d
  for d in run/slurmd.pid:slurmd run/slurmctld.pid:slurmctld munge/munged.pid:munged; do
    if alive "$dir/${d%%:*}" "${d##*:}"; then
      ours+=("$(pid_of "$dir/${d%%:*}"):${d##*:}")
    fi
  done
  if alive "$dir/run/slurmctld.pid" slurmctld; then
    # Running jobs survive a shutdown (their slurmstepd ignores SIGTERM): cancel them first.
    scancel --user="$(id -un)" 2>/dev/null || true
    queue_empty() { [ -z "$(squeue -h 2>/dev/null)" ]; }
    wait_for 300 queue_empty || echo "$0: jobs still listed after 30 s; shutting down anyway" >&2
    scontrol shutdown >/dev/null 2>&1 || true
  fi
  # End our own daemons by those pids: the Slurm ones end on the shutdown, munged on SIGTERM.
  stopped() { ! running "$1" "$2"; }
  local p pid prog
  for p in "${ours[@]}"; do
    pid=${p%%:*}
    prog=${p##*:}
    [ "$prog" = munged ] || wait_for 100 stopped "$pid" "$prog" || true
    if running "$pid" "$prog"; then kill "$pid" 2>/dev/null || true; fi
    wait_for 50 stopped "$pid" "$prog" || kill -9 "$pid" 2>/dev/null || true
    wait_for 50 stopped "$pid" "$prog" || echo "$0: $prog (pid $pid) did not stop" >&2
  done
  if [ -s "$dir/munge/socket-dir" ]; then
    local sockdir
    sockdir=$(cat "$dir/munge/socket-dir")
    case "$sockdir" in /tmp/munge.*) rm -rf "$sockdir" ;; esac
  fi
  echo "slurm cluster in $dir stopped"
}

case "$cmd" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  *) usage ;;
esac
