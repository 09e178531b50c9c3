"""Validation CSVs, `<csv stem>-validate.csv`, written by `mmbench run
--validate` (docs/csv-columns.md, "Validation"): one row per problem."""

from .table import Kind, read_table

VALIDATE_COLUMNS = (
    "p", "cores", "m", "n", "k", "candidates", "measured", "rounds", "best", "t_best", "pick", "t_pick",
    "regret", "regret_ci_lo", "regret_ci_hi", "model", "median_abs_err_paper", "p90_abs_err_paper",
    "median_abs_err_refined", "p90_abs_err_refined", "mem_pred_pick_mb", "mem_hwm_pick_mb", "max_abs_mem_err",
    "runner_up_ratio")

VALIDATE = Kind("validate", "a validation CSV (run --validate)", "docs/csv-columns.md",
                key=("p", "m", "n", "k", "pick", "best", "regret"),
                all_columns=VALIDATE_COLUMNS,
                numeric=[c for c in VALIDATE_COLUMNS if c not in ("best", "pick", "model")])


def validation_csv_of(path):
    """The validation CSV `run --validate` writes beside the results CSV
    `path`: <stem>-validate.csv, the stem being the path without ".csv"
    (as mmbench's validation_stem)."""
    stem = path[:-4] if len(path) > 4 and path.endswith(".csv") else path
    return stem + "-validate.csv"


def read_validate(path):
    """A validation CSV (docs/csv-columns.md, "Validation"); files from
    before the cores, interval or memory columns read too (typed rows hold
    None there). Raises ValueError naming the file when it is none."""
    return read_table(path, [VALIDATE])
