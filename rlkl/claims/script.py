"""A lesson's worked numbers as a Python script that recomputes them with :mod:`rlkl.core`.

The script is written from the checks of one :class:`~rlkl.claims.report.LessonReport`, the
bindings as rlkl evaluated them: first every input the prose states, then every computed
quantity in an order its inputs allow, each line the binding's own expression with the value
rlkl computed as a comment. So the code a page shows is the computation that verified the
page, not a second implementation (``tests/claims/test_script.py`` runs it for every shipped
lesson). The check question's numbers are left out: the script is shown before the question.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from typing import Any

from rlkl import core
from rlkl.claims.evaluation.expr import PROSE_OPERATORS
from rlkl.claims.evaluation.functions import CONSTANTS, FUNCTIONS, module_of
from rlkl.claims.records import ASKED
from rlkl.claims.report import Check, LessonReport
from rlkl.shown import PAGE, shown

__all__ = ["lesson_script"]

_NUMPY = {"exp", "log", "log2", "sqrt", "sum", "mean", "clip"}  # the table's numpy built-ins
_BUILTIN = {"min", "max", "abs", "len"}


def _outputs(checks: Iterable[Check]) -> dict[str, tuple[str, Check, Any]]:
    """Each computed quantity outside the check question: its expression, first check and
    value (a list output's elements, ``z[0]``, ``z[1]``…, put back together)."""
    found: dict[str, tuple[str, Check]] = {}
    elements: dict[str, dict[int, Any]] = {}
    for check in checks:
        target = check.target
        if target is None or check.pointer.startswith(ASKED):
            continue
        name, index, source = target
        found.setdefault(name, (_python(source), check))
        if index is not None:
            elements.setdefault(name, {}).setdefault(index, check.computed)
    return {
        name: (expression, check,
               [elements[name][i] for i in sorted(elements[name])] if name in elements
               else check.computed)
        for name, (expression, check) in found.items()
    }


def _python(expression: str) -> str:
    """A binding's expression as plain Python: prose operators as Python's, and a list that
    arithmetic acts on as a numpy array (the evaluator computes with arrays; ``0.9 * [a, b]``
    in Python is an error)."""
    source = expression.translate(PROSE_OPERATORS).strip()
    tree = ast.parse(source, mode="eval")
    arithmetic = (ast.BinOp, ast.UnaryOp, ast.Compare)
    wrap = [child for node in ast.walk(tree) if isinstance(node, arithmetic)
            for child in ast.iter_child_nodes(node) if isinstance(child, ast.List)]
    if not wrap:
        return source

    class _Arrays(ast.NodeTransformer):
        def visit_List(self, node: ast.List) -> ast.AST:
            if node not in wrap:
                return self.generic_visit(node)
            array = ast.Attribute(ast.Name("np", ast.Load()), "array", ast.Load())
            return ast.Call(array, [node], [])

    return ast.unparse(_Arrays().visit(tree))


def _value(value: Any) -> str:
    """An input as Python source: a float, or a numpy array of a (nested) list."""
    if isinstance(value, list):
        return f"np.array({_plain(value)}, float)"
    return _plain(value)


def _plain(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_plain(v) for v in value) + "]"
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return str(int(value))
    return repr(value)


def _ordered(outputs: Mapping[str, tuple[str, Check, Any]]) -> list[str]:
    """The outputs in their order in the lesson, each after the outputs it reads."""
    done: list[str] = []
    waiting = list(outputs)
    while waiting:
        ready = next((n for n in waiting
                      if all(i in done or i not in outputs for i in outputs[n][1].inputs)),
                     waiting[0])  # a cycle cannot happen (one definition per name); be safe
        waiting.remove(ready)
        done.append(ready)
    return done


def _imports(expressions: Iterable[str]) -> list[str]:
    """The import lines the expressions need: rlkl.core, numpy, math and rlkl's helpers."""
    called: set[str] = set()
    for source in expressions:
        for node in ast.walk(ast.parse(source, mode="eval")):
            if isinstance(node, ast.Name) and (node.id in FUNCTIONS or node.id in CONSTANTS):
                called.add(node.id)
    groups: dict[str, set[str]] = {}
    for name in sorted(called):
        if name in _BUILTIN:
            continue
        if name in CONSTANTS or name == "comb":
            groups.setdefault("math", set()).add(name)
        elif name in _NUMPY:
            groups.setdefault("numpy", set()).add(name)
        elif name in core.__all__:
            groups.setdefault("rlkl.core", set()).add(name)
        elif name == "kl":
            groups.setdefault("rlkl.core", set()).add("kl_divergence as kl")
        else:
            module = module_of(name) or "rlkl.claims.evaluation.functions"
            groups.setdefault(module, set()).add(name)
    order = ["math", "numpy", "rlkl.core"]
    modules = [m for m in order if m in groups] + sorted(set(groups) - set(order))
    return ["import numpy as np"] + [
        f"from {m} import {', '.join(sorted(groups[m]))}" for m in modules]


def lesson_script(report: LessonReport) -> str:
    """The Python script that recomputes the lesson's worked numbers ("" when it has none)."""
    outputs = _outputs(report.checks)
    if not outputs:
        return ""
    inputs: dict[str, Any] = {}
    for _, check, _ in outputs.values():
        for name, value in check.inputs.items():
            if name not in outputs:
                inputs.setdefault(name, value)
    stated = [n.role.split(" ", 1)[1] for n in report.numbers if n.role.startswith("input ")]
    first = {name: stated.index(name) if name in stated else len(stated) for name in inputs}
    inputs = dict(sorted(inputs.items(), key=lambda item: first[item[0]]))  # as the prose reads
    lines = [*_imports(e for e, _, _ in outputs.values()), "",
             "# the inputs, as the prose states them"]
    lines += [f"{name} = {_value(value)}" for name, value in inputs.items()]
    lines += ["", "# every number the lesson computes from them, as rlkl checks it"]
    for name in _ordered(outputs):
        expression, _, value = outputs[name]
        lines.append(f"{name} = {expression}  # {shown(value, PAGE)}")
    return "\n".join(lines) + "\n"

