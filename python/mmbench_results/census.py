"""PDGEMM call censuses: the CSV libmmbench-dispatch.so appends to with
MMBENCH_DISPATCH_LOG=FILE (docs/dispatch.md, "The census"); in results/ they
are named *census*.csv.

Four headers exist in results/, each the one before plus columns at the
end: the first 24 columns (up to t_measured); then t_prepare and t_convert;
then t_decide, t_plan, t_matrices and pooled_mib; then today's writer's
(src/dispatch/census.cpp, census_columns), which adds t_pred_prepare. Typed
rows always have all 31 (None where the file's header has not).
"""

import glob
import os

from .table import Kind, read_table

CENSUS_COLUMNS = ("call", "transa", "transb", "m", "n", "k", "alpha", "beta", "ia", "ja", "ib", "jb", "ic", "jc",
                  "grid", "blocking_a", "blocking_b", "blocking_c", "choice", "reason", "cached", "t_pred",
                  "t_pred_scalapack", "t_measured", "t_prepare", "t_convert", "t_decide", "t_plan", "t_matrices",
                  "pooled_mib", "t_pred_prepare")

CENSUS = Kind("census", "a PDGEMM census", "docs/dispatch.md",
              key=("call", "transa", "transb", "m", "n", "k", "grid", "choice", "reason", "t_measured"),
              all_columns=CENSUS_COLUMNS,
              numeric=[c for c in CENSUS_COLUMNS
                       if c not in ("transa", "transb", "grid", "blocking_a", "blocking_b", "blocking_c", "choice",
                                    "reason", "cached")])


def read_census(path):
    """A PDGEMM call census (docs/dispatch.md, "The census"), any of the four
    headers. Raises ValueError naming the file when it is none."""
    return read_table(path, [CENSUS])


def census_files(folder):
    """Every census CSV under folder (recursively), sorted: *census*.csv."""
    return sorted(glob.glob(os.path.join(folder, "**", "*census*.csv"), recursive=True))
