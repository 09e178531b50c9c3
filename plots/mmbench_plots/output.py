"""Writing a figure to its PNG file."""

import os
import re
import tempfile

from .common import DPI, PNG_MAGIC

def render(fig, out_path):
    """Write fig to a temporary PNG next to out_path and rename it into place
    only when it is a complete PNG, so a reader never sees a half-written
    file.  Returns an error text or None."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    out_dir = os.path.dirname(out_path) or "."
    fd, tmp_png = tempfile.mkstemp(prefix="." + os.path.basename(out_path) + ".", suffix=".tmp", dir=out_dir)
    os.close(fd)
    try:
        FigureCanvasAgg(fig)
        fig.savefig(tmp_png, format="png", dpi=DPI)
        with open(tmp_png, "rb") as handle:
            if handle.read(8) != PNG_MAGIC:
                return "matplotlib wrote no valid PNG for %s" % out_path
        os.chmod(tmp_png, 0o644)  # mkstemp makes it 0600
        os.replace(tmp_png, out_path)
        tmp_png = None
        return None
    except Exception as exc:  # a drawing error must not lose the other plots
        return "matplotlib failed on %s: %s: %s" % (out_path, type(exc).__name__, exc)
    finally:
        if tmp_png and os.path.exists(tmp_png):
            os.unlink(tmp_png)


def safe_stem(path):
    stem = os.path.splitext(os.path.basename(path))[0]
    return re.sub(r"[^A-Za-z0-9._+-]", "_", stem) or "data"
