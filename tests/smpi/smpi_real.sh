#!/usr/bin/env bash
# Simulated runs (SimGrid SMPI) with REAL computation at p = 4, 7, 8 on the
# star test platform: every algorithm mmbench implements itself runs and is
# verified where it applies; the ScaLAPACK ones too where the SMPI build
# compiled a ScaLAPACK (-DMMBENCH_SMPI_SCALAPACK_SOURCE; its sidecar's
# "scalapack" says so), else they are not-applicable rows with the reason;
# so is the dgemm peer (p threads on rank 0, which a
# simulated rank computes on one); every row names the platform in `simulated`.
# Skips (exit 77, one line) when smpirun or the SMPI build is missing.
set -eu
src=$1; smpi_build=$2; dir=$3
command -v smpirun >/dev/null || { echo "SKIP: smpirun not found (libsimgrid-dev not installed)"; exit 77; }
[ -x "$smpi_build/mmbench" ] || { echo "SKIP: no SMPI build at $smpi_build (cmake -B build-smpi -DMMBENCH_SMPI=ON && cmake --build build-smpi)"; exit 77; }
mkdir -p "$dir"
algos=dgemm,pdgemm,ring,tpmm,2.5d,strassen-q7+ring,strassen-q7+pdgemm,strassen-q8+pdgemm,strassen-q8+tpmm,strassen-q8+dgemm
for p in 4 7 8; do
  csv=$dir/smpi-real-p$p.csv
  rm -f "$csv" "$csv.json"
  "$src/scripts/simulate.sh" --build "$smpi_build" --platform "$src/configs/platforms/star-test.xml" --np $p -- \
    run --algo $algos --n 256 --reps 1 --warmup 0 --csv "$csv" --quiet > "$dir/smpi-real-p$p.out" 2>&1 \
    || { echo "FAIL: simulate.sh at p = $p"; cat "$dir/smpi-real-p$p.out"; exit 1; }
  python3 - "$csv" $p <<'PY' || { cat "$csv"; exit 1; }
import csv, json, sys
path, p = sys.argv[1], int(sys.argv[2])
rows = list(csv.DictReader(open(path)))
assert rows, "no rows"
has_scalapack = "compiled for SMPI" in json.load(open(path + ".json"))["runs"][-1]["scalapack"]
ran = set()
for r in rows:
    assert r["simulated"] == "star-test.xml", f"simulated column: {r['simulated']!r}"
    if "pdgemm" in r["algo"] and not has_scalapack:
        assert r["status"] == "not-applicable" and r["reason"].startswith("ScaLAPACK cannot run under SMPI"), r
    elif r["algo"] == "dgemm":
        assert r["status"] == "not-applicable" and "one thread" in r["reason"], r
    elif r["status"] == "ok":
        assert r["verified"] == "yes", f"{r['algo']} p={p}: verified {r['verified']}"
        ran.add(r["algo"])
    else:
        assert r["status"] == "not-applicable", f"{r['algo']} p={p}: {r['status']} {r['reason']}"
# What must run at each p (the others do not apply there).
need = {"ring", "tpmm", "2.5d"} if p != 7 else {"ring", "2.5d"}
need |= {4: {"strassen-q7+ring", "strassen-q8+tpmm", "strassen-q8+dgemm"}, 7: {"strassen-q7+ring"},
         8: {"strassen-q7+ring", "strassen-q8+tpmm"}}[p]
if has_scalapack:
    need |= {4: {"pdgemm", "strassen-q7+pdgemm"}, 7: {"pdgemm", "strassen-q7+pdgemm"}, 8: {"pdgemm", "strassen-q8+pdgemm"}}[p]
assert need <= ran, f"p={p}: did not run and verify {sorted(need - ran)}"
side = json.load(open(path + ".json"))["runs"][-1]["simulated"]
assert side["platform"] == "star-test.xml" and len(side["platform_sha256"]) == 64 and side["compute"] == "real", side
print(f"p={p}: verified {sorted(ran)}" + (" (ScaLAPACK compiled for SMPI)" if has_scalapack else ""))
PY
done
echo "smpi_real passed"
