"""A throw-away copy of the shipped corpus for planting faults and edits."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from rlkl import check
from rlkl.check import CheckResult, check_paths
from rlkl.diagnostics import Diagnostic

CONTENT = Path(__file__).resolve().parents[2] / "content"
SEED = "policy-gradient-kl-control"


def checked_here(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The folders of the lessons this process (not a worker, not the cache) checks from now
    on, as ``rlkl check`` checks them (:func:`rlkl.check.check_lesson`)."""
    here: list[str] = []
    real, parent = check.check_lesson, os.getpid()

    def spy(file, *args, **kwargs):  # type: ignore[no-untyped-def]
        if os.getpid() == parent:
            here.append(file.path.parent.name)
        return real(file, *args, **kwargs)

    monkeypatch.setattr(check, "check_lesson", spy)
    return here


@dataclass
class Workspace:
    root: Path

    @classmethod
    def copy(cls, tmp_path: Path, *lessons: str) -> Workspace:
        root = tmp_path / "content"
        root.mkdir()
        shutil.copy(CONTENT / "catalog.json", root / "catalog.json")
        for lesson in lessons or (SEED,):
            shutil.copytree(CONTENT / lesson, root / lesson)
        return cls(root)

    def path(self, lesson: str = SEED, name: str = "lesson.json") -> Path:
        return self.root / lesson / name

    def read(self, lesson: str = SEED, name: str = "lesson.json") -> str:
        return self.path(lesson, name).read_text(encoding="utf-8")

    def edit(
        self, old: str, new: str, *, count: int = 1, lesson: str = SEED, name: str = "lesson.json"
    ) -> int:
        """Replace ``old`` by ``new`` (``count`` times, -1 for all); return new's offset."""
        text = self.read(lesson, name)
        assert old in text, f"{old!r} not in {name}"
        offset = text.index(old)
        self.path(lesson, name).write_text(text.replace(old, new, count), encoding="utf-8")
        return offset

    def check(self, lesson: str = SEED) -> CheckResult:
        return check_paths([self.root / lesson])


def copy_lesson(tmp_path: Path, lesson: str) -> Path:
    """A copy of one lesson folder (lesson, bindings, fixtures) beside the catalog."""
    return Workspace.copy(tmp_path, lesson).root / lesson


def edit_once(folder: Path, old: str, new: str) -> str:
    """Replace the single occurrence of ``old`` in ``folder/lesson.json``; return the new text."""
    path = folder / "lesson.json"
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} occurs {text.count(old)} times in lesson.json"
    edited = text.replace(old, new)
    path.write_text(edited, encoding="utf-8")
    return edited


def position(text: str, needle: str) -> tuple[int, int]:
    """1-based (line, column) of the first ``needle``; a ``^`` in it marks the character meant."""
    skip = max(needle.find("^"), 0)
    needle = needle.replace("^", "", 1)
    assert needle in text, f"{needle!r} is not in the text"
    offset = text.index(needle) + skip
    return text.count("\n", 0, offset) + 1, offset - (text.rfind("\n", 0, offset) + 1) + 1


def assert_fault_located(
    tmp_path: Path,
    lesson: str,
    edit: tuple[str, str],
    code: str,
    pointer: str,
    at: str,
    words: list[str],
) -> None:
    """Plant ``edit`` (old, new) in a copy of ``lesson``; ``check`` must fail with ``code`` at
    ``pointer``, at the line and column of ``at`` in the edited file, naming ``words``."""
    folder = copy_lesson(tmp_path, lesson)
    edited = edit_once(folder, *edit)
    result = check_paths([folder])
    assert result.summary()["errors"] > 0  # `rlkl check` exits 1
    found = find(result, code, pointer)
    assert found, [f"{d.code} {d.pointer}: {d.message}" for d in result.diagnostics]
    line, column = position(edited, at)
    located = [d for d in found if (d.line, d.column) == (line, column)]
    assert located, [(d.line, d.column, d.message) for d in found]
    for word in words:
        assert any(word in d.message for d in located), (word, [d.message for d in located])


Fault = tuple[str, str, str, str, str, str, list[str]]


def planted_fault_test(lesson: str, faults: list[Fault]) -> Callable[..., None]:
    """One parametrized test per planted fault of ``lesson``: each row is (id, old, new, code,
    pointer, text the diagnostic points at, words its message must hold); see
    :func:`assert_fault_located`. A lesson's test module binds it to a ``test_`` name."""

    @pytest.mark.parametrize(
        ("old", "new", "code", "pointer", "at", "words"),
        [f[1:] for f in faults],
        ids=[f[0] for f in faults],
    )
    def test(
        tmp_path: Path, old: str, new: str, code: str, pointer: str, at: str, words: list[str]
    ) -> None:
        assert_fault_located(tmp_path, lesson, (old, new), code, pointer, at, words)

    return test


def column_of(text: str, needle: str, *, start: int = 0) -> tuple[int, int]:
    """1-based (line, column) of the first ``needle`` at or after ``start``."""
    offset = text.index(needle, start)
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def find(result: CheckResult, code: str, pointer: str) -> list[Diagnostic]:
    return [d for d in result.diagnostics if d.code == code and d.pointer == pointer]


def codes(result: CheckResult) -> set[str]:
    return {d.code for d in result.diagnostics}
