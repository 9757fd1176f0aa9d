"""A lesson written for an earlier rlkl, brought up to date with the README's steps
("Upgrading rlkl"): fixtures of an older core (RLKL504) and equations an older rlkl did not
check (RLKL430)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.claims.helpers import SEED, Workspace
from tests.config.helpers import run, seed_alone


def _run(*args: str) -> tuple[int, str]:
    code, out, _ = run(*args)
    return code, out


@pytest.fixture
def legacy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Workspace:
    space = seed_alone(tmp_path)
    bindings = space.read(name="claims.yaml")
    start, end = bindings.index("equations:"), bindings.index("exempt:")
    space.path(name="claims.yaml").write_text(bindings[:start] + bindings[end:],
                                              encoding="utf-8")
    space.edit('"core": "1"', '"core": "0.1.0"', name="fixtures.json")
    monkeypatch.chdir(tmp_path)
    return space


def test_the_documented_upgrade_steps(legacy: Workspace) -> None:
    guide = Path(__file__).resolve().parents[2] / "site" / "docs" / "guide" / "configuration.md"
    assert "## Upgrading rlkl" in guide.read_text(encoding="utf-8")
    # 1. what the new rlkl reports, by code
    code, out = _run("check", "--statistics")
    assert code == 1
    assert [line.split()[:2] for line in out.splitlines()[:-1]] == [
        ["3", "RLKL430"], ["1", "RLKL504"]]
    # 2. regen brings the fixtures up to date, whatever else stands
    assert _run("regen")[0] == 1
    assert json.loads(legacy.read(name="fixtures.json"))["core"] == "1"
    # 3. the new rule is adopted for the lessons that do not pass it yet
    Path("rlkl.toml").write_text(f'[per-path-ignores]\n"content/{SEED}" = ["RLKL430"]\n',
                                 encoding="utf-8")
    assert _run("check")[0] == 0
    # 4. its equations bound, the lesson passes the rule, and the ignore says it is unused
    space_bindings = legacy.path(name="claims.yaml")
    original = (Path(__file__).resolve().parents[2] / "content" / SEED / "claims.yaml")
    space_bindings.write_text(original.read_text(encoding="utf-8"), encoding="utf-8")
    code, out = _run("check", "--format", "json")
    found = [d["code"] for d in json.loads(out)["diagnostics"]]
    assert code == 0 and found == ["RLKL810"]
    Path("rlkl.toml").unlink()
    assert _run("check")[0] == 0
