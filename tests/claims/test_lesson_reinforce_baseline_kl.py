"""Planted faults in copies of the reinforce-baseline-kl lesson: each is caught where it is.

Every case edits a throw-away copy of the lesson (with its claims.yaml, fixtures.json and the
corpus catalog), runs ``check_paths`` and asserts: the check fails (exit code 1 through the
CLI for one case), the expected code is reported at the expected JSON pointer, the
diagnostic's line and column point at the edited text, and the message says what was
computed from what.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from rlkl.check import check_paths
from rlkl.cli import main
from tests.claims.helpers import copy_lesson, edit_once, planted_fault_test

LESSON = "reinforce-baseline-kl"


# (id, old, new, code, pointer, text the diagnostic points at, words its message must hold)
FAULTS = [
    # a computed number: the KL in nats, off in the fifth decimal
    (
        "kl-nats-wrong",
        "is 0.381909 nats",
        "is 0.381919 nats",
        "RLKL401",
        "/engineeringExample",
        "0.381919 nats",
        [
            "pi_cur = [0.6, 0.4]",
            "= 0.381909",
            "6 decimals written",
            "not 0.381919",
        ],
    ),
    # a computed vector component: the score-function estimate for the right action
    (
        "estimate-right-wrong",
        "[0.36,−0.36]",
        "[0.36,−0.34]",
        "RLKL401",
        "/engineeringExample",
        "−0.34]",
        ["reinforce_grad", "not −0.34"],
    ),
    # the variance ratio in the tradeoff, computed from the two core variances
    (
        "variance-ratio-wrong",
        "variance by 4.",
        "variance by 3.",
        "RLKL401",
        "/tradeoff",
        "3. The KL",
        ["0.0768 / 0.0192", "not 3"],
    ),
    # an input: the learning rate changes every number of the step
    (
        "learning-rate-changed",
        "learning rate 1 gives",
        "learning rate 2 gives",
        "RLKL401",
        "/engineeringExample",
        "0.611933,0.388067]",
        ["reinforce_step", "lr = 2", "= 0.623732", "not 0.611933"],
    ),
    # an input stated twice must agree: π_ref in the derivation differs from the example
    (
        "reference-disagrees",
        "π = [0.6,0.4] and π_ref = [0.2,0.8]",
        "π = [0.6,0.4] and π_ref = [0.3,0.7]",
        "RLKL420",
        "/derivation/3",
        "0.3,0.7]",
        ["pi_ref is 0.3, 0.7 here but 0.2, 0.8"],
    ),
    # a baseline factor that is not the stated policy component (the sum itself still holds)
    (
        "baseline-factor-wrong",
        "0.6×1+0.4×0 = 0.6",
        "0.6×1+0.5×0 = 0.6",
        "RLKL405",
        "/engineeringExample",
        "0.6×1+0.5×0",
        ["pi_right == pi_cur[1]", "pi_right = 0.5"],
    ),
    # the answer key moved to the baseline-attached distractor
    (
        "answer-key-moved",
        '"answer": 0',
        '"answer": 2',
        "RLKL406",
        "/check/options/2",
        "0.186512, because the baseline",
        ["answer", "= 0.024989", "not 0.186512"],
    ),
    # a distractor that rounds to the answer is no distractor
    (
        "distractor-is-answer",
        '"0.04, because the KL',
        '"0.02, because the KL',
        "RLKL407",
        "/check/options/1",
        "0.02, because the KL penalty's gradient is π − π_ref.\",",
        ["is not", "0.02"],
    ),
    # the explanation's reversed-KL arithmetic
    (
        "explanation-reversed-wrong",
        "0.24−0.5×0.4 = 0.04",
        "0.24−0.5×0.4 = 0.05",
        "RLKL401",
        "/check/explanation",
        "0.05. Differentiating",
        ["rev_kl_grad", "not 0.05"],
    ),
    # the misconception must be a distractor's value, not the answer
    (
        "misconception-is-answer",
        "conclude: 0.04",
        "conclude: 0.024989",
        "RLKL408",
        "/misconception",
        "0.024989, because the KL penalty",
        ["must be wrong"],
    ),
]


test_fault_is_caught_where_it_is = planted_fault_test(LESSON, FAULTS)


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
