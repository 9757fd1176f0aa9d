"""A small, safe evaluator for claim expressions — never ``eval``.

Expressions are parsed with :mod:`ast` (the grammar is Python's expression grammar, with the
prose operators ``×`` ``·`` ``÷`` and the U+2212 minus accepted) and evaluated by walking a
whitelist of node types: numbers, strings, lists, names bound by the lesson, arithmetic,
comparisons, ``and``/``or``/``not``, subscripts and calls of the functions in
:data:`rlkl.claims.evaluation.functions.FUNCTIONS` (the binding function table). Anything else is
rejected with :class:`ExprError` before evaluation.
"""

from __future__ import annotations

import ast
import operator
import warnings
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

import numpy as np

from rlkl.claims.evaluation.functions import (
    CONSTANTS,
    FUNCTIONS,
    KEYWORDS,
    BudgetError,
    module_of,
    note_call,
    when_changed,
)
from rlkl.shown import shown

MAX_LENGTH = 500
MAX_POWER = 64
MAX_DEPTH = 40

PROSE_OPERATORS = str.maketrans({"×": "*", "·": "*", "÷": "/", "\u2212": "-"})


class ExprError(ValueError):
    """An expression that cannot be parsed, uses something not allowed, or fails to evaluate."""


class BudgetExceeded(ExprError):
    """The lesson's evaluation budget is spent
    (:func:`rlkl.claims.evaluation.functions.evaluation_budget`)."""



_BINARY: Mapping[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.Pow: operator.pow,
}
_COMPARE: Mapping[type[ast.cmpop], Callable[[Any, Any], Any]] = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
}


@lru_cache(maxsize=8192)
def parse(source: str) -> ast.Expression:
    """Parse ``source`` (prose operators allowed) and reject anything outside the whitelist.

    Memoised: the same expression (in every copy of a binding) is compiled once. The tree is
    shared, so nothing may change it (:func:`substitute` works on its own parse).
    """
    return _parse(source)


def _parse(source: str) -> ast.Expression:
    if len(source) > MAX_LENGTH:
        raise ExprError(f"expression longer than {MAX_LENGTH} characters")
    try:
        with warnings.catch_warnings():  # "invalid escape sequence" is the parse's, never printed
            warnings.simplefilter("ignore")
            tree = ast.parse(source.translate(PROSE_OPERATORS).strip(), mode="eval")
    except SyntaxError as exc:
        raise ExprError(f"not a valid expression: {exc.msg}") from None
    except (RecursionError, MemoryError, ValueError):
        raise ExprError("expression nested too deeply") from None
    if _depth(tree) > MAX_DEPTH:
        raise ExprError(f"expression nested deeper than {MAX_DEPTH} levels")
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            if not isinstance(node.func, ast.Name) or node.func.id not in FUNCTIONS:
                own = (" (not one of rlkl's; a function of your own is named in the "
                       "configuration's `functions`)") if isinstance(node.func, ast.Name) else ""
                raise ExprError(f"unknown function {ast.unparse(node.func)!r}{own}")
            allowed = KEYWORDS[node.func.id]
            for keyword in node.keywords:
                if keyword.arg not in allowed:
                    given = f"{keyword.arg}=" if keyword.arg else "**"
                    known = ", ".join(sorted(allowed)) or "none"
                    raise ExprError(f"{node.func.id}() takes no keyword {given} "
                                    f"(its keywords: {known})")
        elif not isinstance(node, _ALLOWED):
            raise ExprError(f"{type(node).__name__} is not allowed in an expression")
        elif isinstance(node, ast.Constant) and not isinstance(node.value, (int, float, str)):
            raise ExprError(f"constant {node.value!r} is not allowed")  # None, 1j, b'', ...
    return tree


_ALLOWED = (
    ast.Expression,
    ast.BinOp,
    ast.UnaryOp,
    ast.BoolOp,
    ast.Compare,
    ast.Constant,
    ast.Name,
    ast.List,
    ast.Tuple,
    ast.Subscript,
    ast.Load,
    ast.keyword,
    ast.USub,
    ast.UAdd,
    ast.Not,
    ast.And,
    ast.Or,
    *_BINARY,
    *_COMPARE,
)


