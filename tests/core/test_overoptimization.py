"""Best-of-n KL and Gao et al.'s gold-reward forms: values by hand, limits and turning points."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rlkl.core import best_of_n_kl, gold_reward_bon, gold_reward_rl, kl_divergence

TOL = 1e-12


def test_best_of_n_kl_by_hand() -> None:
    assert best_of_n_kl(1) == 0.0
    assert best_of_n_kl(2) == pytest.approx(math.log(2) - 0.5, abs=TOL)
    assert best_of_n_kl(16) == pytest.approx(math.log(16) - 15 / 16, abs=TOL)
    for bad in (0, 2.5, -3, math.inf):
        with pytest.raises(ValueError, match="n must be"):
            best_of_n_kl(bad)


@pytest.mark.parametrize("n", [2, 4, 16])
def test_best_of_n_kl_is_the_limit_of_a_fine_discrete_reward(n: int) -> None:
    """Best of n draws from M equally likely, distinct rewards: P(rank i) = (i^n − (i−1)^n)/M^n.
    Its exact KL to the uniform distribution tends to log n − (n − 1)/n as M grows (ties
    vanish), from below."""
    m = 200_000
    i = np.arange(1, m + 1, dtype=np.float64)
    best = (i / m) ** n - ((i - 1) / m) ** n
    kl = kl_divergence(best, np.full(m, 1 / m))
    assert kl <= best_of_n_kl(n) + 1e-12
    assert kl == pytest.approx(best_of_n_kl(n), abs=1e-3)


def test_gold_reward_forms_by_hand() -> None:
    np.testing.assert_allclose(
        gold_reward_bon([0.0, 1.0, 3.0], alpha=1.0, beta=0.2), [0.0, 0.8, 1.2], atol=TOL
    )
    np.testing.assert_allclose(
        gold_reward_rl([0.0, 1.0, 3.0], alpha=1.0, beta=0.5),
        [0.0, 1.0, 3 * (1 - 0.5 * math.log(3))],
        atol=TOL,
    )
    with pytest.raises(ValueError, match="sqrt"):
        gold_reward_rl(-1.0, alpha=1.0, beta=0.5)


coefficients = st.tuples(st.floats(0.1, 5.0), st.floats(0.05, 2.0))


@given(coefficients)
def test_turning_points_are_where_the_paper_says(ab: tuple[float, float]) -> None:
    """d* = α/(2β) for best-of-n and exp(α/β − 1) for RL: the largest value on a fine grid."""
    a, b = ab
    star_bon = a / (2 * b)
    grid = np.linspace(0, 2 * star_bon, 20_001)
    assert grid[np.argmax(gold_reward_bon(grid, alpha=a, beta=b))] == pytest.approx(
        star_bon, rel=1e-3
    )
    assert gold_reward_bon(star_bon, alpha=a, beta=b) == pytest.approx(a * a / (4 * b), rel=1e-12)
    star_rl = math.exp(a / b - 1)
    if star_rl < 1e6:
        grid = np.linspace(0, 2 * star_rl, 20_001)
        assert grid[np.argmax(gold_reward_rl(grid, alpha=a, beta=b))] == pytest.approx(
            star_rl, rel=1e-3
        )
        assert gold_reward_rl(star_rl, alpha=a, beta=b) == pytest.approx(b * star_rl, rel=1e-9)
