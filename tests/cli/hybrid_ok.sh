#!/usr/bin/env bash
# --hybrid: at p = 4, t = 2 runs each algorithm on ranks 0 and 2 with 2
# threads each (the row says p = 2, threads = 2, hybrid = 2) and verifies
# it; t = 3 does not divide 4 and the row says so; the dgemm peer, one rank
# with every core already, runs once. Oversubscribed here: correctness only.
set -u
mpirun=$1; mm=$2; dir=$3/hybrid
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$dir"; mkdir -p "$dir"
csv=$dir/hybrid.csv
"$mpirun" -q -n 4 "$mm" run --algo ring,pdgemm,strassen-q8+dgemm,dgemm --hybrid 1,2,3 --n 200 --reps 1 --warmup 0 \
  --csv "$csv" --quiet >"$dir/out.txt" 2>&1 || { cat "$dir/out.txt"; fail "run exit $?"; }
python3 - "$csv" <<'PY' || fail "CSV"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
got = [(r["algo"], r["hybrid"], r["p"], r["threads"], r["status"], r["verified"]) for r in rows]
want = [
    ("ring", "1", "4", "1", "ok", "yes"), ("ring", "2", "2", "2", "ok", "yes"),
    ("ring", "3", "4", "1", "not-applicable", ""),
    ("pdgemm", "1", "4", "1", "ok", "yes"), ("pdgemm", "2", "2", "2", "ok", "yes"),
    ("pdgemm", "3", "4", "1", "not-applicable", ""),
    # Q8 over DGEMM needs p = 4^r: 4 ranks apply, 2 computing ranks do not.
    ("strassen-q8+dgemm", "1", "4", "1", "ok", "yes"), ("strassen-q8+dgemm", "2", "4", "1", "not-applicable", ""),
    ("strassen-q8+dgemm", "3", "4", "1", "not-applicable", ""),
    ("dgemm", "1", "1", "4", "ok", "yes"),
]
assert got == want, got
grids = {r["hybrid"]: r["grid"] for r in rows if r["algo"] == "pdgemm" and r["status"] == "ok"}
assert grids == {"1": "2x2", "2": "1x2"}, grids
why = [r["reason"] for r in rows if r["hybrid"] == "3"]
assert all("not a multiple of 3" in w for w in why), why
assert "hybrid 2: on 2 ranks: " in [r["reason"] for r in rows if r["algo"] == "strassen-q8+dgemm"][1]
print("hybrid rows (algo, hybrid, p, threads, status, verified):", got)
PY
# --grid 1x2 at p = 4 fits the computing ranks of --hybrid 2 only: that row
# runs on it, the one-thread-per-rank row says why not.
"$mpirun" -q -n 4 "$mm" run --algo pdgemm --hybrid 1,2 --grid 1x2 --n 200 --reps 1 --warmup 0 --csv "$dir/grid.csv" \
  --quiet >"$dir/grid.txt" 2>&1 || { cat "$dir/grid.txt"; fail "run --grid 1x2 --hybrid 1,2 exit $?"; }
python3 - "$dir/grid.csv" <<'PY' || fail "grid CSV"
import csv, sys
rows = [(r["hybrid"], r["status"], r["grid"], r["reason"]) for r in csv.DictReader(open(sys.argv[1]))]
assert rows == [("1", "not-applicable", "", "grid 1x2 needs 2 ranks, have 4"), ("2", "ok", "1x2", "")], rows
print("grid 1x2 with --hybrid 1,2:", rows)
PY
echo "hybrid_ok passed"
