#!/usr/bin/env python3
"""Write a machine profile's two-level network (key network_levels,
docs/machine-profile.md) from a SimGrid cluster description.

  profile_network_from_platform.py PLATFORM.xml PROFILE_IN PROFILE_OUT
        [--cluster ID] [--message-model smpi-3.32|none] [--intra platform|profile]

PROFILE_OUT is PROFILE_IN with network_levels set (added or replaced);
nothing else changes. From the <cluster> (the first, or --cluster ID):

  ranks_per_node       core (ranks are placed as mpirun --map-by core)
  nodes                the hosts of radical
  intra_node           loopback_lat, loopback_bw; the loopback is a FATPIPE
                       link, so flows inside a node do not share it:
                       tau_concurrent = tau
  inter_node           latency = 2 lat + bb_lat (up link, backbone, down
                       link); one flow alone gets min(bw, bb_bw)
  node_link            the link's share per direction: bw (SPLITDUPLEX: one
                       link each way), bw / 2 (SHARED: both ways on one
                       link, traffic going both ways at once), 0 =
                       unlimited (FATPIPE)
  backbone             bb_bw (bb_sharing_policy SHARED), 0 = unlimited
                       (FATPIPE, or no backbone)

then each value as a large message gets it under SimGrid's SMPI network
model (--message-model, default smpi-3.32; scripts/smpi_network_factors.py):
rates times the bandwidth factor, the shared capacities (node link,
backbone) also over 1 + the reverse traffic, latencies times the latency
factor. --message-model none writes the values as the XML says them.
--intra profile keeps PROFILE_IN's intra_node (measured by `mmbench tune`).

Bad input: one line naming the value, exit code 2.
"""
import argparse
import json
import os
import re
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import smpi_network_factors  # noqa: E402

# The readers of the files mmbench writes: python/mmbench_results.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "python"))
from mmbench_results import read_profile  # noqa: E402

BW_PREFIX = {"": 1.0, "k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15, "E": 1e18,
             "Ki": 2.0**10, "Mi": 2.0**20, "Gi": 2.0**30, "Ti": 2.0**40, "Pi": 2.0**50, "Ei": 2.0**60}
LAT_UNIT = {"": 1.0, "s": 1.0, "ms": 1e-3, "us": 1e-6, "ns": 1e-9, "ps": 1e-12, "m": 60.0, "h": 3600.0,
            "d": 86400.0, "w": 604800.0}


def fail(message):
    sys.stderr.write(f"profile_network_from_platform.py: {message}\n")
    sys.exit(2)


def bandwidth(text, what):
    """Bytes per second of a SimGrid bandwidth ("600MBps", "10Gbps", "6e+08Bps", "1e9")."""
    m = re.fullmatch(r"\s*([0-9.eE+-]+)\s*((?:[kKMGTPE]i?)?)([bB]ps)?\s*", text or "")
    if not m:
        fail(f"{what} = '{text}' is not a SimGrid bandwidth (e.g. 600MBps, 10Gbps)")
    try:
        value = float(m.group(1)) * BW_PREFIX[m.group(2)]
    except (ValueError, KeyError):
        fail(f"{what} = '{text}' is not a SimGrid bandwidth (e.g. 600MBps, 10Gbps)")
    if m.group(3) == "bps":
        value /= 8.0
    if not value > 0:
        fail(f"{what} = '{text}' must be > 0")
    return value


def latency(text, what):
    """Seconds of a SimGrid latency ("8.5us", "1e-06s", "0")."""
    m = re.fullmatch(r"\s*([0-9.eE+-]+)\s*(s|ms|us|ns|ps|m|h|d|w)?\s*", text or "")
    if not m:
        fail(f"{what} = '{text}' is not a SimGrid latency (e.g. 8.5us, 1e-6s)")
    try:
        value = float(m.group(1)) * LAT_UNIT[m.group(2) or ""]
    except ValueError:
        fail(f"{what} = '{text}' is not a SimGrid latency (e.g. 8.5us, 1e-6s)")
    if value < 0:
        fail(f"{what} = '{text}' must be >= 0")
    return value


def radical_count(text):
    n = 0
    for part in (text or "").split(","):
        if "-" in part:
            a, b = part.split("-")
            n += int(b) - int(a) + 1
        elif part.strip():
            n += 1
    return n


def find_cluster(path, cluster_id):
    try:
        root = ET.parse(path).getroot()
    except (ET.ParseError, OSError) as e:
        fail(f"cannot read the platform {path}: {e}")
    clusters = [el for el in root.iter("cluster")]
    if cluster_id:
        clusters = [el for el in clusters if el.get("id") == cluster_id]
    if not clusters:
        fail(f"{path} has no <cluster>" + (f" with id '{cluster_id}'" if cluster_id else "") +
             " (this script reads flat SimGrid clusters)")
    c = clusters[0]
    if c.get("topology", "FLAT").upper() != "FLAT":
        fail(f"cluster '{c.get('id')}' has topology {c.get('topology')}: only flat clusters are read")
    if c.get("limiter_link"):
        fail(f"cluster '{c.get('id')}' has a limiter_link, which this script does not read")
    return c


