"""One lesson's result, as every consumer reads it: :class:`LessonReport`.

``rlkl check`` (diagnostics and counts), ``regen`` (its flags), ``rlkl claims`` (one row per
number), the pytest plugin (one item per claim) and the site (marked numbers, the report)
read this record and nothing else of the claim engine, so they cannot disagree, and each of
them gets it from the cache or a worker process as well as from a check in its own process
(it is plain data: :meth:`LessonReport.to_json` / :meth:`LessonReport.from_json`).

A number's status is decided here, once (:func:`number_status`), from the change records of
:mod:`rlkl.claims.fixtures.changes`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rlkl.claims.fixtures.changes import Change, up_to_date
from rlkl.claims.fixtures.recorded import canonical
from rlkl.claims.prose.source import locate
from rlkl.claims.records import Key, LessonClaims, PlotSpec, Range, Verdict
from rlkl.claims.status import Status
from rlkl.corpus import Facts
from rlkl.diagnostics import Diagnostic
from rlkl.loader import Document

__all__ = ["Check", "Equation", "LessonReport", "Number", "check_status",
           "number_status", "report_of"]

_TARGET = re.compile(r"^\s*([A-Za-z_]\w*)\s*(?:\[\s*(\d+)\s*\])?\s*=\s*(.+)$", re.DOTALL)


@dataclass(frozen=True)
class Check:
    """One checked number (a verdict of the claim engine) and how it stands."""

    id: str
    kind: str  # output, negative, condition, arithmetic, core, quiz-key, distractor, ...
    pointer: str
    start: int  # the number is ``text[start:end]`` of the prose string at ``pointer``
    end: int
    line: int  # 1-based, in the lesson file
    column: int
    text: str  # the number as written
    decimals: int  # its written precision
    expression: str
    inputs: Mapping[str, Any]  # as the fixtures record them (canonical floats)
    computed: Any
    ok: bool  # the prose agrees with what was computed
    reason: str  # why not ("" when ok)
    quote: str
    status: Status  # against the committed fixtures (:func:`check_status`)

    @property
    def claim(self) -> str:
        """The authored claim this check belongs to (``ppo-ratio.ratio@/x`` -> ``ppo-ratio``)."""
        return self.id.split("@")[0].split(".")[0]

    @property
    def target(self) -> tuple[str, int | None, str] | None:
        """For an output: the quantity it states, the element of a list output (``z[1]``) or
        None, and the expression computing the quantity; None for another kind."""
        match = _TARGET.match(self.expression) if self.kind == "output" else None
        if match is None:
            return None
        index = match.group(2)
        return match.group(1), int(index) if index is not None else None, match.group(3)


@dataclass(frozen=True)
class Number:
    """One numeric mention of the prose: its role, its status and the checks on it."""

    pointer: str
    start: int
    end: int
    line: int
    column: int
    text: str
    decimals: int
    role: str  # "output ratio", "input p_old", "quiz-key", "exempt", "" (unaccounted)
    status: Status  # :func:`number_status`
    checks: tuple[str, ...] = ()  # ids of the checks anchored on it, the number's own first
    reason: str = ""  # an exemption's reason
    quote: str = ""  # an exempt number's words around it
    pinned: bool = False  # exempt as a constant of a formula with its value (``equals:``)

    @property
    def exempt(self) -> bool:
        return bool(self.reason)


@dataclass(frozen=True)
class Equation:
    """One relation of a ``science[].equation`` and what became of it."""

    pointer: str
    line: int
    column: int
    relation: str  # its left-hand side
    status: Status  # verified | failed | exempt | unreadable | unbound
    detail: str  # the expression and point count, the exemption reason, or the problem


@dataclass(frozen=True)
class LessonReport:
    """Everything rlkl found in one lesson, as plain data (see the module docstring).

    ``failed``: a stage raised on the lesson (its one diagnostic is RLKL901). ``compared``:
    its fixtures were compared (not when its ``claims.yaml`` does not load). ``first_step``:
    what an author does before ``rlkl regen`` can act ("" when nothing: the bindings are
    usable). ``ambiguous`` / ``conflicting``: why ``regen --fix`` must not rewrite its
    numbers ("" when it may). ``current``: the committed fixtures already say exactly what
    ``regen`` would write.
    """

    path: str
    display: str
    id: str = ""
    diagnostics: tuple[Diagnostic, ...] = ()
    numbers: tuple[Number, ...] = ()
    checks: tuple[Check, ...] = ()
    changes: tuple[Change, ...] = ()
    equations: tuple[Equation, ...] = ()
    facts: Facts | None = None
    failed: bool = False
    compared: bool = False
    first_step: str = ""
    ambiguous: str = ""
    conflicting: str = ""
    current: bool = False
    counts: tuple[int, int, int] | None = None  # a summary's (claims, verified, exempt)
    explore: tuple[Range, ...] = ()  # the ranges claims.yaml declares for a page's controls
    plot: PlotSpec | None = None  # and the plot it declares
    mistakes: Mapping[int, str] = field(default_factory=dict)  # quiz.mistakes, by option
    _by_id: dict[str, Check] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        self._by_id.update((c.id, c) for c in self.checks)

    @property
    def summary(self) -> bool:
        """Whether this is a summary: its counts without the rows behind them (numbers,
        checks, changes and equations), as ``rlkl check`` reads a cached lesson; every
        other consumer asks the cache for the whole report."""
        return self.counts is not None

    def check(self, claim_id: str) -> Check | None:
        """The check of ``claim_id`` (None when the lesson has none)."""
        return self._by_id.get(claim_id)

    @property
    def claims(self) -> int:
        return self.counts[0] if self.counts is not None else len(self.checks)

    @property
    def verified(self) -> int:
        return self.counts[1] if self.counts is not None else sum(c.ok for c in self.checks)

    @property
    def exempt(self) -> int:
        return self.counts[2] if self.counts is not None else sum(n.exempt for n in self.numbers)

    @classmethod
    def failure(cls, path: str, display: str, diagnostic: Diagnostic) -> LessonReport:
        """A lesson that was not finished, with the diagnostic that says why."""
        return cls(path, display, diagnostics=(diagnostic,), failed=True)

    def to_json(self) -> dict[str, Any]:
        """The whole report: :meth:`summary_json` and :meth:`rows_json` in one."""
        return {**self.summary_json(), **self.rows_json()}

    def summary_json(self) -> dict[str, Any]:
        """Everything but the rows, with their counts (what :meth:`from_json` reads back as
        a :attr:`summary`)."""
        return {
            "path": self.path, "display": self.display, "id": self.id,
            "diagnostics": [d.to_json() for d in self.diagnostics],
            "facts": self.facts.to_json() if self.facts is not None else None,
            "failed": self.failed, "compared": self.compared, "first_step": self.first_step,
            "ambiguous": self.ambiguous, "conflicting": self.conflicting,
            "current": self.current, "counts": [self.claims, self.verified, self.exempt],
        }

    def rows_json(self) -> dict[str, Any]:
        """The rows: every number, check, change and equation record."""
        assert not self.summary, "a summary has no rows to write"
        return {
            "numbers": [_row(n) for n in self.numbers],
            "checks": [_row(c) for c in self.checks],
            "changes": [c.to_json() for c in self.changes],
            "equations": [_row(e) for e in self.equations],
            "explore": [[r.name, r.low, r.high, r.step] for r in self.explore],
            "plot": None if self.plot is None else [
                self.plot.x, self.plot.y, self.plot.x_label, self.plot.y_label],
            "mistakes": {str(i): text for i, text in self.mistakes.items()},
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> LessonReport:
        """The inverse of :meth:`to_json` (of :meth:`summary_json` alone: a summary);
        raises ``KeyError``/``TypeError``/``ValueError`` on other data."""
        facts = data["facts"]
        whole = "checks" in data
        counts = None if whole else tuple(int(n) for n in data["counts"])
        if counts is not None and len(counts) != 3:
            raise ValueError("counts are (claims, verified, exempt)")
        return cls(
            data["path"], data["display"], data["id"],
            tuple(Diagnostic.from_json(d) for d in data["diagnostics"]),
            tuple(Number(**{**n, "status": Status(n["status"]), "checks": tuple(n["checks"])})
                  for n in data["numbers"]) if whole else (),
            tuple(Check(**{**c, "status": Status(c["status"])}) for c in data["checks"])
            if whole else (),
            tuple(Change.from_json(c) for c in data["changes"]) if whole else (),
            tuple(Equation(**{**e, "status": Status(e["status"])}) for e in data["equations"])
            if whole else (),
            Facts.from_json(facts) if facts is not None else None,
            bool(data["failed"]), bool(data["compared"]), str(data["first_step"]),
            str(data["ambiguous"]), str(data["conflicting"]), data["current"] is True,
            counts,
            tuple(Range(str(n), _number(low), _number(high), _number(step))
                  for n, low, high, step in data["explore"]) if whole else (),
            _plot(data["plot"]) if whole else None,
            {int(i): str(text) for i, text in data["mistakes"].items()} if whole else {},
        )


def _plot(value: Any) -> PlotSpec | None:
    if not value:
        return None
    x, y, x_label, y_label = (str(v) for v in value)
    return PlotSpec(x, y, x_label, y_label)


def _number(value: Any) -> float | None:
    return None if value is None else float(value)


def _row(record: Any) -> dict[str, Any]:
    """A row as JSON: its fields, a status as its value, tuples as lists."""
    out = {}
    for name in record.__dataclass_fields__:
        value = getattr(record, name)
        out[name] = value.value if isinstance(value, Status) else (
            list(value) if isinstance(value, tuple) else value)
    return out


def check_status(ok: bool, change: Change | None, compared: bool, missing: bool) -> Status:
    """How one check stands: ``failed`` when the prose disagrees, whatever the fixtures say;
    else its change's status. Without a change of its own: ``missing`` when the lesson has
    no fixtures file, ``new`` when its fixtures were compared, else (not compared: its
    ``claims.yaml`` does not load) ``verified``, the verdict alone."""
    if not ok:
        return Status.FAILED
    if change is not None:
        return change.status
    if missing:
        return Status.MISSING
    return Status.NEW if compared else Status.VERIFIED


def number_status(role: str, checks: Sequence[Status], exempt: Status | None) -> Status:
    """The one rule of a number's status.

    An exempt number (``exempt`` is the status of its fixture entry) is ``exempt`` when that
    entry is verified, else that status. Otherwise ``failed`` when a check anchored on it
    fails; else the first status of those checks that is not ``verified`` (``new``,
    ``stale``, ``drift``, ``missing``); else ``input`` for an input or intermediate,
    ``verified`` when it has checks, ``unaccounted`` when it has none.
    """
    if exempt is not None:
        return Status.EXEMPT if exempt is Status.VERIFIED else exempt
    if Status.FAILED in checks:
        return Status.FAILED
    pending = [s for s in checks if s is not Status.VERIFIED]
    if pending:
        return pending[0]
    if role.startswith(("input", "intermediate")):
        return Status.INPUT
    return Status.VERIFIED if checks else Status.UNACCOUNTED


@dataclass(frozen=True)
class Flags:
    """What the lesson's diagnostics mean for ``regen`` (see :class:`LessonReport`)."""

    compared: bool = False
    first_step: str = ""
    ambiguous: str = ""
    conflicting: str = ""


