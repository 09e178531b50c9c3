#!/usr/bin/env bash
#SBATCH --job-name=mmbench
#SBATCH --output=mmbench-%j.out
# mmbench across the nodes of a Slurm allocation: tune once for this
# cluster and layout (when its profile is missing), then a sweep of the
# distributed algorithms and `--algo auto`, every row beside the refined
# model's prediction (--validate).
#
#   sbatch -N 2 --ntasks-per-node 2 examples/slurm/mmbench-job.sh
#
# mpirun reads the nodes and ranks per node from the allocation and starts
# its daemons with srun; mmbench finds the nodes from its ranks' host names,
# as under any launcher. Settings (environment, exported by sbatch):
#   MMBENCH      the executable (default: build/mmbench of the submit folder,
#                else mmbench on PATH)
#   PROFILE      the profile (default configs/slurm-<cluster>-<N>x<R>.json)
#   NS           matrix sizes of the sweep (default 1024,2048)
#   TUNE_N       the tuning size (default 2048)
#   TUNE_ARGS    more tune options (e.g. --no-kernel-model for a quick tune)
#   OUT          the results CSV (default results/local/slurm-<job id>.csv)
#   MPIRUN_ARGS  more mpirun arguments, e.g. the TCP interface of a cluster
#                of network namespaces (scripts/netns-slurm.sh prints them)
set -euo pipefail
cd "${SLURM_SUBMIT_DIR:-.}"
: "${SLURM_JOB_NUM_NODES:?not in a Slurm job (sbatch -N 2 $0)}"
mm=${MMBENCH:-}
[ -n "$mm" ] || { [ -x build/mmbench ] && mm=build/mmbench; } || mm=mmbench
rpn=${SLURM_NTASKS_PER_NODE:-$(( ${SLURM_NTASKS:-$SLURM_JOB_NUM_NODES} / SLURM_JOB_NUM_NODES ))}
profile=${PROFILE:-configs/slurm-${SLURM_CLUSTER_NAME:-cluster}-${SLURM_JOB_NUM_NODES}x$rpn.json}
out=${OUT:-results/local/slurm-$SLURM_JOB_ID.csv}
mkdir -p "$(dirname "$profile")" "$(dirname "$out")"
# shellcheck disable=SC2086
launch() { mpirun ${MPIRUN_ARGS:-} -x OPENBLAS_NUM_THREADS=1 "$mm" "$@"; }
echo "mmbench job $SLURM_JOB_ID: $SLURM_JOB_NUM_NODES nodes ($SLURM_JOB_NODELIST), $rpn rank(s) per node"
if [ ! -f "$profile" ]; then
  echo "no profile $profile: tuning (n = ${TUNE_N:-2048})"
  # shellcheck disable=SC2086
  launch tune --n "${TUNE_N:-2048}" ${TUNE_ARGS:-} --profile "$profile"
fi
launch run --algo ring,tpmm,pdgemm,2.5d,auto --n "${NS:-1024,2048}" --reps 3 --validate \
  --profile "$profile" --csv "$out"
