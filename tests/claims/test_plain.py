"""What a verdict records of a computed value: JSON-ready, whatever the value's type."""

from __future__ import annotations

import json

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import array_shapes, arrays

from rlkl.claims.evaluation.judge import plain

FLOATS = st.one_of(st.floats(), st.sampled_from([np.inf, -np.inf, np.nan, -0.0, 5e-324]))


def _element_by_element(value: np.ndarray) -> object:
    """The definition: each entry as a float, 'inf'/'nan' written out, lists kept nested."""
    if value.ndim == 0:
        number = float(value)
        return number if np.isfinite(number) else repr(number)
    return [_element_by_element(v) for v in value]


@given(arrays(np.float64, array_shapes(min_dims=0, max_dims=3, max_side=5), elements=FLOATS))
def test_a_float_array_is_recorded_entry_by_entry(value: np.ndarray) -> None:
    recorded = plain(value)
    assert json.dumps(recorded) == json.dumps(_element_by_element(value))
    if value.ndim == 1:  # Python floats, as json and pickle take them, not numpy scalars
        assert all(type(x) is float for x in recorded if not isinstance(x, str))


def test_other_values_are_recorded_as_json() -> None:
    assert plain(np.bool_(True)) is True and plain(2) == 2.0 and plain("k3") == "k3"
    assert plain(np.array([1, 2])) == [1.0, 2.0] and plain(float("inf")) == "inf"
    assert plain(np.array([True, False])) == [True, False]
