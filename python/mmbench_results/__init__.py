"""mmbench_results: one reader per file kind mmbench writes (standard library only).

    import sys, os
    sys.path.insert(0, os.path.join(<repository>, "python"))
    from mmbench_results import read_results

    table = read_results("results/x.csv")
    table.rows       # typed: numbers as int/float, None where empty or absent
    table.text_rows  # the cells as written (stripped), the file's columns only

Every reader returns a Table (table.py) and raises ValueError naming the file
and the problem for a file it cannot read. Which doc defines the columns:
results, validate, tune (DGEMM profile, lb check, kernel model), predict
(predict, isoefficiency): docs/csv-columns.md; census: docs/dispatch.md;
results sidecar: docs/json-schema.md; profile: docs/machine-profile.md.
The benchmark scripts' own CSVs (scripts/bench/dispatch.sh, preload_lb.sh)
are read with read_plain and get their machine sidecar from bench_sidecar.py.
"""

from .census import CENSUS, CENSUS_COLUMNS, census_files, read_census
from .predict import ISOEFFICIENCY, PREDICT, read_isoefficiency, read_predict
from .profile import read_profile, require
from .results import (RESULTS, RESULTS_COLUMNS, RESULTS_HEADER_VERSIONS, load_json, read_results, read_sidecar,
                      results_schema_version, sidecar_path)
from .table import Table, num, read_plain, read_table, to_number
from .tune import DGEMM_PROFILE, KERNEL_MODEL, LB_CHECK, read_dgemm_profile, read_kernel_model, read_lb_check
from .validate import VALIDATE, read_validate, validation_csv_of

# The kinds the plots draw, in the order a file is tried against them.
PLOT_KINDS = (RESULTS, DGEMM_PROFILE, VALIDATE, ISOEFFICIENCY, CENSUS)


def read_any(path, kinds=PLOT_KINDS):
    """A CSV of whichever of kinds its header fits first (table.kind says
    which). Raises ValueError naming the file and what each kind lacks."""
    table = read_table(path, list(kinds))
    if table.kind is RESULTS:
        table.schema_version = results_schema_version(table.columns)
    return table
