#!/usr/bin/env bash
# The tuned lb at every n, p = 2, with the executable's heap policy in force
# (the allocator keeps the memory a library frees: docs/environment.md).
# For each n of TUNES: a fresh `mmbench tune --n N` into this folder, then the
# interleaved PDGEMM ladder of scripts/bench/lb_ladder.sh against that profile:
# n = 1024, 2048, 4096 with lbs 32 ... 1024 (ROUNDS rounds), and n = 8192 with
# lbs 256, 512, 1024 (ROUNDS8192 rounds: one call there takes seconds).
#   TUNES="2048 4096" ROUNDS=5 ROUNDS8192=2 results/lb-ladder-heap-zen5-20261206/run.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
here=results/lb-ladder-heap-zen5-20261206
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OPENBLAS_NUM_THREADS=1
for N in ${TUNES:-2048 4096}; do
  start=$(date +%s)
  mpirun -q -n 2 build/mmbench tune --n "$N" --profile "$here/profile-n$N.json" \
    --csv "$here/dgemm-profile-n$N.csv" --quiet > "$here/tune-n$N.txt" 2>&1
  echo "tune --n $N: $(( $(date +%s) - start )) s" | tee -a "$here/tune-n$N.txt"
  PROFILE=$here/profile-n$N.json OUT=$here/ladder-n$N NS="1024 2048 4096" LBS=32,64,128,256,512,1024 \
    ROUNDS=${ROUNDS:-5} scripts/bench/lb_ladder.sh
  PROFILE=$here/profile-n$N.json OUT=$here/ladder8192-n$N NS=8192 LBS=256,512,1024 \
    ROUNDS=${ROUNDS8192:-2} scripts/bench/lb_ladder.sh
done
