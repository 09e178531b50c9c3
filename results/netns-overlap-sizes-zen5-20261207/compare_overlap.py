#!/usr/bin/env python3
"""Ring's measured time beside the refined model priced two ways from the
same profile: with tune's overlap at the shift's size (the profile as tune
wrote it: 4, 16 and 64 MiB) and with its 4 MiB point alone (what profiles
held before the sizes, which then held for every size).
  python3 results/netns-overlap-sizes-zen5-20261207/compare_overlap.py DIR [--mmbench build/mmbench]
Reads DIR/<tag>.csv and DIR/<tag>-profile.json (scripts/bench/netns_validation.sh);
prints a Markdown table."""
import argparse
import copy
import glob
import json
import os
import statistics
import sys
import tempfile

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(root, "scripts"))
sys.path.insert(0, os.path.join(root, "python"))
from netns_validation_summary import key, label_of, levels, predictions  # noqa: E402
from mmbench_results import read_results  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--mmbench", default="build/mmbench")
    a = ap.parse_args()
    print("| cluster | configuration | n | shift MB | measured s (median [min, max]) | overlap at the shift | "
          "model, by size | error | overlap 4 MiB alone | model, 4 MiB alone | error |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for csv in sorted(glob.glob(os.path.join(a.dir, "2x*.csv"))):
        tag = os.path.basename(csv)[:-4]
        if not tag.count("-") == 1:
            continue
        prof_path = os.path.join(a.dir, tag + "-profile.json")
        prof = json.load(open(prof_path))
        pts = prof["shift_overlap"]["points"]
        one = copy.deepcopy(prof)
        one["shift_overlap"]["points"] = pts[:1]
        rows = [r for r in read_results(csv).text_rows if r["algo"] == "ring" and r.get("status", "ok") == "ok"]
        p = int(rows[0]["p"])
        with tempfile.TemporaryDirectory() as d:
            one_path = os.path.join(d, "one.json")
            json.dump(one, open(one_path, "w"))
            for n in sorted({int(r["n"]) for r in rows}):
                by_size = predictions(a.mmbench, prof_path, p, n)
                alone = predictions(a.mmbench, one_path, p, n)
                for r in sorted((r for r in rows if int(r["n"]) == n), key=label_of):
                    rounds = [float(t) for t in r["t_rounds"].split(";")]
                    med = statistics.median(rounds)
                    new, old = float(by_size[key(r)]["t_pred"]), float(alone[key(r)]["t_pred"])
                    shift = 8.0 * n * -(-n // p)
                    f = frac(pts, shift)
                    asked = r.get("local_levels") or "0"
                    lab = label_of(r) + (f" (asked L={asked})" if asked != "0" and not levels(r) else "")
                    print(f"| {tag} | {lab} | {n} | {shift / 1e6:.1f} | {med:.3f} [{min(rounds):.3f}, "
                          f"{max(rounds):.3f}] | {f:.2f} | {new:.3f} | {100 * (new / med - 1):+.1f} % | "
                          f"{pts[0]['fraction']:.2f} | {old:.3f} | {100 * (old / med - 1):+.1f} % |")


def frac(pts, b):
    """The model's reading of the points (src/model/overlap_curve.hpp)."""
    import math
    if b <= pts[0]["bytes"]:
        return pts[0]["fraction"]
    if b >= pts[-1]["bytes"]:
        return pts[-1]["fraction"]
    for lo, hi in zip(pts, pts[1:]):
        if lo["bytes"] <= b <= hi["bytes"]:
            t = math.log(b / lo["bytes"]) / math.log(hi["bytes"] / lo["bytes"])
            return lo["fraction"] + t * (hi["fraction"] - lo["fraction"])


if __name__ == "__main__":
    main()
