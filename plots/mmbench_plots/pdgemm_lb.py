"""pdgemm-vs-lb: PDGEMM MFLOPS per core against the logical block size lb,
from an `mmbench run` results CSV (Abb. 2.21/2.25)."""

import statistics

from .common import (COLOURS, GRID, LEGEND_FRAME, MARKERS, context_line, field, fmt, integer_y, new_figure, note,
                     num, ok_rows, set_x_axis, sort_token, title_height)

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
