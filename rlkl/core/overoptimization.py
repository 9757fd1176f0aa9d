"""Reward model overoptimization: the KL of best-of-n and Gao et al.'s gold-reward forms.

Optimising against a learned (proxy) reward model raises the proxy reward without end, while
the gold reward, the one the proxy was trained to imitate, first rises and then falls. Gao,
Schulman & Hilton fit the gold reward as a function of d = √KL(π‖π_init), the distance the
policy has moved, with one form for best-of-n sampling and one for RL:

* best-of-n: R(d) = d·(α − β·d), largest at d* = α / (2β);
* RL:        R(d) = d·(α − β·log d), largest at d* = exp(α/β − 1).

Source: Gao, Schulman & Hilton, "Scaling Laws for Reward Model Overoptimization" (2022),
https://arxiv.org/abs/2210.10760 (§2, eqs. 1–2 and the best-of-n KL); the best-of-n KL is
derived in Stiennon et al. (2020), https://arxiv.org/abs/2009.01325 (appendix G.3).
"""

from __future__ import annotations

from typing import overload

import numpy as np
from numpy.typing import ArrayLike

from rlkl.core._arrays import FloatArray, FloatOrArray, anywhere, finite, out

__all__ = ["best_of_n_kl", "gold_reward_bon", "gold_reward_rl"]


def best_of_n_kl(n: float) -> np.float64:
    r"""KL(π_bon ‖ π_init) of best-of-n sampling, in nats: log n − (n − 1)/n.

    Equation (Stiennon et al. 2020, app. G.3; Gao et al. 2022, §2)::

        KL_bon = log n − (n − 1) / n

    Exact when the reward has no ties (a continuous reward): the best of n draws has density
    n·F^{n−1} relative to π_init, whose expected log is log n − (n − 1)/n. With ties (a
    discrete reward) the true KL is smaller; this is then an upper bound. 0 at n = 1, and it
    grows like log n: best-of-n buys KL slowly.

    Source: https://arxiv.org/abs/2210.10760 (§2); https://arxiv.org/abs/2009.01325.

    Args:
        n: the number of samples, a whole number ≥ 1.

    Returns:
        the KL in nats, ``numpy.float64``.
    """
    v = float(n)
    if not (np.isfinite(v) and v == int(v) and v >= 1):
        raise ValueError(f"n must be a whole number >= 1, got {n!r}")
    kl: np.float64 = np.float64(np.log(v) - (v - 1.0) / v)
    return kl


def _distance(d: ArrayLike, alpha: float, beta: float) -> tuple[FloatArray, float, float]:
    dist = finite(d, "d")
    if anywhere(dist < 0) or anywhere(np.isinf(dist)):
        raise ValueError("d = sqrt(KL) must be finite and >= 0")
    a, b = float(alpha), float(beta)
    if not (np.isfinite(a) and np.isfinite(b)):
        raise ValueError("alpha and beta must be finite")
    return dist, a, b


@overload
def gold_reward_bon(d: float, *, alpha: float, beta: float) -> np.float64: ...
@overload
def gold_reward_bon(d: ArrayLike, *, alpha: float, beta: float) -> FloatOrArray: ...


def gold_reward_bon(d: ArrayLike, *, alpha: float, beta: float) -> FloatOrArray:
    r"""Gao et al.'s gold reward of best-of-n at distance d = √KL: d·(α − β·d).

    Equation (Gao et al. 2022, eq. 1), rewards measured from the initial policy's::

        R_bon(d) = d · (α_bon − β_bon · d)

    A parabola through 0 at d = 0: for β > 0 largest at d* = α/(2β), where it is α²/(4β),
    and back to 0 at d = α/β.

    Source: https://arxiv.org/abs/2210.10760 (§2, eq. 1).

    Args:
        d: √KL(π‖π_init) ≥ 0, any shape.
        alpha, beta: the fitted coefficients.

    Returns:
        the gold reward, shape of ``d``; ``numpy.float64`` for a scalar.
    """
    dist, a, b = _distance(d, alpha, beta)
    return out(dist * (a - b * dist))


@overload
def gold_reward_rl(d: float, *, alpha: float, beta: float) -> np.float64: ...
@overload
def gold_reward_rl(d: ArrayLike, *, alpha: float, beta: float) -> FloatOrArray: ...


def gold_reward_rl(d: ArrayLike, *, alpha: float, beta: float) -> FloatOrArray:
    r"""Gao et al.'s gold reward of RL at distance d = √KL: d·(α − β·log d).

    Equation (Gao et al. 2022, eq. 2)::

        R_RL(d) = d · (α_RL − β_RL · log d)          (R_RL(0) = 0, the limit)

    For β > 0: dR/dd = α − β·(log d + 1) vanishes at d* = exp(α/β − 1), where R = β·d*; the
    gold reward falls after it and crosses 0 at d = exp(α/β). The fall is slower than
    best-of-n's (log d against d).

    Source: https://arxiv.org/abs/2210.10760 (§2, eq. 2).

    Args:
        d: √KL(π‖π_init) ≥ 0, any shape.
        alpha, beta: the fitted coefficients.

    Returns:
        the gold reward, shape of ``d``; ``numpy.float64`` for a scalar.
    """
    dist, a, b = _distance(d, alpha, beta)
    with np.errstate(divide="ignore", invalid="ignore"):
        value = np.where(dist > 0, dist * (a - b * np.log(np.where(dist > 0, dist, 1.0))), 0.0)
    return out(value)
