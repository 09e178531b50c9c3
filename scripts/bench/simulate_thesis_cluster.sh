#!/usr/bin/env bash
# SIMULATED runs (SimGrid SMPI, --compute charged) on the thesis' Opteron
# cluster and scaled copies of it, next to the paper and refined model
# predictions (configs/thesis-opteron.json). Every time in the CSVs is
# simulated time, never a measurement. The reference runs and what they
# say: results/simulated-thesis-cluster.md, docs/results.md ("Simulated
# clusters").
#
#   PARTS="a b c d w" STAMP=20261123T0500Z LIMIT=900 scripts/bench/simulate_thesis_cluster.sh
#
# Output goes to $OUT (default results/simulated-thesis-cluster/, beside the
# reference runs, under this run's STAMP); tables of it:
#   python3 scripts/simulated_tables.py --results "$OUT" --stamp "$STAMP"
#
#   a  p = 56: ring, strassen-q7+ring r = 1, 2 (tpmm, strassen-q8+tpmm rows
#      say not-applicable), n = 4096, 8192, 16384 (AN= picks the n)
#   b  p = 32, 64: ring vs tpmm, n = 16384 (tpmm counts its node-local swaps)
#   c  p = 64, 96, 128: strassen-q7+ring --q7-split paper,model, r = 1, 2,
#      n = 8192 (CN= picks the n; CP= the p)
#   d  p = 16, 64, 256, 1024: --algo auto next to the runnable algorithms,
#      n = 8192 (DN= picks the n, DP= the p, DALGOS= the --algo list)
#   w  wall time of the simulation: ring alone, n = 16384, p = 56, 256, 1024
#      (WP= picks the p; MMBENCH_SIM_NICE=0 runs it at normal priority)
#
# Needs build-smpi (cmake -S . -B build-smpi -DMMBENCH_SMPI=ON) and build
# (the normal build, for `predict`). Platforms: thesis-opteron.xml for
# p <= 64; above that configs/platforms/thesis-opteron-N<nodes>.xml, written
# here by platform_from_profile.py with p/2 nodes (same links, same 146 MB/s
# per process under all-to-all: the switch grows with the machine).
# Each simulation runs under `timeout $LIMIT`; its wall/user/sys time and the
# load go to $OUT/simulated-walltimes-<host>-$STAMP.txt.
set -uo pipefail
cd "$(dirname "$0")/../.."
PARTS=${PARTS:-a b c d w}
STAMP=${STAMP:-$(date -u +%Y%m%dT%H%MZ)}
LIMIT=${LIMIT:-900}
PROFILE=configs/thesis-opteron.json
OUT=${OUT:-results/simulated-thesis-cluster}
host=$(hostname)
walls=$OUT/simulated-walltimes-$host-$STAMP.txt
log=$OUT/simulated-output-$host-$STAMP.log  # mmbench's and SMPI's output
mkdir -p "$OUT"
[ -x build-smpi/mmbench ] || { echo "build build-smpi first" >&2; exit 3; }

# platform_for P: the thesis platform, or a scaled copy with P/2 nodes.
platform_for() {
  local p=$1 nodes
  if [ "$p" -le 64 ]; then echo configs/platforms/thesis-opteron.xml; return; fi
  nodes=$(( (p + 1) / 2 ))
  local f=configs/platforms/thesis-opteron-N$nodes.xml
  [ -f "$f" ] || python3 scripts/platform_from_profile.py "$PROFILE" --nodes "$nodes" --cores-per-node 2 \
      --loopback-bw 1.5e9 --loopback-lat 1e-6 --name opteron -o "$f"
  echo "$f"
}

# sim WHAT P ARGS...: one charged simulation, rows appended to the part's CSV.
sim() {
  local what=$1 p=$2; shift 2
  local plat; plat=$(platform_for "$p")
  local stem; stem=$(basename "$plat" .xml)
  local csv=$OUT/simulated-$stem-$what-$host-$STAMP.csv
  local t0 load; t0=$(date +%s); load=$(cut -d' ' -f1-3 /proc/loadavg)
  echo "# $(date -u +%H:%M:%S) $what p=$p $* (load $load)" | tee -a "$walls"
  local rc=0
  /usr/bin/time -f "%e %U %S" -o "/tmp/simulate-thesis-$what-p$p.time" timeout "$LIMIT" \
    scripts/simulate.sh --platform "$plat" --np "$p" --compute charged -- \
      run "$@" --reps 1 --warmup 0 --quiet --csv "$csv" > "/tmp/simulate-thesis-$what-p$p.out" 2>&1 || rc=$?
  read -r wall user sys < <(tail -1 "/tmp/simulate-thesis-$what-p$p.time")
  local simt; simt=$(grep -E "Simulated time|simulation took" "/tmp/simulate-thesis-$what-p$p.out" | tr '\n' ' ')
  echo "$what p=$p rc=$rc wall_s=$wall user_s=$user sys_s=$sys nice=${MMBENCH_SIM_NICE:-19} load_before=\"$load\" load_after=\"$(cut -d' ' -f1-3 /proc/loadavg)\" platform=$stem args=\"$*\" smpi: $simt" | tee -a "$walls"
  { echo "### $what p=$p $*"; cat "/tmp/simulate-thesis-$what-p$p.out"; } >> "$log"
}

for part in $PARTS; do
  case $part in
    a)
      for n in ${AN:-4096 8192 16384}; do
        sim p56 56 --algo ring,tpmm,strassen-q7+ring,strassen-q8+tpmm --recursions 1,2 --n $n --profile $PROFILE
      done
      [ -x build/mmbench ] && build/mmbench predict --profile $PROFILE --p 56 --n 4096,8192,16384 \
        --algo ring,strassen-q7+ring,pdgemm,strassen-q7+pdgemm --local-strassen 0 --top 0 \
        --csv "$OUT/predict-thesis-opteron-p56-$host-$STAMP.csv" > "$OUT/predict-thesis-opteron-p56-$host-$STAMP.txt"
      ;;
    b)
      for p in 32 64; do sim ring-tpmm $p --algo ring,tpmm --n 16384 --profile $PROFILE; done ;;
    c)
      for p in ${CP:-64 96 128}; do
        sim q7split $p --algo strassen-q7+ring --q7-split paper,model --recursions 1,2 --n ${CN:-8192} --profile $PROFILE
      done ;;
    d)
      for p in ${DP:-16 64 256 1024}; do
        sim auto $p --algo ${DALGOS:-auto,ring,tpmm,strassen-q7+ring,strassen-q8+tpmm,strassen-q8+dgemm,2.5d} \
          --n ${DN:-8192} --profile $PROFILE --explain
        [ -x build/mmbench ] && build/mmbench predict --profile $PROFILE --p $p --n ${DN:-8192} --top 5 \
          >> "$OUT/predict-thesis-opteron-auto-$host-$STAMP.txt"
      done ;;
    w)
      # --profile only fills the model columns (the simulated time is the same):
      # the p = 1024 row can stand for ring in part d.
      for p in ${WP:-56 256 1024}; do sim wall $p --algo ring --n 16384 --profile $PROFILE; done ;;
    *) echo "unknown part $part" >&2; exit 2 ;;
  esac
done
echo "# done $(date -u)" >> "$walls"
