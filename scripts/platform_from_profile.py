#!/usr/bin/env python3
"""Write a SimGrid platform (for scripts/simulate.sh) from a machine profile
written by `mmbench tune` (configs/*.json).

  platform_from_profile.py PROFILE.json --nodes 32 --cores-per-node 2 [-o OUT.xml]

The cluster: NODES hosts of CORES cores each, in one switch.
  host speed       = the profile's DGEMM rate (1 / t_op_s_per_flop, else
                     peak_dgemm_mflops)
Where the profile has a two-level network (network_levels with both
levels known; docs/machine-profile.md), the links come from it, each value
turned from what a message gets into what SimGrid is told
(--message-model, default smpi-3.32: the inverse of
profile_network_from_platform.py, scripts/smpi_network_factors.py):
  cores            = ranks_per_node (unless --cores-per-node)
  loopback         = intra_node latency and throughput
  node link        = node_link (x the reverse traffic), SPLITDUPLEX; where
                     node_link is 0 (unlimited or not known) the one-flow
                     inter_node throughput; half the inter_node latency on
                     each node's link (a message crosses two)
  switch/backbone  = backbone (x the reverse traffic) scaled from the
                     section's nodes to NODES (the same share per node);
                     none where backbone is 0
Otherwise, from the one-level values:
  node link        = ping-pong bandwidth (8 * tau_pingpong bytes/s), half
                     the ping-pong latency on each node's link (a message
                     crosses two)
  switch/backbone  = all-to-all bandwidth per rank x ranks, so that when
                     every rank sends at once each gets tau_alltoall
  loopback         = --loopback-bw / --loopback-lat (intra-node; the profile
                     has no such measurement; default the node link)

The platform names its profile: a property mmbench_profile (the profile's
path, relative to the platform file's folder) and mmbench_profile_sha256 on
the zone. scripts/simulate.sh reads them and prices charged computation with
that profile (its kernel model where it has one) unless --sim-profile says
otherwise; it warns when the profile changed since the platform was written.
SimGrid itself ignores the properties.
"""
import argparse
import hashlib
import os
import sys
from xml.sax.saxutils import quoteattr

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import smpi_network_factors  # noqa: E402

# The readers of the files mmbench writes: python/mmbench_results.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "python"))
from mmbench_results import read_profile  # noqa: E402


def two_level_links(levels, nodes, model):
    """(cores, link bw B/s, link lat s, bb_bw B/s or 0, loopback bw, loopback lat) of a
    complete network_levels section, as SimGrid is to be told them."""
    bw_factor, lat_factor, reverse = smpi_network_factors.factors(model)
    intra, inter = levels["intra_node"], levels["inter_node"]
    to_bytes = 8.0 / bw_factor
    if inter["node_link_doubles_per_s"] > 0:
        link_bw = inter["node_link_doubles_per_s"] * to_bytes * (1.0 + reverse)
    else:
        link_bw = inter["tau_doubles_per_s"] * to_bytes
    bb = inter["backbone_doubles_per_s"] * to_bytes * (1.0 + reverse)
    if bb > 0 and levels.get("nodes", 0) > 0:
        bb *= nodes / levels["nodes"]
    return (int(levels["ranks_per_node"]), link_bw, inter["latency_s"] / lat_factor / 2.0, bb,
            intra["tau_doubles_per_s"] * to_bytes, intra["latency_s"] / lat_factor)


