"""`mmbench run` results CSVs and their `<file>.csv.json` sidecars
(docs/csv-columns.md, "mmbench run results"; docs/json-schema.md).

The header grew over time; every version in results/ is read. A column added
later is simply absent from an older file: text_rows lack it, typed rows
hold None for it. results_schema_version() names the version a header is.
"""

import json
import os

from .table import Kind, read_table

# The newest header, in the order mmbench writes it (src/results/results_schema.hpp).
RESULTS_COLUMNS = (
    "timestamp", "host", "simulated", "p", "threads", "algo", "schema", "recursions", "cutoff", "grid", "nb",
    "lb", "lb_override", "local_levels", "local_levels_applied", "local_cutoff", "local_variant",
    "local_add_share", "local_add_share_by_level", "local_passes_by_level", "q7_split", "q7_split_rule",
    "replicas", "m", "n", "k", "warmup", "reps", "reps_asked", "order_seed", "t_min", "t_median", "t_max",
    "t_median_lo", "t_median_hi", "ci_coverage", "cv", "noisy", "peer_ratio", "peer_ratio_lo", "peer_ratio_hi",
    "mflops_per_proc", "gflops_total", "pred_paper", "pred_refined", "err_paper", "err_refined", "selected_by",
    "runner_up", "residual", "residual_limit", "verified", "peak_mem_mb", "exchanges_total",
    "exchanges_node_local", "status", "reason", "t_rounds", "peak_fraction", "local_gemm", "packed_isa",
    "packed_blocking", "local_fusion", "lb_asked", "mem_pred_mb", "mem_pred_parts", "mem_hwm_mb", "mem_err",
    "mem_rss_mb", "local_stores", "hybrid", "ring_chunks", "runner_up_ratio")

# Columns that hold words or lists, not one number (local_levels may be
# `auto`, reps_asked `auto`, t_rounds and the *_by_level columns are
# `;`-separated lists). Every other column above is numeric.
RESULTS_TEXT_COLUMNS = frozenset((
    "timestamp", "host", "simulated", "algo", "schema", "cutoff", "grid", "lb_override", "local_levels",
    "local_variant", "local_add_share_by_level", "local_passes_by_level", "q7_split", "q7_split_rule",
    "reps_asked", "noisy", "selected_by", "runner_up", "verified", "status", "reason", "t_rounds", "local_gemm",
    "packed_isa", "packed_blocking", "local_fusion", "lb_asked", "mem_pred_parts", "local_stores"))

RESULTS = Kind("run", "a `mmbench run` results CSV", "docs/csv-columns.md",
               key=("timestamp", "host", "p", "algo", "m", "n", "k", "t_median", "mflops_per_proc", "status"),
               all_columns=RESULTS_COLUMNS,
               numeric=[c for c in RESULTS_COLUMNS if c not in RESULTS_TEXT_COLUMNS])

# The header versions found in results/, oldest first: (name, the column
# that version added). A header is the newest version whose column it has.
RESULTS_HEADER_VERSIONS = (
    ("original", "timestamp"),
    ("simulated", "simulated"),            # SimGrid runs marked
    ("local-add-share", "local_add_share"),  # local Strassen's addition share
    ("t-rounds", "t_rounds"),              # every round's time; peak_fraction with it
    ("lb-asked", "lb_asked"),              # --lb as asked
    ("memory", "mem_pred_mb"),             # predicted and measured memory (2026-11-26)
)


def results_schema_version(header):
    """The name of the newest RESULTS_HEADER_VERSIONS entry whose column the
    header (a list or set of column names) has."""
    found = RESULTS_HEADER_VERSIONS[0][0]
    for name, column in RESULTS_HEADER_VERSIONS:
        if column in header:
            found = name
    return found


def read_results(path):
    """An `mmbench run` results CSV (columns: docs/csv-columns.md, "mmbench
    run results"), any header version. Returns a Table (table.py) with
    schema_version set and sidecar() to read its JSON sidecar. Raises
    ValueError naming the file when it cannot be read or is no results CSV."""
    table = read_table(path, [RESULTS])
    table.schema_version = results_schema_version(table.columns)
    table.sidecar = lambda: read_sidecar(path)
    return table


def sidecar_path(csv_path):
    """The sidecar mmbench writes beside a results CSV: <file>.csv.json."""
    return csv_path + ".json"


def read_sidecar(csv_path):
    """The JSON sidecar of a results CSV (docs/csv-columns.md, schema
    mmbench-results/1: {"schema", "csv", "runs": [one entry per run]}), or
    None where there is none. Raises ValueError naming the file when it is
    no JSON object with a runs list."""
    path = sidecar_path(csv_path)
    if not os.path.exists(path):
        return None
    data = load_json(path)
    if not isinstance(data, dict) or not isinstance(data.get("runs"), list):
        raise ValueError("%s: not a results sidecar (no \"runs\" list; see docs/csv-columns.md)" % path)
    return data


def load_json(path):
    """json.load of a file, with a ValueError naming the file when it cannot
    be read or parsed."""
    try:
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except OSError as exc:
        raise ValueError("cannot read %s: %s" % (path, exc)) from exc
    except ValueError as exc:
        raise ValueError("%s: not valid JSON: %s" % (path, exc)) from exc
