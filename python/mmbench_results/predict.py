"""What `mmbench predict --csv` writes (docs/csv-columns.md): the ranked
candidates, or with --isoefficiency E the isoefficiency points."""

from .table import Kind, read_table

PREDICT_COLUMNS = ("p", "m", "n", "k", "rank", "algo", "schema", "recursions", "cutoff", "grid", "nb", "lb",
                   "threads", "model", "t_pred", "mflops_per_proc", "pred_paper", "pred_refined", "comm_paper",
                   "comp_paper", "comm_refined", "comp_refined", "label", "mem_pred_mb", "mem_pred_parts")
PREDICT = Kind("predict", "an `mmbench predict` CSV", "docs/csv-columns.md",
               key=("p", "m", "n", "k", "rank", "algo", "model", "t_pred"),
               all_columns=PREDICT_COLUMNS,
               numeric=[c for c in PREDICT_COLUMNS
                        if c not in ("algo", "schema", "cutoff", "grid", "model", "label", "mem_pred_parts")])

ISO_COLUMNS = ("isoefficiency", "model", "threads", "p", "algo", "reached", "n_iso", "n", "efficiency", "t_pred",
               "mflops_per_proc", "mem_pred_mb", "best_member", "n_max", "note")
ISOEFFICIENCY = Kind("isoefficiency", "an isoefficiency CSV (predict --isoefficiency)", "docs/csv-columns.md",
                     key=("isoefficiency", "p", "algo", "reached", "n_iso", "n"),
                     all_columns=ISO_COLUMNS,
                     numeric=[c for c in ISO_COLUMNS if c not in ("model", "algo", "reached", "best_member", "note")])


def read_predict(path):
    """An `mmbench predict --csv` file (docs/csv-columns.md, "mmbench
    predict"): one row per ranked candidate and problem. Raises ValueError
    naming the file when it is none."""
    return read_table(path, [PREDICT])


def read_isoefficiency(path):
    """An `mmbench predict --isoefficiency E --csv` file (docs/csv-columns.md,
    "mmbench predict --isoefficiency E"): one row per algorithm and p. Raises
    ValueError naming the file when it is none."""
    return read_table(path, [ISOEFFICIENCY])
