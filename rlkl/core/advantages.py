"""Generalized Advantage Estimation with explicit termination and truncation flags.

Source: Schulman, Moritz, Levine, Jordan & Abbeel, "High-Dimensional Continuous Control
Using Generalized Advantage Estimation" (2015), https://arxiv.org/abs/1506.02438 (eqs. 11–16).
Termination vs truncation: Pardo, Tavakoli, Levdik & Kormushev, "Time Limits in
Reinforcement Learning" (2018), https://arxiv.org/abs/1712.00378 ; Gymnasium's
``terminated``/``truncated`` API, https://gymnasium.farama.org/api/env/#gymnasium.Env.step .
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from rlkl.core._arrays import FloatArray, anywhere, finite, unit_interval_scalar

__all__ = ["gae"]


def _flags(x: ArrayLike, name: str) -> NDArray[np.bool_]:
    arr = np.asarray(x)
    if arr.dtype == np.bool_:
        return arr
    if not (np.issubdtype(arr.dtype, np.integer) or np.issubdtype(arr.dtype, np.floating)):
        raise ValueError(f"{name} must be boolean (or 0/1), got dtype {arr.dtype}")
    if not np.isin(arr, (0, 1)).all():
        raise ValueError(f"{name} must contain only booleans or 0/1")
    flags: NDArray[np.bool_] = arr.astype(np.bool_)
    return flags


def gae(
    rewards: ArrayLike,
    values: ArrayLike,
    next_values: ArrayLike,
    terminated: ArrayLike,
    truncated: ArrayLike,
    *,
    gamma: float,
    lam: float,
) -> tuple[FloatArray, FloatArray]:
    r"""GAE(γ, λ) advantages and λ-returns; time runs along the **last axis**.

    Per step t (all arrays indexed ``[..., t]``)::

        δ_t = r_t + γ · (1 − terminated_t) · V(s_{t+1}) − V(s_t)
        A_t = δ_t + γ λ · (1 − done_t) · A_{t+1},   done_t = terminated_t or truncated_t
        A_T = 0   (past the end of the rollout)
        returns_t = A_t + V(s_t)

    Convention (pinned):

    * ``next_values[..., t]`` is V of the observation that step t actually led to — for a
      truncated step, the final observation of the episode (before any reset); for the
      last step of the rollout, the observation after it.
    * **terminated** (a true terminal state): no bootstrap, V(s_{t+1}) is taken as 0 (the
      ``next_values`` entry is ignored, even if NaN/inf) and the recursion is cut.
    * **truncated** (time limit / rollout cut that is not a terminal state): bootstrap from
      ``next_values[..., t]`` and cut the recursion (the next step belongs to a new
      episode).
    * both flags set: treated as terminated.
    * the last step of the rollout with neither flag: bootstrap from ``next_values`` and
      A_T = 0, i.e. ``A_{T-1} = δ_{T-1}``.

    Tiny example (γ = 0.9, λ = 0.5; one episode truncated at t = 1, then one terminated at
    t = 2)::

        rewards     = [1.0, 1.0, 1.0]
        values      = [0.5, 0.5, 0.5]
        next_values = [0.5, 2.0, 9.9]     # 2.0 = V(final obs of the truncated episode)
        terminated  = [F,   F,   T  ]
        truncated   = [F,   T,   F  ]
        δ           = [1 + 0.45 − 0.5, 1 + 1.8 − 0.5, 1 − 0.5] = [0.95, 2.3, 0.5]
        A           = [0.95 + 0.45·2.3, 2.3, 0.5]              = [1.985, 2.3, 0.5]
        returns     = A + values                              = [2.485, 2.8, 1.0]

    With λ = 1 the returns are the discounted Monte-Carlo returns (bootstrapped at
    truncation); with λ = 0, A_t = δ_t (one-step TD error).

    Source: https://arxiv.org/abs/1506.02438 (eq. 16); truncation vs termination:
    https://arxiv.org/abs/1712.00378 .

    Args:
        rewards: ``[..., T]``.
        values: V(s_t), ``[..., T]``.
        next_values: V(s_{t+1}), ``[..., T]``.
        terminated: booleans (or 0/1) ``[..., T]``.
        truncated: booleans (or 0/1) ``[..., T]``.
        gamma: discount γ in [0, 1].
        lam: λ in [0, 1].
        (All five arrays broadcast against each other.)

    Returns:
        ``(advantages, returns)``, two float64 arrays of the broadcast shape ``[..., T]``.
    """
    g = unit_interval_scalar(gamma, "gamma")
    lm = unit_interval_scalar(lam, "lam")
    r = finite(rewards, "rewards")
    v = finite(values, "values")
    nv = np.asarray(next_values, dtype=np.float64)
    term = _flags(terminated, "terminated")
    trunc = _flags(truncated, "truncated")
    r, v, nv, term, trunc = np.broadcast_arrays(r, v, nv, term, trunc)
    if r.ndim == 0:
        raise ValueError("rewards must have a time axis [..., T]")
    if anywhere(np.isnan(np.where(term, 0.0, nv))):
        raise ValueError("next_values contains NaN at a step that is not terminated")
    bootstrap = np.where(term, 0.0, nv)
    delta = r + g * bootstrap - v
    carry = np.where(term | trunc, 0.0, g * lm)
    adv = np.empty(r.shape, dtype=np.float64)
    last = np.zeros(r.shape[:-1], dtype=np.float64)
    for t in range(r.shape[-1] - 1, -1, -1):
        last = delta[..., t] + carry[..., t] * last
        adv[..., t] = last
    returns: FloatArray = adv + v
    return adv, returns
