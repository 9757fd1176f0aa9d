"""Hypothesis strategies shared by the core tests."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

FLOATS = st.floats(min_value=-1e3, max_value=1e3, allow_nan=False, allow_infinity=False)


@st.composite
def prob_vectors(
    draw: st.DrawFn, k: int | None = None, *, min_k: int = 1, max_k: int = 6, positive: bool = False
) -> np.ndarray:
    """A probability vector (float64, sums to 1 within 1e-15), optionally strictly positive."""
    n = k if k is not None else draw(st.integers(min_k, max_k))
    lo = 1e-3 if positive else 0.0
    w: np.ndarray = draw(arrays(np.float64, n, elements=st.floats(lo, 1.0)))
    if w.sum() == 0:
        w[0] = 1.0
    p: np.ndarray = w / w.sum()
    return p


@st.composite
def prob_pairs(draw: st.DrawFn, *, positive_q: bool = False) -> tuple[np.ndarray, np.ndarray]:
    k = draw(st.integers(1, 6))
    return draw(prob_vectors(k)), draw(prob_vectors(k, positive=positive_q))


def logit_vectors(k: int | None = None, *, scale: float = 10.0) -> st.SearchStrategy[np.ndarray]:
    n = st.just(k) if k is not None else st.integers(1, 6)
    return n.flatmap(lambda m: arrays(np.float64, m, elements=st.floats(-scale, scale)))


def counts(most: int) -> st.SearchStrategy[tuple[int, int, int]]:
    """(n, c, k) with 1 <= n <= most, 0 <= c <= n, 1 <= k <= n."""
    return st.integers(1, most).flatmap(
        lambda n: st.tuples(st.just(n), st.integers(0, n), st.integers(1, n))
    )
