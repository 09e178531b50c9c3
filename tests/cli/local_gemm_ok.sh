#!/usr/bin/env bash
# --local-gemm at the command line with good input: dgemm at n = 256 with
# --local-strassen 0,1 --local-gemm blas,packed is four configurations of
# one sweep, each L on BLAS and on the packed GEMM side by side, all
# verified; L = 1 really does its level (256 is the default cut-off) on
# both GEMMs; the peer is the plain DGEMM row (L = 0 on BLAS), not the
# packed GEMM alone; the table names the packed rows ("0+packed").
set -eu
mpirun=$1; mm=$2; dir=$3
csv=$dir/local-gemm.csv
rm -f "$csv" "$csv.json"
fail() { echo "FAIL: $*"; cat "$csv" 2>/dev/null; exit 1; }
"$mpirun" -n 1 "$mm" run --algo dgemm --n 256 --local-strassen 0,1 --local-gemm blas,packed --reps 1 --csv "$csv" \
  --quiet >"$dir/local-gemm.out"
grep -q ' 0+packed ' "$dir/local-gemm.out" && grep -q ' 1+packed ' "$dir/local-gemm.out" ||
  { cat "$dir/local-gemm.out"; fail "table does not name the packed rows"; }
python3 - "$csv" <<'PY' || fail "rows"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
got = [(r["local_levels"], r["local_gemm"]) for r in rows]
assert got == [("0", "blas"), ("0", "packed"), ("1", "blas"), ("1", "packed")], got
bad = [(r["local_levels"], r["local_gemm"], r["status"], r["verified"], r["residual"], r["reason"]) for r in rows
       if r["status"] != "ok" or r["verified"] != "yes"]
assert not bad, bad
assert [r["local_levels_applied"] for r in rows] == ["0", "0", "1", "1"], [r["local_levels_applied"] for r in rows]
# The peer's ratio to itself is exactly 1; the packed GEMM alone is measured against it.
assert rows[0]["peer_ratio"] == "1.0000", rows[0]["peer_ratio"]
assert all(r["peer_ratio"] for r in rows), [r["peer_ratio"] for r in rows]
print("local_gemm_ok passed:", ", ".join(f"L={l} {g} x{float(r['peer_ratio']):.2f}" for (l, g), r in zip(got, rows)))
PY
