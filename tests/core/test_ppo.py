"""PPO ratio, clipped objective and gradient, clip fraction, approx KL, adaptive β."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from rlkl.core import (
    adaptive_kl_beta,
    approx_kl,
    clip_fraction,
    kl_divergence,
    ppo_clip_grad,
    ppo_clip_objective,
    ppo_ratio,
    ppo_ratio_from_probs,
)

from .strategies import prob_pairs

TOL = 1e-15
RATIOS = st.floats(min_value=0.0, max_value=5.0)
ADVS = st.floats(min_value=-10.0, max_value=10.0)
EPSS = st.floats(min_value=0.0, max_value=0.9)


# --- ratio -----------------------------------------------------------------------------


def test_ratio_hand_cases_and_broadcast() -> None:
    r = ppo_ratio(np.log([0.7, 0.35, 0.5]), math.log(0.5))
    np.testing.assert_allclose(r, [1.4, 0.7, 1.0], rtol=1e-15, atol=0)
    assert ppo_ratio(0.0, 0.0) == 1.0
    assert ppo_ratio_from_probs(0.5, 0.5) == 1.0
    np.testing.assert_allclose(ppo_ratio_from_probs([0.7, 0.1], [0.5, 0.2]), [1.4, 0.5])


def test_ratio_from_tiny_log_probs_does_not_underflow() -> None:
    # probabilities e^-800 underflow to 0, their ratio is still e^-1
    assert ppo_ratio(-801.0, -800.0) == pytest.approx(math.exp(-1.0), rel=1e-15)


def test_ratio_from_probs_validation() -> None:
    with pytest.raises(ValueError, match=r"^p_old"):
        ppo_ratio_from_probs(0.5, 0.0)
    with pytest.raises(ValueError, match=r"^p_new"):
        ppo_ratio_from_probs(1.5, 0.5)
    with pytest.raises(ValueError, match=r"^logp_new"):
        ppo_ratio(math.nan, 0.0)


# --- objective -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("r", "a", "expected"),
    [
        (1.4, 2.0, 2.4),  # clipped above
        (1.4, -2.0, -2.8),  # unclipped (pessimistic) branch
        (0.5, -2.0, -1.6),  # clipped below
        (0.5, 2.0, 1.0),  # unclipped
        (1.0, 3.0, 3.0),
        (1.1, 2.0, 2.2),  # inside the range
        (0.7, 0.0, 0.0),
    ],
)
def test_objective_hand_cases(r: float, a: float, expected: float) -> None:
    assert ppo_clip_objective(r, a, 0.2) == pytest.approx(expected, abs=TOL)


def test_objective_batch_and_per_sample_epsilon() -> None:
    obj = ppo_clip_objective([1.4, 1.4, 0.5], [2.0, -2.0, -2.0], 0.2)
    np.testing.assert_allclose(obj, [2.4, -2.8, -1.6], rtol=0, atol=TOL)
    obj = ppo_clip_objective(1.4, 2.0, np.array([0.1, 0.2, 0.5]))
    np.testing.assert_allclose(obj, [2.2, 2.4, 2.8], rtol=0, atol=TOL)


def test_objective_epsilon_validation() -> None:
    with pytest.raises(ValueError, match=r"^epsilon"):
        ppo_clip_objective(1.0, 1.0, -0.1)


@given(RATIOS, ADVS, EPSS)
def test_objective_is_pessimistic_bound(r: float, a: float, e: float) -> None:
    obj = ppo_clip_objective(r, a, e)
    assert obj <= r * a
    assert obj <= float(np.clip(r, 1 - e, 1 + e)) * a
    assert obj in (r * a, float(np.clip(r, 1 - e, 1 + e)) * a)


@given(RATIOS, ADVS)
def test_objective_with_zero_epsilon_and_huge_epsilon(r: float, a: float) -> None:
    # ε = 0: min(rA, A); ε ≥ r − 1 and 1 − ε ≤ 0: no clipping at all
    assert ppo_clip_objective(r, a, 0.0) == min(r * a, a)
    assert ppo_clip_objective(r, a, 10.0) == r * a


# --- gradient --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("r", "a", "expected"),
    [
        (1.1, 2.0, 2.2),
        (1.3, 2.0, 0.0),
        (1.3, -2.0, -2.6),  # A < 0 is never flat above 1 + ε
        (0.7, 2.0, 1.4),  # A > 0 is never flat below 1 − ε
        (0.7, -2.0, 0.0),
        (1.0, 0.0, 0.0),
    ],
)
def test_grad_hand_cases(r: float, a: float, expected: float) -> None:
    assert ppo_clip_grad(r, a, 0.2) == pytest.approx(expected, abs=TOL)


def test_grad_at_the_kinks_is_the_unclipped_one_sided_derivative() -> None:
    # r = 1 + ε exactly (1 + 0.2 == 1.2 in float64): r·A, the left derivative
    assert 1 + 0.2 == 1.2 and 1 - 0.2 == 0.8
    assert ppo_clip_grad(1.2, 2.0, 0.2) == pytest.approx(2.4, abs=TOL)
    assert ppo_clip_grad(0.8, -2.0, 0.2) == pytest.approx(-1.6, abs=TOL)
    # not kinks for the other sign
    assert ppo_clip_grad(1.2, -2.0, 0.2) == pytest.approx(-2.4, abs=TOL)
    assert ppo_clip_grad(0.8, 2.0, 0.2) == pytest.approx(1.6, abs=TOL)


def _fd_grad(r: float, a: float, e: float, h: float = 1e-6) -> float:
    """Central difference of the objective in log π_new (r → r·e^{±h})."""
    up = ppo_clip_objective(r * math.exp(h), a, e)
    down = ppo_clip_objective(r * math.exp(-h), a, e)
    return float((up - down) / (2 * h))


@given(st.floats(0.01, 5.0), ADVS, st.floats(0.0, 0.9))
def test_grad_matches_finite_differences_away_from_kinks(r: float, a: float, e: float) -> None:
    assume(abs(r - (1 + e)) > 1e-4 * max(1.0, r) and abs(r - (1 - e)) > 1e-4)
    assert ppo_clip_grad(r, a, e) == pytest.approx(_fd_grad(r, a, e), rel=1e-6, abs=1e-7)


@given(RATIOS, ADVS, EPSS)
def test_grad_is_zero_exactly_where_the_clip_binds(r: float, a: float, e: float) -> None:
    g = ppo_clip_grad(r, a, e)
    binds = clip_fraction(r, a, e, definition="binding")
    if binds == 1.0:
        assert g == 0.0
    else:
        assert g == r * a


# --- clip fraction ---------------------------------------------------------------------


def test_clip_fraction_hand_cases() -> None:
    r = [0.7, 0.9, 1.1, 1.3]
    a = [1.0, -1.0, 1.0, -1.0]
    # outside: 0.7 and 1.3; binding: neither (A > 0 at 0.7, A < 0 at 1.3)
    assert clip_fraction(r, a, 0.2, definition="outside") == 0.5
    assert clip_fraction(r, a, 0.2, definition="binding") == 0.0
    assert clip_fraction([0.7, 1.3], [-1.0, 1.0], 0.2, definition="binding") == 1.0
    # the bounds themselves are not clipped, under either definition
    assert clip_fraction([0.8, 1.2], [-1.0, 1.0], 0.2, definition="outside") == 0.0
    assert clip_fraction([0.8, 1.2], [-1.0, 1.0], 0.2, definition="binding") == 0.0
    # A = 0 never binds
    assert clip_fraction(2.0, 0.0, 0.2, definition="binding") == 0.0


def test_clip_fraction_axis() -> None:
    r = np.array([[0.7, 1.0], [1.3, 1.5]])
    f = clip_fraction(r, 1.0, 0.2, definition="binding", axis=-1)
    np.testing.assert_array_equal(f, [0.0, 1.0])
    assert clip_fraction(r, 1.0, 0.2, definition="outside") == 0.75


def test_clip_fraction_rejects_unknown_definition() -> None:
    with pytest.raises(ValueError, match="definition"):
        clip_fraction(1.0, 1.0, 0.2, definition="sb3")  # type: ignore[call-overload]


@given(st.lists(st.tuples(RATIOS, ADVS), min_size=1, max_size=20), EPSS)
def test_binding_never_exceeds_outside(samples: list[tuple[float, float]], e: float) -> None:
    r, a = np.array(samples).T
    binding = clip_fraction(r, a, e, definition="binding")
    outside = clip_fraction(r, a, e, definition="outside")
    assert 0.0 <= binding <= outside <= 1.0


# --- approx KL -------------------------------------------------------------------------


def test_approx_kl_hand_cases() -> None:
    lr = math.log(1.4)
    assert approx_kl(lr, 0.0, estimator="k1") == pytest.approx(-lr, abs=TOL)
    assert approx_kl(lr, 0.0, estimator="k2") == pytest.approx(0.5 * lr * lr, abs=TOL)
    assert approx_kl(lr, 0.0, estimator="k3") == pytest.approx(0.4 - lr, abs=1e-15)
    with pytest.raises(ValueError, match="estimator"):
        approx_kl(0.0, 0.0, estimator="k4")  # type: ignore[call-overload]


@given(st.floats(-30.0, 30.0), st.floats(-30.0, 30.0))
def test_k2_k3_nonnegative(new: float, old: float) -> None:
    assert approx_kl(new, old, estimator="k2") >= 0.0
    assert approx_kl(new, old, estimator="k3") >= 0.0


def test_k3_accurate_near_one() -> None:
    # (r − 1) − log r ≈ x²/2 for log r = x small
    x = 1e-6
    assert approx_kl(x, 0.0, estimator="k3") == pytest.approx(x * x / 2, rel=1e-6)


@given(prob_pairs(positive_q=True))
def test_k1_and_k3_are_unbiased_by_exact_enumeration(pq: tuple[np.ndarray, np.ndarray]) -> None:
    # E_{a~π_old}[k] = KL(π_old‖π_new) for k1 and k3 (Schulman's note), exactly
    old, new = pq
    assume(np.all(old > 1e-100))  # k3 = r − 1 − log r overflows for r > e^709
    kl = kl_divergence(old, new)
    for est in ("k1", "k3"):
        k = approx_kl(np.log(new), np.log(old), estimator=est)
        assert float(np.sum(old * k)) == pytest.approx(kl, rel=1e-9, abs=1e-12)


# --- adaptive β ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kl", "expected"),
    [
        (0.001, 0.5),  # < 0.01/1.5: halve
        (0.01 / 1.5, 1.0),  # boundary: keep
        (0.01, 1.0),
        (0.015, 1.0),  # boundary 1.5·target: keep
        (0.0151, 2.0),  # > 1.5·target: double
    ],
)
def test_adaptive_beta(kl: float, expected: float) -> None:
    assert adaptive_kl_beta(1.0, kl, 0.01) == expected


def test_adaptive_beta_vectorised_and_validated() -> None:
    np.testing.assert_array_equal(
        adaptive_kl_beta([1.0, 1.0, 4.0], [0.0, 0.01, 1.0], 0.01), [0.5, 1.0, 8.0]
    )
    with pytest.raises(ValueError, match=r"^kl_target"):
        adaptive_kl_beta(1.0, 0.01, 0.0)
    with pytest.raises(ValueError, match=r"^beta"):
        adaptive_kl_beta(-1.0, 0.01, 0.01)


def test_nan_detection_with_overflowing_sums_and_mixed_infinities() -> None:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        np.testing.assert_array_equal(
            ppo_ratio([1e308, 1e308, -1e308, -1e308], 1e308), [1.0, 1.0, 0.0, 0.0]
        )
        np.testing.assert_array_equal(ppo_ratio([np.inf, -np.inf], 0.0), [np.inf, 0.0])
    with pytest.raises(ValueError, match=r"^ratio contains NaN"):
        ppo_clip_objective([np.inf, -np.inf, np.nan], 1.0, 0.2)
