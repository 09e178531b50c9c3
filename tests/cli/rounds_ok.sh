#!/usr/bin/env bash
# Paired, interleaved rounds at p = 2:
#  - every configuration runs once per round, in a shuffled order that the
#    order seed reproduces; the seed is in the CSV and the sidecar;
#  - the interval, noise and peer-ratio columns are filled;
#  - --reps auto stops on precision (reached => the interval meets it) and
#    on the budget (an unreachable precision stops near the budget).
set -eu
mpirun=$1; mm=$2; dir=$3
col() {  # col FILE NAME ROW(1-based data row): one field by header name
  python3 - "$@" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print(rows[int(sys.argv[3]) - 1][sys.argv[2]])
PY
}
fail() { echo "FAIL: $*"; exit 1; }

csv=$dir/rounds.csv; rm -f "$csv" "$csv.json"
"$mpirun" -n 2 "$mm" run --algo dgemm,ring,tpmm --n 96 --reps 4 --order-seed 7 --progress --csv "$csv" \
  2>"$dir/rounds.err" >"$dir/rounds.out"
# 4 rounds x 3 configurations, each configuration once per round.
for r in 1 2 3 4; do
  n=$(grep -c "round $r/4: " "$dir/rounds.err") || true
  [ "$n" = 3 ] || fail "round $r ran $n configurations, expected 3"; 
  for a in dgemm ring tpmm; do
    grep -q "round $r/4: $a " "$dir/rounds.err" || fail "round $r lacks $a"
  done
done
# Same seed, same order; the order is not simply the listed one in every round.
order1=$(grep -o 'round [0-9]/4: [a-z]*' "$dir/rounds.err")
"$mpirun" -n 2 "$mm" run --algo dgemm,ring,tpmm --n 96 --reps 4 --order-seed 7 --progress --csv "$csv" \
  2>"$dir/rounds2.err" >/dev/null
order2=$(grep -o 'round [0-9]/4: [a-z]*' "$dir/rounds2.err")
[ "$order1" = "$order2" ] || fail "same seed, different order"
listed=$(printf 'dgemm\nring\ntpmm\n')
shuffled=no
for r in 1 2 3 4; do
  [ "$(grep -o "round $r/4: [a-z]*" "$dir/rounds.err" | awk '{print $3}')" != "$listed" ] && shuffled=yes
done
[ $shuffled = yes ] || fail "no round was shuffled"
[ "$(col "$csv" order_seed 1)" = 7 ] || fail "order_seed column"
[ "$(col "$csv" reps 2)" = 4 ] || fail "reps column"
python3 -c "import json; d=json.load(open('$csv.json')); assert d['runs'][0]['order_seed']==7" || fail "sidecar order_seed"
# Peer ratio: the peer itself is exactly 1, the others have an interval around their median.
[ "$(col "$csv" peer_ratio 1)" = 1.0000 ] || fail "peer's own ratio"
python3 - "$csv" <<'PY' || fail "interval columns"
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    lo, med, hi = float(r["peer_ratio_lo"]), float(r["peer_ratio"]), float(r["peer_ratio_hi"])
    assert lo <= med <= hi, r
    assert float(r["t_median_lo"]) <= float(r["t_median"]) <= float(r["t_median_hi"]), r
    assert abs(float(r["ci_coverage"]) - 0.875) < 1e-9, r["ci_coverage"]   # 4 rounds: [min, max], 1 - 2/16
    assert r["noisy"] in ("yes", "no") and float(r["cv"]) >= 0
PY
grep -q '±' "$dir/rounds.out" || fail "table has no ratio ± half-width"

# --reps auto, reachable precision: stops with at least 6 rounds and an interval within it.
csv=$dir/rounds-auto.csv; rm -f "$csv" "$csv.json"
"$mpirun" -n 2 "$mm" run --algo ring --n 256 --reps auto --precision 0.9 --budget 60 --quiet --csv "$csv" >/dev/null
python3 - "$csv" <<'PY' || fail "auto precision"
import csv, sys
r = next(csv.DictReader(open(sys.argv[1])))
reps, med, lo, hi = int(r["reps"]), float(r["t_median"]), float(r["t_median_lo"]), float(r["t_median_hi"])
assert r["reps_asked"] == "auto", r["reps_asked"]
assert 6 <= reps < 200, reps
assert max(med - lo, hi - med) / med <= 0.9, (med, lo, hi)
assert float(r["ci_coverage"]) >= 0.95
PY
# --reps auto, unreachable precision: the budget ends it (between 3 and 200 rounds, near the budget).
csv=$dir/rounds-budget.csv; rm -f "$csv" "$csv.json"
t0=$(date +%s.%N)
"$mpirun" -n 2 "$mm" run --algo dgemm,ring --n 768 --reps auto --precision 0.000001 --budget 2 --quiet --csv "$csv" >/dev/null
t1=$(date +%s.%N)
python3 - "$csv" "$t0" "$t1" <<'PY' || fail "auto budget"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
for r in rows:
    assert 3 <= int(r["reps"]) < 200, r["reps"]
assert float(sys.argv[3]) - float(sys.argv[2]) < 30, "took far longer than the 2 s budget"
PY
# A budget smaller than one round still gives the minimum of 3 rounds.
csv=$dir/rounds-tiny.csv; rm -f "$csv" "$csv.json"
"$mpirun" -n 2 "$mm" run --algo ring --n 64 --reps auto --precision 0.000001 --budget 0.000001 --quiet --csv "$csv" >/dev/null
[ "$(col "$csv" reps 1)" = 3 ] || fail "tiny budget: $(col "$csv" reps 1) rounds, expected 3"
echo "rounds_ok passed"
