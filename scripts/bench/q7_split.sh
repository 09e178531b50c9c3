#!/usr/bin/env bash
# The model's Q7 group split against the paper's (eq. 2.18), in one
# run per p, next to the classical algorithms, for machines with at least
# max(P) cores (it refuses to oversubscribe: timings of oversubscribed runs
# mean nothing). Needs a machine profile (the model chooses the split).
#   P=8,16 N=4096,8192 REPS=3 PROFILE=configs/<host>.json
source "$(dirname "$0")/common.sh"
P=${P:-8,16}
N=${N:-4096,8192}
PROFILE=${PROFILE:-configs/$host.json}
[ -f "$PROFILE" ] || { echo "q7_split.sh: no profile $PROFILE (run mmbench tune first)" >&2; exit 2; }
csv=results/q7-split-$host-$stamp.csv
for p in ${P//,/ }; do
  if [ "$p" -gt "$(nproc)" ]; then echo "q7_split.sh: p = $p > $(nproc) cores, skipped (no oversubscription)" >&2; continue; fi
  mpirun -q -n "$p" "$MM" run --algo strassen-q7+ring,strassen-q7+pdgemm,ring,pdgemm --n "$N" --q7-split paper,model \
    --lb auto --profile "$PROFILE" --reps "${REPS:-3}" --warmup 1 --csv "$csv" --quiet
done
[ -f "$csv" ] && python3 scripts/summarize.py "$csv"
