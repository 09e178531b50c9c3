"""Machine profiles: the JSON `mmbench tune` writes and `--profile` reads
(docs/machine-profile.md); configs/*.json are profiles too."""

from .results import load_json


def read_profile(path):
    """A machine profile JSON (docs/machine-profile.md) as a dict. Raises
    ValueError naming the file when it is not a JSON object."""
    data = load_json(path)
    if not isinstance(data, dict):
        raise ValueError("%s: a machine profile is a JSON object (see docs/machine-profile.md)" % path)
    return data


def require(profile, path, *keys):
    """Raise ValueError naming the file unless the profile has every key."""
    lacks = [k for k in keys if k not in profile]
    if lacks:
        raise ValueError("%s: not an mmbench profile (no %s)" % (path, " / ".join(lacks)))
