#!/usr/bin/env bash
# Ring against tpmm at p = 2 across two namespace nodes, many interleaved
# rounds: plain ring (up to 4 chunks a step, MPI_Testall between them), ring
# in one chunk a step (--local-strassen 1 --local-cutoff 2048: the level
# never applies at these sizes, but its cut-off leaves one chunk), plain
# tpmm, and tpmm with the same unused level (the same run twice: a control
# for the rounds' noise). Each beside the refined model of the profile
# tuned on such a cluster (PROFILE). Needs root.
#   RATES="1gbit 500mbit" NS=512,1024,2048 REPS=15 results/ring-vs-tpmm-p2-zen5-20261207/run.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
RATES=${RATES:-1gbit 500mbit}
NS=${NS:-512,1024,2048}
REPS=${REPS:-15}
OUT=${OUT:-results/ring-vs-tpmm-p2-zen5-20261207}
prefix=mrt
trap 'scripts/netns-cluster.sh down --prefix $prefix >/dev/null 2>&1' EXIT
export OPENBLAS_NUM_THREADS=1
for rate in $RATES; do
  profile=${PROFILE:-results/netns-overlap-sizes-zen5-20261207/2x1-$rate-profile.json}
  scripts/netns-cluster.sh down --prefix $prefix >/dev/null 2>&1 || true
  scripts/netns-cluster.sh up 2 --ranks-per-node 1 --prefix $prefix --rate "$rate" --burst 16kb
  /tmp/$prefix-cluster/mpirun -n 2 build/mmbench run --algo ring,tpmm --local-strassen 0,1 --local-cutoff 2048 \
    --n "$NS" --reps "$REPS" --profile "$profile" --csv "$OUT/ring-tpmm-$rate.csv" --quiet >"$OUT/ring-tpmm-$rate.txt" 2>&1
done
