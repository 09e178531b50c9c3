#!/usr/bin/env bash
# ScaLAPACK's own test drivers (Debian's scalapack-mpi-test) across a
# cluster of 2 network namespaces of 2 ranks each (TCP between the nodes,
# shared memory inside; 4 ranks on this machine's cores), each run plain and
# under libmmbench-dispatch.so with every classical member forced on every
# PDGEMM call (tests/scalapack_drivers/run_driver.py: the same tests must
# pass as in the plain run, and the census must show the calls taken), and
# as ranks x threads hybrids for the PBLAS tester and two drivers. Writes
# OUT/<driver>.txt (run_driver.py's report) and OUT/summary.md.
#   [OUT=results/scalapack-drivers-netns-zen5-20261207] [RATE=1gbit] results/scalapack-drivers-netns-zen5-20261207/run.sh
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
out=${OUT:-results/scalapack-drivers-netns-zen5-20261207}
drivers=/usr/lib/$(gcc -print-multiarch)/scalapack/openmpi-tests
lib=$PWD/build/libmmbench-dispatch.so
[ -x "$drivers/xdinv" ] || { echo "run.sh: no ScaLAPACK test drivers in $drivers (scalapack-mpi-test)" >&2; exit 2; }
[ -f "$lib" ] || { echo "run.sh: no $lib (make build)" >&2; exit 2; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
work=$(mktemp -d)
trap 'rm -rf "$work"; scripts/netns-cluster.sh down --prefix mmq >/dev/null 2>&1 || true' EXIT
scripts/netns-cluster.sh down --prefix mmq >/dev/null 2>&1 || true
rate=(); [ -z "${RATE:-}" ] || rate=(--rate "$RATE" --burst 16kb)
scripts/netns-cluster.sh up 2 --ranks-per-node 2 --prefix mmq "${rate[@]}" | head -1
# run_driver.py launches "MPIRUN -q -n 4 ..."; this launches onto the cluster.
printf '#!/usr/bin/env bash\nexec mpirun %s -x OPENBLAS_NUM_THREADS=1 "$@"\n' "$(tr '\n' ' ' </tmp/mmq-cluster/mpirun.args)" \
  >"$work/mpirun"
chmod +x "$work/mpirun"
mkdir -p "$out"
{
  echo "| driver | members | result | seconds |"
  echo "|---|---|---|---|"
} >"$out/summary.md"
one() {  # NAME RUN_DRIVER_ARGS...
  local name=$1 start rc
  shift
  start=$(date +%s)
  python3 tests/scalapack_drivers/run_driver.py --mpirun "$work/mpirun" --lib "$lib" --drivers "$drivers" \
    --work "$work/$name" "$@" >"$out/$name.txt" 2>&1
  rc=$?
  cat "$out/$name.txt"
  echo "| $name | ${*: -3} | $([ $rc = 0 ] && echo passed || echo "FAILED (exit $rc)") | $(($(date +%s) - start)) |" \
    >>"$out/summary.md"
}
for d in xdinv xdls xdsep xdgsep xdsyevr xdsvd xdnep xdhseqr xdhrd xdtrd xdbrd; do
  one "$d" --driver "$d" --calls-pdgemm ring tpmm 2.5d
done
one xdlu --driver xdlu --calls-pdgemm --dat tests/scalapack_drivers/LU-no-refinement.dat=LU.dat ring tpmm 2.5d
for d in PBLAS/dpb3tst xdinv xdsvd; do
  one "$(basename "$d")-hybrid" --driver "$d" --calls-pdgemm ring/2 tpmm/2
done
for d in xdqr xddblu xddtlu xdgblu xdpbllt xdptllt; do
  one "$d" --driver "$d" ring tpmm 2.5d
done
cat "$out/summary.md"
