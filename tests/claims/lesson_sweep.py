"""Plant a fault at every number of a lesson, one at a time, and say which were not caught.

For each numeric mention that ``rlkl claims`` lists for the shipped lesson, a copy of the
lesson gets that one number changed (its last digit moved by one, so the value differs at
the written precision) and is checked again. The change counts as caught when the check
reports an error in that lesson's ``lesson.json`` — at the number's own line and column
when the number is an output, a quiz number or a pinned constant, anywhere in the lesson
when it is an input (an input's error shows up at the numbers computed from it, or where
it disagrees with the other places that state it).
"""

from __future__ import annotations

from pathlib import Path

from rlkl.check import check_paths
from rlkl.claims.listing import mention_rows
from rlkl.claims.status import Status
from rlkl.diagnostics import Severity
from tests.claims.helpers import copy_lesson


def _offset(text: str, line: int, column: int) -> int:
    start = 0
    for _ in range(line - 1):
        start = text.index("\n", start) + 1
    return start + column - 1


def _changed(number: str) -> str:
    """``number`` with its last digit moved by one (9 becomes 8, any other d becomes d + 1)."""
    index = max(i for i, ch in enumerate(number) if ch.isdigit())
    digit = int(number[index])
    return number[:index] + str(digit - 1 if digit == 9 else digit + 1) + number[index + 1 :]


def uncaught_faults(tmp_path: Path, lesson: str) -> tuple[int, list[str]]:
    """(number of mentions tried, the ones whose change was not caught where it should be)."""
    folder = copy_lesson(tmp_path, lesson)
    path = folder / "lesson.json"
    original = path.read_text(encoding="utf-8")
    clean = check_paths([folder])
    assert clean.summary()["errors"] == 0, [d.message for d in clean.diagnostics]
    rows = mention_rows(clean.reports)
    missed = []
    for row in rows:
        offset = _offset(original, row.line, row.column)
        assert original[offset : offset + len(row.text)] == row.text, row
        edited = original[:offset] + _changed(row.text) + original[offset + len(row.text) :]
        path.write_text(edited, encoding="utf-8")
        errors = [
            d
            for d in check_paths([folder]).diagnostics
            if d.severity is Severity.ERROR and d.file.endswith(f"{lesson}/lesson.json")
        ]
        if row.status != Status.INPUT.shown:
            errors = [d for d in errors if (d.line, d.column) == (row.line, row.column)]
        if not errors:
            missed.append(f"{row.pointer} {row.text!r} -> {_changed(row.text)!r} ({row.role})")
    path.write_text(original, encoding="utf-8")
    return len(rows), missed
