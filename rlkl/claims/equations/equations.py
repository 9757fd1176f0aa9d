r"""Equations are claims: each relation of a ``science[].equation`` is checked against the core.

An equation string may hold several relations (``J_{clip}=…,\quad r=…``). Each relation
``lhs = rhs`` is bound in ``claims.yaml`` under ``equations:`` to an expression over
:mod:`rlkl.core` (``is: ppo_clip_objective(r, A, epsilon)``) and a grid of inputs; the
right-hand side is parsed from LaTeX by sympy's Lark parser and evaluated on every grid
point plus the lesson's own worked inputs, and must agree with the expression everywhere
(relative 1e-9). A relation that is neither bound nor exempt with a reason is an error, as
an unaccounted number is.

The LaTeX is read by :mod:`rlkl.claims.equations.latex` (its docstring states the supported subset).
"""

from __future__ import annotations

import ast
import itertools
import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from rlkl.claims.bindings.model import Bindings, EquationBinding
from rlkl.claims.equations.latex import (
    EquationError,
    Parsed,
    Relation,
    evaluate,
    parse_relation,
    split_relations,
    strip_sizing,
)
from rlkl.claims.evaluation import expr
from rlkl.claims.records import EquationRecord
from rlkl.claims.status import Status
from rlkl.diagnostics import Diagnostic
from rlkl.loader import Document
from rlkl.shown import EQUATION, shown

RTOL = 1e-9
ATOL = 1e-12
_PLAIN = (float, int, np.float64)
MAX_POINTS = 5000
MAX_RELATIONS = 50  # per equation string
MAX_HINTS = 20  # unbound relations whose symbols are read for the message, per lesson
VERIFIED, FAILED, EXEMPT, UNREADABLE, UNBOUND = (
    Status.VERIFIED, Status.FAILED, Status.EXEMPT, Status.UNREADABLE, Status.UNBOUND)
__all__ = ["EquationRecord", "check_equations"]


def _points(
    grid: Mapping[str, list[Any]], worked: Mapping[str, Any]
) -> list[dict[str, Any]]:
    """Every grid combination, then the worked point (worked symbols fixed, others varied)."""
    names = sorted(grid)
    combos = [
        dict(zip(names, values, strict=True))
        for values in itertools.product(*(grid[n] for n in names))
    ]
    if worked:
        rest = [n for n in names if n not in worked]
        for values in itertools.product(*(grid[n] for n in rest)):
            combos.append({**dict(zip(rest, values, strict=True)), **worked})
    return combos


def _array(value: Any) -> Any:
    return np.asarray(value, dtype=np.float64) if isinstance(value, list) else value


def _agree(left: Any, right: Any) -> bool:
    """``numpy.allclose(left, right, RTOL, ATOL, equal_nan=True)`` with equal shapes; two
    plain numbers take the same test written out (no arrays made for one comparison)."""
    if type(left) in _PLAIN and type(right) in _PLAIN:
        x, y = float(left), float(right)
        if math.isfinite(x) and math.isfinite(y):
            return abs(x - y) <= ATOL + RTOL * abs(y)
        return x == y or (math.isnan(x) and math.isnan(y))
    try:
        a = np.asarray(left, dtype=np.float64)
        b = np.asarray(right, dtype=np.float64)
        return a.shape == b.shape and bool(np.allclose(a, b, rtol=RTOL, atol=ATOL, equal_nan=True))
    except (TypeError, ValueError):
        return False


# -- checking a lesson -------------------------------------------------------------------


def _equations(data: Any) -> list[tuple[str, str]]:
    science = data.get("science") if isinstance(data, dict) else None
    found = []
    for index, item in enumerate(science if isinstance(science, list) else []):
        if isinstance(item, dict) and isinstance(item.get("equation"), str):
            found.append((f"/science/{index}/equation", item["equation"]))
    return found


def _key(lhs: str) -> str:
    """A left-hand side compared without spacing and sizing commands (``\\left(`` is ``(``)."""
    return "".join(strip_sizing(lhs).split())


def _names(relation: Relation) -> tuple[str, str]:
    """What a binding's ``relation:`` may say to pick ``relation``: its left-hand side, or the
    whole ``lhs = rhs`` (for two relations of one equation with the same left-hand side)."""
    return relation.key, _key(f"{relation.lhs}={relation.rhs}")


def _describe(relation: Relation) -> str:
    return f"`{relation.lhs} = {relation.rhs}`"


