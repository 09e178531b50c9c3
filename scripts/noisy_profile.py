#!/usr/bin/env python3
"""A profile whose charged simulation has noise although its machine was never measured.

  python3 scripts/noisy_profile.py PROFILE SPREAD_PROFILE OUT

PROFILE (e.g. configs/thesis-opteron.json) has flat prices only: DGEMM at its
t_op and an addition at one flop per summed element (the thesis platform's
3.3 GFLOP/s), so `simulate.sh --noise on` has no spread to draw from. OUT is
PROFILE with a kernel_model that charges exactly those flat prices (DGEMM:
2 t_op per m n k; an addition: t_op per element, i.e. t_op / 24 per byte
moved; copies and packs at 1e-18 s per byte, free as with flat prices) and
the spread SPREAD_PROFILE's own kernel model measured (DGEMM: log_sd;
additions: repeat_log_sd). With --noise off it prices as the flat profile
does; with --noise on each call is drawn around that price. A what-if
("the thesis machine, as noisy as this host"), not a measurement.
"""
import json
import os
import sys

# The readers of the files mmbench writes: python/mmbench_results.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "python"))
from mmbench_results import read_profile  # noqa: E402


def main() -> int:
    if len(sys.argv) != 4:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    profile, spread_from, out = sys.argv[1:]
    prof = read_profile(profile)
    spread = read_profile(spread_from).get("kernel_model")
    if not spread:
        print(f"noisy_profile.py: {spread_from} has no kernel_model", file=sys.stderr)
        return 2
    t_op = prof.get("t_op_s_per_flop") or 1.0 / (prof["peak_dgemm_mflops"] * 1e6)
    free = {"a_s": 0.0, "b_s_per_byte": 1e-18, "log_sd": 0.0, "repeat_log_sd": 0.0, "sizes": 1, "points": 1}
    prof["kernel_model"] = {
        "max_dim": spread.get("max_dim", 0), "rounds": spread.get("rounds", 1), "ranks": spread.get("ranks", 1),
        "dgemm": {"a_s": 0.0, "b_s_per_mnk": 2 * t_op, "c_s_per_mn": 0.0, "d_s_per_mk": 0.0, "e_s_per_nk": 0.0,
                  "log_sd": spread["dgemm"]["log_sd"], "repeat_log_sd": spread["dgemm"]["repeat_log_sd"],
                  "shapes": 1, "points": 1},
        "add": {"a_s": 0.0, "b_s_per_byte": t_op / 24, "log_sd": spread["add"]["repeat_log_sd"],
                "repeat_log_sd": spread["add"]["repeat_log_sd"], "sizes": 1, "points": 1},
        "copy": dict(free), "pack": dict(free),
        "csv": f"synthetic (scripts/noisy_profile.py): flat prices of {profile}, spread of {spread_from}",
    }
    json.dump(prof, open(out, "w"), indent=2)
    print(f"wrote {out}: DGEMM spread {spread['dgemm']['log_sd']:.3f}, additions {spread['add']['repeat_log_sd']:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
