"""The private input checks every core function runs: equal to numpy's own tests."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import array_shapes, arrays

from rlkl.core._arrays import _SMALL, anywhere, has_nan

ENTRIES = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([np.nan, np.inf, -np.inf, 0.0, -0.0, 1e308]),
)


@given(arrays(np.float64, array_shapes(min_dims=0, max_dims=3, max_side=6), elements=ENTRIES))
def test_has_nan_is_numpys_isnan_any_on_small_arrays(arr: np.ndarray) -> None:
    assert has_nan(arr) is bool(np.isnan(arr).any())


@given(st.integers(0, 3 * _SMALL), st.integers(0, 3 * _SMALL), st.sampled_from(
    [np.nan, np.inf, -np.inf, 1.0]), st.sampled_from([np.nan, np.inf, -np.inf, 1.0]))
def test_has_nan_is_numpys_isnan_any_on_either_side_of_the_small_size(
    size: int, at: int, first: float, second: float
) -> None:
    arr = np.zeros(size)
    if size:
        arr[at % size] = first
        arr[(at * 7 + 1) % size] = second
    assert has_nan(arr) is bool(np.isnan(arr).any())
    assert has_nan(arr.reshape(1, -1)) is bool(np.isnan(arr).any())


@given(arrays(np.bool_, array_shapes(min_dims=0, max_dims=2, min_side=0, max_side=2 * _SMALL)))
def test_anywhere_is_numpys_any(mask: np.ndarray) -> None:
    assert anywhere(mask) is bool(mask.any())
    if mask.ndim == 0:
        assert anywhere(mask[()]) is bool(mask.any())  # a numpy bool scalar, as 0-d compares give
