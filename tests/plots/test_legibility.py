#!/usr/bin/env python3
"""The default plots can be read at a glance (plots/mmbench_plot.py), drawn
from the CSV a real `make run` wrote (tests/plots/data/run-default-vm.csv):

  - every legend box lies within the figure (nothing clipped at an edge);
  - one colour per algorithm, and no two legend entries drawn alike, so each
    line is told apart from the legend;
  - a refined prediction far off the measurement is said in a note, with
    the rounds' range where they spread (noisy);
  - panels are by cores used (ranks x threads): the dgemm peer's one rank of
    2 threads is not in the 1-core panel.

Exit 0 pass, 1 fail, 77 skip (no matplotlib)."""
import importlib.util
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.normpath(os.path.join(here, "..", ".."))
try:
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.colors import to_hex
except ImportError:
    # Debian's python3-matplotlib belongs to the system interpreter; a python3
    # first on PATH (pyenv, a virtualenv) may not see it: try that one once.
    system = "/usr/bin/python3"
    if not os.environ.get("MMBENCH_PLOT_REEXEC") and os.access(system, os.X_OK) \
            and os.path.realpath(sys.executable) != os.path.realpath(system):
        os.environ["MMBENCH_PLOT_REEXEC"] = "1"
        os.execv(system, [system] + sys.argv)
    print("SKIP: matplotlib not installed")
    sys.exit(77)

spec = importlib.util.spec_from_file_location("mmbench_plot", os.path.join(root, "plots", "mmbench_plot.py"))
mp = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mp)

problems = []
for csv_name, name, builder in [(c, n, b) for c in ("run-default-vm.csv", "run-default-xeon.csv")
                                for n, b in (("mflops-vs-n", mp.plot_mflops_vs_n),
                                             ("model-vs-measured", mp.plot_model_vs_measured))]:
    path = os.path.join(here, "data", csv_name)
    kind, columns, rows = mp.read_table(path)
    ctx = {"path": path, "title": mp.titler(""), "columns": columns}
    name = f"{csv_name}: {name}"
    import contextlib
    import io
    said = io.StringIO()
    with contextlib.redirect_stderr(said):
        fig = builder(ctx, rows)
    # The refined model's PDGEMM lb = 32 on one core is 42 % off in the VM's
    # run: the plotter says so in words, not only in the picture.
    if csv_name == "run-default-vm.csv" and name.endswith("model-vs-measured") and \
            "refined model is off by +4" not in said.getvalue():
        problems.append(f"{name}: no note for the refined model's +42 % at pdgemm lb=32, p = 1")
    # A far-off point whose rounds spread (noisy) is said with its range: the
    # VM's ring L=2 at p = 2, n = 1024 ran 0.110-0.161 s against 0.0783 s.
    if csv_name == "run-default-vm.csv" and name.endswith("model-vs-measured") and \
            "noisy at n = 1024: rounds 0.11-0.161 s, predicted 0.0783 s" not in said.getvalue():
        problems.append(f"{name}: the note on ring L=2 at p = 2 does not give its noisy rounds' range")
    if fig is None:
        problems.append(f"{name}: not drawn")
        continue
    FigureCanvasAgg(fig)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    width, height = fig.bbox.width, fig.bbox.height
    legends = list(fig.legends) + [ax.get_legend() for ax in fig.axes if ax.get_legend()]
    if not legends:
        problems.append(f"{name}: no legend")
    for leg in legends:
        bb = leg.get_window_extent(renderer)
        if bb.x0 < 0 or bb.y0 < 0 or bb.x1 > width or bb.y1 > height:
            problems.append(f"{name}: legend box {bb.bounds} outside the figure {width:.0f} x {height:.0f}")
    # Every legend entry whose label names an algorithm: one colour per
    # algorithm, and no two entries drawn alike.
    algos = {r.get("algo", "") for r in rows} - {""}
    colour_of = {}
    drawn = {}
    entries = 0
    for leg in legends:
        handles = getattr(leg, "legend_handles", None) or getattr(leg, "legendHandles", [])
        for handle, text in zip(handles, leg.get_texts()):
            label = text.get_text()
            algo = label.split(" ")[0]
            if algo not in algos or not hasattr(handle, "get_marker"):
                continue
            entries += 1
            colour = to_hex(handle.get_color())
            colour_of.setdefault(algo, set()).add(colour)
            style = (colour, handle.get_linestyle(), handle.get_marker())
            drawn.setdefault(style, []).append(label)
    if entries == 0:
        problems.append(f"{name}: no legend entry names an algorithm")
    owners = {}
    for algo, colours in colour_of.items():
        for colour in colours:
            owners.setdefault(colour, set()).add(algo)
    for colour, names in owners.items():
        if len(names) > 1:
            problems.append(f"{name}: algorithms {sorted(names)} share the colour {colour}")
    for style, labels in drawn.items():
        if len(labels) > 1:
            problems.append(f"{name}: {labels} drawn alike (colour {style[0]}, dash {style[1]}, marker {style[2]})")
    # Panels by cores used: a title says its cores, and no 2-thread series is
    # drawn in the 1-core panel.
    for ax in fig.axes:
        title = ax.get_title()
        if title.startswith("p = "):
            problems.append(f"{name}: panel '{title}' is by ranks, not by cores used")
        if title.startswith("1 core"):
            bad = {l.get_gid() for l in ax.get_lines() if l.get_gid() and "threads=2" in l.get_gid()}
            if bad:
                problems.append(f"{name}: 2-thread rows in the 1-core panel: {sorted(bad)}")
    print(f"{name}: {entries} legend entries for {len(colour_of)} algorithms, {len(legends)} legend(s)")
for p in problems:
    print("FAIL:", p)
sys.exit(1 if problems else 0)
