#!/usr/bin/env bash
# Slurm on a cluster of network namespaces (scripts/netns-cluster.sh): a
# controller on this machine's side of the bridge, one slurmd in each node
# (its network namespace, its host name, its cores), munge for both. Jobs
# then go in as on a cluster: `sbatch -N 2 job.sh`, and mpirun inside the job
# reads the allocation from Slurm and starts its daemons with srun.
#
#   scripts/netns-cluster.sh up 2 --ranks-per-node 1 --prefix mmb
#   scripts/netns-slurm.sh up [--prefix mmb] [--dir DIR]
#   source /tmp/mmb-cluster/slurm/env     # SLURM_CONF, MPIRUN_ARGS
#   sbatch -N 2 --ntasks-per-node 1 --wait examples/slurm/mmbench-job.sh
#   scripts/netns-slurm.sh down [--prefix mmb]
#
# up writes DIR/slurm/ (default DIR /tmp/<prefix>-cluster, the cluster's):
# slurm.conf, cgroup.conf, the daemons' logs and state, and `env` (to
# source: SLURM_CONF, and MPIRUN_ARGS for mpirun inside a job: the TCP
# interface of the cluster's subnet, --bind-to none). Needs root, an up cluster of the prefix, and Debian's slurmctld,
# slurmd, slurm-client and munge (not installed by `make test`: apt-get
# install slurmctld slurmd slurm-client munge). Where something is missing it
# says what in one line and exits 2. down stops everything up started (munge
# too, where up started it and no other Slurm here uses it). Slurm runs with no cgroups
# (proctrack/linuxproc, task/none), jobs as root.
set -euo pipefail

usage() { echo "usage: $0 up|down|status [--prefix P] [--dir DIR]" >&2; exit 2; }
refuse() { echo "netns-slurm: $*" >&2; exit 2; }

cmd=${1:-}; [ -n "$cmd" ] || usage; shift
prefix=mmb dir=""
while [ $# -gt 0 ]; do
  case $1 in
    --prefix) prefix=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    *) usage ;;
  esac
done
dir=${dir:-/tmp/$prefix-cluster}
sdir=$dir/slurm

down() {
  if [ -f "$sdir/slurmctld.pid" ]; then kill "$(cat "$sdir/slurmctld.pid")" 2>/dev/null || true; fi
  for f in "$sdir"/*/slurmd.pid; do [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null || true; done
  pkill -f "slurmctld -f $sdir/slurm.conf" 2>/dev/null || true
  pkill -f "slurmd -f $sdir/slurm.conf" 2>/dev/null || true
  # The daemons write their state as they stop: wait for them (5 s), then
  # remove what they left.
  for _ in $(seq 1 50); do
    pgrep -f "slurm(ctl)?d -f $sdir/slurm.conf" >/dev/null || break
    sleep 0.1
  done
  pkill -9 -f "slurm(ctl)?d -f $sdir/slurm.conf" 2>/dev/null || true
  # munge: stopped only if up started it and no other Slurm of this
  # machine is left to use it.
  if [ -f "$sdir/munged.ours" ] && ! pgrep -f "slurm(ctl)?d -f " >/dev/null; then
    pkill -x munged 2>/dev/null || true
    for _ in $(seq 1 50); do pgrep -x munged >/dev/null || break; sleep 0.1; done
  fi
  rm -rf "$sdir" 2>/dev/null || { sleep 1; rm -rf "$sdir"; }
}

case $cmd in
  down) [ "$(id -u)" = 0 ] || refuse "needs root"; down; echo "netns-slurm: $prefix down"; exit 0 ;;
  status) SLURM_CONF=$sdir/slurm.conf sinfo 2>&1 || true; exit 0 ;;
  up) ;;
  *) usage ;;
esac

[ "$(id -u)" = 0 ] || refuse "needs root (slurmd in the node namespaces)"
[ -f "$dir/nodes" ] || refuse "no cluster in $dir (scripts/netns-cluster.sh up N --prefix $prefix first)"
for tool in slurmctld slurmd sbatch srun sinfo munged munge; do
  command -v $tool >/dev/null || [ -x /usr/sbin/$tool ] ||
    refuse "no '$tool' (Debian: apt-get install slurmctld slurmd slurm-client munge)"
done
[ -f /etc/munge/munge.key ] || refuse "no /etc/munge/munge.key (Debian's munge package makes it: reinstall munge)"
[ ! -d "$sdir" ] || refuse "Slurm is up in $sdir already ($0 down first)"

failed() {
  echo "netns-slurm: a step failed; its logs, then undoing:" >&2
  tail -n 5 "$sdir"/slurmctld.log "$sdir"/*/slurmd.log 2>/dev/null >&2 || true
  [ -n "${MMBENCH_SLURM_KEEP:-}" ] || down
}
trap failed ERR
mkdir -p "$sdir/state"
# munge: one daemon for the machine; the nodes share its socket (a file, not
# in a network namespace).
if ! munge -n </dev/null >/dev/null 2>&1; then
  mkdir -p /run/munge && chown munge:munge /run/munge 2>/dev/null || true
  runuser -u munge -- /usr/sbin/munged >/dev/null 2>&1 || /usr/sbin/munged --force
  sleep 1
  munge -n </dev/null >/dev/null || refuse "munged does not answer (see /var/log/munge/munged.log)"
  touch "$sdir/munged.ours"  # down stops it again
