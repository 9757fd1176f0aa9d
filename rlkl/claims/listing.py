"""Every numeric mention of checked lessons with its role and status (``rlkl claims``)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from rlkl.claims.pipeline import CheckResult
from rlkl.claims.source import line_column, mention_range

# status: how the number is accounted for
VERIFIED, FAILED, INPUT, EXEMPT, UNACCOUNTED = (
    "verified",
    "FAILED",
    "input",
    "exempt",
    "UNACCOUNTED",
)


@dataclass(frozen=True)
class MentionRow:
    """One numeric mention as ``rlkl claims`` lists it."""

    file: str
    line: int
    column: int
    pointer: str
    text: str
    role: str  # e.g. "output ratio", "input p_old", "quiz-key", "exempt"
    status: str  # verified | FAILED | input | exempt | UNACCOUNTED
    reason: str  # an exemption's reason

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def mention_rows(result: CheckResult) -> list[MentionRow]:
    """One row per numeric mention, in document order.

    An *input* is read from the prose and feeds the checks of the numbers computed from it;
    its row says ``input`` unless a check anchored on it fails.
    """
    rows = []
    for run in result.lessons:
        outcomes: dict[tuple[str, int], list[bool]] = {}
        for verdict in run.claims.verdicts:
            outcomes.setdefault(verdict.mention.key, []).append(verdict.ok)
        reasons = {e.mention.key: e.reason for e in run.claims.exempt}
        for mention in run.claims.mentions:
            role = run.claims.roles.get(mention.key, "")
            results = outcomes.get(mention.key, [])
            if mention.key in reasons:
                status = EXEMPT
            elif not all(results):
                status = FAILED
            elif role.startswith(("input", "intermediate")):
                status = INPUT
            elif results:
                status = VERIFIED
            else:
                status = UNACCOUNTED
            start, _ = mention_range(run.document, mention)
            line, column = line_column(run.document.text, start)
            rows.append(
                MentionRow(
                    run.document.display,
                    line,
                    column,
                    mention.pointer,
                    mention.text,
                    role or "-",
                    status,
                    reasons.get(mention.key, ""),
                )
            )
    return rows


_EQUATION_STATUS = {"verified": VERIFIED, "exempt": EXEMPT, "UNBOUND": UNACCOUNTED}


def equation_rows(result: CheckResult) -> list[MentionRow]:
    """One row per relation of every lesson's equations (:mod:`rlkl.claims.equations`); the
    ``text`` is the relation's left-hand side."""
    rows = []
    pairs = [(lesson, r) for lesson in result.lessons for r in lesson.claims.equations]
    for run, record in pairs:
        line, column = run.document.locate(record.pointer)
        status = _EQUATION_STATUS.get(record.status, FAILED)
        role = "equation" + (f" = {record.detail}" if status == VERIFIED else "")
        reason = record.detail if status in (EXEMPT, FAILED) else ""
        rows.append(
            MentionRow(
                run.document.display, line, column, record.pointer, record.relation, role,
                status, reason,
            )
        )
    return rows
