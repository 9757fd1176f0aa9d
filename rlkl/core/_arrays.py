"""Private helpers shared by the :mod:`rlkl.core` modules: conversion, validation, output.

Output convention (pinned for the whole core): every function computes in float64 numpy.
When the result is 0-dimensional it is returned as a ``numpy.float64`` scalar, which is a
subclass of Python ``float`` (``isinstance(x, float)`` holds, ``float(x)`` is exact);
otherwise a ``numpy.ndarray`` of dtype float64 is returned. The type alias for that is
:data:`FloatOrArray`.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike, NDArray

FloatArray = NDArray[np.float64]
"""A float64 numpy array."""

FloatOrArray = np.float64 | NDArray[np.float64]
"""A ``numpy.float64`` scalar (for 0-d results) or a float64 array."""

PROB_SUM_ATOL = 1e-9
"""Absolute tolerance on ``|sum(p) - 1|`` accepted for a probability vector."""


def as_float(x: ArrayLike, name: str) -> FloatArray:
    """Convert ``x`` to a float64 array; ``ValueError`` naming ``name`` when impossible."""
    try:
        arr = np.asarray(x, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be numeric, got {x!r}") from exc
    return arr


_SMALL = 64
"""Arrays up to this size are tested for NaN entry by entry (:func:`has_nan`)."""


def has_nan(arr: FloatArray) -> bool:
    """Whether ``arr`` contains NaN, without allocating a mask in the common case.

    A sum is NaN iff some entry is NaN or +inf and -inf both occur; only then is the exact
    (allocating) test run. A 0-d array (a scalar input) is tested directly, and a small one
    (at most :data:`_SMALL` entries, as lessons have) entry by entry: numpy's reductions cost
    microseconds of call overhead whatever the size, ~20x a loop over three floats.
    """
    if arr.ndim == 0:
        return math.isnan(arr)
    if arr.size <= _SMALL:
        return any(map(math.isnan, arr.ravel().tolist()))
    with np.errstate(over="ignore", invalid="ignore"):
        total = np.sum(arr)
    if not np.isnan(total):
        return False
    return bool(np.isnan(arr).any())


def anywhere(mask: np.ndarray | np.bool_) -> bool:
    """``mask.any()``, read directly for a 0-d or small mask (the checks of lesson-sized
    inputs): numpy's reduction costs ~1 us of call overhead, the direct read ~0.1-0.2 us."""
    if mask.ndim == 0:
        return bool(mask)
    if mask.size <= _SMALL:
        return True in mask.ravel().tolist()
    return bool(mask.any())


def finite(x: ArrayLike, name: str) -> FloatArray:
    """Float64 array that must contain no NaN (infinities allowed)."""
    arr = as_float(x, name)
    if has_nan(arr):
        raise ValueError(f"{name} contains NaN")
    return arr


def out(x: ArrayLike) -> FloatOrArray:
    """Return a float64 array, or a ``numpy.float64`` scalar when the result is 0-d."""
    arr = np.asarray(x, dtype=np.float64)
    if arr.ndim == 0:
        scalar: np.float64 = np.float64(float(arr))
        return scalar
    return arr


def probabilities(x: ArrayLike, name: str, *, atol: float = PROB_SUM_ATOL) -> FloatArray:
    """Validate categorical distributions over the last axis.

    Raises ``ValueError`` whose message starts with ``name`` when ``x`` is 0-d or empty, has
    NaN, infinite or negative entries, or a vector whose sum differs from 1 by more than
    ``atol``.
    """
    arr = as_float(x, name)
    if arr.ndim == 0 or arr.shape[-1] == 0:
        raise ValueError(f"{name} must be a probability vector (at least one category)")
    if has_nan(arr):
        raise ValueError(f"{name} contains NaN")
    if anywhere(np.isinf(arr)):
        raise ValueError(f"{name} contains an infinite entry")
    if anywhere(arr < 0):
        raise ValueError(f"{name} has negative probability mass: {arr[arr < 0][0]!r}")
    sums = arr.sum(axis=-1)
    bad = np.abs(sums - 1.0) > atol
    if anywhere(bad):
        raise ValueError(
            f"{name} does not sum to 1 (sum {float(np.asarray(sums)[bad].flat[0])!r}, "
            f"tolerance {atol:g})"
        )
    return arr


def log_base(base: float) -> float:
    """Natural log of a logarithm base; ``ValueError`` unless base > 0 and base != 1."""
    b = float(base)
    if not (b > 0.0 and b != 1.0 and math.isfinite(b)):
        raise ValueError(f"base must be positive, finite and != 1, got {base!r}")
    return math.log(b)


def nonnegative_scalar(x: float, name: str) -> float:
    """A finite scalar >= 0."""
    v = float(x)
    if not (math.isfinite(v) and v >= 0.0):
        raise ValueError(f"{name} must be a finite number >= 0, got {x!r}")
    return v


def unit_interval_scalar(x: float, name: str) -> float:
    """A scalar in [0, 1]."""
    v = float(x)
    if not (0.0 <= v <= 1.0):
        raise ValueError(f"{name} must lie in [0, 1], got {x!r}")
    return v
