"""The Bradley–Terry reward model: probability, pairwise loss and gradient, by hand and by
property (shift invariance, symmetry, the gradient against finite differences)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rlkl.core import bradley_terry_grad, bradley_terry_loss, bradley_terry_prob

TOL = 1e-12
rewards = st.floats(-20, 20)


def test_by_hand() -> None:
    # margin 0.8: P = 1/(1 + e^-0.8), L = -log P, dL/dr_w = P - 1
    p = 1 / (1 + math.exp(-0.8))
    assert bradley_terry_prob(1.2, 0.4) == pytest.approx(p, abs=TOL)
    assert round(float(bradley_terry_prob(1.2, 0.4)), 6) == 0.689974
    assert bradley_terry_loss(1.2, 0.4) == pytest.approx(-math.log(p), abs=TOL)
    assert round(float(bradley_terry_loss(1.2, 0.4)), 6) == 0.371101
    assert bradley_terry_grad(1.2, 0.4) == pytest.approx(p - 1, abs=TOL)
    assert bradley_terry_loss(0.7, 0.7) == pytest.approx(math.log(2), abs=TOL)
    assert bradley_terry_prob(3.0, 3.0) == 0.5


def test_batches_broadcast() -> None:
    got = bradley_terry_loss([1.0, 0.0, 2.0], 0.0)
    np.testing.assert_allclose(got, [math.log1p(math.exp(-m)) for m in (1.0, 0.0, 2.0)], atol=TOL)


def test_extreme_margins_neither_overflow_nor_lose_the_loss() -> None:
    assert bradley_terry_loss(0.0, 1e6) == pytest.approx(1e6, rel=1e-12)
    assert bradley_terry_loss(1e6, 0.0) == 0.0
    assert bradley_terry_prob(-1e6, 0.0) == 0.0
    assert bradley_terry_grad(0.0, 1e6) == -1.0


@pytest.mark.parametrize("bad", [math.nan, math.inf, "x"])
def test_bad_rewards_are_value_errors(bad: object) -> None:
    with pytest.raises(ValueError, match="reward"):
        bradley_terry_loss(bad, 0.0)  # type: ignore[arg-type]


@given(rewards, rewards, st.floats(-50, 50))
def test_only_the_difference_matters(a: float, b: float, shift: float) -> None:
    assert bradley_terry_prob(a + shift, b + shift) == pytest.approx(
        bradley_terry_prob(a, b), abs=1e-9
    )


@given(rewards, rewards)
def test_the_two_orders_sum_to_one_and_the_loss_is_minus_log_p(a: float, b: float) -> None:
    assert bradley_terry_prob(a, b) + bradley_terry_prob(b, a) == pytest.approx(1.0, abs=TOL)
    p = float(bradley_terry_prob(a, b))
    if p > 1e-300:
        assert bradley_terry_loss(a, b) == pytest.approx(-math.log(p), rel=1e-9, abs=1e-12)


@given(rewards, rewards)
def test_gradient_is_the_derivative_of_the_loss(a: float, b: float) -> None:
    h = 1e-6
    fd = (bradley_terry_loss(a + h, b) - bradley_terry_loss(a - h, b)) / (2 * h)
    assert bradley_terry_grad(a, b) == pytest.approx(fd, abs=1e-6)
    assert -1.0 <= bradley_terry_grad(a, b) <= 0.0
