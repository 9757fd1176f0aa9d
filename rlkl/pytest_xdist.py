"""The pytest plugin under pytest-xdist: each worker checks only the lessons it runs.

Serially, the plugin checks every collected lesson once, across every CPU (:mod:`rlkl.pool`).
Under ``-n N`` each worker is a process of its own; if each checked every lesson, the corpus
would be checked N times over. With xdist's default scheduling (``--dist load``) the plugin
schedules its lessons itself, :class:`LessonScheduling`: every item of one lesson goes to one
worker, each worker's share is fixed before any item runs, and the worker checks its share,
and nothing else, when its first item runs. Both sides compute the shares with
:func:`shares` from the collection, which xdist has checked is the same list of node ids on
every worker. The controller checks nothing. Other items (the project's own tests) are
scheduled as ``--dist load`` schedules them, and so is a lesson's item given back by a
worker that died (the worker that takes it checks that lesson alone).
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
    """``--dist load``, but each worker is sent its share of lessons (:func:`shares`) at
    once; what is left is scheduled as :class:`xdist.scheduler.LoadScheduling` does."""

    collection: list[str] | None  # the node ids, once every worker's collection is in
    maxschedchunk: int | None  # --maxschedchunk

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
            by_number = {worker_number(node.workerinput): node for node in self.nodes}
            # as every worker computes them (``workercount``), if each is up; else none
            owner = shares(self.collection, self.numnodes) \
                if set(by_number) == set(range(self.numnodes)) else {}
            self.pending[:] = [i for i in range(len(self.collection)) if i not in owner]
            for number, node in by_number.items():
                share = sorted(i for i, worker in owner.items() if worker == number)
                if share:
                    self.node2pending[node].extend(share)
                    node.send_runtest_some(share)
        for node in self.nodes:
            self.check_schedule(node)  # the rest, or shutdown when nothing is left
