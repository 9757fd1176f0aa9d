"""Command-line contracts under hostile paths (issue 8, item 8): nothing found is not a pass,
``--format json`` keeps its one-object contract on usage errors, and one diagnostic is one
line of text whatever the file names hold."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from rlkl.cli import main
from rlkl.diagnostics import Diagnostic
from rlkl.render import render

from .harness import CONTENT

SEED = "policy-gradient-kl-control"


def _invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("command", ["validate", "check", "regen", "claims"])
def test_a_folder_without_lessons_is_a_usage_error(tmp_path: Path, command: str) -> None:
    (tmp_path / "notes.txt").write_text("no lessons here\n", encoding="utf-8")
    code, stdout, stderr = _invoke(command, str(tmp_path))
    assert code == 2
    assert "no lesson found under" in stderr
    assert stdout == ""


@pytest.mark.parametrize("command", ["validate", "check", "regen"])
def test_usage_errors_keep_the_json_contract(tmp_path: Path, command: str) -> None:
    for args in (
        [command, str(tmp_path / "missing"), "--format", "json"],
        [command, "--format=json", "--no-such-option"],
        [command, str(tmp_path), "--format", "json"],  # exists, but holds no lesson
    ):
        code, stdout, stderr = _invoke(*args)
        assert code == 2, args
        payload = json.loads(stdout)
        assert set(payload) == {"diagnostics", "summary"}
        (problem,) = payload["diagnostics"]
        assert problem["code"] in ("RLKL903", "RLKL904")
        assert problem["severity"] == "error" and problem["message"]
        assert payload["summary"]["errors"] == 1
        assert "Error:" in stderr  # people still read the reason on stderr


def test_text_usage_errors_print_nothing_on_stdout(tmp_path: Path) -> None:
    code, stdout, _ = _invoke("check", str(tmp_path / "missing"))
    assert code == 2 and stdout == ""


def test_a_newline_in_a_folder_name_does_not_split_text_lines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    content = Path("content")
    content.mkdir()
    shutil.copy(CONTENT / "catalog.json", content / "catalog.json")
    odd = content / "new\nline"
    odd.mkdir()
    shutil.copy(CONTENT / SEED / "lesson.json", odd / "lesson.json")
    code, stdout, _ = _invoke("validate", str(content))
    assert code == 1
    lines = [line for line in stdout.splitlines() if line]
    assert any("new\\nline/lesson.json" in line and "RLKL302" in line for line in lines)
    for line in lines[:-1]:  # every line but the summary starts with a located file
        assert line.startswith("content/"), line


def test_text_escapes_every_control_character() -> None:
    nasty = Diagnostic("a\nb\rc\x1b[31m\u2028.json", 1, 2, "/k\ney", "RLKL105", "x\ty\x85z")
    text = render([nasty], {"errors": 1}, "text")
    first = text.splitlines()[0]
    assert first == "a\\nb\\rc\\x1b[31m\\u2028.json:1:2 /k\\ney RLKL105 x\\ty\\x85z"
    assert text.count("\n") == 3  # the diagnostic, a blank line, the summary
