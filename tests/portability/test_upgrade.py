"""Upgrades do not strand old fixtures: a lesson whose fixtures an older rlkl wrote (another
core version, floats at full precision) is fixed by one ``rlkl regen``; when its claims.yaml
also has an error a newer rule reports, every message says that step comes first, and after
it one ``rlkl regen`` is enough. No message sends the author to a ``regen`` that refuses."""

from __future__ import annotations

import json
from pathlib import Path

from rlkl.check import check_paths
from rlkl.regen import regen_paths
from tests.claims.helpers import SEED, Workspace

STALE_EXEMPTION = """  - in: /engineeringExample
    says: "index π_{i}"
    reason: "index notation, which an older rlkl read as a number"
"""


def _as_an_older_rlkl_wrote_it(space: Workspace) -> None:
    path = space.path(name="fixtures.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    data["core"] = "0.1.0"
    for claim in data["claims"]:
        if isinstance(claim["computed"], float):
            claim["computed"] += claim["computed"] * 3e-16  # full precision, another last bit
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def test_fixtures_of_an_older_core_need_one_regen(tmp_path: Path) -> None:
    space = Workspace.copy(tmp_path)
    _as_an_older_rlkl_wrote_it(space)
    [drift] = space.check().diagnostics
    assert drift.code == "RLKL504" and drift.message.endswith("run `rlkl regen`")
    report, result = regen_paths([space.root / SEED])
    assert report.updated == [space.path(name="fixtures.json")] and result.diagnostics == []
    assert space.check().diagnostics == []


def test_a_claims_yaml_error_is_the_step_every_message_puts_first(tmp_path: Path) -> None:
    space = Workspace.copy(tmp_path)
    _as_an_older_rlkl_wrote_it(space)
    bindings = space.path(name="claims.yaml")
    clean = bindings.read_text(encoding="utf-8")
    bindings.write_text(clean + STALE_EXEMPTION, encoding="utf-8")
    found = {d.code: d for d in space.check().diagnostics}
    assert set(found) == {"RLKL607", "RLKL504"}
    error = found["RLKL607"]
    assert "this exemption is not needed: remove it from claims.yaml" in error.message
    where = f"RLKL607 at {error.file}:{error.line}:{error.column}"
    assert found["RLKL504"].message.endswith(f"fix claims.yaml first ({where}), then run "
                                             "`rlkl regen`")
    report, result = regen_paths([space.root / SEED])  # refuses, and says why and what to do
    assert report.updated == []
    why = report.not_fixed[space.path()]
    assert why.endswith(f"fix claims.yaml first ({where}), then run `rlkl regen` again")
    assert {d.code for d in result.diagnostics} == {"RLKL607", "RLKL504"}
    # the step it names, then one regen
    bindings.write_text(clean, encoding="utf-8")
    report, result = regen_paths([space.root / SEED])
    assert report.updated == [space.path(name="fixtures.json")] and result.diagnostics == []
    assert check_paths([space.root / SEED]).diagnostics == []
