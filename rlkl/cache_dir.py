"""The one folder rlkl keeps its caches in: lesson results (:mod:`rlkl.cache`), what the
site computes from them (kept pages, explorable examples) and equation readings
(:mod:`rlkl.claims.equations.latex_cache`).

``$RLKL_CACHE_DIR``, else ``$XDG_CACHE_HOME/rlkl`` (an absolute path, as the XDG spec
asks; a relative one is ignored), else ``~/.cache/rlkl`` — never inside the content tree,
always safe to delete. ``RLKL_CACHE_DIR=off`` turns every cache off, and so does a home
folder that cannot be found (``HOME`` unset, no password entry): rlkl is then only slower.
A folder that cannot be created or written (a file in its place, a read-only disk) is the
same: each cache skips what it cannot write, and no result depends on it.

The files rlkl writes there are kept under a size (:func:`size_limit`: ``$RLKL_CACHE_SIZE``
mebibytes of their bytes, 1 GiB by default), least recently used first, as ccache keeps its
own: an entry's modification time is set again each time it is used (:func:`used`), and at
most once every :data:`PRUNE_EVERY_S` a write looks at the whole folder and, over the limit,
removes the entries used longest ago until they hold 80% of it (:func:`prune`).
Content-addressed entries (a kept page for every version of every lesson and site, an older
rlkl's results) would otherwise grow without end. Only files named as rlkl names its own
(:data:`OURS`) are ever removed: the folder may be one an author named, with other files in.
"""

from __future__ import annotations

import contextlib
import os
import re
import time
from pathlib import Path

DEFAULT_SIZE_MIB = 1024
PRUNE_EVERY_S = 600
"""How often (seconds) a write may look at the whole folder for entries to remove."""
_ENTRY = r"(?:(?:[a-z-]+-)?[0-9a-f]{64}(?:\.rows)?|latex-[0-9a-f]{16}-[\w.-]+)\.json"
OURS = re.compile(rf"{_ENTRY}|\.{_ENTRY}\.[0-9a-f]{{16}}\.tmp")
"""The names of the files rlkl writes in the folder: a lesson's entry and its rows, a derived
record (``<kind>-<hash>``), the equation readings, and an atomic write's temporary file."""
_STAMP = ".pruned"  # its modification time: when the folder was last looked at


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


def size_limit() -> int:
    """The folder's size limit in bytes: ``$RLKL_CACHE_SIZE`` mebibytes (the configuration's
    ``cache-size`` sets it), else :data:`DEFAULT_SIZE_MIB`; a value that is not a whole
    number of at least 1 is the default."""
    configured = os.environ.get("RLKL_CACHE_SIZE", "").strip()
    mebibytes = int(configured) if configured.isdecimal() and int(configured) > 0 \
        else DEFAULT_SIZE_MIB
    return mebibytes << 20


def used(path: Path) -> None:
    """Mark the entry at ``path`` as used now (its modification time), which keeps it from
    being pruned before entries used longer ago; best effort (a read-only folder is only
    pruned by age of writing)."""
    own = os.utime in os.supports_follow_symlinks  # a link's own time, never its target's
    with contextlib.suppress(OSError, NotImplementedError):
        os.utime(path, follow_symlinks=not own)


def written(folder: Path) -> None:
    """After a write to ``folder``: :func:`prune` it, unless it was looked at in the last
    :data:`PRUNE_EVERY_S` seconds (one ``stat`` a write)."""
    stamp = folder / _STAMP
    try:
        if 0 <= time.time() - stamp.stat().st_mtime < PRUNE_EVERY_S:
            return  # (a stamp from the future, a clock set back: look now)
    except OSError:
        pass  # never looked at (or unreadable): look now
    try:
        stamp.touch()
    except OSError:
        return  # a folder where nothing can be written has nothing of ours to remove
    prune(folder, size_limit())


def prune(folder: Path, limit: int) -> int:
    """Remove rlkl's files of ``folder`` (:data:`OURS`) used longest ago until they hold at
    most 80% of ``limit`` bytes, when they hold more than ``limit``; the number of bytes
    removed.
    Another process may remove or replace a file meanwhile: a file that is gone is passed
    over, and an entry removed under a reader is a miss for it (never a wrong result)."""
    files = []
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                try:
                    if OURS.fullmatch(entry.name) and entry.is_file(follow_symlinks=False):
                        info = entry.stat(follow_symlinks=False)
                        files.append((info.st_mtime_ns, info.st_size, entry.path))
                except OSError:
                    continue
    except OSError:
        return 0
    total = sum(size for _, size, _ in files)
    if total <= limit:
        return 0
    removed = 0
    for _, size, path in sorted(files):
        if total - removed <= limit * 0.8:
            break
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass
        except OSError:
            continue
        removed += size
    return removed
