#!/usr/bin/env bash
# expect_success.sh REGEX... -- COMMAND...
# Passes when COMMAND exits 0 and every extended REGEX matches a line of its
# output (stdout and stderr together): a message alone, without the exit
# code, proves nothing.
set -u
patterns=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do patterns+=("$1"); shift; done
shift
out=$("$@" 2>&1)
code=$?
echo "$out"
[ "$code" = 0 ] || { echo "FAIL: exit code $code, expected 0"; exit 1; }
for p in "${patterns[@]}"; do
  grep -Eq -- "$p" <<<"$out" || { echo "FAIL: no line matches /$p/"; exit 1; }
done
echo "expect_success passed"
