#!/usr/bin/env bash
# A sweep survives its failures:
#  - a configuration forced to fail (MMBENCH_FAULT_INJECT) becomes a `failed`
#    row with the reason, and the configurations after it still run;
#  - SIGTERM mid-sweep: exit 143, one line saying how many rows were written,
#    every row in the CSV is complete, and the --json export has the same rows;
#  - --validate with a foreign <stem>-validate.csv is refused before anything runs.
set -u
mpirun=$1; mm=$2; dir=$3
fail() { echo "FAIL: $*"; exit 1; }

# 1. Allocation failure on the last rank (bad_alloc), then a plan failure on rank 0.
csv=$dir/faults.csv; rm -f "$csv" "$csv.json"
MMBENCH_FAULT_INJECT=ring@alloc "$mpirun" -q -n 2 "$mm" run --algo dgemm,ring,tpmm --n 64,96 --reps 2 --quiet \
  --csv "$csv" >"$dir/faults.out" 2>&1
code=$?
[ $code = 1 ] || fail "exit $code with a failed configuration, expected 1"
python3 - "$csv" <<'PY' || fail "failed rows"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 6, len(rows)
for r in rows:
    if r["algo"] == "ring":
        assert r["status"] == "failed" and "alloc: out of memory" in r["reason"] and "rank 1" in r["reason"], r
    else:
        assert r["status"] == "ok", r          # the others, before and after it, ran
PY
rm -f "$csv" "$csv.json"
MMBENCH_FAULT_INJECT=ring@plan@0 "$mpirun" -q -n 2 "$mm" run --algo ring,tpmm --n 64 --reps 2 --quiet \
  --csv "$csv" >/dev/null 2>&1
python3 - "$csv" <<'PY' || fail "plan failure"
import csv, sys
rows = {r["algo"]: r for r in csv.DictReader(open(sys.argv[1]))}
assert rows["ring"]["status"] == "failed" and "plan: injected fault" in rows["ring"]["reason"], rows["ring"]
assert rows["tpmm"]["status"] == "ok"
PY
# A multiplication that fails on every rank (e.g. a plan that cannot work at run time).
rm -f "$csv" "$csv.json"
MMBENCH_FAULT_INJECT=tpmm@multiply@all "$mpirun" -q -n 2 "$mm" run --algo tpmm,ring --n 64 --reps 2 --quiet \
  --csv "$csv" >/dev/null 2>&1
python3 - "$csv" <<'PY' || fail "multiply failure"
import csv, sys
rows = {r["algo"]: r for r in csv.DictReader(open(sys.argv[1]))}
assert rows["tpmm"]["status"] == "failed" and "multiply: injected fault" in rows["tpmm"]["reason"], rows["tpmm"]
assert rows["ring"]["status"] == "ok"
PY

# 2. SIGTERM to the ranks (as a batch system's time limit sends it) mid-sweep.
csv=$dir/faults-term.csv; rm -f "$csv" "$csv.json" "$dir/faults-term.json"
"$mpirun" -q -n 2 "$mm" run --algo dgemm,ring --n 128,160,192,224,256,288,320,352,384,416,448,480,512 --reps 30 \
  --quiet --csv "$csv" --json "$dir/faults-term.json" >"$dir/faults-term.out" 2>"$dir/faults-term.err" &
pid=$!
for _ in $(seq 300); do  # up to 30 s for the first rows
  [ -f "$csv" ] && [ "$(wc -l <"$csv")" -ge 3 ] && break
  sleep 0.1
done
pkill -TERM -f "^$mm run --algo dgemm,ring --n 128,160.*$csv" || fail "no process to signal"
wait $pid
code=$?
[ $code = 143 ] || fail "exit $code after SIGTERM, expected 143"
grep -q "interrupted by SIGTERM.*rows written to" "$dir/faults-term.err" || { cat "$dir/faults-term.err"; fail "no interrupt line"; }
python3 - "$csv" <<'PY' || fail "partial rows after SIGTERM"
import csv, sys
lines = open(sys.argv[1]).read().split("\n")
assert lines[-1] == "", "file does not end with a newline"
rows = list(csv.reader(lines[:-1]))
width = len(rows[0])
assert len(rows) >= 3 and all(len(r) == width for r in rows), [len(r) for r in rows]
assert all(r[rows[0].index("status")] == "ok" for r in rows[1:])
assert len(rows) - 1 < 26, "the sweep was not interrupted"
PY
# The --json export holds the same rows and says the run was interrupted.
python3 - "$csv" "$dir/faults-term.json" <<'PY' || fail "JSON export after SIGTERM"
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
doc = json.load(open(sys.argv[2]))
m = doc["metadata"]
assert m["complete"] is False and m["interrupted_by"] == "SIGTERM" and m["finished"], m
assert [r["n"] for r in doc["rows"]] == [int(r["n"]) for r in rows], (len(doc["rows"]), len(rows))
PY

# 3. --validate with a validate CSV of another header: exit 2 before running.
csv=$dir/faults-val.csv; rm -f "$csv" "$csv.json"
printf 'a,b\n1,2\n' >"$dir/faults-val-validate.csv"
out=$("$mpirun" -q -n 2 "$mm" run --algo ring,tpmm --validate --n 64 --lambda 1e-6 --tau 1000 --flops 1000 \
      --csv "$csv" 2>&1)
code=$?
[ $code = 2 ] || fail "foreign validate CSV: exit $code, expected 2"
echo "$out" | grep -q "faults-val-validate.csv.*different CSV header" || fail "message: $out"
[ ! -s "$csv" ] || [ "$(wc -l <"$csv")" -le 1 ] || fail "rows were measured before the refusal"
echo "faults_ok passed"
