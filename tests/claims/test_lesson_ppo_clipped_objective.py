"""Planted faults in a copy of the PPO clipped-objective lesson: each is caught where it is.

The lesson's bindings (content/ppo-clipped-objective/claims.yaml) make every number in its
prose executable. Each case below edits one number in a throw-away copy (a computed value, an
input, the answer key, a threshold, a gradient, the misconception, a distractor's mistake)
and asserts that `rlkl check` fails with the expected code, at the expected JSON pointer,
at the line and column of the edited text, with a message that shows what was computed.
"""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from rlkl.check import check_paths
from rlkl.cli import main
from tests.claims.helpers import copy_lesson, edit_once, find, planted_fault_test

LESSON = "ppo-clipped-objective"


# (id, old, new, code, pointer, text the diagnostic points at, words the message must hold)
FAULTS = [
    # a computed number: the minimum of the first worked case
    (
        "objective-wrong",
        "min(−1,−1.6) = −1.6:",
        "min(−1,−1.6) = −1.5:",
        "RLKL401",
        "/engineeringExample",
        "−1.5:",
        ["ppo_clip_objective(0.5, -2, 0.2)", "not −1.5"],
    ),
    # a computed number: the raw product in the derivation
    (
        "raw-product-wrong",
        "the raw objective is −1,",
        "the raw objective is −2,",
        "RLKL401",
        "/derivation/2",
        "−2, the clipped",
        ["0.5 * -2", "not −2"],
    ),
    # an input that disagrees with the same quantity elsewhere
    (
        "rho-disagrees",
        "For ρ = 0.5 and Â = +2",
        "For ρ = 0.6 and Â = +2",
        "RLKL420",
        "/engineeringExample",
        "0.6 and Â = +2",
        ["quantity rho", "0.5", "0.6"],
    ),
    # an input whose outputs no longer hold: the ratio is recomputed from the probabilities
    (
        "probability-changed",
        "current probability 0.7",
        "current probability 0.8",
        "RLKL401",
        "/engineeringExample",
        "1.4 and min",
        ["ppo_ratio(log(0.8), log(0.5))", "not 1.4"],
    ),
    # an input of the check question: the keyed option no longer holds
    (
        "quiz-input-changed",
        "ratio ρ = 0.5 and advantage",
        "ratio ρ = 0.9 and advantage",
        "RLKL406",
        "/check/options/0",
        '\n      "^−1.6, because',
        ["ppo_clip_objective(0.9, -2, 0.2)", "not −1.6"],
    ),
    # the answer key moved to a distractor
    (
        "answer-key-moved",
        '"answer": 0',
        '"answer": 2',
        "RLKL406",
        "/check/options/2",
        "−4, because the ratio",
        ["ppo_clip_objective(0.5, -2, 0.2)", "not −4"],
    ),
    # a distractor that no longer encodes its stated mistake (inverted ratio)
    (
        "distractor-mistake-wrong",
        '"−4, because the ratio',
        '"−3, because the ratio',
        "RLKL407",
        "/check/options/2",
        "−3, because the ratio",
        ["ppo_clip_objective(1 / 0.5, -2, 0.2)", "not −3"],
    ),
    # the misconception equal to the answer
    (
        "misconception-is-answer",
        "conclude: −1,",
        "conclude: −1.6,",
        "RLKL408",
        "/misconception",
        "−1.6, because clipping",
        ["must be wrong", "equal the distractor it explains"],
    ),
    # thresholds, found on ppo_clip_grad (clip_boundary), not as 1 ± ε
    (
        "upper-threshold-wrong",
        "a ratio above 1.2 receives",
        "a ratio above 1.3 receives",
        "RLKL401",
        "/derivation/1",
        "1.3 receives",
        ["clip_boundary(2, 0.2)", "not 1.3"],
    ),
    (
        "lower-threshold-wrong",
        "a ratio below 0.8 is",
        "a ratio below 0.7 is",
        "RLKL401",
        "/derivation/1",
        "0.7 is the clipped",
        ["clip_boundary(-2, 0.2)", "not 0.7"],
    ),
    (
        "lower-threshold-example-wrong",
        "already below 0.8,",
        "already below 0.7,",
        "RLKL401",
        "/engineeringExample",
        "0.7, the clipped",
        ["clip_boundary(-2, 0.2)", "not 0.7"],
    ),
    (
        "misconception-threshold-wrong",
        "conclude: −1, because clipping only acts on ratios above 1.2",
        "conclude: −1, because clipping only acts on ratios above 1.3",
        "RLKL401",
        "/misconception",
        '1.3."',
        ["clip_boundary(2, 0.2)", "not 1.3"],
    ),
    # gradients with respect to log π_θ
    (
        "raw-branch-gradient-wrong",
        "its derivative is 1, so",
        "its derivative is 0, so",
        "RLKL401",
        "/engineeringExample",
        "0, so the sample",
        ["ppo_clip_grad(0.5, 2, 0.2)", "not 0"],
    ),
    (
        "negative-gradient-wrong",
        "with derivative −2.8,",
        "with derivative 0,",
        "RLKL401",
        "/engineeringExample",
        "0, so a harmful",
        ["ppo_clip_grad(1.4, -2, 0.2)", "not 0"],
    ),
    # ε written differently in one place
    (
        "epsilon-disagrees",
        "At ε = 0.2 and",
        "At ε = 0.25 and",
        "RLKL420",
        "/derivation/1",
        "0.25 and positive",
        ["quantity eps", "0.2", "0.25"],
    ),
    # a new number nobody accounts for
    (
        "unaccounted-number",
        "Several epochs on each rollout batch",
        "3 epochs on each rollout batch",
        "RLKL410",
        "/tradeoff",
        "3 epochs",
        ["not accounted for"],
    ),
]


test_fault_is_caught_where_it_is = planted_fault_test(LESSON, FAULTS)


def test_answer_key_moved_also_flags_the_old_key(tmp_path: Path) -> None:
    folder = copy_lesson(tmp_path, LESSON)
    edit_once(folder, '"answer": 0', '"answer": 2')
    result = check_paths([folder])
    assert find(result, "RLKL407", "/check/options/0")  # −1.6 is now a "distractor"


def test_quiz_input_changed_breaks_explanation_and_condition(tmp_path: Path) -> None:
    folder = copy_lesson(tmp_path, LESSON)
    edit_once(folder, "ratio ρ = 0.5 and advantage", "ratio ρ = 0.9 and advantage")
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
