"""Direct Preference Optimization: the implicit reward β·log(π/π_ref) and the DPO loss.

Derivation (Rafailov et al. 2023, §4): the maximiser of E_π[r] − β·KL(π‖π_ref) is
π*(y) = π_ref(y)·exp(r(y)/β)/Z (:func:`rlkl.core.kl_regularized_policy`), so
β·log(π*(y)/π_ref(y)) = r(y) − β·log Z. The partition function Z does not depend on y and
cancels in a difference between two completions of the same prompt, which is all the
Bradley–Terry preference model sees: P(y_w ≻ y_l) = σ(r(y_w) − r(y_l)). Substituting the
implicit reward for r gives a loss on the policy alone.

Source: Rafailov, Sharma, Mitchell, Ermon, Manning & Finn, "Direct Preference Optimization:
Your Language Model is Secretly a Reward Model" (2023), https://arxiv.org/abs/2305.18290
(eqs. 4–7).
"""

from __future__ import annotations

from typing import overload

import numpy as np
from numpy.typing import ArrayLike

from rlkl.core._arrays import FloatOrArray, anywhere, finite, out

__all__ = ["dpo_implicit_reward", "dpo_loss"]


def _beta(beta: float) -> float:
    b = float(beta)
    if not (np.isfinite(b) and b > 0):
        raise ValueError(f"beta must be a finite number > 0, got {beta!r}")
    return b


def _logp(x: ArrayLike, name: str) -> FloatOrArray:
    arr = finite(x, name)
    if anywhere(arr > 0):
        raise ValueError(f"{name} is a log-probability and must be <= 0")
    return arr


@overload
def dpo_implicit_reward(logp: float, ref_logp: float, *, beta: float) -> np.float64: ...
@overload
def dpo_implicit_reward(logp: ArrayLike, ref_logp: ArrayLike, *, beta: float) -> FloatOrArray: ...


def dpo_implicit_reward(logp: ArrayLike, ref_logp: ArrayLike, *, beta: float) -> FloatOrArray:
    r"""DPO's implicit reward of a completion: β·(log π(y) − log π_ref(y)).

    Equation (Rafailov et al. 2023, eq. 5)::

        r̂(y) = β · log(π(y) / π_ref(y))

    At the KL-regularised optimum π = π* this equals r(y) − β·log Z: the true reward up to a
    constant per prompt. −inf where π(y) = 0 < π_ref(y); NaN where both are 0.

    Source: https://arxiv.org/abs/2305.18290 (§4, §5.1).

    Args:
        logp: log π(y) ≤ 0 (nats), any shape.
        ref_logp: log π_ref(y) ≤ 0, broadcast with ``logp``.
        beta: β > 0, the KL weight.

    Returns:
        broadcast shape; ``numpy.float64`` for scalar inputs.
    """
    b = _beta(beta)
    lp, lr = _logp(logp, "logp"), _logp(ref_logp, "ref_logp")
    with np.errstate(invalid="ignore"):
        return out(b * (lp - lr))


@overload
def dpo_loss(
    logp_chosen: float,
    logp_rejected: float,
    ref_logp_chosen: float,
    ref_logp_rejected: float,
    *,
    beta: float,
) -> np.float64: ...
@overload
def dpo_loss(
    logp_chosen: ArrayLike,
    logp_rejected: ArrayLike,
    ref_logp_chosen: ArrayLike,
    ref_logp_rejected: ArrayLike,
    *,
    beta: float,
) -> FloatOrArray: ...


def dpo_loss(
    logp_chosen: ArrayLike,
    logp_rejected: ArrayLike,
    ref_logp_chosen: ArrayLike,
    ref_logp_rejected: ArrayLike,
    *,
    beta: float,
) -> FloatOrArray:
    r"""The DPO loss of preference pairs (chosen y_w, rejected y_l), per pair, in nats.

    Equation (Rafailov et al. 2023, eq. 7)::

        m = β·log(π(y_w)/π_ref(y_w)) − β·log(π(y_l)/π_ref(y_l))   (implicit reward margin)
        L = −log σ(m) = log(1 + exp(−m))

    computed as ``logaddexp(0, −m)`` (no overflow for large |m|). The mean over pairs is the
    loss a trainer minimises; at π = π_ref the margin is 0 and L = log 2. ∂L/∂m = −σ(−m).

    Source: https://arxiv.org/abs/2305.18290 (eq. 7); TRL ``DPOTrainer``'s default
    ``loss_type="sigmoid"`` with no label smoothing is the same expression.

    Args:
        logp_chosen, logp_rejected: log π of each completion (summed over its tokens), ≤ 0.
        ref_logp_chosen, ref_logp_rejected: the same under π_ref, ≤ 0.
        beta: β > 0.
        (All four broadcast.)

    Returns:
        the loss per pair, broadcast shape; ``numpy.float64`` for scalar inputs.
    """
    b = _beta(beta)
    chosen = _logp(logp_chosen, "logp_chosen")
    ref_chosen = _logp(ref_logp_chosen, "ref_logp_chosen")
    rejected = _logp(logp_rejected, "logp_rejected")
    ref_rejected = _logp(ref_logp_rejected, "ref_logp_rejected")
    with np.errstate(invalid="ignore"):
        margin = b * ((chosen - ref_chosen) - (rejected - ref_rejected))
    if anywhere(np.isnan(margin)):
        raise ValueError("the reward margin is undefined (a log-probability is -inf on both sides)")
    return out(np.logaddexp(0.0, -margin))
