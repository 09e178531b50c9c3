#!/usr/bin/env bash
# An unreadable sidecar (<csv>.json) is kept under another name with one
# line saying so, never replaced without a word: it is the only record of
# the earlier runs' commands, builds and seeds. The CSV's earlier rows stay.
set -u
mpirun=$1; mm=$2; dir=$3
csv=$dir/sidecar-kept.csv
rm -f "$csv" "$csv".json*
"$mpirun" -n 1 "$mm" run --algo ring --n 64 --reps 1 --csv "$csv" --quiet >/dev/null || { echo "FAIL: first run"; exit 1; }
before=$(wc -l <"$csv")
printf '{"runs": [ truncated by a full disk' >"$csv.json"
err=$("$mpirun" -n 1 "$mm" run --algo ring --n 64 --reps 1 --csv "$csv" --quiet 2>&1 >/dev/null) || { echo "FAIL: second run: $err"; exit 1; }
echo "$err"
kept=$(ls "$csv".json.unreadable-* 2>/dev/null | head -1)
[ -n "$kept" ] || { echo "FAIL: the unreadable sidecar was not kept"; ls "$dir"; exit 1; }
[ "$(cat "$kept")" = '{"runs": [ truncated by a full disk' ] || { echo "FAIL: the kept file changed"; exit 1; }
grep -q "was not readable.*kept as" <<<"$err" || { echo "FAIL: no line says so"; exit 1; }
python3 -c "import json; d = json.load(open('$csv.json')); assert len(d['runs']) == 1" || { echo "FAIL: new sidecar"; exit 1; }
[ "$(wc -l <"$csv")" -eq $((before + 1)) ] || { echo "FAIL: the CSV lost or gained rows"; exit 1; }
echo "sidecar_kept passed"
