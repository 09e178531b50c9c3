"""What SimGrid 3.32's SMPI network model charges a large message, beyond a
platform's nominal link values (docs/simulation.md, "What a message costs").

A platform file says what the links are (bandwidth, latency); SMPI's
network model (network/model:SMPI, the default of smpirun) then gives a
message of s bytes
  rate    = bandwidth-factor(s) x its max-min share of the links
  latency = latency-factor(s) x the route's latency
and, with network/crosstraffic on (the default), every flow also loads the
links of its reverse route with 5 % of its rate (the acknowledgements), so
under traffic that goes both ways a link carries data at 1 / 1.05 of its
capacity. The factors are piecewise in s (smpi/bw-factor, smpi/lat-factor);
the algorithms' bulk messages are >= 64 KiB (65472 bytes), where they are
0.940694 and 11.6436. tests/smpi/network_levels.sh checks them against
what SMPI charges on the thesis platform.

These constants turn nominal platform values into what a message gets
(profile_network_from_platform.py) and back (platform_from_profile.py).
`none` keeps the nominal values (a platform read as plain hardware, or a
simulation run with --cfg smpi/bw-factor:1 --cfg smpi/lat-factor:1
--cfg network/crosstraffic:0).
"""

MODELS = {
    # bandwidth factor, latency factor, reverse traffic per flow
    "smpi-3.32": (0.940694, 11.6436, 0.05),
    "none": (1.0, 1.0, 0.0),
}
DEFAULT = "smpi-3.32"


def factors(model):
    """(bandwidth factor, latency factor, reverse traffic) of a model name."""
    if model not in MODELS:
        raise SystemExit(f"unknown message model '{model}': allowed {', '.join(sorted(MODELS))}")
    return MODELS[model]
