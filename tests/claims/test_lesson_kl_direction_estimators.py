"""The kl-direction-estimators lesson through the CLI: the shipped copy checks clean, and an
exempt constant must keep the value its exemption expects.

The lesson's planted faults, with code, pointer, line and column, are data:
``tests/claims/examples/kl-direction-estimators.*``.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from rlkl.cli import main
from tests.claims.helpers import copy_lesson

LESSON = "kl-direction-estimators"


def _check(folder: Path) -> tuple[int, list[dict]]:
    result = CliRunner().invoke(main, ["check", str(folder), "--format", "json"])
    return result.exit_code, json.loads(result.output)["diagnostics"]


def test_shipped_lesson_checks_clean(tmp_path: Path) -> None:
    code, diagnostics = _check(copy_lesson(tmp_path, LESSON))
    assert (code, diagnostics) == (0, [])


def test_exempt_constant_must_keep_its_value(tmp_path: Path) -> None:
    folder = copy_lesson(tmp_path, LESSON)
    edited = (folder / "lesson.json").read_text(encoding="utf-8")
    (folder / "lesson.json").write_text(edited.replace("(r − 1)", "(r − 7)", 1), encoding="utf-8")
    code, diagnostics = _check(folder)
    assert code == 1
    assert [d["code"] for d in diagnostics if d["code"] == "RLKL412"] == ["RLKL412"]
