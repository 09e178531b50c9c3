#!/usr/bin/env python3
"""The regret in plots/mmbench_plot.py is mmbench's, read from the validation
CSV that `run --validate` writes (src/results/validation_report.cpp computes it,
paired by rounds); the plot recomputes nothing.  Checked on the synthetic
CSVs of tests/plots/data (make_synthetic.py), whose regrets differ from
t_pick / t_best, so a plot that recomputed them would fail here.  Needs no
matplotlib: no drawing.  Exit 0 = pass, 1 = fail."""

import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data")
sys.path.insert(0, os.path.join(HERE, "..", "..", "plots"))
import mmbench_plot as mp  # noqa: E402
# plot_regret calls note and plot_regret_validate of its own module: the
# checks below replace them there.
from mmbench_plots import regret as regret_module  # noqa: E402

failures = []


def check(what, cond, detail=""):
    print(("ok:   " if cond else "FAIL: ") + what + ("" if cond else " -- " + detail))
    if not cond:
        failures.append(what)


def close(a, b):
    return a is not None and abs(a - b) < 1e-9


# --- validation CSV: its regret, cores and interval columns as written ---
kind, columns, rows = mp.read_table(os.path.join(DATA, "validate-ci-synthetic.csv"))
check("validate-ci-synthetic.csv is a validation CSV", kind == "validate", kind)
bars, problems, variants = mp.regret_of_validate_rows(rows, columns)
check("the problem without a measured pick is left out", len(problems) == 3, repr(problems))
check("one bar colour per model that picked", variants == ["auto-refined"], repr(variants))
b = bars[((2.0, 1024.0, 1024.0, 1024.0), "auto-refined")]
check("the regret column as written (1.06), not t_pick / t_best (1.08)",
      close(b["regret"], 1.06) and not close(b["regret"], 0.027 / 0.025), repr(b))
check("the interval columns as written", close(b["lo"], 1.02) and close(b["hi"], 1.15), repr(b))
check("pick and best labels from the CSV", b["picked"] == "dgemm L=1" and b["best"] == "tpmm", repr(b))
b = bars[((2.0, 4096.0, 4096.0, 4096.0), "auto-refined")]
check("empty interval cells give none", b["lo"] is None and b["hi"] is None, repr(b))
no_ci = [{k: v for k, v in r.items() if k not in ("regret_ci_lo", "regret_ci_hi", "cores")} for r in rows]
bars, problems, _ = mp.regret_of_validate_rows(no_ci, set(columns) - {"regret_ci_lo", "regret_ci_hi", "cores"})
check("without cores / interval columns: grouped by p, no interval",
      problems[0][0] == 2.0 and all(x["lo"] is None and x["hi"] is None for x in bars.values()), repr(bars))
# The cores column, not p, is the problem's first coordinate: the dgemm peer
# of a 2-rank job shows p = 1 and cores = 2.
peer = [dict(r, p="1") for r in rows]
bars, problems, _ = mp.regret_of_validate_rows(peer, columns)
check("grouped by the cores column where the CSV has it", {pr[0] for pr in problems} == {2.0}, repr(problems))

# --- a run CSV: the regret of the validation CSV beside it ---
check("the validation CSV of a run CSV is <stem>-validate.csv (as validation_stem)",
      mp.validation_csv_of("results/a.csv") == "results/a-validate.csv"
      and mp.validation_csv_of("results/a") == "results/a-validate.csv", mp.validation_csv_of("results/a.csv"))


class Captured:
    """plot_regret's call of plot_regret_validate, instead of drawing."""

    def __init__(self):
        self.calls = []

    def __call__(self, ctx, rows):
        self.calls.append((ctx, rows))
        return "figure"


def notes_of(fn):
    lines = []
    saved = regret_module.note
    regret_module.note = lines.append
    try:
        return fn(), lines
    finally:
        regret_module.note = saved


drawn = Captured()
saved_draw = regret_module.plot_regret_validate
regret_module.plot_regret_validate = drawn
work = tempfile.mkdtemp()
try:
    run_csv = os.path.join(DATA, "run-synthetic.csv")
    kind, columns, rows = mp.read_table(run_csv)
    ctx = {"path": run_csv, "columns": columns, "title": str}
    fig, notes = notes_of(lambda: mp.plot_regret(ctx, rows))
    check("run CSV with its validation CSV: plotted from it", fig == "figure" and len(drawn.calls) == 1, repr(notes))
    if drawn.calls:
        vctx, vrows = drawn.calls[0]
        check("... the validation CSV's rows and columns, not the run's",
              vctx["path"].endswith("run-synthetic-validate.csv") and "regret" in vctx["columns"]
              and len(vrows) == 3, repr(vctx))
        bars, problems, _ = mp.regret_of_validate_rows(vrows, vctx["columns"])
        b = bars[((2.0, 2048.0, 2048.0, 2048.0), "auto-refined")]
        check("... its regret as written (1.017), not t_pick / t_best", close(b["regret"], 1.017)
              and not close(b["regret"], 0.198 / 0.196), repr(b))

    lonely = os.path.join(work, "lonely.csv")
    shutil.copy(run_csv, lonely)
    drawn.calls.clear()
    fig, notes = notes_of(lambda: mp.plot_regret(dict(ctx, path=lonely), rows))
    check("run CSV without a validation CSV: no regret plot, a note naming the file",
          fig is None and not drawn.calls and any("lonely-validate.csv" in n for n in notes), repr(notes))

    shutil.copy(run_csv, os.path.join(work, "lonely-validate.csv"))
    fig, notes = notes_of(lambda: mp.plot_regret(dict(ctx, path=lonely), rows))
    check("a file of that name that is no validation CSV: no regret plot, a note",
          fig is None and not drawn.calls and any("not a validation CSV" in n for n in notes), repr(notes))
finally:
    regret_module.plot_regret_validate = saved_draw
    shutil.rmtree(work)

if failures:
    print("%d check(s) failed" % len(failures))
    sys.exit(1)
print("all regret checks passed")
