#!/usr/bin/env bash
# The two-level network from a platform and back:
#  - scripts/profile_network_from_platform.py on the thesis platform
#    (configs/platforms/thesis-opteron.xml) writes network_levels with the
#    values the XML says (--message-model none), and those values times
#    SimGrid's SMPI factors by default; the rest of the profile is kept;
#  - the committed configs/thesis-opteron.json holds the default output;
#  - mmbench reads the profile and prices two levels (predict names it),
#    --one-level-network and --tau take it away;
#  - scripts/platform_from_profile.py writes the platform's links back
#    from the section, its backbone scaled to another node count;
#  - bad input: one line, exit 2.
set -u
mm=$1; src=$2; dir=$3/network-levels
rm -rf "$dir"; mkdir -p "$dir"
cd "$src" || exit 1
plat=configs/platforms/thesis-opteron.xml
prof=configs/thesis-opteron.json
fail() { echo "FAIL: $*"; exit 1; }

python3 - "$prof" "$dir/in.json" <<'PY' || fail "a profile without the section"
import json, sys
p = json.load(open(sys.argv[1])); p.pop("network_levels", None); json.dump(p, open(sys.argv[2], "w"), indent=2)
PY
python3 scripts/profile_network_from_platform.py $plat "$dir/in.json" "$dir/none.json" --message-model none \
  || fail "profile_network_from_platform.py --message-model none"
python3 scripts/profile_network_from_platform.py $plat "$dir/in.json" "$dir/smpi.json" \
  || fail "profile_network_from_platform.py"
python3 - "$dir/in.json" "$dir/none.json" "$dir/smpi.json" "$prof" scripts <<'PY' || fail "values"
import json, math, sys
sys.path.insert(0, sys.argv[5])
import smpi_network_factors
inp, none, smpi, committed = (json.load(open(f)) for f in sys.argv[1:5])
def near(a, b, what):
    assert math.isclose(a, b, rel_tol=1e-12, abs_tol=0.0) or a == b, f"{what}: {a} != {b}"
# As the XML says: 2 cores, 32 nodes, loopback 1500 MB/s and 1 us, links
# 600 MB/s and 8.5 us each way (17 us end to end), backbone 9344 MB/s.
n = none["network_levels"]
assert n["ranks_per_node"] == 2 and n["nodes"] == 32, n
near(n["intra_node"]["latency_s"], 1e-6, "intra latency")
near(n["intra_node"]["tau_doubles_per_s"], 1500e6 / 8, "intra tau")
near(n["intra_node"]["tau_concurrent_doubles_per_s"], 1500e6 / 8, "intra tau at once (FATPIPE)")
near(n["inter_node"]["latency_s"], 17e-6, "inter latency")
near(n["inter_node"]["tau_doubles_per_s"], 600e6 / 8, "inter tau")
near(n["inter_node"]["node_link_doubles_per_s"], 600e6 / 8, "node link (SPLITDUPLEX)")
near(n["inter_node"]["backbone_doubles_per_s"], 9344e6 / 8, "backbone")
# SMPI's factors on top.
bw, lat, rev = smpi_network_factors.factors("smpi-3.32")
s = smpi["network_levels"]
near(s["intra_node"]["tau_doubles_per_s"], 1500e6 / 8 * bw, "smpi intra tau")
near(s["inter_node"]["latency_s"], 17e-6 * lat, "smpi inter latency")
near(s["inter_node"]["tau_doubles_per_s"], 600e6 / 8 * bw, "smpi inter tau")
near(s["inter_node"]["node_link_doubles_per_s"], 600e6 / 8 * bw / (1 + rev), "smpi node link")
near(s["inter_node"]["backbone_doubles_per_s"], 9344e6 / 8 * bw / (1 + rev), "smpi backbone")
# Nothing else changed, and the section sits after two_regime.
for out in (none, smpi):
    assert {k: v for k, v in out.items() if k != "network_levels"} == inp, "other keys changed"
    keys = list(out)
    assert keys.index("network_levels") == keys.index("two_regime") + 1, keys
# The committed profile holds the default output (profile and platform agree).
c = dict(committed["network_levels"]); c.pop("source")
d = dict(s); d.pop("source")
assert c == d, f"configs/thesis-opteron.json's network_levels differ from the script's: {c} vs {d}"
print("profile_network_from_platform.py: values as the XML says, and with SMPI's factors")
PY