fi

ctl=$(hostname -s)
bridge_ip=$(awk 'NR == 1 {split($1, a, "."); print a[1] "." a[2] "." a[3] ".254"}' "$dir/nodes")
rpn=$(awk 'NR == 1 {sub("slots=", "", $2); print $2}' "$dir/hostfile")
{
  echo "# Slurm for the $prefix namespace cluster (scripts/netns-slurm.sh)"
  echo "ClusterName=$prefix"
  echo "SlurmctldHost=$ctl($bridge_ip)"
  echo "AuthType=auth/munge"
  echo "CredType=cred/munge"
  echo "SlurmUser=root"
  echo "SlurmdUser=root"
  echo "StateSaveLocation=$sdir/state"
  # One path for every node's files: each slurmd sees its own folder there
  # (a bind mount in the node's mount namespace), so the file is the same
  # on every node, as Slurm wants it.
  echo "SlurmdSpoolDir=$sdir/node/spool"
  echo "SlurmctldPidFile=$sdir/slurmctld.pid"
  echo "SlurmdPidFile=$sdir/node/slurmd.pid"
  echo "SlurmctldLogFile=$sdir/slurmctld.log"
  echo "SlurmdLogFile=$sdir/node/slurmd.log"
  echo "ProctrackType=proctrack/linuxproc"
  echo "TaskPlugin=task/none"
  echo "JobAcctGatherType=jobacct_gather/none"
  echo "SchedulerType=sched/builtin"
  echo "SelectType=select/linear"
  echo "MpiDefault=none"
  echo "ReturnToService=2"
  echo "SlurmdTimeout=30"
  echo "InactiveLimit=0"
  # A node's CPUs are its share of this machine (taskset), not what hwloc sees.
  echo "SlurmdParameters=config_overrides"
  echo "KillWait=5"
  while read -r addr ns name cores cpuset; do
    echo "NodeName=$name NodeAddr=$addr NodeHostname=$name CPUs=$rpn State=UNKNOWN"
  done <"$dir/nodes"
  echo "PartitionName=nodes Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO"
} >"$sdir/slurm.conf"
# slurmd loads a cgroup plugin even with proctrack/linuxproc; its autodetection
# fails on a hybrid v1/v2 hierarchy (a tmpfs on /sys/fs/cgroup): name v1.
if [ -d /sys/fs/cgroup/cpuset ]; then echo "CgroupPlugin=cgroup/v1" >"$sdir/cgroup.conf"
else echo "CgroupPlugin=cgroup/v2" >"$sdir/cgroup.conf"; fi
echo "export SLURM_CONF=$sdir/slurm.conf" >"$sdir/env"

slurmctld -f "$sdir/slurm.conf" -i
mkdir -p "$sdir/node"
while read -r addr ns name cores cpuset; do
  mkdir -p "$sdir/$name/spool"
  # slurmd finds its node by the host name; it daemonizes inside the node,
  # in the node's cpuset (scripts/netns-cluster.sh), so its jobs get the
  # node's cores.
  sh -c '[ "$0" = - ] || [ -z "$0" ] || echo $$ >"$0/cgroup.procs"; exec "$@"' "${cpuset:--}" \
    ip netns exec "$ns" taskset -c "$cores" unshare --uts --mount --propagation private sh -c \
    'hostname "$0" && mount --bind "$1/$0" "$1/node" && exec slurmd -f "$1/slurm.conf"' "$name" "$sdir"
done <"$dir/nodes"
trap - ERR
# Nodes register within a few seconds.
nodes=$(wc -l <"$dir/nodes")
for _ in $(seq 1 30); do
  idle=$(SLURM_CONF=$sdir/slurm.conf sinfo -h -t idle -o %D 2>/dev/null | awk '{s += $1} END {print s + 0}')
  [ "$idle" -ge "$nodes" ] && break
  sleep 1
done
[ "${idle:-0}" -ge "$nodes" ] || { echo "netns-slurm: only ${idle:-0} of $nodes nodes idle after 30 s (logs in $sdir)" >&2; failed; exit 1; }
# mpirun inside a job: the cluster's arguments without its own launcher
# (Slurm's allocation and srun take the hostfile's and the agent's place).
net=${bridge_ip%.254}.0/24
mpi_args="--mca btl tcp,self,vader --mca btl_tcp_if_include $net --mca oob_tcp_if_include $net --bind-to none"
if grep -q mpi_yield_when_idle "$dir/mpirun.args"; then mpi_args="$mpi_args --mca mpi_yield_when_idle 1"; fi
echo "export MPIRUN_ARGS=\"$mpi_args\"" >>"$sdir/env"
echo "netns-slurm: $nodes node(s) idle, controller $ctl on $bridge_ip; for jobs: source $sdir/env"
echo "  (SLURM_CONF=$sdir/slurm.conf, MPIRUN_ARGS=\"$mpi_args\")"
