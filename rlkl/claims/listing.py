"""Every numeric mention of checked lessons with its role and status (``rlkl claims``).

Rows of :class:`~rlkl.claims.report.LessonReport` records, as they are: the status is the
report's (:func:`rlkl.claims.report.number_status`), shown upper case where an author has to
act (:attr:`~rlkl.claims.status.Status.shown`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any

from rlkl.claims.report import LessonReport
from rlkl.claims.status import Status


@dataclass(frozen=True)
class MentionRow:
    """One numeric mention (or equation relation) as ``rlkl claims`` lists it."""

    file: str
    line: int
    column: int
    pointer: str
    text: str
    role: str  # e.g. "output ratio", "input p_old", "quiz-key", "exempt", "equation = ..."
    status: str  # verified | FAILED | STALE | NEW | DRIFT | MISSING | input | exempt | ...
    reason: str  # an exemption's reason (an equation's: the problem)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def mention_rows(reports: Iterable[LessonReport]) -> list[MentionRow]:
    """One row per numeric mention, in document order.

    An *input* is read from the prose and feeds the checks of the numbers computed from it;
    its row says ``input`` unless a check anchored on it fails.
    """
    return [
        MentionRow(report.display, n.line, n.column, n.pointer, n.text, n.role or "-",
                   n.status.shown, n.reason)
        for report in reports for n in report.numbers
    ]


def equation_rows(reports: Iterable[LessonReport]) -> list[MentionRow]:
    """One row per relation of every lesson's equations
    (:mod:`rlkl.claims.equations.equations`); the ``text`` is the relation's left-hand side."""
    rows = []
    for report in reports:
        for e in report.equations:
            verified = e.status is Status.VERIFIED
            rows.append(MentionRow(
                report.display, e.line, e.column, e.pointer, e.relation,
                f"equation = {e.detail}" if verified else "equation", e.status.shown,
                "" if verified else e.detail))
    return rows


@dataclass(frozen=True)
class EquationShare:
    """How many of the listed equation relations are verified against the core."""

    verified: int
    exempt: int
    total: int  # verified, exempt and those that fail, cannot be read or are unbound

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    def line(self) -> str:
        """``equations: 31 of 40 relations verified (78%), 9 exempt``."""
        percent = f" ({100 * self.verified / self.total:.0f}%)" if self.total else ""
        others = self.total - self.verified - self.exempt
        rest = f", {others} failing or unchecked" if others else ""
        return (f"equations: {self.verified} of {self.total} relations verified{percent}, "
                f"{self.exempt} exempt{rest}")


def equation_share(rows: Iterable[MentionRow]) -> EquationShare:
    """How much of :func:`equation_rows` is verified: the line ``rlkl claims`` ends with."""
    statuses = [r.status for r in rows]
    return EquationShare(statuses.count(Status.VERIFIED.shown),
                         statuses.count(Status.EXEMPT.shown), len(statuses))
