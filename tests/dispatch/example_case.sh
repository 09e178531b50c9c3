#!/usr/bin/env bash
# The example program (examples/scalapack_pdgemm) under mpirun, as a user
# runs it: exit 0 (its check passed) and every extended regex given found in
# its output (stdout and stderr together); with --census FILE also
# `mmbench census FILE` must read the census back.
#   example_case.sh [--census FILE MMBENCH] REGEX... -- COMMAND...
set -u
census="" mm=""
if [ "$1" = "--census" ]; then census=$2 mm=$3; shift 3; rm -f "$census"; fi
patterns=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do patterns+=("$1"); shift; done
shift
out=$("$@" 2>&1)
rc=$?
echo "$out"
[ $rc -eq 0 ] || { echo "FAIL: exit $rc"; exit 1; }
for p in "${patterns[@]}"; do
  grep -Eq -- "$p" <<<"$out" || { echo "FAIL: no line matches: $p"; exit 1; }
done
if [ -n "$census" ]; then
  summary=$("$mm" census "$census") || { echo "FAIL: mmbench census $census"; exit 1; }
  echo "$summary"
  grep -Eq "^[0-9]+ PDGEMM calls" <<<"$summary" || { echo "FAIL: no summary"; exit 1; }
fi
echo "example_case passed"
