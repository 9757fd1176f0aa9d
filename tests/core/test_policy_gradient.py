"""Exact and score-function policy gradients of a softmax policy, KL gradient, and the
KL-regularised update converging to π* ∝ π_ref·exp(r/β)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rlkl.core import (
    expected_reinforce_grad,
    kl_divergence,
    kl_grad,
    kl_regularized_policy,
    policy_gradient,
    reinforce_grad,
    reinforce_grad_variance,
    reinforce_step,
    softmax,
)

from .strategies import logit_vectors, prob_vectors

TOL = 1e-15
REWARDS = st.floats(-5.0, 5.0)


@st.composite
def bandits(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray]:
    k = draw(st.integers(1, 6))
    z = draw(logit_vectors(k, scale=5.0))
    r = np.array(draw(st.lists(REWARDS, min_size=k, max_size=k)))
    return z, r


def _objective(z: np.ndarray, r: np.ndarray) -> float:
    return float(np.sum(softmax(z) * r))


def _fd(f, z: np.ndarray, h: float = 1e-6) -> np.ndarray:  # type: ignore[no-untyped-def]
    g = np.zeros_like(z)
    for i in range(z.size):
        e = np.zeros_like(z)
        e[i] = h
        g[i] = (f(z + e) - f(z - e)) / (2 * h)
    return g


# --- hand cases ------------------------------------------------------------------------


def test_policy_gradient_hand_case() -> None:
    # π = [0.5, 0.5], r = [1, 0]: b = 0.5, ∇ = π ⊙ (r − b) = [0.25, −0.25]
    np.testing.assert_allclose(policy_gradient([0.0, 0.0], [1.0, 0.0]), [0.25, -0.25], atol=TOL)
    # π = [0.25, 0.75], r = [2, 0]: b = 0.5, ∇ = [0.25·1.5, 0.75·(−0.5)] = [0.375, −0.375]
    g = policy_gradient([0.0, math.log(3.0)], [2.0, 0.0])
    np.testing.assert_allclose(g, [0.375, -0.375], atol=TOL)


def test_reinforce_grad_hand_case() -> None:
    z, r = [0.0, math.log(3.0)], [2.0, 0.0]  # π = [0.25, 0.75], b = 0.5
    # a = 0: (e_0 − π)(r_0 − b) = [0.75, −0.75]·1.5
    np.testing.assert_allclose(reinforce_grad(z, r, 0), [1.125, -1.125], atol=TOL)
    np.testing.assert_allclose(reinforce_grad(z, r, 0, baseline="none"), [1.5, -1.5], atol=TOL)
    # a = 1: [−0.25, 0.25]·(0 − 0.5)
    np.testing.assert_allclose(reinforce_grad(z, r, 1), [0.125, -0.125], atol=TOL)
    np.testing.assert_allclose(reinforce_grad(z, r, 1, baseline="none"), [0.0, 0.0], atol=TOL)
    np.testing.assert_allclose(reinforce_grad(z, r, 1, baseline=1.0), [0.25, -0.25], atol=TOL)


def test_reinforce_grad_batched_actions() -> None:
    z = np.zeros((3, 2))
    r = np.array([1.0, 0.0])
    g = reinforce_grad(z, r, np.array([0, 1, 0]))
    np.testing.assert_allclose(g, [[0.25, -0.25], [0.25, -0.25], [0.25, -0.25]], atol=TOL)
    g = reinforce_grad(z, r, np.array([0, 1, 0]), baseline="none")
    np.testing.assert_allclose(g, [[0.5, -0.5], [0.0, 0.0], [0.5, -0.5]], atol=TOL)


def test_reinforce_grad_validation() -> None:
    with pytest.raises(ValueError, match="action"):
        reinforce_grad([0.0, 0.0], [1.0, 0.0], 2)
    with pytest.raises(ValueError, match="action"):
        reinforce_grad([0.0, 0.0], [1.0, 0.0], 0.5)
    with pytest.raises(ValueError, match="baseline"):
        reinforce_grad([0.0, 0.0], [1.0, 0.0], 0, baseline="mean")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="rewards"):
        policy_gradient([0.0, 0.0], [1.0, 0.0, 2.0])


def test_variance_hand_cases() -> None:
    # π = [0.5, 0.5], r = [1, 0]: ĝ(0) = [.5, −.5](1 − b), ĝ(1) = [−.5, .5](0 − b)
    assert reinforce_grad_variance([0.0, 0.0], [1.0, 0.0], baseline="none") == pytest.approx(
        0.125, abs=TOL
    )
    assert reinforce_grad_variance([0.0, 0.0], [1.0, 0.0], baseline="exact") == pytest.approx(
        0.0, abs=TOL
    )
    diag = reinforce_grad_variance([0.0, 0.0], [1.0, 0.0], baseline="none", per_component=True)
    np.testing.assert_allclose(diag, [0.0625, 0.0625], atol=TOL)


def test_exact_baseline_does_not_always_reduce_variance() -> None:
    # Documented counterexample: π = [0.9, 0.1], r = [1, 0].
    z = np.log([0.9, 0.1])
    v_none = reinforce_grad_variance(z, [1.0, 0.0], baseline="none")
    v_exact = reinforce_grad_variance(z, [1.0, 0.0], baseline="exact")
    assert v_none == pytest.approx(0.0018, abs=1e-14)
    assert v_exact == pytest.approx(0.1152, abs=1e-14)
    assert v_exact > v_none


# --- exact enumeration: unbiasedness and variance --------------------------------------


@given(bandits())
def test_enumerated_expectation_equals_policy_gradient(zr: tuple[np.ndarray, np.ndarray]) -> None:
    z, r = zr
    pg = policy_gradient(z, r)
    pi = softmax(z)
    for baseline in ("exact", "none", 3.0):
        by_sum = sum(pi[a] * reinforce_grad(z, r, a, baseline=baseline) for a in range(len(z)))
        np.testing.assert_allclose(by_sum, pg, rtol=1e-9, atol=1e-12)
        e = expected_reinforce_grad(z, r, baseline=baseline)
        np.testing.assert_allclose(e, pg, rtol=1e-9, atol=1e-12)


@given(bandits())
def test_variance_matches_direct_enumeration(zr: tuple[np.ndarray, np.ndarray]) -> None:
    z, r = zr
    pi = softmax(z)
    for baseline in ("exact", "none"):
        gs = np.array([reinforce_grad(z, r, a, baseline=baseline) for a in range(len(z))])
        mean = pi @ gs
        direct = float(sum(pi[a] * np.sum((gs[a] - mean) ** 2) for a in range(len(z))))
        v = reinforce_grad_variance(z, r, baseline=baseline)
        assert v == pytest.approx(direct, rel=1e-9, abs=1e-12)
        diag = reinforce_grad_variance(z, r, baseline=baseline, per_component=True)
        assert float(np.sum(diag)) == pytest.approx(v, rel=1e-12, abs=1e-15)


@given(bandits(), st.floats(50.0, 1000.0))
def test_exact_baseline_reduces_variance_under_a_reward_offset(
    zr: tuple[np.ndarray, np.ndarray], offset: float
) -> None:
    # With a common offset c dominating the reward spread (|r| ≤ 5, c ≥ 50), the baseline
    # removes it; without, variance grows like c².
    z, r = zr
    r = r + offset
    pi = softmax(z)
    v_none = reinforce_grad_variance(z, r, baseline="none")
    v_exact = reinforce_grad_variance(z, r, baseline="exact")
    assert v_exact <= v_none + 1e-12
    # the baseline-corrected variance is invariant to the offset
    assert v_exact == pytest.approx(
        reinforce_grad_variance(z, r - offset, baseline="exact"), rel=1e-7, abs=1e-9
    )
    if len(z) > 1 and pi.max() < 1 - 1e-6:
        assert v_exact < v_none


@given(bandits())
def test_variance_is_minimised_at_the_optimal_constant_baseline(
    zr: tuple[np.ndarray, np.ndarray],
) -> None:
    z, r = zr
    pi = softmax(z)
    k = len(z)
    sq = np.array([np.sum((np.eye(k)[a] - pi) ** 2) for a in range(k)])
    if pi @ sq < 1e-12:
        return
    c_star = float(pi @ (sq * r) / (pi @ sq))
    v_star = reinforce_grad_variance(z, r, baseline=c_star)
    for c in (0.0, float(pi @ r), c_star + 1.0, c_star - 1.0):
        assert v_star <= reinforce_grad_variance(z, r, baseline=c) + 1e-12


# --- finite differences ----------------------------------------------------------------


@given(bandits())
def test_policy_gradient_matches_finite_differences(zr: tuple[np.ndarray, np.ndarray]) -> None:
    z, r = zr
    np.testing.assert_allclose(
        policy_gradient(z, r), _fd(lambda x: _objective(x, r), z), rtol=1e-5, atol=1e-8
    )


@given(
    st.integers(1, 6).flatmap(
        lambda k: st.tuples(logit_vectors(k, scale=5.0), prob_vectors(k, positive=True))
    )
)
def test_kl_grad_matches_finite_differences(zq: tuple[np.ndarray, np.ndarray]) -> None:
    z, ref = zq
    np.testing.assert_allclose(
        kl_grad(z, ref),
        _fd(lambda x: float(kl_divergence(softmax(x), ref)), z),
        rtol=1e-5,
        atol=1e-8,
    )


def test_kl_grad_hand_case_and_zero_at_reference() -> None:
    ref = np.array([0.2, 0.3, 0.5])
    np.testing.assert_allclose(kl_grad(np.log(ref), ref), np.zeros(3), atol=1e-15)
    # π = [0.5, 0.5], ref = [0.25, 0.75]: log(π/ref) = [ln 2, ln(2/3)], KL = ½ ln(4/3)
    kl = 0.5 * math.log(4 / 3)
    expected = 0.5 * (np.array([math.log(2), math.log(2 / 3)]) - kl)
    np.testing.assert_allclose(kl_grad([0.0, 0.0], [0.25, 0.75]), expected, atol=TOL)
    with pytest.raises(ValueError, match="ref_probs"):
        kl_grad([0.0, 0.0], [1.0, 0.0])


# --- KL-regularised updates converge to the closed form --------------------------------


@pytest.mark.parametrize("beta", [0.25, 0.5, 1.0, 4.0])
def test_repeated_reinforce_steps_converge_to_closed_form(beta: float) -> None:
    ref = np.array([0.5, 0.3, 0.2])
    r = np.array([1.0, 0.0, 0.5])
    target = ref * np.exp(r / beta)
    target /= target.sum()  # π* ∝ π_ref·exp(r/β), computed independently here
    np.testing.assert_allclose(kl_regularized_policy(r, ref, beta=beta), target, atol=1e-15)
    z = np.zeros(3)
    for _ in range(4000):
        z = reinforce_step(z, r, ref, lr=1.0 / beta, beta=beta)
    np.testing.assert_allclose(softmax(z), target, rtol=0, atol=1e-10)
    # the fixed point: the step no longer moves the logits
    np.testing.assert_allclose(reinforce_step(z, r, ref, lr=1.0 / beta, beta=beta), z, atol=1e-10)


def test_reinforce_step_is_exact_gradient_ascent_on_regularised_objective() -> None:
    ref = np.array([0.5, 0.3, 0.2])
    r = np.array([1.0, 0.0, 0.5])
    beta = 0.5
    z = np.array([0.3, -0.2, 0.1])

    def f(x: np.ndarray) -> float:
        return _objective(x, r) - beta * float(kl_divergence(softmax(x), ref))

    step = reinforce_step(z, r, ref, lr=0.1, beta=beta) - z
    np.testing.assert_allclose(step / 0.1, _fd(f, z), rtol=1e-6, atol=1e-9)
    assert f(z + step) > f(z)


def test_reinforce_step_batched_and_validated() -> None:
    z = np.zeros((2, 2))
    new = reinforce_step(z, [[1.0, 0.0], [0.0, 1.0]], [0.5, 0.5], lr=1.0, beta=0.0)
    np.testing.assert_allclose(new, [[0.25, -0.25], [-0.25, 0.25]], atol=TOL)
    assert np.all(z == 0)  # input not modified
    with pytest.raises(ValueError, match="lr"):
        reinforce_step(z, [1.0, 0.0], [0.5, 0.5], lr=0.0, beta=0.1)
    with pytest.raises(ValueError, match="beta"):
        reinforce_step(z, [1.0, 0.0], [0.5, 0.5], lr=0.1, beta=-1.0)
