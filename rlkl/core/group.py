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

import numpy as np
from numpy.typing import ArrayLike

from rlkl.core._arrays import FloatArray, finite, nonnegative_scalar

__all__ = ["grpo_advantages", "rloo_advantages"]

GRPO_STD_EPS = 1e-4
"""Default ε added to the group std, as TRL's ``GRPOTrainer`` does."""


def _group(rewards: ArrayLike, axis: int, minimum: int) -> tuple[FloatArray, int]:
    r = finite(rewards, "rewards")
    if r.ndim == 0:
        raise ValueError("rewards must have a group axis")
    if np.isinf(r).any():
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
