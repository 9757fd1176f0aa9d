"""A throw-away copy of the shipped corpus for planting faults and edits."""

from __future__ import annotations

import os
import shutil
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


def find(result: CheckResult, code: str, pointer: str) -> list[Diagnostic]:
    return [d for d in result.diagnostics if d.code == code and d.pointer == pointer]


def codes(result: CheckResult) -> set[str]:
    return {d.code for d in result.diagnostics}
