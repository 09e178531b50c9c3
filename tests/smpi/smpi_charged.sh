#!/usr/bin/env bash
# A charged-computation simulation at p = 64 (local DGEMMs cost simulated
# time, nothing is computed) on the star test platform: 64 hosts of
# 1 GFLOP/s, each on a full-duplex 100 MB/s, 5 us link (a message: 10 us and
# 100 MB/s; in a ring every link carries one flow each way, no contention).
# ring with w = n/p columns per rank, step s < p - 1 overlaps the shift
# (8 n w bytes) with the local DGEMM (2 w w n flops), the last step only
# computes:  t = (p - 1) max(t_dgemm, t_shift) + t_dgemm.
# n = 1024: the shifts dominate (1.3 ms vs 0.5 ms); n = 4096: the DGEMMs
# (34 ms vs 21 ms). The simulated t_median must match within 3 %. SMPI's
# message-size corrections and per-call injected delays are switched off.
set -eu
src=$1; smpi_build=$2; dir=$3
command -v smpirun >/dev/null || { echo "SKIP: smpirun not found (libsimgrid-dev not installed)"; exit 77; }
[ -x "$smpi_build/mmbench" ] || { echo "SKIP: no SMPI build at $smpi_build (cmake -B build-smpi -DMMBENCH_SMPI=ON && cmake --build build-smpi)"; exit 77; }
mkdir -p "$dir"
csv=$dir/smpi-charged.csv
rm -f "$csv" "$csv.json"
start=$(date +%s)
"$src/scripts/simulate.sh" --build "$smpi_build" --platform "$src/configs/platforms/star-test.xml" --np 64 \
  --compute charged --cfg smpi/bw-factor:0:1 --cfg smpi/lat-factor:0:1 --cfg network/crosstraffic:0 \
  --cfg smpi/test:0 -- run --algo ring --n 1024,4096 --reps 1 --warmup 0 --csv "$csv" --quiet > "$dir/smpi-charged.out" 2>&1 \
  || { echo "FAIL: simulate.sh"; cat "$dir/smpi-charged.out"; exit 1; }
wall=$(( $(date +%s) - start ))
python3 - "$csv" "$wall" <<'PY' || { cat "$csv"; cat "$dir/smpi-charged.out"; exit 1; }
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 2, rows
p, speed, bw, lat = 64, 1e9, 1e8, 10e-6
for r in rows:
    n = int(r["n"]); w = n // p
    t_dgemm = 2.0 * w * w * n / speed
    t_shift = lat + 8.0 * n * w / bw
    want = (p - 1) * max(t_dgemm, t_shift) + t_dgemm
    got = float(r["t_median"])
    assert r["verified"] == "skipped" and "charged" in r["reason"], r
    err = (got - want) / want
    print(f"ring p=64 n={n}: simulated {got:.6g} s, hand-computed {want:.6g} s ({100 * err:+.2f} %)")
    assert abs(err) < 0.03, "off by more than 3 %"
print(f"wall time of the simulation: {float(sys.argv[2]):.1f} s")
PY
echo "smpi_charged passed"
