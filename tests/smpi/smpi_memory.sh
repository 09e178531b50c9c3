#!/usr/bin/env bash
# A simulation honours a memory budget (docs/simulation.md, "Memory"):
# every simulated rank lives in the one simulating process, so run refuses,
# with a not-applicable row and the reason, a configuration whose ranks
# together would hold more than --host-memory (MMBENCH_SIM_HOST_MEMORY).
# - charged, p = 8, budget 20 MiB: ring at n = 4096 has five buffers of
#   16 MiB per rank, all shared: a rank keeps their page tables (0.16 MiB)
#   and what every simulated rank costs (1 MiB + 1.5 KiB x 8), 9.4 MiB in
#   all: it runs. At n = 900 its five buffers of 795 KiB stay private:
#   8 x 4.9 MiB = 39 MiB, refused. The dgemm peer (rank 0 alone holds three
#   shared 128 MiB matrices) runs, and its measured peak (each simulated
#   rank counts its own buffers) equals the prediction.
# - real computation, p = 4, budget 5 MiB: ring at n = 256 needs
#   4 x (640 KiB + 1 MiB), refused; at n = 64 4 x (40 KiB + 1 MiB): it runs
#   and verifies.
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
  run --algo ring,dgemm --n 900,4096 --reps 1 --warmup 0 --csv "$csv" --quiet >"$dir/smpi-memory-charged.out" 2>&1 \
  || { cat "$dir/smpi-memory-charged.out"; fail "simulate.sh (charged)"; }
python3 - "$csv" <<'PY' || { cat "$csv"; fail "charged rows"; }
import csv, sys
rows = {(r["algo"], int(r["n"])): r for r in csv.DictReader(open(sys.argv[1]))}
small, big, peer = rows[("ring", 900)], rows[("ring", 4096)], rows[("dgemm", 4096)]
assert small["status"] == "not-applicable", small["status"]
assert "over the host budget of 20.0 MiB" in small["reason"] and "8 ranks hold" in small["reason"], small["reason"]
assert big["status"] == "ok", (big["status"], big["reason"])
assert peer["status"] == "ok", (peer["status"], peer["reason"])
for r in (big, peer):
    pred, hwm = float(r["mem_pred_mb"]), float(r["mem_hwm_mb"])
    assert abs(pred - hwm) <= 0.01 * pred, (r["algo"], pred, hwm)
print("charged: ring n = 900 refused (%s); ring n = 4096 and dgemm ran, predicted = measured (%s, %s MiB)"
      % (small["reason"], big["mem_hwm_mb"], peer["mem_hwm_mb"]))
PY

csv=$dir/smpi-memory-real.csv
rm -f "$csv" "$csv.json"
"$src/scripts/simulate.sh" --build "$smpi_build" --platform "$platform" --np 4 --host-memory 5M -- \
  run --algo ring --n 64,256 --reps 1 --warmup 0 --csv "$csv" --quiet >"$dir/smpi-memory-real.out" 2>&1 \
  || { cat "$dir/smpi-memory-real.out"; fail "simulate.sh (real)"; }
python3 - "$csv" <<'PY' || { cat "$csv"; fail "real rows"; }
import csv, sys
rows = {int(r["n"]): r for r in csv.DictReader(open(sys.argv[1]))}
assert rows[64]["status"] == "ok" and rows[64]["verified"] == "yes", rows[64]
assert rows[256]["status"] == "not-applicable" and "(real computation: every buffer)" in rows[256]["reason"], rows[256]["reason"]
print("real: n = 64 ran, n = 256 refused (%s)" % rows[256]["reason"])
PY
echo "smpi_memory passed"
