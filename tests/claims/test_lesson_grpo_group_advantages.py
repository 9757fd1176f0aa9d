"""Planted faults in copies of the grpo-group-advantages lesson: each is caught where it is.

Targeted cases check the code, JSON pointer, line and column and what the message says was
computed; the sweep changes every number of the lesson, one at a time, and requires each
change to be reported in this lesson (see ``tests/claims/lesson_sweep.py``).
"""

from __future__ import annotations

from pathlib import Path

from tests.claims.helpers import planted_fault_test
from tests.claims.lesson_sweep import uncaught_faults

LESSON = "grpo-group-advantages"

# (id, old, new, code, pointer, text the diagnostic points at, words its message must hold)
FAULTS = [
    # population std written as trl
    (
        "population-std-written-as-trl",
        "A = [1.4997,",
        "A = [1.7317,",
        "RLKL401",
        "/engineeringExample",
        "1.7317,−0.4999",
        ["grpo_advantages(r, eps=eps)", "not 1.7317"],
    ),
    # k3 ratio inverted
    (
        "k3-ratio-inverted",
        "is 0.023144 nats",
        "is 0.026856 nats",
        "RLKL401",
        "/engineeringExample",
        "0.026856 nats",
        ["approx_kl(log(0.4), log(0.5), estimator='k3')", "not 0.026856"],
    ),
    # inflated advantages wrong
    (
        "inflated-advantages-wrong",
        "[1.2173,−1.2173,0,0]",
        "[1.2173,−1.2173,0,0.1]",
        "RLKL401",
        "/engineeringExample",
        "0.1]:",
        ["grpo_advantages(r_rm, eps=eps)", "not 0.1"],
    ),
    # kl loss wrong
    (
        "kl-loss-wrong",
        "it adds 0.000926",
        "it adds 0.000962",
        "RLKL401",
        "/engineeringExample",
        "0.000962",
        ["0.04 * ", "not 0.000962"],
    ),
    # misconception is answer
    (
        "misconception-is-answer",
        "conclude: 0.026856",
        "conclude: 0.023144",
        "RLKL408",
        "/misconception",
        "0.023144, because the ratio inside",
        ["must be wrong"],
    ),
]


test_fault_is_caught_where_it_is = planted_fault_test(LESSON, FAULTS)


def test_every_number_changed_is_caught_in_this_lesson(tmp_path: Path) -> None:
    tried, missed = uncaught_faults(tmp_path, LESSON)
    assert tried >= 48
    assert not missed, missed
