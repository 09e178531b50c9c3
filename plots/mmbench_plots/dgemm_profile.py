"""dgemm-profile: DGEMM MFLOPS against k, the chosen lb and the x * max line
of a DGEMM profile CSV from `mmbench tune` (Abb. 2.24)."""

import statistics

from .common import (COLOURS, GRID, bottom_legend, context_line, field, fmt, integer_y, new_figure, note, num,
                     title_height)

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
