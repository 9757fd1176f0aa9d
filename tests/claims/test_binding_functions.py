"""Every rlkl.core function is callable from a binding (or excluded with a reason)."""

from __future__ import annotations

import inspect

import pytest

from rlkl import core
from rlkl.claims.evaluation import expr
from rlkl.claims.evaluation.functions import EXCLUDED, FUNCTIONS

PUBLIC = [n for n in core.__all__ if inspect.isfunction(getattr(core, n))]


@pytest.mark.parametrize("name", PUBLIC)
def test_core_function_is_callable_from_bindings_or_excluded_with_a_reason(name: str) -> None:
    if name in EXCLUDED:
        assert len(EXCLUDED[name].split()) >= 3, f"say why {name} is excluded"
        assert name not in FUNCTIONS
    else:
        assert FUNCTIONS[name] is getattr(core, name)
        expr.parse(f"{name}(x)")  # no RLKL606 "unknown function"


def test_excluded_names_are_core_functions() -> None:
    assert set(EXCLUDED) <= set(PUBLIC)


def test_gae_is_callable_and_its_results_can_be_indexed() -> None:
    source = "gae(r, v, nv, [0, 0, 1], [0, 0, 0], gamma=0.99, lam=0.95)"
    env = {"r": [1.0, 0.0, 1.0], "v": [0.5, 0.4, 0.3], "nv": [0.4, 0.3, 0.2]}
    advantages, returns = core.gae(
        env["r"], env["v"], env["nv"], [0, 0, 1], [0, 0, 0], gamma=0.99, lam=0.95
    )
    got = expr.evaluate(expr.parse(source + "[0]"), env)
    assert list(got) == list(advantages)
    last = expr.evaluate(expr.parse(source + "[1][2]"), env)
    assert last == returns[2]
