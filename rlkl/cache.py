"""A content-hash cache of each lesson's claim results, for fast re-checks.

A lesson's claim diagnostics depend only on the bytes of its ``lesson.json``, its
``claims.yaml`` and its ``fixtures.json``, the numeric core's version, rlkl's own code (the
equation reader included) and the versions of the libraries that reader parses LaTeX with —
so the key is a SHA-256 of exactly those (and the paths they are reported under). The cache
lives outside the content tree (``$RLKL_CACHE_DIR``, else ``$XDG_CACHE_HOME/rlkl``, else
``~/.cache/rlkl``), one small JSON file per key, written atomically; deleting it is always
safe. Any unreadable entry is a miss. ``RLKL_CACHE_DIR=off`` turns it off.

An entry also keeps the lesson's :class:`~rlkl.corpus.Facts` (it is stored only for a
model-valid lesson, and the key covers the lesson's bytes), so a warm check neither parses nor
validates an unchanged lesson: the corpus rules run on its facts
(``validate_paths(known=...)``).
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from rlkl.cache_dir import cache_root
from rlkl.claims.bindings import FILENAME as BINDINGS_FILE
from rlkl.claims.fixtures import FILENAME as FIXTURES_FILE
from rlkl.claims.latex_cache import reader_versions
from rlkl.core.version import CORE_VERSION
from rlkl.corpus import LESSON_FILE, Facts
from rlkl.diagnostics import Diagnostic, Severity
from rlkl.loader import MAX_BYTES, LoadError, read_regular

_FORMAT = "2"


def default_dir() -> Path | None:
    """Where the cache lives unless told otherwise (never inside the content tree); None
    when ``RLKL_CACHE_DIR=off`` (:func:`rlkl.cache_dir.cache_root`)."""
    return cache_root()


@cache
def code_fingerprint() -> str:
    """A hash of rlkl's own source and schemas: a new rlkl never reuses an old result."""
    root = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for path in sorted([*root.rglob("*.py"), *root.parent.glob("schema/*.json")]):
        digest.update(path.as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def _bytes(path: Path) -> bytes:
    """What the key knows of one file: its bytes, or why it cannot be read. Read like the
    loaders read (a regular file only, never a wait on a FIFO, at most 1 MiB + 1), and an
    unreadable file never shares a key with a missing one."""
    try:
        return b"present\0" + read_regular(path, MAX_BYTES)
    except LoadError as error:
        return b"unread\0" + "\0".join(f"{d.code} {d.message}" for d in error.diagnostics
                                       ).encode("utf-8", "surrogateescape")


def lesson_key(lesson: Path, display: str, core_version: str = CORE_VERSION) -> str:
    """The key of one lesson's claim results (see the module docstring)."""
    digest = hashlib.sha256()
    reader = reader_versions() or "no equation reader"
    for part in (_FORMAT, core_version, code_fingerprint(), reader, display, str(lesson)):
        digest.update(part.encode("utf-8") + b"\0")
    for name in (LESSON_FILE, BINDINGS_FILE, FIXTURES_FILE):
        digest.update(_bytes(lesson.with_name(name)))
    return digest.hexdigest()


@dataclass(frozen=True)
class Entry:
    """One lesson's cached claim results."""

    diagnostics: tuple[Diagnostic, ...]
    claims: int
    verified: int
    exempt: int
    failed: bool = False  # not finished (RLKL901); never stored
    facts: Facts | None = None  # the lesson's, when it is stored

    @classmethod
    def failure(cls, diagnostic: Diagnostic) -> Entry:
        """A lesson that was not finished, with the diagnostic that says why."""
        return cls((diagnostic,), 0, 0, 0, failed=True)


@dataclass(frozen=True)
class Cache:
    """The cache folder; :meth:`get` and :meth:`put` by key."""

    folder: Path

    def get(self, key: str) -> Entry | None:
        try:
            data = json.loads((self.folder / f"{key}.json").read_text(encoding="utf-8"))
            found = tuple(
                Diagnostic(
                    d["file"], d["line"], d["column"], d["pointer"], d["code"], d["message"],
                    Severity(d["severity"]),
                )
                for d in data["diagnostics"]
            )
            return Entry(found, int(data["claims"]), int(data["verified"]), int(data["exempt"]),
                         facts=Facts.from_json(data["facts"]))
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def put(self, key: str, entry: Entry) -> None:
        """Store ``entry`` (with the facts of its lesson, else nothing) under ``key``."""
        if entry.facts is None or entry.failed:
            return
        payload: dict[str, Any] = {
            "diagnostics": [d.to_json() for d in entry.diagnostics],
            "claims": entry.claims,
            "verified": entry.verified,
            "exempt": entry.exempt,
            "facts": entry.facts.to_json(),
        }
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(dir=self.folder, suffix=".tmp")
            with os.fdopen(handle, "w", encoding="utf-8") as stream:
                json.dump(payload, stream, ensure_ascii=False)
            os.replace(temporary, self.folder / f"{key}.json")
        except OSError:
            pass  # a cache that cannot be written is only slower
