#!/usr/bin/env bash
# Is the lb `tune` picks the one PDGEMM wants?
#  1. three independent `tune` runs at p = 2 for n = 2048 and for n = 4096;
#     profiles and raw CSVs in results/tuner-lb-<host>-<stamp>/, each file
#     with its own time stamp;
#  2. one interleaved PDGEMM sweep at n = 4096 over lb = 32 ... 1024 plus
#     every tuned lb and rule_lb: ROUNDS rounds, each round one `run` with
#     the lb list in its own shuffled order (a warm-up and one timed call per
#     lb), all rows in one CSV (the k-th row of an lb is round k). `run`
#     repeats a configuration back to back, so the rounds are made here;
#  3. scripts/tuner_lb_summary.py: every tuned lb's (and rule_lb's) rate
#     against the sweep's best and against lb = 32, from paired ratios.
# Full size takes an estimated 20 minutes on the 2-core VM; run it on a quiet
# machine. Smoke test with tiny sizes, output outside results/:
#   OUT=/tmp/tlb TUNE_NS=256 TUNES=1 SWEEP_N=512 LBS=32,64 ROUNDS=2 scripts/bench/tuner_lb.sh
source "$(dirname "$0")/common.sh"
TUNE_NS=${TUNE_NS:-"2048 4096"}
TUNES=${TUNES:-3}
SWEEP_N=${SWEEP_N:-4096}
LBS=${LBS:-32,48,64,96,128,192,256,384,512,768,1024}
ROUNDS=${ROUNDS:-7}
out=${OUT:-results/tuner-lb-$host-$stamp}
mkdir -p "$out"

for n in $TUNE_NS; do
  for i in $(seq 1 "$TUNES"); do
    t=$(date -u +%Y%m%dT%H%M%SZ)
    start=$(date +%s)
    mpirun -q -n 2 "$MM" tune --n "$n" --quiet --profile "$out/profile-n$n-$i-$t.json" \
      --csv "$out/dgemm-profile-n$n-$i-$t.csv"
    echo "tune n=$n #$i: $(( $(date +%s) - start )) s -> $out/profile-n$n-$i-$t.json"
  done
done

lbs=$(python3 scripts/tuner_lb_summary.py --sweep-lbs "$LBS" "$out"/profile-*.json)
sweep=$out/pdgemm-lb-sweep-n$SWEEP_N.csv
for r in $(seq 1 "$ROUNDS"); do
  order=$(python3 -c 'import random, sys
l = sys.argv[1].split(","); random.Random(int(sys.argv[2])).shuffle(l); print(",".join(l))' "$lbs" "$r")
  echo "sweep round $r/$ROUNDS: lb $order"
  mpirun -q -n 2 "$MM" run --algo pdgemm --n "$SWEEP_N" --lb "$order" --reps 1 --warmup 1 --csv "$sweep" --quiet
done
python3 scripts/tuner_lb_summary.py --sweep "$sweep" "$out"/profile-*.json | tee "$out/summary.md"
