#!/usr/bin/env bash
# DGEMM vs local Strassen–Winograd with L = 1, 2, 3
# levels (and `auto` when a machine profile with a measured crossover is
# given), effective GFLOP/s (2n^3 based) and the ratio to the DGEMM of the
# same run: 1 rank x 1 thread, 1 rank x 2 threads (dgemm with 2 threads),
# and 2 ranks (ring, tpmm), REPS timed runs (default 1) after WARMUP
# (default 1) warm-ups.
#   N=4096,6144,8192,12288 (default; about an hour on 2 cores, 12288 alone
#   takes ~90 s per DGEMM call on one core)
#   PROFILE=configs/<host>.json (default; `auto` is left out without one)
#   L=0,1,2,3[,auto] the levels; ALGOS2=ring,tpmm the 2-rank algorithms
#   (empty: skip the 2-rank run)
# A closer look at a few points: N=8192 L=0,2,3 REPS=3 ALGOS2= scripts/bench/local_strassen.sh
source "$(dirname "$0")/common.sh"
N=${N:-4096,6144,8192,12288}
PROFILE=${PROFILE:-configs/$host.json}
prof=()
if [ -f "$PROFILE" ]; then prof=(--profile "$PROFILE"); L=${L:-0,1,2,3,auto}; else L=${L:-0,1,2,3}; fi
ALGOS2=${ALGOS2-ring,tpmm}
csv=results/local-strassen-$host-$stamp.csv
common=(--n "$N" --local-strassen "$L" "${prof[@]}" --reps "${REPS:-1}" --warmup "${WARMUP:-1}" --csv "$csv" --quiet)
mpirun -q -n 1 "$MM" run --algo dgemm "${common[@]}"
mpirun -q -n 1 "$MM" run --algo dgemm --threads 2 "${common[@]}"
[ -z "$ALGOS2" ] || mpirun -q -n 2 "$MM" run --algo "$ALGOS2" "${common[@]}"
python3 scripts/summarize.py "$csv"
