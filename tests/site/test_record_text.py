"""What a marked number's record says on hover: written for learners, and right."""

from __future__ import annotations

from rlkl.claims.report import Check
from rlkl.claims.status import Status
from rlkl.site.lesson import quiz_order
from rlkl.site.records import _verdict_detail, plain


def _check(text: str, decimals: int, kind: str = "output", computed: float = 0.0) -> Check:
    return Check(id=f"c.{kind}", kind=kind, pointer="/x", start=0, end=len(text), line=1,
                 column=1, text=text, decimals=decimals, expression="y = f(x)",
                 inputs={"x": 1.0}, computed=computed, ok=True, reason="", quote=text,
                 status=Status.VERIFIED)


def test_a_bare_zero_is_an_exact_zero_and_another_integer_a_half() -> None:
    assert _verdict_detail([_check("0", 0)]) == "0 = f(1), checked as an exact zero"
    assert _verdict_detail([_check("−3", 0, computed=-2.8)]) == (
        "−3 = f(1) = −2.8, checked to ±0.5 (a whole number)")
    assert _verdict_detail([_check("0.25", 2, computed=0.25)]).endswith("checked to 2 decimals")


def _expressed(expression: str, inputs: dict[str, object], text: str, computed: object,
               kind: str = "output", decimals: int = 1) -> str:
    check = Check(id="c", kind=kind, pointer="/x", start=0, end=len(text), line=1, column=1,
                  text=text, decimals=decimals, expression=expression, inputs=inputs,
                  computed=computed, ok=True, reason="", quote=text, status=Status.VERIFIED)
    return plain(check)


def test_a_record_reads_as_the_arithmetic_with_its_inputs_written_in() -> None:
    """The issue's example: "−1.6 = clip(0.5, 0.8, 1.2) × (−2), checked to 1 decimal"."""
    assert _expressed("obj = clip(rho, low, high) * A", {"rho": 0.5, "low": 0.8, "high": 1.2,
                      "A": -2.0}, "\u22121.6", -1.6) == (
        "−1.6 = clip(0.5, 0.8, 1.2) × (−2), checked to 1 decimal")
    assert _expressed("g = (upper - 0.01) * A", {"upper": 1.2, "A": 2.0}, "2.4", 2.38) == (
        "2.4 = (1.2 − 0.01) × 2 = 2.38, checked to 1 decimal")  # brackets kept, value shown
    assert _expressed("r = x / (y - z)", {"x": 1.0, "y": 3.0, "z": 1.0}, "0.5", 0.5) == (
        "0.5 = 1 / (3 − 1), checked to 1 decimal")
    assert _expressed("z[1] = softmax(v)", {"v": [1.0, -1.0]}, "0.12", 0.119, decimals=2) == (
        "0.12 = entry 2 of softmax([1, −1]) = 0.119, checked to 2 decimals")
    assert _expressed("k < lower", {"k": 0.5, "lower": 0.8}, "0.5", True, "condition") == (
        "holds: 0.5 < 0.8")
    assert _expressed("kl", {"kl": 0.08}, "0.2", 0.08, "negative") == (
        "not 0.2: 0.08 differs from it, checked to 1 decimal")
    assert _expressed("answer = f(x)", {"x": 2.0}, "0.3", 0.5, "distractor") == (
        "not 0.3: f(2) = 0.5 differs from it, checked to 1 decimal")
    assert _expressed("g(x)", {"x": 2.0}, "0.3", 0.3, "distractor") == (
        "0.3 = g(2), checked to 1 decimal")  # a distractor checked against its mistake


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
