"""Every folder in ``examples/`` is a case of the claim engine, found automatically.

A case is a shipped lesson (``lesson``, copied with the catalog beside it) changed by the
files in the case's folder (each copied over the lesson's own), the files it ``remove``s, and
then by ``edits``, each ``old`` text replaced by ``new`` once, in order. ``rlkl check`` must
then fail with every diagnostic ``expect`` lists: its ``code``, in its ``file``, at its
``pointer``, at the line and column of the text ``at`` in the changed file (a ``^`` marks
the character meant; looked for from the first edit of that file on, when it is there; null:
anywhere in the file), and with each of its ``words`` in its message.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from rlkl.check import check_paths
from rlkl.diagnostics import CODES, Diagnostic
from tests.claims.helpers import Workspace

EXAMPLES = Path(__file__).resolve().parent / "examples"
CASE = "case.json"


def cases() -> list[Path]:
    return sorted(p for p in EXAMPLES.iterdir() if (p / CASE).is_file())


def load(folder: Path) -> dict[str, Any]:
    return json.loads((folder / CASE).read_text(encoding="utf-8"))


def build(tmp_path: Path, folder: Path) -> tuple[Path, dict[str, tuple[str, int]]]:
    """The case's lesson folder, and each changed file's text and first edit's offset."""
    case = load(folder)
    lesson = Workspace.copy(tmp_path, case["lesson"]).root / case["lesson"]
    changed: dict[str, tuple[str, int]] = {}
    for given in sorted(p for p in folder.iterdir() if p.name != CASE):
        shutil.copy(given, lesson / given.name)
        changed[given.name] = (given.read_text(encoding="utf-8"), 0)
    for name in case.get("remove", []):
        (lesson / name).unlink()
    for edit in case.get("edits", []):
        path = lesson / edit["file"]
        text = path.read_text(encoding="utf-8")
        assert edit["old"] in text, f"{edit['old']!r} is not in {edit['file']}"
        offset = text.index(edit["old"])
        text = text.replace(edit["old"], edit["new"], 1)
        path.write_text(text, encoding="utf-8")
        changed[edit["file"]] = (text, changed.get(edit["file"], (text, offset))[1])
    return lesson, changed


def _located(found: list[Diagnostic], text: str, start: int, at: str | None) -> list[Diagnostic]:
    """The diagnostics of ``found`` at the text ``at`` (see the module docstring)."""
    if at is None:
        return found
    caret, needle = max(at.find("^"), 0), at.replace("^", "", 1)
    assert needle in text, f"{needle!r} is not in the changed file"
    offset = (text.index(needle, start) if needle in text[start:] else text.index(needle)) + caret
    line, column = text.count("\n", 0, offset) + 1, offset - text.rfind("\n", 0, offset)
    return [d for d in found if (d.line, d.column) == (line, column)]


@pytest.mark.parametrize("folder", cases(), ids=lambda p: p.name)
def test_example(folder: Path, tmp_path: Path) -> None:
    lesson, changed = build(tmp_path, folder)
    result = check_paths([lesson])
    assert result.summary()["errors"] > 0  # `rlkl check` exits 1
    for want in load(folder)["expect"]:
        name = want.get("file", "lesson.json")
        found = [d for d in result.diagnostics if d.code == want["code"]
                 and d.pointer == want["pointer"] and d.file.endswith(f"/{name}")]
        assert found, [f"{d.code} {d.file} {d.pointer}: {d.message}" for d in result.diagnostics]
        text, start = changed.get(name) or ((lesson / name).read_text(encoding="utf-8"), 0)
        located = _located(found, text, start, want.get("at"))
        assert located, [(d.line, d.column, d.message) for d in found]
        for word in want.get("words", []):
            assert any(word in d.message for d in located), (word, [d.message for d in located])


# code -> the hostile case that exercises it instead: spending the evaluation budget takes
# seconds of sampling, so it runs once, under the hostile suite's timeout; two lesson files
# sharing one fixtures file is what `rlkl regen` refuses (a case here runs `rlkl check`)
EXERCISED_ELSEWHERE = {
    "RLKL422": "expr-expensive-repetition",
    "RLKL512": "regen-two-lessons-one-fixtures",
}
HOSTILE = EXAMPLES.parents[1] / "hostile" / "cases"


def test_every_claim_code_has_an_example() -> None:
    covered = {want["code"] for folder in cases() for want in load(folder)["expect"]}
    for code, case in EXERCISED_ELSEWHERE.items():
        hostile = json.loads((HOSTILE / case / CASE).read_text(encoding="utf-8"))
        assert code in {d["code"] for d in hostile["expect"]["diagnostics"]}, case
    wanted = {code for code in CODES if code[4] in "456"} - set(EXERCISED_ELSEWHERE)
    assert sorted(wanted - covered) == []
    assert not covered - set(CODES), "a case expects a code the table does not have"