def _depth(node: ast.AST) -> int:
    """Nesting depth of a syntax tree, without recursion (so any input is safe)."""
    deepest, stack = 0, [(node, 1)]
    while stack:
        current, level = stack.pop()
        deepest = max(deepest, level)
        stack.extend((child, level + 1) for child in ast.iter_child_nodes(current))
    return deepest


def names(tree: ast.Expression) -> set[str]:
    """The variable names an expression reads (functions and constants excluded)."""
    return set(_names(tree))


@lru_cache(maxsize=8192)
def _names(tree: ast.Expression) -> frozenset[str]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id not in FUNCTIONS and node.id not in CONSTANTS:
            found.add(node.id)
    return frozenset(found)


def is_arithmetic(tree: ast.Expression) -> bool:
    """True when the expression computes something: an operator or a call, literals only."""
    nodes = list(ast.walk(tree))
    logic = (ast.BoolOp, ast.Compare, ast.Not, ast.Tuple, ast.Subscript)
    text = any(isinstance(n, ast.Constant) and isinstance(n.value, (str, bool)) for n in nodes)
    return (
        not names(tree)
        and not text
        and not any(isinstance(n, logic) for n in nodes)
        and any(isinstance(n, (ast.BinOp, ast.Call)) for n in nodes)
    )


def substitute(source: str, env: Mapping[str, Any]) -> str:
    """``source`` with each variable replaced by its value, for messages: what was computed."""

    def literal(value: Any) -> str:  # numbers as :func:`rlkl.shown.shown`; a word quoted
        value = value.tolist() if hasattr(value, "tolist") else value
        return repr(value) if isinstance(value, (str, bool)) else shown(value)

    class _Substitute(ast.NodeTransformer):
        def visit_Name(self, node: ast.Name) -> ast.AST:
            return ast.Name(id=literal(env[node.id])) if node.id in env else node

    return ast.unparse(_Substitute().visit(_parse(source)))


def evaluate(tree: ast.Expression, env: Mapping[str, Any]) -> Any:
    """Evaluate a parsed expression with the variables in ``env``: a number, a truth value,
    an array of numbers or a tuple of them (``gae``), never text."""
    try:
        with np.errstate(all="ignore"):
            return _result(_compiled(tree)(env))
    except ExprError:
        raise
    except BudgetError as exc:
        raise BudgetExceeded(str(exc)) from None
    except (ArithmeticError, ValueError, TypeError, IndexError, MemoryError) as exc:
        raise ExprError(str(exc) or type(exc).__name__) from None


def _result(value: Any) -> Any:
    """``value`` if it is numeric (a tuple: every part), else ExprError."""
    parts = value if isinstance(value, tuple) else (value,)
    for part in parts:
        numeric = isinstance(part, (bool, int, float, np.number, np.bool_)) or (
            isinstance(part, np.ndarray) and part.dtype.kind in "biuf")
        if not numeric:
            raise ExprError(f"the expression gives {type(part).__name__} {part!r:.40}, not a "
                            "number or a list of numbers")
    return value


def _number(value: Any) -> Any:
    """A function's result as a float or a float64 array."""
    return float(value) if np.ndim(value) == 0 else np.asarray(value, dtype=np.float64)


Compiled = Callable[[Mapping[str, Any]], Any]


@lru_cache(maxsize=8192)
def _compiled(tree: ast.Expression) -> Compiled:
    """``tree`` as nested closures, built once per (memoised) tree: evaluating one is a call
    per node, with no dispatch on node types at run time. No ``eval``: only the whitelisted
    nodes that :func:`parse` let through become closures."""
    return _compile(tree.body)


