"""Stage 2, match bindings: find each authored template in the prose.

:func:`occurrences` finds one template; :func:`match_claims` all claims of a bindings file.
Problems (a sentence not found, a slot without exactly one number) are returned, located at
the binding.
"""

from __future__ import annotations

from dataclasses import dataclass

from rlkl.claims.bindings.model import Bindings, Claim, Template
from rlkl.claims.records import Problem, Prose
from rlkl.claims.templates import matching


@dataclass(frozen=True)
class Matched:
    """One authored claim and the places its sentence was found (usable ones only)."""

    claim: Claim
    occurrences: tuple[matching.Occurrence, ...]


def _found(prose: Prose, template: Template) -> tuple[list[matching.Occurrence], list[Problem]]:
    at = template.where
    pointers = template.pointers or tuple(prose.texts)
    found: list[matching.Occurrence] = []
    problems: list[Problem] = []
    for pointer in pointers:
        if pointer not in prose.texts:
            problems.append(
                Problem("RLKL607", f"{pointer} is not a prose field of this lesson", at=at)
            )
            continue
        hits = matching.find(
            template.says, pointer, prose.texts[pointer], list(prose.by_pointer[pointer])
        )
        if template.pointers and not hits:
            problems.append(
                Problem("RLKL607", f"the sentence {template.says!r} is not in {pointer}", at=at)
            )
        found.extend(hits)
    if not template.pointers and not found:
        problems.append(
            Problem("RLKL607", f"the sentence {template.says!r} is not in the lesson", at=at)
        )
    return found, problems


def occurrences(
    prose: Prose, template: Template
) -> tuple[tuple[matching.Occurrence, ...], tuple[Problem, ...]]:
    """Where ``template`` matches with one number per number slot; problems for the rest."""
    found, problems = _found(prose, template)
    usable = []
    for occurrence in found:
        bad = [
            s.name
            for s in occurrence.slots
            if s.kind != "unit"
            and (not s.mentions or (s.kind == "number" and len(s.mentions) != 1))
        ]
        problems.extend(
            Problem(
                "RLKL607",
                f"slot {{{name}}} did not match one number in {occurrence.pointer}",
                at=template.where,
            )
            for name in bad
        )
        if not bad:
            usable.append(occurrence)
    return tuple(usable), tuple(problems)


def match_claims(
    prose: Prose, bindings: Bindings | None
) -> tuple[tuple[Matched, ...], tuple[Problem, ...]]:
    """Every authored claim with its occurrences, in file order."""
    matched: list[Matched] = []
    problems: list[Problem] = []
    for claim in bindings.claims if bindings else []:
        found, found_problems = occurrences(prose, claim.template)
        matched.append(Matched(claim, found))
        problems.extend(found_problems)
    return tuple(matched), tuple(problems)
