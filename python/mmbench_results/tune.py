"""What `mmbench tune` writes besides the profile JSON (docs/csv-columns.md):
the DGEMM profile CSV, the lb check (*-lb-check.csv) and the kernel model
timings (*-kernel-model.csv)."""

from .table import Kind, read_table

DGEMM_PROFILE_COLUMNS = ("m", "n", "k", "reps", "t_median", "mflops", "mflops_max", "papi_tot_cyc", "papi_l2_tcm",
                         "x", "lb", "mflops_ci_lo", "mflops_ci_hi", "mflops_smooth", "rule_lb")
DGEMM_PROFILE = Kind("profile", "a DGEMM profile CSV", "docs/csv-columns.md",
                     key=("m", "n", "k", "t_median", "mflops", "x", "lb"),
                     all_columns=DGEMM_PROFILE_COLUMNS, numeric=DGEMM_PROFILE_COLUMNS)

LB_CHECK_COLUMNS = ("n", "pr", "pc", "nb", "lb", "rounds", "mflops_median", "ratio_median", "ratio_ci_lo",
                    "ratio_ci_hi", "coverage", "reference_lb", "rule_lb", "chosen")
LB_CHECK = Kind("lb-check", "an lb check CSV (tune, *-lb-check.csv)", "docs/csv-columns.md",
                key=("n", "pr", "pc", "nb", "lb", "rounds", "ratio_median", "chosen"),
                all_columns=LB_CHECK_COLUMNS, numeric=LB_CHECK_COLUMNS)

KERNEL_MODEL_COLUMNS = ("kind", "m", "n", "k", "bytes", "seconds", "fitted_s")
KERNEL_MODEL = Kind("kernel-model", "a kernel model CSV (tune, *-kernel-model.csv)", "docs/csv-columns.md",
                    key=("kind", "bytes", "seconds"),
                    all_columns=KERNEL_MODEL_COLUMNS, numeric=KERNEL_MODEL_COLUMNS[1:])


def read_dgemm_profile(path):
    """A DGEMM profile CSV of `mmbench tune` (docs/csv-columns.md, "DGEMM
    profile"): one row per k. Profiles from before the passes have only the
    first eleven columns (typed rows hold None for the rest). Raises
    ValueError naming the file when it is none."""
    return read_table(path, [DGEMM_PROFILE])


def read_lb_check(path):
    """The PDGEMM lb check of `mmbench tune`, *-lb-check.csv
    (docs/csv-columns.md, "lb check"): one row per lb candidate; chosen is 1
    for the profile's lb. Raises ValueError naming the file when it is none."""
    return read_table(path, [LB_CHECK])


def read_kernel_model(path):
    """The kernel model timings of `mmbench tune`, *-kernel-model.csv
    (docs/csv-columns.md, "Kernel model timings"): one row per timed call.
    Raises ValueError naming the file when it is none."""
    return read_table(path, [KERNEL_MODEL])
