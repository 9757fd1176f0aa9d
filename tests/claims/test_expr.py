"""The safe expression evaluator: arithmetic and core calls yes, anything else no."""

from __future__ import annotations

import math

import pytest

from rlkl.claims.evaluation import expr
from rlkl.claims.evaluation.precision import agrees


def _eval(source: str, **env: object) -> object:
    return expr.evaluate(expr.parse(source), env)


def test_prose_operators_and_core_calls() -> None:
    assert _eval("min(1.4×2,1.2×2)") == pytest.approx(2.4)
    assert _eval("−2.8 ÷ 2") == pytest.approx(-1.4)
    assert _eval("ppo_clip_objective(r, A, eps)", r=1.4, A=-2.0, eps=0.2) == pytest.approx(-2.8)
    assert _eval("kl_divergence([0.7, 0.3], [0.5, 0.5], base=2)") == pytest.approx(
        0.08228287850505173 / math.log(2)
    )
    assert _eval("v[1] * 2", v=[1.0, 3.0]) == 6.0
    assert _eval("clip_boundary(1, 0.2)") == pytest.approx(1.2, abs=1e-12)
    assert _eval("clip_boundary(-1, 0.2)") == pytest.approx(0.8, abs=1e-12)


@pytest.mark.parametrize(
    "source",
    [
        "__import__('os').system('true')",
        "(1).__class__",
        "open('x')",
        "lambda: 1",
        "[x for x in [1]]",
        "eval('1')",
        "a if b else c",
        "{'a': 1}",
    ],
)
def test_rejects_anything_but_the_whitelist(source: str) -> None:
    with pytest.raises(expr.ExprError):
        expr.evaluate(expr.parse(source), {"a": 1, "b": 1, "c": 1})


def test_huge_powers_and_bad_math_are_errors_not_crashes() -> None:
    with pytest.raises(expr.ExprError):
        _eval("10 ** 1000")
    with pytest.raises(expr.ExprError):
        _eval("kl_divergence([0.5, 0.6], [0.5, 0.5])")
    with pytest.raises(expr.ExprError):
        _eval("x + 1")


def test_literal_arithmetic_is_recognised_only_for_literals() -> None:
    assert expr.is_arithmetic(expr.parse("min(1.4×2,1.2×2)"))
    assert not expr.is_arithmetic(expr.parse("r * 2"))
    assert not expr.is_arithmetic(expr.parse("1.4 and min(1, 2)"))
    assert not expr.is_arithmetic(expr.parse("2, 3"))
    assert not expr.is_arithmetic(expr.parse("2"))


@pytest.mark.parametrize(
    ("computed", "written", "decimals", "ok"),
    [
        (0.7 / 0.5, "1.4", 1, True),
        (0.08228287850505173, "0.082283", 6, True),
        (0.08228287850505173, "0.082284", 6, False),
        (0.08228287850505173, "0.0823", 4, True),
        (0.25, "0.2", 1, True),  # an exact tie is accepted either way
        (0.25, "0.3", 1, True),
        (0.26, "0.2", 1, False),
        (math.inf, "1", 0, False),
        (1.4, "1", 0, True),  # an integer accepts ±0.5 ...
        (0.08, "0", 0, False),  # ... but a bare 0 claims an exact zero
        (-1e-17, "0", 0, True),
        (0.04, "0.0", 1, True),
        (math.inf, "Infinity", 0, True),
    ],
)
def test_precision_rule(computed: float, written: str, decimals: int, ok: bool) -> None:
    from decimal import Decimal

    assert agrees(computed, Decimal(written), decimals) is ok


@pytest.mark.parametrize(
    "source",
    [
        "-" * 400 + "1",  # deep unary chain
        "sampled_counts([0.5, 0.5], 10**12, 0)[0]",  # absurd sample size
        "[" * 60 + "1" + "]" * 60,
    ],
)
def test_pathological_expressions_are_errors(source: str) -> None:
    with pytest.raises(expr.ExprError):
        expr.evaluate(expr.parse(source), {})


def test_nested_powers_overflow_instead_of_hanging() -> None:
    assert _eval("((((10**60)**60)**60)**60)**60") == math.inf


@pytest.mark.parametrize("source", ["a < b < None", "1j + 1", "b'x'", "...", "[None][0]"])
def test_constants_other_than_numbers_and_text_are_refused_when_read(source: str) -> None:
    """Refused by parse, wherever they stand (a short-circuit never hides one)."""
    with pytest.raises(expr.ExprError, match="is not allowed"):
        expr.parse(source)


def test_parsing_a_backslash_in_a_string_warns_nothing(recwarn: pytest.WarningsRecorder) -> None:
    """An invalid escape (``'\\d'``) is the parser's business: no warning reaches the author's
    terminal (a SyntaxWarning, printed by default, from Python 3.12 on)."""
    expr.parse("'\\d' + 1 == 2")
    noise = (SyntaxWarning, DeprecationWarning)
    assert not [w for w in recwarn.list if issubclass(w.category, noise)]
