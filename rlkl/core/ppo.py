"""PPO numerics: probability ratio, clipped surrogate and its gradient, clip fraction,
sample-based KL estimates and the adaptive KL-penalty coefficient.

Everything is per sample and elementwise: inputs broadcast against each other (numpy rules),
float64. A 0-d result is returned as ``numpy.float64`` (a subclass of Python ``float``);
anything else as a float64 ``numpy.ndarray``.

Source for the objective and the β rule: Schulman, Wolski, Dhariwal, Radford & Klimov,
"Proximal Policy Optimization Algorithms" (2017), https://arxiv.org/abs/1707.06347 .

Conventions pinned here:

* ratio ``r = exp(log π_new(a|s) − log π_old(a|s))``; ``π_old`` is frozen for the rollout.
* the clip *binds* (the surrogate is flat in ``r``) iff ``A > 0 and r > 1 + ε`` or
  ``A < 0 and r < 1 − ε`` — strict inequalities. Exactly at ``r = 1 ± ε`` the clip does not
  bind: :func:`ppo_clip_grad` returns ``r·A`` there, as torch autograd does.
"""

from __future__ import annotations

import math
from typing import Literal, overload

import numpy as np
from numpy.typing import ArrayLike, NDArray

from rlkl.core._arrays import (
    FloatArray,
    FloatOrArray,
    anywhere,
    finite,
    out,
)

__all__ = [
    "ClipFractionDefinition",
    "KLEstimator",
    "adaptive_kl_beta",
    "approx_kl",
    "clip_fraction",
    "kl_controller_proportional",
    "ppo_clip_grad",
    "ppo_clip_objective",
    "ppo_ratio",
    "ppo_ratio_from_probs",
]

ClipFractionDefinition = Literal["outside", "binding"]
KLEstimator = Literal["k1", "k2", "k3"]


@overload
def ppo_ratio(logp_new: float, logp_old: float) -> np.float64: ...
@overload
def ppo_ratio(logp_new: ArrayLike, logp_old: ArrayLike) -> FloatOrArray: ...


def ppo_ratio(logp_new: ArrayLike, logp_old: ArrayLike) -> FloatOrArray:
    r"""PPO probability ratio from log-probabilities.

    Equation (PPO paper, eq. 6)::

        r_t(θ) = π_θ(a_t|s_t) / π_θold(a_t|s_t) = exp(log π_θ(a_t|s_t) − log π_θold(a_t|s_t))

    Computing it from log-probabilities avoids dividing tiny probabilities.

    Source: https://arxiv.org/abs/1707.06347 (§3).

    Args:
        logp_new: log π_new(a|s), any shape.
        logp_old: log π_old(a|s) of the rollout policy (frozen), broadcast with ``logp_new``.

    Returns:
        the broadcast shape; ``numpy.float64`` for scalar inputs.
    """
    new = finite(logp_new, "logp_new")
    old = finite(logp_old, "logp_old")
    # Overflow is a value, not a warning: the ratio is +inf (or 0) beyond float64's range.
    with np.errstate(over="ignore"):
        return out(np.exp(new - old))


@overload
def ppo_ratio_from_probs(p_new: float, p_old: float) -> np.float64: ...
@overload
def ppo_ratio_from_probs(p_new: ArrayLike, p_old: ArrayLike) -> FloatOrArray: ...


