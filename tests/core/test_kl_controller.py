"""Ziegler et al.'s proportional KL controller beside the PPO paper's halve/double rule."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rlkl.core import adaptive_kl_beta, kl_controller_proportional


def reference_controller(
    value: float, current: float, target: float, horizon: float, n: float
) -> float:
    """The update as lm-human-preferences / TRL ``AdaptiveKLController.update`` write it."""
    proportional_error = min(max(current / target - 1, -0.2), 0.2)
    mult = 1 + proportional_error * n / horizon
    return value * mult


def test_by_hand() -> None:
    # KL 50% above target: the error is clipped to +0.2, K_β = 512/10000: β · 1.01024
    assert kl_controller_proportional(0.1, 0.03, 0.02, 10000, n_steps=512) == pytest.approx(
        0.101024, abs=1e-15
    )
    # KL 10% below target: e = −0.1, K_β = 0.1: β · 0.99
    assert kl_controller_proportional(2.0, 0.009, 0.01, 10, n_steps=1) == pytest.approx(
        1.98, abs=1e-15
    )
    # on target: unchanged
    assert kl_controller_proportional(0.3, 0.01, 0.01, 10, n_steps=1) == 0.3


def test_same_trajectory_differs_from_the_halve_double_rule() -> None:
    kl = [0.05, 0.05, 0.005, 0.012]
    b_ppo, b_prop = 1.0, 1.0
    ppo, prop = [], []
    for d in kl:
        b_ppo = float(adaptive_kl_beta(b_ppo, d, 0.01))
        b_prop = float(kl_controller_proportional(b_prop, d, 0.01, 10, n_steps=1))
        ppo.append(b_ppo)
        prop.append(b_prop)
    np.testing.assert_allclose(ppo, [2.0, 4.0, 2.0, 2.0], atol=1e-15, rtol=0)
    np.testing.assert_allclose(prop, [1.02, 1.0404, 1.019592, 1.03998384], atol=1e-8, rtol=0)


@given(
    st.floats(0, 10),
    st.floats(0, 1),
    st.floats(1e-4, 1),
    st.floats(1, 1e5),
    st.floats(0, 1),
)
def test_matches_the_reference_and_moves_toward_the_target(
    beta: float, kl: float, target: float, horizon: float, frac: float
) -> None:
    n = frac * horizon
    got = kl_controller_proportional(beta, kl, target, horizon, n_steps=n)
    assert got == pytest.approx(reference_controller(beta, kl, target, horizon, n), rel=1e-12)
    # bounded step: a factor within [1 − 0.2·n/h, 1 + 0.2·n/h]
    assert beta * (1 - 0.2 * frac) - 1e-12 <= got <= beta * (1 + 0.2 * frac) + 1e-12
    # direction: more penalty above target, less below
    if kl > target:
        assert got >= beta
    if kl < target:
        assert got <= beta


def test_broadcasts() -> None:
    got = kl_controller_proportional([1.0, 1.0], [0.0, 1.0], 0.01, 10, n_steps=1)
    np.testing.assert_allclose(got, [0.98, 1.02], atol=1e-15, rtol=0)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"beta": -1.0}, "beta"),
        ({"kl": -0.1}, "kl"),
        ({"target": 0.0}, "target"),
        ({"horizon_steps": 0.0}, "horizon_steps"),
        ({"n_steps": -1.0}, "n_steps"),
        ({"n_steps": 100.0}, "negative"),
        ({"clip": -0.1}, "clip"),
    ],
)
def test_bad_input_is_a_value_error(kwargs: dict[str, float], match: str) -> None:
    args = {"beta": 1.0, "kl": 0.01, "target": 0.01, "horizon_steps": 10.0, "n_steps": 1.0}
    args.update(kwargs)
    n = args.pop("n_steps")
    clip = args.pop("clip", 0.2)
    with pytest.raises(ValueError, match=match):
        kl_controller_proportional(**args, n_steps=n, clip=clip)
