"""Planted faults in copies of the direct-preference-objective lesson: each is caught where it is.

Targeted cases check the code, JSON pointer, line and column and what the message says was
computed; the sweep changes every number of the lesson, one at a time, and requires each
change to be reported in this lesson (see ``tests/claims/lesson_sweep.py``).
"""

from __future__ import annotations

from pathlib import Path

from tests.claims.helpers import planted_fault_test
from tests.claims.lesson_sweep import uncaught_faults

LESSON = "direct-preference-objective"

# (id, old, new, code, pointer, text the diagnostic points at, words its message must hold)
FAULTS = [
    # implicit reward wrong
    (
        "implicit-reward-wrong",
        "[0.243736,−0.756264,−0.256264]",
        "[0.243736,−0.756264,−0.256265]",
        "RLKL401",
        "/engineeringExample",
        "−0.256265]",
        ["dpo_implicit_reward", "not −0.256265"],
    ),
    # loss at optimum is log two
    (
        "loss-at-optimum-is-log-two",
        "the loss is 0.313262",
        "the loss is 0.693147",
        "RLKL401",
        "/engineeringExample",
        "0.693147, the Bradley",
        ["dpo_loss(", "not 0.693147"],
    ),
    # beta changed
    (
        "beta-changed",
        "and β = 0.5.",
        "and β = 0.25.",
        "RLKL401",
        "/engineeringExample",
        "0.814098,0.066106",
        ["kl_regularized_policy(r, pi_ref, beta=beta)", "not 0.814098"],
    ),
    # swapped distractor wrong
    (
        "swapped-distractor-wrong",
        "flips the margin's sign and gives 1.313262",
        "flips the margin's sign and gives 1.313263",
        "RLKL401",
        "/check/explanation",
        "1.313263.",
        ["dpo_loss(", "not 1.313263"],
    ),
    # misconception is answer
    (
        "misconception-is-answer",
        "conclude: 0.250726",
        "conclude: 0.313262",
        "RLKL408",
        "/misconception",
        "0.313262, because the implicit",
        ["must be wrong"],
    ),
]


test_fault_is_caught_where_it_is = planted_fault_test(LESSON, FAULTS)


def test_every_number_changed_is_caught_in_this_lesson(tmp_path: Path) -> None:
    tried, missed = uncaught_faults(tmp_path, LESSON)
    assert tried >= 38
    assert not missed, missed
