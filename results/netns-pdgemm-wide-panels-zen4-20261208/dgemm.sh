#!/bin/bash
# The DGEMMs inside PDGEMM 1 x 2 at n = 1024, lb 512: each rank updates its
# 1024 x 512 block of C with panels of k = 512; timed alone (one rank, one
# thread) beside the refined model's price from the same profile.
# Usage: OUT=DIR results/netns-pdgemm-wide-panels-zen4-20261208/dgemm.sh
set -u
cd "$(dirname "$0")/../.." || exit 1
export OPENBLAS_NUM_THREADS=1
out=${OUT:?set OUT, the folder for the results}; mkdir -p "$out"
build/mmbench run --algo dgemm --m 1024 --n 512 --k "512,1024" --reps 9 \
  --profile results/netns-validation-unlimited-zen4-20261208/2x1-unlimited-profile.json \
  --csv "$out/dgemm.csv" --quiet >"$out/dgemm.txt" 2>&1 || { echo "dgemm run failed" >&2; exit 1; }
python3 - "$out/dgemm.csv" <<'PY' | tee "$out/dgemm-summary.txt"
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    m, n, k, t, pred = int(r["m"]), int(r["n"]), int(r["k"]), float(r["t_median"]), float(r["pred_refined"])
    print(f"DGEMM {m} x {n} x {k}: {t:.5f} s ({2 * m * n * k / t / 1e9:.1f} GFLOP/s), model {pred:.5f} s "
          f"({pred / t - 1:+.1%})")
PY
