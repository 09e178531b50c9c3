#!/usr/bin/env bash
# expect_exit.sh CODE REGEX -- COMMAND...
# Passes when COMMAND exits with CODE, its stderr matches REGEX, and the
# message is printed once (one line, from rank 0 only) -- bad input must
# give exactly one clear line, not one per rank or an MPI abort wall.
set -u
want=$1; regex=$2; shift 3
err=$(mktemp); out=$(mktemp)
trap 'rm -f "$err" "$out"' EXIT
timeout 60 "$@" >"$out" 2>"$err"
code=$?
lines=$(grep -c . "$err" || true)
if [ "$code" != "$want" ]; then
  echo "FAIL: exit code $code, expected $want"; echo "--- stderr"; cat "$err"; echo "--- stdout"; head -20 "$out"; exit 1
fi
if ! grep -Eq -e "$regex" "$err"; then
  echo "FAIL: stderr does not match /$regex/"; cat "$err"; exit 1
fi
if [ "$want" = 2 ] && [ "$lines" != 1 ]; then
  echo "FAIL: expected one line on stderr, got $lines"; cat "$err"; exit 1
fi
echo "ok: exit $code, stderr: $(head -1 "$err")"
