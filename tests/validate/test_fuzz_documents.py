"""Structurally mutated lessons always yield diagnostics, never an exception."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from rlkl.conformance import check_document
from rlkl.loader import parse_json
from rlkl.models import Lesson

from .helpers import seed

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.floats(allow_nan=False,
                                                               allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                max_size=3),
    max_leaves=6,
)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, (*prefix, index))
    return found


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_mutated_lesson_is_checked_without_exception(data: st.DataObject) -> None:
    lesson = seed()
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(_paths(lesson)[1:]))
        parent = lesson
        for step in path[:-1]:
            parent = parent[step]
        if data.draw(st.booleans()) and isinstance(parent, dict):
            del parent[path[-1]]
        else:
            parent[path[-1]] = data.draw(JSON_VALUES)
    raw = json.dumps(lesson, indent=1).encode()
    document = parse_json(raw, Path("x.json"))
    model, diagnostics = check_document(document, Lesson, "lesson")
    assert (model is None) == bool(diagnostics)
    for diagnostic in diagnostics:
        assert diagnostic.line >= 1 and diagnostic.column >= 1
        assert diagnostic.message
