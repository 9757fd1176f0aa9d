"""Lessons across processes: the one process pool of ``check``, ``regen`` and the site.

Documents are not sent between processes: a worker reads its lesson itself. Two ways in:

* :func:`map_paths` (``rlkl check``, the site): the worker reads, validates and checks a
  lesson in one pass and sends back what the corpus rules need with its result (the lesson's
  :class:`~rlkl.corpus.Facts` travel in it), so each lesson is read and validated once, in
  parallel; a lesson that is not valid there is left to the caller, which validates it;
* :func:`map_lessons` (``regen``): the caller has validated the lessons; a worker first makes
  sure it reads the bytes the caller validated. A lesson that changed in between (an editor
  saving it) is not worked on: the caller's ``changed`` result says so (RLKL907), never a
  silent pass.

Workers exit when the process that started them is gone, so a killed command leaves none
behind, waiting or writing.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar, cast

from rlkl import validate
from rlkl.diagnostics import Diagnostic
from rlkl.loader import MAX_BYTES, LoadError, display_path, read_regular
from rlkl.validate import LessonFile

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor

# The process machinery (concurrent.futures, multiprocessing: ~30 ms to import) is imported
# only where a pool starts or runs, so a command that needs none (a warm check) never pays it.

T = TypeVar("T")

POOL_MIN_LESSONS = 48
"""Fewer lessons than this are worked on in the calling process (processes cost more)."""


def fingerprint(text: str) -> str:
    """What identifies the text of a lesson a worker must find again (SHA-256)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def file_fingerprint(path: Path) -> str:
    """:func:`fingerprint` of the file at ``path`` as it reads now ("" when it cannot)."""
    try:
        return hashlib.sha256(read_regular(path, MAX_BYTES)).hexdigest()
    except LoadError:
        return ""


def load_lesson(path: Path) -> LessonFile:
    """A lesson read and schema-checked again where it is used (no model: not a lesson)."""
    return validate.load_lesson(path)[0]


def lesson_changed(path: Path) -> Diagnostic:
    """RLKL907 for a lesson whose file changed while the command worked on it."""
    return Diagnostic(display_path(path), 1, 1, "", "RLKL907",
                      "this lesson changed while rlkl was working on it, so it was not "
                      "checked; run the command again")


@dataclass(frozen=True)
class _Changed:
    """A worker's answer for a lesson that is no longer what the caller validated."""

    path: Path


def _apply(
    function: Callable[[LessonFile], T], path: Path, validated: str | None
) -> T | _Changed | None:
    """``function`` of the lesson at ``path``; with ``validated`` (the fingerprint the caller
    validated) only if it still reads the same, else None when it is no valid lesson here."""
    try:
        file = load_lesson(path)
    except Exception:  # whatever it now is, it is not the lesson that was validated
        return _Changed(path) if validated is not None else None
    document = file.document
    if document is None or file.lesson is None:
        return _Changed(path) if validated is not None else None
    if validated is not None and fingerprint(document.text) != validated:
        return _Changed(path)
    return function(file)


Item = tuple[Path, "str | None"]  # a lesson path and the fingerprint validated (None: none)


def _chunk(function: Callable[[LessonFile], T], items: list[Item]) -> list[T | _Changed | None]:
    return [_apply(function, path, validated) for path, validated in items]


def _follow() -> None:
    """In a worker: exit as soon as the process that started it is gone (its sentinel
    closes), under any start method."""
    import multiprocessing
    import threading

    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def watch() -> None:
        parent.join()
        os._exit(1)

    threading.Thread(target=watch, name="rlkl-follow-parent", daemon=True).start()


def map_lessons(
    function: Callable[[LessonFile], T],
    files: Sequence[LessonFile],
    jobs: int,
    changed: Callable[[Path], T],
) -> list[T]:
    """``function`` of each validated lesson file, in order: across ``jobs`` processes for
    at least :data:`POOL_MIN_LESSONS` lessons, else here.

    ``function`` must be picklable (module level, or a ``functools.partial`` of one) and
    report a failure of its lesson in its result (RLKL901), so one lesson never ends the
    run; an exception it raises ends the run as it would in one process. A lesson whose file
    changed since it was validated gets ``changed(path)``. Chunks lost with a dead worker
    are done here, read again from disk. When no pool can start here, all of it is.
    """
    if jobs <= 1 or len(files) < POOL_MIN_LESSONS:
        return [function(file) for file in files]
    items: list[Item] = [
        (f.path, fingerprint(f.document.text) if f.document else "") for f in files]
    answers = _map(function, items, jobs)
    if answers is None:  # no processes in this sandbox
        return [function(file) for file in files]
    # never None here: every item carries the fingerprint its lesson was validated with
    return [changed(a.path) if isinstance(a, _Changed) else cast(T, a) for a in answers]


def map_paths(
    function: Callable[[LessonFile], T], paths: Sequence[Path], jobs: int
) -> list[T | None]:
    """``function`` of each lesson at ``paths``, in order, across ``jobs`` processes: each
    worker reads and validates the lesson (:func:`rlkl.validate.load_lesson`) and applies
    ``function`` to it; None for a path that is not a valid lesson there (the caller
    validates it, and reports what is wrong). Below :data:`POOL_MIN_LESSONS` lessons, or
    when no pool can start, the same is done here. ``function`` as in :func:`map_lessons`.
    """
    items: list[Item] = [(path, None) for path in paths]
    answers = _map(function, items, jobs) if jobs > 1 and len(paths) >= POOL_MIN_LESSONS else None
    if answers is None:
        answers = _chunk(function, items)
    return [None if isinstance(a, _Changed) else a for a in answers]


def _map(
    function: Callable[[LessonFile], T], items: list[Item], jobs: int
) -> list[T | _Changed | None] | None:
    """The answers of ``items`` across ``jobs`` processes (None: no pool can start here)."""
    size = max(1, min(16, len(items) // (8 * jobs)))  # small: nobody idles long at the end
    chunks = [items[i : i + size] for i in range(0, len(items), size)]
    from concurrent.futures import ProcessPoolExecutor

    try:
        pool = ProcessPoolExecutor(max_workers=jobs, initializer=_follow)
    except (OSError, NotImplementedError, ImportError):  # no processes in this sandbox
        return None
    with pool:
        futures = [_submit(pool, function, chunk) for chunk in chunks]
        try:
            return [a for f, c in zip(futures, chunks, strict=True) for a in _done(f, function, c)]
        except BaseException:
            for future in futures:
                if future is not None:
                    future.cancel()
            raise


def _submit(
    pool: ProcessPoolExecutor, function: Callable[[LessonFile], T], chunk: list[Item]
) -> Future[list[T | _Changed | None]] | None:
    """The chunk sent to a worker; None when no worker can take it (it is done here)."""
    from concurrent.futures.process import BrokenProcessPool

    try:
        return pool.submit(_chunk, function, chunk)
    except (OSError, BrokenProcessPool):
        return None


def _done(
    future: Future[list[T | _Changed | None]] | None,
    function: Callable[[LessonFile], T],
    chunk: list[Item],
) -> list[T | _Changed | None]:
    """A chunk's answers; a chunk no worker took, or lost with its worker (killed, out of
    memory), is done here."""
    from concurrent.futures.process import BrokenProcessPool

    try:
        if future is not None:
            return future.result()
    except BrokenProcessPool:
        pass
    return _chunk(function, chunk)
