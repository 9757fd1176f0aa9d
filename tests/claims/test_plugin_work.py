"""The pytest plugin does each lesson's work once per process, not once per item.

Counted with monkeypatch on the plugin's own references (in-process pytester runs share the
module), never timed.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from rlkl import check, pytest_plugin
from tests.claims.helpers import CONTENT, SEED

pytest_plugins = ["pytester"]

LESSONS = (SEED, "ppo-clipped-objective", "kl-direction-estimators")
QUIET = ("-p", "no:cacheprovider", "-p", "no:xdist")


@pytest.fixture
def corpus(pytester: pytest.Pytester) -> pytest.Pytester:
    root = pytester.path / "content"
    root.mkdir()
    shutil.copy(CONTENT / "catalog.json", root / "catalog.json")
    for lesson in LESSONS:
        shutil.copytree(CONTENT / lesson, root / lesson)
    return pytester


def _items(lesson: str) -> int:
    fixture = json.loads((CONTENT / lesson / "fixtures.json").read_text(encoding="utf-8"))
    return len(fixture["claims"]) + 1  # one per recorded claim, plus the lesson item


def _counting(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str) -> list[tuple[Any, ...]]:
    """Replace ``owner.name`` by a wrapper that records its arguments."""
    calls: list[tuple[Any, ...]] = []
    real: Callable[..., Any] = getattr(owner, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, counted)
    return calls


def test_each_lesson_is_checked_once_not_once_per_item(
    corpus: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RLKL_CACHE_DIR", "off")  # every lesson is checked, none answered
    runs = _counting(monkeypatch, pytest_plugin, "check_paths")  # rlkl check, as it runs
    checked = _counting(monkeypatch, check, "check_lesson")
    result = corpus.runpytest_inprocess("content", *QUIET)
    result.assert_outcomes(passed=sum(_items(lesson) for lesson in LESSONS))
    assert sorted(args[0].path.parent.name for args in checked) == sorted(LESSONS)
    assert len(runs) == 1  # the lessons collected, once for all their items


def test_a_warm_cache_answers_the_plugin_as_it_answers_rlkl_check(
    corpus: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RLKL_CACHE_DIR", str(corpus.path / "cache"))
    _break_seed(corpus.path)
    cold = corpus.runpytest_inprocess("content", *QUIET)
    cold.assert_outcomes(failed=1, passed=sum(_items(lesson) for lesson in LESSONS) - 1)
    checked = _counting(monkeypatch, check, "check_lesson")
    warm = corpus.runpytest_inprocess("content", *QUIET)
    warm.assert_outcomes(failed=1, passed=sum(_items(lesson) for lesson in LESSONS) - 1)
    assert [line for line in warm.outlines if line.startswith("prose says")] == [
        line for line in cold.outlines if line.startswith("prose says")]
    assert checked == []  # every lesson unchanged: answered by the cache


def test_running_does_not_collect_the_fixtures_again(
    corpus: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    collected = _counting(monkeypatch, pytest_plugin.LessonFixtures, "collect")
    corpus.runpytest_inprocess("content", *QUIET).assert_outcomes(
        passed=sum(_items(lesson) for lesson in LESSONS)
    )
    assert len(collected) == len(LESSONS)


INTERLEAVE = """
def pytest_collection_modifyitems(items):
    # round-robin over the lessons: every item comes after items of the other lessons
    by_lesson = {}
    for item in items:
        by_lesson.setdefault(item.parent, []).append(item)
    queues = list(by_lesson.values())
    items[:] = [q[i] for i in range(max(map(len, queues))) for q in queues if i < len(q)]
"""


def _break_seed(root: Path) -> None:
    lesson = root / "content" / SEED / "lesson.json"
    text = lesson.read_text(encoding="utf-8")
    lesson.write_text(text.replace("ratio is 1.4", "ratio is 1.5", 1), encoding="utf-8")


def test_interleaved_lessons_are_checked_once_with_the_verdicts_of_a_run_in_order(
    corpus: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RLKL_CACHE_DIR", "off")
    _break_seed(corpus.path)
    in_order = corpus.runpytest_inprocess("content", *QUIET)
    in_order.assert_outcomes(failed=1, passed=sum(_items(lesson) for lesson in LESSONS) - 1)
    failure = [line for line in in_order.outlines if line.startswith("prose says")]

    corpus.makeconftest(INTERLEAVE)
    checked = _counting(monkeypatch, check, "check_lesson")
    shuffled = corpus.runpytest_inprocess("content", *QUIET)
    shuffled.assert_outcomes(failed=1, passed=sum(_items(lesson) for lesson in LESSONS) - 1)
    assert [line for line in shuffled.outlines if line.startswith("prose says")] == failure
    assert len(checked) == len(LESSONS)
