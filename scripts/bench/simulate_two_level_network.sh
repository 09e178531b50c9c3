#!/usr/bin/env bash
# SIMULATED runs (SimGrid SMPI, --compute charged, flat prices: no noise)
# for the two-level network of the refined model: on the thesis' Opteron
# cluster and its scaled copies, --algo auto with the two-level profile, the
# network probe, and the simulator's wall time of ring. Every time in the
# CSVs is simulated time, except the wall times. What they say:
# results/simulated-two-level-network.md, docs/results.md ("Two-level
# network").
#
#   PARTS="profiles probe auto extra colls wall" STAMP=20261126T1630Z LIMIT=1500 \
#       scripts/bench/simulate_two_level_network.sh
#
#   profiles  the two-level profile of each scaled platform
#             (configs/platforms/thesis-opteron-N<nodes>.xml), written by
#             scripts/profile_network_from_platform.py from
#             configs/thesis-opteron.json (p <= 64 uses that profile itself)
#   probe     tests/smpi/network_probe.c on thesis-opteron.xml at p = 8 and
#             64: what SMPI charges each pattern (PROBE_SIZES= the bytes)
#   auto      `run --algo auto` with the two-level profile at each point of
#             AUTO_POINTS ("p:n ...")
#   extra     the configurations of EXTRA ("p:n:two|one:--algo X ...", a ';'
#             between entries): with the two-level profile, or (one) with
#             the same profile without its network_levels, for what the
#             one-level model picks
#   colls     2.5d at p = 64, n = 4096, c = 4, 16, 64, with SMPI's default
#             collectives and with MPICH's (--cfg smpi/coll-selector:mpich):
#             SMPI's default MPI_Reduce is a flat gather to the root, the
#             model prices a binomial tree
#   wall      ring alone, n = 16384, at WP (default "256 1024"): the
#             simulator's wall time (and the simulated time, the same as
#             the reference runs of results/simulated-thesis-cluster/)
#   noise     at each point of NOISE_POINTS ("p:n ...", p <= 64), the
#             classical and Strassen set of the extra runs and `--algo auto`
#             again, priced with noise (--noise on --seed NOISE_SEED): the
#             thesis profile has no measured kernel model, so
#             scripts/noisy_profile.py gives it one with its own flat prices
#             and the spread of DGEMM and additions measured on vm
#             (results/sim-validation-vm-20261126/profile-vm.json); copies
#             stay free, as with flat prices
#
# Output: $OUT (default results/simulated-two-level-network/) under this
# STAMP; tables: python3 scripts/two_level_tables.py --stamp $STAMP.
# Each simulation runs under `timeout $LIMIT` at nice 0 (MMBENCH_SIM_NICE);
# its wall/user/sys time and the load go to simulated-walltimes-HOST-STAMP.txt.
# Needs build-smpi (cmake -B build-smpi -DMMBENCH_SMPI=ON) and smpicc.
set -uo pipefail
cd "$(dirname "$0")/../.."
PARTS=${PARTS:-profiles probe auto extra colls wall noise}
STAMP=${STAMP:-$(date -u +%Y%m%dT%H%MZ)}
LIMIT=${LIMIT:-1500}
OUT=${OUT:-results/simulated-two-level-network}
AUTO_POINTS=${AUTO_POINTS:-"56:4096 56:8192 56:16384 64:4096 256:4096 1024:8192"}
EXTRA=${EXTRA:-}
NOISE_POINTS=${NOISE_POINTS:-"56:4096 64:4096 56:8192 64:8192"}
NOISE_SEED=${NOISE_SEED:-1}
NOISE_SET="--algo ring,tpmm,strassen-q7+ring,strassen-q8+tpmm,strassen-q8+dgemm,2.5d --q7-split paper,model --local-strassen 0 --recursions 1,2,3"
PROBE_SIZES=${PROBE_SIZES:-"65536 1048576 4194304"}
export MMBENCH_SIM_NICE=${MMBENCH_SIM_NICE:-0}
host=$(hostname)
walls=$OUT/simulated-walltimes-$host-$STAMP.txt
log=$OUT/simulated-output-$host-$STAMP.log
mkdir -p "$OUT"
[ -x build-smpi/mmbench ] || { echo "build build-smpi first" >&2; exit 3; }

platform_for() {  # the thesis platform, or its scaled copy with p/2 nodes
  local p=$1
  if [ "$p" -le 64 ]; then echo configs/platforms/thesis-opteron.xml; return; fi
  echo "configs/platforms/thesis-opteron-N$(( (p + 1) / 2 )).xml"
}
profile_for() {  # the two-level profile of a platform (one: without the section)
  local stem kind=${2:-two}; stem=$(basename "$1" .xml)
  if [ "$kind" = one ]; then echo "$OUT/profile-$stem-one-level-$host-$STAMP.json"; return; fi
  if [ "$stem" = thesis-opteron ]; then echo configs/thesis-opteron.json; return; fi
  echo "$OUT/profile-$stem-$host-$STAMP.json"
}
one_level_of() {  # PROFILE OUT: the profile without its network_levels
  python3 -c 'import json, sys; p = json.load(open(sys.argv[1])); p.pop("network_levels", None); json.dump(p, open(sys.argv[2], "w"), indent=2)' "$1" "$2"
}