def ppo_ratio_from_probs(p_new: ArrayLike, p_old: ArrayLike) -> FloatOrArray:
    r"""PPO probability ratio from probabilities, as lesson prose states it.

    Equation::

        r = π_new(a|s) / π_old(a|s)          e.g. 0.7 / 0.5 = 1.4

    Mathematically equal to :func:`ppo_ratio` of the logs; prefer :func:`ppo_ratio` for
    computed log-probabilities.

    Source: https://arxiv.org/abs/1707.06347 (§3).

    Args:
        p_new: π_new(a|s) in [0, 1], any shape.
        p_old: π_old(a|s) in (0, 1], broadcast with ``p_new``.

    Raises:
        ValueError: naming ``p_new`` or ``p_old`` when outside those ranges or NaN.

    Returns:
        the broadcast shape; ``numpy.float64`` for scalar inputs.
    """
    new = finite(p_new, "p_new")
    old = finite(p_old, "p_old")
    if anywhere((new < 0) | (new > 1)):
        raise ValueError("p_new must be a probability in [0, 1]")
    if anywhere((old <= 0) | (old > 1)):
        raise ValueError("p_old must be a probability in (0, 1]")
    return out(new / old)


def _eps(epsilon: ArrayLike) -> FloatArray:
    e = finite(epsilon, "epsilon")
    if anywhere(e < 0) or anywhere(np.isinf(e)):
        raise ValueError("epsilon must be finite and >= 0")
    return e


@overload
def ppo_clip_objective(ratio: float, advantage: float, epsilon: float) -> np.float64: ...
@overload
def ppo_clip_objective(
    ratio: ArrayLike, advantage: ArrayLike, epsilon: ArrayLike
) -> FloatOrArray: ...


def ppo_clip_objective(ratio: ArrayLike, advantage: ArrayLike, epsilon: ArrayLike) -> FloatOrArray:
    r"""PPO clipped surrogate objective, per sample (to be maximised).

    Equation (PPO paper, eq. 7, without the expectation)::

        L_clip = min(r · A, clip(r, 1 − ε, 1 + ε) · A)

    A loss is minus its mean over samples. Seed numbers (ε = 0.2, r = 1.4):
    A = +2 → min(2.8, 2.4) = 2.4; A = −2 → min(−2.8, −2.4) = −2.8. Seed 003
    (r = 0.5, ε = 0.2, A = −2): raw −1, clipped −1.6, minimum −1.6. Always
    ``L_clip ≤ r · A``.

    Source: https://arxiv.org/abs/1707.06347 (§3, eq. 7).

    Args:
        ratio: r ≥ 0, any shape.
        advantage: A, broadcast with ``ratio``.
        epsilon: ε ≥ 0 (scalar or broadcastable).

    Returns:
        the broadcast shape; ``numpy.float64`` for scalar inputs.
    """
    r = finite(ratio, "ratio")
    a = finite(advantage, "advantage")
    e = _eps(epsilon)
    return out(np.minimum(r * a, np.clip(r, 1.0 - e, 1.0 + e) * a))


def _binding(r: FloatArray, a: FloatArray, e: FloatArray) -> NDArray[np.bool_]:
    mask: NDArray[np.bool_] = ((a > 0) & (r > 1.0 + e)) | ((a < 0) & (r < 1.0 - e))
    return mask


@overload
def ppo_clip_grad(ratio: float, advantage: float, epsilon: float) -> np.float64: ...
@overload
def ppo_clip_grad(ratio: ArrayLike, advantage: ArrayLike, epsilon: ArrayLike) -> FloatOrArray: ...


