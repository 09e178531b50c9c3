#!/usr/bin/env bash
# preload_case.sh OVERRIDE LB STDERR -- COMMAND...
# Runs COMMAND (the example program under mpirun, with or without libmmbench-lb.so)
# and passes when it exits 0 with C right (wrong=0), its report says
# override=OVERRIDE (yes|no) and lb=LB (a number, or "default" without the
# library; LB:SERVED also wants served=SERVED, the lb of the last pilaenv_
# call, after the cap for a profile's lb), and stderr is empty (STDERR = -) or exactly one line matching
# the extended regex STDERR: one line from rank 0, not one per rank.
set -u
want_override=$1; want_lb=${2%%:*}; want_err=$3; shift 4
want_served=; case $2 in *:*) want_served=${2#*:} ;; esac
err=$(mktemp); out=$(mktemp)
trap 'rm -f "$err" "$out"' EXIT
timeout 90 "$@" >"$out" 2>"$err"
code=$?
fail() { echo "FAIL: $*"; echo "--- stdout"; cat "$out"; echo "--- stderr"; cat "$err"; exit 1; }
[ "$code" = 0 ] || fail "exit code $code, expected 0"
report=$(grep '^pdgemm_example ' "$out") || fail "no report line"
grep -q ' wrong=0 ' <<<"$report" || fail "C is wrong"
grep -Eq ' checked=[1-9][0-9]* ' <<<"$report" || fail "nothing checked"
grep -q " override=$want_override " <<<"$report" || fail "expected override=$want_override"
grep -Eq " lb=$want_lb\$" <<<"$report" || fail "expected lb=$want_lb"
if [ -n "$want_served" ]; then
  grep -q " served=$want_served " <<<"$report" || fail "expected served=$want_served"
fi
if [ "$want_override" = yes ]; then
  grep -Eq ' calls=[1-9][0-9]* ' <<<"$report" || fail "pilaenv_ calls not counted on every rank"
fi
lines=$(grep -c . "$err" || true)
if [ "$want_err" = - ]; then
  [ "$lines" = 0 ] || fail "expected no output on stderr"
else
  [ "$lines" = 1 ] || fail "expected exactly one line on stderr, got $lines"
  grep -Eq -e "$want_err" "$err" || fail "stderr does not match /$want_err/"
fi
echo "ok: $report${want_err:+ | stderr: $(head -1 "$err")}"
