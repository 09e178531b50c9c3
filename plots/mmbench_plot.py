#!/usr/bin/env python3
"""Plot mmbench result CSVs as PNG files with matplotlib (docs/method.md, section 10).

Usage:
    python3 plots/mmbench_plot.py [--out plots/] [--title-prefix TEXT] FILE.csv [FILE.csv ...]

Each input file is classified by its header (docs/csv-columns.md):
  * an `mmbench run` results CSV  -> mflops-vs-n, model-vs-measured,
                                     pdgemm-vs-lb, regret (read from its
                                     <stem>-validate.csv where there is one)
  * a DGEMM profile CSV (`tune`)  -> dgemm-profile
  * a validation summary CSV      -> regret
    (`run --validate` writes <stem>-validate.csv: one row per problem)
  * a PDGEMM call census          -> census (libmmbench-dispatch.so's
    MMBENCH_DISPATCH_LOG: time per call shape, predicted vs measured)
  * an isoefficiency CSV          -> isoefficiency
    (`predict --isoefficiency E --csv F`: one row per algorithm and p)
Every plot the data supports is written; the others are skipped with a
one-line note on stderr.  With one input file the PNGs are named
`<plot>.png`; with several, every name carries its file's stem
(`<plot>-<stem>.png`) so that the outputs of different files never collide.

Prints one line per PNG written (its path) on stdout.
Exit status: 0 = at least one plot written, or the data supports none (a
note says so); 1 = matplotlib missing or failed; 2 = bad input (missing or
unreadable file, a CSV with no known header, unusable --out).

Reads the CSVs with the standard library (columns by name, so added or
reordered columns do no harm) and draws with matplotlib's Agg backend (no
display needed; Debian: python3-matplotlib).

The reading is mmbench_results' (python/), the plots are in mmbench_plots/
beside this file, one module per plot kind; this file is the command.
"""

import argparse
import os
import sys

# The packages: mmbench_plots beside this file, mmbench_results in python/
# of the repository (or beside this file where both are installed together).
HERE = os.path.dirname(os.path.abspath(__file__))
for folder in (os.path.join(HERE, "..", "python"), HERE):
    if folder not in sys.path:
        sys.path.insert(0, folder)

# The names below are this command's API as much as its options:
# tests/plots/*.py import this file and call them.
from mmbench_plots import PLOTS  # noqa: E402
from mmbench_plots.common import InputError, note, read_table, titler  # noqa: E402,F401
from mmbench_plots.mflops import is_noisy, mflops_points, plot_mflops_vs_n  # noqa: E402,F401
from mmbench_plots.model import plot_model_vs_measured  # noqa: E402,F401
from mmbench_plots.output import render, safe_stem  # noqa: E402
from mmbench_plots.regret import (plot_regret, plot_regret_validate, regret_of_validate_rows,  # noqa: E402,F401
                                  validation_csv_of)

EXIT_OK = 0
EXIT_PLOTTING = 1
EXIT_INPUT = 2

SYSTEM_PYTHON = "/usr/bin/python3"


def rerun_with_system_python(argv):
    """Debian's python3-matplotlib is installed for the system interpreter;
    a python3 that comes first on PATH (pyenv, a virtualenv) may not see it.
    Run this script again with the system interpreter, once; returns only if
    that is not possible."""
    if os.environ.get("MMBENCH_PLOT_REEXEC") or not os.access(SYSTEM_PYTHON, os.X_OK):
        return
    if os.path.realpath(sys.executable) == os.path.realpath(SYSTEM_PYTHON):
        return
    os.environ["MMBENCH_PLOT_REEXEC"] = "1"
    args = sys.argv[1:] if argv is None else list(argv)
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(SYSTEM_PYTHON, [SYSTEM_PYTHON, os.path.abspath(__file__)] + args)


def main(argv=None):
    parser = argparse.ArgumentParser(
        description="Plot mmbench results CSVs, DGEMM profile CSVs, validation CSVs and isoefficiency "
                    "CSVs as PNG files (matplotlib).",
        epilog="With several input files every PNG name carries its file's stem. "
               "Exit status: 0 plots written (or none supported, with a note), "
               "1 matplotlib missing or failed, 2 bad input.")
    parser.add_argument("--out", default="plots", help="output folder (default: plots/)")
    parser.add_argument("--title-prefix", default="",
                        help="text put before every title, e.g. the machine description")
    parser.add_argument("files", nargs="+", metavar="FILE.csv")
    args = parser.parse_args(argv)

    # Read and classify everything first: a bad file fails the whole call
    # before any PNG is written.
    tables = []
    try:
        for path in args.files:
            kind, columns, rows = read_table(path)
            tables.append((path, kind, columns, rows))
    except InputError as exc:
        print("error: %s" % exc, file=sys.stderr)
        return EXIT_INPUT
    try:
        os.makedirs(args.out, exist_ok=True)
    except OSError as exc:
        print("error: cannot create output folder %s: %s" % (args.out, exc), file=sys.stderr)
        return EXIT_INPUT
    try:
        import matplotlib
        matplotlib.use("Agg")  # files only, never a display
    except ImportError:
        rerun_with_system_python(argv)
        print("error: matplotlib not found by %s (Debian: apt-get install python3-matplotlib)"
              % sys.executable, file=sys.stderr)
        return EXIT_PLOTTING

    suffixes = {}
    for path, _, _, _ in tables:
        suffix = "-" + safe_stem(path) if len(tables) > 1 else ""
        while suffix in suffixes.values():  # same stem in two folders
            suffix += "_"
        suffixes[path] = suffix

    written = 0
    failed = 0
    for path, kind, columns, rows in tables:
        if not rows:
            note("%s has a header but no data rows: nothing to plot" % path)
            continue
        ctx = {"path": path, "title": titler(args.title_prefix), "columns": columns}
        for name, builder in PLOTS[kind]:
            fig = builder(ctx, rows)
            if fig is None:
                continue
            out_path = os.path.join(args.out, name + suffixes[path] + ".png")
            error = render(fig, out_path)
            if error:
                print("error: " + error, file=sys.stderr)
                failed += 1
            else:
                print(out_path)
                written += 1
    if failed:
        return EXIT_PLOTTING
    if written == 0:
        note("the data supports no plot; no PNG written")
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
