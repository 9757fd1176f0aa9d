"""A small, safe evaluator for claim expressions — never ``eval``.

Expressions are parsed with :mod:`ast` (the grammar is Python's expression grammar, with the
prose operators ``×`` ``·`` ``÷`` and the U+2212 minus accepted) and evaluated by walking a
whitelist of node types: numbers, strings, lists, names bound by the lesson, arithmetic,
comparisons, ``and``/``or``/``not``, subscripts and calls of the functions in
:data:`FUNCTIONS`. Anything else is rejected with :class:`ExprError` before evaluation.
"""

from __future__ import annotations

import ast
import math
import operator
from collections.abc import Callable, Mapping
from typing import Any, cast

import numpy as np

from rlkl import core

MAX_LENGTH = 500
MAX_POWER = 64
MAX_DEPTH = 40
MAX_SAMPLES = 10_000_000

_PROSE_OPERATORS = str.maketrans({"×": "*", "·": "*", "÷": "/", "\u2212": "-"})


class ExprError(ValueError):
    """An expression that cannot be parsed, uses something not allowed, or fails to evaluate."""


def clip_boundary(advantage: float, epsilon: float) -> float:
    """The ratio where the clipped objective's gradient switches on or off, found from the gradient.

    For ``advantage > 0`` the gradient ``ppo_clip_grad(r, A, ε)`` is nonzero for small r and zero
    above the boundary (1 + ε); for ``advantage < 0`` it is zero below the boundary (1 − ε).
    The boundary is located by bisection on :func:`rlkl.core.ppo_clip_grad` itself, so a
    threshold claim is verified through the gradient, not through the formula 1 ± ε.
    """
    if advantage == 0:
        raise ExprError("clip_boundary needs a nonzero advantage")

    def flat(r: float) -> bool:
        return float(core.ppo_clip_grad(r, advantage, epsilon)) == 0.0

    lo, hi = 1e-9, 1.0 + 64.0 * max(epsilon, 1e-3)
    if flat(lo) == flat(hi):
        raise ExprError("the clipped objective's gradient never switches on this range")
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if flat(mid) == flat(lo):
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def _sample(p_old: Any, n: int, seed: int) -> Any:
    if not 0 < int(n) <= MAX_SAMPLES:
        raise ExprError(f"the number of samples must be between 1 and {MAX_SAMPLES}")
    old = np.asarray(p_old, dtype=np.float64)
    return np.random.default_rng(int(seed)).choice(len(old), size=int(n), p=old)


def sampled_counts(p_old: Any, n: int, seed: int) -> Any:
    """How often each action is drawn in :func:`sampled_approx_kl`'s fixed sample."""
    return np.bincount(_sample(p_old, n, seed), minlength=len(p_old)).astype(np.float64)


def sampled_approx_kl(p_old: Any, p_new: Any, n: int, seed: int, estimator: str = "k1") -> float:
    """Mean of an approximate-KL estimator over ``n`` actions sampled from ``p_old``.

    The sampling procedure is fixed so that lessons can quote the result:
    ``a = numpy.random.default_rng(seed).choice(len(p_old), size=n, p=p_old)``, then
    ``mean(approx_kl(log p_new[a], log p_old[a], estimator=estimator))``.
    """
    old = np.asarray(p_old, dtype=np.float64)
    new = np.asarray(p_new, dtype=np.float64)
    actions = _sample(old, n, seed)
    estimates = core.approx_kl(
        np.log(new[actions]), np.log(old[actions]), estimator=cast(Any, estimator)
    )
    return float(np.mean(estimates))


def _clip(x: Any, lo: Any, hi: Any) -> Any:
    return np.clip(x, lo, hi)


FUNCTIONS: Mapping[str, Callable[..., Any]] = {
    "min": min,
    "max": max,
    "abs": abs,
    "clip": _clip,
    "exp": np.exp,
    "log": np.log,
    "log2": np.log2,
    "sqrt": np.sqrt,
    "sum": np.sum,
    "mean": np.mean,
    "softmax": core.softmax,
    "log_softmax": core.log_softmax,
    "entropy": core.entropy,
    "kl_divergence": core.kl_divergence,
    "kl": core.kl_divergence,
    "ppo_ratio": core.ppo_ratio,
    "ppo_ratio_from_probs": core.ppo_ratio_from_probs,
    "ppo_clip_objective": core.ppo_clip_objective,
    "ppo_clip_grad": core.ppo_clip_grad,
    "clip_fraction": core.clip_fraction,
    "approx_kl": core.approx_kl,
    "adaptive_kl_beta": core.adaptive_kl_beta,
    "policy_gradient": core.policy_gradient,
    "reinforce_grad": core.reinforce_grad,
    "kl_grad": core.kl_grad,
    "reinforce_step": core.reinforce_step,
    "expected_reinforce_grad": core.expected_reinforce_grad,
    "reinforce_grad_variance": core.reinforce_grad_variance,
    "kl_regularized_policy": core.kl_regularized_policy,
    "gae": core.gae,
    "rloo_advantages": core.rloo_advantages,
    "grpo_advantages": core.grpo_advantages,
    "group_reinforce_grad": core.group_reinforce_grad,
    "expected_group_grad": core.expected_group_grad,
    "group_grad_variance": core.group_grad_variance,
    "kl_controller_proportional": core.kl_controller_proportional,
    "dpo_implicit_reward": core.dpo_implicit_reward,
    "dpo_loss": core.dpo_loss,
    "clip_boundary": clip_boundary,
    "sampled_approx_kl": sampled_approx_kl,
    "sampled_counts": sampled_counts,
}
CONSTANTS: Mapping[str, float] = {"e": math.e, "pi": math.pi, "inf": math.inf}

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


