"""The ``rlkl.core`` function behind a lesson's numbers, as a page shows it: its source with
its docstring (the equation and where it comes from), read from the installed package, so
the code a learner sees is the code that verified the page."""

from __future__ import annotations

import ast
import functools
import inspect
from collections.abc import Iterable

from rlkl import core

__all__ = ["core_function"]


def core_function(expressions: Iterable[str]) -> tuple[str, str] | None:
    """The first ``rlkl.core`` function the ``expressions`` call (in their order), with its
    source; None when they call none."""
    for source in expressions:
        try:
            tree = ast.parse(source, mode="eval")
        except SyntaxError:
            continue
        calls = sorted((node for node in ast.walk(tree) if isinstance(node, ast.Call)
                        and isinstance(node.func, ast.Name) and node.func.id in core.__all__),
                       key=lambda node: (node.lineno, node.col_offset))
        for call in calls:
            assert isinstance(call.func, ast.Name)
            function = getattr(core, call.func.id)
            if callable(function):
                return call.func.id, _source(function)
    return None


@functools.cache  # rlkl.core's few functions, each found once (~0.2 ms)
def _source(function: object) -> str:
    """The function's source as installed ("" when Python cannot find it)."""
    try:
        return inspect.getsource(function)  # type: ignore[arg-type]
    except (OSError, TypeError):
        return ""