out=$("$mm" predict --profile "$dir/smpi.json" --p 56 --n 4096 --algo ring --top 1 2>&1) || fail "predict: $out"
echo "$out" | grep -q "two-level network: 2 ranks per node" || fail "predict does not name the two-level network: $out"
one=$("$mm" predict --profile "$dir/smpi.json" --p 56 --n 4096 --algo ring --top 1 --one-level-network 2>&1) \
  || fail "predict --one-level-network: $one"
echo "$one" | grep -q "two-level" && fail "--one-level-network still prices two levels: $one"
base=$("$mm" predict --profile "$dir/in.json" --p 56 --n 4096 --algo ring --top 1 2>&1)
[ "$(echo "$one" | sed 1,2d)" = "$(echo "$base" | sed 1,2d)" ] || fail "--one-level-network differs from no section"
tau=$("$mm" predict --profile "$dir/smpi.json" --p 56 --n 4096 --algo ring --top 1 --tau 146 2>&1)
echo "$tau" | grep -q "two-level" && fail "--tau still prices two levels: $tau"

# And back: the platform from the section has the XML's links; 128 nodes get
# 4x the backbone (the same share per node, configs/platforms/thesis-opteron-N128.xml).
python3 scripts/platform_from_profile.py "$dir/smpi.json" --nodes 32 --name opteron -o "$dir/back.xml" \
  || fail "platform_from_profile.py"
python3 scripts/platform_from_profile.py "$dir/smpi.json" --nodes 128 --name opteron -o "$dir/back128.xml" \
  || fail "platform_from_profile.py --nodes 128"
python3 - "$dir/back.xml" "$dir/back128.xml" <<'PY' || fail "platform from the section"
import math, sys
import xml.etree.ElementTree as ET
def cluster(f):
    return next(ET.parse(f).getroot().iter("cluster")).attrib
def num(text, unit):
    assert text.endswith(unit), text
    return float(text[: -len(unit)])
for f, nodes, bb in ((sys.argv[1], 32, 9344e6), (sys.argv[2], 128, 37376e6)):
    c = cluster(f)
    assert c["core"] == "2" and c["radical"] == f"0-{nodes - 1}", c
    for key, unit, want in (("bw", "Bps", 600e6), ("lat", "s", 8.5e-6), ("bb_bw", "Bps", bb),
                            ("loopback_bw", "Bps", 1500e6), ("loopback_lat", "s", 1e-6)):
        got = num(c[key], unit)
        assert math.isclose(got, want, rel_tol=1e-5), f"{f} {key}: {got} != {want}"
    assert c["sharing_policy"] == "SPLITDUPLEX" and c["bb_sharing_policy"] == "SHARED", c
print("platform_from_profile.py: the section's links are the XML's")
PY

# Bad input: one line, exit 2.
expect2() {
  local what=$1 regex=$2; shift 2
  local msg rc
  msg=$("$@" 2>&1); rc=$?
  [ $rc -eq 2 ] || fail "$what: exit $rc, not 2: $msg"
  [ "$(echo "$msg" | wc -l)" -eq 1 ] || fail "$what: more than one line: $msg"
  echo "$msg" | grep -Eq "$regex" || fail "$what: '$msg' lacks '$regex'"
}
expect2 "no platform" "cannot read the platform" python3 scripts/profile_network_from_platform.py \
  "$dir/none.xml" "$dir/in.json" "$dir/x.json"
expect2 "same file" "is PROFILE_IN" python3 scripts/profile_network_from_platform.py $plat "$dir/in.json" "$dir/in.json"
sed 's/ loopback_bw="1500MBps" loopback_lat="1us"//' $plat > "$dir/noloop.xml"
expect2 "no loopback" "no loopback_bw" python3 scripts/profile_network_from_platform.py \
  "$dir/noloop.xml" "$dir/in.json" "$dir/x.json"
sed 's/bw="600MBps"/bw="fast"/' $plat > "$dir/badbw.xml"
expect2 "bad bandwidth" "bw = 'fast' is not a SimGrid bandwidth" python3 scripts/profile_network_from_platform.py \
  "$dir/badbw.xml" "$dir/in.json" "$dir/x.json"
expect2 "bad model" "allowed none, smpi-3.32" python3 scripts/profile_network_from_platform.py $plat "$dir/in.json" \
  "$dir/x.json" --message-model loud
echo "network_levels_ok passed"
