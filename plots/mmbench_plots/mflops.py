"""mflops-vs-n: MFLOPS per core against n, per label and cores (Abb. 2.15),
from an `mmbench run` results CSV."""

import statistics

from .common import (GRID, bottom_legend, context_line, cores_of, field, fmt, integer_y, make_labels, n_label,
                     new_figure, note, num, ok_rows, panel_shape, set_x_axis, style_for, title_height)

NOISY_CV = 0.05  # core/stats/paired_stats.hpp: kNoisyCoefficientOfVariation


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
