"""Every number of a lesson, changed one at a time, is reported in that lesson.

The sweep (``tests/claims/lesson_sweep.py``) moves the last digit of each number ``rlkl
claims`` lists and requires an error in the lesson's ``lesson.json``; the minimum counts
keep a sweep from passing because it found fewer numbers to change. The targeted faults of
each lesson, with their codes and locations, are data in ``tests/claims/examples/``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.claims.lesson_sweep import uncaught_faults

# lesson -> the fewest numbers its sweep must change
SWEPT = {
    "adaptive-kl-controllers": 45,
    "output-head": 70,
    "preference-reward-model": 52,
    "verifiable-reward-group-updates": 100,
    "reward-proxy-overoptimization": 55,
    "ppo-value-loss-critic": 68,
    "sft-chat-loss-masks": 70,
    "direct-preference-objective": 38,
    "gae-termination-truncation": 60,
    "grpo-group-advantages": 48,
    "rloo-leave-one-out": 45,
}


@pytest.mark.parametrize(("lesson", "fewest"), SWEPT.items())
def test_every_number_changed_is_caught_in_this_lesson(
    lesson: str, fewest: int, tmp_path: Path
) -> None:
    tried, missed = uncaught_faults(tmp_path, lesson)
    assert tried >= fewest
    assert not missed, missed
