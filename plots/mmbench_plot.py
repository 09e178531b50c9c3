#!/usr/bin/env python3
"""Plot mmbench result CSVs as PNG files with gnuplot (SPEC section 7).

Usage:
    python3 plots/mmbench_plot.py [--out plots/] [--title-prefix TEXT] FILE.csv [FILE.csv ...]

Each input file is classified by its header (docs/csv-columns.md):
  * an `mmbench run` results CSV  -> mflops-vs-n, model-vs-measured,
                                     pdgemm-vs-lb, regret
  * a DGEMM profile CSV (`tune`)  -> dgemm-profile
Every plot the data supports is written; the others are skipped with a
one-line note on stderr.  With one input file the PNGs are named
`<plot>.png`; with several, every name carries its file's stem
(`<plot>-<stem>.png`) so that the outputs of different files never collide.

Prints one line per PNG written (its path) on stdout.
Exit status: 0 = at least one plot written, or the data supports none (a
note says so); 1 = gnuplot missing or failed; 2 = bad input (missing or
unreadable file, a CSV with neither known header, unusable --out).

Only the Python standard library is used; gnuplot (Debian: gnuplot-nox)
does the drawing.
"""

import argparse
import csv
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

EXIT_OK = 0
EXIT_GNUPLOT = 1
EXIT_INPUT = 2

# Columns that identify each kind of CSV.  Only these must be present; any
# other column may be missing (treated as empty) or extra (ignored), so the
# plotter survives schema additions.
RUN_KEY_COLUMNS = ("timestamp", "host", "p", "algo", "m", "n", "k",
                   "t_median", "mflops_per_proc", "status")
PROFILE_KEY_COLUMNS = ("m", "n", "k", "t_median", "mflops", "x", "lb")

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"

# Colour-blind-safe-ish palette, dark enough to read on white.  A label keeps
# its colour in every panel and in every plot of the same file.
COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
           "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22")
# Filled point types of the cairo terminals: circle, square, triangles,
# diamond, pentagon -- a second cue besides colour.
POINTS = (7, 5, 9, 11, 13, 15)

CANVAS = "size 1200,800"


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
    """Return (kind, rows) with kind 'run' or 'profile'; rows are dicts of
    stripped strings ('' for empty or absent fields)."""
    try:
        with open(path, newline="", encoding="utf-8-sig") as handle:
            reader = csv.reader(handle)
            header = next(reader, None)
            body = list(reader)
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise InputError("cannot read %s: %s" % (path, exc)) from exc
    if not header:
        raise InputError("%s is empty: expected the header line of an "
                         "`mmbench run` results CSV or of a DGEMM profile CSV"
                         % path)
    header = [h.strip() for h in header]
    columns = set(header)
    missing_run = [c for c in RUN_KEY_COLUMNS if c not in columns]
    missing_profile = [c for c in PROFILE_KEY_COLUMNS if c not in columns]
    if not missing_run:
        kind = "run"
    elif not missing_profile:
        kind = "profile"
    else:
        raise InputError(
            "%s has neither known header: as a `mmbench run` results CSV it "
            "lacks column(s) %s; as a DGEMM profile CSV it lacks %s "
            "(see docs/csv-columns.md)"
            % (path, ", ".join(missing_run), ", ".join(missing_profile)))
    rows = []
    for fields in body:
        if not any(f.strip() for f in fields):
            continue  # blank line
        row = {}
        for i, name in enumerate(header):
            row[name] = fields[i].strip() if i < len(fields) else ""
        rows.append(row)
    return kind, rows


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


# --------------------------------------------------------------------------
# Labels, titles, formatting

# Configuration columns that split one algorithm into several lines, with the
# text added to the label.  A column only enters the label when the same algo
# shows several non-empty values of it in the file -- otherwise it is noise.
# An empty value means "not recorded", not a configuration of its own, so
# {'', '0'} does not split a line (rows with '' simply get no suffix).
# lb, r, L come from the brief; grid, nb and threads are added because rows
# differing in them are different configurations that must not be pooled into
# one median.
VARIANT_COLUMNS = (("lb", "lb="), ("recursions", "r="), ("local_levels", "L="),
                   ("grid", "grid "), ("nb", "nb="), ("threads", "threads="))


def sort_token(text):
    value = num(text)
    return (0, value, "") if value is not None else (1, 0.0, text)


