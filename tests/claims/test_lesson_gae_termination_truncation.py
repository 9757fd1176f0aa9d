"""Planted faults in copies of the gae-termination-truncation lesson: each is caught where it is.

Targeted cases check the code, JSON pointer, line and column and what the message says was
computed; the sweep changes every number of the lesson, one at a time, and requires each
change to be reported in this lesson (see ``tests/claims/lesson_sweep.py``).
"""

from __future__ import annotations

from pathlib import Path

from tests.claims.helpers import planted_fault_test
from tests.claims.lesson_sweep import uncaught_faults

LESSON = "gae-termination-truncation"

# (id, old, new, code, pointer, text the diagnostic points at, words its message must hold)
FAULTS = [
    # lambda half advantage wrong
    (
        "lambda-half-advantage-wrong",
        "A = [0.1345,0.21,0.2]",
        "A = [0.1345,0.22,0.2]",
        "RLKL401",
        "/engineeringExample",
        "0.22,0.2]",
        ["gae(", "lam = 0.5", "= 0.21", "not 0.22"],
    ),
    # discount disagrees
    (
        "discount-disagrees",
        "and γ = 0.9. First",
        "and γ = 0.8. First",
        "RLKL420",
        "/engineeringExample",
        "0.8. First",
        ["gamma is 0.8 here but 0.9"],
    ),
    # truncated td error wrong
    (
        "truncated-td-error-wrong",
        "1+0.9×0.7−0.8 = 0.83",
        "1+0.9×0.7−0.8 = 0.93",
        "RLKL401",
        "/engineeringExample",
        "0.93, and",
        ["not 0.93"],
    ),
    # undiscounted distractor wrong
    (
        "undiscounted-distractor-wrong",
        "undiscounted and gives 0.99",
        "undiscounted and gives 0.98",
        "RLKL401",
        "/check/explanation",
        "0.98.",
        ["lam_mc", "= 0.99", "not 0.98"],
    ),
    # misconception is answer
    (
        "misconception-is-answer",
        "conclude: 0.31",
        "conclude: 0.8203",
        "RLKL408",
        "/misconception",
        "0.8203, because an episode",
        ["must be wrong"],
    ),
]


test_fault_is_caught_where_it_is = planted_fault_test(LESSON, FAULTS)


def test_every_number_changed_is_caught_in_this_lesson(tmp_path: Path) -> None:
    tried, missed = uncaught_faults(tmp_path, LESSON)
    assert tried >= 60
    assert not missed, missed
