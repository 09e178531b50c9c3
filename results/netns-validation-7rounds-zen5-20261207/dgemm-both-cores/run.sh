#!/usr/bin/env bash
# DGEMM at the ring-step shapes of n = 2048 and 4096 on both cores at once
# (two independent one-rank runs started together), against the kernel
# model of the 1 Gbit/s profile tuned at n = 2048.
set -e
cd "$(dirname "$0")/../../.."
P=${P:-results/netns-validation-7rounds-zen5-20261207/2x1-1gbit-profile.json}
OUT=${OUT:-/tmp/dg}; mkdir -p "$OUT"
for i in 1 2; do
  taskset -c $((i-1)) mpirun -n 1 -x OPENBLAS_NUM_THREADS=1 --bind-to none build/mmbench run --algo dgemm \
    --m 1024,2048 --n 1024,2048 --k 2048,4096 --reps 9 --profile "$P" --csv "$OUT/core$((i-1)).csv" --quiet > "$OUT/both-busy-$i.txt" 2>&1 &
done
wait
