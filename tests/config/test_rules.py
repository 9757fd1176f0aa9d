"""Rule selection as an author uses it: a configuration in the repository, `rlkl check`
(and the site, regen and the plugin) reporting only what it selects, `--statistics`, and a
rule adopted lesson by lesson."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from rlkl.diagnostics import Diagnostic, Severity
from rlkl.rules import Rules, SelectorError, path_ignore
from tests.claims.helpers import CONTENT, SEED, Workspace
from tests.config.helpers import run, seed_alone

pytest_plugins = ["pytester"]

WRONG = ("ratio is 1.4. With", "ratio is 1.5. With")  # one RLKL401 in the seed lesson


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Workspace:
    """An author's repository (the working folder) whose seed lesson has a wrong number."""
    space = seed_alone(tmp_path)
    space.edit(*WRONG)
    monkeypatch.chdir(tmp_path)
    return space


def _codes(out: str) -> list[str]:
    return [d["code"] for d in json.loads(out)["diagnostics"]]


def test_without_configuration_every_rule_is_reported(repo: Workspace) -> None:
    code, out, _ = run("check", "--format", "json")
    assert code == 1 and _codes(out) == ["RLKL401"]


def test_ignore_in_pyproject_and_on_the_command_line(repo: Workspace) -> None:
    Path("pyproject.toml").write_text('[project]\nname = "lessons"\n\n[tool.rlkl]\n'
                                      'ignore = ["computed-number-wrong"]\n', encoding="utf-8")
    code, out, _ = run("check", "--format", "json")
    assert code == 0 and _codes(out) == []
    assert json.loads(out)["summary"]["verified"] < json.loads(out)["summary"]["claims"]
    code, out, _ = run("check", "--format", "json", "--isolated")
    assert code == 1 and _codes(out) == ["RLKL401"]
    # rlkl claims lists the failing row, and exits as rlkl check does: the rule is ignored
    code, out, _ = run("claims")
    assert code == 0 and "FAILED" in out
    # from a subfolder, the configuration's folder is the project's root
    os.chdir("content")
    assert run("check", "--format", "json")[0] == 0
    os.chdir("..")
    Path("pyproject.toml").unlink()
    assert run("check", "--ignore", "RLKL4", "--format", "json")[0] == 0
    assert run("check", "--select", "RLKL3,RLKL5", "--format", "json")[0] == 0
    assert run("check", "--select", "RLKL5", "--extend-select", "401")[0] == 1


def test_per_path_ignores_adopt_a_rule_lesson_by_lesson(repo: Workspace) -> None:
    config = Path("rlkl.toml")
    config.write_text(f'[per-path-ignores]\n"content/{SEED}" = ["RLKL401"]\n'
                      '"content/other-*/**" = ["RLKL430"]\n', encoding="utf-8")
    code, out, _ = run("check", "--format", "json")
    assert code == 0 and _codes(out) == []  # the second pattern matches no checked file
    # the lesson is fixed: its ignore now suppresses nothing, a preview warning says so
    repo.edit(WRONG[1], WRONG[0])
    code, out, _ = run("check", "--format", "json")
    (found,) = json.loads(out)["diagnostics"]
    assert code == 0 and found["code"] == "RLKL810" and found["severity"] == "warning"
    assert (found["file"], found["line"], found["column"]) == ("rlkl.toml", 2, 1)
    assert "RLKL401" in found["message"] and f"content/{SEED}" in found["message"]
    # preview rules are errors under --preview (or `preview = true`)
    code, out, _ = run("check", "--format", "json", "--preview")
    assert code == 1 and json.loads(out)["diagnostics"][0]["severity"] == "error"
    config.write_text("preview = true\n" + config.read_text(encoding="utf-8"),
                      encoding="utf-8")
    assert run("check", "--format", "json")[0] == 1
    assert run("check", "--format", "json", "--no-preview")[0] == 0


def test_statistics_count_by_code(repo: Workspace) -> None:
    (repo.root / SEED / "fixtures.json").unlink()
    code, out, _ = run("check", "--statistics")
    assert code == 1
    lines = out.splitlines()
    assert lines[0].split() == ["1", "RLKL401", "[error]", "computed-number-wrong"]
    assert lines[1].split()[1:3] == ["RLKL501", "[error]"] and lines[-1].startswith("rlkl: ")
    code, out, _ = run("check", "--statistics", "--format", "json")
    payload = json.loads(out)
    assert [row["code"] for row in payload["statistics"]] == ["RLKL401", "RLKL501"]
    assert payload["statistics"][0] == {"count": 1, "code": "RLKL401",
                                        "name": "computed-number-wrong", "severity": "error"}
    assert payload["summary"]["errors"] == 2
    assert run("validate", "--statistics")[1].startswith("rlkl: ")  # nothing to count


def test_codes_a_lesson_cannot_be_checked_past_are_always_reported(repo: Workspace) -> None:
    code, out, err = run("check", "--ignore", "RLKL105", "--format", "json")
    assert code == 2 and _codes(out) == ["RLKL805"] and "cannot be ignored" in err
    repo.path().write_text("{", encoding="utf-8")
    code, out, _ = run("check", "--ignore", "RLKL1", "--select", "RLKL4", "--format", "json")
    assert code == 1 and _codes(out) == ["RLKL105"]


