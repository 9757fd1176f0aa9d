"""Faults in copies of the reinforce-baseline-kl lesson that reach past one number: a unit
swapped breaks the binding (reported in claims.yaml and at the lesson's numbers), and the
CLI's exit codes on a fault.

The lesson's planted faults, one number each, are data:
``tests/claims/examples/reinforce-baseline-kl.*``.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from rlkl.check import check_paths
from rlkl.cli import main
from tests.claims.helpers import copy_lesson, edit_once

LESSON = "reinforce-baseline-kl"


def test_unit_swapped_breaks_the_binding(tmp_path: Path) -> None:
    """Calling the bits value "nats" no longer matches the bound sentence (in claims.yaml)."""
    folder = copy_lesson(tmp_path, LESSON)
    edit_once(folder, "0.550978 bits", "0.550978 nats")
    result = check_paths([folder])
    bindings = [d for d in result.diagnostics if d.code == "RLKL607"]
    assert bindings and all(d.file.endswith("claims.yaml") for d in bindings)
    assert any("is not in /engineeringExample" in d.message for d in bindings)
    # its numbers are then unaccounted for, each reported in the lesson
    assert any(
        d.code == "RLKL410" and d.pointer == "/engineeringExample" for d in result.diagnostics
    )


def test_shipped_lesson_passes_and_cli_exits_1_on_a_fault(tmp_path: Path) -> None:
    folder = copy_lesson(tmp_path, LESSON)
    runner = CliRunner()
    clean = runner.invoke(main, ["check", str(folder)])
    assert clean.exit_code == 0, clean.output
    edit_once(
        folder,
        "its gradient π ⊙ (log(π/π_ref) − KL) is [0.430022,",
        "its gradient π ⊙ (log(π/π_ref) − KL) is [0.430023,",
    )
    faulty = runner.invoke(main, ["check", "--format", "json", str(folder)])
    assert faulty.exit_code == 1, faulty.output
    report = json.loads(faulty.output)
    hits = [
        d
        for d in report["diagnostics"]
        if d["code"] == "RLKL401" and d["pointer"] == "/engineeringExample"
    ]
    assert any("kl_grad" in d["message"] and "not 0.430023" in d["message"] for d in hits), hits
