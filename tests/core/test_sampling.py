"""pass@k: the unbiased estimator by hand, against counting subsets, and its limits."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest
from hypothesis import given

from rlkl.core import pass_at_k

from .strategies import counts


def test_by_hand() -> None:
    assert pass_at_k(10, 3, 1) == pytest.approx(0.3, abs=1e-15)
    # 1 - C(7, 5) / C(10, 5) = 1 - 21/252
    assert pass_at_k(10, 3, 5) == pytest.approx(1 - 21 / 252, abs=1e-15)
    assert pass_at_k(10, 0, 5) == 0.0
    assert pass_at_k(10, 6, 5) == 1.0  # n - c = 4 < k: every 5-subset holds a correct one
    assert pass_at_k(5.0, 2.0, 2.0) == pytest.approx(1 - 3 / 10, abs=1e-15)


@pytest.mark.parametrize(("n", "c", "k"), [(0, 0, 1), (5, 6, 1), (5, 1, 0), (5, 1, 6), (5, 1.5, 1)])
def test_bad_counts_are_value_errors(n: float, c: float, k: float) -> None:
    with pytest.raises(ValueError):
        pass_at_k(n, c, k)


@given(counts(9))
def test_equals_the_share_of_k_subsets_holding_a_correct_answer(t: tuple[int, int, int]) -> None:
    """An independent implementation: enumerate every k-subset of the n samples."""
    n, c, k = t
    samples = [True] * c + [False] * (n - c)
    subsets = list(itertools.combinations(samples, k))
    share = Fraction(sum(any(s) for s in subsets), len(subsets))
    assert pass_at_k(n, c, k) == pytest.approx(float(share), abs=1e-12)


@given(counts(200))
def test_agrees_with_exact_binomials_and_grows_with_k(t: tuple[int, int, int]) -> None:
    n, c, k = t
    exact = 1 - Fraction(math.comb(n - c, k), math.comb(n, k))
    assert pass_at_k(n, c, k) == pytest.approx(float(exact), abs=1e-12)
    if k < n:
        assert pass_at_k(n, c, k + 1) >= pass_at_k(n, c, k) - 1e-15
    # never below the biased plug-in estimate 1 - (1 - c/n)^k
    assert pass_at_k(n, c, k) >= 1 - (1 - c / n) ** k - 1e-12
