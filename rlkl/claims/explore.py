"""A lesson's worked example, explorable: each input moved along a range, one at a time, and
every number that depends on it recomputed by the expressions that verified it.

Seed 003's instruction is "change one variable, explain what moves". rlkl knows, for every
number of the prose, which inputs it is computed from and by which expression (the checks of
a :class:`~rlkl.claims.report.LessonReport`), so a page can let a learner change an input and
show what moves without a second implementation: :func:`explore` evaluates the checks' own
expressions with :mod:`rlkl.core` at every point of each input's range (the others at their
authored values) and returns, per point, each dependent number as the prose would write it
(its written precision, sign style and percent: :func:`rlkl.claims.prose.scanner.format_number`)
and each negative claim or ``holds:`` condition that stops being true there.

An input's range is the one ``claims.yaml`` declares under ``explore:`` (checked by
:func:`~rlkl.claims.evaluation.ranges.range_problems` when the lesson is checked), else
:func:`~rlkl.claims.evaluation.ranges.inferred` from its authored value. A point at which
any dependent expression cannot be computed (a log of a negative number: the core refuses
it) is left out of the range. Explored: scalar inputs and two-action distributions
(``[p, 1 − p]``, moved by their first probability); the check question and its
misconceptions stay as written (:data:`~rlkl.claims.records.ASKED`): the question tests a
case the page has not worked out.

:func:`plot` computes the page's plot the same way: one output over a fine grid of one
input's range, at the authored values of the others and at every point of theirs.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import numpy as np

from rlkl.claims.evaluation import expr
from rlkl.claims.evaluation.precision import agrees
from rlkl.claims.evaluation.ranges import inferred, moved_by, places, points, stated
from rlkl.claims.fixtures.recorded import canonical
from rlkl.claims.prose.scanner import Mention, format_number, scan
from rlkl.claims.records import ASKED, PlotSpec, Range
from rlkl.claims.report import Check, LessonReport, Number
from rlkl.numerals import UNIT_BASES

__all__ = ["Knob", "Plot", "explore", "explored", "plot", "read_explored"]

_BASES = {canonical(base): base for base in UNIT_BASES.values()}
_FINE = 2  # a plot's grid: this many intervals between two points of its input's range
_EXPLORED = ("output", "negative", "condition")  # the kinds of check a page moves or flags


@dataclass(frozen=True)
class Knob:
    """One input a learner can change, and what moves with it.

    ``values``: the range's points, the authored one at ``at``; ``texts``: each point as the
    prose writes the input. ``numbers``: for each number of the lesson that moves (its index
    in :attr:`LessonReport.numbers`: the input's own mentions and every output computed from
    it), its text at each point. ``untrue``: for each number that carries a negative claim
    or a condition, the points at which that claim no longer holds.
    """

    name: str
    values: tuple[float, ...]
    texts: tuple[str, ...]
    at: int
    numbers: Mapping[int, tuple[str, ...]]
    untrue: Mapping[int, tuple[int, ...]]


@dataclass(frozen=True)
class Plot:
    """An output ``y`` against an input ``x``: ``xs`` a fine grid over ``x``'s range (its
    points included), ``ys`` the output there with the other inputs as authored, and
    ``moved[(knob, i)]`` the output there with input ``knob`` at its ``i``-th point
    (None where it cannot be computed). ``point``: the authored (x, y)."""

    x: str
    y: str
    x_label: str
    y_label: str
    xs: tuple[float, ...]
    ys: tuple[float | None, ...]
    point: tuple[float, float]
    moved: Mapping[tuple[str, int], tuple[float | None, ...]] = field(default_factory=dict)


def _exact(value: Any) -> Any:
    """An input as a check recorded it, for computing: a list as a float64 array, a number
    as a float, and a unit's logarithm base exact again (the records keep 12 significant
    digits, which every number written in prose has, but e does not)."""
    if isinstance(value, list):
        return np.asarray(value, dtype=np.float64)
    return _BASES.get(value, float(value))


@dataclass(frozen=True)
class _Input:
    """What a knob moves: the quantity ``base`` itself (a number; ``length`` 2: a
    two-action distribution by its first probability), or its entry ``element`` (a list's
    entry declared under ``explore:`` as ``name[i]``)."""

    name: str
    base: str
    element: int | None = None
    length: int = 1

    @classmethod
    def of(cls, name: str, length: int) -> _Input:
        base, bracket, rest = name.partition("[")
        return cls(name, base, int(rest.rstrip("]")) if bracket else None, length)

    def value(self, point: Decimal, base: Any) -> Any:
        """The quantity's value with the knob at ``point``."""
        if self.element is not None:
            entries = np.array(base, dtype=np.float64)
            entries[self.element] = float(point)
            return entries
        if self.length == 2:
            return np.array([float(point), float(1 - point)], dtype=np.float64)
        return float(point)

    def owns(self, numbers: Sequence[Number], index: int) -> bool:
        """Whether the lesson's number ``index`` is one of this knob's own (the input as
        written, not inside the check question)."""
        number = numbers[index]
        if number.role != f"input {self.base}" or number.pointer.startswith(ASKED):
            return False
        return self.element is None or _position(numbers, index) == self.element

    def text(self, point: Decimal, numbers: Sequence[Number], index: int) -> str:
        """The input at ``point`` as the prose writes its number ``index`` (the second
        probability of a distribution is 1 − p), with the decimals the point needs."""
        number = numbers[index]
        value = point
        if self.length == 2 and _position(numbers, index) % 2 == 1:
            value = 1 - point
        return format_number(float(value), _like(number, max(number.decimals, places(value))))


