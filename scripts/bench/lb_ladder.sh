#!/usr/bin/env bash
# Is `--lb auto` (the profile's lb, capped at each n: docs/cost-models.md,
# "An lb that fits every size") as fast as the best lb at every n?
# One `mmbench run` of PDGEMM at p = P over every n of NS and every lb of
# LBS plus `auto`: within a problem size the configurations run once per
# round in a shuffled order, so round i of two lbs ran in the same minute
# (rounds interleave). Then scripts/bench/lb_ladder_summary.py prints, per
# n, each lb's median time and the tuned lb's time over the best lb's
# (median and [min, max] of the per-round ratios), and checks that every n
# has the tuned lb's row with the lb in force (`lb`, with `lb_asked` =
# auto:<profile lb>).
#   NS="1024 2048 4096 8192" LBS=32,64,128,256,512,1024 P=2 ROUNDS=7 WARMUP=1
#   PROFILE=configs/<host>.json (from `mmbench tune`); OUT=results/lb-ladder-<host>-<stamp>
# Full size takes an estimated 10 minutes on a 2-core machine; run it on a
# quiet one. Check of the script (not a measurement), output outside results/:
#   OUT=/tmp/lbl NS=256 ROUNDS=1 WARMUP=0 PROFILE=configs/thesis-opteron.json scripts/bench/lb_ladder.sh
source "$(dirname "$0")/common.sh"
NS=${NS:-"1024 2048 4096 8192"}
LBS=${LBS:-32,64,128,256,512,1024}
P=${P:-2}; ROUNDS=${ROUNDS:-7}; WARMUP=${WARMUP:-1}
PROFILE=${PROFILE:-configs/$host.json}
[ -f "$PROFILE" ] || { echo "lb_ladder.sh: no profile $PROFILE (run mmbench tune, or give PROFILE=)" >&2; exit 2; }
out=${OUT:-results/lb-ladder-$host-$stamp}
mkdir -p "$out"
csv=$out/lb-ladder-p$P.csv
rm -f "$csv" "$csv.json"
mpirun -q -n "$P" "$MM" run --algo pdgemm --n "$(tr ' ' ',' <<<"$NS")" --lb "$LBS,auto" --profile "$PROFILE" \
  --reps "$ROUNDS" --warmup "$WARMUP" --csv "$csv" --quiet
python3 scripts/bench/lb_ladder_summary.py "$csv" | tee "$out/lb-ladder-p$P-summary.md"