def levels_of(c, model):
    bw_factor, lat_factor, reverse = smpi_network_factors.factors(model)
    cid = c.get("id", "?")
    cores = int(c.get("core", "1"))
    if cores < 1:
        fail(f"cluster '{cid}': core = {cores} must be >= 1")
    nodes = radical_count(c.get("radical"))
    bw = bandwidth(c.get("bw"), f"cluster '{cid}' bw")
    lat = latency(c.get("lat"), f"cluster '{cid}' lat")
    sharing = (c.get("sharing_policy") or "SHARED").upper()
    bb_bw = bandwidth(c.get("bb_bw"), f"cluster '{cid}' bb_bw") if c.get("bb_bw") else 0.0
    bb_lat = latency(c.get("bb_lat"), f"cluster '{cid}' bb_lat") if c.get("bb_lat") else 0.0
    bb_sharing = (c.get("bb_sharing_policy") or "SHARED").upper()
    if c.get("loopback_bw") is None and c.get("loopback_lat") is None:
        fail(f"cluster '{cid}' has no loopback_bw / loopback_lat: the intra-node level is not described "
             "(add them, or use --intra profile)")
    lo_bw = bandwidth(c.get("loopback_bw"), f"cluster '{cid}' loopback_bw")
    lo_lat = latency(c.get("loopback_lat") or "0", f"cluster '{cid}' loopback_lat")
    if sharing not in ("SPLITDUPLEX", "SHARED", "FATPIPE"):
        fail(f"cluster '{cid}' sharing_policy = {sharing}: allowed SPLITDUPLEX, SHARED, FATPIPE")
    if bb_sharing not in ("SHARED", "FATPIPE"):
        fail(f"cluster '{cid}' bb_sharing_policy = {bb_sharing}: allowed SHARED, FATPIPE")

    # One flow alone: the slowest link of its route, where a link it shares
    # with its own reverse traffic (SHARED) carries its data at 1 / (1 + reverse).
    one_flow = bw / (1.0 + reverse) if sharing == "SHARED" else bw
    if bb_bw > 0:
        one_flow = min(one_flow, bb_bw / (1.0 + reverse) if bb_sharing == "SHARED" else bb_bw)
    node_link = {"SPLITDUPLEX": bw, "SHARED": bw / 2.0, "FATPIPE": 0.0}[sharing]
    backbone = bb_bw if bb_bw > 0 and bb_sharing == "SHARED" else 0.0
    to_doubles = bw_factor / 8.0
    shared = to_doubles / (1.0 + reverse)
    levels = {
        "ranks_per_node": cores,
        "nodes": nodes,
        "intra_node": {"latency_s": lo_lat * lat_factor, "tau_doubles_per_s": lo_bw * to_doubles,
                       "tau_concurrent_doubles_per_s": lo_bw * to_doubles},
        "inter_node": {"latency_s": (2.0 * lat + bb_lat) * lat_factor, "tau_doubles_per_s": one_flow * to_doubles,
                       "node_link_doubles_per_s": node_link * shared, "backbone_doubles_per_s": backbone * shared},
    }
    model_text = ("as the XML says (no message model)" if model == "none" else
                  f"as SimGrid's {model} message model charges a message >= 64 KiB: rates x {bw_factor:g}, "
                  f"latencies x {lat_factor:g}, node link and backbone also / {1 + reverse:g} (reverse traffic)")
    levels["source"] = (
        f"scripts/profile_network_from_platform.py from {c.get('_path')} (cluster '{cid}', {nodes} nodes x {cores} "
        f"cores): intra_node = loopback_lat {lo_lat:g} s, loopback_bw {lo_bw:g} B/s (FATPIPE: not shared); "
        f"inter_node = 2 x lat {lat:g} s + bb_lat {bb_lat:g} s, one flow min(bw {bw:g}, bb_bw {bb_bw:g}) B/s, "
        f"node link bw per direction ({sharing}), backbone bb_bw ({bb_sharing}); {model_text}")
    return levels


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("platform")
    ap.add_argument("profile_in")
    ap.add_argument("profile_out")
    ap.add_argument("--cluster", default=None, help="the <cluster> id (default: the first)")
    ap.add_argument("--message-model", default=smpi_network_factors.DEFAULT,
                    help=f"{', '.join(sorted(smpi_network_factors.MODELS))} (default {smpi_network_factors.DEFAULT})")
    ap.add_argument("--intra", choices=["platform", "profile"], default="platform",
                    help="intra_node from the platform's loopback (default) or PROFILE_IN's")
    a = ap.parse_args()
    if a.message_model not in smpi_network_factors.MODELS:
        fail(f"--message-model {a.message_model}: allowed {', '.join(sorted(smpi_network_factors.MODELS))}")
    if os.path.abspath(a.profile_out) == os.path.abspath(a.profile_in):
        fail(f"PROFILE_OUT {a.profile_out} is PROFILE_IN: write the new profile elsewhere")
    try:
        prof = read_profile(a.profile_in)
    except ValueError as e:
        fail(f"cannot read the profile {a.profile_in}: {e}")
    if not isinstance(prof, dict) or prof.get("schema") != "mmbench-profile/1":
        fail(f"{a.profile_in} is not an mmbench profile (schema mmbench-profile/1)")
    c = find_cluster(a.platform, a.cluster)
    c.set("_path", a.platform)
    levels = levels_of(c, a.message_model)
    if a.intra == "profile":
        old = prof.get("network_levels", {}).get("intra_node")
        if not old or not old.get("tau_doubles_per_s"):
            fail(f"--intra profile: {a.profile_in} has no measured network_levels.intra_node")
        levels["intra_node"] = old
        levels["source"] += f"; intra_node kept from {a.profile_in}"
    # Insert after two_regime (where mmbench writes it) when new; keep the place when replaced.
    out = {}
    for key, value in prof.items():
        if key == "network_levels":
            continue
        out[key] = value
        if key == "two_regime":
            out["network_levels"] = levels
    if "network_levels" not in out:
        out["network_levels"] = levels
    try:
        with open(a.profile_out, "w") as f:
            json.dump(out, f, indent=2)
            f.write("\n")
    except OSError as e:
        fail(f"cannot write {a.profile_out}: {e}")


if __name__ == "__main__":
    main()