def complete(levels):
    if not isinstance(levels, dict):
        return False
    try:
        return (levels["ranks_per_node"] >= 1 and levels["intra_node"]["tau_doubles_per_s"] > 0 and
                levels["inter_node"]["tau_doubles_per_s"] > 0)
    except (KeyError, TypeError):
        return False


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("profile")
    ap.add_argument("--nodes", type=int, required=True)
    ap.add_argument("--cores-per-node", type=int, default=None, help="default: the profile's cores")
    ap.add_argument("--loopback-bw", type=float, default=None, help="bytes/s (default: the node link's)")
    ap.add_argument("--loopback-lat", type=float, default=None, help="seconds (default: the node link's)")
    ap.add_argument("--name", default=None, help="cluster id (default: the profile's host)")
    ap.add_argument("--message-model", default=smpi_network_factors.DEFAULT,
                    help="how a two-level section's values were derived (default %(default)s; none: as nominal)")
    ap.add_argument("-o", "--output", default="-")
    a = ap.parse_args()

    prof = read_profile(a.profile)
    cores = a.cores_per_node or int(prof.get("cores") or 1)
    t_op = float(prof.get("t_op_s_per_flop") or 0)
    speed = 1.0 / t_op if t_op > 0 else float(prof.get("peak_dgemm_mflops") or 0) * 1e6
    lat = float(prof.get("latency_s") or 0)
    tau_pp = float(prof.get("tau_pingpong_doubles_per_s") or 0)
    tau_a2a = float(prof.get("tau_alltoall_doubles_per_s") or 0)
    if speed <= 0 or lat <= 0 or tau_pp <= 0:
        sys.exit("platform_from_profile.py: the profile needs a DGEMM rate, latency_s and tau_pingpong_doubles_per_s")
    levels = prof.get("network_levels")
    if complete(levels):
        section_cores, link_bw, link_lat, bb_bw, lb_bw, lb_lat = two_level_links(levels, a.nodes, a.message_model)
        cores = a.cores_per_node or section_cores
        bb = f' bb_bw="{bb_bw:.6g}Bps" bb_lat="0s" bb_sharing_policy="SHARED"' if bb_bw > 0 else ""
        if a.loopback_bw:
            lb_bw = a.loopback_bw
        if a.loopback_lat is not None:
            lb_lat = a.loopback_lat
        what = (f"two-level network ({a.message_model}): links {link_bw / 1e6:.4g} MB/s and "
                f"{2 * link_lat * 1e6:.4g} us, backbone {bb_bw / 1e6:.4g} MB/s, loopback {lb_bw / 1e6:.4g} MB/s "
                f"and {lb_lat * 1e6:.4g} us")
    else:
        link_bw = 8.0 * tau_pp
        link_lat = lat / 2
        ranks = a.nodes * cores
        bb = f' bb_bw="{8.0 * tau_a2a * ranks:.6g}Bps" bb_lat="0s" bb_sharing_policy="SHARED"' if tau_a2a > 0 else ""
        lb_bw = a.loopback_bw if a.loopback_bw else link_bw
        lb_lat = a.loopback_lat if a.loopback_lat is not None else lat
        what = (f"ping-pong {link_bw / 1e6:.4g} MB/s and {lat * 1e6:.4g} us, all-to-all {8 * tau_a2a / 1e6:.4g} MB/s "
                "per rank")
    name = a.name or str(prof.get("host") or "cluster")
    # The profile, as seen from the platform's folder (a platform on stdout:
    # from the current folder), so that both can move together.
    out_dir = os.path.dirname(os.path.abspath(a.output)) if a.output != "-" else os.getcwd()
    prof_ref = os.path.relpath(os.path.abspath(a.profile), out_dir)
    with open(a.profile, "rb") as f:
        prof_sha = hashlib.sha256(f.read()).hexdigest()
    kernel = "with its kernel model" if prof.get("kernel_model") else "without a kernel model (flat prices)"
    xml = f"""<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<!-- Generated by scripts/platform_from_profile.py from {a.profile}:
     {a.nodes} nodes x {cores} cores, {speed / 1e9:.4g} GFLOP/s per core (DGEMM rate),
     {what}. -->
<!-- Charged simulations price local work with that profile, {kernel}
     (scripts/simulate.sh reads the two properties below). -->
<platform version="4.1">
  <zone id="world" routing="Full">
    <prop id="mmbench_profile" value={quoteattr(prof_ref)}/>
    <prop id="mmbench_profile_sha256" value="{prof_sha}"/>
    <cluster id="{name}" prefix="{name}-" suffix="" radical="0-{a.nodes - 1}" core="{cores}" speed="{speed:.6g}f"
             bw="{link_bw:.6g}Bps" lat="{link_lat:.6g}s" sharing_policy="SPLITDUPLEX"{bb}
             loopback_bw="{lb_bw:.6g}Bps" loopback_lat="{lb_lat:.6g}s"/>
  </zone>
</platform>
"""
    if a.output == "-":
        sys.stdout.write(xml)
    else:
        open(a.output, "w").write(xml)


if __name__ == "__main__":
    main()
