"""A content-hash cache of each lesson's claim results, for fast re-checks.

A lesson's claim diagnostics depend only on the bytes of its lesson file (``lesson.json``, or a
file named for its id), its ``claims.yaml`` and its ``fixtures.json``, the numeric core's
version, rlkl's own code (the equation reader included) and the versions of the libraries that
reader parses LaTeX with — so the key (:func:`lesson_key`) is a SHA-256 of exactly those (and
the paths they are reported under). The cache lives outside the content tree
(``$RLKL_CACHE_DIR``, else ``$XDG_CACHE_HOME/rlkl``, else ``~/.cache/rlkl``), one small JSON
file per lesson path and versions, written atomically, which holds the key its result belongs
to; deleting it is always safe. Any unreadable entry is a miss, and so is an entry whose key is
not the lesson's key now.
``RLKL_CACHE_DIR=off`` turns it off.

``rlkl regen`` reads it too, and skips a lesson whose entry says it has nothing to write
(:func:`rlkl.regen.nothing_to_do`); regen caches the lessons it leaves as they were.

An entry also keeps the lesson's :class:`~rlkl.corpus.Facts` (it is stored only for a
model-valid lesson, and the key covers the lesson's bytes), so a warm check neither parses nor
validates an unchanged lesson: the corpus rules run on its facts
(``validate_paths(known=...)``).

Working the key out reads and hashes the three files. An entry also keeps the status each file
had when it was read for the key (device, inode, size, modification and change times, in
nanoseconds; the idea of git's index): when every file's status is still the one kept, the
key is the entry's and the files are not read. A status is kept only for a file whose times
were already :data:`SETTLED_NS` old when it was read, so any later write gives it another
change time (which no program sets back), however coarse the file system's timestamps. On
Windows, where ``st_ctime`` is the creation time, the files are always read.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import sys
import time
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from rlkl.atomic import write_atomic
from rlkl.cache_dir import cache_root, used, written
from rlkl.claims.bindings.model import FILENAME as BINDINGS_FILE
from rlkl.claims.equations.latex_cache import reader_versions
from rlkl.claims.fixtures.fixtures import FILENAME as FIXTURES_FILE
from rlkl.claims.report import LessonReport
from rlkl.core.version import CORE_VERSION
from rlkl.loader import MAX_BYTES, LoadError, read_regular

_FORMAT = "6"

SETTLED_NS = 2_000_000_000
"""How old (ns) a file's modification and change times must be for its status to be kept:
more than the coarsest timestamps (2 s) and the clock's tick."""

_TRUST_STATUS = os.name != "nt"  # Windows' st_ctime is the creation time: never trusted
_BESIDE = (BINDINGS_FILE, FIXTURES_FILE)


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
        digest.update(os.fsencode(path.as_posix()) + b"\0" + path.read_bytes() + b"\0")
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


def _identity(lesson: Path, display: str, core_version: str) -> hashlib._Hash:
    """The hash of what a key covers besides the files: the versions and the paths."""
    digest = hashlib.sha256()
    reader = reader_versions() or "no equation reader"
    extensions = sys.modules.get("rlkl.extensions")  # imported only when a run activates them
    theirs = extensions.fingerprint() if extensions is not None else ""
    for part in (_FORMAT, core_version, code_fingerprint(), reader, theirs, display,
                 str(lesson)):
        # a path undecodable in this locale keeps its bytes as surrogates (os.fsdecode)
        digest.update(part.encode("utf-8", "surrogateescape") + b"\0")
    return digest


def _files(lesson: Path) -> list[str]:
    """The files a lesson's results depend on: the lesson file itself (whatever its name:
    ``<id>.json`` is a lesson too) and the bindings and fixtures beside it."""
    folder = os.path.dirname(lesson)
    return [str(lesson), *(os.path.join(folder, name) for name in _BESIDE)]


def _key(identity: hashlib._Hash, files: list[str]) -> str:
    digest = identity.copy()
    for path in files:
        digest.update(_bytes(Path(path)))
    return digest.hexdigest()


def lesson_key(lesson: Path, display: str, core_version: str = CORE_VERSION) -> str:
    """The key of one lesson's claim results (see the module docstring)."""
    return _key(_identity(lesson, display, core_version), _files(lesson))


def _status(path: str, now: int) -> list[int] | None:
    """(device, inode, size, mtime, ctime) of a regular file whose times are
    :data:`SETTLED_NS` older than ``now``; ``[]`` when there is no file; None for anything
    else (a file written lately, a folder, a file that cannot be looked at)."""
    if not _TRUST_STATUS:
        return None
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return []
    except (OSError, ValueError):
        return None
    settled = now - max(info.st_mtime_ns, info.st_ctime_ns) > SETTLED_NS
    if not (settled and stat.S_ISREG(info.st_mode)):
        return None
    return [info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns]


def _statuses(files: list[str]) -> tuple[list[int] | None, ...]:
    """Each file's :func:`_status`; taken before the files are read for a key, so a write
    after it changes them."""
    now = time.time_ns()
    return tuple(_status(path, now) for path in files)


@dataclass(frozen=True)
class Key:
    """A lesson's :func:`lesson_key` (``content``), the name of its entry, and the status of
    each of its files taken just before they were read for it (None where not settled)."""

    name: str
    content: str
    status: tuple[list[int] | None, ...]


