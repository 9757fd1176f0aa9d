"""The three arms of the matched-budget experiment and their policy-gradient rules.

Every arm maximises a per-sample surrogate of the rollout batch collected by ``π_old``
(ratio ``r = π_new(a|s) / π_old(a|s)`` from :func:`rlkl.core.ppo_ratio`):

* ``ppo_clip`` — ``min(r·A, clip(r, 1−ε, 1+ε)·A)`` (Schulman et al. 2017, eq. 7,
  https://arxiv.org/abs/1707.06347); ``∂/∂log π_new`` from :func:`rlkl.core.ppo_clip_grad`.
* ``no_clip`` — the same surrogate without clipping, ``r·A``; ``∂/∂log π_new = r·A``.
* ``kl_penalty`` — ``r·A − β·KL(π_old(·|s) ‖ π_new(·|s))`` (ibid., eq. 8) with the exact
  tabular KL of the visited state, and β adapted after each update by
  :func:`rlkl.core.adaptive_kl_beta` from the batch-mean exact KL, then capped at
  ``ExperimentConfig.beta_cap`` (default ``2 / lr``; the paper has no cap but uses Adam —
  with plain gradient ascent a larger ``lr · β`` makes the penalty's step overshoot π_old).

The arms differ *only* in this rule; rollouts, epochs, minibatches, evaluation and seeds
are shared code paths (see :mod:`rlkl.experiment.runner`).
"""

from __future__ import annotations

from typing import Literal

import numpy as np
from numpy.typing import NDArray

from rlkl import core

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]

ArmName = Literal["ppo_clip", "no_clip", "kl_penalty"]
ARMS: tuple[ArmName, ...] = ("ppo_clip", "no_clip", "kl_penalty")


def surrogate_dlogp(
    arm: ArmName, ratio: FloatArray, advantage: FloatArray, epsilon: float
) -> FloatArray:
    """Per-sample ``∂ surrogate / ∂ log π_new(a|s)`` (the KL term is handled separately)."""
    if arm == "ppo_clip":
        return np.asarray(core.ppo_clip_grad(ratio, advantage, epsilon), dtype=np.float64)
    if arm in ("no_clip", "kl_penalty"):
        # d(r·A)/d log π_new = r·A, since dr/d log π_new = r.
        return np.asarray(ratio * advantage, dtype=np.float64)
    raise ValueError(f"arm: unknown arm {arm!r} (choose from {', '.join(ARMS)})")


def kl_penalty_logits_grad(
    probs_new: FloatArray, probs_old: FloatArray, counts: FloatArray, n: int, beta: FloatArray
) -> FloatArray:
    """∂/∂z of ``−β · 1/n Σ_i KL(π_old(·|s_i) ‖ π_new(·|s_i))`` for tabular logits ``z``.

    ``∂ KL(p_old ‖ softmax(z)) / ∂z = softmax(z) − p_old``, so the gradient at state ``s``
    is ``−β · counts[s]/n · (π_new(·|s) − π_old(·|s))``. ``probs_*`` have shape
    ``(n_seeds, n_states, n_actions)``, ``counts`` ``(n_seeds, n_states)`` (visits in the
    minibatch) and ``beta`` ``(n_seeds,)``.
    """
    weight = beta[:, None, None] * counts[:, :, None] / n
    return np.asarray(-weight * (probs_new - probs_old), dtype=np.float64)
