"""Lesson pages rendered on every CPU: a batch build shares them with forked processes.

MkDocs renders a site's pages one after another in one process: for 1,000 lessons that is
about a third of a cold build (~25 ms a page: material's templates, the search index's HTML
parser, the minifier). Once a batch build (``mkdocs build``, ``rlkl site build``) has read
every page (``on_env``), one process per further CPU is forked and renders the lesson pages
rendered now from the last one back, while MkDocs renders them from the first one on. A
forked process has the build's own configuration, navigation, templates, plugins and search
index, so a page it renders is the page MkDocs would write; each page is claimed by one
process only (:meth:`Pages.take`). A page a worker rendered is written as a kept page is
(:mod:`rlkl.site.kept`: its HTML and its search index entries as the worker made them); a
page a worker could not render (an error, a warning) is rendered by the build itself, which
reports what is wrong.

Pages are shared only where the site's pages can be kept (no plugin but rlkl's and the search
index, :func:`~rlkl.site.kept.keepable`) and where a process can be forked safely
(:func:`can_fork`).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

SHARED_MIN = 32
"""From this many lesson pages rendered now, they are shared with forked processes (a fork
costs a few milliseconds, a page ~25 ms)."""
TEMPLATE = "rlkl-shared.html"
"""The template of a shared page: the theme's ``main.html`` where the page is rendered, nothing
where another process rendered it (its HTML is written as that process made it)."""
HERE = "rlkl_render_here"
SOURCE = f'{{% if {HERE} %}}{{% include "main.html" %}}{{% endif %}}'


@dataclass(frozen=True)
class Made:
    """A page as a worker rendered it: the HTML to write and the search index entries it
    gave."""

    html: str
    search: tuple[dict[str, Any], ...]


def can_fork() -> bool:
    """Whether this process can fork a worker safely: the ``fork`` start method exists here
    and no other thread runs (a thread could hold a lock the worker would never see
    released)."""
    import multiprocessing
    import threading

    return "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1


class Warnings(logging.Handler):
    """Counts the warnings and errors logged to the logger it is added to."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1


def counted_only() -> Warnings:
    """In a forked process: MkDocs' log goes nowhere, its warnings and errors only counted
    (what the process made is left to the build when it logged any, and the build logs
    it)."""
    logger = logging.getLogger("mkdocs")
    for handler in list(logger.handlers):
        logger.removeHandler(handler)
    logger.propagate = False
    warnings = Warnings()
    logger.addHandler(warnings)
    return warnings


class Pages:
    """The lesson pages ``uris`` (in the order the build writes them), shared between this
    process, which takes them from the first one on, and ``workers`` forked processes, which
    take them from the last one back and render each with ``render`` (its :class:`Made`, or
    None when it cannot be written as it is: an error or a warning)."""

    def __init__(self, uris: Sequence[str], render: Callable[[str], Made | None],
                 workers: int) -> None:
        import multiprocessing

        context = multiprocessing.get_context("fork")
        self.uris = list(uris)
        self.index = {uri: i for i, uri in enumerate(self.uris)}
        self.parent = os.getpid()
        self.received = 0  # pages a worker rendered and this process wrote
        # the next page this process takes, and the next one a worker takes (from the end)
        self._bounds = context.Array("q", [0, len(self.uris) - 1])
        self._results: Any = context.Queue()  # a worker's feeder thread sends while it renders
        self._done: dict[int, Made | None] = {}
        self._workers = [context.Process(target=self._work, args=(render,), daemon=True,
                                         name="rlkl-pages") for _ in range(workers)]
        for worker in self._workers:
            worker.start()

    def _work(self, render: Callable[[str], Made | None]) -> None:
        """In a worker: render the last page not taken yet until none is left. Its log goes
        nowhere; a page that logged a warning is left to the build (it logs it there)."""
        warnings = counted_only()
        bounds = self._bounds
        while True:
            with bounds.get_lock():
                if bounds[1] < bounds[0]:
                    break
                index = bounds[1]
                bounds[1] = index - 1
            before = warnings.count
            try:
                made = render(self.uris[index])
            except Exception:  # the build renders the page again and reports what is wrong
                made = None
            self._results.put((index, made if warnings.count == before else None))
        self._results.close()
        self._results.join_thread()

    def take(self, uri: str) -> Made | None:
        """The page ``uri`` as a worker rendered it; None when it is to be rendered here (this
        process took it first, its worker could not render it, or this is a worker)."""
        index = self.index.get(uri)
        if index is None or os.getpid() != self.parent:
            return None
        with self._bounds.get_lock():
            if index <= self._bounds[1]:  # no worker has taken it: it is this process's
                self._bounds[0] = max(self._bounds[0], index + 1)
                return None
        made = self._wait(index)
        self.received += made is not None
        return made

    def _wait(self, index: int) -> Made | None:
        """What the worker that took page ``index`` sent of it (None when no worker is left
        to send it: one was killed)."""
        import queue

        while index not in self._done:
            try:
                got, made = self._results.get(timeout=0.2)
            except queue.Empty:
                if not any(w.is_alive() for w in self._workers):
                    break
                continue
            self._done[got] = made
        return self._done.pop(index, None)

    def close(self) -> None:
        """End the workers (at the end of the build, or when it fails)."""
        for worker in self._workers:
            if worker.is_alive():
                worker.terminate()
            worker.join()
        self._results.close()
        self._results.cancel_join_thread()
