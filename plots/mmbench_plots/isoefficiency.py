"""isoefficiency: the smallest n reaching efficiency E against p, from
`mmbench predict --isoefficiency E --csv` (docs/method.md, section 9.1)."""

from .common import (GRID, bottom_legend, context_line, field, new_figure, note, num, panel_shape, set_x_axis,
                     sort_token, style_for, title_height)

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
