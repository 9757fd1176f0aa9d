"""A tabular softmax policy, batched over a leading seed axis.

The parameters are logits ``z`` of shape ``(n_seeds, n_states, n_actions)``;
``π(a|s) = softmax(z[s])[a]`` (via :func:`rlkl.core.softmax`). Samples are indexed by
``(seed, sample)`` arrays ``obs`` and ``action`` of shape ``(n_seeds, n)``.

The chain rule used by every arm: for a per-sample objective ``o_i`` with
``g_i = ∂o_i/∂log π(a_i|s_i)`` (for PPO, :func:`rlkl.core.ppo_clip_grad`),

    ∂/∂z[s] (1/n Σ_i o_i) = 1/n Σ_{i: s_i = s} g_i (onehot(a_i) − π(·|s)),

because ``∂ log π(a|s) / ∂z[s] = onehot(a) − π(·|s)``.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]


def init_logits(n_seeds: int, n_states: int, n_actions: int) -> FloatArray:
    """Uniform initial policy: all logits zero."""
    return np.zeros((n_seeds, n_states, n_actions), dtype=np.float64)


def gather_states(table: FloatArray, obs: IntArray) -> FloatArray:
    """``table[seed, obs[seed, i]]``: ``(n_seeds, n_states, ...)`` -> ``(n_seeds, n, ...)``."""
    seeds = np.arange(table.shape[0])[:, None]
    return np.asarray(table[seeds, obs], dtype=np.float64)


def gather_actions(log_probs: FloatArray, obs: IntArray, action: IntArray) -> FloatArray:
    """``log_probs[seed, obs, action]`` per sample -> ``(n_seeds, n)``."""
    seeds = np.arange(log_probs.shape[0])[:, None]
    return np.asarray(log_probs[seeds, obs, action], dtype=np.float64)


def sample_actions(probs_at_obs: FloatArray, uniforms: FloatArray) -> IntArray:
    """Inverse-CDF sampling: the first action whose cumulative probability exceeds ``u``.

    ``probs_at_obs`` has shape ``(..., n_actions)``, ``uniforms`` shape ``(...)`` in [0, 1).
    """
    cdf = np.cumsum(probs_at_obs, axis=-1)
    action = (cdf < uniforms[..., None]).sum(axis=-1)
    return np.asarray(np.minimum(action, probs_at_obs.shape[-1] - 1), dtype=np.int64)


def state_counts(obs: IntArray, n_states: int) -> FloatArray:
    """How many samples of each seed visit each state -> ``(n_seeds, n_states)``."""
    n_seeds = obs.shape[0]
    flat = (np.arange(n_seeds)[:, None] * n_states + obs).ravel()
    return (
        np.bincount(flat, minlength=n_seeds * n_states)
        .reshape(n_seeds, n_states)
        .astype(np.float64)
    )


def logits_grad(
    probs: FloatArray, obs: IntArray, action: IntArray, dobj_dlogp: FloatArray
) -> FloatArray:
    """∂/∂z of the per-seed mean objective, from per-sample ``∂o_i/∂log π(a_i|s_i)``.

    ``probs`` is ``π`` at the current logits, shape ``(n_seeds, n_states, n_actions)``;
    ``obs``, ``action`` and ``dobj_dlogp`` have shape ``(n_seeds, n)``. Returns an array
    shaped like ``probs``: ``1/n Σ_{i: s_i=s} g_i (onehot(a_i) − π(·|s))``.
    """
    n_seeds, n_states, n_actions = probs.shape
    n = obs.shape[1]
    seed_offset = np.arange(n_seeds)[:, None] * n_states
    flat_s = (seed_offset + obs).ravel()
    flat_sa = flat_s * n_actions + action.ravel()
    g = dobj_dlogp.ravel()
    g_sa = np.bincount(flat_sa, weights=g, minlength=n_seeds * n_states * n_actions)
    g_s = np.bincount(flat_s, weights=g, minlength=n_seeds * n_states)
    grad = g_sa.reshape(probs.shape) - g_s.reshape(n_seeds, n_states, 1) * probs
    return np.asarray(grad / n, dtype=np.float64)
