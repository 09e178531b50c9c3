"""model-vs-measured: the predicted against the measured times of an
`mmbench run` results CSV (Abb. 2.14)."""

import os
import statistics

from .common import (GRID, bottom_legend, context_line, cores_of, field, integer_y, make_labels, n_label,
                     new_figure, note, num, ok_rows, panel_shape, set_x_axis, style_for, title_height)
from .mflops import cores_title


# A refined prediction further off than this is said in words, not only drawn:
# beyond the few per cent of run-to-run noise, it is the model or the profile.
FAR_OFF_PERCENT = 25.0

SOURCES = (("measured", "t_median", "-", "o", True),
           ("paper model", "pred_paper", "--", "^", False),
           ("refined model", "pred_refined", "-.", "s", False))


def far_points(far):
    """The n of the far-off points, and where a point's rounds spread beyond
    the noise threshold (the CSV's noisy column) their range beside the
    prediction: "1024, 2048; noisy at n = 1024: rounds 0.0129-0.024 s,
    predicted 0.0122 s"."""
    ns = ", ".join("%d" % n for n, _, _ in far)
    noisy = ["n = %d: rounds %.3g-%.3g s, predicted %.3g s" % ((n,) + e["range"] + (e["pred_refined"],))
             for n, _, e in far if e.get("noisy") and "range" in e]
    return ns + ("; noisy at " + "; ".join(noisy) if noisy else "")


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
        # The rounds' spread, for the note on a far-off point: a median of
        # three rounds 0.013, 0.020 and 0.024 s says little about the model.
        lows = [num(field(r, "t_min")) for r in grp if (num(field(r, "t_min")) or 0) > 0]
        highs = [num(field(r, "t_max")) for r in grp if (num(field(r, "t_max")) or 0) > 0]
        if lows and highs:
            entry["range"] = (min(lows), max(highs))
        entry["noisy"] = any(field(r, "noisy") == "yes" for r in grp)
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
            far = sorted((k[2], error(e, "pred_refined"), e) for k, e in table.items()
                         if k[0] == lab and k[1] == p and "pred_refined" in e
                         and abs(error(e, "pred_refined")) > FAR_OFF_PERCENT)
            if far:
                errs = ["%+.0f %%" % x for x in sorted(x for _, x, _ in far)]
                span = errs[0] if errs[0] == errs[-1] else errs[0] + " to " + errs[-1]
                note("%s: the refined model is off by %s for %s at p = %g (n = %s), beyond %.0f %%: "
                     "see model-vs-measured.png" % (os.path.basename(ctx["path"]), span, lab, p,
                                                    far_points(far), FAR_OFF_PERCENT))

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
