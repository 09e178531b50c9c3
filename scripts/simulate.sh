#!/usr/bin/env bash
# Run mmbench on a simulated cluster (SimGrid SMPI).
#
#   scripts/simulate.sh --platform configs/platforms/thesis-opteron.xml --np 56 \
#       [--compute real|charged] [--sim-profile P.json|none] [--noise on|off] [--seed N] \
#       [--host-memory 8G] [--build build-smpi] [--cfg smpi/x:y ...] -- run --algo ring --n 4096 ...
#
# Everything after `--` goes to the SMPI build of mmbench (cmake -B build-smpi
# -DMMBENCH_SMPI=ON && cmake --build build-smpi). Ranks are placed as
# `mpirun --map-by core` would: node 0's cores first, then node 1's, ...
# (a hostfile listing each host once per core, in platform order).
#
# --compute real (default): every rank really computes; results are verified.
# The simulation runs at nice 19 (it yields to timing runs); MMBENCH_SIM_NICE=0
# runs it at normal priority (at nice 19 beside a compiler it gets ~1 % of a
# core: p = 56 took 243 s of wall time for 5.5 s of CPU).
# --compute charged: local DGEMMs, additions and copies are not executed but
#   charged as simulated time; verification is skipped. Prices: the machine
#   profile given with --sim-profile, else the one the platform names (a
#   platform from scripts/platform_from_profile.py), else the platform's
#   host speed (--sim-profile none: that, whatever the platform names). A
#   profile with a kernel model prices every DGEMM and pass from its fits,
#   times seeded lognormal noise (--noise on, the default; --seed N, default
#   1, replays the same draws); without one, flat prices (docs/simulation.md).
# --host-memory SIZE: what all simulated ranks together may hold in this one
#   process (default 90 % of MemAvailable); a configuration predicted to need
#   more is a not-applicable row instead of a simulation the host kills
#   (charged mode counts the 1 MiB or less of each buffer a rank keeps
#   privately, docs/simulation.md).
# The CSV's `simulated` column names the platform; the sidecar records the
# platform file's sha256 and the compute mode.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
platform= np= build="$here/build-smpi" compute=real sim_profile= noise=on seed=1 host_memory=
cfgs=()
while [ $# -gt 0 ]; do
  case "$1" in
    --platform) platform=$2; shift 2 ;;
    --np) np=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --compute) compute=$2; shift 2 ;;
    --sim-profile) sim_profile=$2; shift 2 ;;
    --noise) noise=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --host-memory) host_memory=$2; shift 2 ;;
    --cfg) cfgs+=("--cfg=$2"); shift 2 ;;
    --) shift; break ;;
    -h|--help) sed -n 2,33p "$0"; exit 0 ;;
    *) echo "simulate.sh: unknown option $1 (options go before --, mmbench's after)" >&2; exit 2 ;;
  esac
done
if [ -z "$platform" ] || [ -z "$np" ]; then
  echo "simulate.sh: need --platform FILE.xml and --np N (see --help)" >&2; exit 2
fi
case "$compute" in real|charged) ;; *) echo "simulate.sh: --compute real|charged, not '$compute'" >&2; exit 2 ;; esac
case "$noise" in on|off) ;; *) echo "simulate.sh: --noise on|off, not '$noise'" >&2; exit 2 ;; esac
case "$seed" in ''|*[!0-9]*) echo "simulate.sh: --seed $seed: an integer in [0, 2^63 - 1]" >&2; exit 2 ;; esac
command -v smpirun >/dev/null || { echo "simulate.sh: smpirun not found (Debian: libsimgrid-dev; scripts/install-deps.sh)" >&2; exit 3; }
[ -f "$platform" ] || { echo "simulate.sh: no platform file $platform" >&2; exit 2; }
exe="$build/mmbench"
[ -x "$exe" ] || { echo "simulate.sh: no SMPI build at $exe (cmake -B $build -DMMBENCH_SMPI=ON && cmake --build $build)" >&2; exit 3; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mmbench-sim.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# Hosts in platform order, each once per core (map-by-core placement).
python3 "$here/scripts/platform_hosts.py" "$platform" > "$tmp/hostfile"
slots=$(wc -l < "$tmp/hostfile")
if [ "$np" -gt "$slots" ]; then
  echo "simulate.sh: --np $np but the platform has $slots cores" >&2; exit 2
fi

export MMBENCH_SIM_PLATFORM
MMBENCH_SIM_PLATFORM=$(basename "$platform")
export MMBENCH_SIM_PLATFORM_SHA256
MMBENCH_SIM_PLATFORM_SHA256=$(sha256sum "$platform" | cut -d' ' -f1)
export MMBENCH_SIM_COMPUTE=$compute
# The profile that prices charged work: --sim-profile, else the one the
# platform names (checked against the sha256 the platform recorded).
if [ -z "$sim_profile" ]; then
  read -r named named_sha < <(python3 "$here/scripts/platform_hosts.py" --profile "$platform"; echo) || true
  if [ -n "${named:-}" ]; then
    [ -f "$named" ] || { echo "simulate.sh: $platform names the profile $named, which does not exist (--sim-profile FILE or none)" >&2; exit 2; }
    if [ -n "${named_sha:-}" ] && [ "$(sha256sum "$named" | cut -d' ' -f1)" != "$named_sha" ]; then
      echo "simulate.sh: warning: $named changed since $platform was written from it (its network values may no longer match)" >&2
    fi
    sim_profile=$named
  fi
fi
[ "$sim_profile" = none ] && sim_profile=
if [ -n "$sim_profile" ]; then
  [ -f "$sim_profile" ] || { echo "simulate.sh: no profile $sim_profile" >&2; exit 2; }
  export MMBENCH_SIM_PROFILE=$sim_profile
fi
export MMBENCH_SIM_NOISE=$noise MMBENCH_SIM_SEED=$seed
[ -n "$host_memory" ] && export MMBENCH_SIM_HOST_MEMORY=$host_memory
export OPENBLAS_NUM_THREADS=1  # simulated ranks share one process

# Real computation is timed on this machine and charged 1:1: the host
# speed SMPI assumes for this machine is the platform's own host speed.
speed=$(python3 "$here/scripts/platform_hosts.py" --speed "$platform")
# Charged mode: only the charged work costs time; mmbench's own bookkeeping
# between MPI calls (which real mode times on this machine) costs nothing.
[ "$compute" = charged ] && cfgs=(--cfg=smpi/simulate-computation:no "${cfgs[@]}")
# Charged mode shares large buffers (SMPI_SHARED_MALLOC): SMPI maps one file
# block per smpi/shared-malloc-blocksize bytes of every such buffer, 1 MiB by
# default, and aborts ("Could not map folded virtual memory") once a process
# has vm.max_map_count (65530) mappings: strassen-q7+ring at p = 56,
# n = 16384 and p = 1024 did. 8 MiB blocks need 8x fewer mappings (and still
# fit a cache when mmbench zeroes a buffer). A later --cfg overrides it.
[ "$compute" = charged ] && cfgs=(--cfg=smpi/shared-malloc-blocksize:$((8 << 20)) "${cfgs[@]}")
# smpi/display-timing: the simulated time and the wall time at the end.
rc=0
nice -n "${MMBENCH_SIM_NICE:-19}" smpirun -np "$np" -platform "$platform" -hostfile "$tmp/hostfile" \
  --cfg=smpi/tmpdir:"$tmp" --cfg=smpi/display-timing:yes --cfg=smpi/host-speed:"${speed}f" "${cfgs[@]}" \
  --log=root.thres:warning \
  "$exe" "$@" || rc=$?
exit $rc
