#!/usr/bin/env bash
# Where ring's time goes at n = 2048 and 4096 on two namespace nodes (one
# rank each, 16 KB bucket) at RATE: phases.c (written apart from mmbench)
# times the two DGEMMs and the swap of ring's pattern on 2 ranks, ROUNDS
# rounds; then mmbench ring in one chunk a step at the same sizes, priced by
# the profile the validation tuned on such a cluster.
#   RATE=1gbit ROUNDS=7 results/netns-ring-phases-zen5-20261207/run.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
here=results/netns-ring-phases-zen5-20261207
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OPENBLAS_NUM_THREADS=1
trap 'scripts/netns-cluster.sh down --prefix mmq >/dev/null 2>&1 || true' EXIT
pin=(); [ -z "${OPENBLAS_CORETYPE:-}" ] || pin=(-x OPENBLAS_CORETYPE)
rate=${RATE:-1gbit}
mpicc -O2 $here/phases.c -o /tmp/mmq-phases -lopenblas
scripts/netns-cluster.sh down --prefix mmq >/dev/null 2>&1 || true
scripts/netns-cluster.sh up 2 --ranks-per-node 1 --prefix mmq --rate "$rate" --burst 16kb >/dev/null
args=$(cat /tmp/mmq-cluster/mpirun.args)
for n in 2048 4096; do
  # shellcheck disable=SC2086
  mpirun $args -n 2 -x OPENBLAS_NUM_THREADS=1 "${pin[@]}" /tmp/mmq-phases "$n" "${ROUNDS:-7}"
done | tee "$here/phases-$rate.txt"
rm -f "$here/ring-$rate.csv" "$here/ring-$rate.csv.json"
# shellcheck disable=SC2086
mpirun $args -n 2 -x OPENBLAS_NUM_THREADS=1 "${pin[@]}" build/mmbench run --algo ring --ring-chunks 1 \
  --n 2048,4096 --reps "${ROUNDS:-7}" --warmup 1 --quiet \
  --profile results/netns-validation-1gbit-zen5-20261207/2x1-1gbit-profile.json --csv "$here/ring-$rate.csv"
