"""What ``claims.yaml`` holds, once read: the claims, exemptions, quiz and equation bindings,
each with the position it was written at (:mod:`rlkl.claims.bindings.reader` builds them)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rlkl.claims.records import Located, PlotSpec, Range
from rlkl.claims.templates import slots
from rlkl.diagnostics import Diagnostic

FILENAME = "claims.yaml"


@dataclass(frozen=True)
class Template:
    """One ``says`` sentence: where it must match, and its slots."""

    says: str
    pointers: tuple[str, ...]  # empty: every prose field
    where: Located

    @property
    def slots(self) -> list[tuple[str, str]]:
        """(name, kind) of each slot, in order (repeats included); kind is number/list/unit."""
        return [(slot.name, slot.kind) for slot in slots.slots(self.says)]


@dataclass(frozen=True)
class Claim:
    """One authored claim: a sentence template, its outputs, negatives and conditions."""

    id: str
    template: Template
    outputs: dict[str, tuple[str, Located]]  # slot -> (expression, where it is written)
    negatives: dict[str, tuple[str, Located]]
    holds: list[tuple[str, Located]]
    where: Located


@dataclass(frozen=True)
class Exemption:
    """Numbers matched by a template that are not recomputed, with the reason."""

    template: Template
    reason: str
    equals: dict[str, str]  # slot -> the value it must have, as written in the bindings


@dataclass(frozen=True)
class Quiz:
    """How the check question is answered: the key and, optionally, each distractor's mistake."""

    answer: tuple[str, Located]
    distractors: dict[int, tuple[str, Located]]
    mistakes: dict[int, tuple[str, Located]] = field(default_factory=dict)  # in words


@dataclass(frozen=True)
class EquationBinding:
    """How one relation of a ``science[].equation`` is checked (or why it is exempt)."""

    pointer: str  # /science/N/equation
    relation: str | None  # its left-hand side as written; None: the whole equation
    expression: str | None  # what it must equal, over the equation's symbols
    grid: dict[str, list[Any]]
    worked: dict[str, str]  # symbol -> lesson quantity
    exempt: str | None  # the reason, when exempt
    where: Located


_NO_LESSON_KEY = Located("/lesson", 1, 1)


@dataclass
class Bindings:
    """A parsed, schema-valid ``claims.yaml`` with the position of everything in it."""

    path: Path
    display: str
    claims: list[Claim] = field(default_factory=list)
    exemptions: list[Exemption] = field(default_factory=list)
    quiz: Quiz | None = None
    lesson: str | None = None
    lesson_at: Located = _NO_LESSON_KEY  # where ``lesson:`` is written
    equations: list[EquationBinding] = field(default_factory=list)
    explore: list[Range] = field(default_factory=list)
    plot: PlotSpec | None = None

    def diagnostic(self, at: Located, code: str, message: str) -> Diagnostic:
        return Diagnostic(self.display, at.line, at.column, at.pointer, code, message)


class BindingsError(Exception):
    """The bindings file cannot be used; ``diagnostics`` says where and why."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        super().__init__("; ".join(d.message for d in diagnostics))
        self.diagnostics = diagnostics
