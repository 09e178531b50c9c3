"""The plots of plots/mmbench_plot.py, one module per plot kind.

Each plot function takes (ctx, rows) -- ctx a dict with path, title (a
function adding the --title-prefix) and columns (the file's column names),
rows the file's rows as text (common.read_table) -- and returns a matplotlib
Figure, or None after a note on stderr saying why the data supports none.
PLOTS says which plots each file kind gets, in order; the PNG is named after
the plot.
"""

from .census import plot_census
from .dgemm_profile import plot_dgemm_profile
from .isoefficiency import plot_isoefficiency
from .mflops import plot_mflops_vs_n
from .model import plot_model_vs_measured
from .pdgemm_lb import plot_pdgemm_vs_lb
from .regret import plot_regret, plot_regret_validate

RUN_PLOTS = (("mflops-vs-n", plot_mflops_vs_n),
             ("model-vs-measured", plot_model_vs_measured),
             ("pdgemm-vs-lb", plot_pdgemm_vs_lb),
             ("regret", plot_regret))
PROFILE_PLOTS = (("dgemm-profile", plot_dgemm_profile),)
VALIDATE_PLOTS = (("regret", plot_regret_validate),)
ISO_PLOTS = (("isoefficiency", plot_isoefficiency),)
CENSUS_PLOTS = (("census", plot_census),)
PLOTS = {"run": RUN_PLOTS, "profile": PROFILE_PLOTS, "validate": VALIDATE_PLOTS, "isoefficiency": ISO_PLOTS,
         "census": CENSUS_PLOTS}
