#!/usr/bin/env bash
# Does ring hide its shift when a step is one chunk? Two namespace nodes, one
# rank each, 500 Mbit/s, 16 KB bucket (scripts/netns-cluster.sh), the profile
# tuned on that cluster above (its shift overlap 0.42): ring at n = 2048 with
# no local level (4 chunks of 256 columns), a local level of cutoff 256 (4
# chunks) and of cutoff 768 (one chunk of 1024), ROUNDS interleaved rounds;
# each row beside the refined model's price of the build that ran it, and the
# price of OLD (an mmbench built before the one-chunk rule) for the same rows.
#   OLD=/tmp/mmbench-old ROUNDS=7 results/netns-validation-zen5-20261206/ring-chunks.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
here=results/netns-validation-zen5-20261206
profile=$here/2x1-500mbit-profile.json
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OPENBLAS_NUM_THREADS=1
tmp_old=$(mktemp -d)
trap 'rm -rf "$tmp_old"; scripts/netns-cluster.sh down --prefix mmc >/dev/null 2>&1 || true' EXIT
scripts/netns-cluster.sh down --prefix mmc >/dev/null 2>&1 || true
scripts/netns-cluster.sh up 2 --ranks-per-node 1 --prefix mmc --rate 500mbit --burst 16kb
args=$(cat /tmp/mmc-cluster/mpirun.args)
pin=(); [ -z "${OPENBLAS_CORETYPE:-}" ] || pin=(-x OPENBLAS_CORETYPE)
csv=$here/ring-chunks-500mbit.csv
rm -f "$csv" "$csv.json"
# shellcheck disable=SC2086
mpirun $args -n 2 -x OPENBLAS_NUM_THREADS=1 "${pin[@]}" build/mmbench run --algo ring --n 2048 --local-strassen 0,1 \
  --local-cutoff 256,768 --reps "${ROUNDS:-7}" --warmup 1 --profile "$profile" --csv "$csv" --quiet
# The model before the one-chunk rule prices the same configurations: OLD's own
# run records its prediction beside one call (its time is not used).
old_csv=$tmp_old/old.csv
# shellcheck disable=SC2086
mpirun $args -n 2 -x OPENBLAS_NUM_THREADS=1 "${pin[@]}" "${OLD:?OLD=<mmbench before the one-chunk rule>}" run --algo ring \
  --n 2048 --local-strassen 0,1 --local-cutoff 256,768 --reps 1 --warmup 0 --profile "$profile" --csv "$old_csv" --quiet
{
  echo "| configuration | chunks per step | measured median [s] (interval) | model now [s] | error | model before [s] | error |"
  echo "|---|---|---|---|---|---|---|"
  python3 - "$csv" "$old_csv" <<'PY'
import csv, sys
def rows(path):
    return {(r["local_levels"], r["local_cutoff"] if r["local_levels"] != "0" else ""): r
            for r in csv.DictReader(open(path)) if r["status"].startswith("ok")}
now, before = rows(sys.argv[1]), rows(sys.argv[2])
for key, r in now.items():
    L, cut = key
    chunks = 4 if L == "0" or int(cut) <= 256 else 1  # space::ring_chunks(1024, ...)
    t, p_now, p_before = float(r["t_median"]), float(r["pred_refined"]), float(before[key]["pred_refined"])
    label = f"ring L={L}" + (f" cutoff={cut}" if L != "0" else "")
    print(f"| {label} | {chunks} | {t:.4f} ({float(r['t_median_lo']):.4f}–{float(r['t_median_hi']):.4f}) | {p_now:.4f} | "
          f"{100 * (p_now / t - 1):+.1f} % | {p_before:.4f} | {100 * (p_before / t - 1):+.1f} % |")
PY
} | tee "$here/ring-chunks-500mbit.md"
