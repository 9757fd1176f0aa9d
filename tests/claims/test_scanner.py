"""Numeric mentions: what counts as a number, its value and written precision."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from rlkl.claims.prose import scanner
from rlkl.claims.prose.scanner import format_number, scan


def _texts(text: str) -> list[str]:
    return [m.text for m in scan("/x", text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("ratio is 1.4.", ["1.4"]),
        ("advantage +2 and −2 and -3", ["+2", "−2", "-3"]),
        ("min(1.4×2,1.2×2)=2.4", ["1.4", "2", "1.2", "2", "2.4"]),
        ("KL([0.7,0.3] || [0.5,0.5])", ["0.7", "0.3", "0.5", "0.5"]),
        ("r − 1 and r−1 and (r - 1)", ["1", "1", "1"]),
        ("k1, k3, R1-Zero, GPT-4, v1, W11, 3D, 2nd", []),
        ("12.5% of runs", ["12.5%"]),
        ("a rate of 1e-3", ["1e-3"]),
        ("on 2026-10-25", ["2026", "10", "25"]),
        ("version 1.2.3", []),
        ("a share of .5", [".5"]),
        ("k2 = ½(log r)² and 10⁻³ and ∞", ["½", "²", "10", "⁻³", "∞"]),
    ],
)
def test_mentions(text: str, expected: list[str]) -> None:
    assert _texts(text) == expected


def test_value_sign_and_precision() -> None:
    (minus,) = scan("/x", "is −2.80 here")
    assert minus.value == Decimal("-2.80") and minus.decimals == 2
    assert (minus.start, minus.end) == (3, 8)
    (pct,) = scan("/x", "12.5%")
    assert pct.value == Decimal("0.125") and pct.decimals == 3
    (sci,) = scan("/x", "2.5e-3")
    assert sci.value == Decimal("0.0025") and sci.decimals == 4
    (binary,) = scan("/x", "x − 2")  # a detached minus is an operator, not a sign
    assert binary.value == Decimal(2)


@pytest.mark.parametrize(
    ("value", "written", "expected"),
    [
        (1.5999999999999999, "1.4", "1.6"),
        (-3.2, "−2.8", "−3.2"),
        (-3.2, "-2.8", "-3.2"),
        (2.0, "+2", "+2"),
        (-0.0, "0", "0"),
        (0.0823, "0.082283", "0.082300"),
        (0.125, "10.0%", "12.5%"),
    ],
)
def test_format_number_keeps_the_written_style(value: float, written: str, expected: str) -> None:
    (like,) = scan("/x", written)
    assert format_number(value, like) == expected


@pytest.mark.parametrize("dash", ["\u2013", "\u2010", "\ufe63", "\uff0d", "-", "\u2212"])
def test_dash_look_alikes_are_minus_signs(dash: str) -> None:
    (mention,) = scan("/x", f"advantage {dash}2")
    assert mention.value == Decimal(-2)
    (range_end,) = scan("/x", f"steps 2{dash}3")[1:]
    assert range_end.value == Decimal(3)  # after a digit the dash is a range or operator


@pytest.mark.parametrize("text", ["1e-999999999", "1e999999999", "9" * 5000, "0." + "1" * 5000])
def test_extreme_numbers_do_not_crash(text: str) -> None:
    from rlkl.claims.evaluation.precision import agrees

    (mention,) = scan("/x", text)
    assert mention.decimals <= 300
    agrees(0.5, mention.value, mention.decimals)  # no trap, whatever the exponent
    format_number(0.5, mention)


def test_format_number_keeps_decimals_at_any_magnitude() -> None:
    """Issue 8, item 7: values of 10^28 and above lost their written decimals."""
    like = scan("/p", "x 1.25 y")[0]
    assert format_number(1e28, like) == "10000000000000000000000000000.00"
    assert format_number(-1.2345e30, like) == "−1234500000000000000000000000000.00"
    assert format_number(0.125, like) == "0.12"  # round half even, as before


def test_format_number_refuses_what_has_no_decimals() -> None:
    like = scan("/p", "x 1.25 y")[0]
    for value in (float("inf"), float("-inf"), float("nan")):
        with pytest.raises(ValueError):
            format_number(value, like)


_PROSE = st.lists(
    st.sampled_from([*"ab tk_{}+-.%e,[]()×", "\u2212", "\u2013", "½", "²", "⁻", "∞", "٣", "7", "0",
                     "12", "3.5"]),
    max_size=30,
).map("".join)


@given(text=_PROSE)
@example(text="a .5 share, −.25 and ½(log r)² at 10⁻³")
def test_the_scanners_shortcuts_never_hide_a_number(text: str) -> None:
    """The scanner skips a text with no digit or number symbol, looks for symbols only in a
    text with a symbol character, and lets a lookahead skip to where a number can start: the
    same mentions as the plain patterns tried everywhere."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(scanner, "_ANY_NUMBER", re.compile(""))
        patch.setattr(scanner, "_SYMBOL_CHAR", re.compile(""))
        patch.setattr(scanner, "_NUMBER", re.compile(scanner._NUMBER_BODY))
        everything = scan("/x", text)
    assert scan("/x", text) == everything
