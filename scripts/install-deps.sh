#!/usr/bin/env bash
# Install the Debian packages mmbench needs, if any is missing (idempotent).
set -euo pipefail
# scalapack-mpi-test: ScaLAPACK's own test drivers, run plain and under
# libmmbench-dispatch.so by ctest -L scalapack-drivers.
pkgs=(build-essential cmake pkg-config git python3 openmpi-bin libopenmpi-dev libscalapack-openmpi-dev
      libopenblas-dev libpapi-dev libcli11-dev nlohmann-json3-dev libfmt-dev libgtest-dev python3-matplotlib
      python3-jsonschema scalapack-mpi-test scalapack-test-common)
# Optional: SimGrid SMPI for simulated clusters (scripts/simulate.sh, ctest
# -L smpi); Slurm and munge for jobs on a cluster of network namespaces
# (scripts/netns-slurm.sh, ctest netns.slurm). If they cannot be installed,
# everything else still builds and those tests skip.
optional=(libsimgrid-dev slurmctld slurmd slurm-client munge)
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
install_optional() {
  for p in "${optional[@]}"; do
    installed "$p" && continue
    echo "mmbench: installing optional package $p (simulated clusters, Slurm on namespace nodes)"
    if ! DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "$p" >/dev/null 2>&1; then
      echo "mmbench: optional package $p not installed; the tests that need it (smpi, netns.slurm) skip" >&2
    fi
  done
}
missing=()
for p in "${pkgs[@]}"; do
  installed "$p" || missing+=("$p")
done
optional_missing=()
for p in "${optional[@]}"; do installed "$p" || optional_missing+=("$p"); done
if [ ${#missing[@]} -eq 0 ] && [ ${#optional_missing[@]} -eq 0 ]; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null; then SUDO=sudo; else
    if [ ${#missing[@]} -eq 0 ]; then
      echo "mmbench: optional ${optional_missing[*]} not installed (needs root); simulation unavailable, smpi tests skip" >&2
      exit 0
    fi
    echo "mmbench: need root to install ${missing[*]} (run as root, or install them yourself)" >&2; exit 1
  fi
else
  SUDO=
fi
$SUDO apt-get update -qq || true
if [ ${#missing[@]} -gt 0 ]; then
  echo "mmbench: installing missing packages: ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
install_optional