def _compile(node: ast.AST) -> Compiled:
    """One node's closure; each computes exactly what walking the node would, in order."""
    if isinstance(node, ast.Constant):
        return _constant(node.value)
    if isinstance(node, ast.Name):
        return _name(node.id)
    if isinstance(node, (ast.List, ast.Tuple)):
        items = [_compile(item) for item in node.elts]
        return lambda env: np.array([item(env) for item in items], dtype=np.float64)
    if isinstance(node, ast.UnaryOp):
        return _unary(node.op, _compile(node.operand))
    if isinstance(node, ast.BinOp):
        return _binary(node.op, _compile(node.left), _compile(node.right))
    if isinstance(node, ast.BoolOp):
        values = [_compile(v) for v in node.values]
        join = all if isinstance(node.op, ast.And) else any
        return lambda env: join([bool(value(env)) for value in values])
    if isinstance(node, ast.Compare):
        return _compare([_compile(node.left), *map(_compile, node.comparators)],
                        [_COMPARE[type(op)] for op in node.ops])
    if isinstance(node, ast.Subscript):
        value, index = _compile(node.value), _compile(node.slice)
        return lambda env: value(env)[int(index(env))]
    if isinstance(node, ast.Call):
        assert isinstance(node.func, ast.Name)
        return _call(node.func.id, [_compile(a) for a in node.args],
                     [(kw.arg, _compile(kw.value)) for kw in node.keywords if kw.arg])
    raise ExprError(f"{type(node).__name__} is not allowed in an expression")


def _constant(value: object) -> Compiled:
    """A literal: :func:`parse` lets only numbers, truth values and text through."""
    if isinstance(value, (bool, str)) or (isinstance(value, int) and abs(value) <= 2**53):
        return lambda env: value  # small integers stay exact (indices, counts)
    assert isinstance(value, (int, float)), value
    number = float(value)
    return lambda env: number


def _name(name: str) -> Compiled:
    def look_up(env: Mapping[str, Any]) -> Any:
        if name in env:
            return env[name]
        if name in CONSTANTS:
            return CONSTANTS[name]
        raise ExprError(f"unknown name {name!r}")

    return look_up


def _unary(op: ast.unaryop, operand: Compiled) -> Compiled:
    if isinstance(op, ast.Not):
        return lambda env: not operand(env)
    if isinstance(op, ast.USub):
        return lambda env: -operand(env)
    return lambda env: +operand(env)


def _binary(op: ast.operator, left: Compiled, right: Compiled) -> Compiled:
    function = _BINARY[type(op)]
    power = isinstance(op, ast.Pow)

    def apply(env: Mapping[str, Any]) -> Any:
        a, b = left(env), right(env)
        if isinstance(a, str) or isinstance(b, str):  # 'x' * 10**9 would be 1 GB
            raise ExprError("text cannot take part in arithmetic; text is only an argument "
                            "such as an estimator name")
        if power:
            if np.max(np.abs(b)) > MAX_POWER:
                raise ExprError(f"exponent larger than {MAX_POWER}")
            # in float64, so nested powers overflow at once instead of growing huge integers
            return np.power(np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64))[()]
        return function(a, b)

    return apply


def _compare(operands: list[Compiled], ops: list[Callable[[Any, Any], Any]]) -> Compiled:
    def chain(env: Mapping[str, Any]) -> bool:
        left = operands[0](env)
        for op, operand in zip(ops, operands[1:], strict=True):
            right = operand(env)
            if not np.all(op(left, right)):
                return False
            left = right
        return True

    return chain


def _call(name: str, args: list[Compiled], keywords: list[tuple[str, Compiled]]) -> Compiled:
    function = FUNCTIONS[name]
    authors = module_of(name) is not None  # its version goes into the lesson's fixtures

    def call(env: Mapping[str, Any]) -> Any:
        if authors:
            note_call(name)
        values = [arg(env) for arg in args]
        result = function(*values, **{key: value(env) for key, value in keywords})
        if isinstance(result, tuple):  # several results (gae): index them, gae(...)[0]
            return tuple(_number(part) for part in result)
        return _number(result)

    return call


for _memo in (parse, _names, _compiled):  # an author's functions change what parses
    when_changed(_memo.cache_clear)
