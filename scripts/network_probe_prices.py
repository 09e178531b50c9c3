"""What a profile's two-level network section (network_levels) prices each
pattern of the network probe (tests/smpi/network_probe.c) at: one step with
every flow starting at once, so the backbone share pays the latency too
(model/network_traffic.hpp hides it behind the other flows, as in the steady
state of an algorithm's steps). Read by tests/smpi/network_levels.sh and
scripts/two_level_tables.py.

    probe_price(levels, p, "swap4", 1048576) -> seconds

Patterns: alone-intra, alone-inter (one message alone inside a node, between
nodes), ring (rank i to i + 1, every rank at once), swapD (rank g with
g + D in blocks of 2D, every rank at once). None for another pattern.
"""


def probe_price(lv, p, pattern, nbytes):
    r = lv["ranks_per_node"]
    intra, inter = lv["intra_node"], lv["inter_node"]
    s = nbytes / 8.0  # doubles

    def across(per_node, total):
        # per_node 0: one flow alone, at the one-flow rate; else its share of
        # its node link and of the backbone (what traffic both ways leaves).
        tau = inter["tau_doubles_per_s"]
        if per_node:
            tau = min(tau, inter["node_link_doubles_per_s"] / per_node, inter["backbone_doubles_per_s"] / total)
        return inter["latency_s"] + s / tau

    def inside(flows):
        concurrent = intra["tau_concurrent_doubles_per_s"]
        tau = concurrent if flows > 1 and concurrent > 0 else intra["tau_doubles_per_s"]
        return intra["latency_s"] + s / tau

    if pattern == "alone-intra":
        return inside(1)
    if pattern == "alone-inter":
        return across(0, 1)
    if pattern == "ring":
        return max(inside(r - 1) if r > 1 else 0.0, across(1, (p + r - 1) // r))
    if pattern.startswith("swap"):
        d = int(pattern[4:])
        if d >= r:
            return across(r, p)
        if r % (2 * d) == 0:
            return inside(r)
        return max(inside(r), across(r, p))
    return None