def _unbound_message(pointer: str, relation: Relation, read: bool) -> str:
    try:
        if not read:
            raise EquationError("too many unbound relations to read them all")
        symbols = ", ".join(parse_relation(relation.rhs).identifiers) or "none"
        hint = f"its symbols: {symbols}"
    except EquationError as error:
        hint = f"rlkl cannot read it ({error}), so exempt it"
    return (
        f"equation relation {_describe(relation)} is neither checked nor exempt; in claims.yaml "
        f"under equations: add `- in: {pointer}`, `relation: '{relation.lhs}'` with `is:` (the "
        f"rlkl.core expression it equals) and `grid:` ({hint}), or `exempt:` with a reason"
    )


def check_equations(
    document: Document,
    bindings: Bindings | None,
    quantities: Mapping[str, Any],
    *,
    coverage: bool = True,
) -> tuple[list[EquationRecord], list[Diagnostic]]:
    """Check every relation of every ``science[].equation`` of one lesson.

    ``bindings`` holds the ``equations:`` entries; ``quantities`` are the lesson's named
    quantities (the claims' inputs and outputs) for the worked points. Returns one record per
    relation and the diagnostics: unbound (RLKL430), disagreeing (RLKL431), unreadable
    (RLKL432), a binding that names nothing or lacks grid values (RLKL433), a grid the core
    rejects (RLKL434). ``coverage=False`` (the bindings file is broken) leaves out RLKL430.
    """
    records: list[EquationRecord] = []
    entries: Sequence[EquationBinding] = bindings.equations if bindings else []
    equations = dict(_equations(document.data))
    relations, diagnostics = _relations(document, equations)
    used: set[int] = set()
    for pointer, found in relations.items():
        for relation in found:
            chosen = [
                (i, e)
                for i, e in enumerate(entries)
                if e.pointer == pointer
                and (e.relation is None or _key(e.relation) in _names(relation))
            ]
            used.update(i for i, _ in chosen)
            specific = [e for _, e in chosen if e.relation is not None] or [e for _, e in chosen]
            if not specific:
                records.append(EquationRecord(pointer, relation.lhs, UNBOUND, ""))
                read = sum(r.status == UNBOUND for r in records) <= MAX_HINTS
                if coverage:
                    message = _unbound_message(pointer, relation, read)
                    diagnostics.append(document.diagnostic(pointer, "RLKL430", message))
                continue
            entry = specific[0]
            if entry.exempt is not None:
                records.append(EquationRecord(pointer, relation.lhs, EXEMPT, entry.exempt))
                continue
            assert bindings is not None
            record, problems = _check_one(document, bindings, pointer, relation, entry, quantities)
            records.append(record)
            diagnostics.extend(problems)
    if bindings is not None:
        diagnostics += _unused(bindings, equations, relations, used)
    return records, diagnostics


def _relations(
    document: Document, equations: Mapping[str, str]
) -> tuple[dict[str, list[Relation]], list[Diagnostic]]:
    """The relations of each equation, at most :data:`MAX_RELATIONS` of each (RLKL432 when
    an equation holds more)."""
    relations = {p: split_relations(latex) for p, latex in equations.items()}
    diagnostics = []
    for pointer, found in relations.items():
        if len(found) > MAX_RELATIONS:
            message = (
                f"the equation holds {len(found)} relations; at most {MAX_RELATIONS} are read "
                "(split it over several science entries)"
            )
            diagnostics.append(document.diagnostic(pointer, "RLKL432", message))
            relations[pointer] = found[:MAX_RELATIONS]
    return relations, diagnostics


def _unused(
    bindings: Bindings,
    equations: Mapping[str, str],
    relations: Mapping[str, list[Relation]],
    used: set[int],
) -> list[Diagnostic]:
    """RLKL433 for every ``equations:`` entry that names no equation or relation."""
    diagnostics = []
    for index, entry in enumerate(bindings.equations):
        if index in used:
            continue
        if entry.pointer not in equations:
            message = f"{entry.pointer} is not an equation of the lesson"
        else:
            listed = ", ".join(f"'{r.lhs}'" for r in relations[entry.pointer]) or "none"
            message = (
                f"relation {entry.relation!r} is not in {entry.pointer} "
                f"(its relations, by left-hand side: {listed})"
            )
        diagnostics.append(bindings.diagnostic(entry.where, "RLKL433", message))
    return diagnostics


