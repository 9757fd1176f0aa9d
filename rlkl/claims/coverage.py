"""Account for every number: exemptions (not recomputed, with a reason) and the coverage
rule (a number neither checked nor exempt is an error)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from decimal import Decimal

from rlkl.claims.bindings.model import Bindings, Exemption
from rlkl.claims.evaluation.judge import quote
from rlkl.claims.records import Exempt, Found, Key, Problem, Prose
from rlkl.claims.templates.bind import occurrences
from rlkl.diagnostics import code

_NOT_NEEDED = ("; if the sentence is there but rlkl reads no number in it (such as the 1 of "
               "π_1), this exemption is not needed: remove it from claims.yaml")


def _exempt(prose: Prose, exemption: Exemption, roles: dict[Key, str]) -> Found:
    """The numbers one exemption matches; ``roles`` gains ``exempt`` for each. An exemption
    that matches nothing says it may simply be removed (an older rlkl read a number there)."""
    found, problems = occurrences(prose, exemption.template)
    out = Found(problems=tuple(
        replace(p, message=p.message + _NOT_NEEDED) if p.code == code("template-not-found") else p
        for p in problems))
    for occurrence in found:
        said = occurrence.quote(prose.texts[occurrence.pointer])
        for slot in occurrence.slots:
            for mention in slot.mentions:
                if mention.key in roles:
                    out += Found(
                        problems=(
                            Problem(
                                "RLKL411",
                                f"{mention.text} is exempt but also {roles[mention.key]}; "
                                "a number is either checked or exempt",
                                mention,
                            ),
                        )
                    )
                    continue
                roles[mention.key] = "exempt"
                expected = exemption.equals.get(slot.name)
                if expected is not None and mention.value != Decimal(expected):
                    out += Found(
                        problems=(
                            Problem(
                                "RLKL412",
                                f"{mention.text} is exempt as {{{slot.name}}}, which must be "
                                f"{expected}: {exemption.reason}",
                                mention,
                            ),
                        )
                    )
                out += Found(
                    roles=((mention.key, "exempt"),),
                    exempt=(Exempt(mention, exemption.reason, said, expected is not None),),
                )
    return out


def apply_exemptions(prose: Prose, bindings: Bindings | None, roles: Mapping[Key, str]) -> Found:
    """Mark the numbers matched by exemption templates (and check pinned values)."""
    seen = dict(roles)
    found = Found()
    for exemption in bindings.exemptions if bindings else []:
        found += _exempt(prose, exemption, seen)
    return found


def unaccounted(prose: Prose, roles: Mapping[Key, str]) -> tuple[Problem, ...]:
    """Every number that is neither checked nor exempt (RLKL410)."""
    return tuple(
        Problem(
            "RLKL410",
            f'the number {mention.text} in "{quote(prose.texts[mention.pointer], mention)}" is '
            "not accounted for: bind it in claims.yaml (checked) or exempt it with a reason",
            mention,
        )
        for mention in prose.mentions
        if mention.key not in roles
    )
