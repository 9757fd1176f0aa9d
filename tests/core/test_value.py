"""PPO's value loss: unclipped, and clipped in CleanRL's ("max") and SB3's ("clipped") forms."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rlkl.core import gae, ppo_value_loss

TOL = 1e-12
values = st.floats(-10, 10)


def test_by_hand() -> None:
    # V = [1.5, 0.2], R = 1, V_old = [1, 0.5], eps = 0.2: V_clip = [1.2, 0.3]
    np.testing.assert_allclose(ppo_value_loss([1.5, 0.2], 1.0), [0.25, 0.64], atol=TOL)
    np.testing.assert_allclose(
        ppo_value_loss([1.5, 0.2], 1.0, [1.0, 0.5], clip_range=0.2, definition="clipped"),
        [0.04, 0.49],
        atol=TOL,
    )
    np.testing.assert_allclose(
        ppo_value_loss([1.5, 0.2], 1.0, [1.0, 0.5], clip_range=0.2), [0.25, 0.64], atol=TOL
    )
    # V moved from 0 to 0.5 toward R = 1: the clipped error (0.2 - 1)^2 is the larger
    assert ppo_value_loss(0.5, 1.0, 0.0, clip_range=0.2) == pytest.approx(0.64, abs=TOL)


def test_returns_from_gae_are_advantages_plus_values() -> None:
    adv, ret = gae([1.0, 0.0], [0.5, 0.4], [0.4, 0.0], [0, 1], [0, 0], gamma=0.9, lam=0.8)
    np.testing.assert_allclose(ret, adv + np.array([0.5, 0.4]), atol=TOL)
    assert np.all(ppo_value_loss([0.5, 0.4], ret) == (np.array([0.5, 0.4]) - ret) ** 2)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"clip_range": 0.2}, "old_values"),
        ({"clip_range": -0.1, "old_values": 0.0}, "clip_range"),
        ({"clip_range": 0.1, "old_values": 0.0, "definition": "min"}, "definition"),
    ],
)
def test_bad_input_is_a_value_error(kwargs: dict[str, object], match: str) -> None:
    with pytest.raises(ValueError, match=match):
        ppo_value_loss(1.0, 0.0, **kwargs)  # type: ignore[arg-type]


@given(values, values, values, st.floats(0, 2))
def test_max_form_bounds_both_and_a_wide_range_is_unclipped(
    v: float, r: float, old: float, eps: float
) -> None:
    unclipped = ppo_value_loss(v, r)
    high = ppo_value_loss(v, r, old, clip_range=eps)
    clipped = ppo_value_loss(v, r, old, clip_range=eps, definition="clipped")
    assert high == max(unclipped, clipped)
    assert ppo_value_loss(v, r, old, clip_range=100.0, definition="clipped") == pytest.approx(
        unclipped, abs=1e-9
    )
    if abs(v - old) <= eps:
        assert clipped == pytest.approx(unclipped, abs=1e-9)