class _Failed(Exception):
    """One relation's check ended: its status, code, message and where it belongs."""

    def __init__(self, status: Status, code: str, message: str, at_binding: bool = False) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.at_binding = status, code, message, at_binding


def _check_one(
    document: Document,
    bindings: Bindings,
    pointer: str,
    relation: Relation,
    entry: EquationBinding,
    quantities: Mapping[str, Any],
) -> tuple[EquationRecord, list[Diagnostic]]:
    """One bound relation: read, evaluated on the grid and the worked point, compared."""
    try:
        count = _compare(relation, entry, quantities)
    except _Failed as failed:
        where = (
            bindings.diagnostic(entry.where, failed.code, failed.message)
            if failed.at_binding
            else document.diagnostic(pointer, failed.code, failed.message)
        )
        return EquationRecord(pointer, relation.lhs, failed.status, failed.message), [where]
    detail = f"{entry.expression} on {count} points"
    return EquationRecord(pointer, relation.lhs, VERIFIED, detail), []


def _parsed(relation: Relation, entry: EquationBinding) -> tuple[Parsed, ast.Expression]:
    """The relation's reading and the binding's ``is:`` expression (or :class:`_Failed`)."""
    try:
        parsed = parse_relation(relation.rhs)
    except EquationError as error:
        raise _Failed(
            UNREADABLE,
            "RLKL432",
            f"cannot read {_describe(relation)}: {error}; rewrite it in the supported subset "
            "(the authoring guide, \"Equations are claims too\") or exempt it with a reason",
        ) from None
    source = entry.expression or ""
    try:
        tree = expr.parse(source)
    except expr.ExprError as error:
        raise _Failed(FAILED, "RLKL433", f"is: {source!r}: {error}", at_binding=True) from None
    return parsed, tree


def _grid_points(
    relation: Relation,
    entry: EquationBinding,
    quantities: Mapping[str, Any],
    needed: set[str],
    identifiers: Sequence[str],
) -> list[dict[str, Any]]:
    """The points to compare at: the grid, then the lesson's worked inputs."""
    missing = sorted(needed - set(entry.grid))
    if missing:
        raise _Failed(
            FAILED,
            "RLKL433",
            f"grid gives no values for {', '.join(missing)} (symbols of {relation.lhs!r}: "
            f"{', '.join(identifiers) or 'none'})",
            at_binding=True,
        )
    worked: dict[str, Any] = {}
    for symbol, quantity in entry.worked.items():
        if quantity not in quantities:
            message = f"worked: {symbol}: {quantity!r} is not a quantity of the lesson's claims"
            raise _Failed(FAILED, "RLKL433", message, at_binding=True)
        worked[symbol] = quantities[quantity]
    grid = {k: [_array(v) for v in values] for k, values in entry.grid.items() if k in needed}
    size = math.prod(len(values) for values in grid.values())
    if size > MAX_POINTS:
        message = f"the grid has {size} points; at most {MAX_POINTS}"
        raise _Failed(FAILED, "RLKL433", message, at_binding=True)
    return _points(grid, {k: v for k, v in worked.items() if k in needed})


def _compare(relation: Relation, entry: EquationBinding, quantities: Mapping[str, Any]) -> int:
    """Compare the relation with its binding at every point; the number of points."""
    parsed, tree = _parsed(relation, entry)
    source = entry.expression or ""
    needed = set(parsed.identifiers) | expr.names(tree)
    points = _grid_points(relation, entry, quantities, needed, parsed.identifiers)
    for point in points:
        try:
            want = expr.evaluate(tree, point)
        except (expr.ExprError, ArithmeticError, ValueError, TypeError, IndexError) as error:
            message = f"is: {source} cannot be computed at {_point(point)}: {error}"
            raise _Failed(FAILED, "RLKL434", message, at_binding=True) from None
        try:
            got = evaluate(parsed, point)
        except (EquationError, ArithmeticError, ValueError, TypeError, IndexError) as error:
            message = f"cannot evaluate {_describe(relation)}: {error}"
            raise _Failed(UNREADABLE, "RLKL432", message) from None
        if not _agree(got, want):
            raise _Failed(
                FAILED,
                "RLKL431",
                f"equation {_describe(relation)} gives {shown(got, EQUATION)} at "
                f"{_point(point)}, but {source} = {shown(want, EQUATION)}: the equation does "
                "not say what the core computes",
            )
    return len(points)


def _point(point: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={shown(v, EQUATION)}" for k, v in sorted(point.items()))
