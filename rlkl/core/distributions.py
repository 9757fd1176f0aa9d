"""Categorical distributions: softmax, log-softmax, entropy and the exact KL divergence.

All functions work in float64 over the **last axis** (or ``axis`` where offered) and
broadcast over leading batch axes. A 0-d result is returned as ``numpy.float64`` (a subclass
of Python ``float``); anything else as a float64 ``numpy.ndarray``.

Conventions pinned here (see ``DESIGN.md``, "Conventions worth pinning"):

* ``0 · log 0 = 0`` in entropy and KL.
* ``KL(p‖q) = Σ_i p_i log(p_i / q_i)`` in nats by default; ``+inf`` when some
  ``q_i = 0 < p_i``. KL is not symmetric: ``KL([0.7, 0.3]‖[0.5, 0.5]) = 0.082283`` but
  ``KL([0.5, 0.5]‖[0.7, 0.3]) = 0.087177`` (nats, 6 decimals).
* A probability vector must be finite, non-negative and sum to 1 within an absolute
  tolerance of ``1e-9`` (:data:`PROB_SUM_ATOL`); otherwise ``ValueError`` naming the
  argument.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import overload

import numpy as np
from numpy.typing import ArrayLike

from rlkl.core._arrays import (
    PROB_SUM_ATOL,
    FloatArray,
    FloatOrArray,
    anywhere,
    as_float,
    log_base,
    out,
    probabilities,
)

__all__ = ["PROB_SUM_ATOL", "entropy", "kl_divergence", "log_softmax", "softmax"]


def _logits(logits: ArrayLike) -> FloatArray:
    z = as_float(logits, "logits")
    if z.ndim == 0:
        raise ValueError("logits must have at least one axis (the categories)")
    if anywhere(np.isnan(z)):
        raise ValueError("logits contains NaN")
    if anywhere(np.isposinf(z)):
        raise ValueError("logits contains +inf")
    return z


def log_softmax(logits: ArrayLike, axis: int = -1) -> FloatArray:
    r"""Log-probabilities of the softmax distribution, stable for huge logits.

    Equation::

        log_softmax(z)_i = z_i − m − log Σ_j exp(z_j − m),   m = max_j z_j

    Subtracting the maximum makes every exponent ≤ 0, so logits like ``1e300`` neither
    overflow nor lose the distribution. ``-inf`` logits are allowed (probability exactly 0,
    log-probability ``-inf``) as long as one entry along ``axis`` is finite; NaN or ``+inf``
    raise ``ValueError``.

    Source: the log-sum-exp identity; e.g. Goodfellow, Bengio & Courville, *Deep Learning*
    §4.1 (https://www.deeplearningbook.org/contents/numerical.html).

    Args:
        logits: array ``[..., K, ...]``; categories along ``axis``.
        axis: the category axis (default last).

    Returns:
        float64 array of the same shape (always an array, never a scalar).
    """
    z = _logits(logits)
    m = np.max(z, axis=axis, keepdims=True)
    if anywhere(np.isneginf(m)):
        raise ValueError("logits has a category axis where every entry is -inf")
    shifted = z - m
    lse = np.log(np.sum(np.exp(shifted), axis=axis, keepdims=True))
    result: FloatArray = shifted - lse
    return result


def softmax(logits: ArrayLike, axis: int = -1) -> FloatArray:
    r"""Softmax probabilities, stable for huge logits.

    Equation::

        softmax(z)_i = exp(z_i − m) / Σ_j exp(z_j − m),   m = max_j z_j

    Shifting by the maximum leaves the result unchanged mathematically and keeps every
    exponent ≤ 0, so the output sums to 1 (to rounding) even for logits like ``±1e300``.
    ``-inf`` logits give probability exactly 0.

    Source: as :func:`log_softmax`
    (https://www.deeplearningbook.org/contents/numerical.html).

    Args:
        logits: array ``[..., K, ...]``; categories along ``axis``.
        axis: the category axis (default last).

    Returns:
        float64 array of the same shape, non-negative, summing to 1 along ``axis``.
    """
    z = _logits(logits)
    m = np.max(z, axis=axis, keepdims=True)
    if anywhere(np.isneginf(m)):
        raise ValueError("logits has a category axis where every entry is -inf")
    e = np.exp(z - m)
    result: FloatArray = e / np.sum(e, axis=axis, keepdims=True)
    return result


@overload
def entropy(p: Sequence[float], *, base: float = ...) -> np.float64: ...
@overload
def entropy(p: ArrayLike, *, base: float = ...) -> FloatOrArray: ...


def entropy(p: ArrayLike, *, base: float = math.e) -> FloatOrArray:
    r"""Shannon entropy of categorical distributions over the last axis.

    Equation::

        H(p) = − Σ_i p_i log_b p_i,   with 0 · log 0 = 0

    Source: Shannon, "A Mathematical Theory of Communication" (1948),
    https://doi.org/10.1002/j.1538-7305.1948.tb01338.x ; Cover & Thomas, *Elements of
    Information Theory*, eq. 2.1.

    Args:
        p: probabilities ``[..., K]``; validated (finite, ≥ 0, sums to 1 within
            :data:`PROB_SUM_ATOL`), ``ValueError`` naming ``"p"`` otherwise.
        base: logarithm base; ``math.e`` (default) gives nats, ``2`` gives bits.

    Returns:
        ``[...]``: a ``numpy.float64`` for a single vector, else a float64 array.
    """
    pa = probabilities(p, "p")
    lb = log_base(base)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(pa > 0, pa * np.log(np.where(pa > 0, pa, 1.0)), 0.0)
    h = -np.sum(terms, axis=-1) / lb
    # Rounding can give -0.0 or -1e-17 for a point mass; entropy is >= 0 exactly.
    return out(np.maximum(h, 0.0))


@overload
def kl_divergence(p: Sequence[float], q: Sequence[float], *, base: float = ...) -> np.float64: ...
@overload
def kl_divergence(p: ArrayLike, q: ArrayLike, *, base: float = ...) -> FloatOrArray: ...


def kl_divergence(p: ArrayLike, q: ArrayLike, *, base: float = math.e) -> FloatOrArray:
    r"""Exact categorical KL divergence KL(p‖q) over the last axis.

    Equation::

        KL(p‖q) = Σ_i p_i log_b(p_i / q_i)

    with the conventions ``0 · log(0 / q) = 0`` (also for ``q = 0``) and
    ``p · log(p / 0) = +inf`` for ``p > 0``: the result is ``inf`` (no warning, never NaN)
    when some ``q_i = 0 < p_i``. KL is asymmetric and ≥ 0, with equality iff ``p = q``.

    Worked numbers (nats, 6 decimals)::

        KL([0.7, 0.3] ‖ [0.5, 0.5]) = 0.7 ln 1.4 + 0.3 ln 0.6 = 0.082283
        KL([0.5, 0.5] ‖ [0.7, 0.3]) = 0.5 ln(5/7) + 0.5 ln(5/3) = 0.087177

    Source: Kullback & Leibler, "On Information and Sufficiency" (1951),
    https://doi.org/10.1214/aoms/1177729694 ; Cover & Thomas, eq. 2.26. The elementwise term
    matches ``scipy.special.rel_entr``
    (https://docs.scipy.org/doc/scipy/reference/generated/scipy.special.rel_entr.html).

    Args:
        p: probabilities ``[..., K]``.
        q: probabilities ``[..., K]``; broadcast against ``p``.
        base: logarithm base; ``math.e`` (default) gives nats, ``2`` gives bits.

    Raises:
        ValueError: message starting with ``"p"`` or ``"q"`` for NaN, infinite or negative
            entries, or a vector whose sum differs from 1 by more than ``1e-9``
            (:data:`PROB_SUM_ATOL`); or for an invalid ``base``.

    Returns:
        ``[...]`` (broadcast batch shape): ``numpy.float64`` for single vectors, else a
        float64 array.
    """
    pa = probabilities(p, "p")
    qa = probabilities(q, "q")
    if pa.shape[-1] != qa.shape[-1]:
        raise ValueError(
            f"p and q must have the same number of categories, got {pa.shape[-1]} and "
            f"{qa.shape[-1]}"
        )
    lb = log_base(base)
    pa, qa = np.broadcast_arrays(pa, qa)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore", under="ignore"):
        safe_q = np.where(qa > 0, qa, 1.0)
        safe_p = np.where(pa > 0, pa, 1.0)
        # log(p/q) as scipy.special.rel_entr does (one rounding: the seed value is correctly
        # rounded); log p − log q where p/q overflows or loses precision (subnormal q or p).
        ratio = safe_p / safe_q
        ratio_ok = np.isfinite(ratio) & (ratio >= np.finfo(np.float64).tiny)
        log_ratio = np.where(
            ratio_ok,
            np.log(np.where(ratio_ok, ratio, 1.0)),
            np.log(safe_p) - np.log(safe_q),
        )
        terms = np.where(pa > 0, np.where(qa > 0, pa * log_ratio, np.inf), 0.0)
    kl = np.sum(terms, axis=-1) / lb
    # KL >= 0 exactly (Gibbs' inequality); rounding may give -1e-17 when p is close to q.
    return out(np.maximum(kl, 0.0))
