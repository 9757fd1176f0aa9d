"""The self-describing claim forms, found without a binding.

* literal arithmetic — ``min(1.4×2,1.2×2)=2.4``: the left side is evaluated;
* KL and entropy of literal distributions with a unit — ``KL([0.7,0.3] || [0.5,0.5]) is
  0.082283 nats``: recomputed with :func:`rlkl.core.kl_divergence` / :func:`rlkl.core.entropy`.

A number a binding already computes (its role starts with ``output``) is left to the binding.
Each function takes the lesson's prose and the roles given so far and returns what it found.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from rlkl import core
from rlkl.claims.evaluation import expr
from rlkl.claims.evaluation.judge import judge
from rlkl.claims.forms import recognise
from rlkl.claims.records import Found, Key, Problem, Prose


def _bound(roles: Mapping[Key, str], key: Key) -> bool:
    return roles.get(key, "").startswith("output")


def check_arithmetic(prose: Prose, roles: Mapping[Key, str]) -> Found:
    """Literal arithmetic in the prose (``min(1.4×2,1.2×2)=2.4``), unless a binding owns
    its result."""
    found = Found()
    for pointer, text in prose.texts.items():
        for form in recognise.arithmetic(text, list(prose.by_pointer[pointer])):
            intermediate = tuple((m.key, "intermediate") for m in form.operands)
            if _bound(roles, form.result.key):
                found += Found(roles=intermediate)
                continue
            try:
                computed = float(expr.evaluate(form.tree, {}))
            except (expr.ExprError, TypeError) as exc:
                message = f"cannot compute {form.source}: {exc}"
                found += Found(problems=(Problem("RLKL421", message, form.result),))
                continue
            found += Found(roles=(*intermediate, (form.result.key, "arithmetic")))
            judged = judge(
                "arithmetic",
                form.result,
                f"arithmetic@{pointer}",
                form.source.strip(),
                {},
                computed,
                text[form.start : form.result.end],
            )
            found += judged
            if not judged.verdicts[-1].ok:
                found += Found(rewrites=((form.result.key, computed),))
    return found


def _core_call(pointer: str, text: str, call: recognise.CoreCall) -> Found:
    p = [m.number for m in call.p]
    q = [m.number for m in call.q]
    args = [p, q] if call.function == "kl_divergence" else [p]
    base = "" if call.unit == "nats" else ", base=2"
    source = f"{call.function}({', '.join(map(str, args))}{base})"
    roles = Found(
        roles=(*((m.key, "input") for m in (*call.p, *call.q)), (call.result.key, "core"))
    )
    quote = text[call.start : call.end]
    try:
        function = core.kl_divergence if call.function == "kl_divergence" else core.entropy
        computed = float(function(*args, base=call.base))
    except ValueError as exc:
        message = f'claim "{quote}": cannot compute {source}: {exc}'
        return roles + Found(problems=(Problem("RLKL421", message, call.result),))
    if math.isinf(computed) and not call.result.value.is_infinite():
        message = (
            f'claim "{quote}": {source} is infinite (q has zero mass where '
            f"p is positive), not {call.result.text} {call.unit}"
        )
        return roles + Found(problems=(Problem("RLKL402", message, call.result),))
    judged = judge("core", call.result, f"{call.function}@{pointer}", source, {}, computed, quote)
    if not judged.verdicts[-1].ok:
        judged += Found(rewrites=((call.result.key, computed),))
    return roles + judged


def check_core_calls(prose: Prose, roles: Mapping[Key, str]) -> Found:
    """KL and entropy of literal distributions with a unit (``KL([..] || [..]) is x nats``)."""
    found = Found()
    for pointer, text in prose.texts.items():
        for call in recognise.core_calls(text, list(prose.by_pointer[pointer])):
            if not _bound(roles, call.result.key):
                found += _core_call(pointer, text, call)
    return found
