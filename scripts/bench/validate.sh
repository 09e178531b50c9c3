#!/usr/bin/env bash
# Every applicable candidate at p = 1 and 2, n = 1024,
# 2048, 4096, against the model's pick: regret and model error, written to
# <csv stem>-validate.csv / .txt. PROFILE = the machine profile to use.
source "$(dirname "$0")/common.sh"
PROFILE=${PROFILE:-configs/$host.json}
N=${N:-1024,2048,4096}
csv=results/validate-$host-$stamp.csv
for p in 1 2; do
  mpirun -q -n $p "$MM" run --algo all --validate --n "$N" --profile "$PROFILE" --reps 3 --warmup 1 --csv "$csv" --quiet
done
cat "${csv%.csv}-validate.txt"
