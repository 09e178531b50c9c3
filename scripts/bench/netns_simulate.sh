#!/usr/bin/env bash
# The charged SMPI simulation beside the namespace cluster's measurements:
# for each cluster of a scripts/bench/netns_validation.sh output folder
# (tag = NODESxRANKS-RATE), a SimGrid platform written from the profile
# tuned on that cluster (scripts/platform_from_profile.py: NODES nodes of
# RANKS cores, its two network levels as measured), and the same `mmbench
# run` the cluster ran, simulated with charged computation (noise off) at
# the same rank count. scripts/netns_validation_summary.py then puts the
# simulated time beside the measured one and the model's.
#   scripts/bench/netns_simulate.sh DIR [TAG ...]
# Writes DIR/<tag>-platform.xml and DIR/<tag>-simulated.csv (+ sidecar), or
# into SIM_OUT=DIR2 where that is set (the measured folder stays as it is).
# Needs the SMPI build (make smpi, or cmake -B build-smpi -DMMBENCH_SMPI=ON;
# SMPI_BUILD=DIR names another). PDGEMM rows are simulated only by an SMPI
# build with a ScaLAPACK of its own (-DMMBENCH_SMPI_SCALAPACK_SOURCE=TARBALL,
# docs/simulation.md); without one they are not-applicable.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
dir=${1:?usage: netns_simulate.sh DIR [TAG ...]}
shift
dir=$(cd "$dir" && pwd)
tags=("$@")
out=${SIM_OUT:-$dir}
mkdir -p "$out"
out=$(cd "$out" && pwd)
if [ ${#tags[@]} -eq 0 ]; then
  for f in "$dir"/*-profile.json; do tags+=("$(basename "$f" -profile.json)"); done
fi
for tag in "${tags[@]}"; do
  layout=${tag%%-*} nodes=${tag%%x*} rest=${tag#*x}
  rpn=${rest%%-*}
  [ "$layout" = "${nodes}x${rpn}" ] || { echo "netns_simulate.sh: tag $tag is not NODESxRANKS-RATE" >&2; exit 2; }
  profile=$dir/$tag-profile.json platform=$out/$tag-platform.xml sidecar=$dir/$tag.csv.json
  [ -f "$profile" ] && [ -f "$sidecar" ] || { echo "netns_simulate.sh: $tag: no profile or run sidecar in $dir" >&2; exit 2; }
  python3 "$here/scripts/platform_from_profile.py" "$profile" --nodes "$nodes" --cores-per-node "$rpn" -o "$platform"
  # The run's own arguments (from its sidecar), without what only a real run
  # does: its CSV, --validate (charged mode verifies nothing), --quiet.
  mapfile -t args < <(python3 "$here/scripts/rerun_arguments.py" "${sidecar%.json}")
  rm -f "$out/$tag-simulated.csv" "$out/$tag-simulated.csv.json"
  echo "== $tag: ${nodes} nodes x $rpn, simulated: ${args[*]}"
  bash "$here/scripts/simulate.sh" --build "${SMPI_BUILD:-$here/build-smpi}" --platform "$platform" --np $((nodes * rpn)) --compute charged --noise off -- \
    "${args[@]}" --profile "$profile" --csv "$out/$tag-simulated.csv" --quiet
done
