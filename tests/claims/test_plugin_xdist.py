"""The pytest plugin under pytest-xdist: each worker checks only the lessons it runs.

The shares and the scheduler are tested on node ids and stand-in workers (no processes);
the runs start real workers (``runpytest_subprocess``) and count, in each process, the
lessons ``rlkl check``'s work is done on (:func:`rlkl.check.check_lesson`).
"""

from __future__ import annotations

import json
import re
import shutil
from typing import Any

import pytest

from rlkl.pytest_xdist import LessonScheduling, lesson_of, shares, worker_number
from tests.claims.helpers import CONTENT
from tests.claims.test_plugin_work import LESSONS, _break_seed, _items

pytest_plugins = ["pytester"]

NODEIDS = [
    "content/a/fixtures.json::lesson", "content/a/fixtures.json::x", "content/a/fixtures.json::y",
    "tests/test_own.py::test_one",
    "content/b/fixtures.json::lesson",
    "content/c/lesson.json::lesson",  # a lesson with no fixtures yet
    "content/d/fixtures.json::lesson", "content/d/fixtures.json::z",
    "tests/test_own.py::test_two",
]


def test_a_lesson_item_is_known_by_its_file_and_any_other_item_is_not() -> None:
    assert lesson_of("content/a/fixtures.json::ppo-ratio.ratio@/x") == "content/a/fixtures.json"
    assert lesson_of("content/c/lesson.json::lesson") == "content/c/lesson.json"
    assert lesson_of("tests/test_own.py::test_one") is None
    assert lesson_of("tests/my_fixtures.json.py::test") is None


def test_each_lesson_goes_whole_to_the_worker_with_the_fewest_items() -> None:
    owner = shares(NODEIDS, 2)
    # a (3 items) to gw0; b, c and d to gw1, which has fewer items after each of them;
    # the project's own tests (3 and 8) are not shared out
    assert owner == {0: 0, 1: 0, 2: 0, 4: 1, 5: 1, 6: 1, 7: 1}
    assert shares(NODEIDS, 2) == owner  # the same on every worker
    assert set(shares(NODEIDS, 1).values()) == {0}


def test_a_worker_started_in_place_of_a_dead_one_has_no_share() -> None:
    assert worker_number({"workerid": "gw1", "workercount": 2}) == 1
    assert worker_number({"workerid": "gw2", "workercount": 2}) is None
    assert worker_number({"workerid": "elsewhere", "workercount": 2}) is None


class _Config:
    """What :class:`xdist.scheduler.LoadScheduling` reads of pytest's config."""

    def __init__(self, workers: int) -> None:
        self.values = {"tx": [f"{workers}*popen"], "maxschedchunk": None}

    def getvalue(self, name: str) -> Any:
        return self.values[name]

    getoption = getvalue


class _Worker:
    """A worker as the scheduler sees it: what it was sent."""

    def __init__(self, number: int, count: int) -> None:
        self.workerinput = {"workerid": f"gw{number}", "workercount": count}
        self.gateway = type("Gateway", (), {"id": f"gw{number}"})()
        self.sent: list[int] = []
        self.shutting_down = False

    def send_runtest_some(self, indices: list[int]) -> None:
        self.sent.extend(indices)

    def shutdown(self) -> None:
        self.shutting_down = True


def _scheduled(nodeids: list[str], workers: int = 2) -> tuple[LessonScheduling, list[_Worker]]:
    scheduler = LessonScheduling(_Config(workers))
    nodes = [_Worker(n, workers) for n in range(workers)]
    for node in nodes:
        scheduler.add_node(node)
        scheduler.add_node_collection(node, nodeids)
    scheduler.schedule()
    return scheduler, nodes


def _run_all(scheduler: LessonScheduling, nodes: list[_Worker]) -> None:
    """The workers run what they were sent, an item each in turn, until none has more."""
    while any(scheduler.node2pending[node] for node in nodes):
        for node in nodes:
            if scheduler.node2pending[node]:
                scheduler.mark_test_complete(node, scheduler.node2pending[node][0])


def _mine(nodeids: list[str], number: int, workers: int = 2) -> list[int]:
    return sorted(i for i, worker in shares(nodeids, workers).items() if worker == number)


