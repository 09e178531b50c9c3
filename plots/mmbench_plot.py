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
"""

import argparse
import csv
import math
import os
import re
import statistics
import sys
import tempfile

EXIT_OK = 0
EXIT_PLOTTING = 1
EXIT_INPUT = 2

# Columns that identify each kind of CSV.  Only these must be present; any
# other column may be missing (treated as empty) or extra (ignored), so the
# plotter survives schema additions.
RUN_KEY_COLUMNS = ("timestamp", "host", "p", "algo", "m", "n", "k",
                   "t_median", "mflops_per_proc", "status")
PROFILE_KEY_COLUMNS = ("m", "n", "k", "t_median", "mflops", "x", "lb")
VALIDATE_KEY_COLUMNS = ("p", "m", "n", "k", "pick", "best", "regret")
CENSUS_KEY_COLUMNS = ("call", "transa", "transb", "m", "n", "k", "grid", "choice", "reason", "t_measured")
ISO_KEY_COLUMNS = ("isoefficiency", "p", "algo", "reached", "n_iso", "n")

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"

# One colour per algorithm, enough for every algorithm mmbench has (14 with
# auto's picks), dark enough to read on white; an algorithm keeps its colour
# in every panel and in every plot of the same file. Its options (lb, L,
# gemm, threads, ...) get a marker each, then a dash: no two series of a
# plot share colour, marker and dash (tests/plots/test_legibility.py).
COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2",
           "#17becf", "#7f7f7f", "#bcbd22", "#393b79", "#637939", "#843c39", "#7b4173",
           "#3182bd", "#e6550d")
MARKERS = ("o", "s", "^", "v", "D", "p", "X", "*")
DASHES = ("-", "--", "-.", ":")

FIGSIZE = (12, 8)  # inches; at DPI 100 the 1200 x 800 px canvas of the README
DPI = 100
GRID = dict(color="#b0b0b0", linewidth=0.8, linestyle=":")
LEGEND_FRAME = "#bbbbbb"


class InputError(Exception):
    """Bad input file: reported with exit status 2."""


def note(msg):
    print("note: " + msg, file=sys.stderr)


# --------------------------------------------------------------------------
# Reading

def num(text):
    """Float of a CSV field, or None for empty / non-numeric / non-finite."""
    if text is None:
        return None
    text = text.strip()
    if not text:
        return None
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def read_table(path):
    """Return (kind, columns, rows) with kind 'run', 'profile', 'validate',
    'isoefficiency' or 'census';
    rows are dicts of stripped strings ('' for empty or absent fields)."""
    try:
        with open(path, newline="", encoding="utf-8-sig") as handle:
            reader = csv.reader(handle)
            header = next(reader, None)
            body = list(reader)
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise InputError("cannot read %s: %s" % (path, exc)) from exc
    if not header:
        raise InputError("%s is empty: expected the header line of an "
                         "`mmbench run` results CSV, a DGEMM profile CSV, a "
                         "validation CSV or an isoefficiency CSV" % path)
    header = [h.strip() for h in header]
    columns = set(header)
    missing = {kind: [c for c in keys if c not in columns]
               for kind, keys in (("run", RUN_KEY_COLUMNS), ("profile", PROFILE_KEY_COLUMNS),
                                  ("validate", VALIDATE_KEY_COLUMNS), ("isoefficiency", ISO_KEY_COLUMNS),
                                  ("census", CENSUS_KEY_COLUMNS))}
    for kind in ("run", "profile", "validate", "isoefficiency", "census"):
        if not missing[kind]:
            break
    else:
        raise InputError(
            "%s has neither known header: as a `mmbench run` results CSV it "
            "lacks column(s) %s; as a DGEMM profile CSV it lacks %s; as a "
            "validation CSV (run --validate) it lacks %s; as an isoefficiency "
            "CSV (predict --isoefficiency) it lacks %s; as a PDGEMM census it lacks %s "
            "(see docs/csv-columns.md, docs/dispatch.md)"
            % (path, ", ".join(missing["run"]), ", ".join(missing["profile"]),
               ", ".join(missing["validate"]), ", ".join(missing["isoefficiency"]), ", ".join(missing["census"])))
    rows = []
    for fields in body:
        if not any(f.strip() for f in fields):
            continue  # blank line
        row = {}
        for i, name in enumerate(header):
            row[name] = fields[i].strip() if i < len(fields) else ""
        rows.append(row)
    return kind, columns, rows


def field(row, name):
    return row.get(name, "") or ""


def ok_rows(rows, *numeric):
    """Rows with status ok whose listed columns are all numbers."""
    out = []
    for row in rows:
        if field(row, "status") != "ok":
            continue
        if all(num(field(row, c)) is not None for c in numeric):
            out.append(row)
    return out


def cores_of(row):
    """Cores a run row used: p x BLAS threads per rank (threads empty = 1).
    The dgemm peer of a 2-rank job says p = 1, threads = 2: 2 cores."""
    return num(field(row, "p")) * (num(field(row, "threads")) or 1.0)


# --------------------------------------------------------------------------
# Labels, titles, formatting

# Configuration columns that split one algorithm into several lines, with the
# text added to the label.  A column only enters the label when the same algo
# shows several non-empty values of it in the file -- otherwise it is noise.
# An empty value means "not recorded", not a configuration of its own, so
# {'', '0'} does not split a line (rows with '' simply get no suffix).
# grid, nb and threads are included because rows differing in them are
# different configurations that must not be pooled into one median.
VARIANT_COLUMNS = (("lb", "lb="), ("recursions", "r="), ("local_levels", "L="),
                   ("local_gemm", "gemm="), ("grid", "grid "), ("nb", "nb="), ("threads", "threads="))


def sort_token(text):
    value = num(text)
    return (0, value, "") if value is not None else (1, 0.0, text)


def make_labels(rows):
    """Map id(row) -> label and return the labels in display order."""
    varying = {}
    for col, _ in VARIANT_COLUMNS:
        seen = {}
        for row in rows:
            if field(row, col):
                # The grid naturally changes with p (1x1, 1x2, 2x2 ...); it only
                # distinguishes lines when one (algo, p) has several grids.
                key = (field(row, "algo"), field(row, "p")) if col == "grid" else (field(row, "algo"),)
                seen.setdefault(key, set()).add(field(row, col))
        varying[col] = {key[0] for key, vals in seen.items() if len(vals) > 1}
    labels = {}
    keys = {}
    for row in rows:
        algo = field(row, "algo")
        parts = [algo]
        key = [algo]
        for col, prefix in VARIANT_COLUMNS:
            value = field(row, col)
            if algo in varying[col] and value:
                parts.append(prefix + value)
            key.append(sort_token(value) if algo in varying[col] else (0, 0.0, ""))
        label = " ".join(parts)
        labels[id(row)] = label
        keys[label] = tuple(key)
    order = sorted(keys, key=lambda lab: keys[lab])
    return labels, order


def style_for(order):
    """label -> (colour, marker, dash), fixed per file: the colour of the
    label's algorithm (its first word), a marker and then a dash per option
    variant of that algorithm. With more algorithms than colours a colour
    comes round again with markers that start further on."""
    algos, seen, out = [], {}, {}
    for lab in order:
        algo = lab.split(" ")[0]
        if algo not in seen:
            seen[algo] = 0
            algos.append(algo)
        a, v = algos.index(algo), seen[algo]
        seen[algo] += 1
        turn = a // len(COLOURS)  # the colour's round
        m = v + turn * 3
        out[lab] = (COLOURS[a % len(COLOURS)], MARKERS[m % len(MARKERS)],
                    DASHES[(m // len(MARKERS)) % len(DASHES)])
    return out


def fmt(value):
    """Compact number for labels: 4096, 0.98, 3437."""
    if value == int(value) and abs(value) < 1e15:
        return str(int(value))
    return "%.4g" % value


def n_label(rows):
    """x label for n; claims m = n = k only when every row is square."""
    square = all(field(r, "m") == field(r, "n") == field(r, "k") for r in rows)
    return "matrix size n" + (" (m = n = k)" if square else "")


def context_line(rows, extra=None, p_column="p"):
    """'host h · p = 1, 2 · 2024-05-01' from the host, p, timestamp columns."""
    parts = []
    hosts = sorted({field(r, "host") for r in rows if field(r, "host")})
    if hosts:
        parts.append("host " + (", ".join(hosts) if len(hosts) <= 3
                                else "%d hosts" % len(hosts)))
    ps = [num(field(r, p_column)) for r in rows if num(field(r, p_column)) is not None]
    if ps:
        parts.append("p = " + ", ".join(fmt(p) for p in sorted(set(ps))))
    if extra:
        parts.extend(extra)
    dates = sorted({field(r, "timestamp")[:10] for r in rows
                    if re.match(r"\d{4}-\d{2}-\d{2}", field(r, "timestamp"))})
    if dates:
        parts.append(dates[0] if len(dates) == 1 else dates[0] + " to " + dates[-1])
    return "  ·  ".join(parts)


def set_x_axis(ax, values, log_ratio=8.0):
    """x axis over the given points: ticks at the measured values when there
    are few (n = 1024, 2048, 4096 reads better than automatic 1500-steps),
    log2 scale when they span a wide range."""
    values = sorted(set(values))
    if values[0] > 0 and values[-1] / values[0] >= log_ratio:
        ax.set_xscale("log", base=2)
        ax.set_xlim(values[0] / 1.25, values[-1] * 1.25)
    else:
        span = values[-1] - values[0]
        pad = 0.08 * span if span > 0 else (abs(values[0]) * 0.1 or 1.0)
        ax.set_xlim(values[0] - pad, values[-1] + pad)
    if len(values) <= 10:
        ax.set_xticks(values)
        ax.set_xticklabels([fmt(v) for v in values])
        ax.xaxis.set_minor_locator(_null_locator())
    else:
        from matplotlib.ticker import FuncFormatter
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _pos: "%g" % v))


def _null_locator():
    from matplotlib.ticker import NullLocator
    return NullLocator()


def integer_y(ax):
    """y tick labels as plain integers (MFLOPS), never 1e4 offsets."""
    from matplotlib.ticker import FuncFormatter
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _pos: "%.0f" % v))


def new_figure():
    from matplotlib.figure import Figure
    return Figure(figsize=FIGSIZE, dpi=DPI)


def panel_shape(count):
    """(rows, cols) of count panels: side by side up to 3, else near-square."""
    cols = count if count <= 3 else int(math.ceil(math.sqrt(count)))
    return int(math.ceil(count / cols)), cols


def bottom_legend(fig, handles, labels, max_cols, handlelength=3.0):
    """One legend for the whole figure, centred in a strip at the bottom,
    with as many columns as the longest entry lets fit in the figure's
    width (an entry at font size 10: about 6.5 px a character, the handle
    and the gaps about 12 px per handle length unit). Returns the height of
    the strip as a fraction of the figure."""
    width_px = fig.get_figwidth() * fig.dpi
    entry_px = 6.5 * max((len(x) for x in labels), default=1) + 12 * handlelength + 30
    cols = max(1, min(len(labels), max_cols, int((width_px - 40) // entry_px)))
    rows = int(math.ceil(len(labels) / float(cols)))
    fig.legend(handles, labels, loc="lower center", ncol=cols, frameon=True,
               edgecolor=LEGEND_FRAME, bbox_to_anchor=(0.5, 0.005), fontsize=10,
               handlelength=handlelength)
    return 0.03 + 0.028 * rows


def title_height(title):
    """Fraction of the figure a suptitle of this many lines takes."""
    return 0.06 + 0.032 * (title.count("\n") + 1)


# --------------------------------------------------------------------------
# The plots.  Each returns a matplotlib Figure, or None after a note saying
# why not.

NOISY_CV = 0.05  # core/paired_stats.hpp: kNoisyCoefficientOfVariation


def is_noisy(row):
    """The row's noisy flag (CSV column noisy), or cv above 5 % in CSVs
    without the column."""
    flag = field(row, "noisy")
    if flag in ("yes", "no"):
        return flag == "yes"
    cv = num(field(row, "cv"))
    return cv is not None and cv > NOISY_CV


def mflops_points(good, labels):
    """(points, noisy): points maps (label, cores, n) to the median MFLOPS
    per core over the label's repeated rows (robust to one outlier); noisy
    is the set of those keys where any of the rows was flagged noisy. Cores
    are ranks x threads (cores_of): the dgemm peer's one rank of 2 threads
    sits with the 2-rank rows, not with one-core rows."""
    groups, noisy = {}, set()
    for row in good:
        key = (labels[id(row)], cores_of(row), num(row["n"]))
        groups.setdefault(key, []).append(num(row["mflops_per_proc"]))
        if is_noisy(row):
            noisy.add(key)
    return {k: statistics.median(v) for k, v in groups.items()}, noisy


def peak_per_core(rows):
    """The median of mflops_per_proc / peak_fraction over rows that have
    both (the profile's per-core peak, in MFLOPS), or None."""
    vals = []
    for r in rows:
        mf, pf = num(field(r, "mflops_per_proc")), num(field(r, "peak_fraction"))
        if mf and pf and pf > 0:
            vals.append(mf / pf)
    if not vals:
        return None
    vals.sort()
    return vals[len(vals) // 2]


def cores_title(rows, cores):
    """'2 cores: 2 ranks x 1 thread, 1 rank x 2 threads' for a panel."""
    layouts = sorted({(int(num(field(r, "p"))), int(num(field(r, "threads")) or 1)) for r in rows
                      if cores_of(r) == cores}, reverse=True)
    parts = ["%d rank%s x %d thread%s" % (pp, "" if pp == 1 else "s", t, "" if t == 1 else "s") for pp, t in layouts]
    return "%s core%s: %s" % (fmt(cores), "" if cores == 1 else "s", ", ".join(parts))


def plot_mflops_vs_n(ctx, rows):
    """MFLOPS per core against n, one line per label, one panel per number
    of cores used (ranks x threads; Abb. 2.15). Points from rows flagged
    noisy are drawn hollow."""
    good = ok_rows(rows, "p", "n", "mflops_per_proc")
    if not good:
        note("%s: no ok rows with p, n and mflops_per_proc: no mflops-vs-n plot" % ctx["path"])
        return None
    labels, order = make_labels(good)
    styles = style_for(order)
    points, noisy = mflops_points(good, labels)
    ps = sorted({k[1] for k in points})
    ns = [k[2] for k in points]
    ymax = max(points.values())

    fig = new_figure()
    title = ctx["title"]("MFLOPS per core against matrix size n") + "\n" + context_line(good)
    fig.suptitle(title, fontsize=14)
    nrows, ncols = panel_shape(len(ps))
    handles = {}
    axes = []
    for i, p in enumerate(ps):
        ax = fig.add_subplot(nrows, ncols, i + 1)
        axes.append(ax)
        ax.set_title(cores_title(good, p), fontsize=11)
        for lab in order:
            line = sorted((n, y) for (l, pp, n), y in points.items() if l == lab and pp == p)
            if not line:
                continue
            colour, marker, dash = styles[lab]
            (h,) = ax.plot([n for n, _ in line], [y for _, y in line], color=colour, marker=marker,
                           linestyle=dash, markersize=7, linewidth=2, gid=lab)
            handles.setdefault(lab, h)
            hollow = [(n, y) for n, y in line if (lab, p, n) in noisy]
            if hollow:
                ax.plot([n for n, _ in hollow], [y for _, y in hollow], linestyle="none", marker=marker,
                        markersize=7, markerfacecolor="white", markeredgecolor=colour, markeredgewidth=1.5)
        # The measured FMA peak per core of this panel's rows (a profile's
        # cpu_peak): mflops_per_proc / peak_fraction, the same for every row
        # that used as many cores.
        peak = peak_per_core([r for r in good if cores_of(r) == p])
        top = ymax
        if peak:
            (h,) = ax.plot([min(ns), max(ns)], [peak, peak], color="#333333", linestyle=":", linewidth=2)
            handles.setdefault("measured FMA peak per core", h)
            top = max(top, peak)
        set_x_axis(ax, ns)
        ax.set_ylim(0, top * 1.1)
        integer_y(ax)
        ax.set_xlabel(n_label(good))
        ax.set_ylabel("MFLOPS per core")
        ax.grid(True, **GRID)
    used = [lab for lab in order if lab in handles]
    if "measured FMA peak per core" in handles:
        used.append("measured FMA peak per core")
    entries = [handles[lab] for lab in used]
    if noisy:
        from matplotlib.lines import Line2D
        entries.append(Line2D([], [], linestyle="none", marker="o", markersize=7, markerfacecolor="white",
                              markeredgecolor="#333333"))
        used = used + ["hollow: noisy (cv > 5 %)"]
    strip = bottom_legend(fig, entries, used, 5)
    fig.subplots_adjust(left=0.075, right=0.985, bottom=strip + 0.085, top=1 - title_height(title),
                        wspace=0.18, hspace=0.35)
    return fig


# A refined prediction further off than this is said in words, not only drawn:
# beyond the few per cent of run-to-run noise, it is the model or the profile.
FAR_OFF_PERCENT = 25.0

SOURCES = (("measured", "t_median", "-", "o", True),
           ("paper model", "pred_paper", "--", "^", False),
           ("refined model", "pred_refined", "-.", "s", False))


def plot_model_vs_measured(ctx, rows):
    """Predicted against measured, per label and p (Abb. 2.14).

    Top: the rate 2mnk / t / cores of the measured t_median and of the
    predicted times, in MFLOPS per core (p x threads; the thesis' per process
    with one thread) -- on a time axis the n^3 growth hides a 20 % model
    error, on a rate axis it is plain to see.
    Bottom: relative error of the predicted time, (t_pred - t_meas) / t_meas,
    the definition of the err_* columns."""
    good = ok_rows(rows, "p", "m", "n", "k", "t_median")
    with_pred = [r for r in good
                 if num(field(r, "pred_paper")) is not None or num(field(r, "pred_refined")) is not None]
    if not with_pred:
        note("%s: no predictions (pred_paper / pred_refined empty): no model-vs-measured plot"
             % ctx["path"])
        return None
    # Labels from all ok rows so that colours match the mflops-vs-n plot.
    labels, order = make_labels(ok_rows(rows, "p", "n", "mflops_per_proc") or good)
    if any(id(r) not in labels for r in with_pred):
        labels, order = make_labels(good)
    styles = style_for(order)
    groups = {}
    for row in with_pred:
        groups.setdefault((labels[id(row)], cores_of(row), num(row["n"])), []).append(row)
    # (label, p, n) -> {column: median time, "flops": 2mnk, "cores": p x threads}
    table = {}
    for key, grp in groups.items():
        entry = {}
        for _, col, _, _, _ in SOURCES:
            vals = [num(field(r, col)) for r in grp if (num(field(r, col)) or 0) > 0]
            if vals:
                entry[col] = statistics.median(vals)
        if "t_median" not in entry:
            continue
        entry["flops"] = statistics.median(2.0 * num(r["m"]) * num(r["n"]) * num(r["k"]) for r in grp)
        entry["cores"] = statistics.median(cores_of(r) for r in grp)
        table[key] = entry

    def rate(entry, col):
        return entry["flops"] / entry[col] / entry["cores"] / 1e6

    def error(entry, col):
        return 100.0 * (entry[col] - entry["t_median"]) / entry["t_median"]

    used = [lab for lab in order if any(k[0] == lab for k in table)]
    ps = sorted({k[1] for k in table})
    ns = [k[2] for k in table]
    rates = [rate(e, c) for e in table.values() for _, c, _, _, _ in SOURCES if c in e]
    errors = [error(e, c) for e in table.values() for _, c, _, _, _ in SOURCES[1:] if c in e]
    lo, hi = min(errors + [0.0]), max(errors + [0.0])
    pad = 0.12 * (hi - lo) if hi > lo else 1.0

    for lab in used:
        for p in ps:
            far = sorted((k[2], error(e, "pred_refined")) for k, e in table.items()
                         if k[0] == lab and k[1] == p and "pred_refined" in e
                         and abs(error(e, "pred_refined")) > FAR_OFF_PERCENT)
            if far:
                errs = ["%+.0f %%" % x for x in sorted(x for _, x in far)]
                span = errs[0] if errs[0] == errs[-1] else errs[0] + " to " + errs[-1]
                note("%s: the refined model is off by %s for %s at p = %g (n = %s), beyond %.0f %%: "
                     "see model-vs-measured.png" % (os.path.basename(ctx["path"]), span, lab, p,
                                                    ", ".join("%d" % n for n, _ in far), FAR_OFF_PERCENT))

    fig = new_figure()
    title = (ctx["title"]("Predicted vs. measured: rate from the times (top), "
                          "error of the predicted time (bottom)") + "\n" + context_line(with_pred))
    fig.suptitle(title, fontsize=14)
    nrows, ncols = panel_shape(len(ps))
    outer = fig.add_gridspec(nrows, ncols, wspace=0.22, hspace=0.32)
    for i, p in enumerate(ps):
        cell = outer[i // ncols, i % ncols].subgridspec(2, 1, height_ratios=(62, 38), hspace=0.08)
        top = fig.add_subplot(cell[0])
        bottom = fig.add_subplot(cell[1], sharex=top)
        top.set_title(cores_title(with_pred, p), fontsize=11)
        for lab in used:
            # The algorithm's colour and the option's marker; the source
            # (measured, paper, refined) its dash and fill.
            colour, marker = styles[lab][0], styles[lab][1]
            for source, col, dash, _, filled in SOURCES:
                pts = sorted((k[2], e) for k, e in table.items() if k[0] == lab and k[1] == p and col in e)
                if not pts:
                    continue
                face = colour if filled else "none"
                top.plot([n for n, _ in pts], [rate(e, col) for _, e in pts], color=colour, linestyle=dash,
                         marker=marker, markersize=7, markerfacecolor=face, linewidth=2, gid=lab + " | " + source)
                if col != "t_median":
                    bottom.plot([n for n, _ in pts], [error(e, col) for _, e in pts], color=colour,
                                linestyle=dash, marker=marker, markersize=7, markerfacecolor=face, linewidth=2,
                                gid=lab + " | " + source)
        top.set_ylim(0, max(rates) * 1.1)
        integer_y(top)
        top.set_ylabel("MFLOPS per core")
        top.tick_params(labelbottom=False)
        top.grid(True, **GRID)
        bottom.axhline(0.0, color="#555555", linewidth=1)
        bottom.set_ylim(lo - pad, hi + pad)
        bottom.set_ylabel("time error (%)")
        bottom.set_xlabel(n_label(with_pred))
        bottom.grid(True, **GRID)
        set_x_axis(bottom, ns)
    from matplotlib.lines import Line2D
    handles = [Line2D([], [], color=styles[lab][0], marker=styles[lab][1], markersize=7, linewidth=3)
               for lab in used]
    names = list(used)
    for name, col, dash, _, filled in SOURCES:
        if any(col in e for e in table.values()):
            handles.append(Line2D([], [], color="black", linestyle=dash, marker="o", markersize=7,
                                  markerfacecolor="black" if filled else "none", linewidth=2))
            names.append(name + (" (filled)" if filled else " (hollow)"))
    strip = bottom_legend(fig, handles, names, 5, handlelength=3.5)
    fig.subplots_adjust(left=0.085, right=0.985, bottom=strip + 0.085, top=1 - title_height(title))
    return fig


def plot_pdgemm_vs_lb(ctx, rows):
    """PDGEMM MFLOPS per core against lb, one line per (p, n) (Abb. 2.21/2.25)."""
    good = [r for r in ok_rows(rows, "p", "n", "lb", "mflops_per_proc") if field(r, "algo") == "pdgemm"]
    lbs = {num(r["lb"]) for r in good}
    if len(lbs) < 2:
        note("%s: pdgemm rows with fewer than two lb values: no pdgemm-vs-lb plot" % ctx["path"])
        return None
    not_applied = [r for r in good if field(r, "lb_override") == "no"]
    if not_applied:
        note("%s: %d pdgemm row(s) have lb_override=no (ScaLAPACK never asked for lb, so lb "
             "had no effect on them); they are plotted anyway" % (ctx["path"], len(not_applied)))
    # Lines per (p, n); grid / nb / threads join the key only where they vary
    # inside one (p, n), for the same reason as in make_labels.
    pns = {(r["p"], r["n"]) for r in good}
    extra_cols = [c for c in ("grid", "nb", "threads")
                  if any(len({field(r, c) for r in good if (r["p"], r["n"]) == pn}) > 1 for pn in pns)]
    groups = {}
    for row in good:
        key = (num(row["p"]), num(row["n"])) + tuple(sort_token(field(row, c)) for c in extra_cols)
        name = "p = %s, n = %s" % (fmt(num(row["p"])), fmt(num(row["n"])))
        name += "".join(" %s %s" % (c, field(row, c)) for c in extra_cols if field(row, c))
        groups.setdefault((key, name), {}).setdefault(num(row["lb"]), []).append(num(row["mflops_per_proc"]))
    ymax = max(statistics.median(v) for g in groups.values() for v in g.values())
    nbs = sorted({field(r, "nb") for r in good if field(r, "nb")}, key=sort_token)

    fig = new_figure()
    title = (ctx["title"]("PDGEMM: MFLOPS per core against the PBLAS logical block size lb") + "\n"
             + context_line(good, ["nb = " + ", ".join(nbs)] if nbs else None))
    fig.suptitle(title, fontsize=14)
    ax = fig.add_subplot(1, 1, 1)
    for i, (key, name) in enumerate(sorted(groups)):
        line = sorted((lb, statistics.median(v)) for lb, v in groups[(key, name)].items())
        ax.plot([lb for lb, _ in line], [y for _, y in line], color=COLOURS[i % len(COLOURS)],
                marker=MARKERS[i % len(MARKERS)], markersize=7, linewidth=2, label=name)
    set_x_axis(ax, lbs, log_ratio=16.0)
    ax.set_ylim(0, ymax * 1.1)
    integer_y(ax)
    ax.set_xlabel("logical block size lb (ScaLAPACK default 32)")
    ax.set_ylabel("MFLOPS per core")
    ax.grid(True, **GRID)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=True, edgecolor=LEGEND_FRAME,
              fontsize=10, borderaxespad=0)
    fig.subplots_adjust(left=0.085, right=0.80, bottom=0.09, top=1 - title_height(title))
    return fig


def problem_tick(cores, m, n, k, square):
    size = "n = %s" % fmt(n) if square else "%s×%s×%s" % (fmt(m), fmt(n), fmt(k))
    return "cores = %s\n%s" % (fmt(cores), size)


def draw_regret(ctx, bars, problems, variants, what, context):
    """The regret figure shared by run and validation CSVs.

    bars: (problem, variant) -> dict(regret, lo, hi, picked, best); lo/hi
    are the ends of a confidence interval or None.  problems: sorted
    (cores, m, n, k) tuples.  variants: the selection rules (one bar colour
    each, e.g. auto-refined)."""
    fig = new_figure()
    title = ctx["title"]("Regret of --algo auto: " + what) + "\n" + context
    fig.suptitle(title, fontsize=14)
    ax = fig.add_subplot(1, 1, 1)
    width = 0.8 / len(variants)
    tops = [1.0]
    annotate = len(problems) * len(variants) <= 12
    labelled = []
    for vi, variant in enumerate(variants):
        xs, heights, texts = [], [], []
        ci_x, ci_y, ci_err = [], [], [[], []]
        for xi, pr in enumerate(problems):
            bar = bars.get((pr, variant))
            if not bar:
                continue
            x = xi - 0.4 + width * (vi + 0.5)
            xs.append(x)
            heights.append(bar["regret"])
            hi = bar["regret"]
            if bar["lo"] is not None or bar["hi"] is not None:
                # One end missing: draw the other alone.
                lo = bar["lo"] if bar["lo"] is not None else bar["regret"]
                hi = bar["hi"] if bar["hi"] is not None else bar["regret"]
                ci_x.append(x)
                ci_y.append(bar["regret"])
                ci_err[0].append(max(0.0, bar["regret"] - lo))
                ci_err[1].append(max(0.0, hi - bar["regret"]))
            tops.append(max(bar["regret"], hi))
            text = "%.3f" % bar["regret"]
            if annotate:
                text += "\npicked %s" % bar["picked"]
                if bar["best"] and bar["best"] != bar["picked"]:
                    text += "\nbest %s" % bar["best"]
                elif bar["regret"] > 1.0005:
                    text += "\nbest: another run of it"
            texts.append((x, max(bar["regret"], hi), text))
        if not xs:
            continue
        colour = COLOURS[vi % len(COLOURS)]
        # Bars rise from 1 (= the fastest measured), not from 0.
        ax.bar(xs, [h - 1.0 for h in heights], bottom=1.0, width=width * 0.9, color=colour, alpha=0.75,
               edgecolor=colour, label=variant)
        if ci_x:
            ax.errorbar(ci_x, ci_y, yerr=ci_err, fmt="none", ecolor="#333333", elinewidth=1.5, capsize=5)
            labelled.append(variant)
        for x, y, text in texts:
            ax.annotate(text, (x, y), xytext=(0, 4), textcoords="offset points", ha="center", va="bottom",
                        fontsize=9)
    span = max(max(tops) - 1.0, 0.02)
    ax.set_ylim(1.0 - span * 0.05, 1.0 + span * 1.45)
    ax.axhline(1.0, color="#333333", linewidth=1.5)
    square = all(pr[1] == pr[2] == pr[3] for pr in problems)
    ax.set_xlim(-0.6, len(problems) - 0.4)
    ax.set_xticks(range(len(problems)))
    ax.set_xticklabels([problem_tick(*pr, square) for pr in problems])
    ax.ticklabel_format(axis="y", style="plain", useOffset=False)
    ax.set_xlabel("problem (cores = MPI ranks × BLAS threads per rank, "
                  + ("n = matrix size)" if square else "m×n×k)"))
    ax.set_ylabel("regret = t(picked) / t(fastest measured)")
    ax.grid(True, axis="y", **GRID)
    handles, names = ax.get_legend_handles_labels()
    if labelled:
        from matplotlib.lines import Line2D
        handles.append(Line2D([], [], color="#333333", marker="_", markersize=10, linestyle="-", linewidth=1.5))
        names.append("confidence interval of the regret")
    ax.legend(handles, names, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=len(names),
              frameon=True, edgecolor=LEGEND_FRAME, fontsize=10)
    fig.subplots_adjust(left=0.085, right=0.985, bottom=0.2, top=1 - title_height(title))
    return fig


def ci_of(row, columns):
    """(lo, hi) of the regret_ci_lo / regret_ci_hi columns, None where absent or empty."""
    if "regret_ci_lo" not in columns or "regret_ci_hi" not in columns:
        return None, None
    return num(field(row, "regret_ci_lo")), num(field(row, "regret_ci_hi"))


def validation_csv_of(path):
    """The validation CSV `run --validate` writes beside the results CSV
    `path`: <stem>-validate.csv, the stem being the path without ".csv"
    (as mmbench's validation_stem)."""
    stem = path[:-4] if len(path) > 4 and path.endswith(".csv") else path
    return stem + "-validate.csv"


def plot_regret(ctx, rows):
    """Regret of the model's pick per problem of a run CSV.  The regret is
    mmbench's (run --validate computes it, paired by rounds, and writes it to
    the validation CSV beside the results): this reads it from there and
    computes nothing; without that file there is no regret plot."""
    path = validation_csv_of(ctx["path"])
    if not os.path.exists(path):
        note("%s: no validation CSV %s (run --validate writes the regret): no regret plot" % (ctx["path"], path))
        return None
    try:
        kind, columns, val_rows = read_table(path)
    except InputError as exc:
        note("%s: %s: no regret plot" % (ctx["path"], exc))
        return None
    if kind != "validate":
        note("%s: %s is not a validation CSV: no regret plot" % (ctx["path"], path))
        return None
    return plot_regret_validate(dict(ctx, path=path, columns=columns), val_rows)


def regret_of_validate_rows(rows, columns):
    """The bars of a validation CSV (run --validate, one row per problem):
    its regret, regret_ci_lo and regret_ci_hi columns as mmbench wrote them
    (nothing is recomputed); the problem is (cores, m, n, k) with the cores
    column, or p where the CSV has none; the rule is auto-<model>.  Rows
    without a numeric regret (the pick was not measured) are left out.

    Returns (bars, problems, variants): bars maps (problem, rule) to
    dict(regret, lo, hi, picked, best), lo/hi None where the CSV has no
    interval; problems and variants are sorted."""
    cores_col = "cores" if "cores" in columns else "p"
    bars = {}
    for row in rows:
        if any(num(field(row, c)) is None for c in (cores_col, "m", "n", "k", "regret")):
            continue
        pr = tuple(num(row[c]) for c in (cores_col, "m", "n", "k"))
        variant = "auto-" + field(row, "model") if field(row, "model") else "auto"
        lo, hi = ci_of(row, columns)
        bars[(pr, variant)] = {"regret": num(row["regret"]), "lo": lo, "hi": hi,
                               "picked": field(row, "pick"), "best": field(row, "best")}
    return bars, sorted({pr for pr, _ in bars}), sorted({v for _, v in bars})


def plot_regret_validate(ctx, rows):
    """Regret per problem from a validation CSV, with the confidence interval
    regret_ci_lo .. regret_ci_hi as an error bar where the CSV has one."""
    bars, problems, variants = regret_of_validate_rows(rows, ctx["columns"])
    if not bars:
        note("%s: no problem with a measured regret: no regret plot" % ctx["path"])
        return None
    if "cores" not in ctx["columns"]:
        note("%s: no cores column: problems grouped by p" % ctx["path"])
    context = "validation summary  ·  cores = " + ", ".join(fmt(c) for c in sorted({pr[0] for pr in problems}))
    return draw_regret(ctx, bars, problems, variants, "time of the pick / fastest candidate measured", context)


def plot_census(ctx, rows):
    """A PDGEMM call census (docs/dispatch.md): left, the measured time of the
    shapes that took the most, coloured by what ran them; right, each call's
    predicted against its measured time (where a model predicted it)."""
    shapes = {}
    for r in rows:
        t = num(field(r, "t_measured"))
        if t is None:
            continue
        key = (r["transa"] + r["transb"], "%sx%sx%s" % (r["m"], r["n"], r["k"]), r["grid"])
        entry = shapes.setdefault(key, {"t": 0.0, "calls": 0, "choices": {}})
        entry["t"] += t
        entry["calls"] += 1
        entry["choices"][r["choice"]] = entry["choices"].get(r["choice"], 0) + 1
    if not shapes:
        note("%s: no call with a measured time: no census plot" % ctx["path"])
        return None
    top = sorted(shapes.items(), key=lambda kv: -kv[1]["t"])[:15]
    choices = sorted({max(e["choices"], key=e["choices"].get) for _, e in top} |
                     {r["choice"] for r in rows if num(field(r, "t_pred"))})
    colour = {c: COLOURS[i % len(COLOURS)] for i, c in enumerate(choices)}
    fig = new_figure()
    left, right = fig.add_subplot(1, 2, 1), fig.add_subplot(1, 2, 2)
    labels = ["%s %s (%s) x%d" % (k[0], k[1], k[2], e["calls"]) for k, e in top]
    left.barh(range(len(top)), [e["t"] for _, e in top],
              color=[colour[max(e["choices"], key=e["choices"].get)] for _, e in top])
    left.set_yticks(range(len(top)))
    left.set_yticklabels(labels, fontsize=8)
    left.invert_yaxis()
    left.set_xlabel("measured time of all calls of the shape [s]")
    left.set_title("where the time went (top %d of %d shapes)" % (len(top), len(shapes)), fontsize=11)
    left.grid(axis="x", **GRID)
    pts = [(num(field(r, "t_measured")), num(field(r, "t_pred")), r["choice"]) for r in rows]
    pts = [p for p in pts if p[0] and p[1]]
    if pts:
        for c in sorted({p[2] for p in pts}):
            xs = [p[0] for p in pts if p[2] == c]
            ys = [p[1] for p in pts if p[2] == c]
            right.scatter(xs, ys, s=14, color=colour.get(c, "#7f7f7f"), label=c)
        lo = min(min(p[0], p[1]) for p in pts)
        hi = max(max(p[0], p[1]) for p in pts)
        right.plot([lo, hi], [lo, hi], color="#555555", linewidth=0.8, linestyle="--", label="predicted = measured")
        right.set_xscale("log")
        right.set_yscale("log")
        right.legend(fontsize=8, frameon=True, edgecolor=LEGEND_FRAME)
    else:
        right.text(0.5, 0.5, "no predictions (no MMBENCH_PROFILE)", ha="center", va="center",
                   transform=right.transAxes)
    right.set_xlabel("measured [s]")
    right.set_ylabel("predicted, conversion included [s]")
    right.set_title("each call: the model against the measurement", fontsize=11)
    right.grid(**GRID)
    handles = [__import__("matplotlib.patches", fromlist=["Patch"]).Patch(color=colour[c]) for c in choices]
    strip = bottom_legend(fig, handles, choices, 4)
    title = ctx["title"]("PDGEMM call census: %d calls, %.3g s" % (len(rows), sum(e["t"] for e in shapes.values())))
    fig.suptitle(title)
    fig.subplots_adjust(left=0.2, right=0.97, wspace=0.35, bottom=strip + 0.08, top=1 - title_height(title))
    return fig


def plot_dgemm_profile(ctx, rows):
    """DGEMM MFLOPS against k, the chosen lb and the x * max line (Abb. 2.24)."""
    good = [r for r in rows if all(num(field(r, c)) is not None for c in ("m", "n", "k", "mflops"))]
    if not good:
        note("%s: no rows with m, n, k and mflops: no dgemm-profile plot" % ctx["path"])
        return None
    shapes = sorted({(num(r["m"]), num(r["n"])) for r in good})
    lbs = [num(field(r, "lb")) for r in good if num(field(r, "lb")) is not None]
    xs = [num(field(r, "x")) for r in good if num(field(r, "x")) is not None]
    lb = statistics.mode(lbs) if lbs else None
    # Profiles since the PDGEMM check: the rule's lb (eq. 2.26 on the
    # smoothed profile) beside lb, and the smoothed curve itself.
    rule_lbs = [num(field(r, "rule_lb")) for r in good if num(field(r, "rule_lb")) is not None]
    rule_lb = statistics.mode(rule_lbs) if rule_lbs else None
    x = statistics.mode(xs) if xs else None
    ks = [num(r["k"]) for r in good]
    ymax = max(max(num(r["mflops"]) for r in good),
               max((num(field(r, "mflops_max")) for r in good if num(field(r, "mflops_max")) is not None),
                   default=0.0))
    extra = ["; ".join("m = %s, n = %s" % (fmt(m), fmt(n)) for m, n in shapes)]
    if x is not None:
        extra.append("x = %s" % fmt(x))

    fig = new_figure()
    title = (ctx["title"]("DGEMM profile: MFLOPS against the inner dimension k (eq. 2.26)") + "\n"
             + context_line(good, extra))
    fig.suptitle(title, fontsize=14)
    ax = fig.add_subplot(1, 1, 1)
    span = max(ks) - min(ks)
    klo, khi = min(ks) - 0.03 * span, max(ks) + 0.03 * span
    if span == 0:
        klo, khi = min(ks) - 1.0, max(ks) + 1.0
    for i, (m, n) in enumerate(shapes):
        mine = sorted((num(r["k"]), num(r["mflops"]), num(field(r, "mflops_max")))
                      for r in good if (num(r["m"]), num(r["n"])) == (m, n))
        colour = COLOURS[i % len(COLOURS)]
        suffix = "" if len(shapes) == 1 else " (m = %s, n = %s)" % (fmt(m), fmt(n))
        best_line = [(k, mx) for k, _, mx in mine if mx is not None]
        if best_line:
            ax.plot([k for k, _ in best_line], [y for _, y in best_line], color="#aaaaaa", linewidth=1,
                    label="best repetition" + suffix)
        ax.plot([k for k, _, _ in mine], [y for _, y, _ in mine], color=colour, marker="o", markersize=4,
                linewidth=2, label="median MFLOPS" + suffix)
        smooth = sorted((num(r["k"]), num(field(r, "mflops_smooth"))) for r in good
                        if (num(r["m"]), num(r["n"])) == (m, n) and num(field(r, "mflops_smooth")) is not None)
        if smooth:
            ax.plot([k for k, _ in smooth], [y for _, y in smooth], color=colour, linestyle=":", linewidth=1.5,
                    label="running median of 3 (the rule's curve)" + suffix)
        peak_k, peak = max(((k, y) for k, y, _ in mine), key=lambda kv: kv[1])
        ax.plot([peak_k], [peak], linestyle="none", marker="o", markersize=14, markerfacecolor="none",
                markeredgecolor=colour, markeredgewidth=2,
                label="maximum %s MFLOPS at k = %s" % (fmt(round(peak)), fmt(peak_k)))
        if x is not None:
            # The rule's threshold: x times the smoothed maximum where the
            # CSV has the smoothed curve, else x times the maximum point.
            base, what = (max(y for _, y in smooth), "smoothed max") if smooth else (peak, "max")
            level = x * base
            # Red against the blue profile; with several shapes, each shape's
            # line takes that shape's colour.
            ax.plot([klo, khi], [level, level], linestyle="--", linewidth=2,
                    color="#d62728" if len(shapes) == 1 else colour,
                    label="%s %% line: x · %s = %s × %s = %s MFLOPS"
                          % (fmt(x * 100), what, fmt(x), fmt(round(base)), fmt(round(level))))
    if rule_lb is not None and rule_lb != lb:
        ax.axvline(rule_lb, color="#9467bd", linestyle="--", linewidth=2,
                   label="rule's lb (eq. 2.26) = %s" % fmt(rule_lb))
    if lb is not None:
        checked = " (PDGEMM check)" if rule_lb is not None and rule_lb != lb else ""
        ax.axvline(lb, color="#2ca02c", linestyle="-.", linewidth=2, label="chosen lb = %s%s" % (fmt(lb), checked))
        # The label sits beside the line, on the side with room (lb may be
        # the last k of the profile).
        right_side = (lb - klo) < 0.85 * (khi - klo)
        ax.annotate("lb = %s" % fmt(lb), (lb, 0.06), xycoords=("data", "axes fraction"),
                    xytext=(6 if right_side else -6, 0), textcoords="offset points",
                    ha="left" if right_side else "right", color="#2ca02c", fontsize=12)
    ax.set_xlim(klo, khi)
    ax.set_ylim(0, ymax * 1.08)
    integer_y(ax)
    ax.set_xlabel("k (DGEMM inner dimension = candidate lb)")
    ax.set_ylabel("MFLOPS (one DGEMM call)")
    ax.grid(True, **GRID)
    handles, names = ax.get_legend_handles_labels()
    strip = bottom_legend(fig, handles, names, 2)
    fig.subplots_adjust(left=0.085, right=0.985, bottom=strip + 0.085, top=1 - title_height(title))
    return fig


def plot_isoefficiency(ctx, rows):
    """The isoefficiency curves: for each algorithm, the smallest n at which
    its predicted efficiency reaches E, against p (both log2), one panel per
    (E, model, threads) of the file.  Where E is not reached, a hollow marker
    at the largest n priced (the row's note says why)."""
    good = [r for r in rows if num(field(r, "p")) is not None and num(field(r, "n")) is not None]
    if not good:
        note("%s: no row with p and n (no algorithm applies at any p): no isoefficiency plot" % ctx["path"])
        return None
    panels = sorted({(field(r, "isoefficiency"), field(r, "model"), field(r, "threads")) for r in good},
                    key=lambda key: (sort_token(key[0]), key[1], sort_token(key[2])))
    algos = []
    for r in good:
        if field(r, "algo") not in algos:
            algos.append(field(r, "algo"))
    style = style_for(algos)
    fig = new_figure()
    extra = ["n searched up to " + ", ".join(sorted({field(r, "n_max") for r in good if field(r, "n_max")},
                                                     key=sort_token))]
    title = (ctx["title"]("Isoefficiency: the smallest n whose predicted efficiency reaches E") + "\n"
             + context_line(good, extra))
    fig.suptitle(title, fontsize=14)
    prows, pcols = panel_shape(len(panels))
    handles, names = {}, []
    for i, (target, model, threads) in enumerate(panels):
        ax = fig.add_subplot(prows, pcols, i + 1)
        mine = [r for r in good if (field(r, "isoefficiency"), field(r, "model"), field(r, "threads"))
                == (target, model, threads)]
        for algo in algos:
            colour, marker = style[algo][0], style[algo][1]
            pts = sorted((num(r["p"]), num(r["n"]), field(r, "reached") == "yes")
                         for r in mine if field(r, "algo") == algo)
            reached = [(p, n) for p, n, ok in pts if ok]
            missed = [(p, n) for p, n, ok in pts if not ok]
            if reached:
                line, = ax.plot([p for p, _ in reached], [n for _, n in reached], color=colour, marker=marker,
                                markersize=6, linewidth=2)
                if algo not in handles:
                    handles[algo] = line
                    names.append(algo)
            if missed:
                hollow, = ax.plot([p for p, _ in missed], [n for _, n in missed], linestyle="none", marker=marker,
                                  markersize=9, markerfacecolor="none", markeredgecolor=colour, markeredgewidth=1.5)
                if algo not in handles:
                    handles[algo] = hollow
                    names.append(algo)
        ps = sorted({num(r["p"]) for r in mine})
        set_x_axis(ax, ps, log_ratio=2.0)
        ax.set_yscale("log", base=2)
        ax.set_xlabel("p (ranks)")
        ax.set_ylabel("n at efficiency E (m = n = k)")
        ax.set_title("E = %s, %s model%s" % (target, model or "?",
                                             "" if threads in ("", "1") else ", %s threads per rank" % threads),
                     fontsize=12)
        ax.grid(True, which="both", **GRID)
    from matplotlib.lines import Line2D
    hollow_key = Line2D([], [], linestyle="none", marker="o", markersize=9, markerfacecolor="none",
                        markeredgecolor="#555555")
    labels = names + ["not reached: largest n priced (see the CSV's note)"]
    strip = bottom_legend(fig, [handles[a] for a in names] + [hollow_key], labels, 4)
    fig.subplots_adjust(left=0.085, right=0.985, bottom=strip + 0.085, top=1 - title_height(title), hspace=0.35)
    return fig


RUN_PLOTS = (("mflops-vs-n", plot_mflops_vs_n),
             ("model-vs-measured", plot_model_vs_measured),
             ("pdgemm-vs-lb", plot_pdgemm_vs_lb),
             ("regret", plot_regret))
PROFILE_PLOTS = (("dgemm-profile", plot_dgemm_profile),)
VALIDATE_PLOTS = (("regret", plot_regret_validate),)
ISO_PLOTS = (("isoefficiency", plot_isoefficiency),)
CENSUS_PLOTS = (("census", plot_census),)
PLOTS = {"run": RUN_PLOTS, "profile": PROFILE_PLOTS, "validate": VALIDATE_PLOTS, "isoefficiency": ISO_PLOTS,
         "census": CENSUS_PLOTS}


# --------------------------------------------------------------------------
# Rendering

def render(fig, out_path):
    """Write fig to a temporary PNG next to out_path and rename it into place
    only when it is a complete PNG, so a reader never sees a half-written
    file.  Returns an error text or None."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    out_dir = os.path.dirname(out_path) or "."
    fd, tmp_png = tempfile.mkstemp(prefix="." + os.path.basename(out_path) + ".", suffix=".tmp", dir=out_dir)
    os.close(fd)
    try:
        FigureCanvasAgg(fig)
        fig.savefig(tmp_png, format="png", dpi=DPI)
        with open(tmp_png, "rb") as handle:
            if handle.read(8) != PNG_MAGIC:
                return "matplotlib wrote no valid PNG for %s" % out_path
        os.chmod(tmp_png, 0o644)  # mkstemp makes it 0600
        os.replace(tmp_png, out_path)
        tmp_png = None
        return None
    except Exception as exc:  # a drawing error must not lose the other plots
        return "matplotlib failed on %s: %s: %s" % (out_path, type(exc).__name__, exc)
    finally:
        if tmp_png and os.path.exists(tmp_png):
            os.unlink(tmp_png)


def safe_stem(path):
    stem = os.path.splitext(os.path.basename(path))[0]
    return re.sub(r"[^A-Za-z0-9._+-]", "_", stem) or "data"


def titler(prefix):
    """About 100 characters fit across 1200 px at the title font; a longer
    prefix + title is split rather than clipped at the edges."""
    def title(what):
        if not prefix:
            return what
        return prefix + (":\n" if len(prefix) + len(what) > 95 else ": ") + what
    return title


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
