"""The one folder rlkl keeps its caches in: lesson results (:mod:`rlkl.cache`) and equation
readings (:mod:`rlkl.claims.equations.latex_cache`).

``$RLKL_CACHE_DIR``, else ``$XDG_CACHE_HOME/rlkl`` (an absolute path, as the XDG spec
asks; a relative one is ignored), else ``~/.cache/rlkl`` — never inside the content tree,
always safe to delete. ``RLKL_CACHE_DIR=off`` turns both caches off, and so does a home
folder that cannot be found (``HOME`` unset, no password entry): rlkl is then only slower.
A folder that cannot be created or written (a file in its place, a read-only disk) is the
same: each cache skips what it cannot write, and no result depends on it.
"""

from __future__ import annotations

import os
from pathlib import Path


def cache_root() -> Path | None:
    """The cache folder, or None when caching is off (``RLKL_CACHE_DIR=off``, or no home)."""
    configured = os.environ.get("RLKL_CACHE_DIR", "")
    if configured.lower() == "off":
        return None
    if configured:
        return Path(configured)
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    if os.path.isabs(xdg):
        return Path(xdg) / "rlkl"
    try:
        return Path.home() / ".cache" / "rlkl"
    except (RuntimeError, KeyError):  # no HOME and no password entry for this user
        return None
