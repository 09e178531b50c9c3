#!/usr/bin/env bash
# Issue 7's benchmark: DGEMM vs local Strassen–Winograd with L = 1, 2, 3
# levels, effective GFLOP/s (2n^3 based) and the ratio to the DGEMM of the
# same run: 1 rank x 1 thread, 1 rank x 2 threads (dgemm with 2 threads),
# and 2 ranks (ring, tpmm), one timed run after a warm-up (REPS=3 for more).
# N defaults to 4096,8192 (12288 takes minutes per
# call on one core: N=4096,8192,12288 for the full experiment).
source "$(dirname "$0")/common.sh"
N=${N:-4096,8192}
csv=results/local-strassen-$host-$stamp.csv
mpirun -q -n 1 "$MM" run --algo dgemm --n "$N" --local-strassen 0,1,2,3 --reps ${REPS:-1} --warmup 1 --csv "$csv" --quiet
mpirun -q -n 1 "$MM" run --algo dgemm --threads 2 --n "$N" --local-strassen 0,1,2,3 --reps ${REPS:-1} --warmup 1 --csv "$csv" --quiet
algos=ring
"$MM" list | grep -q '^tpmm' && algos=ring,tpmm
mpirun -q -n 2 "$MM" run --algo "$algos" --n "$N" --local-strassen 0,1,2,3 --reps ${REPS:-1} --warmup 1 --csv "$csv" --quiet
python3 scripts/summarize.py "$csv"
