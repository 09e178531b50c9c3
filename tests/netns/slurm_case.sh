#!/usr/bin/env bash
# mmbench as a Slurm job on a cluster of network namespaces
# (scripts/netns-cluster.sh, scripts/netns-slurm.sh): 2 nodes of 1 core and
# 1 rank, a controller and a slurmd per node; `sbatch --wait` of
# examples/slurm/mmbench-job.sh, which tunes (no profile yet) and runs a
# verified sweep across the nodes with mpirun reading the allocation. The
# job must finish, its profile record 2 nodes measured between them, every
# row be verified, and each node's rank see only its node's core. Skipped
# (exit 77) where namespaces or Slurm are not there; everything is always
# taken down.
#   slurm_case.sh MMBENCH WORKDIR SOURCE_DIR
set -u
mm=$1 work=$2 src=$3
cluster=$src/scripts/netns-cluster.sh
slurm=$src/scripts/netns-slurm.sh
prefix=mmj  # a subnet of its own
dir=$work/slurm-cluster
out=$work/slurm
rm -rf "$out"; mkdir -p "$out"
# shellcheck source=cluster_up.sh
source "$(dirname "$0")/cluster_up.sh"
require_root_or_skip
for tool in slurmctld slurmd sbatch munge; do
  command -v $tool >/dev/null || [ -x /usr/sbin/$tool ] ||
    { echo "SKIP: no $tool (Debian: slurmctld slurmd slurm-client munge; scripts/install-deps.sh installs them)"; exit 77; }
done
cleanup() {
  "$slurm" down --prefix $prefix --dir "$dir" >/dev/null 2>&1
  "$cluster" down --prefix $prefix --dir "$dir" >/dev/null 2>&1
}
cleanup
# munge: left as found (scripts/netns-slurm.sh down stops a munged that up
# started); checked after down below.
munge_before=$(pgrep -x munged >/dev/null && echo running || echo stopped)
trap cleanup EXIT
cluster_up 2 --ranks-per-node 1 --prefix $prefix --dir "$dir"
timeout 120 "$slurm" up --prefix $prefix --dir "$dir" || { echo "FAIL: Slurm up on the namespace nodes"; exit 1; }
# shellcheck disable=SC1091
source "$dir/slurm/env"
cd "$out" || exit 1
PROFILE=$out/profile.json OUT=$out/run.csv NS=256 MMBENCH=$mm TUNE_N=256 \
  TUNE_ARGS="--kmin 8 --kmax 64 --reps 1 --passes 1 --warmup 0 --no-lb-check --no-blas-probe --no-kernel-model --no-packed-tune --no-local --quiet" \
  timeout 400 sbatch -N 2 --ntasks-per-node 1 --wait -o "$out/job.out" "$src/examples/slurm/mmbench-job.sh"
rc=$?
cat "$out/job.out"
[ $rc = 0 ] || { echo "FAIL: the job: sbatch exit $rc (124: not done in 400 s)"; exit 1; }
python3 - "$out/profile.json" "$out/run.csv" <<'PY' || { echo "FAIL: the job's results"; exit 1; }
import csv, json, sys
prof = json.load(open(sys.argv[1]))
levels = prof["network_levels"]
assert levels["nodes"] == 2 and levels["ranks_per_node"] == 1, (levels["nodes"], levels["ranks_per_node"])
assert levels["inter_node"]["tau_doubles_per_s"] > 0, "no inter-node level"
# Each node has one core (its cpuset): the peak was measured on one.
assert prof["cpu_peak"]["cores"] == 1, f"peak measured on {prof['cpu_peak']['cores']} cores, the node has 1"
rows = list(csv.DictReader(open(sys.argv[2])))
ok = [r for r in rows if r["status"] == "ok"]
assert len(ok) >= 4 and all(r["verified"] == "yes" for r in ok), [(r["algo"], r["status"]) for r in rows]
assert {r["host"] for r in rows} <= {"mmj-node1"}, {r["host"] for r in rows}
print(f"slurm job: profile of 2 nodes x 1 rank, {len(ok)} rows verified")
PY
cleanup
munge_after=$(pgrep -x munged >/dev/null && echo running || echo stopped)
[ "$munge_after" = "$munge_before" ] || { echo "FAIL: munged was $munge_before before the cluster, $munge_after after down"; exit 1; }
echo "slurm_case passed (munged $munge_after, as before)"
