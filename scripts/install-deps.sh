#!/usr/bin/env bash
# Install the Debian packages mmbench needs, if any is missing (idempotent).
set -euo pipefail
pkgs=(build-essential cmake pkg-config git python3 openmpi-bin libopenmpi-dev libscalapack-openmpi-dev
      libopenblas-dev libpapi-dev libcli11-dev nlohmann-json3-dev libfmt-dev libgtest-dev python3-matplotlib)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "mmbench: installing missing packages: ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null; then SUDO=sudo; else
    echo "mmbench: need root to install ${missing[*]} (run as root, or install them yourself)" >&2; exit 1
  fi
else
  SUDO=
fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
