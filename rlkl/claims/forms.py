"""The self-describing claim forms, found without a binding.

* literal arithmetic — ``min(1.4×2,1.2×2)=2.4``: the left side is evaluated;
* KL and entropy of literal distributions with a unit — ``KL([0.7,0.3] || [0.5,0.5]) is
  0.082283 nats``: recomputed with :func:`rlkl.core.kl_divergence` / :func:`rlkl.core.entropy`.

A number a binding already computes is left to the binding.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from rlkl import core
from rlkl.claims import expr, matching

if TYPE_CHECKING:
    from rlkl.claims.engine import Extraction


def check_arithmetic(state: Extraction) -> None:
    """Literal arithmetic in the prose (``min(1.4×2,1.2×2)=2.4``), unless a binding owns
    its result."""
    for pointer, text in state.texts.items():
        for form in matching.arithmetic(text, state.by_pointer[pointer]):
            if state.bound(form.result):
                for m in form.operands:
                    state.role(m, "intermediate")
                continue
            try:
                computed = float(expr.evaluate(form.tree, {}))
            except (expr.ExprError, TypeError) as exc:
                state.at_mention(form.result, "RLKL421", f"cannot compute {form.source}: {exc}")
                continue
            for m in form.operands:
                state.role(m, "intermediate")
            state.role(form.result, "arithmetic")
            quote = text[form.start : form.result.end]
            if not state.compare(
                "arithmetic",
                form.result,
                f"arithmetic@{pointer}",
                form.source.strip(),
                {},
                computed,
                quote=quote,
            ):
                state.out.rewrites[form.result.key] = computed


def check_core_calls(state: Extraction) -> None:
    """KL and entropy of literal distributions with a unit (``KL([..] || [..]) is x nats``)."""
    for pointer, text in state.texts.items():
        for call in matching.core_calls(text, state.by_pointer[pointer]):
            if state.bound(call.result):
                continue
            p = [m.number for m in call.p]
            q = [m.number for m in call.q]
            args = [p, q] if call.function == "kl_divergence" else [p]
            base = "" if call.unit == "nats" else ", base=2"
            source = f"{call.function}({', '.join(map(str, args))}{base})"
            for m in (*call.p, *call.q):
                state.role(m, "input")
            state.role(call.result, "core")
            quote = text[call.start : call.end]
            try:
                function = core.kl_divergence if call.function == "kl_divergence" else core.entropy
                computed = float(function(*args, base=call.base))
            except ValueError as exc:
                state.at_mention(
                    call.result, "RLKL421", f'claim "{quote}": cannot compute {source}: {exc}'
                )
                continue
            if math.isinf(computed) and not call.result.value.is_infinite():
                state.at_mention(
                    call.result,
                    "RLKL402",
                    f'claim "{quote}": {source} is infinite (q has zero mass where '
                    f"p is positive), not {call.result.text} {call.unit}",
                )
                continue
            if not state.compare(
                "core",
                call.result,
                f"{call.function}@{pointer}",
                source,
                {},
                computed,
                quote=quote,
            ):
                state.out.rewrites[call.result.key] = computed
