#!/usr/bin/env bash
# Simulated runs (SimGrid SMPI) and the kernel model:
#  1. real-compute simulation at p = 2: the dgemm peer (2 BLAS threads, but
#     a simulated rank computes on one) is not-applicable with the reason,
#     and no row has a `vs peer` ratio; the sidecar says pricing "real";
#  2. charged with a profile whose kernel model is known (the thesis'
#     Opteron profile plus a kernel_model written here), noise off: the
#     dgemm row costs exactly the fitted DGEMM(n, n, n), and at p = 2 the
#     peer's two threads half of it (the profile has no threaded DGEMM:
#     ideal speed-up); pricing "fitted";
#  3. noise on: the same seed gives the same simulated times, another seed
#     others, each within the spread; pricing "fitted+noise" and the seed;
#  4. a platform written by platform_from_profile.py names the profile:
#     without --sim-profile the simulation prices with its kernel model;
#  5. a profile without a kernel model: pricing "flat"; a bad --noise: exit 2.
# Skips (exit 77, one line) when smpirun or the SMPI build is missing.
set -eu
src=$1; smpi_build=$2; dir=$3/smpi-kernel-model
command -v smpirun >/dev/null || { echo "SKIP: smpirun not found (libsimgrid-dev not installed)"; exit 77; }
[ -x "$smpi_build/mmbench" ] || { echo "SKIP: no SMPI build at $smpi_build (cmake -B build-smpi -DMMBENCH_SMPI=ON && cmake --build build-smpi)"; exit 77; }
rm -rf "$dir"
mkdir -p "$dir"
star=$src/configs/platforms/star-test.xml

# The kernel model of the test: DGEMM 1 us + 2e-11 s per mnk + surface
# terms, spread 0.1; passes 1 us + bytes / 10 GB/s.
python3 - "$src/configs/thesis-opteron.json" "$dir" <<'PY'
import json, sys
prof = json.load(open(sys.argv[1]))
json.dump(prof, open(sys.argv[2] + "/flat.json", "w"), indent=1)
fit = {"a_s": 1e-6, "b_s_per_byte": 1e-10, "log_sd": 0.1, "repeat_log_sd": 0.05, "sizes": 5, "points": 10}
prof["kernel_model"] = {
    "max_dim": 512, "rounds": 3, "ranks": 2,
    "dgemm": {"a_s": 1e-6, "b_s_per_mnk": 2e-11, "c_s_per_mn": 1e-9, "d_s_per_mk": 2e-9, "e_s_per_nk": 3e-9,
              "log_sd": 0.1, "repeat_log_sd": 0.05, "shapes": 14, "points": 84},
    "add": fit, "copy": fit, "pack": fit, "csv": ""}
json.dump(prof, open(sys.argv[2] + "/kernel.json", "w"), indent=1)
PY

# sim NAME NP SIMULATE_OPTIONS... -- RUN_OPTIONS...: one simulation into $dir/NAME.csv
sim() {
  local name=$1 np=$2; shift 2
  local opts=()
  while [ "$1" != -- ]; do opts+=("$1"); shift; done
  shift
  rm -f "$dir/$name.csv" "$dir/$name.csv.json"
  "$src/scripts/simulate.sh" --build "$smpi_build" --np "$np" "${opts[@]}" -- \
    run --reps 3 --warmup 0 --csv "$dir/$name.csv" --quiet --order-seed 1 "$@" > "$dir/$name.out" 2>&1 \
    || { echo "FAIL: simulate.sh $name"; cat "$dir/$name.out"; exit 1; }
}

