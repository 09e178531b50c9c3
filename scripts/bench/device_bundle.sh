#!/usr/bin/env bash
# Packs what mmbench's benchmarks need on a machine that has none of
# Debian's packages and no package mirror (the lent 16-core machine of
# docs/results.md): mmbench, the two preload libraries and the example
# program from build/, and, as one xz tarball, the shared libraries they
# load (Open MPI with its plugins, help files and PMIx, ScaLAPACK,
# OpenBLAS, ...), without the C and C++ runtimes the other machine has.
# scripts/bench/device_run.sh unpacks and uses it there.
#   scripts/bench/device_bundle.sh [DIR]   (default .devbundle, ignored by git)
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=${1:-.devbundle}
for f in build/mmbench build/libmmbench-dispatch.so build/libmmbench-lb.so build/examples/pdgemm_example; do
  [ -f "$f" ] || { echo "device_bundle.sh: build first (make build): no $f" >&2; exit 1; }
done
rm -rf "$dir"; mkdir -p "$dir/bin"
cp build/mmbench build/libmmbench-dispatch.so build/libmmbench-lb.so build/examples/pdgemm_example "$dir/bin/"
list=$(mktemp)
for pkg in openmpi-bin libopenmpi3 openmpi-common libpmix2; do dpkg -L "$pkg"; done | sort -u |
  while read -r f; do [ -f "$f" ] && echo "$f"; done >"$list"
# The shared libraries of the binaries, of Open MPI's programs and of its plugins.
# (ldd fails on the scripts among them: not an error here.)
{ grep -E '\.so|/bin/' "$list"; ls "$dir"/bin/*; } | { xargs ldd 2>/dev/null || true; } | awk '/=>/ {print $3}' |
  sort -u | grep -v -E 'libc\.so|libm\.so|libstdc\+\+|libgcc_s|ld-linux|libpthread|libdl\.so|librt\.so' >>"$list"
sort -u "$list" | tar -cJhf "$dir/runtime.tar.xz" -T - 2>/dev/null
rm -f "$list"
du -sh "$dir"
