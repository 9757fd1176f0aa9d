"""RLOO and GRPO group advantages: hand-computed groups, the pinned std convention (TRL's),
properties, and unbiasedness of the leave-one-out baseline by exact enumeration."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from rlkl.core import (
    expected_group_grad,
    group_grad_variance,
    group_reinforce_grad,
    grpo_advantages,
    policy_gradient,
    rloo_advantages,
    softmax,
)

TOL = 1e-12
groups = st.integers(2, 8).flatmap(
    lambda k: arrays(np.float64, k, elements=st.floats(-100, 100, allow_nan=False))
)


def test_rloo_by_hand() -> None:
    # r = [1, 0, 0, 1]: each correct sample's baseline is the mean of the other three, 1/3
    np.testing.assert_allclose(
        rloo_advantages([1.0, 0.0, 0.0, 1.0]), [2 / 3, -2 / 3, -2 / 3, 2 / 3], atol=TOL, rtol=0
    )
    # r = [3, 1]: the other sample is the whole baseline
    np.testing.assert_allclose(rloo_advantages([3.0, 1.0]), [2.0, -2.0], atol=TOL, rtol=0)


def test_grpo_by_hand_with_trl_std_convention() -> None:
    r = [1.0, 0.0, 0.0, 1.0]
    # mean 0.5; sample std (ddof = 1) = sqrt(4 · 0.25 / 3) = 1/sqrt(3)
    std1 = 1 / math.sqrt(3)
    np.testing.assert_allclose(
        grpo_advantages(r), 0.5 / (std1 + 1e-4) * np.array([1, -1, -1, 1]), atol=TOL, rtol=0
    )
    # population std (ddof = 0) = 0.5 and no ε: exactly ±1
    np.testing.assert_allclose(
        grpo_advantages(r, ddof=0, eps=0.0), [1.0, -1.0, -1.0, 1.0], atol=TOL, rtol=0
    )
    # Dr. GRPO: centred only
    np.testing.assert_allclose(
        grpo_advantages(r, normalize_std=False), [0.5, -0.5, -0.5, 0.5], atol=TOL, rtol=0
    )


def test_equal_rewards_give_zero_advantages() -> None:
    for fn in (rloo_advantages, grpo_advantages):
        np.testing.assert_array_equal(fn([0.7, 0.7, 0.7]), [0.0, 0.0, 0.0])
    np.testing.assert_array_equal(grpo_advantages([1.0, 1.0], eps=0.0), [0.0, 0.0])


def test_groups_along_an_axis_are_independent() -> None:
    r = np.array([[1.0, 0.0, 0.0], [2.0, 4.0, 9.0]])
    for fn in (rloo_advantages, grpo_advantages):
        both = fn(r)
        np.testing.assert_allclose(both[1], fn(r[1]), atol=TOL, rtol=0)
        np.testing.assert_allclose(fn(r.T, axis=0), both.T, atol=TOL, rtol=0)


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: rloo_advantages([1.0]), "at least 2"),
        (lambda: rloo_advantages(1.0), "group axis"),
        (lambda: rloo_advantages([1.0, float("nan")]), "NaN"),
        (lambda: rloo_advantages([1.0, float("inf")]), "infinite"),
        (lambda: rloo_advantages([1.0, 2.0], axis=3), "out of range"),
        (lambda: grpo_advantages([1.0]), "at least 2"),
        (lambda: grpo_advantages([1.0, 2.0], ddof=2), "ddof"),
        (lambda: grpo_advantages([1.0, 2.0], eps=-1.0), "eps"),
    ],
)
def test_bad_input_is_a_value_error(call: object, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        call()  # type: ignore[operator]


@given(groups)
def test_rloo_properties(r: np.ndarray) -> None:
    a = rloo_advantages(r)
    k = len(r)
    scale = 1 + float(np.max(np.abs(r)))
    assert abs(a.sum()) <= 1e-9 * k * scale  # advantages of a group sum to 0
    # the closed form k/(k−1)·(r − mean) and the definition r_i − mean_{j≠i} r_j agree
    loop = [r[i] - np.mean(np.delete(r, i)) for i in range(k)]
    np.testing.assert_allclose(a, loop, atol=1e-9 * scale, rtol=0)
    np.testing.assert_allclose(a, k / (k - 1) * (r - r.mean()), atol=1e-9 * scale, rtol=0)
    # adding a constant to every reward changes nothing
    np.testing.assert_allclose(rloo_advantages(r + 7.0), a, atol=1e-9 * scale, rtol=0)


@given(groups, st.floats(0.1, 10.0))
def test_grpo_properties(r: np.ndarray, c: float) -> None:
    scale = 1 + float(np.max(np.abs(r)))
    plain = grpo_advantages(r, normalize_std=False)
    # Dr. GRPO is RLOO scaled by (k−1)/k
    k = len(r)
    np.testing.assert_allclose(plain, (k - 1) / k * rloo_advantages(r), atol=1e-9 * scale, rtol=0)
    if np.std(r, ddof=1) > 1e-6 * scale:  # a spread float64 resolves (no underflowing squares)
        # without ε the normalised advantages are invariant to a positive rescaling of rewards
        a = grpo_advantages(r, eps=0.0)
        np.testing.assert_allclose(grpo_advantages(c * r, eps=0.0), a, atol=1e-7, rtol=1e-7)
        # and have sample std 1 (ddof = 1, the pinned convention)
        assert np.std(a, ddof=1) == pytest.approx(1.0, rel=1e-9)


def test_rloo_is_unbiased_by_exact_enumeration() -> None:
    """E[(1/k) Σ_i A_i ∇log π(y_i)] over all k-tuples of i.i.d. actions equals ∇J exactly."""
    logits = np.array([0.3, -0.5, 1.1])
    pi = softmax(logits)
    reward = np.array([1.0, 0.0, 0.4])
    k = 3
    expected = np.zeros(3)
    plain_mean = np.zeros(3)  # baseline = group mean including the sample itself
    for draw in itertools.product(range(3), repeat=k):
        weight = float(np.prod(pi[list(draw)]))
        r = reward[list(draw)]
        scores = np.eye(3)[list(draw)] - pi  # ∇_z log π(y_i) = e_{y_i} − π
        expected += weight * (rloo_advantages(r)[:, None] * scores).mean(axis=0)
        plain_mean += weight * ((r - r.mean())[:, None] * scores).mean(axis=0)
    true = policy_gradient(logits, reward)
    np.testing.assert_allclose(expected, true, atol=1e-12, rtol=0)
    # the mean baseline that includes the sample is biased: it shrinks ∇J by (k−1)/k
    np.testing.assert_allclose(plain_mean, (k - 1) / k * true, atol=1e-12, rtol=0)


# --- group estimates and their exact moments ---------------------------------------------

Z = np.log([0.6, 0.4])
R = [1.0, 0.0]


def test_group_estimate_by_hand() -> None:
    # left, right, left, left with r = [1, 0]: RLOO advantages [1/3, −1, 1/3, 1/3];
    # ∇log π(left) = [0.4, −0.4], ∇log π(right) = [−0.6, 0.6]
    # (3 · 1/3 · [0.4, −0.4] + (−1) · [−0.6, 0.6]) / 4 = [0.25, −0.25]
    np.testing.assert_allclose(
        group_reinforce_grad(Z, R, [0, 1, 0, 0]), [0.25, -0.25], atol=TOL, rtol=0
    )
    # exact baseline 0.6: (3 · 0.4 · [0.4, −0.4] + (−0.6) · [−0.6, 0.6]) / 4 = [0.21, −0.21]
    np.testing.assert_allclose(
        group_reinforce_grad(Z, R, [0, 1, 0, 0], baseline="exact"), [0.21, -0.21], atol=TOL, rtol=0
    )
    # group mean 0.75: (3 · 0.25 · [0.4, −0.4] + (−0.75) · [−0.6, 0.6]) / 4 = [0.1875, −0.1875]
    np.testing.assert_allclose(
        group_reinforce_grad(Z, R, [0, 1, 0, 0], baseline="mean"), [0.1875, -0.1875], atol=TOL
    )
    # actions written as whole floats (as a lesson expression passes them) are accepted
    np.testing.assert_allclose(group_reinforce_grad(Z, R, [0.0, 1.0]), [0.5, -0.5], atol=TOL)


def _moments_by_loop(logits: np.ndarray, rewards: list[float], k: int, baseline: str):  # type: ignore[no-untyped-def]
    """Independent enumeration: a plain loop over groups with per-sample REINFORCE terms."""
    pi = softmax(logits)
    r = np.asarray(rewards)
    estimates, weights = [], []
    for draw in itertools.product(range(len(pi)), repeat=k):
        rs = r[list(draw)]
        g = np.zeros(len(pi))
        for i, a in enumerate(draw):
            others = np.delete(rs, i)
            b = {
                "rloo": others.mean() if k > 1 else 0.0,
                "mean": rs.mean(),
                "exact": float(pi @ r),
                "none": 0.0,
            }[baseline]
            g += (np.eye(len(pi))[a] - pi) * (rs[i] - b) / k
        estimates.append(g)
        weights.append(float(np.prod(pi[list(draw)])))
    est, w = np.array(estimates), np.array(weights)
    mean = w @ est
    return mean, float(w @ ((est - mean) ** 2).sum(axis=1))


@pytest.mark.parametrize("baseline", ["rloo", "mean", "exact", "none"])
@pytest.mark.parametrize(
    ("logits", "rewards", "k"),
    [(Z, R, 4), (Z, R, 2), (np.array([0.3, -0.5, 1.1]), [1.0, 0.0, 0.4], 3)],
)
def test_exact_moments_match_an_independent_loop(
    baseline: str, logits: np.ndarray, rewards: list[float], k: int
) -> None:
    mean, var = _moments_by_loop(logits, rewards, k, baseline)
    np.testing.assert_allclose(
        expected_group_grad(logits, rewards, k, baseline=baseline),  # type: ignore[arg-type]
        mean,
        atol=1e-12,
        rtol=0,
    )
    assert group_grad_variance(logits, rewards, k, baseline=baseline) == pytest.approx(  # type: ignore[arg-type]
        var, abs=1e-12
    )


def test_moments_of_the_worked_example() -> None:
    true = policy_gradient(Z, R)
    np.testing.assert_allclose(expected_group_grad(Z, R, 4, baseline="rloo"), true, atol=TOL)
    np.testing.assert_allclose(
        expected_group_grad(Z, R, 4, baseline="mean"), 0.75 * true, atol=TOL, rtol=0
    )
    # exact / none: the single-sample variances 0.0192 / 0.0768 divided by k = 4
    assert group_grad_variance(Z, R, 4, baseline="exact") == pytest.approx(0.0048, abs=TOL)
    assert group_grad_variance(Z, R, 4, baseline="none") == pytest.approx(0.0192, abs=TOL)
    assert group_grad_variance(Z, R, 4, baseline="rloo") == pytest.approx(0.024, abs=TOL)
    # RLOO ignores a constant reward offset; no baseline does not
    shifted = [2.0, 1.0]
    assert group_grad_variance(Z, shifted, 4, baseline="rloo") == pytest.approx(0.024, abs=TOL)
    assert group_grad_variance(Z, shifted, 4, baseline="none") > 0.2


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: group_reinforce_grad(Z, R, [0]), "at least 2"),
        (lambda: group_reinforce_grad(Z, R, [0, 2]), "lie in"),
        (lambda: group_reinforce_grad(Z, R, [0.5, 1.0]), "integer"),
        (lambda: group_reinforce_grad(Z, R, [0, 1], baseline="x"), "baseline"),  # type: ignore[arg-type]
        (lambda: group_reinforce_grad(Z, [1.0, 0.0, 2.0], [0, 1]), "same length"),
        (lambda: expected_group_grad(Z, R, 0, baseline="none"), "positive integer"),
        (lambda: group_grad_variance(Z, R, 40, baseline="none"), "enumerate"),
    ],
)
def test_group_bad_input_is_a_value_error(call: object, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        call()  # type: ignore[operator]


@given(
    st.integers(2, 3).flatmap(
        lambda n: st.tuples(
            arrays(np.float64, n, elements=st.floats(-3, 3)),
            arrays(np.float64, n, elements=st.floats(-5, 5)),
        )
    ),
    st.integers(2, 4),
    st.floats(-10, 10),
)
def test_group_baselines_properties(
    case: tuple[np.ndarray, np.ndarray], k: int, offset: float
) -> None:
    """RLOO, exact and no baseline are unbiased for any policy and rewards; the group mean
    keeps (k−1)/k of the gradient; RLOO's and the exact baseline's variances ignore a
    constant reward offset; exact and no baseline average k independent single samples."""
    logits, rewards = case
    true = policy_gradient(logits, rewards)
    for baseline in ("rloo", "exact", "none"):
        np.testing.assert_allclose(
            expected_group_grad(logits, rewards, k, baseline=baseline), true, atol=1e-9
        )
    np.testing.assert_allclose(
        expected_group_grad(logits, rewards, k, baseline="mean"), (k - 1) / k * true, atol=1e-9
    )
    for baseline in ("rloo", "exact"):
        assert group_grad_variance(logits, rewards + offset, k, baseline=baseline) == pytest.approx(
            group_grad_variance(logits, rewards, k, baseline=baseline), rel=1e-6, abs=1e-9
        )
    from rlkl.core import reinforce_grad_variance

    for baseline in ("exact", "none"):
        single = reinforce_grad_variance(logits, rewards, baseline=baseline)
        assert group_grad_variance(logits, rewards, k, baseline=baseline) == pytest.approx(
            single / k, rel=1e-6, abs=1e-9
        )
