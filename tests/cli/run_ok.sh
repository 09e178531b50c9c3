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
[ "$(grep -c ',ok,' "$csv")" = 8 ] || { echo "FAIL: not all rows ok"; cat "$csv"; exit 1; }
grep -q ',yes,' "$csv" || { echo "FAIL: lb_override not yes"; cat "$csv"; exit 1; }
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
