"""Files written whole or not at all: the one way rlkl writes a file.

Every file rlkl writes (fixtures and lessons by ``regen``, a new lesson by ``rlkl new``, its
caches) goes through :func:`write_atomic`, so no reader and no crash ever sees one
half-written.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8, newlines as given) to ``path``: into a new temporary file beside
    it, then a rename over it (``os.replace``, atomic on POSIX and Windows).

    Through a symlink, the link's target is replaced and the link stays a link. A file that
    exists keeps its permission bits; a new one gets the usual ones (``0o666`` less the
    umask, as ``open`` gives). On any failure the temporary file is removed and the old file
    is as it was; the error is raised.
    """
    target = path.resolve() if path.is_symlink() else path
    temporary = target.with_name(f".{target.name}.{secrets.token_hex(8)}.tmp")
    handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
            stream.write(text)
        if target.exists():
            os.chmod(temporary, target.stat().st_mode & 0o7777)
        os.replace(temporary, target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
