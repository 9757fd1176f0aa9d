"""DPO: the implicit reward at the KL-regularised optimum is r − β·log Z, the loss by hand,
its limits, and the Bradley–Terry identity at the optimum."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from rlkl.core import dpo_implicit_reward, dpo_loss, kl_divergence, kl_regularized_policy

from .strategies import prob_vectors

TOL = 1e-12


def test_loss_by_hand() -> None:
    # β = 0.1, chosen log-ratio +0.5, rejected log-ratio −0.5: margin 0.1, L = log(1 + e^−0.1)
    got = dpo_loss(-1.0, -2.0, -1.5, -1.5, beta=0.1)
    assert got == pytest.approx(math.log1p(math.exp(-0.1)), abs=TOL)
    assert got == pytest.approx(0.644396660073571, abs=TOL)
    # at π = π_ref the margin is 0 and the loss is log 2
    assert dpo_loss(-1.0, -2.0, -1.0, -2.0, beta=3.0) == pytest.approx(math.log(2), abs=TOL)


def test_implicit_reward_by_hand() -> None:
    assert dpo_implicit_reward(math.log(0.5), math.log(0.25), beta=0.5) == pytest.approx(
        0.5 * math.log(2), abs=TOL
    )
    np.testing.assert_allclose(
        dpo_implicit_reward([-1.0, -3.0], -2.0, beta=2.0), [2.0, -2.0], atol=TOL, rtol=0
    )


def test_loss_is_stable_for_large_margins() -> None:
    assert dpo_loss(0.0, -1e6, -1e6, 0.0, beta=1.0) == 0.0
    assert dpo_loss(-1e6, 0.0, 0.0, -1e6, beta=1.0) == pytest.approx(2e6, rel=1e-12)


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: dpo_loss(-1.0, -1.0, -1.0, -1.0, beta=0.0), "beta"),
        (lambda: dpo_loss(0.5, -1.0, -1.0, -1.0, beta=1.0), "logp_chosen"),
        (lambda: dpo_implicit_reward(-1.0, float("nan"), beta=1.0), "ref_logp"),
        (lambda: dpo_loss(-math.inf, -1.0, -math.inf, -1.0, beta=1.0), "undefined"),
    ],
)
def test_bad_input_is_a_value_error(call: object, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        call()  # type: ignore[operator]


@given(
    st.integers(2, 6).flatmap(
        lambda k: st.tuples(
            arrays(np.float64, k, elements=st.floats(-5, 5)), prob_vectors(k, positive=True)
        )
    ),
    st.floats(0.05, 5.0),
)
def test_implicit_reward_at_the_optimum_is_reward_minus_beta_log_z(
    case: tuple[np.ndarray, np.ndarray], beta: float
) -> None:
    """β·log(π*/π_ref) = r − β·log Z with π* = kl_regularized_policy(r, π_ref, β)."""
    r, ref = case
    star = kl_regularized_policy(r, ref, beta=beta)
    log_z = math.log(float(np.sum(ref * np.exp(r / beta))))
    implicit = dpo_implicit_reward(np.log(star), np.log(ref), beta=beta)
    np.testing.assert_allclose(implicit, r - beta * log_z, atol=1e-9, rtol=1e-9)
    # so the implicit reward differences are the true reward differences, Z cancels ...
    np.testing.assert_allclose(implicit - implicit[0], r - r[0], atol=1e-9, rtol=1e-9)
    # ... and the DPO loss of any pair at π* is the Bradley–Terry NLL −log σ(r_w − r_l)
    loss = dpo_loss(np.log(star[0]), np.log(star[1]), np.log(ref[0]), np.log(ref[1]), beta=beta)
    assert loss == pytest.approx(math.log1p(math.exp(-(r[0] - r[1]))), rel=1e-9, abs=1e-12)
    # π* attains the regularised objective's maximum value β·log Z
    value = float(np.sum(star * r)) - beta * kl_divergence(star, ref)
    assert value == pytest.approx(beta * log_z, rel=1e-9, abs=1e-9)


@given(st.floats(-20, 0), st.floats(-20, 0), st.floats(-20, 0), st.floats(-20, 0))
def test_loss_decreases_with_the_chosen_log_probability(
    w: float, lo: float, rw: float, rl: float
) -> None:
    base = dpo_loss(w - 1.0, lo, rw, rl, beta=0.5)
    assert dpo_loss(w, lo, rw, rl, beta=0.5) <= base
    assert dpo_loss(w, lo, rw, rl, beta=0.5) >= 0.0
