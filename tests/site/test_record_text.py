"""What a marked number's record says on hover: written for learners, and right."""

from __future__ import annotations

from rlkl.claims.report import Check
from rlkl.claims.status import Status
from rlkl.site.lesson import quiz_order
from rlkl.site.records import _verdict_detail


def _check(text: str, decimals: int, kind: str = "output", computed: float = 0.0) -> Check:
    return Check(id=f"c.{kind}", kind=kind, pointer="/x", start=0, end=len(text), line=1,
                 column=1, text=text, decimals=decimals, expression="y = f(x)",
                 inputs={"x": 1.0}, computed=computed, ok=True, reason="", quote=text,
                 status=Status.VERIFIED)


def test_a_bare_zero_is_an_exact_zero_and_another_integer_a_half() -> None:
    assert "written 0 at an exact zero" in _verdict_detail([_check("0", 0)])
    assert "written −3 at an integer (±0.5)" in _verdict_detail([_check("−3", 0, computed=-2.8)])
    assert "at 2 decimals" in _verdict_detail([_check("0.25", 2, computed=0.25)])


def test_more_checks_are_counted_in_good_grammar() -> None:
    one = _verdict_detail([_check("1.5", 1, computed=1.5)] * 2)
    assert one.endswith("; 1 more check on this number holds")
    assert _verdict_detail([_check("1.5", 1, computed=1.5)] * 3).endswith(
        "; 2 more checks on this number hold")


def test_an_option_of_the_check_question_does_not_say_whether_it_is_the_key() -> None:
    key = _verdict_detail([_check("−1.6", 1, "quiz-key", -1.6)])
    wrong = _verdict_detail([_check("−1", 0, "distractor", -1.6)])
    for record in (key, wrong):
        assert "whether it is the answer is for you to work out" in record
        assert "quiz-key" not in record and "distractor" not in record
        assert "meant to be wrong" not in record and "f(x)" not in record


def test_the_options_order_is_fixed_per_lesson_and_not_always_the_authored_one() -> None:
    assert quiz_order("ppo-clipped-objective", 4) == quiz_order("ppo-clipped-objective", 4)
    orders = {tuple(quiz_order(f"lesson-{n}", 4)) for n in range(20)}
    assert all(sorted(o) == [0, 1, 2, 3] for o in orders)
    assert sum(o[0] == 0 for o in orders) < len(orders) / 2  # the key is first far less often