def report_of(
    document: Document,
    claims: LessonClaims,
    changes: Sequence[Change] | None,
    diagnostics: Sequence[Diagnostic],
    facts: Facts | None,
    flags: Flags,
) -> LessonReport:
    """The report of one checked lesson. ``changes`` is None when its fixtures were not
    compared; ``diagnostics`` are all of the lesson's own (bindings, claims, fixtures)."""
    compared = changes is not None
    changes = tuple(changes or ())
    missing = any(c.status is Status.MISSING for c in changes)
    of_claim = {c.id: c for c in changes if c.subject == "claim"}
    of_exempt = {c.exempt.mention.key: c.status for c in changes if c.exempt is not None}
    checks = tuple(_check(document, v, check_status(v.ok, of_claim.get(v.id), compared, missing))
                   for v in claims.verdicts)
    by_mention: dict[Key, list[Check]] = {}
    for verdict, check in zip(claims.verdicts, checks, strict=True):
        by_mention.setdefault(verdict.mention.key, []).append(check)
    exempt = {e.mention.key: e for e in claims.exempt}
    numbers = []
    for mention in claims.mentions:
        role = claims.roles.get(mention.key, "")
        on_it = by_mention.get(mention.key, [])
        made = exempt.get(mention.key)
        fixed = None  # the status of its exemption's fixture entry
        if made is not None:
            fixed = of_exempt.get(mention.key) or check_status(True, None, compared, missing)
        line, column = locate(document, mention)
        numbers.append(Number(
            mention.pointer, mention.start, mention.end, line, column, mention.text,
            mention.decimals, role, number_status(role, [c.status for c in on_it], fixed),
            tuple(c.id for c in on_it), made.reason if made else "", made.quote if made else "",
            made.pinned if made else False))
    equations = tuple(Equation(r.pointer, *document.locate(r.pointer), r.relation, r.status,
                               r.detail) for r in claims.equations)
    stripped = tuple(Change(c.status, c.subject, c.id, index=c.index, fields=c.fields,
                            recorded=c.recorded, computed=c.computed, current=c.current,
                            text=c.text) for c in changes)
    return LessonReport(
        str(document.path), document.display, claims.lesson_id, tuple(diagnostics),
        tuple(numbers), checks, stripped, equations, facts, False, compared,
        flags.first_step, flags.ambiguous, flags.conflicting,
        compared and bool(changes) and up_to_date(changes), explore=claims.explore,
        plot=claims.plot, mistakes=claims.mistakes)


def _check(document: Document, verdict: Verdict, status: Status) -> Check:
    mention = verdict.mention
    line, column = locate(document, mention)
    return Check(verdict.id, verdict.kind, mention.pointer, mention.start, mention.end, line,
                 column, mention.text, mention.decimals, verdict.expression,
                 canonical(dict(verdict.inputs)), canonical(verdict.computed), verdict.ok,
                 verdict.reason, verdict.quote, status)
