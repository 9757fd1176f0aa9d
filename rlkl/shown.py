"""How rlkl writes a computed value for people, defined once; each consumer names its
precision.

A number is written at a number of significant digits (``format(x, ".10g")``: 0.1 + 0.2 is
``0.3`` at 10, ``inf`` and ``nan`` as such), or, with ``significant=None``, as its shortest
round-trip text the way JavaScript writes a number (``2`` for 2.0, ``0`` for −0.0), so a
page's script and the page agree. A flag is ``true`` or ``false``, a list, tuple or array is
written element by element, and anything else as ``str`` gives it. This module imports
nothing of rlkl, so the claim engine and the site both use it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

MESSAGE = 10
"""Significant digits of a value in a diagnostic (claims, expressions with their inputs)."""
EQUATION = 6
"""Significant digits of an equation's value at a grid point (a disagreement's message)."""
PAGE = 12
"""Significant digits of a value in a published page's record of a number."""


def number(value: float, significant: int | None = MESSAGE) -> str:
    """``value`` at ``significant`` digits, or its shortest round-trip text (None)."""
    value = float(value)
    if significant is not None:
        return f"{value:.{significant}g}"
    if value == 0:
        return "0"
    if value.is_integer() and abs(value) < 1e21:  # JavaScript's range of plain integers
        return str(int(value))
    return repr(value)


def shown(value: Any, significant: int | None = MESSAGE) -> str:
    """Any value as people read it (see the module docstring)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if hasattr(value, "tolist"):  # a numpy array or scalar
        value = value.tolist()
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(shown(v, significant) for v in value) + "]"
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return number(value, significant)
    return str(value)


def inputs(values: Mapping[str, Any], significant: int | None = MESSAGE) -> str:
    """``name = value, ...``: the inputs a value was computed from."""
    return ", ".join(f"{name} = {shown(value, significant)}" for name, value in values.items())
