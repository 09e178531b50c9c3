#!/usr/bin/env bash
# Fast tunes (network and overlap steps only) on fresh 2 x 1 namespace
# clusters at 500 Mbit/s (16 KB bucket), one cluster per TCP congestion
# control named on the command line: does tune's all-to-all come out at half
# the ping-pong, and with which? The nodes take the congestion control this
# namespace has when they are made, so it is set for the `up` only and put
# back. HOG=1 keeps a busy loop on each core during every tune (other work
# on the cores). Run from the repository root as root:
#   OUT=/tmp/bw TIMES=8 results/netns-both-ways-zen5-20261207/tunes.sh cubic bbr
set -u
OUT=${OUT:-/tmp/bw}
C=scripts/netns-cluster.sh
for CC in "$@"; do
  O=$OUT/$CC${HOG:+-hog}; mkdir -p "$O"
  old=$(sysctl -n net.ipv4.tcp_congestion_control)
  sysctl -qw net.ipv4.tcp_congestion_control="$CC"
  $C down --prefix nr >/dev/null 2>&1
  $C up 2 --prefix nr --rate "${RATE:-500mbit}" --burst 16kb >/dev/null
  sysctl -qw net.ipv4.tcp_congestion_control="$old"
  for ns in $(ip netns list | awk '/^nr/{print $1}'); do
    echo "$ns $(ip netns exec "$ns" sysctl -n net.ipv4.tcp_congestion_control)"
  done >"$O/congestion-control.txt"
  for i in $(seq "${TIMES:-3}"); do
    hogs=()
    if [ -n "${HOG:-}" ]; then
      for c in 0 1; do taskset -c $c sh -c 'while :; do :; done' & hogs+=($!); done
    fi
    s=$(date +%s.%N)
    /tmp/nr-cluster/mpirun -n 2 build/mmbench tune --n 1024 --no-lb-check --no-local --no-blas-probe \
      --no-packed-tune --no-kernel-model --profile "$O/p$i.json" --csv "$O/d$i.csv" >"$O/tune$i.txt" 2>&1
    e=$(date +%s.%N)
    [ ${#hogs[@]} -eq 0 ] || kill "${hogs[@]}"
    printf '%s%s tune %d (%.1f s): %s; %s%s\n' "$CC" "${HOG:+ hog}" "$i" "$(echo "$e - $s" | bc)" \
      "$(grep -oE '[0-9.]+ GB/s ping-pong, [0-9.]+ GB/s per rank all-to-all' "$O/tune$i.txt")" \
      "$(grep -oE 'backbone [0-9.]+ MB/s|backbone unlimited' "$O/tune$i.txt")" \
      "$(python3 -c "import json,re,sys; n=json.load(open(sys.argv[1])).get('notes',''); m=re.search(r'the all-to-all ran at [^;]*; measured again[^;]*; the fastest kept \([^)]*\)', n); print('; ' + m.group(0) if m else '')" "$O/p$i.json")"
  done
  $C down --prefix nr >/dev/null
done