def make_labels(rows):
    """Map id(row) -> label and return the labels in display order."""
    varying = {}
    for col, _ in VARIANT_COLUMNS:
        if col == "grid":
            # The grid naturally changes with p (1x1, 1x2, 2x2 ...); it only
            # distinguishes lines when one (algo, p) has several grids.
            seen = {}
            for row in rows:
                if field(row, col):
                    seen.setdefault((field(row, "algo"), field(row, "p")), set()).add(field(row, col))
            algos = {a for (a, _), vals in seen.items() if len(vals) > 1}
        else:
            seen = {}
            for row in rows:
                if field(row, col):
                    seen.setdefault(field(row, "algo"), set()).add(field(row, col))
            algos = {a for a, vals in seen.items() if len(vals) > 1}
        varying[col] = algos
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


def fmt(value):
    """Compact number for labels: 4096, 0.98, 3437."""
    if value == int(value) and abs(value) < 1e15:
        return str(int(value))
    return "%.4g" % value


def n_label(rows):
    """x label for n; claims m = n = k only when every row is square."""
    square = all(field(r, "m") == field(r, "n") == field(r, "k") for r in rows)
    return "set xlabel " + gp_str("matrix size n" + (" (m = n = k)" if square else ""))


def context_line(rows, extra=None):
    """'host h · p = 1, 2 · 2024-05-01' from the host, p, timestamp columns."""
    parts = []
    hosts = sorted({field(r, "host") for r in rows if field(r, "host")})
    if hosts:
        parts.append("host " + (", ".join(hosts) if len(hosts) <= 3
                                else "%d hosts" % len(hosts)))
    ps = [num(field(r, "p")) for r in rows if num(field(r, "p")) is not None]
    if ps:
        parts.append("p = " + ", ".join(fmt(p) for p in sorted(set(ps))))
    if extra:
        parts.extend(extra)
    dates = sorted({field(r, "timestamp")[:10] for r in rows
                    if re.match(r"\d{4}-\d{2}-\d{2}", field(r, "timestamp"))})
    if dates:
        parts.append(dates[0] if len(dates) == 1 else dates[0] + " to " + dates[-1])
    return "  ·  ".join(parts)