def _position(numbers: Sequence[Number], index: int) -> int:
    """The place of a list input's number ``index`` among that input's numbers in its prose
    string (a list is written whole: its entries come in order)."""
    number = numbers[index]
    return sum(1 for n in numbers[:index] if n.pointer == number.pointer and n.role == number.role)


@dataclass
class _Lesson:
    """A report's quantities, ready to recompute: each output's expression, an order they
    can be computed in, the inputs with the outputs as authored, for each check the numbers
    it is anchored on, and the inputs a check read otherwise than the lesson's first
    reading (its sentence's own unit)."""

    report: LessonReport
    outputs: dict[str, str] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)
    base: dict[str, Any] = field(default_factory=dict)
    anchored: dict[str, list[int]] = field(default_factory=dict)
    overlays: dict[str, dict[str, Any]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for check in self.report.checks:
            if check.target is not None:
                self.outputs.setdefault(check.target[0], check.target[2])
        for check in self.report.checks:
            for name, value in self.own(check).items():
                self.base.setdefault(name, value)  # the first reading (see value_at)
        waiting = dict(self.outputs)
        while waiting:
            ready = [n for n, s in waiting.items()
                     if not expr.names(expr.parse(s)) & (set(waiting) - {n})]
            for name in ready or list(waiting):  # a cycle is reported by the check
                self.order.append(name)
                del waiting[name]
        for check in self.report.checks:  # a sentence's own unit, where it is not the base's
            own = {n: v for n, v in self.own(check).items()
                   if not np.array_equal(self.base[n], v)}
            if own:
                self.overlays[check.id] = own
        self.compute(self.base, set(self.base))
        for index, number in enumerate(self.report.numbers):
            for check_id in number.checks:
                self.anchored.setdefault(check_id, []).append(index)

    def own(self, check: Check) -> dict[str, Any]:
        """The inputs ``check`` read (not the outputs)."""
        return {n: _exact(v) for n, v in check.inputs.items() if n not in self.outputs}

    def compute(self, values: dict[str, Any], moved: set[str],
                only: set[str] | None = None) -> None:
        """Recompute into ``values`` every output that reads a name in ``moved`` (of
        ``only``, when given: the outputs one quantity needs)."""
        moved = set(moved)
        for name in self.order:
            if only is not None and name not in only:
                continue
            tree = expr.parse(self.outputs[name])
            if expr.names(tree) & moved:
                values[name] = expr.evaluate(tree, values)
                moved.add(name)

    def needs(self, name: str) -> set[str]:
        """``name`` and the outputs its expression reads, directly or through others."""
        found, waiting = set(), [name]
        while waiting:
            current = waiting.pop()
            if current in self.outputs and current not in found:
                found.add(current)
                waiting.extend(expr.names(expr.parse(self.outputs[current])))
        return found

    def at(self, knob: _Input, point: Decimal, only: set[str] | None = None
           ) -> dict[str, Any]:
        """Every quantity (of ``only``, when given) with ``knob`` at ``point`` and the
        other inputs as authored."""
        values = dict(self.base)
        values[knob.base] = knob.value(point, self.base[knob.base])
        self.compute(values, {knob.base}, only)
        return values

    def value_at(self, check: Check, values: Mapping[str, Any], knob: str) -> Any:
        """What ``check`` computes with ``values``, with the inputs it read itself where
        they differ (a sentence may state the lesson's quantity in bits where the rest says
        nats; the outputs it reads are recomputed with them)."""
        own = {n: v for n, v in self.overlays.get(check.id, {}).items() if n != knob}
        if own:
            values = {**values, **own}
            self.compute(values, set(own))
        target = check.target
        if target is None:
            return expr.evaluate(expr.parse(check.expression), values)
        value = values[target[0]]
        return value if target[1] is None else np.asarray(value, dtype=np.float64)[target[1]]


def _like(number: Number, decimals: int | None = None) -> Mention:
    """The mention ``format_number`` writes a value like (its sign style and percent)."""
    return Mention(number.pointer, number.start, number.end, number.text, Decimal(0),
                   number.decimals if decimals is None else decimals)


def _written(value: float, number: Number) -> str:
    """``value`` as the prose writes ``number``: at its written precision, except that a
    whole number (``2``, an exact ``0``) that stops being whole is written with up to two
    decimals (0.5 is "0.5", not "0" or "1")."""
    if number.decimals == 0 and abs(value - round(value)) > 1e-9:
        return format_number(value, _like(number, 2 if abs(value * 10 % 1) > 1e-9 else 1))
    return format_number(value, _like(number))


def _grid(name: str, value: Decimal, decimals: int, ranges: Mapping[str, Range]
          ) -> tuple[Decimal, ...]:
    declared = ranges.get(name)
    if declared is None:
        return inferred(value, decimals)
    assert declared.low is not None and declared.high is not None and declared.step is not None
    return points(*(Decimal(repr(x)) for x in (declared.low, declared.high, declared.step)))


def _movable(lesson: _Lesson, declared: Iterable[Range]
             ) -> list[tuple[_Input, Decimal, tuple[Decimal, ...]]]:
    """Each input a page can change: what it moves, its authored value and its range."""
    ranges = {r.name: r for r in declared}
    numbers = ((n.pointer, n.role, n.decimals) for n in lesson.report.numbers)
    entries = [r.name for r in declared if "[" in r.name and not r.fixed]
    found = stated(numbers, lesson.base, entries)
    return [(_Input.of(name, length), value, _grid(name, value, decimals, ranges))
            for name, (value, decimals, length) in found.items()
            if not (name in ranges and ranges[name].fixed)]


def explore(report: LessonReport) -> tuple[Knob, ...]:
    """Every input of the lesson a page can change, with what moves along its range (see
    the module docstring), in the ranges its ``claims.yaml`` declares."""
    lesson = _Lesson(report)
    knobs = (_knob(lesson, knob, value, grid)
             for knob, value, grid in _movable(lesson, report.explore))
    return tuple(k for k in knobs if k is not None)


def _knob(lesson: _Lesson, knob: _Input, value: Decimal, grid: Sequence[Decimal]
          ) -> Knob | None:
    """One input's knob: its points that every dependent expression can be computed at
    (None when fewer than two are, or the authored value is not among them)."""
    moved = moved_by(knob.base, lesson.outputs)
    checks = [c for c in lesson.report.checks if not c.pointer.startswith(ASKED)
              and c.kind in _EXPLORED
              and expr.names(expr.parse(c.target[2] if c.target else c.expression)) & moved]
    numbers = lesson.report.numbers
    own = [i for i in range(len(numbers)) if knob.owns(numbers, i)]
    if not own:
        return None
    kept: list[tuple[Decimal, dict[int, str], set[int]]] = []
    for point in grid:
        result = _at_point(lesson, knob, point, checks, own)
        if result is not None:
            kept.append((point, *result))
    at = next((i for i, (p, _, _) in enumerate(kept) if p == value), None)
    if at is None or len(kept) < 2:
        return None
    moving = {i: tuple(texts.get(i, numbers[i].text) for _, texts, _ in kept)
              for i in sorted({i for _, texts, _ in kept for i in texts})}
    moving = {i: t for i, t in moving.items() if len(set(t)) > 1 or i in own}
    untrue = {i: tuple(k for k, (_, _, false) in enumerate(kept) if i in false)
              for i in sorted({i for _, _, false in kept for i in false})}
    texts = tuple(knob.text(p, numbers, own[0]) for p, _, _ in kept)
    return Knob(knob.name, tuple(float(p) for p, _, _ in kept), texts, at, moving, untrue)


def _at_point(lesson: _Lesson, knob: _Input, point: Decimal, checks: Sequence[Check],
              own: Sequence[int]) -> tuple[dict[int, str], set[int]] | None:
    """The texts of the numbers that move, and the numbers whose claims stop holding, with
    the knob at ``point``; None when something there cannot be computed."""
    numbers = lesson.report.numbers
    texts: dict[int, str] = {}
    false: set[int] = set()
    try:
        values = lesson.at(knob, point)
        for index in own:
            texts[index] = knob.text(point, numbers, index)
        for check in checks:
            computed = lesson.value_at(check, values, knob.base)
            if check.kind == "condition":
                holds = bool(computed)
            else:
                number = float(np.asarray(computed, dtype=np.float64).reshape(()))
                if not np.isfinite(number):
                    return None
                holds = check.kind == "output" or not agrees(
                    number, scan("", check.text)[0].value, check.decimals)
            for index in lesson.anchored.get(check.id, ()):
                if check.kind == "output":
                    texts[index] = _written(number, numbers[index])
                elif not holds:
                    false.add(index)
    except (expr.ExprError, ValueError, IndexError):
        return None
    return texts, false


def plot(report: LessonReport, knobs: Sequence[Knob]) -> Plot | None:
    """The page's plot: the ``plot:`` of ``claims.yaml``, else the first output of the
    worked example (one number, outside the check question) against the first input it
    is computed from; None when the lesson has no such pair."""
    lesson = _Lesson(report)
    by_name = {k.name: k for k in knobs}
    spec = report.plot
    if spec is None:
        spec = _first_pair(lesson, knobs)
    if spec is None or spec.x not in by_name or spec.y not in lesson.outputs:
        return None
    knob = by_name[spec.x]
    xs = _fine(knob.values)
    inputs = {k.name: _input_of(lesson, k.name) for k in knobs}
    x_input, needed = inputs[spec.x], lesson.needs(spec.y)

    def curve(values: Mapping[str, Any]) -> tuple[float | None, ...]:
        out = []
        for x in xs:
            try:
                moved = dict(values)
                moved[x_input.base] = x_input.value(Decimal(repr(x)), values[x_input.base])
                lesson.compute(moved, {x_input.base}, needed)
                y = float(np.asarray(moved[spec.y], dtype=np.float64).reshape(()))
                out.append(y if np.isfinite(y) else None)
            except (expr.ExprError, ValueError, IndexError, TypeError):
                out.append(None)
        return tuple(out)

    moved: dict[tuple[str, int], tuple[float | None, ...]] = {}
    for other in knobs:
        other_input = inputs[other.name]
        if other.name == spec.x or spec.y not in moved_by(other_input.base, lesson.outputs):
            continue
        for i, v in enumerate(other.values):
            moved[(other.name, i)] = curve(lesson.at(other_input, Decimal(repr(v)), needed))
    y0 = float(np.asarray(lesson.base[spec.y], dtype=np.float64).reshape(()))
    return Plot(spec.x, spec.y, spec.x_label or spec.x, spec.y_label or spec.y, xs,
                curve(lesson.base), (knob.values[knob.at], y0), moved)


def _input_of(lesson: _Lesson, name: str) -> _Input:
    """What the knob ``name`` moves (a distribution when its quantity is a list of two
    and it names no entry)."""
    base = name.partition("[")[0]
    pair = "[" not in name and isinstance(lesson.base.get(base), np.ndarray)
    return _Input.of(name, 2 if pair else 1)


def _first_pair(lesson: _Lesson, knobs: Sequence[Knob]) -> PlotSpec | None:
    """The first output of the prose that is one number and moves with an input."""
    for check in lesson.report.checks:
        target = check.target
        if target is None or target[1] is not None or check.pointer.startswith(ASKED):
            continue
        if np.size(lesson.base.get(target[0], ())) != 1:
            continue
        for knob in knobs:
            if target[0] in moved_by(_input_of(lesson, knob.name).base, lesson.outputs):
                return PlotSpec(knob.name, target[0])
    return None


def _fine(values: Sequence[float]) -> tuple[float, ...]:
    """``values`` with ``_FINE`` intervals between each two, rounded to 12 digits; a range
    of whole numbers (a group size, a count) as it is."""
    if all(float(v).is_integer() for v in values):
        return tuple(values)
    out = [values[0]]
    for a, b in itertools.pairwise(values):
        out.extend(float(f"{a + (b - a) * k / _FINE:.12g}") for k in range(1, _FINE + 1))
    return tuple(out)


def explored(report: LessonReport) -> dict[str, Any]:
    """:func:`explore` and :func:`plot` of a lesson as plain JSON data (what the site caches
    and a pool worker sends back); :func:`read_explored` is its inverse."""
    knobs = explore(report)
    drawn = plot(report, knobs)
    return {
        "knobs": [{"name": k.name, "values": list(k.values), "texts": list(k.texts),
                   "at": k.at, "numbers": {str(i): list(t) for i, t in k.numbers.items()},
                   "untrue": {str(i): list(v) for i, v in k.untrue.items()}} for k in knobs],
        "plot": None if drawn is None else {
            "x": drawn.x, "y": drawn.y, "x_label": drawn.x_label, "y_label": drawn.y_label,
            "xs": list(drawn.xs), "ys": list(drawn.ys), "point": list(drawn.point),
            "moved": [[name, i, list(ys)] for (name, i), ys in drawn.moved.items()]},
    }


def read_explored(data: Mapping[str, Any]) -> tuple[tuple[Knob, ...], Plot | None]:
    """The knobs and plot of :func:`explored` data (``KeyError``/``TypeError``/``ValueError``
    on other data)."""
    knobs = tuple(
        Knob(str(k["name"]), tuple(float(v) for v in k["values"]),
             tuple(str(t) for t in k["texts"]), int(k["at"]),
             {int(i): tuple(str(x) for x in t) for i, t in k["numbers"].items()},
             {int(i): tuple(int(x) for x in v) for i, v in k["untrue"].items()})
        for k in data["knobs"])
    p = data["plot"]
    if p is None:
        return knobs, None
    point = tuple(float(v) for v in p["point"])
    if len(point) != 2:
        raise ValueError("a plot's point is (x, y)")

    def values(ys: Sequence[Any]) -> tuple[float | None, ...]:
        return tuple(None if y is None else float(y) for y in ys)

    moved = {(str(name), int(i)): values(ys) for name, i, ys in p["moved"]}
    sizes = {k.name: len(k.values) for k in knobs}
    for name in {name for name, _ in moved}:  # a knob that moves the curve: at every point
        if {i for n, i in moved if n == name} != set(range(sizes.get(name, -1))):
            raise ValueError(f"the plot's curves for {name!r} are not one per point")
    return knobs, Plot(str(p["x"]), str(p["y"]), str(p["x_label"]), str(p["y_label"]),
                       tuple(float(x) for x in p["xs"]), values(p["ys"]),
                       (point[0], point[1]), moved)
