"""Faults in a copy of the PPO clipped-objective lesson that reach more than one number:
the answer key moved, a quiz input changed, and the CLI's exit codes on a fault.

The lesson's planted faults, one number each (a computed value, an input, the answer key, a
threshold, a gradient, the misconception, a distractor's mistake), are data:
``tests/claims/examples/ppo-clipped-objective.*``.
"""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from rlkl.check import check_paths
from rlkl.cli import main
from tests.claims.helpers import copy_lesson, edit_once, find

LESSON = "ppo-clipped-objective"


def test_answer_key_moved_also_flags_the_old_key(tmp_path: Path) -> None:
    folder = copy_lesson(tmp_path, LESSON)
    edit_once(folder, '"answer": 0', '"answer": 2')
    result = check_paths([folder])
    assert find(result, "RLKL407", "/check/options/0")  # −0.8 is now a "distractor"


def test_quiz_input_changed_breaks_explanation_and_condition(tmp_path: Path) -> None:
    folder = copy_lesson(tmp_path, LESSON)
    edit_once(folder, "ratio ρ = 0.7 and advantage", "ratio ρ = 0.9 and advantage")
    result = check_paths([folder])
    assert find(result, "RLKL406", "/check/explanation")
    assert find(result, "RLKL401", "/check/explanation")  # raw product, clipped, inverted
    # "the lower threshold is the side that binds" no longer holds for ρ = 0.9
    assert any(
        "quiz_rho < lower" in d.message for d in find(result, "RLKL405", "/check/explanation")
    )


def test_cli_exit_codes_and_pointer(tmp_path: Path) -> None:
    folder = copy_lesson(tmp_path, LESSON)
    runner = CliRunner()
    clean = runner.invoke(main, ["check", str(folder)])
    assert clean.exit_code == 0, clean.output
    edit_once(folder, "a ratio above 1.2 receives", "a ratio above 1.3 receives")
    broken = runner.invoke(main, ["check", str(folder)])
    assert broken.exit_code == 1
    assert "/derivation/1 RLKL401" in broken.output
    assert "clip_boundary(2, 0.2)" in broken.output and "not 1.3" in broken.output
