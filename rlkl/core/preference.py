"""Preference labels and the Bradley–Terry reward model: P(a ≻ b) = σ(r_a − r_b).

A reward model r is trained on pairs (chosen, rejected) labelled by people. Bradley and
Terry's model of paired comparisons makes the probability that a is preferred to b a
logistic function of the reward difference, and the reward model minimises the negative
log-likelihood of the labels, −log σ(r_chosen − r_rejected), averaged over pairs. Only
differences enter: adding a constant to every reward changes nothing, scaling them changes
every probability.

Source: Bradley & Terry, "Rank Analysis of Incomplete Block Designs: I. The Method of Paired
Comparisons" (1952), https://doi.org/10.2307/2334029; Ouyang et al., "Training language
models to follow instructions with human feedback" (2022), https://arxiv.org/abs/2203.02155
(eq. 1, the reward model's loss); TRL's ``RewardTrainer`` computes
``-nn.functional.logsigmoid(rewards_chosen - rewards_rejected).mean()``.
"""

from __future__ import annotations

from typing import overload

import numpy as np
from numpy.typing import ArrayLike

from rlkl.core._arrays import FloatArray, FloatOrArray, anywhere, finite, out

__all__ = ["bradley_terry_grad", "bradley_terry_loss", "bradley_terry_prob"]


def _margin(reward_a: ArrayLike, reward_b: ArrayLike) -> FloatArray:
    a, b = finite(reward_a, "reward_a"), finite(reward_b, "reward_b")
    if anywhere(np.isinf(a)) or anywhere(np.isinf(b)):
        raise ValueError("rewards must be finite")
    return np.asarray(a - b, dtype=np.float64)


@overload
def bradley_terry_prob(reward_a: float, reward_b: float) -> np.float64: ...
@overload
def bradley_terry_prob(reward_a: ArrayLike, reward_b: ArrayLike) -> FloatOrArray: ...


def bradley_terry_prob(reward_a: ArrayLike, reward_b: ArrayLike) -> FloatOrArray:
    r"""The Bradley–Terry probability that a is preferred to b: σ(r_a − r_b).

    Equation (Bradley & Terry 1952; Ouyang et al. 2022, eq. 1)::

        P(a ≻ b) = exp(r_a) / (exp(r_a) + exp(r_b)) = σ(r_a − r_b) = 1 / (1 + exp(−(r_a − r_b)))

    computed as ``exp(−logaddexp(0, −(r_a − r_b)))`` (no overflow). P(a ≻ b) + P(b ≻ a) = 1,
    and equal rewards give ½.

    Source: https://doi.org/10.2307/2334029; https://arxiv.org/abs/2203.02155 (eq. 1).

    Args:
        reward_a, reward_b: the rewards (finite), broadcast together.

    Returns:
        the probability, broadcast shape; ``numpy.float64`` for scalar inputs.
    """
    return out(np.exp(-np.logaddexp(0.0, -_margin(reward_a, reward_b))))


@overload
def bradley_terry_loss(reward_chosen: float, reward_rejected: float) -> np.float64: ...
@overload
def bradley_terry_loss(reward_chosen: ArrayLike, reward_rejected: ArrayLike) -> FloatOrArray: ...


def bradley_terry_loss(reward_chosen: ArrayLike, reward_rejected: ArrayLike) -> FloatOrArray:
    r"""The reward model's loss on one labelled pair: −log σ(r_chosen − r_rejected), in nats.

    Equation (Ouyang et al. 2022, eq. 1, for one pair)::

        L = −log σ(r_w − r_l) = log(1 + exp(−(r_w − r_l)))

    computed as ``logaddexp(0, −(r_w − r_l))``. L = log 2 at a zero margin; it falls toward 0
    as the chosen reward pulls ahead and grows about linearly when the model ranks the pair
    the wrong way. A trainer minimises the mean over pairs.

    Source: https://arxiv.org/abs/2203.02155 (eq. 1); TRL ``RewardTrainer``
    (``-logsigmoid(rewards_chosen - rewards_rejected)``).

    Args:
        reward_chosen: r_w, the reward of the preferred completion.
        reward_rejected: r_l, the reward of the other one (broadcast with ``reward_chosen``).

    Returns:
        the loss per pair, broadcast shape; ``numpy.float64`` for scalar inputs.
    """
    return out(np.logaddexp(0.0, -_margin(reward_chosen, reward_rejected)))


@overload
def bradley_terry_grad(reward_chosen: float, reward_rejected: float) -> np.float64: ...
@overload
def bradley_terry_grad(reward_chosen: ArrayLike, reward_rejected: ArrayLike) -> FloatOrArray: ...


def bradley_terry_grad(reward_chosen: ArrayLike, reward_rejected: ArrayLike) -> FloatOrArray:
    r"""∂L/∂r_chosen of the pairwise loss: −σ(r_rejected − r_chosen) = −(1 − P(chosen ≻ rejected)).

    Equation (differentiating :func:`bradley_terry_loss`)::

        ∂L/∂r_w = −σ(−(r_w − r_l)) = P(w ≻ l) − 1,      ∂L/∂r_l = −∂L/∂r_w

    Gradient descent raises the chosen reward and lowers the rejected one by the same
    amount, and by less the more confident the model already is: a pair it ranks right
    with P = 0.9 pulls with 0.1, one it ranks wrong with P = 0.1 pulls with 0.9.

    Source: https://arxiv.org/abs/2203.02155 (eq. 1).

    Args:
        reward_chosen, reward_rejected: as for :func:`bradley_terry_loss`.

    Returns:
        ∂L/∂r_chosen (≤ 0), broadcast shape; ``numpy.float64`` for scalar inputs.
    """
    return out(-np.exp(-np.logaddexp(0.0, _margin(reward_chosen, reward_rejected))))