def parse(source: str) -> ast.Expression:
    """Parse ``source`` (prose operators allowed) and reject anything outside the whitelist."""
    if len(source) > MAX_LENGTH:
        raise ExprError(f"expression longer than {MAX_LENGTH} characters")
    try:
        tree = ast.parse(source.translate(_PROSE_OPERATORS).strip(), mode="eval")
    except SyntaxError as exc:
        raise ExprError(f"not a valid expression: {exc.msg}") from None
    except (RecursionError, MemoryError, ValueError):
        raise ExprError("expression nested too deeply") from None
    if _depth(tree) > MAX_DEPTH:
        raise ExprError(f"expression nested deeper than {MAX_DEPTH} levels")
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            if not isinstance(node.func, ast.Name) or node.func.id not in FUNCTIONS:
                raise ExprError(f"unknown function {ast.unparse(node.func)!r}")
        elif not isinstance(node, _ALLOWED):
            raise ExprError(f"{type(node).__name__} is not allowed in an expression")
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
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id not in FUNCTIONS and node.id not in CONSTANTS:
            found.add(node.id)
    return found


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

    def shown(value: Any) -> str:
        if np.ndim(value) > 0:
            return "[" + ", ".join(shown(v) for v in np.asarray(value).tolist()) + "]"
        return (
            f"{float(value):.10g}" if isinstance(value, (int, float, np.floating)) else repr(value)
        )

    class _Substitute(ast.NodeTransformer):
        def visit_Name(self, node: ast.Name) -> ast.AST:
            return ast.Name(id=shown(env[node.id])) if node.id in env else node

    return ast.unparse(_Substitute().visit(parse(source)))


def evaluate(tree: ast.Expression, env: Mapping[str, Any]) -> Any:
    """Evaluate a parsed expression with the variables in ``env``."""
    try:
        with np.errstate(all="ignore"):
            return _eval(tree.body, env)
    except ExprError:
        raise
    except (ArithmeticError, ValueError, TypeError, IndexError, MemoryError) as exc:
        raise ExprError(str(exc) or type(exc).__name__) from None


def _eval(node: ast.AST, env: Mapping[str, Any]) -> Any:
    if isinstance(node, ast.Constant):
        if isinstance(node.value, (bool, str)):
            return node.value
        if isinstance(node.value, int) and abs(node.value) <= 2**53:
            return node.value  # small integers stay exact (indices, counts)
        if isinstance(node.value, (int, float)):
            return float(node.value)
        raise ExprError(f"constant {node.value!r} is not allowed")
    if isinstance(node, ast.Name):
        if node.id in env:
            return env[node.id]
        if node.id in CONSTANTS:
            return CONSTANTS[node.id]
        raise ExprError(f"unknown name {node.id!r}")
    if isinstance(node, (ast.List, ast.Tuple)):
        return np.array([_eval(item, env) for item in node.elts], dtype=np.float64)
    if isinstance(node, ast.UnaryOp):
        value = _eval(node.operand, env)
        if isinstance(node.op, ast.Not):
            return not value
        return -value if isinstance(node.op, ast.USub) else +value
    if isinstance(node, ast.BinOp):
        left, right = _eval(node.left, env), _eval(node.right, env)
        if isinstance(node.op, ast.Pow):
            if np.max(np.abs(right)) > MAX_POWER:
                raise ExprError(f"exponent larger than {MAX_POWER}")
            # in float64, so nested powers overflow at once instead of growing huge integers
            return np.power(
                np.asarray(left, dtype=np.float64), np.asarray(right, dtype=np.float64)
            )[()]
        return _BINARY[type(node.op)](left, right)
    if isinstance(node, ast.BoolOp):
        values = [bool(_eval(v, env)) for v in node.values]
        return all(values) if isinstance(node.op, ast.And) else any(values)
    if isinstance(node, ast.Compare):
        left = _eval(node.left, env)
        for op, comparator in zip(node.ops, node.comparators, strict=True):
            right = _eval(comparator, env)
            if not np.all(_COMPARE[type(op)](left, right)):
                return False
            left = right
        return True
    if isinstance(node, ast.Subscript):
        return _eval(node.value, env)[int(_eval(node.slice, env))]
    if isinstance(node, ast.Call):
        assert isinstance(node.func, ast.Name)
        args = [_eval(arg, env) for arg in node.args]
        kwargs = {kw.arg: _eval(kw.value, env) for kw in node.keywords if kw.arg}
        result = FUNCTIONS[node.func.id](*args, **kwargs)
        return float(result) if np.ndim(result) == 0 else np.asarray(result, dtype=np.float64)
    raise ExprError(f"{type(node).__name__} is not allowed in an expression")
