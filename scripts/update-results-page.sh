#!/usr/bin/env bash
# Regenerate the generated parts of docs/results.md from the committed result
# files it cites (never typed by hand):
#   scripts/update-results-page.sh          rewrite docs/results.md
#   scripts/update-results-page.sh --check  exit 1 if the page is out of date
#   scripts/update-results-page.sh --block NAME   print one block
#
# docs/results.md holds blocks
#   <!-- generated:NAME -->
#   ...
#   <!-- /generated:NAME -->
# and this script replaces what lies between each pair with the output of
# the generator NAME below; the text around the blocks (experiment details,
# what a table says) is written by hand. Each generator names its files
# explicitly: to publish a new reference result, commit it under results/,
# point the generator at it, run this script and update the hand-written
# text and results/README.md.
set -euo pipefail
cd "$(dirname "$0")/.."
page=docs/results.md

# What the sidecar (<csv>.json) of a run recorded: when, which build, which
# libraries, and every command that wrote rows.
recorded() {
  python3 - "$1" <<'PY'
import json, sys
runs = json.load(open(sys.argv[1] + ".json"))["runs"]
d = runs[0]
started = sorted(r["started"] for r in runs if r.get("started"))
when = started[0] if len(started) < 2 or started[0] == started[-1] else f"{started[0]} .. {started[-1]}"
builds = ", ".join(dict.fromkeys(r["mmbench"] for r in runs))  # every build that wrote rows, in order
blas = ", ".join(dict.fromkeys(r["blas"] for r in runs))
print(f"Recorded (`{sys.argv[1]}.json`): {d['host']} ({d['cpu']}, {d['cores']} cores), {when}; "
      f"mmbench {builds}; {d['mpi']}; {blas}; ScaLAPACK {d.get('scalapack') or 'not recorded'}.  ")
print("Commands: " + "; ".join(f"`{c}`" for c in dict.fromkeys(r["command"] for r in runs)))
PY
}

gen_default_sweep() {
  local f=results/default-sweep-vm-20261123T045318Z.csv
  recorded "$f"
  echo
  python3 scripts/summarize.py --markdown "$f"
}

gen_peer_in_job() {
  local a=results/peer-in-2rank-job-vm-20261123T003125Z.csv b=results/peer-alone-vm-20261123T003125Z.csv
  recorded "$a"
  echo
  echo '```'
  python3 scripts/bench/peer_alone.py "$a" "$b"
  echo '```'
}

gen_peer_ratios() {
  local f=results/peer-ratios-p2-vm-20261123T042213Z.csv
  recorded "$f"
  echo
  python3 scripts/summarize.py --markdown "$f"
}

gen_validate() {
  local f=results/validate-p1-p2-vm-20261123T042213Z.csv
  recorded "$f"
  echo
  echo '```'
  cat "${f%.csv}-validate.txt"
  echo '```'
}

gen_tuner_lb() {
  local d=results/tuner-lb-vm-20261123T040540Z
  recorded "$d/pdgemm-lb-sweep-n4096.csv"
  echo
  python3 scripts/tuner_lb_summary.py --sweep "$d/pdgemm-lb-sweep-n4096.csv" "$d"/profile-*.json
}

# DGEMM alone under each OpenBLAS core, launches alternated in one CSV: the
# sidecar's runs say which core each launch ran (matched by start time).
gen_dgemm_core() {
  local f=results/dgemm-openblas-haswell-vs-cooperlake-vm-20261124T0308Z.csv
  recorded "$f"
  echo
  python3 - "$f" <<'PY'
import csv, json, re, sys
sys.path.insert(0, "scripts")
from summarize import coverage_label
path = sys.argv[1]
core = {}
for r in json.load(open(path + ".json"))["runs"]:
    m = re.search(r"(\w+) MAX_THREADS", r["blas"])
    core[r["started"]] = (m.group(1) if m else r["blas"]) + (" (pinned)" if "OPENBLAS_CORETYPE=" in r["blas"] else " (detected)")
print("| launch | OpenBLAS core | threads | n | DGEMM GFLOP/s | L = 3 vs DGEMM [interval] | rounds (coverage) |")
print("|---|---|---|---|---|---|---|")
launch, dgemm = {}, {}  # launch number and L = 0 row of each launch (by its start time)
for r in csv.DictReader(open(path, newline="")):
    if r["status"] != "ok":
        continue
    i = launch.setdefault(r["timestamp"], len(launch) + 1)
    if r["local_levels"] == "0":
        dgemm[i] = [str(i), core.get(r["timestamp"], "not recorded"), r["threads"], r["n"], f"{float(r['gflops_total']):.1f}"]
    else:
        row = dgemm[i]
        cov = f" ({coverage_label(float(r['ci_coverage']))})" if r.get("ci_coverage") else ""
        print("| " + " | ".join(row + [f"{float(r['peer_ratio']):.3f} [{float(r['peer_ratio_lo']):.3f}, "
                                        f"{float(r['peer_ratio_hi']):.3f}]", r["reps"] + cov]) + " |")
PY
}

