#!/usr/bin/env bash
# mmbench doctor prints its facts one per line and exits 0; a run with a
# profile that has a measured peak fills peak_fraction.
set -euo pipefail
# Matches read here-strings, not pipes: under pipefail, `echo "$out" | grep -q`
# fails whenever grep exits at its match before echo has written the rest
# (SIGPIPE), which made this test fail now and then.
mm=$1; src=$2; dir=$3
mkdir -p "$dir"
fail() { echo "FAIL: $*"; exit 1; }
out=$("$mm" doctor --dgemm-n 256 --no-blas-probe 2>&1) || fail "doctor exit $?: $out"
echo "$out"
for key in "cpu:" "peak:" "blas:" "blas kernel:" "blas dgemm:" "blas threads:" "mpi:" "scalapack:" "environment:" \
           "blas kernels: not probed"; do
  grep -q "^$key" <<<"$out" || fail "doctor printed no '$key' line"
done
grep -qE "^(warnings: none|warning: )" <<<"$out" || fail "doctor said nothing about warnings"

# A profile with a cpu_peak: every measured row gets peak_fraction.
python3 - "$src/configs/thesis-opteron.json" "$dir/peak.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
p["cpu_peak"] = {"cpu_model": "test", "vendor": "", "family": -1, "model": -1, "flags": "sse2", "cores": 2,
                 "isas": [{"isa": "sse2", "flops_per_iteration": 48, "one_core_gflops": 100.0,
                           "all_cores_gflops_per_core": 100.0}],
                 "one_core_gflops": 100.0, "all_cores_gflops_per_core": 100.0,
                 "blas_core": "", "blas_pin": "", "dgemm_n": 0, "dgemm_gflops": 0.0, "dgemm_fraction": 0.0}
json.dump(p, open(sys.argv[2], "w"))
PY
rm -f "$dir/run.csv" "$dir/run.csv.json"
"$mm" run --algo dgemm,ring --n 128 --reps 1 --warmup 0 --profile "$dir/peak.json" --csv "$dir/run.csv" \
  >"$dir/run.out" 2>&1 || { cat "$dir/run.out"; fail "run with a peak profile failed"; }
python3 - "$dir/run.csv" <<'PY' || fail "peak_fraction"
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["status"] == "ok"]
assert rows, "no measured rows"
for r in rows:
    f = float(r["peak_fraction"])
    want = float(r["gflops_total"]) / (100.0 * int(r["p"]) * int(r["threads"]))
    assert abs(f - want) <= 1e-3 * max(1.0, want) + 1e-4, (r["algo"], f, want)
PY
echo "doctor_ok passed"
