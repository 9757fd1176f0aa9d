"""Planted faults in copies of the rloo-leave-one-out lesson: each is caught where it is.

Targeted cases check the code, JSON pointer, line and column and what the message says was
computed; the sweep changes every number of the lesson, one at a time, and requires each
change to be reported in this lesson (see ``tests/claims/lesson_sweep.py``).
"""

from __future__ import annotations

from pathlib import Path

from tests.claims.helpers import planted_fault_test
from tests.claims.lesson_sweep import uncaught_faults

LESSON = "rloo-leave-one-out"

# (id, old, new, code, pointer, text the diagnostic points at, words its message must hold)
FAULTS = [
    # rloo advantage is group mean
    (
        "rloo-advantage-is-group-mean",
        "A = [0.333,−1.000,0.333,0.333]",
        "A = [0.333,−0.750,0.333,0.333]",
        "RLKL401",
        "/engineeringExample",
        "−0.750,0.333,0.333]",
        ["rloo_advantages(group_r)", "not −0.750"],
    ),
    # rloo variance wrong
    (
        "rloo-variance-wrong",
        "it is 0.024 for RLOO",
        "it is 0.0192 for RLOO",
        "RLKL401",
        "/engineeringExample",
        "0.0192 for RLOO",
        ["group_grad_variance", "baseline='rloo'", "not 0.0192"],
    ),
    # offset changed
    (
        "offset-changed",
        "raised by 1,",
        "raised by 2,",
        "RLKL401",
        "/engineeringExample",
        "0.2352, while",
        ["r + offset", "not 0.2352"],
    ),
    # group not the actions
    (
        "group-not-the-actions",
        "scoring [1,0,1,1]",
        "scoring [1,0,1,0]",
        "RLKL405",
        "/engineeringExample",
        "0.6,0.4] over left",
        ["group_r = [1, 0, 1, 0]"],
    ),
    # misconception is answer
    (
        "misconception-is-answer",
        "conclude: −0.75",
        "conclude: −1",
        "RLKL408",
        "/misconception",
        "−1, because subtracting",
        ["must be wrong"],
    ),
]


test_fault_is_caught_where_it_is = planted_fault_test(LESSON, FAULTS)


def test_every_number_changed_is_caught_in_this_lesson(tmp_path: Path) -> None:
    tried, missed = uncaught_faults(tmp_path, LESSON)
    assert tried >= 45
    assert not missed, missed