sim real 2 --platform "$star" -- --algo dgemm,ring --n 128
sim fitted1 1 --platform "$star" --compute charged --sim-profile "$dir/kernel.json" --noise off -- --algo dgemm --n 256
sim fitted2 2 --platform "$star" --compute charged --sim-profile "$dir/kernel.json" --noise off -- --algo dgemm,ring --n 256
sim noise5a 2 --platform "$star" --compute charged --sim-profile "$dir/kernel.json" --seed 5 -- --algo dgemm,ring --n 256 --local-strassen 0,1
sim noise5b 2 --platform "$star" --compute charged --sim-profile "$dir/kernel.json" --seed 5 -- --algo dgemm,ring --n 256 --local-strassen 0,1
sim noise6 2 --platform "$star" --compute charged --sim-profile "$dir/kernel.json" --seed 6 -- --algo dgemm,ring --n 256 --local-strassen 0,1
python3 "$src/scripts/platform_from_profile.py" "$dir/kernel.json" --nodes 2 --cores-per-node 1 -o "$dir/from-profile.xml"
sim named 2 --platform "$dir/from-profile.xml" --compute charged --noise off -- --algo ring --n 256
sim flat 2 --platform "$star" --compute charged --sim-profile "$dir/flat.json" -- --algo ring --n 256
rc=0
"$src/scripts/simulate.sh" --build "$smpi_build" --platform "$star" --np 1 --compute charged --noise loud -- \
  run --algo dgemm --n 64 > "$dir/bad.out" 2>&1 || rc=$?
[ $rc = 2 ] && grep -q "noise on|off" "$dir/bad.out" || { echo "FAIL: --noise loud gave exit $rc"; cat "$dir/bad.out"; exit 1; }

python3 - "$dir" <<'PY'
import csv, json, math, sys
d = sys.argv[1]
rows = lambda name: list(csv.DictReader(open(f"{d}/{name}.csv")))
side = lambda name: json.load(open(f"{d}/{name}.csv.json"))["runs"][-1]["simulated"]
fit = lambda m, n, k: 1e-6 + 2e-11 * m * n * k + 1e-9 * m * n + 2e-9 * m * k + 3e-9 * n * k

# 1. Real-compute simulation: the peer is not-applicable, no ratio anywhere.
r = rows("real")
peer = [x for x in r if x["algo"] == "dgemm"]
assert len(peer) == 1 and peer[0]["status"] == "not-applicable" and "one thread" in peer[0]["reason"], peer
assert all(x["peer_ratio"] == "" for x in r), [x["peer_ratio"] for x in r]
assert [x["status"] for x in r if x["algo"] == "ring"] == ["ok"], r
assert side("real")["pricing"] == "real", side("real")
print("real compute: dgemm peer not-applicable:", peer[0]["reason"])

# 2. Fitted, no noise: one DGEMM(256, 256, 256) exactly; the 2-thread peer half.
want = fit(256, 256, 256)
got1 = float(rows("fitted1")[0]["t_median"])
assert abs(got1 / want - 1) < 1e-4, (got1, want)  # the CSV keeps 5 digits
r2 = {x["algo"]: x for x in rows("fitted2")}
assert r2["dgemm"]["threads"] == "2" and r2["dgemm"]["status"] == "ok", r2["dgemm"]
got2 = float(r2["dgemm"]["t_median"])
assert abs(got2 / (want / 2) - 1) < 1e-4, (got2, want / 2)
assert r2["ring"]["peer_ratio"] != "", r2["ring"]
assert side("fitted2")["pricing"] == "fitted" and "noise_seed" not in side("fitted2"), side("fitted2")
print(f"fitted: DGEMM(256) {got1:.6g} s = the fit {want:.6g} s; the 2-thread peer {got2:.6g} s")

# 3. Noise: reproducible per seed, different across seeds, within the spread.
times = lambda name: [x["t_rounds"] for x in rows(name)]
assert times("noise5a") == times("noise5b"), (times("noise5a"), times("noise5b"))
assert times("noise5a") != times("noise6"), times("noise6")
s5 = side("noise5a")
assert s5["pricing"] == "fitted+noise" and s5["noise_seed"] == 5, s5
for x in rows("noise5a"):
    if x["algo"] == "dgemm" and x["local_levels"] == "0":
        ts = [float(t) for t in x["t_rounds"].split(";")]
        assert len(set(ts)) == 3, ts  # every round draws anew
        for t in ts:
            assert abs(math.log(t / (want / 2))) < 5 * 0.1, (t, want / 2)
print("noise: seed 5 twice", times("noise5a")[0], "seed 6", times("noise6")[0])

# 4. The platform names its profile: priced with its kernel model.
sn = side("named")
assert sn["pricing"] == "fitted" and sn["profile"].endswith("kernel.json"), sn
# 5. No kernel model: flat.
assert side("flat")["pricing"] == "flat", side("flat")
print("platform from profile: pricing", sn["pricing"], "from", sn["profile"], "; no kernel model: flat")
PY
echo "smpi_kernel_model passed"
