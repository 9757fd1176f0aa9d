"""Lessons across processes: the one process pool of ``check``, ``regen`` and the site.

Documents are not sent between processes: a worker reads its lesson itself. In
:func:`map_paths` the worker reads, validates and works on a lesson (checks it; regen also
fixes and writes it) in one pass and sends back what the corpus rules need with its result
(the lesson's :class:`~rlkl.corpus.Facts` travel in it), so each lesson is read and validated
once, in parallel, and the work is done on the very bytes that were validated; a lesson that
is not valid there is left to the caller, which validates it and reports what is wrong.

Workers exit when the process that started them is gone, so a killed command leaves none
behind, waiting or writing.
"""

from __future__ import annotations

import hashlib
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from rlkl import validate
from rlkl.loader import MAX_BYTES, LoadError, read_regular
from rlkl.validate import LessonFile

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor

# The process machinery (concurrent.futures, multiprocessing: ~30 ms to import) is imported
# only where a pool starts or runs, so a command that needs none (a warm check) never pays it.

T = TypeVar("T")
A = TypeVar("A")  # what is mapped: a lesson path, or a record
R = TypeVar("R")  # a chunk's answers
F = TypeVar("F")  # the function mapped

POOL_MIN_LESSONS = 48


def cpu_jobs() -> int:
    """The processes a batch check uses when none are asked for: one per CPU."""
    return os.cpu_count() or 1
"""Fewer lessons than this are worked on in the calling process (processes cost more)."""


def fingerprint(text: str) -> str:
    """The SHA-256 of a lesson's text: what a worker checked, as the cache compares it."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def file_fingerprint(path: Path) -> str:
    """:func:`fingerprint` of the file at ``path`` as it reads now ("" when it cannot)."""
    try:
        return hashlib.sha256(read_regular(path, MAX_BYTES)).hexdigest()
    except LoadError:
        return ""


def load_lesson(path: Path) -> LessonFile:
    """A lesson read and validated where it is worked on (no model: not a lesson)."""
    return validate.load_lesson(path)[0]


def _apply(function: Callable[[LessonFile], T], path: Path) -> T | None:
    """``function`` of the lesson at ``path``, or None when it is no valid lesson here."""
    try:
        file = load_lesson(path)
    except Exception:  # whatever it is, the caller validates it and reports what is wrong
        return None
    if file.document is None or file.lesson is None:
        return None
    return function(file)


def _chunk(function: Callable[[LessonFile], T], paths: list[Path]) -> list[T | None]:
    return [_apply(function, path) for path in paths]


def _extensions() -> tuple[str | None, tuple[str, ...]] | None:
    """The authors' functions this process activated (:func:`rlkl.extensions.state`), if any."""
    extensions = sys.modules.get("rlkl.extensions")
    return extensions.state() if extensions is not None else None


def _start(extensions: tuple[str | None, tuple[str, ...]] | None) -> None:
    """A worker's start: follow the parent, and call the same authors' functions as it does
    (under any start method: a spawned worker imports them again)."""
    _follow()
    if extensions is not None:
        from rlkl.extensions import reactivate

        reactivate(extensions)


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


def map_paths(
    function: Callable[[LessonFile], T], paths: Sequence[Path], jobs: int
) -> list[T | None]:
    """``function`` of each lesson at ``paths``, in order, across ``jobs`` processes: each
    worker reads and validates the lesson (:func:`rlkl.validate.load_lesson`) and applies
    ``function`` to it; None for a path that is not a valid lesson there (the caller
    validates it, and reports what is wrong). Below :data:`POOL_MIN_LESSONS` lessons, or
    when no pool can start, the same is done here.

    ``function`` must be picklable (module level, or a ``functools.partial`` of one) and
    report a failure of its lesson in its result (RLKL901), so one lesson never ends the
    run; an exception it raises ends the run as it would in one process. Chunks lost with a
    dead worker are done here, read again from disk.
    """
    listed = list(paths)
    answers = (_map(_chunk, function, listed, jobs)
               if jobs > 1 and len(listed) >= POOL_MIN_LESSONS else None)
    return answers if answers is not None else _chunk(function, listed)


def map_values(function: Callable[[A], T], items: Sequence[A], jobs: int, *,
               minimum: int = POOL_MIN_LESSONS) -> list[T]:
    """``function`` of each of ``items`` (picklable records, such as lesson reports), in
    order, across ``jobs`` processes as :func:`map_paths` does (here for fewer than
    ``minimum``, or when no pool can start)."""
    listed = list(items)
    answers = (_map(_values, function, listed, jobs)
               if jobs > 1 and len(listed) >= minimum else None)
    return answers if answers is not None else _values(function, listed)


def _values(function: Callable[[A], T], items: list[A]) -> list[T]:
    return [function(item) for item in items]


def _map(runner: Callable[[F, list[A]], list[R]], function: F, items: list[A], jobs: int
         ) -> list[R] | None:
    """``runner(function, chunk)`` of the chunks of ``items`` across ``jobs`` processes,
    joined in order (None: no pool can start here)."""
    size = max(1, min(16, len(items) // (8 * jobs)))  # small: nobody idles long at the end
    chunks = [items[i : i + size] for i in range(0, len(items), size)]
    from concurrent.futures import ProcessPoolExecutor

    try:
        pool = ProcessPoolExecutor(max_workers=jobs, initializer=_start,
                                   initargs=(_extensions(),))
    except (OSError, NotImplementedError, ImportError):  # no processes in this sandbox
        return None
    with pool:
        futures = [_submit(pool, runner, function, chunk) for chunk in chunks]
        try:
            return [a for f, c in zip(futures, chunks, strict=True)
                    for a in _done(f, runner, function, c)]
        except BaseException:
            for future in futures:
                if future is not None:
                    future.cancel()
            raise


def _submit(pool: ProcessPoolExecutor, runner: Callable[[F, list[A]], list[R]], function: F,
            chunk: list[A]) -> Future[list[R]] | None:
    """The chunk sent to a worker; None when no worker can take it (it is done here)."""
    from concurrent.futures.process import BrokenProcessPool

    try:
        return pool.submit(runner, function, chunk)
    except (OSError, BrokenProcessPool):
        return None


def _done(future: Future[list[R]] | None, runner: Callable[[F, list[A]], list[R]], function: F,
          chunk: list[A]) -> list[R]:
    """A chunk's answers; a chunk no worker took, or lost with its worker (killed, out of
    memory), is done here."""
    from concurrent.futures.process import BrokenProcessPool

    try:
        if future is not None:
            return future.result()
    except BrokenProcessPool:
        pass
    return runner(function, chunk)