def test_a_wrong_configuration_stops_every_command_located(repo: Workspace) -> None:
    Path("rlkl.toml").write_text('jobs = 2\nignor = ["RLKL401"]\n', encoding="utf-8")
    before = (repo.root / SEED / "fixtures.json").read_bytes()
    for command in ("check", "validate", "regen", "claims"):
        code, out, err = run(command, "--format", "json")
        assert code == 2, command
        (found,) = json.loads(out)["diagnostics"]
        assert (found["file"], found["line"], found["code"]) == ("rlkl.toml", 2, "RLKL802")
        assert "rlkl.toml:2:1: RLKL802 unknown key 'ignor'" in err
        assert "Try 'rlkl" not in err  # the command line was right: no usage text
    assert (repo.root / SEED / "fixtures.json").read_bytes() == before  # regen wrote nothing


def test_content_folders_and_jobs_come_from_the_configuration(repo: Workspace) -> None:
    shutil.move("content", "lessons")
    Path("rlkl.toml").write_text('content = ["lessons"]\njobs = 1\n', encoding="utf-8")
    code, out, _ = run("check", "--format", "json")
    assert code == 1 and json.loads(out)["diagnostics"][0]["file"].startswith("lessons/")
    Path("rlkl.toml").write_text('jobs = 1\n\ncontent = ["gone"]\n', encoding="utf-8")
    code, out, err = run("check", "--format", "json")
    assert code == 2 and "rlkl.toml:3:1: RLKL806 content folder gone does not exist" in err
    assert run("check", "lessons", "--format", "json")[0] == 1  # a path needs no folder


def test_regen_reports_only_what_is_selected(repo: Workspace) -> None:
    Path("rlkl.toml").write_text('ignore = ["RLKL401"]\n', encoding="utf-8")
    code, out, _ = run("regen", "--format", "json")
    assert code == 0 and _codes(out) == []


def test_the_rules_object() -> None:
    d = Diagnostic("content/a/lesson.json", 3, 4, "/x", "RLKL430", "m")
    rules = Rules.from_selectors(root=Path.cwd())
    assert rules.apply([d]) == [d]
    assert Rules.from_selectors(ignore=["RLKL43"]).apply([d]) == []
    one = path_ignore("content/a", ["RLKL430"], file="rlkl.toml", line=5, column=1)
    assert Rules.from_selectors(per_path=[one]).apply([d], ["content/a/lesson.json"]) == []
    other = path_ignore("content/b*", ["equation-unaccounted"], file="rlkl.toml", line=6)
    (unused,) = Rules.from_selectors(per_path=[other]).apply([], ["content/b-x/claims.yaml"])
    assert (unused.code, unused.line, unused.severity) == ("RLKL810", 6, Severity.WARNING)
    assert Rules.from_selectors(per_path=[other], preview=True).apply(
        [], ["content/bee/lesson.json"])[0].severity is Severity.ERROR
    assert Rules.from_selectors(per_path=[other]).apply([], ["content/c/lesson.json"]) == []
    with pytest.raises(SelectorError, match="names no code"):
        Rules.from_selectors(select=["RLKL0"])


@pytest.fixture
def plugin_repo(pytester: pytest.Pytester) -> pytest.Pytester:
    root = pytester.path / "content"
    root.mkdir()
    shutil.copy(CONTENT / "catalog.json", root / "catalog.json")
    shutil.copytree(CONTENT / SEED, root / SEED)
    lesson = root / SEED / "lesson.json"
    lesson.write_text(lesson.read_text(encoding="utf-8").replace(*WRONG, 1), encoding="utf-8")
    return pytester


def test_the_pytest_plugin_skips_a_claim_whose_rule_is_ignored(
    plugin_repo: pytest.Pytester,
) -> None:
    claims = len(json.loads((CONTENT / SEED / "fixtures.json").read_text())["claims"])
    plugin_repo.runpytest("content", "-p", "no:cacheprovider").assert_outcomes(
        failed=1, passed=claims)
    (plugin_repo.path / "rlkl.toml").write_text(
        f'[per-path-ignores]\n"content/{SEED}" = ["RLKL401"]\n', encoding="utf-8")
    result = plugin_repo.runpytest("content", "-p", "no:cacheprovider", "-rs")
    result.assert_outcomes(skipped=1, passed=claims)
    result.stdout.fnmatch_lines(["*RLKL401 is ignored here by the configuration*"])
    per_lesson = plugin_repo.runpytest("content", "-p", "no:cacheprovider",
                                       "--rlkl-items=lesson")
    per_lesson.assert_outcomes(passed=1)
    (plugin_repo.path / "rlkl.toml").write_text("ignore = [\n", encoding="utf-8")
    broken = plugin_repo.runpytest("content", "-p", "no:cacheprovider")
    assert broken.ret == pytest.ExitCode.USAGE_ERROR
    broken.stderr.fnmatch_lines(["*rlkl.toml:1:11: RLKL801 not valid TOML*"])


def test_the_pytest_plugin_takes_the_configured_cache_for_its_session_only(
    plugin_repo: pytest.Pytester, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``cache-dir`` and ``cache-size`` of rlkl.toml are the plugin's cache, as they are
    ``rlkl check``'s; the pytest process's environment is as it was once the run is over."""
    for name in ("RLKL_CACHE_DIR", "RLKL_CACHE_SIZE"):
        monkeypatch.setenv(name, "")
        monkeypatch.delenv(name)
    (plugin_repo.path / "rlkl.toml").write_text(
        'cache-dir = "own-cache"\ncache-size = 64\n', encoding="utf-8")
    plugin_repo.runpytest("content", "-p", "no:cacheprovider").assert_outcomes(
        failed=1, passed=len(json.loads((CONTENT / SEED / "fixtures.json").read_text())["claims"]))
    assert list((plugin_repo.path / "own-cache").glob("*.rows.json"))
    assert "RLKL_CACHE_DIR" not in os.environ and "RLKL_CACHE_SIZE" not in os.environ
