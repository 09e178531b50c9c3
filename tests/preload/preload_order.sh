#!/usr/bin/env bash
# scripts/bench/preload_lb.sh alternates which variant runs first in a
# round and records it: a tiny run (n = 96, p = 1, 3 rounds of 1 call; a
# check of the script, not a measurement) into a scratch folder, then the
# CSV's rounds are read by column name.
#   preload_order.sh SOURCE_DIR MMBENCH APP LIB OUT_DIR
set -eu
src=$1; mm=$2; app=$3; lib=$4; out=$5
rm -rf "$out"; mkdir -p "$out"
OUT=$out MM=$mm APP=$app LIB=$lib N=96 P=1 NB=32 REPS=1 ROUNDS=3 LB=16 \
  "$src/scripts/bench/preload_lb.sh" >"$out/log.txt" 2>&1 || { echo "FAIL: preload_lb.sh failed"; cat "$out/log.txt"; exit 1; }
csv=$(ls "$out"/preload-lb-*.csv)
python3 - "$csv" <<'PY' || { cat "$csv"; exit 1; }
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
first = {r["round"]: r["variant"] for r in rows if r["position"] == "1"}
second = {r["round"]: r["variant"] for r in rows if r["position"] == "2"}
assert first == {"1": "without", "2": "with", "3": "without"}, f"first runs per round: {first}"
assert second == {"1": "with", "2": "without", "3": "with"}, f"second runs per round: {second}"
# The rows are in the order run: position 1 before position 2 in every round.
assert [r["position"] for r in rows] == ["1", "2"] * 3, [r["position"] for r in rows]
assert all(r["wrong"] == "0" for r in rows), "the app found a wrong C"
run = json.load(open(sys.argv[1] + ".json"))["runs"][0]
assert "alternating" in run["order"], run
print("ok: order alternates per round and is recorded")
PY
