#!/usr/bin/env bash
# Does ring hide a large shift behind its chunks? Two namespace nodes, one
# rank each, 16 KB bucket, at each RATE, with the profile tuned on that
# cluster (results/netns-validation-zen5-20261207): ring at n = N with no
# local level (4 chunks of 512 columns at n = 4096), a local level of cutoff
# 512 (4 chunks) and of cutoff 1536 (one chunk of 2048, which the model
# prices with nothing hidden), ROUNDS interleaved rounds, each row beside the
# refined model's price.
#   RATES="500mbit 1gbit" N=4096 ROUNDS=5 results/ring-overlap-large-zen5-20261207/run.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
here=results/ring-overlap-large-zen5-20261207
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OPENBLAS_NUM_THREADS=1
trap 'scripts/netns-cluster.sh down --prefix mmr >/dev/null 2>&1 || true' EXIT
pin=(); [ -z "${OPENBLAS_CORETYPE:-}" ] || pin=(-x OPENBLAS_CORETYPE)
n=${N:-4096}
for rate in ${RATES:-500mbit 1gbit}; do
  scripts/netns-cluster.sh down --prefix mmr >/dev/null 2>&1 || true
  scripts/netns-cluster.sh up 2 --ranks-per-node 1 --prefix mmr --rate "$rate" --burst 16kb >/dev/null
  csv=$here/ring-$rate-n$n.csv
  rm -f "$csv" "$csv.json"
  # shellcheck disable=SC2046
  mpirun $(cat /tmp/mmr-cluster/mpirun.args) -n 2 -x OPENBLAS_NUM_THREADS=1 "${pin[@]}" build/mmbench run --algo ring \
    --n "$n" --local-strassen 0,1 --local-cutoff 512,1536 --reps "${ROUNDS:-5}" --warmup 1 \
    --profile results/netns-validation-zen5-20261207/2x1-$rate-profile.json --csv "$csv" --quiet
done
python3 - "$here" "$n" <<'PY'
import csv, glob, sys
here, n = sys.argv[1], sys.argv[2]
print("| link | configuration | measured median [s] (interval) | rounds [s] | model [s] | error |")
print("|---|---|---|---|---|---|")
for path in sorted(glob.glob(f"{here}/ring-*-n{n}.csv")):
    rate = path.rsplit("/", 1)[1].split("-")[1]
    for r in csv.DictReader(open(path)):
        if not r["status"].startswith("ok"):
            continue
        conf = "ring L=0" if r["local_levels"] == "0" else f"ring L={r['local_levels']} cutoff={r['local_cutoff']}"
        t, pred = float(r["t_median"]), float(r["pred_refined"])
        print(f"| {rate} | {conf} | {t:.4g} ({float(r['t_median_lo']):.4g}–{float(r['t_median_hi']):.4g}) | "
              f"{r['t_rounds'].replace(';', ', ')} | {pred:.4g} | {100 * (pred / t - 1):+.1f} % |")
PY
