"""Lessons across processes: the one process pool of ``check``, ``regen`` and the site.

:func:`map_lessons` applies a per-lesson function to the lessons of a large corpus in worker
processes. Documents are not sent between processes: a worker reads its lesson again, and
first makes sure it reads the bytes the calling process validated. A lesson that changed in
between (an editor saving it) is not checked there: the caller's ``changed`` result says so
(RLKL907), never a silent pass. Workers exit when the process that started them is gone, so
a killed command leaves none behind, waiting or writing.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from rlkl import validate
from rlkl.diagnostics import Diagnostic
from rlkl.loader import display_path
from rlkl.validate import LessonFile

T = TypeVar("T")

POOL_MIN_LESSONS = 48
"""Fewer lessons than this are worked on in the calling process (processes cost more)."""


def fingerprint(text: str) -> str:
    """What identifies the text of a lesson a worker must find again (SHA-256)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


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


def _apply(function: Callable[[LessonFile], T], path: Path, validated: str) -> T | _Changed:
    try:
        file = load_lesson(path)
    except Exception:  # whatever it now is, it is not the lesson that was validated
        return _Changed(path)
    document = file.document
    if document is None or file.lesson is None or fingerprint(document.text) != validated:
        return _Changed(path)
    return function(file)


def _chunk(
    function: Callable[[LessonFile], T], items: list[tuple[Path, str]]
) -> list[T | _Changed]:
    return [_apply(function, path, validated) for path, validated in items]


def _follow() -> None:
    """In a worker: exit as soon as the process that started it is gone (its sentinel
    closes), under any start method."""
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
    items = [(f.path, fingerprint(f.document.text) if f.document else "") for f in files]
    size = max(1, min(16, len(items) // (8 * jobs)))  # small: nobody idles long at the end
    chunks = [items[i : i + size] for i in range(0, len(items), size)]
    try:
        pool = ProcessPoolExecutor(max_workers=jobs, initializer=_follow)
    except (OSError, NotImplementedError, ImportError):  # no processes in this sandbox
        return [function(file) for file in files]
    with pool:
        futures = [_submit(pool, function, chunk) for chunk in chunks]
        try:
            answers = [
                a for f, c in zip(futures, chunks, strict=True) for a in _done(f, function, c)
            ]
        except BaseException:
            for future in futures:
                if future is not None:
                    future.cancel()
            raise
    return [changed(a.path) if isinstance(a, _Changed) else a for a in answers]


def _submit(
    pool: ProcessPoolExecutor, function: Callable[[LessonFile], T], chunk: list[tuple[Path, str]]
) -> Future[list[T | _Changed]] | None:
    """The chunk sent to a worker; None when no worker can take it (it is done here)."""
    try:
        return pool.submit(_chunk, function, chunk)
    except (OSError, BrokenProcessPool):
        return None


def _done(
    future: Future[list[T | _Changed]] | None,
    function: Callable[[LessonFile], T],
    chunk: list[tuple[Path, str]],
) -> list[T | _Changed]:
    """A chunk's answers; a chunk no worker took, or lost with its worker (killed, out of
    memory), is done here."""
    try:
        if future is not None:
            return future.result()
    except BrokenProcessPool:
        pass
    return _chunk(function, chunk)
