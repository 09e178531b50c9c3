#!/usr/bin/env bash
# Without a machine to run on: the refined model's Q7 split against
# the paper's (eq. 2.18) for p = 8 .. 128, predicted with each PROFILES
# entry (default: the thesis' Opteron cluster and this host's profile),
# both Q7 combinations at n = N (default 8192), lb = the profile's.
# Writes results/q7-split-predicted-<profile>-<host>-<stamp>.csv (every
# candidate) and prints, for each model-split candidate, the paper split's
# prediction and the predicted gain. No measurement: q7_split.sh measures.
source "$(dirname "$0")/common.sh"
PROFILES=${PROFILES:-"configs/thesis-opteron.json configs/$host.json"}
P=${P:-8,16,64,96,128}
N=${N:-8192}
for prof in $PROFILES; do
  [ -f "$prof" ] || { echo "skipped: no $prof" >&2; continue; }
  csv=results/q7-split-predicted-$(basename "$prof" .json)-$host-$stamp.csv
  "$MM" predict --profile "$prof" --p "$P" --n "$N" --algo strassen-q7+ring,strassen-q7+pdgemm --lb auto \
    --local-strassen 0 --top 0 --csv "$csv" >/dev/null
  echo "== $prof -> $csv"
  python3 scripts/q7_split_compare.py "$csv"
done
