#!/usr/bin/env bash
# --local-cutoff reaches the kernel and the CSV: at n = 512 with up to 3
# levels, a cut-off of 128 splits 512 -> 256 -> 128 -> 64 (3 levels), 256
# stops after 2 (128 < 256), 512 after 1; 'default' is the kernel's 256.
set -u
mpirun=$1; mm=$2; dir=$3/local-cutoff
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$dir"; mkdir -p "$dir"
csv=$dir/cutoff.csv
"$mpirun" -q -n 1 "$mm" run --algo dgemm --n 512 --local-strassen 3 --local-cutoff 128,256,512,default --reps 1 \
  --warmup 0 --csv "$csv" --quiet >"$dir/out.txt" 2>&1 || { cat "$dir/out.txt"; fail "run exit $?"; }
python3 - "$csv" <<'PY' || fail "CSV"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
got = [(r["local_cutoff"], r["local_levels_applied"], r["verified"]) for r in rows]
assert got == [("128", "3", "yes"), ("256", "2", "yes"), ("512", "1", "yes"), ("256", "2", "yes")], got
print("local_cutoff rows (cutoff, levels applied, verified):", got)
PY
echo "local_cutoff_ok passed"
