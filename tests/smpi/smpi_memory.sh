#!/usr/bin/env bash
# A simulation honours a memory budget (docs/simulation.md, "Memory"):
# every simulated rank lives in the one simulating process, so run refuses,
# with a not-applicable row and the reason, a configuration whose ranks
# together would hold more than --host-memory (MMBENCH_SIM_HOST_MEMORY).
# - charged, p = 8, n = 4096, budget 20 MiB: ring's ranks keep 5 buffers
#   each (A, B, C and two B blocks, all shared: at most 1 MiB each stays
#   private) plus the page tables of 80 MiB of shared mappings: 8 x 5.2 MiB
#   = 41 MiB, refused; the dgemm peer's rank 0 alone holds 3 matrices and
#   runs. Its measured peak (each simulated rank counts its own buffers)
#   equals the prediction.
# - real computation, p = 4, budget 1 MiB: ring at n = 256 needs 4 x 640 KiB,
#   refused; at n = 64, 4 x 40 KiB, it runs and verifies.
set -eu
src=$1; smpi_build=$2; dir=$3
command -v smpirun >/dev/null || { echo "SKIP: smpirun not found (libsimgrid-dev not installed)"; exit 77; }
[ -x "$smpi_build/mmbench" ] || { echo "SKIP: no SMPI build at $smpi_build (cmake -B build-smpi -DMMBENCH_SMPI=ON && cmake --build build-smpi)"; exit 77; }
mkdir -p "$dir"
fail() { echo "FAIL: $*"; exit 1; }
platform=$src/configs/platforms/star-test.xml

csv=$dir/smpi-memory-charged.csv
rm -f "$csv" "$csv.json"
"$src/scripts/simulate.sh" --build "$smpi_build" --platform "$platform" --np 8 --compute charged --host-memory 20M -- \
  run --algo ring,dgemm --n 4096 --reps 1 --warmup 0 --csv "$csv" --quiet >"$dir/smpi-memory-charged.out" 2>&1 \
  || { cat "$dir/smpi-memory-charged.out"; fail "simulate.sh (charged)"; }
python3 - "$csv" <<'PY' || { cat "$csv"; fail "charged rows"; }
import csv, sys
rows = {r["algo"]: r for r in csv.DictReader(open(sys.argv[1]))}
ring, peer = rows["ring"], rows["dgemm"]
assert ring["status"] == "not-applicable", ring["status"]
assert "over the host budget of 20.0 MiB" in ring["reason"] and "8 ranks" in ring["reason"], ring["reason"]
assert peer["status"] == "ok", (peer["status"], peer["reason"])
pred, hwm = float(peer["mem_pred_mb"]), float(peer["mem_hwm_mb"])
assert abs(pred - hwm) <= 0.01 * pred, (pred, hwm)
print("charged: ring refused (%s); dgemm ran, predicted %.0f MiB, measured %.0f MiB on rank 0" % (ring["reason"], pred, hwm))
PY

csv=$dir/smpi-memory-real.csv
rm -f "$csv" "$csv.json"
"$src/scripts/simulate.sh" --build "$smpi_build" --platform "$platform" --np 4 --host-memory 1M -- \
  run --algo ring --n 64,256 --reps 1 --warmup 0 --csv "$csv" --quiet >"$dir/smpi-memory-real.out" 2>&1 \
  || { cat "$dir/smpi-memory-real.out"; fail "simulate.sh (real)"; }
python3 - "$csv" <<'PY' || { cat "$csv"; fail "real rows"; }
import csv, sys
rows = {int(r["n"]): r for r in csv.DictReader(open(sys.argv[1]))}
assert rows[64]["status"] == "ok" and rows[64]["verified"] == "yes", rows[64]
assert rows[256]["status"] == "not-applicable" and "(real computation)" in rows[256]["reason"], rows[256]["reason"]
print("real: n = 64 ran, n = 256 refused (%s)" % rows[256]["reason"])
PY
echo "smpi_memory passed"
