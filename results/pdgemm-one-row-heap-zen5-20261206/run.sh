#!/usr/bin/env bash
# PDGEMM's panels on one row, with the freed panels kept (the heap policy):
#  1. plain: a plain ScaLAPACK program (plain_pdgemm.c, nothing of mmbench)
#     times PDGEMM on 1 x 2 per lb and, through an LD_PRELOAD interposer
#     (dgemm_timer.c), the time it spent in DGEMM: which part of a wide
#     panel's time is DGEMM and which the rest. Rounds interleave the lbs.
#  2. strace: which panel workspaces glibc maps afresh, and how often, on
#     1 x 2, 2 x 1 and 2 x 2 (3 calls each; sizes chosen so that only A's or
#     only B's panel reaches 32 MiB).
#  3. netns: on two namespace nodes, one rank each (scripts/netns-cluster.sh,
#     16 KB bucket) at each rate of RATES: a fast tune, then an interleaved
#     PDGEMM ladder (lbs 32 .. 1024 and auto, n = 1024 and 2048) with the
#     profile tuned there.
# Then the refined model's errors on the ladders, with the model before
# (OLD, an mmbench built from the commit before) and after (build/mmbench):
# scripts/pdgemm_model_check.py.
#   OLD=/tmp/mmbench-old STEPS="plain strace netns check" RATES="1gbit 500mbit" ROUNDS=5 \
#     results/pdgemm-one-row-heap-zen5-20261206/run.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
here=results/pdgemm-one-row-heap-zen5-20261206
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OPENBLAS_NUM_THREADS=1
STEPS=${STEPS:-plain strace netns check}
RATES=${RATES:-1gbit 500mbit}
ROUNDS=${ROUNDS:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"; scripts/netns-cluster.sh down --prefix mmr >/dev/null 2>&1 || true' EXIT
mpicc -O2 -Wall -o "$tmp/plain_pdgemm" "$here/plain_pdgemm.c" $(pkg-config --libs scalapack-openmpi) -ldl
gcc -O2 -Wall -shared -fPIC -o "$tmp/libdgemm_timer.so" "$here/dgemm_timer.c" $(pkg-config --cflags ompi) -ldl
step() { [[ " $STEPS " == *" $1 "* ]]; }

if step plain; then
  out=$here/plain-dgemm-share.txt
  : > "$out"
  for round in 1 2 3; do
    for n in 1024 2048; do
      for lb in 64 128 256 512 1024 2048; do
        [ "$lb" -le "$n" ] || continue
        reps=$([ "$n" = 1024 ] && echo 20 || echo 6)
        echo "round $round: $(mpirun -n 2 -x LD_PRELOAD="$tmp/libdgemm_timer.so" "$tmp/plain_pdgemm" "$n" "$n" "$n" \
          "$lb" "$reps" 1 2 2>&1 | grep '^rank 0')" | tee -a "$out"
      done
    done
  done
fi

if step strace; then
  out=$here/strace-panels.txt
  : > "$out"
  # m n k lb pr pc
  for c in "8192 2048 4096 1024 1 2" "2048 8192 4096 1024 1 2" "8192 2048 4096 1024 2 1" "2048 8192 4096 1024 2 1" \
           "8192 2048 4096 1024 2 2" "2048 8192 4096 1024 2 2"; do
    read -r m n k lb pr pc <<<"$c"
    np=$((pr * pc))
    rm -f "$tmp"/st.*
    mpirun -n "$np" strace -o "$tmp/st" -ff -e trace=mmap "$tmp/plain_pdgemm" "$m" "$n" "$k" "$lb" 1 "$pr" "$pc" \
      > /dev/null 2>&1
    {
      echo "== ${pr}x${pc}, m $m n $n k $k lb $lb, 3 calls: local A $(( (m / pr) * (k / pc) * 8 >> 20 )) MiB," \
        "B $(( (k / pr) * (n / pc) * 8 >> 20 )) MiB, C $(( (m / pr) * (n / pc) * 8 >> 20 )) MiB;" \
        "A's panel $(( (m / pr) * lb * 8 >> 20 )) MiB, B's $(( lb * (n / pc) * 8 >> 20 )) MiB"
      # Read-write anonymous maps of 32 MiB or more (thread arenas are PROT_NONE; the BLAS
      # library's own image is a file mapping).
      cat "$tmp"/st.* | grep "PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1" | grep -o "mmap(NULL, [0-9]*" |
        awk '{print $2}' | awk '$1 >= 33000000' | sort -n | uniq -c |
        awk -v np="$np" '{printf "   %d maps of %.1f MiB (%.2f per rank)\n", $1, $2 / 1048576, $1 / np}'
    } | tee -a "$out"
  done
fi

if step netns; then
  for rate in $RATES; do
    tag=2x1-$rate
    scripts/netns-cluster.sh down --prefix mmr >/dev/null 2>&1 || true
    scripts/netns-cluster.sh up 2 --ranks-per-node 1 --prefix mmr --rate "$rate" --burst 16kb
    args=$(cat /tmp/mmr-cluster/mpirun.args)
    pin=(); [ -z "${OPENBLAS_CORETYPE:-}" ] || pin=(-x OPENBLAS_CORETYPE)
    start=$(date +%s)
    # shellcheck disable=SC2086
    mpirun $args -n 2 -x OPENBLAS_NUM_THREADS=1 "${pin[@]}" build/mmbench tune --n 2048 --no-blas-probe \
      --no-packed-tune --no-local --no-kernel-model --profile "$here/$tag-profile.json" --quiet \
      > "$here/$tag-tune.txt" 2>&1
    echo "tune: $(( $(date +%s) - start )) s" | tee -a "$here/$tag-tune.txt"
    # shellcheck disable=SC2086
    mpirun $args -n 2 -x OPENBLAS_NUM_THREADS=1 "${pin[@]}" build/mmbench run --algo pdgemm --n 1024,2048 \
      --lb 32,64,128,256,512,1024,auto --reps "$ROUNDS" --warmup 1 --profile "$here/$tag-profile.json" \
      --csv "$here/$tag-ladder.csv" --quiet
    python3 scripts/bench/lb_ladder_summary.py "$here/$tag-ladder.csv" | tee "$here/$tag-ladder-summary.md"
  done
  scripts/netns-cluster.sh down --prefix mmr >/dev/null 2>&1 || true
fi

if step check; then
  heap=results/lb-ladder-heap-zen5-20261206
  pairs=("$heap/ladder-n2048/lb-ladder-p2.csv:$heap/profile-n2048.json"
         "$heap/ladder-n4096/lb-ladder-p2.csv:$heap/profile-n4096.json"
         "$heap/ladder8192-n2048/lb-ladder-p2.csv:$heap/profile-n2048.json"
         "$heap/ladder8192-n4096/lb-ladder-p2.csv:$heap/profile-n4096.json"
         "$heap/ladder8192-n2048-bound/lb-ladder-p2.csv:$heap/profile-n2048.json")
  for rate in $RATES; do
    [ -f "$here/2x1-$rate-ladder.csv" ] && pairs+=("$here/2x1-$rate-ladder.csv:$here/2x1-$rate-profile.json")
  done
  python3 scripts/pdgemm_model_check.py --mmbench "${OLD:?OLD=<mmbench of the commit before>}" "${pairs[@]}" \
    > "$here/check-before.md"
  python3 scripts/pdgemm_model_check.py "${pairs[@]}" > "$here/check-after.md"
  # Every committed PDGEMM run with its own profile (the list of "Wide panels on one row").
  # shellcheck disable=SC2046
  python3 scripts/pdgemm_model_check.py --mmbench "$OLD" $(cat results/pdgemm-one-row-20261129/pairs.txt) \
    > "$here/check-committed-before.md"
  # shellcheck disable=SC2046
  python3 scripts/pdgemm_model_check.py $(cat results/pdgemm-one-row-20261129/pairs.txt) \
    > "$here/check-committed-after.md"
  grep -h "^all" "$here"/check-*.md
fi
