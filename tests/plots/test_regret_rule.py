#!/usr/bin/env python3
"""The regret rule of plots/mmbench_plot.py on small synthetic CSVs
(tests/plots/data/make_synthetic.py).  Needs no matplotlib: the rule is
computed without drawing.  Exit 0 = pass, 1 = fail."""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "plots"))
import mmbench_plot as mp  # noqa: E402

failures = []


def check(what, cond, detail=""):
    print(("ok:   " if cond else "FAIL: ") + what + ("" if cond else " -- " + detail))
    if not cond:
        failures.append(what)


def close(a, b):
    return a is not None and abs(a - b) < 1e-9


# --- run CSV: picks against every ok row on the same cores and (m, n, k) ---
kind, columns, rows = mp.read_table(os.path.join(HERE, "data", "regret-cores-synthetic.csv"))
check("regret-cores-synthetic.csv is a run CSV", kind == "run", kind)
bars, problems, variants, lonely = mp.regret_of_run_rows(rows, columns)
check("problems are (cores, m, n, k) of the picks only",
      problems == [(1.0, 1024.0, 1024.0, 1024.0), (2.0, 1024.0, 1024.0, 1024.0), (4.0, 1024.0, 1024.0, 1024.0)],
      repr(problems))
check("one bar colour per selection rule", variants == ["auto-paper", "auto-refined"], repr(variants))
check("no lonely problem", lonely == [], repr(lonely))

one = bars.get(((1.0, 1024.0, 1024.0, 1024.0), "auto-refined"))
check("1 core: 0.052 / 0.048 (best ring, the 1-core rows only)",
      one is not None and close(one["regret"], 0.052 / 0.048) and one["best"].startswith("ring"), repr(one))

two = bars.get(((2.0, 1024.0, 1024.0, 1024.0), "auto-refined"))
# p = 1 with 2 threads counts as 2 cores: compared with the p = 2 rows (tpmm
# 0.025 s), not with the 1-core rows; the failed 0.001 s row and the k = 512
# row (0.012 s) are other problems or not ok.
check("2 cores: the dgemm peer (p = 1, threads = 2) meets the p = 2 rows: 0.027 / 0.025",
      two is not None and close(two["regret"], 0.027 / 0.025) and two["best"].startswith("tpmm"), repr(two))
check("2 cores: the pick is labelled with its local level",
      two is not None and "dgemm" in two["picked"] and "L=1" in two["picked"], repr(two))

four = bars.get(((4.0, 1024.0, 1024.0, 1024.0), "auto-paper"))
check("4 cores: p = 2 x 2 threads and p = 1 x 4 threads meet: 0.0143 / 0.013",
      four is not None and close(four["regret"], 0.0143 / 0.013), repr(four))
check("no confidence interval in a run CSV without the columns",
      all(b["lo"] is None and b["hi"] is None for b in bars.values()))

# The old rule (grouped by p) would have scored the 2-core pick 1.0 against
# the slower 1-core rows of p = 1; make sure the data would catch that.
p1 = [r for r in rows if r["p"] == "1" and r["status"] == "ok" and r["k"] == "1024"]
check("the data distinguishes the rules (grouping by p gives another best)",
      min(float(r["t_median"]) for r in p1) != 0.025)

# A CSV with the interval columns: they become the bar's lo / hi.
rows_ci = [dict(r, regret_ci_lo="1.01", regret_ci_hi="1.2") if r["selected_by"] == "auto-paper" else dict(r)
           for r in rows]
bars_ci, _, _, _ = mp.regret_of_run_rows(rows_ci, set(columns) | {"regret_ci_lo", "regret_ci_hi"})
b = bars_ci[((4.0, 1024.0, 1024.0, 1024.0), "auto-paper")]
check("run CSV with regret_ci_lo/hi: interval kept", close(b["lo"], 1.01) and close(b["hi"], 1.2), repr(b))
b = bars_ci[((2.0, 1024.0, 1024.0, 1024.0), "auto-refined")]
check("run CSV with regret_ci_lo/hi: empty cells give no interval", b["lo"] is None and b["hi"] is None, repr(b))

# --- validation CSV: its own regret, cores column, optional interval ---
kind, columns, rows = mp.read_table(os.path.join(HERE, "data", "validate-ci-synthetic.csv"))
check("validate-ci-synthetic.csv is a validation CSV", kind == "validate", kind)
bars, problems, variants = mp.regret_of_validate_rows(rows, columns)
check("validation: the problem without a measured pick is left out", len(problems) == 3, repr(problems))
b = bars[((2.0, 1024.0, 1024.0, 1024.0), "auto-refined")]
check("validation: regret and interval", close(b["regret"], 1.08) and close(b["lo"], 1.02) and close(b["hi"], 1.15),
      repr(b))
b = bars[((2.0, 4096.0, 4096.0, 4096.0), "auto-refined")]
check("validation: empty interval cells give none", b["lo"] is None and b["hi"] is None, repr(b))
no_ci = [{k: v for k, v in r.items() if k not in ("regret_ci_lo", "regret_ci_hi", "cores")} for r in rows]
bars, problems, _ = mp.regret_of_validate_rows(no_ci, set(columns) - {"regret_ci_lo", "regret_ci_hi", "cores"})
check("validation without cores / interval columns: grouped by p, no interval",
      problems[0][0] == 2.0 and all(x["lo"] is None and x["hi"] is None for x in bars.values()), repr(bars))

if failures:
    print("%d check(s) failed" % len(failures))
    sys.exit(1)
print("all regret-rule checks passed")
