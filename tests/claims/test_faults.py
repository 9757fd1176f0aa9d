"""Faults in copies of the seed lesson that a case of ``tests/claims/examples/`` cannot state:
an infinite KL, fixtures changed, renamed or removed, and a fixtures file that is not JSON.

The seed's planted faults (one per claim form and per field that holds numbers) are data:
``tests/claims/examples/policy-gradient-kl-control.*``.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.claims.helpers import Workspace, find


def test_zero_mass_kl_is_reported_as_infinite(tmp_path: Path) -> None:
    space = Workspace.copy(tmp_path)
    space.edit("KL([0.7,0.3] || [0.5,0.5])", "KL([0.7,0.3] || [1.0,0.0])")
    messages = [d.message for d in space.check().diagnostics]
    assert any("= inf" in m for m in messages), messages


def test_fixture_problems(tmp_path: Path) -> None:
    space = Workspace.copy(tmp_path)
    fixture = space.read(name="fixtures.json")
    space.path(name="fixtures.json").write_text(
        fixture.replace('"computed": 1.4', '"computed": 1.5', 1), encoding="utf-8"
    )
    assert find(space.check(), "RLKL504", "/engineeringExample")
    space.path(name="fixtures.json").write_text(
        fixture.replace('"id": "ppo-ratio.ratio@/engineeringExample"', '"id": "gone"', 1),
        encoding="utf-8",
    )
    result = space.check()
    ids = [c["id"] for c in json.loads(fixture)["claims"]]
    index = ids.index("ppo-ratio.ratio@/engineeringExample")
    assert [d.pointer for d in result.diagnostics if d.code == "RLKL503"] == [f"/claims/{index}"]
    assert find(result, "RLKL502", "/engineeringExample")
    space.path(name="fixtures.json").unlink()
    assert find(space.check(), "RLKL501", "")


def test_broken_fixture_file_is_located(tmp_path: Path) -> None:
    space = Workspace.copy(tmp_path)
    space.path(name="fixtures.json").write_text('{"format": 1,}', encoding="utf-8")
    result = space.check()
    assert any(
        d.file.endswith("fixtures.json") and d.code.startswith("RLKL1") for d in result.diagnostics
    )
