#!/usr/bin/env bash
# --ring-chunks reaches ring's plan and the CSV: on 2 ranks at n = 512 (256-
# wide blocks: 2 chunks of 128 by default) caps of 1 and 2 run verified and
# the ring_chunks column says 1 and 2; without a profile `auto` keeps the
# default (2); with a profile whose measured overlap hides nothing and whose
# DGEMM runs 128-wide chunks slower than whole blocks, `auto` takes one
# chunk, and `predict` labels it "chunks=1".
set -u
mpirun=$1; mm=$2; src=$3; dir=$4/ring-chunks
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$dir"; mkdir -p "$dir"
"$mpirun" -q -n 2 "$mm" run --algo ring --n 512 --ring-chunks 1,2 --reps 1 --warmup 0 --csv "$dir/caps.csv" \
  >"$dir/caps.txt" 2>&1 || { cat "$dir/caps.txt"; fail "run exit $?"; }
"$mpirun" -q -n 2 "$mm" run --algo ring --n 512 --reps 1 --warmup 0 --csv "$dir/default.csv" \
  >"$dir/default.txt" 2>&1 || { cat "$dir/default.txt"; fail "run exit $?"; }
python3 - "$src/configs/thesis-opteron.json" "$dir/profile.json" <<'PY' || fail "profile"
import json, sys
d = json.load(open(sys.argv[1]))
d["dgemm_profile"] = [{"m": 256, "n": 256, "k": 512, "mflops": 3000.0}, {"m": 256, "n": 128, "k": 512, "mflops": 2400.0}]
d["shift_overlap"] = {"partner": 1, "across_nodes": True, "points": [
    {"bytes": 1 << 20, "fraction": 0.0, "exchange_s": 0.01, "compute_s": 0.01, "both_s": 0.02}]}
json.dump(d, open(sys.argv[2], "w"))
PY
"$mpirun" -q -n 2 "$mm" run --algo ring --n 512 --reps 1 --warmup 0 --profile "$dir/profile.json" \
  --csv "$dir/auto.csv" >"$dir/auto.txt" 2>&1 || { cat "$dir/auto.txt"; fail "run exit $?"; }
"$mm" predict --profile "$dir/profile.json" --p 2 --n 512 --top 0 >"$dir/predict.txt" 2>&1 ||
  { cat "$dir/predict.txt"; fail "predict exit $?"; }
grep -q "ring chunks=1" "$dir/predict.txt" || { cat "$dir/predict.txt"; fail "predict: no 'ring chunks=1'"; }
python3 - "$dir" <<'PY' || fail "CSV"
import csv, sys
rows = lambda f: list(csv.DictReader(open(f"{sys.argv[1]}/{f}")))
caps = rows("caps.csv")
assert sorted(r["ring_chunks"] for r in caps) == ["1", "2"], caps
assert all(r["verified"] == "yes" and r["status"] == "ok" for r in caps), caps
assert [r["ring_chunks"] for r in rows("default.csv")] == ["2"], rows("default.csv")
auto = rows("auto.csv")
assert [r["ring_chunks"] for r in auto] == ["1"] and auto[0]["verified"] == "yes", auto
print("ring_chunks: caps", sorted(r["ring_chunks"] for r in caps), "default 2, auto with the profile 1")
PY
echo "ring_chunks_ok passed"