def test_each_worker_runs_its_share_and_the_rest_as_load_schedules_it() -> None:
    scheduler, nodes = _scheduled(NODEIDS)
    _run_all(scheduler, nodes)
    for number, node in enumerate(nodes):
        mine = _mine(NODEIDS, number)
        assert node.sent[: len(mine)] == mine  # its share, in collection order, first
        others = {i for i in shares(NODEIDS, 2) if i not in mine}
        assert not others & set(node.sent)  # and no item of another worker's share
    sent = sorted(i for node in nodes for i in node.sent)
    assert sent == list(range(len(NODEIDS)))  # every item once, the project's tests too
    assert all(node.shutting_down for node in nodes)


LARGE = [f"content/l{n}/fixtures.json::c{i}" for n in range(10) for i in range(40)]


def test_a_share_is_sent_in_chunks_so_a_stop_takes_effect_soon() -> None:
    """``-x`` or ``--maxfail`` shuts the workers down: each then runs only what it was sent."""
    scheduler, nodes = _scheduled(LARGE)
    for number, node in enumerate(nodes):
        assert node.sent == _mine(LARGE, number)[:50]  # a quarter of its 200 items
    for node in nodes:
        node.shutdown()
    _run_all(scheduler, nodes)
    assert [len(node.sent) for node in nodes] == [50, 50]


def test_maxschedchunk_caps_a_chunk_of_a_share() -> None:
    scheduler = LessonScheduling(_Config(2))
    scheduler.maxschedchunk = 3
    nodes = [_Worker(n, 2) for n in range(2)]
    for node in nodes:
        scheduler.add_node(node)
        scheduler.add_node_collection(node, LARGE)
    scheduler.schedule()
    assert [len(node.sent) for node in nodes] == [3, 3]
    _run_all(scheduler, nodes)
    assert [node.sent for node in nodes] == [_mine(LARGE, 0), _mine(LARGE, 1)]


def test_a_dead_workers_items_go_to_the_others() -> None:
    scheduler, (first, second) = _scheduled(LARGE)
    unsent = _mine(LARGE, 0)[len(first.sent):]
    crashed = scheduler.remove_node(first)
    assert crashed == LARGE[first.sent[0]]  # the item it was running
    _run_all(scheduler, [second])
    assert set(first.sent[1:]) | set(unsent) <= set(second.sent)  # the rest of its share too
    assert sorted(second.sent) == [i for i in range(len(LARGE)) if LARGE[i] != crashed]


def test_a_worker_that_is_not_up_leaves_its_share_to_the_others() -> None:
    scheduler = LessonScheduling(_Config(2))
    nodes = [_Worker(0, 2), _Worker(5, 2)]  # gw1 never came up; gw5 took its place
    for node in nodes:
        scheduler.add_node(node)
        scheduler.add_node_collection(node, NODEIDS)
    scheduler.schedule()
    _run_all(scheduler, nodes)
    assert sorted(nodes[0].sent + nodes[1].sent) == list(range(len(NODEIDS)))
    mine = _mine(NODEIDS, 0)
    assert nodes[0].sent[: len(mine)] == mine  # gw0 still runs its own share (it checks it)
    assert not set(mine) & set(nodes[1].sent)


@pytest.fixture
def corpus(pytester: pytest.Pytester) -> pytest.Pytester:
    root = pytester.path / "content"
    root.mkdir()
    shutil.copy(CONTENT / "catalog.json", root / "catalog.json")
    for lesson in LESSONS:
        shutil.copytree(CONTENT / lesson, root / lesson)
    _break_seed(pytester.path)
    pytester.makeconftest(COUNT_CHECKS)
    return pytester


COUNT_CHECKS = """
import os
from rlkl import check

_real = check.check_lesson


def _counted(*args, **kwargs):
    with open(os.environ["RLKL_TEST_CHECKED"], "a", encoding="utf-8") as log:
        worker = os.environ.get("PYTEST_XDIST_WORKER", "controller")
        log.write(f"{worker} {args[0].path.parent.name}\\n")
    return _real(*args, **kwargs)


check.check_lesson = _counted
"""

RAN = re.compile(r"\[(gw\d+)\] .*(?:PASSED|FAILED) content/([^/]+)/")


