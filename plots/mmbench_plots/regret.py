"""regret: the regret of --algo auto per problem, as mmbench wrote it in the
validation CSV (run --validate); from a results CSV, read from the
<stem>-validate.csv beside it."""

import os

from mmbench_results import validation_csv_of

from .common import (COLOURS, GRID, LEGEND_FRAME, InputError, field, fmt, new_figure, note, num, read_table,
                     title_height)

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
