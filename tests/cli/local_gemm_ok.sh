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

# The packed rows name the kernel and block sizes that ran; the sidecar
# says how the kernel was chosen (unset MMBENCH_PACKED_ISA: the widest
# this CPU runs).
isa=$(python3 - "$csv" "$csv.json" <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
for r in rows:
    if r["local_gemm"] == "packed":
        assert r["packed_isa"] in ("avx512", "avx2", "portable"), r["packed_isa"]
        assert r["packed_blocking"].count("x") == 2, r["packed_blocking"]
    else:
        assert r["packed_isa"] == "" and r["packed_blocking"] == "", (r["packed_isa"], r["packed_blocking"])
side = json.load(open(sys.argv[2]))["runs"][-1]["packed_isa"]
isa = rows[1]["packed_isa"]
assert side.startswith(isa + " ("), side
print(isa)
PY
) || fail "packed_isa / packed_blocking"

# --local-gemm auto takes the leaf and the blocking from a profile's packed
# GEMM step (a copy of the thesis profile with one added, for the kernel
# that runs here: 64 rows is a whole number of every kernel's MR), and the
# summary says which layout of the cores the profile found best.
prof=$dir/local-gemm-profile.json
python3 - "$(dirname "$0")/../../configs/thesis-opteron.json" "$prof" "$isa" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
b = {"mc": 64, "kc": 128, "nc": 240}
p["packed_gemm"] = {"isa": sys.argv[3], "n": 2048, "rounds": 3, "best": b, "packed_mflops": 2.0,
                    "blas_mflops": 1.0, "leaf": "packed", "candidates": [dict(b, mflops_median=2.0)]}
p["core_layout"] = {"n": 2048, "ranks": 2, "threads": 2, "ranks_mflops": 100.0, "threads_mflops": 90.0,
                    "better": "rank-per-core"}
json.dump(p, open(sys.argv[2], "w"))
PY
csv2=$dir/local-gemm-auto.csv
rm -f "$csv2" "$csv2.json"
"$mpirun" -n 1 "$mm" run --algo dgemm --n 256 --local-strassen 0,1 --local-gemm auto --profile "$prof" --reps 1 \
  --csv "$csv2" --quiet >"$dir/local-gemm-auto.out" 2>&1 || { cat "$dir/local-gemm-auto.out"; fail "auto run"; }
grep -q '^cores: the profile says this machine wants one rank per core' "$dir/local-gemm-auto.out" ||
  { cat "$dir/local-gemm-auto.out"; fail "summary lacks the cores' layout"; }
python3 - "$csv2" "$isa" <<'PY' || fail "auto rows"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
got = [(r["local_levels"], r["local_gemm"], r["packed_isa"], r["packed_blocking"], r["status"]) for r in rows]
want = [(l, "packed", sys.argv[2], "64x128x240", "ok") for l in ("0", "1")]
assert got == want, got
PY
# Without --local-gemm, --local-strassen auto takes the profile's leaf too.
rm -f "$csv2" "$csv2.json"
python3 - "$prof" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
p["strassen_crossover"] = {"local_l1_n": 128, "local_l2_n": 0, "largest_n_tried": 512}
json.dump(p, open(sys.argv[1], "w"))
PY
"$mpirun" -n 1 "$mm" run --algo dgemm --n 256 --local-strassen auto --profile "$prof" --reps 1 --csv "$csv2" \
  --quiet >"$dir/local-gemm-auto.out" 2>&1 || { cat "$dir/local-gemm-auto.out"; fail "local-strassen auto run"; }
python3 - "$csv2" <<'PY' || fail "local-strassen auto rows"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert [(r["local_levels"], r["local_gemm"], r["packed_blocking"], r["status"]) for r in rows] == \
    [("auto", "packed", "64x128x240", "ok")], rows
PY
echo "local_gemm_ok: packed_isa $isa, --local-gemm auto and --local-strassen auto take the profile's leaf"
