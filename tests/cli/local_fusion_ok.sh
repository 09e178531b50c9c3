#!/usr/bin/env bash
# --local-fusion reaches the kernel and the CSV: one local level at n = 256
# (the default cut-off) under each schedule, verified, with the schedule in
# the local_fusion column and in no row without levels.
set -u
mpirun=$1; mm=$2; dir=$3/local-fusion
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$dir"; mkdir -p "$dir"
csv=$dir/fusion.csv
"$mpirun" -q -n 1 "$mm" run --algo dgemm --n 256 --local-strassen 0,1 --local-fusion none,deepest,all --reps 1 \
  --warmup 0 --csv "$csv" --quiet >"$dir/out.txt" 2>&1 || { cat "$dir/out.txt"; fail "run exit $?"; }
python3 - "$csv" <<'PY' || fail "CSV"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
with_levels = sorted(r["local_fusion"] for r in rows if r["local_levels"] == "1")
assert with_levels == ["all", "deepest", "none"], with_levels
assert all(r["local_levels_applied"] == "1" and r["verified"] == "yes" for r in rows if r["local_levels"] == "1"), rows
# Without levels the schedule is not swept (nothing to fuse) and not reported.
assert [r["local_fusion"] for r in rows if r["local_levels"] == "0"] == [""], rows
print("local_fusion rows:", with_levels)
PY
echo "local_fusion_ok passed"
