#!/usr/bin/env python3
"""The tables and plots keep what a row's figures are worth: in
scripts/summarize.py (the README's tables) rows flagged noisy say so, and
every interval states the coverage it has at that row's rounds
(ci_coverage, or derived from reps in CSVs without it) -- never a blanket
"95 %"; plots/mmbench_plot.py marks the noisy points of mflops-vs-n.
Needs no matplotlib."""
import csv
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SUMMARIZE = os.path.join(HERE, "..", "..", "scripts", "summarize.py")
sys.path.insert(0, os.path.join(HERE, "..", "..", "plots"))
import mmbench_plot as mp  # noqa: E402
COLS = ["p", "threads", "algo", "m", "n", "k", "reps", "gflops_total", "residual", "peer_ratio", "peer_ratio_lo",
        "peer_ratio_hi", "ci_coverage", "cv", "noisy", "status"]


def row(algo, gflops, ratio, cv, noisy, reps="3", coverage="0.750"):
    return dict(p="1", threads="1", algo=algo, m="512", n="512", k="512", reps=reps, gflops_total=gflops,
                residual="1e-15", peer_ratio=ratio, peer_ratio_lo="0.9", peer_ratio_hi="1.1", ci_coverage=coverage,
                cv=cv, noisy=noisy, status="ok")


def summarize(rows, cols, *args):
    with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False, newline="") as f:
        w = csv.DictWriter(f, fieldnames=cols, extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)
    try:
        return subprocess.run([sys.executable, SUMMARIZE, f.name, *args], check=True, capture_output=True,
                              text=True).stdout
    finally:
        os.unlink(f.name)


def line_of(text, algo):
    hits = [l for l in text.splitlines() if f" {algo} " in l or f"**{algo}**" in l]
    assert len(hits) == 1, f"{algo}: {hits}\n{text}"
    return hits[0]


def main():
    rows = [row("dgemm", "10", "1.0", "0.010", "no"), row("ring", "9", "0.9", "0.080", "yes")]
    for args in ((), ("--markdown",)):
        out = summarize(rows, COLS, *args)
        assert "noisy, cv 8 %" in line_of(out, "ring"), out
        assert "noisy" not in line_of(out, "dgemm"), out
        assert "(75 %)" in line_of(out, "ring"), out
        assert "95" not in out, "an interval claims 95 %:\n" + out
    # A CSV without ci_coverage and noisy: coverage from reps, noisy from cv.
    old_cols = [c for c in COLS if c not in ("ci_coverage", "noisy")]
    out = summarize([row("dgemm", "10", "1.0", "0.01", "", reps="6"), row("ring", "9", "0.9", "0.07", "", reps="6")],
                    old_cols, "--markdown")
    assert "(96.8 %)" in line_of(out, "ring"), out
    assert "noisy, cv 7 %" in line_of(out, "ring") and "noisy" not in line_of(out, "dgemm"), out
    # The plot: the noisy configuration's point is marked, the other not.
    prow = [dict(r, mflops_per_proc=r["gflops_total"]) for r in rows]
    labels = {id(r): r["algo"] for r in prow}
    points, noisy = mp.mflops_points(prow, labels)
    assert noisy == {("ring", 1.0, 512.0)}, noisy
    assert mp.is_noisy({"cv": "0.07"}) and not mp.is_noisy({"cv": "0.07", "noisy": "no"})
    print("ok: summarize shows noisy rows and each interval's real coverage; the plot marks noisy points")
    return 0


if __name__ == "__main__":
    sys.exit(main())
