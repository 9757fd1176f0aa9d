"""Planted faults in copies of the adaptive-kl-controllers lesson: each is caught where it is.

Targeted cases check the code, JSON pointer, line and column and what the message says was
computed; the sweep changes every number of the lesson, one at a time, and requires each
change to be reported in this lesson (see ``tests/claims/lesson_sweep.py``).
"""

from __future__ import annotations

from pathlib import Path

from tests.claims.helpers import planted_fault_test
from tests.claims.lesson_sweep import uncaught_faults

LESSON = "adaptive-kl-controllers"

# (id, old, new, code, pointer, text the diagnostic points at, words its message must hold)
FAULTS = [
    # halve double last step wrong
    (
        "halve-double-last-step-wrong",
        "β = [2,4,2,2]",
        "β = [2,4,2,1]",
        "RLKL401",
        "/engineeringExample",
        "1]: a factor",
        ["adaptive_kl_beta(bd3, kls[3], target)", "= 2", "not 1"],
    ),
    # proportional unclipped
    (
        "proportional-unclipped",
        "[1.02,1.0404,1.019592,1.039984]",
        "[1.4,1.0404,1.019592,1.039984]",
        "RLKL401",
        "/engineeringExample",
        "1.4,1.0404",
        [
            "kl_controller_proportional(beta0, kls[0], target",
            "err_clip = 0.2",
            "(1.02)",
            "not 1.4",
        ],
    ),
    # doubling time wrong
    (
        "doubling-time-wrong",
        "takes 35 updates",
        "takes 20 updates",
        "RLKL401",
        "/engineeringExample",
        "20 updates",
        ["log(2)", "not 20"],
    ),
    # band disagrees
    (
        "band-disagrees",
        "a band of a factor 1.5",
        "a band of a factor 2",
        "RLKL420",
        "/establishes",
        "2 around the target",
        ["band is 2 here but 1.5"],
    ),
    # misconception is answer
    (
        "misconception-is-answer",
        "conclude: 1.4",
        "conclude: 1.02",
        "RLKL408",
        "/misconception",
        "1.02, because the proportional",
        ["must be wrong"],
    ),
]


test_fault_is_caught_where_it_is = planted_fault_test(LESSON, FAULTS)


def test_every_number_changed_is_caught_in_this_lesson(tmp_path: Path) -> None:
    tried, missed = uncaught_faults(tmp_path, LESSON)
    assert tried >= 45
    assert not missed, missed