local_kernel() {
  recorded "$1"
  echo
  python3 scripts/local_kernel_summary.py "$1"
}
gen_local_cooperlake() { local_kernel results/local-strassen-vs-dgemm-cooperlake-vm-20261124T231011Z.csv; }
gen_local_haswell_1thread() { local_kernel results/local-strassen-vs-dgemm-haswell-1thread-vm-20261124T232808Z.csv; }
gen_local_haswell_2threads() { local_kernel results/local-strassen-vs-dgemm-haswell-2threads-vm-20261124T235720Z.csv; }

gen_preload() {
  local f=results/preload-lb-pdgemm-app-vm-20261123T045217Z.csv
  recorded "$f"
  echo
  python3 - "$f" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
by = {}
for r in rows:
    by.setdefault(int(r["round"]), {})[r["variant"]] = r
ratios = [float(v["without"]["t_median_s"]) / float(v["with"]["t_median_s"]) for v in by.values() if len(v) == 2]
w = [float(r["gflops"]) for r in rows if r["variant"] == "with"]
wo = [float(r["gflops"]) for r in rows if r["variant"] == "without"]
r0 = rows[0]
lb_with = next(r["lb"] for r in rows if r["variant"] == "with")
wrong = sum(int(r["wrong"]) for r in rows)
# Files with a position column alternate the order per round; older ones
# always ran "without" first.
order = "alternated per round" if "position" in r0 else "without, then with (every round)"
print("| p | n | nb | without (lb 32), GFLOP/s | with (lb " + lb_with + "), GFLOP/s | speed-up per round: median [min, max] "
      "| rounds | order in a round | wrong entries |")
print("|---|---|---|---|---|---|---|---|---|")
print(f"| {r0['p']} | {r0['n']} | {r0['nb']} | {statistics.median(wo):.1f} | {statistics.median(w):.1f} | "
      f"{statistics.median(ratios):.3f} [{min(ratios):.3f}, {max(ratios):.3f}] | {len(ratios)} | {order} | {wrong} |")
PY
}

gen_simulated_p56() {
  python3 scripts/simulated_tables.py --parts a --heading-level 4 \
    --stamp 20261123T0738Z,20261123T0950Z,20261123T1015Z,20261123T1032Z,20261123T1034Z,20261123T1200Z,20261123T1250Z,20261123T1545Z |
    sed '/^#### part a$/d' | cat -s
}

gen_q7_predicted() {
  python3 scripts/q7_split_compare.py --markdown results/q7-split-predicted-thesis-opteron-vm-20261122T152236Z.csv
}

gen_dispatch_vm() {
  local f=results/dispatch-vm-20261126/dispatch-vm-20261126T153628Z.csv
  recorded "$f"
  echo
  python3 scripts/dispatch_summary.py "$f"
}
gen_dispatch_lu_vm() {
  local f=results/dispatch-vm-20261126/dispatch-vm-20261126T154256Z.csv
  recorded "$f"
  echo
  python3 scripts/dispatch_summary.py "$f"
}

# A scripts/bench/sim_validation.py folder DIR measured on HOST: what its
# real runs recorded, then the script's report minus its own opening line
# (the page says it), after TITLE where one is given.
validation_report() {  # DIR HOST [TITLE]
  recorded "$1/measured-$2.csv"
  echo
  if [ -n "${3:-}" ]; then
    echo "$3"
    echo
  fi
  sed 1,2d "$1/sim-validation-$2.md"
}

gen_sim_validation_vm() {
  local d
  for d in results/sim-validation-vm-20261126 results/sim-validation-vm-8192-20261126; do
    [ -d "$d" ] || continue
    validation_report "$d" vm
    echo
  done
}
gen_sim_validation_vm_slowest() {
  local d=results/sim-validation-vm-slowest-20261126
  validation_report "$d" vm "New rule (slowest rank):"
  echo
  echo "The earlier kernel model, the same real runs (\`$d/old-kernel-model/\`): the summary only."
  echo
  grep '^- ' "$d/old-kernel-model/sim-validation-vm.md"
}
gen_sim_validation_xeon16() {
  validation_report results/sim-validation-xeon16-20261126 xeon16
}