def gp_str(text):
    """A gnuplot double-quoted string; a newline in text becomes a line break."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def gp_path(path):
    """A gnuplot single-quoted string: no escapes are processed inside."""
    return "'" + path.replace("'", "''") + "'"


def lin_range(values, pad=0.06, from_zero=False):
    lo, hi = min(values), max(values)
    if from_zero:
        lo = min(lo, 0.0)
    if hi == lo:
        width = abs(hi) * 0.1 or 1.0
        return (lo if from_zero and lo == 0 else lo - width), hi + width
    span = hi - lo
    return (lo if from_zero and lo == 0 else lo - pad * span), hi + pad * span


def log_range(values, factor=1.3):
    positive = [v for v in values if v > 0]
    return min(positive) / factor, max(positive) * factor


def x_axis(values, log_ratio=8.0, tick_labels=True):
    """Commands for an x axis over the given points: explicit tics at the
    measured values when there are few (n = 1024, 2048, 4096 reads better
    than gnuplot's 1500-steps), log2 scale when they span a wide range."""
    values = sorted(set(values))
    cmds = []
    if values[0] > 0 and values[-1] / values[0] >= log_ratio:
        cmds.append("set logscale x 2")
        lo, hi = log_range(values, 1.25)
    else:
        cmds.append("unset logscale x")
        lo, hi = lin_range(values, 0.08)
    cmds.append("set xrange [%r:%r]" % (lo, hi))
    if len(values) <= 10:
        # An explicit tic list ignores 'set format x', so a panel sharing
        # the x axis of the one below gets empty tic texts instead.
        cmds.append("set xtics (" + ", ".join(
            "%s %r" % (gp_str(fmt(v) if tick_labels else ""), v) for v in values) + ")")
    else:
        cmds.append("set xtics autofreq")
        cmds.append("set format x '%g'" if tick_labels else "set format x ''")
    return cmds


class Script:
    """A gnuplot script under construction plus its data files (in tmpdir)."""

    def __init__(self, tmpdir, name):
        self.tmpdir = tmpdir
        self.name = name
        self.lines = []
        self.nfiles = 0

    def add(self, *lines):
        self.lines.extend(lines)

    def data(self, points):
        """Write points (tuples of numbers) to a data file, return its quoted path."""
        self.nfiles += 1
        path = os.path.join(self.tmpdir, "%s-%d.dat" % (self.name, self.nfiles))
        with open(path, "w") as handle:
            for point in points:
                handle.write("\t".join("%.10g" % v for v in point) + "\n")
        return gp_path(path)

    def text(self):
        return "\n".join(self.lines) + "\n"


def nice_step(raw):
    """Tic step 1, 2 or 5 times a power of ten, at least raw: a short error
    panel gets 3-5 tics instead of gnuplot's crowded default."""
    power = 10.0 ** math.floor(math.log10(raw)) if raw > 0 else 1.0
    for mult in (1.0, 2.0, 5.0, 10.0):
        if mult * power >= raw:
            return mult * power
    return 10.0 * power


def plot_cmd(parts):
    """One plot command; an empty panel still draws its axes (ranges are
    always set explicitly, so NaN draws nothing and warns about nothing)."""
    return "plot " + (", \\\n     ".join(parts) if parts else "NaN notitle")


def panel_grid(count, left, right, bottom, top, hgap, vgap):
    """Screen boxes (l, r, b, t) of count panels, row by row from the top."""
    cols = count if count <= 3 else int(math.ceil(math.sqrt(count)))
    rows = int(math.ceil(count / cols))
    width = (right - left - hgap * (cols - 1)) / cols
    height = (top - bottom - vgap * (rows - 1)) / rows
    boxes = []
    for i in range(count):
        r, c = divmod(i, cols)
        l = left + c * (width + hgap)
        t = top - r * (height + vgap)
        boxes.append((l, l + width, t - height, t))
    return boxes


def panels_top(title):
    """Top of the panel area below a multiplot title of this many lines
    (one 14 pt line is about 0.03 of the 800 px canvas)."""
    return 0.92 - 0.03 * (title.count("\n") + 1)


def margins(box):
    l, r, b, t = box
    return ("set lmargin at screen %.4f" % l, "set rmargin at screen %.4f" % r,
            "set bmargin at screen %.4f" % b, "set tmargin at screen %.4f" % t)


def key_strip_height(entries, cols):
    rows = int(math.ceil(entries / float(cols)))
    return 0.025 + 0.03 * rows


def key_panel(script, entries, height, cols):
    """A plot that draws nothing but a shared key centred in the bottom strip.
    entries: (title, style) with style a gnuplot 'with ...' clause.  The key
    of an invisible plot (constant 2 in a [0:1] range) is the usual gnuplot
    way to get one legend for a whole multiplot that covers no data."""
    script.add("unset title", "unset xlabel", "unset ylabel", "unset logscale",
               "unset border", "unset xtics", "unset ytics", "unset grid",
               "unset arrow", "unset label", "set xrange [0:1]", "set yrange [0:1]",
               "set lmargin at screen 0.02", "set rmargin at screen 0.98",
               "set bmargin at screen 0.005", "set tmargin at screen %.4f" % height,
               "set key at screen 0.5, %.4f center center horizontal maxcols %d "
               "reverse Left box lc rgb '#bbbbbb' samplen 3 spacing 1.1 width 2" % (height / 2, cols))
    script.add("plot " + ", \\\n     ".join(
        "2 %s title %s noenhanced" % (style, gp_str(title)) for title, style in entries))


# --------------------------------------------------------------------------
# The plots.  Each returns a Script, or None after a note saying why not.

def style_for(order):
    """label -> (colour, point type), fixed per file."""
    return {lab: (COLOURS[i % len(COLOURS)], POINTS[(i // len(COLOURS) + i) % len(POINTS)])
            for i, lab in enumerate(order)}


def plot_mflops_vs_n(ctx, rows, script):
    """MFLOPS/proc against n, one line per label, one panel per p (Abb. 2.15)."""
    good = ok_rows(rows, "p", "n", "mflops_per_proc")
    if not good:
        note("%s: no ok rows with p, n and mflops_per_proc: no mflops-vs-n plot" % ctx["path"])
        return None
    labels, order = make_labels(good)
    styles = style_for(order)
    groups = {}
    for row in good:
        key = (labels[id(row)], num(row["p"]), num(row["n"]))
        groups.setdefault(key, []).append(num(row["mflops_per_proc"]))
    # Median over repeated rows of one configuration (robust to one outlier).
    points = {k: statistics.median(v) for k, v in groups.items()}
    ps = sorted({k[1] for k in points})
    ns = [k[2] for k in points]
    ymax = max(points.values())

    entries = [(lab, "with linespoints lw 2 pt %d ps 1.3 lc rgb '%s'" % (styles[lab][1], styles[lab][0]))
               for lab in order]
    kcols = min(len(entries), 5)
    kh = key_strip_height(len(entries), kcols)
    title = ctx["title"]("MFLOPS per core against matrix size n") + "\n" + context_line(good)
    boxes = panel_grid(len(ps), 0.075, 0.985, kh + 0.085, panels_top(title), 0.075, 0.14)
    script.add("set multiplot title %s noenhanced font ',14'" % gp_str(title))
    script.add(*x_axis(ns))
    script.add("set yrange [0:%r]" % (ymax * 1.1), "set format y '%.0f'",
               n_label(good), "set ylabel 'MFLOPS per core'",
               "set grid lc rgb '#b0b0b0' lw 1 dt 3", "unset key")
    for p, box in zip(ps, boxes):
        script.add(*margins(box))
        script.add("set title %s" % gp_str("p = %s" % fmt(p)))
        parts = []
        for lab in order:
            line = sorted((n, y) for (l, pp, n), y in points.items() if l == lab and pp == p)
            if not line:
                continue
            colour, pt = styles[lab]
            parts.append("%s using 1:2 with linespoints lw 2 pt %d ps 1.3 lc rgb '%s' notitle"
                         % (script.data(line), pt, colour))
        script.add(plot_cmd(parts))
    key_panel(script, entries, kh, kcols)
    script.add("unset multiplot")
    return script


SOURCES = (("measured", "t_median", "dt 1", 7),
           ("paper model", "pred_paper", "dt 2", 8),
           ("refined model", "pred_refined", "dt 4", 4))


def plot_model_vs_measured(ctx, rows, script):
    """Predicted against measured, per label and p (Abb. 2.14).

    Top: the rate 2mnk / t / p of the measured t_median and of the predicted
    times, in MFLOPS per core (p x threads; the thesis' per process with one thread) -- on a time axis the n^3
    growth hides a 20 % model error, on a rate axis it is plain to see.
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
        key = (labels[id(row)], num(row["p"]), num(row["n"]))
        groups.setdefault(key, []).append(row)
    # (label, p, n) -> {column: median time, "flops": 2mnk}
    table = {}
    for key, grp in groups.items():
        entry = {}
        for _, col, _, _ in SOURCES:
            vals = [num(field(r, col)) for r in grp if (num(field(r, col)) or 0) > 0]
            if vals:
                entry[col] = statistics.median(vals)
        if "t_median" not in entry:
            continue
        entry["flops"] = statistics.median(
            2.0 * num(r["m"]) * num(r["n"]) * num(r["k"]) for r in grp)
        # Per core used (p x threads), like the mflops_per_proc column.
        entry["cores"] = statistics.median(num(r["p"]) * (num(field(r, "threads")) or 1) for r in grp)
        table[key] = entry

    def rate(entry, col, p):
        return entry["flops"] / entry[col] / entry["cores"] / 1e6

    def error(entry, col):
        return 100.0 * (entry[col] - entry["t_median"]) / entry["t_median"]

    used = [lab for lab in order if any(k[0] == lab for k in table)]
    ps = sorted({k[1] for k in table})
    ns = [k[2] for k in table]
    rates = [rate(e, c, k[1]) for k, e in table.items() for _, c, _, _ in SOURCES if c in e]
    errors = [error(e, c) for e in table.values() for _, c, _, _ in SOURCES[1:] if c in e]

    entries = [(lab, "with lines lw 3 lc rgb '%s'" % styles[lab][0]) for lab in used]
    present = [s for s in SOURCES if any(s[1] in e for e in table.values())]
    entries += [(name, "with linespoints lw 2 %s pt %d ps 1.3 lc rgb 'black'" % (dt, pt))
                for name, _, dt, pt in present]
    kcols = min(len(entries), 6)
    kh = key_strip_height(len(entries), kcols)
    title = (ctx["title"]("Predicted vs. measured: rate from the times (top), "
                          "error of the predicted time (bottom)") + "\n" + context_line(with_pred))
    cells = panel_grid(len(ps), 0.085, 0.985, kh + 0.085, panels_top(title), 0.085, 0.14)
    script.add("set multiplot title %s noenhanced font ',14'" % gp_str(title))
    elo, ehi = lin_range(errors + [0.0], 0.12)
    script.add("set grid lc rgb '#b0b0b0' lw 1 dt 3", "unset key")
    for p, (l, r, b, t) in zip(ps, cells):
        split = b + 0.38 * (t - b)
        script.add(*x_axis(ns, tick_labels=False))
        script.add(*margins((l, r, split + 0.012, t)))
        script.add("set title %s" % gp_str("p = %s" % fmt(p)),
                   "set yrange [0:%r]" % (max(rates) * 1.1), "set format y '%.0f'",
                   "set ytics autofreq",
                   "unset xlabel", "set ylabel 'MFLOPS per core'")
        parts = []
        for lab in used:
            colour = styles[lab][0]
            for _, col, dt, pt in SOURCES:
                line = sorted((k[2], rate(e, col, p)) for k, e in table.items()
                              if k[0] == lab and k[1] == p and col in e)
                if line:
                    parts.append("%s using 1:2 with linespoints lw 2 %s pt %d ps 1.3 lc rgb '%s' notitle"
                                 % (script.data(line), dt, pt, colour))
        script.add(plot_cmd(parts))
        script.add(*x_axis(ns))
        script.add(*margins((l, r, b, split - 0.012)))
        script.add("unset title", "set yrange [%r:%r]" % (elo, ehi), "set format y '%g'",
                   "set ytics %r" % nice_step((ehi - elo) / 4.0),
                   n_label(with_pred), "set ylabel 'time error (%)'",
                   "set arrow 1 from graph 0, first 0 to graph 1, first 0 nohead lc rgb '#555555' lw 1")
        parts = []
        for lab in used:
            colour = styles[lab][0]
            for _, col, dt, pt in SOURCES[1:]:
                line = sorted((k[2], error(e, col)) for k, e in table.items()
                              if k[0] == lab and k[1] == p and col in e)
                if line:
                    parts.append("%s using 1:2 with linespoints lw 2 %s pt %d ps 1.3 lc rgb '%s' notitle"
                                 % (script.data(line), dt, pt, colour))
        script.add(plot_cmd(parts))
        script.add("unset arrow 1")
    key_panel(script, entries, kh, kcols)
    script.add("unset multiplot")
    return script


def plot_pdgemm_vs_lb(ctx, rows, script):
    """PDGEMM MFLOPS/proc against lb, one line per (p, n) (Abb. 2.21/2.25)."""
    good = [r for r in ok_rows(rows, "p", "n", "lb", "mflops_per_proc")
            if field(r, "algo") == "pdgemm"]
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
    extra_cols = [c for c in ("grid", "nb", "threads")
                  if any(len({field(r, c) for r in good
                              if (r["p"], r["n"]) == pn}) > 1
                         for pn in {(r["p"], r["n"]) for r in good})]
    groups = {}
    for row in good:
        key = (num(row["p"]), num(row["n"])) + tuple(sort_token(field(row, c)) for c in extra_cols)
        name = "p = %s, n = %s" % (fmt(num(row["p"])), fmt(num(row["n"])))
        name += "".join(" %s %s" % (c, field(row, c)) for c in extra_cols if field(row, c))
        groups.setdefault((key, name), {}).setdefault(num(row["lb"]), []).append(
            num(row["mflops_per_proc"]))
    ordered = sorted(groups)
    ymax = max(statistics.median(v) for g in groups.values() for v in g.values())
    script.add("set title %s noenhanced font ',14'" % gp_str(
        ctx["title"]("PDGEMM: MFLOPS per core against the PBLAS logical block size lb")
        + "\n" + context_line(good, ["nb = " + ", ".join(sorted({field(r, 'nb') for r in good if field(r, 'nb')}))]
                              if any(field(r, "nb") for r in good) else None)))
    script.add(*x_axis(lbs, log_ratio=16.0))
    script.add("set yrange [0:%r]" % (ymax * 1.1), "set format y '%.0f'",
               "set xlabel 'logical block size lb (ScaLAPACK default 32)'",
               "set ylabel 'MFLOPS per core'", "set grid lc rgb '#b0b0b0' lw 1 dt 3",
               "set key outside right top vertical reverse Left box lc rgb '#bbbbbb' spacing 1.2 samplen 3",
               "set lmargin 11", "set bmargin 5")
    parts = []
    for i, (key, name) in enumerate(ordered):
        line = sorted((lb, statistics.median(v)) for lb, v in groups[(key, name)].items())
        parts.append("%s using 1:2 with linespoints lw 2 pt %d ps 1.4 lc rgb '%s' title %s noenhanced"
                     % (script.data(line), POINTS[i % len(POINTS)], COLOURS[i % len(COLOURS)],
                        gp_str(name)))
    script.add(plot_cmd(parts))
    return script


def plot_regret(ctx, rows, script):
    """Regret of --algo auto per (p, n): t of the picked run / fastest measured
    t among all ok rows of the same problem (p, n, m, k)  (SPEC 6)."""
    good = ok_rows(rows, "p", "m", "n", "k", "t_median")
    auto = [r for r in good if field(r, "selected_by").startswith("auto")]
    if not auto:
        if any(field(r, "selected_by").startswith("auto") for r in rows):
            note("%s: auto rows exist but none has status ok and a time: no regret plot" % ctx["path"])
        else:
            note("%s: no rows chosen by --algo auto: no regret plot" % ctx["path"])
        return None

    def problem(row):
        return tuple(num(row[c]) for c in ("p", "n", "m", "k"))

    # Full labels, not bare algo names: "picked ring, best ring" would hide
    # that the best was ring with a local Strassen level.
    labels, _ = make_labels(good)
    best = {}
    for row in good:
        t = num(row["t_median"])
        if t > 0 and (problem(row) not in best or t < best[problem(row)][0]):
            best[problem(row)] = (t, labels[id(row)])
    variants = sorted({field(r, "selected_by") for r in auto})
    bars = {}  # (problem, variant) -> list of auto rows
    for row in auto:
        if num(row["t_median"]) > 0:
            bars.setdefault((problem(row), field(row, "selected_by")), []).append(row)
    problems = sorted({b[0] for b in bars})
    lonely = [pr for pr in problems
              if sum(1 for r in good if problem(r) == pr) == sum(len(bars.get((pr, v), [])) for v in variants)]
    if lonely:
        note("%s: %d problem(s) have only the auto run measured, so their regret is 1 by "
             "construction" % (ctx["path"], len(lonely)))
    width = 0.8 / len(variants)
    regrets = []
    script.add("set title %s noenhanced font ',14'" % gp_str(
        ctx["title"]("Regret of --algo auto: time of the picked algorithm / fastest measured")
        + "\n" + context_line(auto)))
    parts = []
    texts = []
    for vi, variant in enumerate(variants):
        pts = []
        for xi, pr in enumerate(problems):
            grp = bars.get((pr, variant))
            if not grp:
                continue
            t = statistics.median(num(r["t_median"]) for r in grp)
            regret = t / best[pr][0]
            regrets.append(regret)
            x = xi + 1 - 0.4 + width * (vi + 0.5)
            pts.append((x, regret, x - width * 0.45, x + width * 0.45, 1.0, regret))
            picked = "/".join(sorted({labels[id(r)] for r in grp}))
            text = "%.3f" % regret
            if len(problems) * len(variants) <= 12:
                text += "\npicked %s" % picked
                if best[pr][1] != picked:
                    text += "\nbest %s" % best[pr][1]
                elif regret > 1.0005:
                    text += "\nbest: another run of it"
            texts.append((x, regret, text))
        if pts:
            parts.append("%s using 1:2:3:4:5:6 with boxxyerror fs solid 0.75 border lc rgb '%s' "
                         "lc rgb '%s' title %s noenhanced"
                         % (script.data(pts), COLOURS[vi % len(COLOURS)], COLOURS[vi % len(COLOURS)],
                            gp_str(variant)))
    top = max(regrets + [1.0])
    span = max(top - 1.0, 0.02)
    for i, (x, y, text) in enumerate(texts, 1):
        # A multi-line label hangs down from its anchor: lift it by its
        # number of lines so that the last line sits just above the bar.
        script.add("set label %d %s at %r, %r center offset 0, %.1f font ',10' noenhanced"
                   % (i, gp_str(text), x, y, 0.7 + text.count("\n")))
    square = all(pr[1] == pr[2] == pr[3] for pr in problems)
    ticks = []
    for xi, pr in enumerate(problems):
        size = "n = %s" % fmt(pr[1]) if square else "%sx%sx%s" % (fmt(pr[2]), fmt(pr[1]), fmt(pr[3]))
        ticks.append("%s %d" % (gp_str("p = %s\n%s" % (fmt(pr[0]), size)), xi + 1))
    script.add("set xrange [0.4:%r]" % (len(problems) + 0.6),
               "set xtics (" + ", ".join(ticks) + ") noenhanced nomirror",
               # Regret starts at 1 (= the best measured); bars rise from there.
               "set yrange [%r:%r]" % (1.0 - span * 0.05, 1.0 + span * 1.45),
               "set ytics nomirror", "set format y '%.2f'",
               "set xlabel %s" % gp_str("problem (p = MPI ranks, "
                                        + ("n = matrix size)" if square else "m x n x k)")),
               "set ylabel 'regret = t(picked) / t(fastest measured)'",
               "set grid ytics lc rgb '#b0b0b0' lw 1 dt 3",
               "set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead lc rgb '#333333' lw 1.5",
               "set xlabel offset 0, -1",
               "set key outside below center horizontal reverse Left box lc rgb '#bbbbbb'",
               "set lmargin 11", "set bmargin 8")
    script.add(plot_cmd(parts))
    return script


def plot_dgemm_profile(ctx, rows, script):
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
    ymax_all = max(max(num(r["mflops"]) for r in good),
                   max((num(field(r, "mflops_max")) for r in good
                        if num(field(r, "mflops_max")) is not None), default=0.0))
    shape_text = "; ".join("m = %s, n = %s" % (fmt(m), fmt(n)) for m, n in shapes)
    extra = [shape_text]
    if x is not None:
        extra.append("x = %s" % fmt(x))
    script.add("set title %s noenhanced font ',14'" % gp_str(
        ctx["title"]("DGEMM profile: MFLOPS against the inner dimension k (eq. 2.26)")
        + "\n" + context_line(good, extra)))
    klo, khi = lin_range(ks, 0.03)
    script.add("set xrange [%r:%r]" % (klo, khi), "set yrange [0:%r]" % (ymax_all * 1.08),
               "set format y '%.0f'", "set xlabel 'k (DGEMM inner dimension = candidate lb)'",
               "set ylabel 'MFLOPS (one DGEMM call)'", "set grid lc rgb '#b0b0b0' lw 1 dt 3",
               "set key outside below center horizontal maxcols 3 reverse Left box "
               "lc rgb '#bbbbbb' samplen 3 width 2",
               "set lmargin 11", "set bmargin 9")
    parts = []
    for i, (m, n) in enumerate(shapes):
        mine = sorted((num(r["k"]), num(r["mflops"]), num(field(r, "mflops_max")))
                      for r in good if (num(r["m"]), num(r["n"])) == (m, n))
        colour = COLOURS[i % len(COLOURS)]
        suffix = "" if len(shapes) == 1 else " (m = %s, n = %s)" % (fmt(m), fmt(n))
        best_line = [(k, mx) for k, _, mx in mine if mx is not None]
        if best_line:
            parts.append("%s using 1:2 with lines lw 1 lc rgb '#aaaaaa' title %s noenhanced"
                         % (script.data(best_line), gp_str("best repetition" + suffix)))
        parts.append("%s using 1:2 with linespoints lw 2 pt 7 ps 0.8 lc rgb '%s' title %s noenhanced"
                     % (script.data([(k, y) for k, y, _ in mine]), colour,
                        gp_str("median MFLOPS" + suffix)))
        smooth = sorted((num(r["k"]), num(field(r, "mflops_smooth"))) for r in good
                        if (num(r["m"]), num(r["n"])) == (m, n) and num(field(r, "mflops_smooth")) is not None)
        if smooth:
            parts.append("%s using 1:2 with lines lw 1.5 dt 3 lc rgb '%s' title %s noenhanced"
                         % (script.data(smooth), colour, gp_str("running median of 3 (the rule's curve)" + suffix)))
        peak_k, peak = max(((k, y) for k, y, _ in mine), key=lambda kv: kv[1])
        parts.append("%s using 1:2 with points pt 6 ps 2.5 lw 2 lc rgb '%s' title %s noenhanced"
                     % (script.data([(peak_k, peak)]), colour,
                        gp_str("maximum %s MFLOPS at k = %s" % (fmt(round(peak)), fmt(peak_k)))))
        if x is not None:
            # The rule's threshold: x times the smoothed maximum where the
            # CSV has the smoothed curve, else x times the maximum point.
            base, what = (max(y for _, y in smooth), "smoothed max") if smooth else (peak, "max")
            level = x * base
            # Drawn as a data series (not an arrow) so that it is in the key.
            # Red against the blue profile; with several shapes, each
            # shape's line takes that shape's colour.
            parts.append("%s using 1:2 with lines lw 2 dt 2 lc rgb '%s' title %s noenhanced"
                         % (script.data([(klo, level), (khi, level)]),
                            "#d62728" if len(shapes) == 1 else colour,
                            gp_str("%s %% line: x · %s = %s × %s = %s MFLOPS"
                                   % (fmt(x * 100), what, fmt(x), fmt(round(base)), fmt(round(level))))))
    if rule_lb is not None and rule_lb != lb:
        parts.append("%s using 1:2 with lines lw 2 dt 2 lc rgb '#9467bd' title %s noenhanced"
                     % (script.data([(rule_lb, 0.0), (rule_lb, ymax_all * 1.08)]),
                        gp_str("rule's lb (eq. 2.26) = %s" % fmt(rule_lb))))
    if lb is not None:
        parts.append("%s using 1:2 with lines lw 2 dt 4 lc rgb '#2ca02c' title %s noenhanced"
                     % (script.data([(lb, 0.0), (lb, ymax_all * 1.08)]),
                        gp_str("chosen lb = %s" % fmt(lb)
                               + (" (PDGEMM check)" if rule_lb is not None and rule_lb != lb else ""))))
        script.add("set label 1 %s at %r, graph 0.06 left offset 0.8, 0 font ',12' tc rgb '#2ca02c' noenhanced"
                   % (gp_str("lb = %s" % fmt(lb)), lb))
    script.add(plot_cmd(parts))
    return script


RUN_PLOTS = (("mflops-vs-n", plot_mflops_vs_n),
             ("model-vs-measured", plot_model_vs_measured),
             ("pdgemm-vs-lb", plot_pdgemm_vs_lb),
             ("regret", plot_regret))
PROFILE_PLOTS = (("dgemm-profile", plot_dgemm_profile),)


# --------------------------------------------------------------------------
# Rendering

def choose_terminal(gnuplot):
    """pngcairo if this gnuplot has it (gnuplot-nox does), else libgd png."""
    probe = subprocess.run([gnuplot, "-e", "print GPVAL_TERMINALS"],
                           capture_output=True, text=True)
    names = (probe.stdout + " " + probe.stderr).split()
    if "pngcairo" in names:
        return "set terminal pngcairo %s enhanced font ',11'" % CANVAS
    note("gnuplot has no pngcairo terminal; using the libgd png terminal")
    return "set terminal png %s enhanced font ',11'" % CANVAS


def render(gnuplot, terminal, script, out_path):
    """Run gnuplot on script, writing a temporary PNG next to out_path and
    renaming it into place only when it is a complete PNG, so a reader never
    sees a half-written file.  Returns an error text or None."""
    out_dir = os.path.dirname(out_path) or "."
    fd, tmp_png = tempfile.mkstemp(prefix="." + os.path.basename(out_path) + ".",
                                   suffix=".tmp", dir=out_dir)
    os.close(fd)
    try:
        body = ["set encoding utf8", terminal, "set output " + gp_path(tmp_png)]
        body += script.lines + ["unset output"]
        gp_file = os.path.join(script.tmpdir, script.name + ".gp")
        with open(gp_file, "w", encoding="utf-8") as handle:
            handle.write("\n".join(body) + "\n")
        run = subprocess.run([gnuplot, gp_file], capture_output=True, text=True)
        messages = run.stderr.strip()
        if run.returncode != 0:
            return "gnuplot failed (exit %d) on %s:\n%s" % (run.returncode, gp_file, messages)
        if messages:
            for line in messages.splitlines():
                print("gnuplot: " + line, file=sys.stderr)
        with open(tmp_png, "rb") as handle:
            if handle.read(8) != PNG_MAGIC:
                return "gnuplot wrote no valid PNG for %s" % out_path
        os.chmod(tmp_png, 0o644)  # mkstemp makes it 0600
        os.replace(tmp_png, out_path)
        tmp_png = None
        return None
    finally:
        if tmp_png and os.path.exists(tmp_png):
            os.unlink(tmp_png)


def safe_stem(path):
    stem = os.path.splitext(os.path.basename(path))[0]
    return re.sub(r"[^A-Za-z0-9._+-]", "_", stem) or "data"


def main(argv=None):
    parser = argparse.ArgumentParser(
        description="Plot mmbench results CSVs and DGEMM profile CSVs as PNG files (gnuplot).",
        epilog="With several input files every PNG name carries its file's stem. "
               "Exit status: 0 plots written (or none supported, with a note), "
               "1 gnuplot missing or failed, 2 bad input.")
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
            kind, rows = read_table(path)
            tables.append((path, kind, rows))
    except InputError as exc:
        print("error: %s" % exc, file=sys.stderr)
        return EXIT_INPUT
    try:
        os.makedirs(args.out, exist_ok=True)
    except OSError as exc:
        print("error: cannot create output folder %s: %s" % (args.out, exc), file=sys.stderr)
        return EXIT_INPUT
    gnuplot = shutil.which("gnuplot")
    if not gnuplot:
        print("error: gnuplot not found on PATH (Debian: apt-get install gnuplot-nox)",
              file=sys.stderr)
        return EXIT_GNUPLOT
    terminal = choose_terminal(gnuplot)

    suffixes = {}
    for path, _, _ in tables:
        suffix = "-" + safe_stem(path) if len(tables) > 1 else ""
        while suffix in suffixes.values():  # same stem in two folders
            suffix += "_"
        suffixes[path] = suffix

    def titler(prefix):
        # About 100 characters fit across 1200 px at the title font; a
        # longer prefix + title is split rather than clipped at the edges.
        def title(what):
            if not prefix:
                return what
            return prefix + (":\n" if len(prefix) + len(what) > 95 else ": ") + what
        return title

    written = 0
    failed = 0
    with tempfile.TemporaryDirectory(prefix="mmbench-plot-") as tmpdir:
        for index, (path, kind, rows) in enumerate(tables):
            if not rows:
                note("%s has a header but no data rows: nothing to plot" % path)
                continue
            ctx = {"path": path, "title": titler(args.title_prefix)}
            for name, builder in (RUN_PLOTS if kind == "run" else PROFILE_PLOTS):
                script = builder(ctx, rows, Script(tmpdir, "%d-%s" % (index, name)))
                if script is None:
                    continue
                out_path = os.path.join(args.out, name + suffixes[path] + ".png")
                error = render(gnuplot, terminal, script, out_path)
                if error:
                    print("error: " + error, file=sys.stderr)
                    failed += 1
                else:
                    print(out_path)
                    written += 1
    if failed:
        return EXIT_GNUPLOT
    if written == 0:
        note("the data supports no plot; no PNG written")
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
