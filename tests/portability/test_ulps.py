"""Every float of every shipped fixtures.json moved by 1 to 4 ulps, as another CPU's exp/log
kernels or another platform's libm write them: the verdict is the same everywhere
(``rlkl check``, the pytest plugin), and ``regen`` writes the canonical bytes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rlkl.check import check_paths
from rlkl.claims.fixtures import fixtures
from rlkl.claims.fixtures.recorded import canonical, same
from rlkl.regen import regen_paths
from tests.portability.shipped import CONTENT, copy_content, fixture_files, floats, perturb_fixtures

pytest_plugins = ["pytester"]


def _claims(root: Path) -> int:
    files = fixture_files(root)
    return sum(len(json.loads(p.read_text(encoding="utf-8"))["claims"]) for p in files)


@pytest.fixture
def noisy(tmp_path: Path) -> Path:
    root = copy_content(tmp_path)
    assert perturb_fixtures(root) > 1000  # every float of the corpus, not a handful
    return root


def test_shipped_fixtures_are_canonical() -> None:
    for path in fixture_files(CONTENT):
        data = json.loads(path.read_text(encoding="utf-8"))
        assert canonical(data) == data, path
        assert fixtures.dumps(data) == path.read_text(encoding="utf-8"), path


def test_check_gives_the_same_verdict_on_noisy_fixtures(noisy: Path) -> None:
    result = check_paths([noisy])
    assert result.diagnostics == []
    summary = result.summary()
    assert summary["claims"] == summary["verified"] == _claims(CONTENT)
    statuses = {c.status.value for report in result.reports for c in report.changes}
    assert statuses == {"verified"}


def test_pytest_plugin_passes_on_noisy_fixtures(
    noisy: Path, pytester: pytest.Pytester
) -> None:
    target = pytester.path / "content"
    noisy.rename(target)
    result = pytester.runpytest("content", "-p", "no:cacheprovider", "-q")
    lessons = len(fixture_files(target))
    result.assert_outcomes(passed=_claims(target) + lessons)


def test_regen_writes_the_canonical_bytes(noisy: Path) -> None:
    report, result = regen_paths([noisy])
    assert len(report.updated) == len(fixture_files(CONTENT))  # every file was noisy
    assert result.diagnostics == []
    for path in fixture_files(noisy):
        text = path.read_text(encoding="utf-8")
        data = json.loads(text)
        assert canonical(data) == data and fixtures.dumps(data) == text
        shipped = json.loads((CONTENT / path.parent.name / fixtures.FILENAME).read_text("utf-8"))
        assert same(shipped, data)
        assert len(list(floats(data))) == len(list(floats(shipped)))
    again, _ = regen_paths([noisy])
    assert again.updated == [] and len(again.unchanged) == len(fixture_files(CONTENT))


def test_regen_keeps_a_number_another_machine_rounded_the_other_way(tmp_path: Path) -> None:
    """A canonical recorded number a last bit away from the fresh one (the other side of a
    twelfth digit) is kept: no line is rewritten, even when the file is rewritten."""
    root = copy_content(tmp_path)
    path = root / "direct-preference-objective" / fixtures.FILENAME
    text = path.read_text(encoding="utf-8")
    assert text.count("0.119796005618") > 1
    across = text.replace("0.119796005618", "0.119796005619")
    path.write_text(across, encoding="utf-8")
    assert check_paths([root]).diagnostics == []
    report, _ = regen_paths([root])
    assert report.updated == []
    assert path.read_text(encoding="utf-8") == across
    # a change elsewhere in the file rewrites that claim only
    lesson = root / "direct-preference-objective" / "lesson.json"
    edited = json.loads(across)
    edited["claims"][0]["quote"] += " (edited)"
    path.write_text(fixtures.dumps(edited), encoding="utf-8")
    report, _ = regen_paths([root])
    assert report.updated == [path]
    assert path.read_text(encoding="utf-8") == across
    assert lesson.is_file()
