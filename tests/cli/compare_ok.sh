#!/usr/bin/env bash
# mmbench compare on synthetic results files with known answers:
#  - ring is 20 % slower in B in every one of 6 rounds: flagged SLOWER, and
#    --fail-on-regression exits 1 (also under mpirun -n 2: one output, code 1);
#  - dgemm has the same times shuffled: not flagged;
#  - tpmm only in A, pdgemm only in B: listed as such;
#  - a file without t_rounds (older CSV) is compared by its medians (6 rounds:
#    disjoint [min, max] ranges have probability 0.002 with no change);
#  - the JSON export's rows read like the CSV's.
set -u
mpirun=$1; mm=$2; dir=$3/compare
fail() { echo "FAIL: $*"; exit 1; }
mkdir -p "$dir"
hdr=algo,p,threads,m,n,k,grid,nb,lb,local_levels,status,reason,t_median,t_median_lo,t_median_hi,gflops_total,reps,order_seed,t_rounds
cat >"$dir/a.csv" <<CSV
$hdr
ring,2,1,256,256,256,,,,0,ok,,1.0,0.99,1.01,0.0336,6,11,1.00;1.01;0.99;1.02;0.98;1.03
dgemm,1,2,256,256,256,,,,0,ok,,1.0,0.99,1.01,0.0336,6,11,1.00;1.01;0.99;1.02;0.98;1.00
tpmm,2,1,256,256,256,,,,0,ok,,0.5,0.49,0.51,0.0671,6,11,0.50;0.51;0.49;0.50;0.50;0.50
CSV
cat >"$dir/b.csv" <<CSV
$hdr
dgemm,1,2,256,256,256,,,,0,ok,,1.0,0.99,1.01,0.0336,6,12,1.02;0.98;1.00;1.00;0.99;1.01
ring,2,1,256,256,256,,,,0,ok,,1.2,1.19,1.21,0.028,6,12,1.20;1.21;1.19;1.22;1.18;1.23
pdgemm,2,1,256,256,256,1x2,64,32,,ok,,0.7,0.69,0.71,0.048,6,12,0.70;0.71;0.69;0.70;0.70;0.70
CSV

out=$("$mm" compare "$dir/a.csv" "$dir/b.csv" --csv "$dir/cmp.csv" 2>&1); code=$?
echo "$out"
[ $code = 0 ] || fail "exit $code without --fail-on-regression, expected 0"
echo "$out" | grep -E '^ring p=2 thr=1 n=256 .*mann-whitney +SLOWER \+(19\.9|20\.0)' >/dev/null || fail "ring regression not flagged"
echo "$out" | grep -E '^dgemm p=1 thr=2 n=256 .*mann-whitney *$' >/dev/null || fail "dgemm (no change) flagged or missing"
echo "$out" | grep -E '^tpmm p=2 thr=1 n=256 .*only in A$' >/dev/null || fail "tpmm not listed as only in A"
echo "$out" | grep -E '^pdgemm p=2 thr=1 n=256 grid=1x2 nb=64 lb=32 .*only in B$' >/dev/null || fail "pdgemm not listed as only in B"
echo "$out" | grep -q '^2 configurations in both: 1 slower, 0 faster, 1 unchanged' || fail "summary line"
python3 - "$dir/cmp.csv" <<'PY' || fail "--csv output"
import csv, sys
rows = {r["configuration"].split()[0]: r for r in csv.DictReader(open(sys.argv[1]))}
assert set(rows) == {"ring", "dgemm", "tpmm", "pdgemm"}, rows.keys()
assert rows["ring"]["significant"] == "yes" and rows["ring"]["flag"].startswith("SLOWER"), rows["ring"]
assert abs(float(rows["ring"]["p_value"]) - 2 / 924) < 1e-6, rows["ring"]["p_value"]
assert rows["dgemm"]["significant"] == "no" and rows["dgemm"]["flag"] == "", rows["dgemm"]
PY

"$mm" compare "$dir/a.csv" "$dir/b.csv" --fail-on-regression >/dev/null 2>&1; code=$?
[ $code = 1 ] || fail "--fail-on-regression with a regression: exit $code, expected 1"
# A higher threshold than the change: no regression.
"$mm" compare "$dir/a.csv" "$dir/b.csv" --fail-on-regression --threshold 0.25 >/dev/null 2>&1; code=$?
[ $code = 0 ] || fail "--threshold 0.25: exit $code, expected 0"
# No change at all: exit 0 with --fail-on-regression.
"$mm" compare "$dir/a.csv" "$dir/a.csv" --fail-on-regression >/dev/null 2>&1; code=$?
[ $code = 0 ] || fail "A against itself: exit $code, expected 0"
# Under MPI: rank 0 prints once, every rank returns its code.
out=$("$mpirun" -q -n 2 "$mm" compare "$dir/a.csv" "$dir/b.csv" --fail-on-regression 2>&1); code=$?
[ $code = 1 ] || fail "mpirun -n 2: exit $code, expected 1"
[ "$(echo "$out" | grep -c '^ring ')" = 1 ] || fail "mpirun -n 2: ring printed $(echo "$out" | grep -c '^ring ') times"

# Older files without rounds: the medians and their intervals decide.
cut -d, -f1-18 "$dir/a.csv" >"$dir/a-old.csv"
out=$("$mm" compare "$dir/a-old.csv" "$dir/b.csv" 2>&1) || fail "old file: exit $?"
echo "$out" | grep -E '^ring .* medians +SLOWER' >/dev/null || fail "medians method: $out"

# The JSON export holds the same rows: compared like the CSV.
python3 - "$dir/b.csv" "$dir/b.json" <<'PY' || fail "writing the JSON fixture"
import csv, json, sys
ints = {"p", "threads", "m", "n", "k", "nb", "lb", "reps", "order_seed"}
nums = {"t_median", "t_median_lo", "t_median_hi", "gflops_total"}
rows = []
for r in csv.DictReader(open(sys.argv[1])):
    o = {}
    for k, v in r.items():
        o[k] = None if v == "" else int(v) if k in ints else float(v) if k in nums else \
               [float(x) for x in v.split(";")] if k == "t_rounds" else v
    rows.append(o)
json.dump({"schema": "mmbench-results/2", "metadata": {}, "rows": rows}, open(sys.argv[2], "w"))
PY
out=$("$mm" compare "$dir/a.csv" "$dir/b.json" 2>&1) || fail "JSON input: exit $?"
echo "$out" | grep -E '^ring .*mann-whitney +SLOWER \+(19\.9|20\.0)' >/dev/null || fail "JSON input: $out"
echo "compare_ok passed"