gen_xeon16_runs() {
  local d=results/xeon16-device-20261126
  recorded "$d/run-p16.csv"
  echo
  python3 scripts/summarize.py --markdown "$d/run-p16.csv"
  echo
  recorded "$d/run-p4.csv"
  echo
  python3 scripts/summarize.py --markdown "$d/run-p4.csv"
}
gen_xeon16_dispatch() {
  local f=results/xeon16-device-20261126/dispatch-prescott/dispatch-vm-20261126T151420Z.csv
  recorded "$f"
  echo
  python3 scripts/dispatch_summary.py "$f"
}
gen_xeon16_skylakex() {
  local d=results/xeon16-device-20261126
  recorded "$d/run-p16-skylakex.csv"
  echo
  python3 scripts/summarize.py --markdown "$d/run-p16-skylakex.csv"
  echo
  local f=$d/dispatch-skylakex-profile-prescott/dispatch-vm-20261126T151747Z.csv
  recorded "$f"
  echo
  python3 scripts/dispatch_summary.py "$f"
}
gen_xeon16_lu() {
  local f=results/xeon16-device-20261126/lu-prescott/dispatch-vm-20261126T151636Z.csv
  recorded "$f"
  echo
  python3 scripts/dispatch_summary.py "$f"
}

gen_two_level_network() {
  # The report of scripts/two_level_tables.py (its predictions were made by
  # the build of that day), its summary parts; every part: the file itself.
  awk '/^#### Summary per point/ {on = 1} /^#### The network probe/ {on = 0} /^#### Wall time/ {on = 1} on' \
    results/simulated-two-level-network/model-vs-simulation-vm-20261126T1800Z.md | sed 's/^#### /#### /'
}

gen_isoefficiency_thesis() {
  python3 - results/isoefficiency-thesis-opteron-20261126/isoefficiency-E0.5.csv \
    results/isoefficiency-thesis-opteron-20261126/isoefficiency-E0.8.csv <<'PY'
import csv, sys
for f in sys.argv[1:]:
    rows = [r for r in csv.DictReader(open(f)) if r["reached"] == "yes"]
    e = rows[0]["isoefficiency"]
    print(f"\nE = {e} (`{f}`): per p, the member that reaches E at the smallest n, and the runner-up\n")
    print("| p | best: algorithm (member) | n_E | t_pred [s] | mem/rank [MiB] | runner-up | n_E |")
    print("|---|---|---|---|---|---|---|")
    ps = sorted({int(r["p"]) for r in rows})
    for p in ps:
        at = sorted((r for r in rows if int(r["p"]) == p), key=lambda r: int(r["n_iso"]))
        b = at[0]
        ru = at[1] if len(at) > 1 else None
        mem = float(b["mem_pred_mb"]) if b["mem_pred_mb"] else float("nan")
        print(f"| {p} | {b['algo']} ({b['best_member']}) | {b['n_iso']} | {float(b['t_pred']):.4g} | {mem:.4g} |"
              f" {ru['algo'] if ru else ''} | {ru['n_iso'] if ru else ''} |")
PY
}

# One block's text (used below, one process per block).
if [ "${1:-}" = --block ]; then
  fn=gen_${2//-/_}
  declare -F "$fn" >/dev/null || { echo "update-results-page.sh: no generator for block '$2'" >&2; exit 2; }
  "$fn"
  exit 0
fi

# Replace every generated block; a block whose generator is unknown is an
# error (a typo in the page would otherwise leave stale numbers).
new=$(mktemp)
trap 'rm -f "$new"' EXIT
python3 - "$page" "$new" <<'PY'
import re, subprocess, sys
page, out = sys.argv[1], sys.argv[2]
text = open(page).read()
def fill(m):
    name = m.group(1)
    body = subprocess.run(["bash", "scripts/update-results-page.sh", "--block", name],
                          check=True, stdout=subprocess.PIPE, text=True).stdout
    return f"<!-- generated:{name} -->\n{body.rstrip()}\n<!-- /generated:{name} -->"
new, n = re.subn(r"<!-- generated:([a-z0-9-]+) -->.*?<!-- /generated:\1 -->", fill, text, flags=re.S)
if n == 0:
    sys.exit(f"{page}: no generated blocks")
open(out, "w").write(new)
PY
if [ "${1:-}" = --check ]; then
  if cmp -s "$new" "$page"; then echo "$page is up to date"; else diff -u "$page" "$new" | head -40; echo "$page is out of date: run $0" >&2; exit 1; fi
else
  cp "$new" "$page"
  echo "$page: generated blocks regenerated"
fi
