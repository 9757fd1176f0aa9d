"""The process pool of check, regen and the site: work really runs in other processes, a
lesson edited during a run is reported as it was checked (never a silent pass, never cached
under other bytes), a dead worker's lessons are done anyway, and workers follow their parent
under every start method."""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path

import pytest

from rlkl import check, pool, validate
from rlkl.cache import Cache
from rlkl.check import check_paths
from rlkl.regen import regen_paths
from rlkl.validate import LessonFile
from tests.claims.helpers import SEED, Workspace, checked_here

LESSONS = (SEED, "ppo-clipped-objective", "kl-direction-estimators")


def _pid(_: object) -> int:
    return os.getpid()


def _die_in_worker(caller: int, victim: str, file: LessonFile) -> str:
    """Kill the worker process that meets ``victim`` (never the caller)."""
    if file.path.parent.name == victim and os.getpid() != caller:
        os._exit(9)
    return file.path.parent.name


@pytest.fixture
def space(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Workspace:
    monkeypatch.setattr(pool, "POOL_MIN_LESSONS", 1)
    return Workspace.copy(tmp_path, *LESSONS)


def test_lessons_are_checked_in_other_processes(
    space: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    here = checked_here(monkeypatch)
    result = check_paths([space.root], jobs=2)
    assert len(result.reports) == len(LESSONS) and result.cached == 0 and here == []


@pytest.fixture
def read_here(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The lessons this process (not a worker) reads and validates from now on."""
    here: list[Path] = []
    load_lesson = validate.load_lesson
    parent = os.getpid()

    def spy(path: Path):  # type: ignore[no-untyped-def]
        if os.getpid() == parent:
            here.append(path)
        return load_lesson(path)

    monkeypatch.setattr(validate, "load_lesson", spy)
    return here


def test_a_pooled_lesson_is_read_and_validated_once_in_its_worker(
    space: Workspace, read_here: list[Path]
) -> None:
    """The command's process runs the corpus rules on the facts the workers send back: it
    parses none of the lessons they checked (each lesson is validated once, in parallel)."""
    result = check_paths([space.root], jobs=2)
    assert result.summary()["finished"] == len(LESSONS) and not result.summary()["errors"]
    assert read_here == []


def test_a_pooled_regen_reads_and_validates_each_lesson_once_in_its_worker(
    space: Workspace, read_here: list[Path]
) -> None:
    """regen's workers read, validate, fix and write each lesson in one pass: the command's
    process parses none of them (no validation first and again in the worker)."""
    space.edit("ratio is 1.4. With", "ratio is 1.5. With")  # one number for --fix to rewrite
    report, result = regen_paths([space.root], fix=True, jobs=2)
    assert report.fixed and result.summary()["finished"] == len(LESSONS)
    assert not result.summary()["errors"] and read_here == []


@pytest.mark.parametrize("command", ["check", "regen"])
def test_a_lesson_saved_while_workers_check_it_is_never_cached_under_other_bytes(
    command: str, space: Workspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An editor saves a corrected lesson while the workers check it (or regen works on it:
    regen caches the lessons it leaves as they were), then reverts to the wrong one: the
    workers' clean result is not kept under the key of the wrong bytes, so the wrong number is
    still reported afterwards (a cached false pass otherwise)."""
    run = {"check": check_paths, "regen": regen_paths}[command]
    lesson = space.path()
    right = lesson.read_bytes()
    space.edit("ratio is 1.4. With", "ratio is 1.5. With")  # a wrong number: RLKL401
    wrong = lesson.read_bytes()
    map_paths = check.map_paths

    def saved_meanwhile(*args, **options):  # type: ignore[no-untyped-def]
        lesson.write_bytes(right)
        try:
            return map_paths(*args, **options)
        finally:
            lesson.write_bytes(wrong)

    monkeypatch.setattr(check, "map_paths", saved_meanwhile)
    cache = Cache(tmp_path / "cache")
    during = run([space.root], jobs=2, cache=cache)  # type: ignore[operator]
    during = during[1] if command == "regen" else during  # regen: (report, check result)
    assert during.summary()["finished"] == len(LESSONS)
    monkeypatch.setattr(check, "map_paths", map_paths)
    after = check_paths([space.root], jobs=2, cache=cache)
    assert "RLKL401" in {d.code for d in after.diagnostics}


def test_a_lesson_no_worker_could_read_as_valid_is_validated_and_checked_here(
    space: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Half-written while the workers read it, whole again before validation: the lesson is
    checked in this process, as it now is (reported, never skipped)."""
    space.edit("ratio is 1.4. With", "ratio is 1.5. With")
    lesson = space.path()
    wrong = lesson.read_bytes()
    map_paths = check.map_paths

    def half_written(*args, **options):  # type: ignore[no-untyped-def]
        lesson.write_text("{ not json", encoding="utf-8")
        try:
            return map_paths(*args, **options)
        finally:
            lesson.write_bytes(wrong)

    monkeypatch.setattr(check, "map_paths", half_written)
    here = checked_here(monkeypatch)
    result = check_paths([space.root], jobs=2)
    assert result.summary()["finished"] == len(LESSONS)
    [found] = [d for d in result.diagnostics if d.code == "RLKL401"]
    assert found.file.endswith(f"{SEED}/lesson.json")
    assert here == [SEED]  # checked here


def test_a_lesson_edited_during_its_serial_check_is_not_cached(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cache keeps a result only under the key of the files it was computed from."""
    space = Workspace.copy(tmp_path)
    lesson = space.path()
    original = lesson.read_bytes()
    edited = original.replace(b"ratio is 1.4. With", b"ratio is 1.5. With")
    run_lesson = check._run_lesson

    def edited_meanwhile(file):  # type: ignore[no-untyped-def]
        lesson.write_bytes(edited)  # saved after the key was taken
        return run_lesson(file)

    monkeypatch.setattr(check, "_run_lesson", edited_meanwhile)
    cache = Cache(tmp_path / "cache")
    check_paths([space.root], cache=cache)
    assert not list((tmp_path / "cache").glob("*.json"))


def test_a_dead_workers_lessons_are_done_here(space: Workspace) -> None:
    paths = validate.discover([space.root])
    work = partial(_die_in_worker, os.getpid(), "ppo-clipped-objective")
    assert pool.map_paths(work, paths, 2) == [path.parent.name for path in paths]


@pytest.mark.parametrize("method", ["fork", "forkserver", "spawn"])
def test_workers_follow_their_parent_under_every_start_method(method: str) -> None:
    context = multiprocessing.get_context(method)
    with ProcessPoolExecutor(max_workers=1, mp_context=context, initializer=pool._follow) as p:
        assert p.submit(os.getpid).result(timeout=60) != os.getpid()


def test_lessons_no_worker_can_take_are_done_here(
    space: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A sandbox where processes cannot start: the same answers, from this process."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise OSError("no processes here")

    monkeypatch.setattr(ProcessPoolExecutor, "submit", refuse)
    paths = validate.discover([space.root])
    assert pool.map_paths(_pid, paths, 2) == [os.getpid()] * len(paths)


def _pid_and_square(x: int) -> tuple[int, int]:
    return os.getpid(), x * x


def test_records_are_mapped_in_other_processes_in_order(monkeypatch: pytest.MonkeyPatch) -> None:
    """map_values (the site's explorable examples) keeps the items' order across workers,
    and runs in this process below POOL_MIN_LESSONS items."""
    items = list(range(60))
    answers = pool.map_values(_pid_and_square, items, 2)
    assert [square for _, square in answers] == [x * x for x in items]
    assert os.getpid() not in {pid for pid, _ in answers}
    few = pool.map_values(_pid_and_square, items[: pool.POOL_MIN_LESSONS - 1], 2)
    assert {pid for pid, _ in few} == {os.getpid()}
