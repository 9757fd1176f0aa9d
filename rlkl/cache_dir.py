"""The one folder rlkl keeps its caches in: lesson results (:mod:`rlkl.cache`) and equation
readings (:mod:`rlkl.claims.latex_cache`).

``$RLKL_CACHE_DIR``, else ``$XDG_CACHE_HOME/rlkl``, else ``~/.cache/rlkl`` — never inside the
content tree, always safe to delete. ``RLKL_CACHE_DIR=off`` turns both caches off.
"""

from __future__ import annotations

import os
from pathlib import Path


def cache_root() -> Path | None:
    """The cache folder, or None when ``RLKL_CACHE_DIR=off``."""
    configured = os.environ.get("RLKL_CACHE_DIR", "")
    if configured.lower() == "off":
        return None
    if configured:
        return Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "rlkl"
