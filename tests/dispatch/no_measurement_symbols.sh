#!/usr/bin/env bash
# The preloaded libraries read machine profiles (src/profile) and must not
# carry the measurement layer (src/tuner): a ScaLAPACK program that preloads
# them gets no timing loops, probes or network calibrations.
#   no_measurement_symbols.sh READER.so [OTHER.so...]
# Fails, listing a few, if a library defines a symbol of namespace
# mmbench::tuner. READER.so must define symbols of mmbench::profile (it
# reads profiles through that layer; else this check would prove nothing);
# the others (libmmbench-lb.so reads its few keys itself) need not.
set -u
status=0
first=1
for lib in "$@"; do
  symbols=$(nm -C --defined-only "$lib") || { echo "FAIL: nm could not read $lib"; exit 1; }
  tuner=$(grep -c 'mmbench::tuner::' <<<"$symbols")
  profile=$(grep -c 'mmbench::profile::' <<<"$symbols")
  if [ "$tuner" -gt 0 ]; then
    echo "FAIL: $lib defines $tuner symbol(s) of the measurement layer (mmbench::tuner), e.g.:"
    grep 'mmbench::tuner::' <<<"$symbols" | head -5 | cut -c1-200
    status=1
  elif [ "$first" = 1 ] && [ "$profile" -eq 0 ]; then
    echo "FAIL: $lib defines no symbol of mmbench::profile: is it the library that reads profiles?"
    status=1
  else
    echo "ok: $lib: no mmbench::tuner symbol, $profile of mmbench::profile"
  fi
  first=0
done
exit $status
