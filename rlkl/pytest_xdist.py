"""The pytest plugin under pytest-xdist: each worker checks only the lessons it runs.

Serially, the plugin checks every collected lesson once, across every CPU (:mod:`rlkl.pool`).
Under ``-n N`` each worker is a process of its own; if each checked every lesson, the corpus
would be checked N times over. With xdist's default scheduling (``--dist load``) the plugin
schedules its lessons itself, :class:`LessonScheduling`: every item of one lesson goes to one
worker, each worker's share is fixed before any item runs (and sent to it in chunks), and the
worker checks its share, and nothing else, when its first item runs. Both sides compute the
shares with :func:`shares` from the collection, which xdist has checked is the same list of
node ids on every worker; a worker's number is its place among them (:func:`worker_number`).
The controller checks nothing. Other items (the project's own tests) are scheduled as
``--dist load`` schedules them, and so are the share of a worker that is not up when the
items are shared out and the items a worker that died did not run (the worker that takes
such a lesson checks it alone). A worker that collected a lesson outside every catalog checks
every collected lesson (:func:`rlkl.pytest_plugin._to_check`): that lesson's corpus is the
lessons checked with it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import pytest
from xdist.scheduler import LoadScheduling

from rlkl.claims.fixtures.fixtures import FILENAME
from rlkl.corpus import LESSON_FILE

_WORKER = re.compile(r"gw(\d+)")


def lesson_of(nodeid: str) -> str | None:
    """The file part of an item of the rlkl plugin's (``…/fixtures.json::claim``, or
    ``…/lesson.json::lesson`` for a lesson with no fixtures yet); None for any other item."""
    file = nodeid.split("::", 1)[0]
    return file if file.rsplit("/", 1)[-1] in (FILENAME, LESSON_FILE) else None


def shares(nodeids: Sequence[str], workers: int) -> dict[int, int]:
    """By index into ``nodeids`` (a session's collection), the worker that runs each lesson
    item: a lesson's items all go to one worker, and each lesson, in collection order, to
    the worker with the fewest items so far (the lowest number on a tie). Other items are
    not in it. Deterministic: the controller and every worker compute the same shares."""
    groups: dict[str, list[int]] = {}
    for index, nodeid in enumerate(nodeids):
        lesson = lesson_of(nodeid)
        if lesson is not None:
            groups.setdefault(lesson, []).append(index)
    load = [0] * max(1, workers)
    owner: dict[int, int] = {}
    for indices in groups.values():
        worker = load.index(min(load))
        load[worker] += len(indices)
        owner.update(dict.fromkeys(indices, worker))
    return owner


def worker_number(workerinput: dict[str, object]) -> int | None:
    """A worker's number (``gw3``: 3) among the first ``workercount``; None for a worker
    started later in place of one that died (it has no share)."""
    found = _WORKER.fullmatch(str(workerinput.get("workerid", "")))
    count = workerinput.get("workercount")
    number = int(found.group(1)) if found else None
    return number if number is not None and isinstance(count, int) and number < count else None


SHARED = "rlkl_shares"
"""The key, in a worker's ``workerinput``, that says its lessons are scheduled by
:class:`LessonScheduling` (a worker's own ``--dist`` always reads ``no``)."""


def scheduled_here(config: pytest.Config) -> bool:
    """Whether this run's lessons are scheduled by :class:`LessonScheduling`: on the
    controller, xdist's ``--dist load`` (``-n`` alone); on a worker, what the controller
    said (:data:`SHARED`)."""
    workerinput = getattr(config, "workerinput", None)
    if workerinput is not None:
        return workerinput.get(SHARED) is True
    return bool(config.getvalue("dist") == "load")


class LessonScheduling(LoadScheduling):  # type: ignore[misc]  # xdist: no type hints
    """``--dist load``, except that each worker runs the items of its own share of lessons
    (:func:`shares`). A share is sent in chunks, as ``--dist load`` sizes them (a quarter of
    what is left, at most ``--maxschedchunk``), so that ``-x`` and ``--maxfail`` stop a
    worker soon; the other items, and the share of a worker that is not up (or died), are
    scheduled as ``--dist load`` schedules them."""

    collection: list[str] | None  # the node ids, once every worker's collection is in
    maxschedchunk: int | None  # --maxschedchunk
    unsent: dict[object, list[int]]  # by worker, what is left of its share, in order

    def __init__(self, config: pytest.Config, log: object = None) -> None:
        super().__init__(config, log)
        self.unsent = {}

    @property
    def tests_finished(self) -> bool:
        return not any(self.unsent.values()) and bool(super().tests_finished)

    @property
    def has_pending(self) -> bool:
        return any(self.unsent.values()) or bool(super().has_pending)

    def schedule(self) -> None:
        assert self.collection_is_completed
        if self.collection is None:
            if not self._check_nodes_have_same_collection():
                self.log("**Different tests collected, aborting run**")
                return
            self.collection = next(iter(self.node2collection.values()))
            if not self.collection:
                return
            if self.maxschedchunk is None:
                self.maxschedchunk = len(self.collection)
            # every worker computes the same shares for its number, gw0 … gw(numnodes - 1)
            owner = shares(self.collection, self.numnodes)
            numbered = {number: node for node in self.nodes
                        if (number := worker_number(node.workerinput)) is not None}
            for number, node in numbered.items():
                self.unsent[node] = sorted(i for i, w in owner.items() if w == number)
            self.pending[:] = [i for i in range(len(self.collection))
                               if owner.get(i) not in numbered]
            for node, share in self.unsent.items():
                self._send_share(node, max(2, min(len(share) // 4, self.maxschedchunk)))
        for node in self.nodes:
            if not self.unsent.get(node):
                self.check_schedule(node)  # the rest, or shutdown when nothing is left

    def check_schedule(self, node: object, duration: float = 0) -> None:
        """Top up a worker's queue from its share (as :class:`LoadScheduling` tops it up
        from the items left), then from the other items once its share is sent."""
        share = self.unsent.get(node)
        if not share:
            super().check_schedule(node, duration=duration)
            return
        if node.shutting_down:  # type: ignore[attr-defined]
            return
        queued = self.node2pending[node]
        if len(queued) < max(2, len(share) // 4) and not (duration >= 0.1 and len(queued) >= 2):
            self._send_share(node, min(max(2, len(share) // 2) - len(queued),
                                       max(2 - len(queued), self.maxschedchunk or 0)))

    def remove_node(self, node: object) -> str | None:
        """A worker gone: what it did not run, its unsent share too, goes to the others."""
        unsent = self.unsent.pop(node, [])
        self.pending.extend(unsent)
        crashed: str | None = super().remove_node(node)
        if unsent and crashed is None:  # xdist reschedules only when items were queued
            for other in self.nodes:
                self.check_schedule(other)
        return crashed

    def _send_share(self, node: object, count: int) -> None:
        share = self.unsent[node]
        sent, share[:] = share[:count], share[count:]
        if sent:
            self.node2pending[node].extend(sent)
            node.send_runtest_some(sent)  # type: ignore[attr-defined]
