"""The rules of ``claims.yaml`` that its schema cannot state: templates with number slots and no
digits outside them, claims that compute from the sentence's inputs, expressions that parse,
and no slot left unread (RLKL602-RLKL621)."""

from __future__ import annotations

import re
from itertools import pairwise

from rlkl.claims.bindings.model import Bindings
from rlkl.claims.evaluation import expr
from rlkl.claims.evaluation.functions import CONSTANTS, FUNCTIONS
from rlkl.claims.prose.scanner import scan
from rlkl.claims.records import Located
from rlkl.claims.templates import slots
from rlkl.diagnostics import Diagnostic

_ODD_SLOT = re.compile(r"(?<!\{)\{[A-Za-z_][A-Za-z0-9_]*[:!](?!(?:list|unit)\})[^{}]*\}(?!\})")


def _number(piece: slots.Piece) -> bool:
    return isinstance(piece, slots.Slot) and piece.kind == "number"


def _template_errors(b: Bindings) -> list[Diagnostic]:
    """Every template states a number, and every number it states is a slot."""
    errors: list[Diagnostic] = []
    templates = [c.template for c in b.claims] + [e.template for e in b.exemptions]
    for template in templates:
        if all(kind == "unit" for _, kind in template.slots):
            errors.append(
                b.diagnostic(
                    template.where,
                    "RLKL614",
                    f"the sentence {template.says!r} has no number slot; a template states "
                    "at least one number ({name} or {name:list})",
                )
            )
        for odd in _ODD_SLOT.finditer(template.says):
            errors.append(
                b.diagnostic(
                    template.where,
                    "RLKL620",
                    f"{odd.group()} in {template.says!r} is not a slot: a slot is {{name}}, "
                    "{name:list} or {name:unit} (no format specs); write {{ or }} for a "
                    "literal brace",
                )
            )
        adjacent = [f"{one}{other}" for one, other in pairwise(slots.pieces(template.says))
                    if _number(one) and _number(other)]
        if adjacent:
            errors.append(
                b.diagnostic(
                    template.where,
                    "RLKL621",
                    f"{', '.join(adjacent)} in {template.says!r}: two number slots with nothing "
                    "between them, so where one number ends and the next begins would be a "
                    "guess; write the text the lesson has between them",
                )
            )
        literal = slots.literal_text(template.says)
        if scan("", literal):
            errors.append(
                b.diagnostic(
                    template.where,
                    "RLKL602",
                    f"the sentence {template.says!r} has a digit outside a {{slot}}; "
                    "write every number as a slot so that it is read and checked",
                )
            )
    return errors


def _claim_errors(b: Bindings) -> list[Diagnostic]:
    """Unique ids, usable slot names, outputs that are slots, one definition per quantity."""
    errors: list[Diagnostic] = []
    seen: dict[str, Located] = {}
    defined: dict[str, Located] = {}
    for claim in b.claims:
        if claim.id in seen:
            errors.append(
                b.diagnostic(
                    claim.where,
                    "RLKL603",
                    f"claim id {claim.id!r} is used twice (first at line {seen[claim.id].line})",
                )
            )
        seen[claim.id] = claim.where
        slot_names = {name for name, _ in claim.template.slots}
        for name in sorted(n for n in slot_names if n.startswith("_")):
            errors.append(
                b.diagnostic(
                    claim.template.where,
                    "RLKL610",
                    f"slot {{{name}}}: a slot name starts with a letter",
                )
            )
        for name in sorted(slot_names & (set(FUNCTIONS) | set(CONSTANTS))):
            errors.append(
                b.diagnostic(
                    claim.template.where,
                    "RLKL610",
                    f"slot {{{name}}} has the name of a function or constant; rename it",
                )
            )
        for name, (_, at) in (claim.outputs | claim.negatives).items():
            if name not in slot_names:
                errors.append(
                    b.diagnostic(
                        at,
                        "RLKL604",
                        f"{name!r} is not a slot of the sentence {claim.template.says!r}",
                    )
                )
        for name, (_, at) in claim.outputs.items():
            if name in defined:
                errors.append(
                    b.diagnostic(
                        at,
                        "RLKL605",
                        f"{name!r} is already computed by another claim "
                        f"(line {defined[name].line}); a quantity has one definition",
                    )
                )
            defined[name] = at
    return errors


_WORD = re.compile(r"[A-Za-z_]\w*")


def _expression_errors(b: Bindings) -> tuple[list[Diagnostic], set[str]]:
    """Parsable expressions that read the lesson's quantities; the names they read."""
    errors: list[Diagnostic] = []
    expressions = [
        e for c in b.claims for e in (*c.outputs.values(), *c.negatives.values(), *c.holds)
    ]
    if b.quiz:
        expressions += [b.quiz.answer, *b.quiz.distractors.values()]
    used: set[str] = set()
    for source, at in expressions:
        try:
            used |= expr.names(expr.parse(source))
        except expr.ExprError as exc:
            errors.append(b.diagnostic(at, "RLKL606", f"expression {source!r}: {exc}"))
            # the words it names count as read: its RLKL606 is the one thing to fix, not
            # an RLKL612 for each slot it would have read
            used |= set(_WORD.findall(source))
    computed = [*(e for c in b.claims for e in c.outputs.values())]
    if b.quiz:
        computed += [b.quiz.answer, *b.quiz.distractors.values()]
    for source, at in computed:
        try:
            constant = not expr.names(expr.parse(source))
        except expr.ExprError:
            continue  # reported above
        if constant:
            errors.append(
                b.diagnostic(
                    at,
                    "RLKL611",
                    f"{source!r} uses no quantity the lesson states: it would only restate "
                    "a constant; compute it from the sentence's inputs",
                )
            )
    return errors, used


def _unread_slots(b: Bindings, used: set[str]) -> list[Diagnostic]:
    """A number slot no expression reads would be an unchecked number (once per name); a
    unit slot holds a word, not a number."""
    errors: list[Diagnostic] = []
    used = set(used)
    outputs = {name for c in b.claims for name in c.outputs}
    for claim in b.claims:
        for name, kind in claim.template.slots:
            if kind == "unit":
                continue
            if name not in outputs and name not in claim.negatives and name not in used:
                errors.append(
                    b.diagnostic(
                        claim.template.where,
                        "RLKL612",
                        f"slot {{{name}}} is read but no expression uses it, so its number "
                        "would go unchecked; use it, or exempt it with a reason",
                    )
                )
                used.add(name)  # once per name
    return errors


def errors(b: Bindings) -> list[Diagnostic]:
    """Rules the schema cannot express: parsable expressions, no digits outside slots, ..."""
    expression_errors, used = _expression_errors(b)
    return [*_template_errors(b), *_claim_errors(b), *expression_errors, *_unread_slots(b, used)]
