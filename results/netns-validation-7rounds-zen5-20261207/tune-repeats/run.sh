#!/usr/bin/env bash
# Repeat tune's network steps on one 2 x 1 namespace cluster at 500 Mbit/s
# (burst 16kb): does the all-to-all come out at half the ping-pong rate
# now and then, and does a run beside it see the same?
cd "$(dirname "$0")/../../.."
mkdir -p "${OUT:-/tmp/nr}"
C=scripts/netns-cluster.sh
$C down --prefix nr >/dev/null 2>&1
$C up 2 --prefix nr --rate ${RATE:-500mbit} --burst 16kb >/dev/null
M=/tmp/nr-cluster/mpirun
for i in $(seq ${TIMES:-3}); do
  $M -n 2 build/mmbench tune --n 1024 --no-lb-check --no-local --no-blas-probe --no-packed-tune --no-kernel-model \
    --profile ${OUT:-/tmp/nr}/p$i.json --csv ${OUT:-/tmp/nr}/d$i.csv > ${OUT:-/tmp/nr}/tune$i.txt 2>&1
  echo "tune $i: $(grep -oE '[0-9.]+ GB/s ping-pong, [0-9.]+ GB/s per rank all-to-all' ${OUT:-/tmp/nr}/tune$i.txt); $(grep -oE 'backbone [0-9.]+ MB/s|backbone unlimited' ${OUT:-/tmp/nr}/tune$i.txt); $(grep -oE 'overlap: .* each way' ${OUT:-/tmp/nr}/tune$i.txt)"
  grep -h "warning: both directions" ${OUT:-/tmp/nr}/tune$i.txt || true
  $M -n 2 build/mmbench run --algo ring --n 1024,2048 --reps 3 --quiet --csv ${OUT:-/tmp/nr}/r$i.csv > ${OUT:-/tmp/nr}/run$i.txt 2>&1
  python3 -c "
import csv
for r in csv.DictReader(open('${OUT:-/tmp/nr}/r$i.csv')): print('  ring n', r['n'], r['t_median'], r['verified'])"
done
$C down --prefix nr >/dev/null
