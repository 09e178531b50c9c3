#!/usr/bin/env bash
# Can the peer ratios be trusted? On this machine, p <= cores:
#  (a) the dgemm peer inside `mpirun -n 2` vs alone (`mpirun -n 1 --threads 2`),
#      alternating the two launches so drift hits both; ratio per pair;
#  (b) p = 2: ring, tpmm, 2.5d, pdgemm (lb 32 and the tuned lb) as paired
#      ratios to the peer of the same run (interleaved rounds);
#  (d) --validate at p = 1 and 2: regret of the model's pick per size, paired.
# (c), the tuner's lb, is scripts/bench/tuner_lb.sh.
# PARTS=abd by default; N_A, N_B, N_D, PAIRS, REPS to change sizes and counts.
source "$(dirname "$0")/common.sh"
PARTS=${PARTS:-abd}
PROFILE=${PROFILE:-configs/$host.json}
N_A=${N_A:-4096,8192}
N_B=${N_B:-4096,8192}
N_D=${N_D:-1024,2048,4096,8192}
PAIRS=${PAIRS:-5}
REPS=${REPS:-6}

if [[ $PARTS == *a* ]]; then
  in2=results/peer-in-2rank-job-$host-$stamp.csv
  alone=results/peer-alone-$host-$stamp.csv
  for i in $(seq "$PAIRS"); do
    echo "(a) pair $i/$PAIRS"
    mpirun -q -n 2 "$MM" run --algo dgemm --n "$N_A" --reps 1 --warmup 1 --csv "$in2" --quiet >/dev/null
    mpirun -q -n 1 "$MM" run --algo dgemm --threads 2 --n "$N_A" --reps 1 --warmup 1 --csv "$alone" --quiet >/dev/null
  done
  python3 scripts/bench/peer_alone.py "$in2" "$alone" | tee "results/peer-in-job-vs-alone-$host-$stamp-summary.txt"
fi
if [[ $PARTS == *b* ]]; then
  lb=default
  [ -f "$PROFILE" ] && lb=default,auto
  csv=results/peer-ratios-p2-$host-$stamp.csv
  echo "(b) p = 2: dgemm peer, ring, tpmm, 2.5d, pdgemm lb $lb; n = $N_B; $REPS rounds"
  prof=(); [ -f "$PROFILE" ] && prof=(--profile "$PROFILE")
  mpirun -q -n 2 "$MM" run --algo dgemm,ring,tpmm,2.5d,pdgemm --lb $lb --n "$N_B" --reps "$REPS" --warmup 1 \
    --csv "$csv" "${prof[@]}" --quiet
  python3 scripts/summarize.py "$csv"
fi
if [[ $PARTS == *d* ]]; then
  csv=results/validate-p1-p2-$host-$stamp.csv
  for p in 1 2; do
    echo "(d) --validate at p = $p, n = $N_D"
    mpirun -q -n $p "$MM" run --algo all --validate --n "$N_D" --profile "$PROFILE" --reps "$REPS" --warmup 1 \
      --csv "$csv" --quiet >/dev/null
  done
  cat "${csv%.csv}-validate.txt"
fi
