"""What every plot shares: colours, markers, the reading of a file into
rows of text, labels and titles, axes and legends (docs/method.md, section 10).

Rows are dicts of stripped strings as written in the CSV ('' for empty or
absent fields, mmbench_results' text_rows); num() reads a number out of one.
"""

import math
import re
import sys

from mmbench_results import num, read_any

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
# Reading (mmbench_results does it; this keeps the plots' error type)

def read_table(path):
    """Return (kind, columns, rows) with kind 'run', 'profile', 'validate',
    'isoefficiency' or 'census'; rows are dicts of stripped strings ('' for
    empty or absent fields). Raises InputError naming the file."""
    try:
        table = read_any(path)
    except ValueError as exc:
        raise InputError(str(exc)) from exc
    return table.kind.name, table.columns, table.text_rows


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


def titler(prefix):
    """About 100 characters fit across 1200 px at the title font; a longer
    prefix + title is split rather than clipped at the edges."""
    def title(what):
        if not prefix:
            return what
        return prefix + (":\n" if len(prefix) + len(what) > 95 else ": ") + what
    return title
