"""PPO's critic: the squared-error value loss and value clipping, in the two forms in use.

The critic V(s) is regressed onto return targets R, usually the λ-returns of GAE
(:func:`rlkl.core.gae` returns them beside the advantages: R = Â + V_old). PPO
implementations may also clip the new value prediction to within ε of the value the rollout
stored, V_clip = V_old + clip(V − V_old, −ε, ε), and then differ in what they do with it:

* ``"max"``: the larger of the clipped and unclipped squared errors, a pessimistic bound
  like the policy's clipped objective (OpenAI baselines' ppo2, CleanRL's ``clip_vloss``);
* ``"clipped"``: the clipped prediction's squared error alone (Stable-Baselines3 with
  ``clip_range_vf``).

Both then take a mean over the batch; CleanRL multiplies it by ½, SB3 does not (its
``vf_coef`` multiplies the mean squared error). Engstrom et al. found value clipping does
not help and can hurt.

Source: Schulman et al., "Proximal Policy Optimization Algorithms" (2017),
https://arxiv.org/abs/1707.06347 (eq. 9, the value term); Engstrom et al., "Implementation
Matters in Deep Policy Gradients" (2020), https://arxiv.org/abs/2005.12729 (§3, value
clipping); CleanRL ``ppo.py`` (https://github.com/vwxyzjn/cleanrl); Stable-Baselines3
``PPO.train`` (https://github.com/DLR-RM/stable-baselines3).
"""

from __future__ import annotations

from typing import Literal, cast

import numpy as np
from numpy.typing import ArrayLike

from rlkl.core._arrays import FloatOrArray, anywhere, finite, out

__all__ = ["ValueClipDefinition", "ppo_value_loss"]

ValueClipDefinition = Literal["max", "clipped"]
"""What a clipped value loss keeps: the larger of both errors (CleanRL) or the clipped one (SB3)."""


def ppo_value_loss(
    values: ArrayLike,
    returns: ArrayLike,
    old_values: ArrayLike | None = None,
    *,
    clip_range: float | None = None,
    definition: ValueClipDefinition = "max",
) -> FloatOrArray:
    r"""The per-sample squared error of PPO's value function, unclipped or clipped.

    Equation (Schulman et al. 2017, eq. 9; Engstrom et al. 2020, §3)::

        unclipped:  (V − R)²
        V_clip   = V_old + clip(V − V_old, −ε, ε)
        "max":      max((V − R)², (V_clip − R)²)        (baselines ppo2, CleanRL)
        "clipped":  (V_clip − R)²                        (Stable-Baselines3)

    A trainer's value loss is a mean of these (times ½ in CleanRL). Under ``"max"`` the
    gradient in V is zero exactly when V has moved more than ε from V_old and the clipped
    error is the larger one: the critic then stops moving toward R, however far it is.
    Under ``"clipped"`` it is zero whenever V has moved more than ε.

    Source: https://arxiv.org/abs/1707.06347 (eq. 9); https://arxiv.org/abs/2005.12729;
    CleanRL ``ppo.py`` (``v_loss_max = torch.max(v_loss_unclipped, v_loss_clipped)``);
    SB3 ``ppo.py`` (``values_pred = old_values + th.clamp(values - old_values, ...)``).

    Args:
        values: V, the critic's new predictions, any shape.
        returns: R, the targets (λ-returns), broadcast with ``values``.
        old_values: V_old, the predictions stored with the rollout; needed with
            ``clip_range``.
        clip_range: ε ≥ 0, or None for the unclipped error.
        definition: ``"max"`` or ``"clipped"`` (used only with ``clip_range``).

    Returns:
        the squared error per sample, broadcast shape; ``numpy.float64`` for scalars.
    """
    v, r = finite(values, "values"), finite(returns, "returns")
    if anywhere(np.isinf(v)) or anywhere(np.isinf(r)):
        raise ValueError("values and returns must be finite")
    unclipped = (v - r) ** 2
    if clip_range is None:
        return out(unclipped)
    if definition not in ("max", "clipped"):
        raise ValueError(f"definition must be 'max' or 'clipped', got {definition!r}")
    eps = float(clip_range)
    if not (np.isfinite(eps) and eps >= 0):
        raise ValueError(f"clip_range must be a finite number >= 0, got {clip_range!r}")
    if old_values is None:
        raise ValueError("value clipping needs old_values (the predictions of the rollout)")
    old = finite(old_values, "old_values")
    if anywhere(np.isinf(old)):
        raise ValueError("old_values must be finite")
    clipped = (old + np.clip(v - old, -eps, eps) - r) ** 2
    if cast(str, definition) == "clipped":
        return out(np.broadcast_to(clipped, np.broadcast(v, r, old).shape))
    return out(np.maximum(unclipped, clipped))
