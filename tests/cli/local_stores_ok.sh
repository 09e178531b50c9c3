#!/usr/bin/env bash
# --local-stores reaches the kernel and the CSV: one local level at n = 256
# (the default cut-off) with streaming and with cached stores, both
# verified, each named in the local_stores column and the table's L column,
# and nothing named in a row without levels.
set -u
mpirun=$1; mm=$2; dir=$3/local-stores
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$dir"; mkdir -p "$dir"
csv=$dir/stores.csv
"$mpirun" -q -n 1 "$mm" run --algo dgemm --n 256 --local-strassen 0,1 --local-stores streaming,cached --reps 1 \
  --warmup 0 --csv "$csv" >"$dir/out.txt" 2>&1 || { cat "$dir/out.txt"; fail "run exit $?"; }
grep -q ' 1+streaming ' "$dir/out.txt" || { cat "$dir/out.txt"; fail "no '1+streaming' in the table's L column"; }
python3 - "$csv" <<'PY' || fail "CSV"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
with_levels = sorted(r["local_stores"] for r in rows if r["local_levels"] == "1")
assert with_levels == ["cached", "streaming"], with_levels
assert all(r["local_levels_applied"] == "1" and r["verified"] == "yes" for r in rows if r["local_levels"] == "1"), rows
# Without levels there are no passes to store: not swept and not reported.
assert [r["local_stores"] for r in rows if r["local_levels"] == "0"] == [""], rows
print("local_stores rows:", with_levels)
PY
echo "local_stores_ok passed"
