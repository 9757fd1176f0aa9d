"""GAE: the docstring example, λ limits, termination vs truncation, batching, and an
independent forward-sum reference."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rlkl.core import gae

TOL = 1e-12


def test_docstring_example() -> None:
    adv, ret = gae(
        [1.0, 1.0, 1.0],
        [0.5, 0.5, 0.5],
        [0.5, 2.0, 9.9],
        [False, False, True],
        [False, True, False],
        gamma=0.9,
        lam=0.5,
    )
    np.testing.assert_allclose(adv, [1.985, 2.3, 0.5], rtol=0, atol=TOL)
    np.testing.assert_allclose(ret, [2.485, 2.8, 1.0], rtol=0, atol=TOL)


def test_termination_does_not_bootstrap_truncation_does() -> None:
    kw = {"gamma": 0.5, "lam": 1.0}
    _, ret_term = gae([1.0], [0.0], [10.0], [True], [False], **kw)
    _, ret_trunc = gae([1.0], [0.0], [10.0], [False], [True], **kw)
    assert ret_term[0] == 1.0  # r
    assert ret_trunc[0] == 6.0  # r + γ·V(s')
    # both flags: terminated wins; next_values is ignored even if NaN
    _, ret_both = gae([1.0], [0.0], [np.nan], [True], [True], **kw)
    assert ret_both[0] == 1.0


def test_lambda_one_gives_discounted_monte_carlo_returns() -> None:
    r = np.array([1.0, 2.0, 3.0, 4.0])
    v = np.array([0.3, -0.2, 0.7, 0.1])
    nv = np.append(v[1:], 0.0)
    _, ret = gae(r, v, nv, [0, 0, 0, 1], [0, 0, 0, 0], gamma=0.9, lam=1.0)
    expected = [1 + 0.9 * 2 + 0.81 * 3 + 0.729 * 4, 2 + 0.9 * 3 + 0.81 * 4, 3 + 0.9 * 4, 4.0]
    np.testing.assert_allclose(ret, expected, rtol=0, atol=TOL)


def test_lambda_zero_gives_td_errors() -> None:
    r = np.array([1.0, 2.0, 3.0])
    v = np.array([0.3, -0.2, 0.7])
    nv = np.array([-0.2, 0.7, 5.0])
    adv, _ = gae(r, v, nv, [0, 0, 0], [0, 0, 0], gamma=0.9, lam=0.0)
    np.testing.assert_allclose(adv, r + 0.9 * nv - v, rtol=0, atol=TOL)


def test_recursion_is_cut_at_episode_boundaries() -> None:
    # two one-step episodes back to back: the second must not leak into the first
    adv, _ = gae(
        [1.0, 100.0], [0.0, 0.0], [0.0, 0.0], [False, True], [True, False], gamma=1.0, lam=1.0
    )
    np.testing.assert_allclose(adv, [1.0, 100.0], atol=TOL)


def test_batch_dims_broadcast_time_on_last_axis() -> None:
    r = np.ones((4, 3))
    v = np.zeros(3)
    adv, ret = gae(r, v, v, False, False, gamma=1.0, lam=1.0)
    assert adv.shape == ret.shape == (4, 3)
    np.testing.assert_allclose(adv, np.tile([3.0, 2.0, 1.0], (4, 1)), atol=TOL)


def test_validation() -> None:
    with pytest.raises(ValueError, match="gamma"):
        gae([1.0], [0.0], [0.0], [0], [0], gamma=1.5, lam=0.9)
    with pytest.raises(ValueError, match="lam"):
        gae([1.0], [0.0], [0.0], [0], [0], gamma=0.9, lam=-0.1)
    with pytest.raises(ValueError, match="terminated"):
        gae([1.0], [0.0], [0.0], [2], [0], gamma=0.9, lam=0.9)
    with pytest.raises(ValueError, match="next_values"):
        gae([1.0], [0.0], [np.nan], [0], [0], gamma=0.9, lam=0.9)


def _reference(
    r: list[float],
    v: list[float],
    nv: list[float],
    term: list[bool],
    trunc: list[bool],
    gamma: float,
    lam: float,
) -> np.ndarray:
    """Forward sum A_t = Σ_l (γλ)^l δ_{t+l}, stopping after the step that ends the episode."""
    t_len = len(r)
    delta = [r[t] + (0.0 if term[t] else gamma * nv[t]) - v[t] for t in range(t_len)]
    adv = []
    for t in range(t_len):
        total, w = 0.0, 1.0
        for u in range(t, t_len):
            total += w * delta[u]
            if term[u] or trunc[u]:
                break
            w *= gamma * lam
        adv.append(total)
    return np.array(adv)


@settings(max_examples=200)
@given(
    st.integers(1, 12).flatmap(
        lambda n: st.tuples(
            st.lists(st.floats(-5, 5), min_size=n, max_size=n),
            st.lists(st.floats(-5, 5), min_size=n, max_size=n),
            st.lists(st.floats(-5, 5), min_size=n, max_size=n),
            st.lists(st.booleans(), min_size=n, max_size=n),
            st.lists(st.booleans(), min_size=n, max_size=n),
        )
    ),
    st.floats(0.0, 1.0),
    st.floats(0.0, 1.0),
)
def test_matches_forward_sum_reference(data, gamma: float, lam: float) -> None:  # type: ignore[no-untyped-def]
    r, v, nv, term, trunc = data
    adv, ret = gae(r, v, nv, term, trunc, gamma=gamma, lam=lam)
    expected = _reference(r, v, nv, term, trunc, gamma, lam)
    np.testing.assert_allclose(adv, expected, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(ret, expected + np.array(v), rtol=1e-9, atol=1e-9)
    # batching two copies gives the same rows
    adv2, _ = gae([r, r], [v, v], [nv, nv], [term, term], [trunc, trunc], gamma=gamma, lam=lam)
    np.testing.assert_allclose(adv2, [adv, adv], rtol=0, atol=0)
