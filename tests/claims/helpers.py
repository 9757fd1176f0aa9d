"""A throw-away copy of the shipped corpus for planting faults and edits."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from rlkl.claims.pipeline import CheckResult, check_paths
from rlkl.diagnostics import Diagnostic

CONTENT = Path(__file__).resolve().parents[2] / "content"
SEED = "policy-gradient-kl-control"


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


def column_of(text: str, needle: str, *, start: int = 0) -> tuple[int, int]:
    """1-based (line, column) of the first ``needle`` at or after ``start``."""
    offset = text.index(needle, start)
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def find(result: CheckResult, code: str, pointer: str) -> list[Diagnostic]:
    return [d for d in result.diagnostics if d.code == code and d.pointer == pointer]


def codes(result: CheckResult) -> set[str]:
    return {d.code for d in result.diagnostics}
