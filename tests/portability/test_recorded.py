"""The one definition of a recorded number (rlkl.claims.fixtures.recorded): canonical floats
that two machines write alike, and "the same" up to the noise of another CPU's exp/log kernels."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from rlkl.claims.fixtures.recorded import canonical, kept, same
from tests.portability.shipped import moved

finite = st.floats(allow_nan=False, allow_infinity=False, min_value=-1e12, max_value=1e12)


def test_canonical_is_twelve_significant_digits_by_shortest_text() -> None:
    assert canonical(0.11979600561758683) == 0.119796005618
    assert repr(canonical(0.11979600561758683)) == "0.119796005618"
    assert repr(canonical(0.3132616875182229)) == "0.313261687518"
    assert canonical([1.3999999999999999, {"x": 2.0000000000000004}]) == [1.4, {"x": 2.0}]
    assert canonical((0.1 + 0.2,)) == [0.3]
    assert canonical(True) is True and canonical(3) == 3 and canonical("inf") == "inf"
    assert canonical(math.inf) == math.inf


def test_the_issue_value_on_two_kernels_is_one_canonical_value() -> None:
    # the committed pi_star[2] and what a machine without AVX-512 computed
    assert canonical(0.11979600561758683) == canonical(0.11979600561758684)
    assert same(0.11979600561758683, 0.11979600561758684)


@given(finite, st.integers(-4, 4))
def test_a_few_ulps_are_the_same_number(value: float, count: int) -> None:
    noisy = moved(value, count)
    assert same(value, noisy)
    assert same(canonical(value), noisy)  # the recorded form against a fresh value
    assert kept(noisy, canonical(value)) == canonical(value)  # and it is kept as recorded


@given(st.floats(min_value=1e-6, max_value=1e6), st.integers(1, 9), st.sampled_from([-1, 1]))
def test_a_change_in_the_sixth_significant_digit_is_caught(
    value: float, step: int, sign: int
) -> None:
    digit = 10.0 ** (math.floor(math.log10(value)) - 5)  # the sixth significant digit
    moved = value + sign * step * digit
    assert not same(value, moved)
    assert not same(canonical(value), canonical(moved))
    assert kept(moved, canonical(value)) == moved


def test_same_compares_shape_and_kind_not_just_numbers() -> None:
    assert same({"p": [0.5, 0.3000000000000001]}, {"p": [0.5, 0.3]})
    assert not same({"p": [0.5, 0.3]}, {"p": [0.5, 0.3, 0.2]})
    assert not same({"p": 1.0}, {"q": 1.0})
    assert not same(True, 1.0) and not same(1, True) and same(False, False)
    assert not same("inf", math.inf) and same("inf", "inf")
    assert same(1, 1.0000000000000002)  # an integer recorded for a float
    assert same(0.0, 3e-17) and not same(0.0, 1e-12)  # noise about zero, and a real value
    assert not same(10**400, 1.0)  # an integer beyond float range (a damaged fixture)


def test_kept_takes_a_recorded_number_only_when_same_and_canonical() -> None:
    fresh = {"a": 0.119796005618, "b": [0.25, 0.5], "c": "x"}
    # recorded on another machine: canonical, and the other side of a twelfth digit
    across = {"a": 0.119796005619, "b": [0.25, 0.5], "c": "x"}
    assert same(across["a"], fresh["a"])
    assert kept(fresh, across) == across
    # recorded in full repr by an older rlkl: the same number, but not canonical
    old = {"a": 0.11979600561758683, "b": [0.25, 0.5], "c": "x"}
    assert kept(fresh, old) == fresh
    # a moved number, text and a list of another length are fresh
    assert kept(fresh, {"a": 0.2, "b": [0.25], "c": "y"}) == fresh
