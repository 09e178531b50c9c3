"""census: where the time of a PDGEMM call census went, and the model
against the measurement per call (docs/dispatch.md)."""

from .common import COLOURS, GRID, LEGEND_FRAME, bottom_legend, field, new_figure, note, num, title_height

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
