#!/usr/bin/env bash
# The thesis' Abb. 2.25 experiment at p = 2:
#  1. tune at n = 4096 and 6144 (geometric grid), timed; profiles kept;
#  2. geometric grid vs every even k at n = 2048 (--exhaustive at 4096 would
#     take far too long here), timed, to compare the lb they pick;
#  3. PDGEMM with lb = 32, the tuned lb, the lb of the profile's maximum and
#     a sweep of lb, in one run per n.
source "$(dirname "$0")/common.sh"
out=results/tuner-$host-$stamp
mkdir -p "$out"
for n in 4096 6144; do
  /usr/bin/time -f "tune n=$n grid: %e s" mpirun -q -n 2 "$MM" tune --n $n --quiet \
    --profile "$out/profile-n$n.json" --csv "$out/dgemm-profile-n$n.csv"
done
/usr/bin/time -f "tune n=2048 grid: %e s" mpirun -q -n 2 "$MM" tune --n 2048 --quiet \
  --profile "$out/profile-n2048-smart.json" --csv "$out/dgemm-profile-n2048-smart.csv"
/usr/bin/time -f "tune n=2048 exhaustive: %e s" mpirun -q -n 2 "$MM" tune --n 2048 --exhaustive --quiet \
  --profile "$out/profile-n2048-exhaustive.json" --csv "$out/dgemm-profile-n2048-exhaustive.csv"
for n in 4096 6144; do
  lb=$(python3 -c "import json;print(json.load(open('$out/profile-n$n.json'))['lb'])")
  lbmax=$(python3 -c "import json;print(json.load(open('$out/profile-n$n.json'))['lb_at_max'])")
  echo "n=$n: tuned lb=$lb, lb at the profile's maximum=$lbmax"
  mpirun -q -n 2 "$MM" run --algo pdgemm --n $n --lb "default,$lb,$lbmax,64,96,128,192,256,384,512,768,1024" \
    --reps 3 --warmup 1 --csv "$out/pdgemm-lb-n$n.csv" --quiet
done
python3 plots/mmbench_plot.py --out docs/figures "$out"/pdgemm-lb-n*.csv "$out"/dgemm-profile-n4096.csv || true
