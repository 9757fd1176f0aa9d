"""The ranges a page's controls move a lesson's inputs over (:mod:`rlkl.claims.explore`):
which inputs can move (:func:`stated`), the points of a range declared under ``explore:`` in
``claims.yaml`` (:func:`points`, checked by :func:`range_problems` when the lesson is
checked) or inferred from the authored value (:func:`inferred`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import Any

import numpy as np

from rlkl.claims.evaluation import expr
from rlkl.claims.records import ASKED, PlotSpec, Problem, Range

__all__ = ["MAX_POINTS", "inferred", "moved_by", "places", "plot_problems", "points",
           "range_problems", "stated"]

MAX_POINTS = 41
"""The most points one input's range may have (a declared range is refused beyond it)."""

_REACH = 4  # an inferred range: the authored value and up to this many steps on each side
_STEPS = (Decimal(5), Decimal(2), Decimal(1))  # nice steps, times a power of ten


def points(low: Decimal, high: Decimal, step: Decimal) -> tuple[Decimal, ...]:
    """``low``, ``low + step``, … up to ``high`` (exact decimals)."""
    count = int((high - low) / step) + 1
    return tuple(low + k * step for k in range(count))


def places(value: Decimal) -> int:
    return max(-value.normalize().as_tuple().exponent, 0)  # type: ignore[operator]


def inferred(value: Decimal, decimals: int) -> tuple[Decimal, ...]:
    """A range around an authored input: a nice step (1, 2 or 5 times a power of ten, at
    most a quarter of the value; a divisor of it when one is not too small; whole numbers
    for a whole number written without decimals), ``_REACH`` steps each side, on the value's
    own side of zero; a value between 0 and 1 (a probability, a coefficient) stays between
    them. Zero steps up from 0 by one unit of its written precision."""
    if value == 0:
        step = Decimal(1).scaleb(-max(decimals, 1))
        return points(Decimal(0), step * 2 * _REACH, step)
    size = abs(value)
    candidates = [s.scaleb(e) for e in range(size.adjusted(), size.adjusted() - 12, -1)
                  for s in _STEPS]
    fitting = [s for s in candidates if s <= size / 4]
    dividing = [s for s in fitting if (value / s) % 1 == 0 and s >= size / 20]
    step = (dividing or fitting or [size / 4])[0]
    if decimals == 0 and value % 1 == 0:
        step = max(step.to_integral_value(), Decimal(1))
    found = [value + k * step for k in range(-_REACH, _REACH + 1)]
    if 0 < value < 1:
        return tuple(v for v in found if 0 < v < 1)
    return tuple(v for v in found if (v > 0) == (value > 0) and v != 0)


def range_problems(declared: Iterable[Range], stated: Mapping[str, tuple[Decimal, int, int]]
                   ) -> list[Problem]:
    """What is wrong with the ``explore:`` ranges of a lesson whose movable inputs are
    ``stated`` (as :func:`stated` gives them):
    RLKL615 for a name that is not an explorable input, RLKL616 for a range that is empty,
    too long or misses the authored value."""
    problems = []
    for entry in declared:
        if entry.name not in stated:
            problems.append(Problem(
                "RLKL615", f"explore names {entry.name}, which is not an input of this lesson "
                "that a page can change (a number read from the prose: one number, a "
                "two-action distribution, or an entry name[i] of a list)", at=entry.where))
            continue
        if entry.fixed:
            continue
        assert entry.low is not None and entry.high is not None and entry.step is not None
        low, high, step = (Decimal(repr(x)) for x in (entry.low, entry.high, entry.step))
        value = stated[entry.name][0]
        if high < low or (high - low) / step + 1 > MAX_POINTS:
            problems.append(Problem(
                "RLKL616", f"explore {entry.name}: from {low} to {high} in steps of {step} is "
                f"not a range of 1 to {MAX_POINTS} points", at=entry.where))
        elif value not in points(low, high, step):
            problems.append(Problem(
                "RLKL616", f"explore {entry.name}: the authored value {value} is not one of "
                f"the points from {low} to {high} in steps of {step}", at=entry.where))
    return problems


def stated(numbers: Iterable[tuple[str, str, int]], values: Mapping[str, Any],
           entries: Iterable[str] = ()) -> dict[str, tuple[Decimal, int, int]]:
    """Each explorable input: (its authored value, its written decimals, its length: 1 for
    a number, 2 for a two-action distribution moved by its first probability).

    ``numbers``: (pointer, role, decimals) of each number of the prose; ``values``: the
    lesson's inputs by name; ``entries``: the list entries ``claims.yaml`` declares
    (``nll[2]``: one number of a list input, moved alone). An input counts when the page
    shows one of its numbers outside the check question (:data:`ASKED`).
    """
    decimals: dict[str, int] = {}
    for pointer, role, written in numbers:
        if role.startswith("input ") and not pointer.startswith(ASKED):
            name = role.split(" ", 1)[1]
            decimals[name] = max(decimals.get(name, 0), written)
    found = {}
    for name, written in decimals.items():
        value = values.get(name)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            found[name] = (Decimal(repr(float(value))), written, 1)
        elif _distribution(value):
            found[name] = (Decimal(repr(float(np.asarray(value)[0]))), written, 2)
    for entry in entries:
        base, _, rest = entry.partition("[")
        value = values.get(base, ())
        index = int(rest.rstrip("]")) if rest.rstrip("]").isdigit() else -1
        if base in decimals and np.ndim(value) == 1 and 0 <= index < np.size(value):
            found[entry] = (Decimal(repr(float(np.asarray(value)[index]))), decimals[base], 1)
    return found


def _distribution(value: Any) -> bool:
    """A two-action distribution: two probabilities strictly between 0 and 1 summing to 1."""
    if not isinstance(value, (list, np.ndarray)) or np.shape(value) != (2,):
        return False
    p = np.asarray(value, dtype=np.float64)
    return bool(np.all((p > 0) & (p < 1)) and abs(p.sum() - 1) < 1e-12)


def moved_by(name: str, outputs: Mapping[str, str]) -> set[str]:
    """``name`` and every output computed from it, directly or through other outputs
    (``outputs``: each computed quantity's expression)."""
    moved = {name}
    grew = True
    while grew:
        grew = False
        for output, source in outputs.items():
            if output not in moved and expr.names(expr.parse(source)) & moved:
                moved.add(output)
                grew = True
    return moved


def plot_problems(spec: PlotSpec, stated: Mapping[str, Any], fixed: Iterable[str],
                  values: Mapping[str, Any], outputs: Mapping[str, str]) -> list[Problem]:
    """RLKL617 when the ``plot:`` cannot be drawn: its ``x`` is not an input a page can
    change, or its ``y`` is not one number computed from ``x``."""
    if spec.x not in stated or spec.x in set(fixed):
        why = f"x {spec.x} is not an input a page can change"
    elif spec.y not in outputs:
        why = f"y {spec.y} is not a quantity the lesson computes (a `where:` output)"
    elif spec.y not in moved_by(spec.x.partition("[")[0], outputs):
        why = f"y {spec.y} is not computed from x {spec.x}"
    elif np.size(values.get(spec.y, ())) != 1:
        why = f"y {spec.y} is not one number"
    else:
        return []
    return [Problem("RLKL617", f"plot cannot be drawn: {why}", at=spec.where)]