# sim WHAT P KIND ARGS...: one charged simulation with the two-level
# profile (KIND two) or the same without its section (one).
sim() {
  local what=$1 p=$2 kind=$3; shift 3
  local plat prof two stem csv
  plat=$(platform_for "$p"); prof=$(profile_for "$plat" "$kind"); two=$(profile_for "$plat"); stem=$(basename "$plat" .xml)
  [ -f "$plat" ] || { echo "no platform $plat" >&2; return; }
  [ -f "$two" ] || python3 scripts/profile_network_from_platform.py "$plat" configs/thesis-opteron.json "$two"
  [ -f "$prof" ] || one_level_of "$two" "$prof"
  csv=$OUT/simulated-$stem-$what-$host-$STAMP.csv
  local t0 load tag="/tmp/simulate-two-level-$what-p$p-$$"
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  echo "# $(date -u +%H:%M:%S) $what p=$p $* (load $load)" | tee -a "$walls"
  local rc=0
  /usr/bin/time -f "%e %U %S" -o "$tag.time" timeout "$LIMIT" \
    scripts/simulate.sh --platform "$plat" --np "$p" --compute charged --sim-profile "${SIM_PROFILE:-none}" \
      ${SIM_NOISE:+--noise on --seed "$SIM_NOISE"} ${SIM_CFG:+--cfg "$SIM_CFG"} -- \
      run "$@" --profile "$prof" --reps 1 --warmup 0 --quiet --csv "$csv" > "$tag.out" 2>&1 || rc=$?
  local wall user sys
  read -r wall user sys < <(tail -1 "$tag.time")
  echo "$what p=$p rc=$rc wall_s=$wall user_s=$user sys_s=$sys nice=$MMBENCH_SIM_NICE load_before=\"$load\" load_after=\"$(cut -d' ' -f1-3 /proc/loadavg)\" platform=$stem args=\"$*\"" | tee -a "$walls"
  { echo "### $what p=$p $*"; cat "$tag.out"; } >> "$log"
  rm -f "$tag.time" "$tag.out"
}

for part in $PARTS; do
  case $part in
    profiles)
      for f in configs/platforms/thesis-opteron-N*.xml; do
        prof=$(profile_for "$f")
        python3 scripts/profile_network_from_platform.py "$f" configs/thesis-opteron.json "$prof" && echo "wrote $prof"
      done ;;
    probe)
      command -v smpicc >/dev/null || { echo "probe: no smpicc" >&2; continue; }
      exe=$(mktemp -d)/network_probe
      smpicc -O2 -o "$exe" tests/smpi/network_probe.c || { echo "probe: smpicc failed" >&2; continue; }
      python3 scripts/platform_hosts.py configs/platforms/thesis-opteron.xml > "$exe.hosts"
      for p in 8 64; do
        # shellcheck disable=SC2086
        smpirun -np $p -platform configs/platforms/thesis-opteron.xml -hostfile "$exe.hosts" \
          --log=root.thres:warning "$exe" 2 $PROBE_SIZES | sed "s/^/p=$p /" >> "$OUT/network-probe-$host-$STAMP.txt"
      done
      rm -rf "$(dirname "$exe")" ;;
    auto)
      for pt in $AUTO_POINTS; do
        sim auto "${pt%%:*}" two --algo auto --n "${pt##*:}" --explain
      done ;;
    extra)
      IFS=';' read -ra extras <<< "$EXTRA"
      for e in "${extras[@]}"; do
        [ -n "${e// /}" ] || continue
        IFS=: read -r p n kind args <<< "$e"
        # shellcheck disable=SC2086
        sim "extra-$kind" "$p" "$kind" $args --n "$n"
      done ;;
    colls)
      sim colls-default 64 two --algo 2.5d --replicas 4,16,64 --n 4096
      SIM_CFG=smpi/coll-selector:mpich sim colls-mpich 64 two --algo 2.5d --replicas 4,16,64 --n 4096 ;;
    noise)
      noisy=$OUT/profile-thesis-opteron-noisy-$host-$STAMP.json
      python3 scripts/noisy_profile.py configs/thesis-opteron.json \
        results/sim-validation-vm-20261126/profile-vm.json "$noisy" || exit 3
      for pt in $NOISE_POINTS; do
        p=${pt%%:*} n=${pt##*:}
        if [ "$p" -eq 56 ]; then reps=14; else reps=1,4,16; fi
        # shellcheck disable=SC2086
        SIM_PROFILE=$noisy SIM_NOISE=$NOISE_SEED sim noise-set "$p" two $NOISE_SET --replicas $reps --n "$n"
        SIM_PROFILE=$noisy SIM_NOISE=$NOISE_SEED sim noise-auto "$p" two --algo auto --n "$n" --explain
      done ;;
    wall)
      for p in ${WP:-256 1024}; do sim wall "$p" two --algo ring --n 16384; done ;;
    *) echo "unknown part $part" >&2; exit 2 ;;
  esac
done
echo "# done $(date -u)" >> "$walls"
