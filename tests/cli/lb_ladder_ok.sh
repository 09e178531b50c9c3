#!/usr/bin/env bash
# scripts/bench/lb_ladder.sh and its summary work (a check of the script at
# n = 256, one round: not a measurement). With the thesis' profile (lb 668)
# the tuned lb runs capped at k = 256 on 1 x 2 (share 128: 32, the floor),
# its row says lb = 32 and lb_asked = auto:668, and the summary, which tells
# it apart from the explicit lb = 32, has one row for n = 256.
set -u
src=$1; mm=$2; dir=$3/lb-ladder
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$dir"
OUT=$dir MM=$mm NS=256 ROUNDS=1 WARMUP=0 LBS=32,64 PROFILE=$src/configs/thesis-opteron.json \
  "$src/scripts/bench/lb_ladder.sh" >"$3/lb-ladder.out" 2>&1 || { cat "$3/lb-ladder.out"; fail "lb_ladder.sh exit $?"; }
csv=$dir/lb-ladder-p2.csv
[ -f "$csv" ] || fail "no $csv"
python3 - "$csv" <<'PY' || fail "CSV"
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["algo"] == "pdgemm"]
asked = sorted((r["lb_asked"], r["lb"], r["status"]) for r in rows)
assert asked == [("32", "32", "ok"), ("64", "64", "ok"), ("auto:668", "32", "ok")], asked
PY
summary=$dir/lb-ladder-p2-summary.md
grep -q '^| 256 | 32: [^|]*, 64: [^|]*, auto=32: [^|]* | [^|]* | 32 | [0-9.]* \[' "$summary" || { cat "$summary"; fail "summary row for n = 256"; }
echo "ok: $(grep '^| 256 ' "$summary")"
