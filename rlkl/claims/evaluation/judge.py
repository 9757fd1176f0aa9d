"""Judge one number: does the prose state what was computed, at its written precision?

Pure helpers shared by the evaluating stages (bindings, forms, quiz): the words around a
mention, JSON-ready values, and :func:`judge`, which turns (mention, computed value) into a
:class:`~rlkl.claims.records.Verdict` and, when it fails, the :class:`Problem` to report.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from rlkl import shown
from rlkl.claims.evaluation import expr
from rlkl.claims.evaluation.precision import agrees, describe, show
from rlkl.claims.prose.scanner import Mention
from rlkl.claims.records import Found, Problem, Verdict
from rlkl.diagnostics import FAILING


def quote(text: str, mention: Mention) -> str:
    """The words around a mention: back to the clause start, on to the clause end."""
    before = text[max(0, mention.start - 48) : mention.start]
    cut = max(before.rfind(". "), before.rfind(", "), before.rfind("; "), before.rfind(": "))
    if cut >= 0:
        begin = mention.start - len(before) + cut + 2
    elif mention.start - len(before) == 0:
        begin = 0
    else:
        begin = mention.start - len(before) + before.find(" ") + 1
    after = text[mention.end : mention.end + 48]
    stop = min(
        (i for i in (after.find(". ", 1), after.find(", ", 1), after.find(";", 1)) if i > 0),
        default=-1,
    )
    end = (
        mention.end + stop
        if stop >= 0
        else (len(text) if len(after) < 48 else mention.end + after.rfind(" "))
    )
    return text[begin:end].strip().rstrip(".")


def plain(value: Any) -> Any:
    """A JSON-ready copy of a computed value (floats, lists, bools, 'inf')."""
    if isinstance(value, np.ndarray) and value.ndim == 1 and value.dtype == np.float64:
        numbers = value.tolist()  # the common input: a vector of finite floats, as it is
        if all(map(math.isfinite, numbers)):
            return numbers
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, str):
        return value
    if not isinstance(value, (int, float)) and np.ndim(value) > 0:  # a number is 0-d
        return [plain(v) for v in np.asarray(value).tolist()]
    number = float(value)
    return number if math.isfinite(number) else repr(number)


def verdict(
    kind: str,
    mention: Mention,
    base_id: str,
    expression: str,
    inputs: Mapping[str, Any],
    computed: Any,
    ok: bool,
    reason: str,
    said: str,
) -> Found:
    """A verdict (its id made unique later, in lesson order) and its problem when it fails."""
    record = Verdict(
        base_id,
        kind,
        mention,
        expression,
        {k: plain(v) for k, v in inputs.items()},
        plain(computed),
        ok,
        reason,
        said,
    )
    problems = () if ok else (Problem(FAILING[kind], f'claim "{said}": {reason}', mention),)
    return Found(verdicts=(record,), problems=problems)


def _holds(mention: Mention, computed: float, negative: bool) -> bool:
    """Whether the verdict holds: the prose states ``computed`` at its written precision
    (``negative``: it does not)."""
    if not math.isfinite(computed) and not mention.value.is_infinite():
        return negative
    same = agrees(computed, mention.value, mention.decimals)
    return not same if negative else same


def _reason(mention: Mention, computed: float, how: str, negative: bool, hint: str) -> str:
    """Why the verdict fails, saying what was computed (``how``) and at which precision."""
    if not math.isfinite(computed) and not mention.value.is_infinite():
        return f"computed {how} = {show(computed)}" + (
            "" if negative else f", which no finite number such as {mention.text} states"
        )
    written = describe(mention.decimals - 2 if mention.percent else mention.decimals)
    if mention.decimals == 0 and mention.value == 0:
        written = "a bare 0 claims exactly zero"
    shown = (
        show(computed * 100, mention.decimals - 2) + "%"
        if mention.percent
        else show(computed, mention.decimals)
    )
    if negative:
        return f"says {mention.text} is not {how}, but that computes {shown} ({written})"
    return f"computed {how} = {shown} ({written}), not {mention.text}{hint}"


def judge(
    kind: str,
    mention: Mention,
    base_id: str,
    expression: str,
    inputs: Mapping[str, Any],
    computed: float,
    said: str,
    *,
    negative: bool = False,
    hint: str = "",
) -> Found:
    """Whether ``mention`` states ``computed`` at its written precision (or, when
    ``negative``, that it does not), with a message saying what was computed from what."""
    ok = _holds(mention, computed, negative)
    reason = "" if ok else _failure(mention, expression, inputs, computed, negative, hint)
    return verdict(kind, mention, base_id, expression, inputs, computed, ok, reason, said)


def _failure(
    mention: Mention,
    expression: str,
    inputs: Mapping[str, Any],
    computed: float,
    negative: bool,
    hint: str,
) -> str:
    """The message of a failed verdict: scalar inputs substituted into the expression,
    lists shown apart (never spliced in). Built only for failures: it re-parses."""
    formula = expression.split(" = ", 1)[-1]
    scalars = all(np.ndim(v) == 0 for v in inputs.values())
    how = expr.substitute(formula, inputs) if inputs and scalars else expression
    if how not in (formula, expression):
        how = f"{how} (from {expression})"
    reason = _reason(mention, computed, how, negative, hint)
    if not scalars:
        reason += f"; inputs: {shown.inputs(inputs)}"
    return reason


def failed(found: Found) -> bool:
    """Whether the (single) verdict of ``found`` failed."""
    return not found.verdicts[-1].ok
