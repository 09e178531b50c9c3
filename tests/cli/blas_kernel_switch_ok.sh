#!/usr/bin/env bash
# run --profile and the profile's BLAS kernel probe: a profile whose fastest
# core is the running one switches nothing; a pinned core (here pinned to
# the core that already runs, never another) is never overridden, even by a
# profile that names a faster core. The sidecar says what happened.
set -euo pipefail
mm=$1; src=$2; dir=$3
mkdir -p "$dir"
fail() { echo "FAIL: $*"; exit 1; }
running=$("$mm" blas-probe --n 64 | python3 -c 'import json,sys; print(json.load(sys.stdin)["core"])')
echo "running core: $running"
make_profile() {  # $1 = out, $2 = fastest, $3 = switch_pays (true/false)
  python3 - "$src/configs/thesis-opteron.json" "$1" "$2" "$3" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
p["blas_kernels"] = {"n": 64, "running": sys.argv[3], "pinned": False, "running_mflops": 1000.0,
                     "fastest": sys.argv[3], "fastest_mflops": 2000.0, "switch_pays": sys.argv[4] == "true",
                     "advice": "", "probes": []}
json.dump(p, open(sys.argv[2], "w"))
PY
}
switched() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["runs"][-1]["blas_kernel_switched"])' "$1"; }

# 1. The profile's fastest is the running core: no switch.
make_profile "$dir/same.json" "$running" true
rm -f "$dir/same.csv" "$dir/same.csv.json"
"$mm" run --algo ring --n 64 --reps 1 --warmup 0 --profile "$dir/same.json" --csv "$dir/same.csv" >"$dir/same.out" 2>&1 ||
  { cat "$dir/same.out"; fail "run with the running core's profile failed"; }
[ -z "$(switched "$dir/same.csv.json")" ] || fail "switched although the profile names the running core"
grep -q "OpenBLAS runs core" "$dir/same.out" && fail "a switch note without a switch"

# 2. A faster core in the profile, but the core is pinned: never overridden.
make_profile "$dir/other.json" "NotTheRunningCore" true
rm -f "$dir/other.csv" "$dir/other.csv.json"
OPENBLAS_CORETYPE=$running "$mm" run --algo ring --n 64 --reps 1 --warmup 0 --profile "$dir/other.json" \
  --csv "$dir/other.csv" >"$dir/other.out" 2>&1 || { cat "$dir/other.out"; fail "pinned run failed"; }
[ -z "$(switched "$dir/other.csv.json")" ] || fail "a pinned core was overridden"

# 3. --keep-blas-kernel is accepted and keeps the core.
"$mm" run --algo ring --n 64 --reps 1 --warmup 0 --profile "$dir/same.json" --csv "$dir/same.csv" \
  --keep-blas-kernel >/dev/null 2>&1 || fail "--keep-blas-kernel refused"
echo "blas_kernel_switch_ok passed"