def ppo_clip_grad(ratio: ArrayLike, advantage: ArrayLike, epsilon: ArrayLike) -> FloatOrArray:
    r"""Gradient of the per-sample clipped objective with respect to log π_new(a|s).

    Since ``∂r/∂ log π_new = r``::

        ∂ L_clip / ∂ log π_new = r · A   where the clip does not bind,
                               = 0       where it binds:  (A > 0 and r > 1 + ε)
                                                         or (A < 0 and r < 1 − ε).

    So for A > 0 a ratio above 1 + ε (1.2 for ε = 0.2) receives no further incentive, and
    for A < 0 a ratio below 1 − ε (0.8) is the flat side.

    Convention at the kinks ``r = 1 + ε`` (A > 0) and ``r = 1 − ε`` (A < 0): the objective
    is not differentiable there; this returns the one-sided derivative from the unclipped
    side, ``r · A`` (the left derivative at 1 + ε, the right derivative at 1 − ε). That is
    exactly what torch autograd gives for
    ``torch.min(r * A, torch.clamp(r, 1 - ε, 1 + ε) * A)``: ``clamp`` passes the gradient
    at its bounds (inclusive) and ``min`` splits the gradient of a tie equally between two
    branches that both have derivative ``A``. It is also consistent with the strict
    inequalities of :func:`clip_fraction` ``definition="binding"``: the gradient is zero
    exactly where the clip binds (for A ≠ 0). At A = 0 the gradient is 0.

    Source: https://arxiv.org/abs/1707.06347 (§3, eq. 7).

    Args:
        ratio: r ≥ 0, any shape.
        advantage: A, broadcast with ``ratio``.
        epsilon: ε ≥ 0 (scalar or broadcastable).

    Returns:
        the broadcast shape; ``numpy.float64`` for scalar inputs.
    """
    r = finite(ratio, "ratio")
    a = finite(advantage, "advantage")
    e = _eps(epsilon)
    g = np.asarray(r * a, dtype=np.float64)
    np.copyto(g, 0.0, where=_binding(r, a, e))
    return out(g)


@overload
def clip_fraction(
    ratio: ArrayLike,
    advantage: ArrayLike,
    epsilon: ArrayLike,
    *,
    definition: ClipFractionDefinition,
    axis: None = None,
) -> np.float64: ...
@overload
def clip_fraction(
    ratio: ArrayLike,
    advantage: ArrayLike,
    epsilon: ArrayLike,
    *,
    definition: ClipFractionDefinition,
    axis: int | tuple[int, ...],
) -> FloatOrArray: ...


