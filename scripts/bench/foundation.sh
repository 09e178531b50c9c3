#!/usr/bin/env bash
# At p = 2, n = 2048, 4096, 6144 -- the single-rank
# 2-thread DGEMM peer, pdgemm with lb = 32 (ScaLAPACK's default) and larger
# lb, and ring, all in one sweep, so ratios come from the same run.
source "$(dirname "$0")/common.sh"
csv=results/foundation-$host-$stamp.csv
mpirun -q -n 2 "$MM" run --algo dgemm,pdgemm,ring --n 2048,4096,6144 --lb default,64,128,256,512 \
  --reps 3 --warmup 1 --csv "$csv" --quiet
python3 scripts/summarize.py "$csv"
