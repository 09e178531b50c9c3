#!/usr/bin/env bash
# A small good sweep at p = 2: exit 0, a header plus one row per
# configuration, every row verified, the sidecar JSON valid, the list and
# help commands work, and the untouched other-header CSV is unchanged.
set -eu
mpirun=$1; mm=$2; dir=$3
csv=$dir/run-ok.csv
rm -f "$csv" "$csv.json" "$dir/progress.csv" "$dir/progress.csv.json"
"$mpirun" -n 2 "$mm" run --algo dgemm,pdgemm,ring --n 64,67 --k 33 --lb default,16 --nb 8 --reps 2 --csv "$csv" --quiet >"$dir/run-ok.out"
rows=$(($(wc -l <"$csv") - 1))
# dgemm 2 + pdgemm 2x2 + ring 2 = 8 rows
[ "$rows" = 8 ] || { echo "FAIL: $rows rows, expected 8"; cat "$csv"; exit 1; }
# Cells are read by column name: a positional grep (',yes,') would accept
# any other yes/no column (verified, noisy) in its place.
python3 - "$csv" <<'PY' || { echo "FAIL: cells"; cat "$csv"; exit 1; }
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
bad = [r["algo"] + " " + r["status"] for r in rows if r["status"] != "ok"]
assert not bad, f"rows not ok: {bad}"
# ScaLAPACK asked mmbench's pilaenv_ for lb in every PDGEMM row (--lb
# default serves 32, --lb 16 serves 16); the column is empty elsewhere.
pd = [r for r in rows if r["algo"] == "pdgemm"]
assert len(pd) == 4, f"{len(pd)} pdgemm rows, expected 4"
assert all(r["lb_override"] == "yes" for r in pd), [r["lb_override"] for r in pd]
assert sorted(r["lb"] for r in pd) == ["16", "16", "32", "32"], [r["lb"] for r in pd]
assert all(r["lb_override"] == "" for r in rows if r["algo"] != "pdgemm"), "lb_override outside pdgemm"
assert all(r["verified"] == "yes" for r in rows), "not every row verified"
PY
python3 -c "import json,sys; d=json.load(open('$csv.json')); assert d['runs'][0]['ranks']==2" || { echo "FAIL: sidecar"; exit 1; }
# Appending a second run keeps the header once.
"$mpirun" -n 2 "$mm" run --algo ring --n 32 --reps 1 --csv "$csv" --quiet >/dev/null
[ "$(grep -c '^timestamp' "$csv")" = 1 ] || { echo "FAIL: header repeated"; exit 1; }
[ "$(($(wc -l <"$csv") - 1))" = 9 ] || { echo "FAIL: append"; exit 1; }
"$mm" list | grep -q '^ring' || { echo "FAIL: list"; exit 1; }
"$mm" run --help | grep -q -- '--algo' || { echo "FAIL: run --help"; exit 1; }
# Progress goes to stderr only: stdout has the table, no status lines.
"$mpirun" -n 1 "$mm" run --algo ring --n 32 --reps 1 --csv "$dir/progress.csv" --progress 2>"$dir/err.txt" >"$dir/out.txt"
grep -q '\[1/1\]' "$dir/err.txt" || { echo "FAIL: no progress on stderr"; exit 1; }
! grep -q '\[1/1\]' "$dir/out.txt" || { echo "FAIL: progress leaked into stdout"; exit 1; }
# The CSV header is exactly the documented schema (docs/csv-columns.md), in order.
src=$(cd "$(dirname "$0")/../.." && pwd)
hdr=$(head -1 "$csv")
docx=$(awk '/^## `mmbench run`/{on=1} /^## DGEMM profile/{on=0} on && /^\| [a-z_]/ && !/^\| column /{sub(/^\| /,""); sub(/ \|.*/,""); print}' \
      "$src/docs/csv-columns.md" | sed 's/, /,/g' | paste -sd, -)
[ "$hdr" = "$docx" ] || { echo "FAIL: CSV header differs from docs/csv-columns.md"; echo "csv: $hdr"; echo "doc: $docx"; exit 1; }
echo "run_ok passed"