@dataclass(frozen=True)
class Cache:
    """The cache folder: :meth:`lookup`, :meth:`key`, :meth:`put` and :meth:`put_if_unchanged`
    (and :meth:`derived` records a consumer computes from a report).

    An entry is two files: ``<name>.json``, the report's summary (its diagnostics, facts,
    flags and counts: all ``rlkl check`` and ``regen`` read), and ``<name>.rows.json``, its
    rows (every number, check, change and equation record: what ``rlkl claims``, the site
    and the pytest plugin show), each holding the key. A cache made with ``rows=False``
    answers with summaries (:attr:`~rlkl.claims.report.LessonReport.summary`) and never
    reads a rows file: a warm check of 1,000 lessons decoded 46 MB of rows it did not use
    (1.25 s, against 0.33 s before the reports held them)."""

    folder: Path
    rows: bool = True

    def key(self, lesson: Path, display: str) -> Key:
        """The lesson's :class:`Key`, from its files' bytes as they read now."""
        identity, files = _identity(lesson, display, CORE_VERSION), _files(lesson)
        status = _statuses(files)
        return Key(identity.hexdigest(), _key(identity, files), status)

    def lookup(self, lesson: Path, display: str) -> tuple[Key, LessonReport | None]:
        """The lesson's :class:`Key` and its cached report (None when there is none for this
        key). When every file's status is the one the entry kept, the entry's key is the
        lesson's and no file is read (see the module docstring)."""
        identity, files = _identity(lesson, display, CORE_VERSION), _files(lesson)
        status = _statuses(files)
        name = identity.hexdigest()
        data = self._read(name)
        kept = data.get("status") if data is not None else None
        if data is not None and None not in status and kept == list(status):
            return Key(name, data["key"], status), self._entry(name, data)
        key = Key(name, _key(identity, files), status)
        if data is None or data["key"] != key.content:
            return key, None
        entry = self._entry(name, data)
        if entry is not None and kept != list(status):
            self._write(name, self._summary(key, entry))  # statuses settled: next time, no
        return key, entry                                  # file is read

    def _entry(self, name: str, data: dict[str, Any]) -> LessonReport | None:
        """The report an entry holds (its summary with ``rows=False``), None when it is
        damaged or its rows file is missing, damaged or of another key."""
        report = data.get("report")
        if self.rows:
            rows = self._read(f"{name}.rows")
            if rows is None or rows["key"] != data["key"] or not isinstance(report, dict):
                return None
            report = {**report, **{k: v for k, v in rows.items() if k != "key"}}
        else:  # unread, and used as much as its summary (the site and the plugin read it)
            used(self.folder / f"{name}.rows.json")
        try:
            return LessonReport.from_json(report)  # type: ignore[arg-type]
        except (ValueError, KeyError, TypeError, AttributeError):
            return None

    @staticmethod
    def _summary(key: Key, entry: LessonReport) -> dict[str, Any]:
        return {"key": key.content, "status": list(key.status), "report": entry.summary_json()}

    def put_if_unchanged(
        self, key: Key, lesson: Path, display: str, entry: LessonReport
    ) -> bool:
        """:meth:`put`, only if ``key`` (taken before the lesson's files were read for the
        work that gave ``entry``) is still their key: a lesson edited meanwhile is never
        cached under a key its result does not belong to. True when ``entry`` was stored."""
        return self.key(lesson, display).content == key.content and self.put(key, entry)

    def _read(self, name: str) -> dict[str, Any] | None:
        """The data of the entry file ``name``, None when it is missing or damaged."""
        path = self.folder / f"{name}.json"
        try:
            data = json.loads(read_regular(path, MAX_BYTES))
        except (LoadError, ValueError):
            return None
        if not (isinstance(data, dict) and isinstance(data.get("key"), str)):
            return None
        used(path)  # the folder is pruned least recently used first (rlkl.cache_dir)
        return data

    def put(self, key: Key, entry: LessonReport) -> bool:
        """Store the report ``entry`` for ``key`` (only a finished lesson's, with its facts
        and rows): its rows first, then its summary, so a summary is never read with the
        rows of another key. True when both were written."""
        if entry.facts is None or entry.failed or entry.summary:
            return False
        return (self._write(f"{key.name}.rows", {"key": key.content, **entry.rows_json()})
                and self._write(key.name, self._summary(key, entry)))

    def derived(self, kind: str, content: str) -> Any:
        """What :meth:`put_derived` stored for ``content`` (a hash of everything the data
        is computed from), None when nothing is: records a consumer computes from a report
        (the site's explorable examples), kept beside the reports."""
        data = self._read(f"{kind}-{content}")
        return data.get("data") if data is not None and data["key"] == content else None

    def put_derived(self, kind: str, content: str, payload: Any) -> None:
        self._write(f"{kind}-{content}", {"key": content, "data": payload})

    def _write(self, name: str, payload: dict[str, Any]) -> bool:
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            # ASCII: a path undecodable in this locale (surrogates) is kept as \udcxx escapes
            text = json.dumps(payload, default=_plain)
            write_atomic(self.folder / f"{name}.json", text, through_links=False)
        except (OSError, TypeError, ValueError):
            return False  # a cache that cannot be written is only slower
        written(self.folder)  # kept under its size limit (rlkl.cache_dir)
        return True


def report_fingerprint(report: LessonReport) -> str:
    """A SHA-256 of a finished report's rows, the explore and plot declarations among them,
    and rlkl's code: the key of what a consumer computes from the report alone."""
    rows = json.dumps(report.rows_json(), sort_keys=True, default=_plain)
    return hashlib.sha256(f"{code_fingerprint()}\0{rows}".encode("utf-8", "surrogatepass")
                          ).hexdigest()


def _plain(value: Any) -> Any:
    """A value json has no rule for (a numpy number or array in a computed value)."""
    if hasattr(value, "tolist"):
        return value.tolist()
    raise TypeError(f"not JSON: {type(value).__name__}")
