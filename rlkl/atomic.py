"""Files written whole or not at all: the one way rlkl writes a file.

Every file rlkl writes (fixtures and lessons by ``regen``, a new lesson by ``rlkl new``, its
caches) goes through :func:`write_atomic`, so no reader and no crash ever sees one
half-written.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

# binary on Windows too, so "\n" stays one byte (mkstemp's mode)
_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)


def write_atomic(path: Path, text: str, *, through_links: bool = True) -> None:
    """Write ``text`` (UTF-8, newlines as given) to ``path``: into a new temporary file beside
    it, then a rename over it (``os.replace``, atomic on POSIX and Windows).

    Through a symlink, the link's target is replaced and the link stays a link; with
    ``through_links=False`` (a cache's own files) the link itself is replaced. A file that
    exists keeps its permission bits (``0o777``); a new one gets the usual ones (``0o666``
    less the umask, as ``open`` gives). On any failure the temporary file is removed and the
    old file is as it was; the error is raised (a symlink loop as ``OSError``).
    """
    try:
        target = path.resolve() if through_links and path.is_symlink() else path
    except RuntimeError as error:  # a symlink loop (Python 3.11)
        raise OSError(f"cannot follow the symlink {path}: {error}") from None
    temporary = target.with_name(f".{target.name}.{secrets.token_hex(8)}.tmp")
    handle = os.open(temporary, _FLAGS, 0o666)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
            stream.write(text)
        if target.exists() and not target.is_symlink():
            os.chmod(temporary, target.stat().st_mode & 0o777)
        os.replace(temporary, target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
