"""Group baselines for sampled completions: RLOO's leave-one-out baseline and GRPO's
group-relative (optionally std-normalised) advantages.

Setting: for one prompt, ``k`` completions are sampled from the current policy and each gets a
scalar reward; the group lies along ``axis`` (the last by default) and any other axes are
independent groups. Both estimators need no learned critic: the other samples of the group
are the baseline.

Sources: Kool, van Hoof & Welling, "Buy 4 REINFORCE Samples, Get a Baseline for Free!"
(ICLR 2019 workshop), https://openreview.net/forum?id=r1lgTGL5DE ; Ahmadian et al., "Back to
Basics: Revisiting REINFORCE Style Optimization for Learning from Human Feedback in LLMs"
(2024), https://arxiv.org/abs/2402.14740 ; Shao et al., "DeepSeekMath" (2024), §4.1,
https://arxiv.org/abs/2402.03300 ; Liu et al., "Understanding R1-Zero-Like Training: A
Critical Perspective" (2025), https://arxiv.org/abs/2503.20783 .
"""

from __future__ import annotations

import itertools
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from rlkl.core._arrays import FloatArray, anywhere, finite, nonnegative_scalar, out
from rlkl.core.distributions import softmax

__all__ = [
    "GroupBaseline",
    "expected_group_grad",
    "group_grad_variance",
    "group_reinforce_grad",
    "grpo_advantages",
    "rloo_advantages",
]

GroupBaseline = Literal["rloo", "mean", "exact", "none"]
"""Baseline of each sample in a group: ``"rloo"`` the mean reward of the *other* samples;
``"mean"`` the group mean including the sample itself (biased); ``"exact"`` Σ π r; ``"none"`` 0."""

MAX_GROUPS = 1_000_000
"""Largest number of groups (K^k) the exact moments enumerate."""

GRPO_STD_EPS = 1e-4
"""Default ε added to the group std, as TRL's ``GRPOTrainer`` does."""


def _group(rewards: ArrayLike, axis: int, minimum: int) -> tuple[FloatArray, int]:
    r = finite(rewards, "rewards")
    if r.ndim == 0:
        raise ValueError("rewards must have a group axis")
    if anywhere(np.isinf(r)):
        raise ValueError("rewards contains an infinite entry")
    try:
        k = r.shape[axis]
    except IndexError:
        raise ValueError(f"axis {axis} is out of range for rewards of shape {r.shape}") from None
    if k < minimum:
        raise ValueError(f"a group needs at least {minimum} rewards along axis {axis}, got {k}")
    return r, k


def _centred(r: FloatArray, axis: int) -> FloatArray:
    """r − mean(r) along ``axis``; exactly 0 in a group whose rewards are all equal."""
    centred: FloatArray = r - np.mean(r, axis=axis, keepdims=True)
    equal = np.ptp(r, axis=axis, keepdims=True) == 0
    flat: FloatArray = np.where(equal, 0.0, centred)
    return flat


def rloo_advantages(rewards: ArrayLike, axis: int = -1) -> FloatArray:
    r"""REINFORCE leave-one-out (RLOO) advantages of one group of ``k`` sampled rewards.

    Equation (Kool et al. 2019; Ahmadian et al. 2024, eq. 7)::

        A_i = r_i − (1/(k−1)) Σ_{j≠i} r_j  =  k/(k−1) · (r_i − mean(r))

    The baseline of sample i uses only the *other* samples, so it is independent of sample i
    and the estimator Σ_i A_i ∇log π(y_i) / k stays unbiased; subtracting the plain group mean
    (which includes r_i) instead shrinks every advantage by the factor (k−1)/k. The
    advantages of a group sum to 0.

    Source: https://arxiv.org/abs/2402.14740 (§3.2, "REINFORCE Leave-One-Out").

    Args:
        rewards: ``[..., k, ...]`` finite rewards, the group along ``axis``; k ≥ 2.
        axis: the group axis (default: last).

    Returns:
        float64 array of the same shape.
    """
    r, k = _group(rewards, axis, 2)
    adv: FloatArray = k / (k - 1) * _centred(r, axis)
    return adv