def _run(corpus: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, cache: str,
         *args: str) -> tuple[pytest.RunResult, list[tuple[str, str]]]:
    log = corpus.path / "checked.log"
    monkeypatch.setenv("RLKL_TEST_CHECKED", str(log))
    # under an outer ``-n``, the controller started here would inherit the outer worker's name
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    monkeypatch.setenv("RLKL_CACHE_DIR", str(corpus.path / "cache") if cache == "on" else "off")
    result = corpus.runpytest_subprocess("content", "-p", "no:cacheprovider", *args)
    per_lesson = "--rlkl-items=lesson" in args
    result.assert_outcomes(failed=1, passed=(len(LESSONS) if per_lesson else
                                             sum(_items(lesson) for lesson in LESSONS)) - 1)
    assert any("prose says 1.5 (1 decimal written)" in line for line in result.outlines)
    checked = [tuple(line.split()) for line in log.read_text(encoding="utf-8").splitlines()]
    return result, checked  # type: ignore[return-value]


@pytest.mark.parametrize("cache", ["on", "off"])
@pytest.mark.parametrize("items", ["claim", "lesson"])
def test_under_n_each_lesson_is_checked_once_by_the_worker_that_runs_it(
    corpus: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, cache: str, items: str
) -> None:
    result, checked = _run(corpus, monkeypatch, cache, "-n", "2", "-v", f"--rlkl-items={items}")
    assert sorted(lesson for _, lesson in checked) == sorted(LESSONS)  # once each
    ran = {(worker, lesson) for worker, lesson in RAN.findall(result.stdout.str())}
    assert ran == set(checked)  # by the worker that ran its items, and by no other process
    assert {worker for worker, _ in checked} == {"gw0", "gw1"}  # both checked a share


@pytest.mark.parametrize("cache", ["on", "off"])
def test_other_schedulings_check_the_content_lessons_first_on_the_controller(
    corpus: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, cache: str
) -> None:
    """``--dist loadfile`` may give a worker any lesson: the controller fills the cache
    first, and each worker reads it; with the cache off, each worker checks its lessons."""
    _, checked = _run(corpus, monkeypatch, cache, "-n", "2", "--dist", "loadfile")
    if cache == "on":
        assert sorted(checked) == sorted(("controller", lesson) for lesson in LESSONS)
    else:
        assert sorted(lesson for _, lesson in checked) == sorted(LESSONS * 2)
        assert "controller" not in {worker for worker, _ in checked}


def test_the_projects_own_tests_run_beside_the_lessons(
    corpus: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    corpus.makepyfile(test_own="import pytest\n\n@pytest.mark.parametrize('i', range(40))\n"
                               "def test_own(i):\n    assert i >= 0\n")
    log = corpus.path / "checked.log"
    monkeypatch.setenv("RLKL_TEST_CHECKED", str(log))
    # under an outer ``-n``, the controller started here would inherit the outer worker's name
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    monkeypatch.setenv("RLKL_CACHE_DIR", "off")
    result = corpus.runpytest_subprocess("content", "test_own.py", "-n", "2",
                                         "-p", "no:cacheprovider")
    result.assert_outcomes(failed=1, passed=sum(_items(lesson) for lesson in LESSONS) - 1 + 40)
    assert sorted(line.split()[1] for line in log.read_text(encoding="utf-8").splitlines()) \
        == sorted(LESSONS)


def test_lessons_outside_every_catalog_get_the_serial_verdicts(
    corpus: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With no catalog, a lesson's corpus is the lessons checked with it: a worker checking
    only its share would find the lessons it relates to missing (RLKL303)."""
    root = corpus.path / "content"
    (root / "catalog.json").unlink()
    for lesson in LESSONS:
        path = root / lesson / "lesson.json"
        data = json.loads(path.read_text(encoding="utf-8"))
        data["prerequisites"] = []
        data["related"] = [other for other in LESSONS if other != lesson]
        path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    monkeypatch.setenv("RLKL_TEST_CHECKED", str(corpus.path / "checked.log"))
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    monkeypatch.setenv("RLKL_CACHE_DIR", "off")
    outcomes = []
    for args in (["-p", "no:xdist"], ["-n", "2"]):
        result = corpus.runpytest_subprocess("content", "-p", "no:cacheprovider", "-rf", *args)
        failed = sorted(line.split(" - ")[0] for line in result.outlines
                        if line.startswith("FAILED "))
        outcomes.append((result.parseoutcomes(), failed))
    assert outcomes[0] == outcomes[1]
    assert len(outcomes[0][1]) == 1  # the broken seed claim, and no RLKL303
