"""The records the claim stages hand each other. All frozen; no stage keeps state.

scan → :class:`~rlkl.claims.prose.scanner.Mention` · match → :class:`Prose` plus matched
templates · evaluate → :class:`Verdict` / :class:`Exempt` / :class:`Problem` (collected in
:class:`Found`) · one lesson → :class:`LessonClaims`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from rlkl.claims.prose.scanner import Mention
from rlkl.claims.status import Status
from rlkl.diagnostics import Diagnostic

Key = tuple[str, int]  # (pointer, start) of a mention


ASKED = ("/check/", "/misconception")
"""Pointer prefixes of the check question and its misconceptions: what a page asks rather
than shows (its script and explorable example leave them out)."""


@dataclass(frozen=True)
class Located:
    """A value from the bindings file with its pointer and 1-based position."""

    pointer: str
    line: int
    column: int


@dataclass(frozen=True)
class Range:
    """An ``explore`` entry: the points a page's control for one input runs over
    (``low``, ``low + step``, … up to ``high``), or none when the input is ``fixed``."""

    name: str
    low: float | None
    high: float | None
    step: float | None  # None: fixed (a number of a formula, not a choice)
    where: Located = field(default=Located("", 0, 0), compare=False)  # "" from a report

    @property
    def fixed(self) -> bool:
        return self.step is None


@dataclass(frozen=True)
class PlotSpec:
    """The ``plot:`` of ``claims.yaml``: the output ``y`` a page draws against the input
    ``x`` over ``x``'s range, with the axes' labels (units included)."""

    x: str
    y: str
    x_label: str = ""
    y_label: str = ""
    where: Located = field(default=Located("", 0, 0), compare=False)  # "" from a report


@dataclass(frozen=True)
class Prose:
    """The prose of one lesson: every prose string by pointer and its numeric mentions."""

    lesson_id: str
    data: Mapping[str, Any]
    texts: Mapping[str, str]
    by_pointer: Mapping[str, tuple[Mention, ...]]

    @property
    def mentions(self) -> tuple[Mention, ...]:
        return tuple(m for ms in self.by_pointer.values() for m in ms)


@dataclass(frozen=True)
class Problem:
    """A finding of a stage, located at a mention of the lesson or at a binding."""

    code: str
    message: str
    mention: Mention | None = None
    at: Located | None = None


@dataclass(frozen=True)
class Verdict:
    """One checked number: what was computed, from what, and whether the prose agrees.

    ``kind`` is one of output, negative, condition, arithmetic, core, quiz-key, distractor,
    misconception; ``reason`` says why it fails ("" when ``ok``).
    """

    id: str
    kind: str
    mention: Mention
    expression: str
    inputs: Mapping[str, Any]
    computed: Any
    ok: bool
    reason: str
    quote: str


@dataclass(frozen=True)
class Exempt:
    """An exempt number, the reason, and the words around it; ``pinned``: a constant of a
    formula whose value the exemption states (``equals:``, the 1 of r − 1)."""

    mention: Mention
    reason: str
    quote: str
    pinned: bool = False


class Found(NamedTuple):
    """What one stage found. ``roles`` are assigned first-wins, in order.

    A named tuple, not a frozen dataclass as the other records: a lesson makes ~280 of them
    (a stage adds its parts one by one), and a tuple is built in a third of the time."""

    verdicts: tuple[Verdict, ...] = ()
    problems: tuple[Problem, ...] = ()
    roles: tuple[tuple[Key, str], ...] = ()
    rewrites: tuple[tuple[Key, float], ...] = ()  # output mention -> computed value (--fix)
    exempt: tuple[Exempt, ...] = ()

    def __add__(self, other: Found) -> Found:  # type: ignore[override]
        return Found(
            self.verdicts + other.verdicts,
            self.problems + other.problems,
            self.roles + other.roles,
            self.rewrites + other.rewrites,
            self.exempt + other.exempt,
        )


def assign_roles(roles: Mapping[Key, str], assigned: tuple[tuple[Key, str], ...]) -> dict[Key, str]:
    """``roles`` plus ``assigned``, where a mention keeps the first role it was given."""
    out = dict(roles)
    for key, role in assigned:
        out.setdefault(key, role)
    return out


@dataclass(frozen=True)
class EquationRecord:
    """What became of one relation: its status and what was compared (for reports)."""

    pointer: str
    relation: str
    status: Status  # verified | failed | exempt | unreadable | unbound
    detail: str  # the expression and point count, the exemption reason, or the problem

    def to_json(self) -> dict[str, str]:
        return {
            "pointer": self.pointer,
            "relation": self.relation,
            "status": self.status.value,
            "detail": self.detail,
        }


@dataclass(frozen=True)
class LessonClaims:
    """Everything rlkl found and checked in one lesson."""

    lesson_id: str
    mentions: tuple[Mention, ...]
    verdicts: tuple[Verdict, ...] = ()
    exempt: tuple[Exempt, ...] = ()
    roles: Mapping[Key, str] = field(default_factory=dict)
    diagnostics: tuple[Diagnostic, ...] = ()
    rewrites: Mapping[Key, float] = field(default_factory=dict)
    # one record per relation of every science[].equation (rlkl.claims.equations.equations)
    equations: tuple[EquationRecord, ...] = ()
    # the authors' function modules its expressions called, with their versions
    functions: Mapping[str, str] = field(default_factory=dict)
    # the ranges its bindings declare for a page's controls (``explore:``) and its plot
    explore: tuple[Range, ...] = ()
    plot: PlotSpec | None = None
    mistakes: Mapping[int, str] = field(default_factory=dict)  # quiz.mistakes, by option