def grpo_advantages(
    rewards: ArrayLike,
    *,
    normalize_std: bool = True,
    eps: float = GRPO_STD_EPS,
    ddof: int = 1,
    axis: int = -1,
) -> FloatArray:
    r"""GRPO's group-relative advantages (outcome supervision), with or without std scaling.

    Equation (Shao et al. 2024, §4.1.2, with the ε and ddof pinned below)::

        A_i = (r_i − mean(r)) / (std(r) + ε)     normalize_std=True
        A_i =  r_i − mean(r)                      normalize_std=False  (Dr. GRPO)

    Convention (pinned): ``std`` is the sample standard deviation with ``ddof=1`` (Bessel's
    correction) and ε = 1e-4 is *added to the std*, which is what TRL's ``GRPOTrainer`` does
    (``rewards.view(-1, G).std(dim=1)``: torch's default is the unbiased std; then
    ``advantages / (std + 1e-4)``). The paper does not state ddof; ``ddof=0`` is the
    population std (numpy's default). Liu et al. (2025) drop the std division ("Dr. GRPO")
    because it up-weights groups whose rewards barely differ (too easy or too hard prompts).
    A group whose rewards are all equal gets advantage 0 either way.

    Sources: https://arxiv.org/abs/2402.03300 (§4.1.2); https://arxiv.org/abs/2503.20783
    (§3.1); TRL ``GRPOTrainer``, https://huggingface.co/docs/trl/grpo_trainer .

    Args:
        rewards: ``[..., G, ...]`` finite rewards, the group along ``axis``; G ≥ ddof + 1.
        normalize_std: divide by std + ε (GRPO) or not (Dr. GRPO).
        eps: ε ≥ 0 added to the std.
        ddof: delta degrees of freedom of the std, 0 or 1.
        axis: the group axis (default: last).

    Returns:
        float64 array of the same shape.
    """
    if ddof not in (0, 1) or isinstance(ddof, bool):
        raise ValueError(f"ddof must be 0 or 1, got {ddof!r}")
    e = nonnegative_scalar(eps, "eps")
    r, _ = _group(rewards, axis, ddof + 1)
    centred = _centred(r, axis)
    if not normalize_std:
        return centred
    std = np.std(r, axis=axis, ddof=ddof, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        adv: FloatArray = np.where(centred == 0.0, 0.0, centred / (std + e))
    return adv


def _policy_1d(logits: ArrayLike, rewards: ArrayLike) -> tuple[FloatArray, FloatArray]:
    pi = softmax(logits)
    r = finite(rewards, "rewards")
    if pi.ndim != 1 or r.ndim != 1 or r.shape != pi.shape:
        raise ValueError("logits and rewards must be two vectors [K] of the same length")
    if anywhere(np.isinf(r)):
        raise ValueError("rewards contains an infinite entry")
    return pi, r


def _group_estimates(
    pi: FloatArray, r: FloatArray, actions: np.ndarray, baseline: GroupBaseline
) -> FloatArray:
    """Estimates ``[..., K]`` for integer groups ``actions [..., k]``."""
    k_actions = pi.shape[-1]
    size = actions.shape[-1]
    rewards = r[actions]  # [..., k]
    if baseline == "rloo":
        if size < 2:
            raise ValueError("the leave-one-out baseline needs a group of at least 2 samples")
        adv = rloo_advantages(rewards)
    elif baseline == "mean":
        adv = rewards - np.mean(rewards, axis=-1, keepdims=True)
    elif baseline == "exact":
        adv = rewards - float(np.sum(pi * r))
    elif baseline == "none":
        adv = rewards
    else:
        raise ValueError(f"baseline must be 'rloo', 'mean', 'exact' or 'none', got {baseline!r}")
    score = np.eye(k_actions)[actions] - pi  # [..., k, K]: e_{a_i} − π
    g: FloatArray = np.mean(score * adv[..., None], axis=-2)
    return g


def group_reinforce_grad(
    logits: ArrayLike, rewards: ArrayLike, actions: ArrayLike, *, baseline: GroupBaseline = "rloo"
) -> FloatArray:
    r"""Score-function estimate of ∇_z J from one group of k sampled actions.

    Equation (one prompt, k samples a_1…a_k ~ π, softmax policy over K actions)::

        ĝ = (1/k) Σ_i (e_{a_i} − π) · (r(a_i) − b_i)

    with b_i from ``baseline``: ``"rloo"`` (1/(k−1)) Σ_{j≠i} r(a_j) (Kool et al. 2019;
    Ahmadian et al. 2024); ``"mean"`` (1/k) Σ_j r(a_j), which includes sample i and so is
    biased, E[ĝ] = (k−1)/k · ∇J; ``"exact"`` Σ_a π(a) r(a); ``"none"`` 0.

    Source: https://arxiv.org/abs/2402.14740 (§3.2).

    Args:
        logits: ``[K]``.
        rewards: ``[K]``, the reward of each action.
        actions: integer ``[..., k]``, each row one group.
        baseline: see above (default ``"rloo"``).

    Returns:
        ``[..., K]`` float64 array.
    """
    pi, r = _policy_1d(logits, rewards)
    act = np.asarray(actions)
    if act.ndim == 0:
        raise ValueError("actions must be a group [..., k] of action indices")
    if act.dtype.kind == "f" and np.all(act == np.round(act)):
        act = act.astype(np.int64)  # whole numbers written in a lesson arrive as floats
    if not np.issubdtype(act.dtype, np.integer):
        raise ValueError(f"actions must be integer, got dtype {act.dtype}")
    if anywhere((act < 0) | (act >= pi.shape[-1])):
        raise ValueError(f"actions must lie in [0, {pi.shape[-1]})")
    return _group_estimates(pi, r, act, baseline)


def _all_groups(
    logits: ArrayLike, rewards: ArrayLike, group_size: int, baseline: GroupBaseline
) -> tuple[FloatArray, FloatArray]:
    """(probability of every ordered group ``[G]``, its estimate ``[G, K]``)."""
    pi, r = _policy_1d(logits, rewards)
    k = int(group_size)
    if k != group_size or k < 1:
        raise ValueError(f"group_size must be a positive integer, got {group_size!r}")
    if pi.shape[-1] ** k > MAX_GROUPS:
        raise ValueError(f"{pi.shape[-1]}^{k} groups is more than {MAX_GROUPS} to enumerate")
    groups = np.array(list(itertools.product(range(pi.shape[-1]), repeat=k)), dtype=np.int64)
    prob: FloatArray = np.prod(pi[groups], axis=-1)
    return prob, _group_estimates(pi, r, groups, baseline)


def expected_group_grad(
    logits: ArrayLike, rewards: ArrayLike, group_size: int, *, baseline: GroupBaseline
) -> FloatArray:
    r"""Exact expectation of :func:`group_reinforce_grad` over all K^k groups of i.i.d. actions.

    Equation::

        E[ĝ] = Σ_{a_1…a_k} Π_i π(a_i) · ĝ(a_1…a_k)

    enumerated, not sampled. Equals :func:`policy_gradient` for ``"rloo"``, ``"exact"`` and
    ``"none"`` (unbiased) and (k−1)/k times it for ``"mean"``.

    Source: https://arxiv.org/abs/2402.14740 (§3.2); Kool et al. (2019),
    https://openreview.net/forum?id=r1lgTGL5DE .

    Args:
        logits: ``[K]``.
        rewards: ``[K]``.
        group_size: k ≥ 1 (≥ 2 for ``"rloo"``), with K^k at most a million.
        baseline: as in :func:`group_reinforce_grad`.

    Returns:
        ``[K]`` float64 array.
    """
    prob, g = _all_groups(logits, rewards, group_size, baseline)
    e: FloatArray = np.sum(prob[:, None] * g, axis=0)
    return e


def group_grad_variance(
    logits: ArrayLike, rewards: ArrayLike, group_size: int, *, baseline: GroupBaseline
) -> np.float64:
    r"""Exact total variance of :func:`group_reinforce_grad` over all K^k groups.

    Definition (pinned, as :func:`reinforce_grad_variance`): the trace of the covariance of
    the vector estimate, E‖ĝ − E[ĝ]‖², enumerated over every ordered group. For
    ``"exact"`` and ``"none"`` it is the single-sample variance divided by k.

    Source: https://arxiv.org/abs/2402.14740 (§3.2).

    Args:
        logits: ``[K]``.
        rewards: ``[K]``.
        group_size: k, as in :func:`expected_group_grad`.
        baseline: as in :func:`group_reinforce_grad`.

    Returns:
        ``numpy.float64``.
    """
    prob, g = _all_groups(logits, rewards, group_size, baseline)
    mean = np.sum(prob[:, None] * g, axis=0)
    total = np.sum(prob[:, None] * (g - mean) ** 2)
    value: np.float64 = out(total)  # type: ignore[assignment]
    return value
