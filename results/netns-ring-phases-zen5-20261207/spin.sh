#!/usr/bin/env bash
# Does the swap of ring's pattern at n = 4096 run slower after a DGEMM than
# after a busy wait of the same length? phases.c (DGEMM) and phases.c SPIN=1
# alternately, PAIRS pairs of ROUNDS rounds, on a fresh 2 x 1 cluster at RATE.
#   RATE=1gbit PAIRS=3 ROUNDS=5 results/netns-ring-phases-zen5-20261207/spin.sh
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
for i in $(seq "${PAIRS:-3}"); do
  for s in 0 1; do
    # shellcheck disable=SC2086
    mpirun $args -n 2 -x OPENBLAS_NUM_THREADS=1 "${pin[@]}" /tmp/mmq-phases 4096 "${ROUNDS:-5}" $s
  done
done | tee "$here/spin-$rate.txt"