def clip_fraction(
    ratio: ArrayLike,
    advantage: ArrayLike,
    epsilon: ArrayLike,
    *,
    definition: ClipFractionDefinition,
    axis: int | tuple[int, ...] | None = None,
) -> FloatOrArray:
    r"""Fraction of samples that are clipped, under one of two named definitions.

    ``definition="outside"`` — the ratio lies outside the clip range, whatever the sign of
    A (CleanRL ``((ratio - 1.0).abs() > clip_coef).float().mean()``,
    https://github.com/vwxyzjn/cleanrl/blob/master/cleanrl/ppo.py ; Stable-Baselines3
    ``th.mean((th.abs(ratio - 1) > clip_range).float())``,
    https://github.com/DLR-RM/stable-baselines3/blob/master/stable_baselines3/ppo/ppo.py)::

        mean[ |r − 1| > ε ]

    ``definition="binding"`` — the clip actually binds given the sign of A, i.e. the clipped
    term is the strict minimum and the sample contributes no gradient (TRL
    ``pg_clipfrac = masked_mean(torch.gt(pg_losses2, pg_losses).float(), mask)``,
    https://github.com/huggingface/trl/blob/main/trl/trainer/ppo_trainer.py)::

        mean[ (A > 0 and r > 1 + ε) or (A < 0 and r < 1 − ε) ]

    "binding" ≤ "outside" always; samples with A = 0 never bind. "outside" is evaluated as
    ``r < 1 − ε or r > 1 + ε`` against the same float bounds the objective clips to; this
    equals ``|r − 1| > ε`` in exact arithmetic and differs from the CleanRL/SB3 float
    expression only when r is within rounding of a bound (e.g. r = 1.1, ε = 0.1, where
    ``1.1 − 1 > 0.1`` is true in float64 although r = 1 + ε: here it is not outside).

    Args:
        ratio: r, any shape.
        advantage: A, broadcast with ``ratio`` (ignored by "outside" except for shape).
        epsilon: ε ≥ 0.
        definition: ``"outside"`` or ``"binding"`` (required: the two differ).
        axis: axes to average over (default: all, giving a scalar).

    Returns:
        a fraction in [0, 1]; ``numpy.float64`` when averaged over everything.
    """
    r = finite(ratio, "ratio")
    a = finite(advantage, "advantage")
    e = _eps(epsilon)
    # Broadcast the shapes only: ε is usually a scalar and must not be expanded.
    shape = np.broadcast_shapes(r.shape, a.shape, e.shape)
    size = math.prod(shape)
    if size == 0:
        raise ValueError("ratio must contain at least one sample")
    if definition == "outside":
        mask = (r < 1.0 - e) | (r > 1.0 + e)
    elif definition == "binding":
        mask = _binding(r, a, e)
    else:
        raise ValueError(f"definition must be 'outside' or 'binding', got {definition!r}")
    if axis is None:
        # count of True in the (possibly smaller) mask, weighted by its broadcast multiplicity
        return out(np.count_nonzero(mask) * (size // mask.size) / size)
    full = np.broadcast_to(mask, shape)
    return out(np.mean(full, axis=axis, dtype=np.float64))


@overload
def approx_kl(logp_new: float, logp_old: float, *, estimator: KLEstimator) -> np.float64: ...
@overload
def approx_kl(
    logp_new: ArrayLike, logp_old: ArrayLike, *, estimator: KLEstimator
) -> FloatOrArray: ...


def approx_kl(logp_new: ArrayLike, logp_old: ArrayLike, *, estimator: KLEstimator) -> FloatOrArray:
    r"""Per-sample estimates of KL(π_old‖π_new) from actions sampled from π_old.

    With ``log r = log π_new(a|s) − log π_old(a|s)`` and ``a ~ π_old``::

        k1 = −log r                 unbiased, high variance, can be negative
        k2 = ½ (log r)²             biased (low bias when π_new ≈ π_old), ≥ 0
        k3 = (r − 1) − log r        unbiased, ≥ 0, low variance

    Average over samples to estimate the KL. ``k3`` is computed as
    ``expm1(log r) − log r`` for accuracy near r = 1; it is ``inf`` when r overflows
    float64 (log r > 709.78).

    Source: J. Schulman, "Approximating KL Divergence" (2020),
    http://joschu.net/blog/kl-approx.html (there ``r = p(x)/q(x)``, ``x ~ q``; here
    ``q = π_old``, ``p = π_new``).

    Args:
        logp_new: log π_new(a|s), any shape.
        logp_old: log π_old(a|s), broadcast with ``logp_new``.
        estimator: ``"k1"``, ``"k2"`` or ``"k3"``.

    Returns:
        the broadcast shape; ``numpy.float64`` for scalar inputs.
    """
    new = finite(logp_new, "logp_new")
    old = finite(logp_old, "logp_old")
    log_r = new - old
    if estimator == "k1":
        return out(-log_r)
    if estimator == "k2":
        return out(0.5 * log_r * log_r)
    if estimator == "k3":
        # Clamp tiny negative rounding: (r − 1) − log r ≥ 0 exactly.
        # r beyond float64 range (log r > ~709.78) gives +inf, without a warning.
        with np.errstate(over="ignore"):
            return out(np.maximum(np.expm1(log_r) - log_r, 0.0))
    raise ValueError(f"estimator must be 'k1', 'k2' or 'k3', got {estimator!r}")


@overload
def adaptive_kl_beta(beta: float, kl: float, kl_target: float) -> np.float64: ...
@overload
def adaptive_kl_beta(beta: ArrayLike, kl: ArrayLike, kl_target: ArrayLike) -> FloatOrArray: ...


def adaptive_kl_beta(beta: ArrayLike, kl: ArrayLike, kl_target: ArrayLike) -> FloatOrArray:
    r"""The PPO paper's adaptive KL-penalty coefficient update.

    Equation (PPO paper, §4, with d = measured KL, d_targ = target)::

        β ← β / 2   if d < d_targ / 1.5
        β ← β · 2   if d > d_targ · 1.5
        β ← β       otherwise (boundaries included)

    Source: https://arxiv.org/abs/1707.06347 (§4, "Adaptive KL Penalty Coefficient").

    Args:
        beta: current β ≥ 0, any shape.
        kl: measured KL d ≥ 0, broadcast with ``beta``.
        kl_target: d_targ > 0, broadcast.

    Returns:
        the new β, broadcast shape; ``numpy.float64`` for scalar inputs.
    """
    b = finite(beta, "beta")
    d = finite(kl, "kl")
    t = finite(kl_target, "kl_target")
    if anywhere(b < 0):
        raise ValueError("beta must be >= 0")
    if anywhere(t <= 0):
        raise ValueError("kl_target must be > 0")
    return out(np.where(d < t / 1.5, b / 2.0, np.where(d > t * 1.5, b * 2.0, b)))


@overload
def kl_controller_proportional(
    beta: float,
    kl: float,
    target: float,
    horizon_steps: float,
    *,
    n_steps: float,
    clip: float = ...,
) -> np.float64: ...
@overload
def kl_controller_proportional(
    beta: ArrayLike,
    kl: ArrayLike,
    target: ArrayLike,
    horizon_steps: float,
    *,
    n_steps: float,
    clip: float = ...,
) -> FloatOrArray: ...


def kl_controller_proportional(
    beta: ArrayLike,
    kl: ArrayLike,
    target: ArrayLike,
    horizon_steps: float,
    *,
    n_steps: float,
    clip: float = 0.2,
) -> FloatOrArray:
    r"""Ziegler et al.'s proportional (log-space) controller for the KL coefficient β.

    Equation (Ziegler et al. 2019, §2.2, with K_β = n_steps / horizon_steps)::

        e = clip(KL / KL_target − 1, −clip, +clip)
        β ← β · (1 + e · n_steps / horizon_steps)

    Unlike the PPO paper's halve/double rule (:func:`adaptive_kl_beta`), the step is
    proportional to the relative error and bounded (±20% of the error, by default), so β
    moves a little every update, by a factor near 1, and never jumps. ``n_steps`` is the
    number of samples (episodes) in the update and ``horizon_steps`` the time constant: the
    paper's K_β = 0.1 is n_steps/horizon_steps. This is also ``AdaptiveKLController`` in
    OpenAI's ``lm-human-preferences`` and in TRL (``horizon=10000`` by default).

    Source: https://arxiv.org/abs/1909.08593 (§2.2, "we dynamically adapt β with a log-space
    proportional controller").

    Args:
        beta: current β ≥ 0, any shape.
        kl: measured KL ≥ 0, broadcast.
        target: KL_target > 0, broadcast.
        horizon_steps: horizon > 0.
        n_steps: samples in this update, ≥ 0 (with n_steps ≤ horizon_steps / clip, β stays ≥ 0).
        clip: bound on the relative error, ≥ 0.

    Returns:
        the new β, broadcast shape; ``numpy.float64`` for scalar inputs.
    """
    b = finite(beta, "beta")
    d = finite(kl, "kl")
    t = finite(target, "target")
    if anywhere(b < 0):
        raise ValueError("beta must be >= 0")
    if anywhere(d < 0):
        raise ValueError("kl must be >= 0")
    if anywhere(t <= 0) or anywhere(np.isinf(t)):
        raise ValueError("target must be a finite number > 0")
    h = float(horizon_steps)
    if not (math.isfinite(h) and h > 0):
        raise ValueError(f"horizon_steps must be a finite number > 0, got {horizon_steps!r}")
    n = float(n_steps)
    c = float(clip)
    if not (math.isfinite(n) and n >= 0):
        raise ValueError(f"n_steps must be a finite number >= 0, got {n_steps!r}")
    if not (math.isfinite(c) and c >= 0):
        raise ValueError(f"clip must be a finite number >= 0, got {clip!r}")
    if n * c > h:
        raise ValueError("n_steps * clip must not exceed horizon_steps (beta would turn negative)")
    error = np.clip(d / t - 1.0, -c, c)
    return out(b * (1.0 + error * n / h))
