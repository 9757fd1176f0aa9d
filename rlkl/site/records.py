"""The site's view of one ``rlkl check`` run — the only module that reads check results.

Every other site module uses the small frozen records defined here, never the claim engine's
own types, so the engine can change shape behind this one adapter. The site runs exactly the
check ``rlkl check`` runs (:func:`rlkl.check.check_paths`, freshness included, no cache; each
lesson's records are converted where it was checked), and a claim's status is the one its
:class:`rlkl.claims.changes.Change` record gives: there is one definition of "verified".

Status of a number (the rule of ``rlkl claims``, :mod:`rlkl.claims.listing`): for an exempt
number ``exempt`` when its fixture entry is verified, else that change's status; otherwise
``failed`` when a check anchored on it fails; else the first non-verified change status of
those checks (``new``, ``stale``, ``drift``, ``missing``); else ``input`` (read from the prose,
or an intermediate of worked arithmetic), ``verified`` (every check on it verified), or
``unaccounted``. The core version shown is :data:`rlkl.core.CORE_VERSION`.
"""

from __future__ import annotations

import ast
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rlkl.check import LessonRun, check_paths
from rlkl.claims.changes import Change, Status
from rlkl.claims.records import Key, Verdict
from rlkl.claims.source import line_column, mention_range
from rlkl.core import CORE_VERSION
from rlkl.diagnostics import Severity
from rlkl.models import Lesson
from rlkl.render import render

VERIFIED, FAILED, INPUT, EXEMPT, UNACCOUNTED = (
    "verified",
    "failed",
    "input",
    "exempt",
    "unaccounted",
)


# claim kinds whose number is a stated wrong value (the check is that it differs)
WRONG_ON_PURPOSE = frozenset({"negative", "distractor", "misconception"})


@dataclass(frozen=True)
class Mark:
    """One number in a prose string, ``text[start:end]``, with its status and what it means."""

    start: int
    end: int
    text: str
    status: str  # verified | failed | new | stale | drift | missing | input | exempt | unaccounted
    detail: str  # shown on hover and focus: what was computed, from what, at what precision


@dataclass(frozen=True)
class ClaimRow:
    """One checked claim, as the verification report lists it."""

    lesson: str
    claim: str
    kind: str
    file: str
    line: int
    column: int
    pointer: str
    text: str  # the number as written
    expression: str
    computed: str
    status: str  # the claim's change status: verified | failed | new | stale | drift | missing
    quote: str

    @property
    def name(self) -> str:
        """The claim id without its ``@pointer`` suffix (the report shows the pointer apart)."""
        head, at, pointer = self.claim.rpartition("@")
        return head if at and pointer == self.pointer else self.claim


@dataclass(frozen=True)
class ExemptRow:
    """One exempt number and its written reason."""

    lesson: str
    pointer: str
    text: str
    reason: str
    quote: str


@dataclass(frozen=True)
class PpoPoint:
    """The lesson's worked PPO sample: ratio, advantage and clip range (for plot and controls)."""

    ratio: float
    advantage: float
    epsilon: float
    p_old: float | None = None
    p_new: float | None = None


@dataclass(frozen=True)
class LessonRecord:
    """A checked lesson: its model, where it came from, and every number marked."""

    lesson: Lesson
    source: str  # the file as diagnostics name it
    marks: Mapping[str, tuple[Mark, ...]]  # prose JSON pointer -> its marked numbers
    verified: int
    exempt: int
    ppo: PpoPoint | None
    located: Mapping[str, tuple[int, int]]  # /science/i/equation -> 1-based (line, column)


@dataclass(frozen=True)
class CatalogItem:
    """One catalog entry (published or planned)."""

    id: str
    title: str
    status: str
    summary: str


@dataclass(frozen=True)
class SiteCheck:
    """Everything the site needs from one check of the content folder."""

    lessons: tuple[LessonRecord, ...]
    catalog: tuple[CatalogItem, ...]
    claims: tuple[ClaimRow, ...]
    exempt: tuple[ExemptRow, ...]
    core_version: str
    summary: Mapping[str, int]
    errors: int
    report: str  # the located diagnostics, as ``rlkl check`` prints them (text format)


def _show(value: Any) -> str:
    """A computed value for people: up to 12 significant digits, lists and flags as written."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    if hasattr(value, "tolist"):
        return _show(value.tolist())
    if isinstance(value, (int, float)):
        number = float(value)
        if math.isnan(number) or math.isinf(number):
            return str(number)
        return f"{number:.12g}"
    return str(value)


def _claim(verdict_id: str) -> str:
    """The authored claim a check belongs to (``ppo-ratio.ratio@/x`` -> ``ppo-ratio``)."""
    return verdict_id.split("@")[0].split(".")[0]


def _inputs(inputs: Mapping[str, Any]) -> str:
    return ", ".join(f"{name} = {_show(value)}" for name, value in inputs.items())


def _precision(decimals: int) -> str:
    return "an exact zero" if decimals == 0 else f"{decimals} decimal{'s' * (decimals != 1)}"


def _verdict_detail(verdicts: Sequence[Verdict]) -> str:
    """What the checks anchored on one number computed (the first is the number's own)."""
    main = verdicts[0]
    mention = main.mention
    written = "an integer (±0.5)" if mention.decimals == 0 else _precision(mention.decimals)
    parts = [f"{main.kind} ({_claim(main.id)}): {main.expression}"]
    if main.inputs:
        parts.append(f"with {_inputs(main.inputs)}")
    if main.kind in WRONG_ON_PURPOSE:
        parts.append(f"computed {_show(main.computed)}; the written {mention.text} is meant "
                     f"to be wrong and differs from it at {written}")
    else:
        parts.append(f"computed {_show(main.computed)}; written {mention.text} at {written}")
    text = " ".join(parts)
    if len(verdicts) > 1:
        text += f"; {len(verdicts) - 1} more check{'s' * (len(verdicts) > 2)} on this number hold"
    if not all(v.ok for v in verdicts):
        text += "; FAILS: " + "; ".join(v.reason for v in verdicts if not v.ok)
    return text


def _right_side(expression: str) -> str:
    """``ratio = ppo_ratio(...)`` -> ``ppo_ratio(...)``; a bare expression as it is."""
    name, sep, rest = expression.partition(" = ")
    return rest.strip() if sep and name.strip().isidentifier() else expression.strip()


def _ppo_point(verdicts: Sequence[Verdict]) -> PpoPoint | None:
    """The first ``ppo_clip_objective(r, A, eps)`` claim with its arguments read from inputs."""
    for verdict in verdicts:
        try:
            tree = ast.parse(_right_side(verdict.expression), mode="eval")
        except SyntaxError:
            continue
        call = tree.body
        if not (
            isinstance(call, ast.Call)
            and isinstance(call.func, ast.Name)
            and call.func.id == "ppo_clip_objective"
            and len(call.args) == 3
            and all(isinstance(a, ast.Name) and a.id in verdict.inputs for a in call.args)
        ):
            continue
        values = [verdict.inputs[a.id] for a in call.args if isinstance(a, ast.Name)]
        try:
            ratio, advantage, epsilon = (float(v) for v in values)
        except (TypeError, ValueError):
            continue
        return PpoPoint(ratio, advantage, epsilon, *_probabilities(verdicts, ratio))
    return None


def _probabilities(
    verdicts: Sequence[Verdict], ratio: float
) -> tuple[float | None, float | None]:
    """The probabilities a lesson derives this ratio from (``ppo_ratio(log(p), log(q))``)."""
    for verdict in verdicts:
        expression = _right_side(verdict.expression)
        if expression.startswith("ppo_ratio") and math.isclose(
            float(verdict.computed), ratio, rel_tol=1e-12
        ):
            names = [n.id for n in ast.walk(ast.parse(expression, mode="eval"))
                     if isinstance(n, ast.Name) and n.id in verdict.inputs]
            if len(names) == 2:
                return float(verdict.inputs[names[1]]), float(verdict.inputs[names[0]])
    return None, None


def claim_statuses(run: LessonRun) -> dict[str, Status]:
    """Claim id -> its status from the lesson's change records (``rlkl check``'s judgement).

    A claim without a claim-level change takes the file-level one when the fixtures file is
    missing; a failing verdict is ``failed`` whatever the fixtures say (as ``rlkl claims``).
    """
    of_claim = {c.id: c.status for c in run.changes if c.subject == "claim"}
    missing = any(c.status is Status.MISSING for c in run.changes)
    fallback = Status.MISSING if missing else Status.NEW
    return {
        v.id: Status.FAILED if not v.ok else of_claim.get(v.id, fallback)
        for v in run.claims.verdicts
    }


def _exempt_statuses(changes: Sequence[Change]) -> dict[Key, Status]:
    return {c.exempt.mention.key: c.status for c in changes if c.exempt is not None}


def _lesson_record(run: LessonRun) -> tuple[LessonRecord, list[ClaimRow], list[ExemptRow]]:
    claims = run.claims
    lesson = run.file.lesson
    assert lesson is not None  # only schema-valid lessons have runs
    document = run.document
    by_mention: dict[tuple[str, int], list[Verdict]] = {}
    for verdict in claims.verdicts:
        by_mention.setdefault(verdict.mention.key, []).append(verdict)
    exempt = {e.mention.key: e for e in claims.exempt}
    status_of = claim_statuses(run)
    exempt_status = _exempt_statuses(run.changes)
    users: dict[str, list[str]] = {}
    for verdict in claims.verdicts:
        for name in verdict.inputs:
            if _claim(verdict.id) not in users.setdefault(name, []):
                users[name].append(_claim(verdict.id))

    marks: dict[str, list[Mark]] = {}
    for mention in claims.mentions:
        role = claims.roles.get(mention.key, "")
        verdicts = by_mention.get(mention.key, [])
        pending = [status_of[v.id] for v in verdicts if status_of[v.id] is not Status.VERIFIED]
        if mention.key in exempt:
            fixed = exempt_status.get(mention.key, Status.MISSING)
            status = EXEMPT if fixed is Status.VERIFIED else fixed.value
            detail = f"exempt: {exempt[mention.key].reason}"
            if status != EXEMPT:
                detail += f" ({status.upper()} in the fixtures: run `rlkl regen`)"
        elif Status.FAILED in pending:
            status, detail = FAILED, "FAILED " + _verdict_detail(verdicts)
        elif pending:
            status = pending[0].value
            detail = f"{status.upper()} fixture (run `rlkl regen`): " + _verdict_detail(verdicts)
        elif role.startswith("input"):
            name = role.partition(" ")[2]
            claims_using = users.get(name, [])
            used = ", ".join(claims_using[:3]) + (
                f" and {len(claims_using) - 3} more" if len(claims_using) > 3 else ""
            )
            status = INPUT
            detail = f"input {name} = {mention.text} (exact), used by {used or 'its sentence'}"
        elif role.startswith("intermediate"):
            status = INPUT
            detail = "intermediate of the worked arithmetic around it, checked with that result"
        elif verdicts:
            status, detail = VERIFIED, "verified " + _verdict_detail(verdicts)
        else:
            status, detail = UNACCOUNTED, "UNACCOUNTED: neither checked nor exempt"
        marks.setdefault(mention.pointer, []).append(
            Mark(mention.start, mention.end, mention.text, status, detail)
        )
    rows = []
    for verdict in claims.verdicts:
        start, _ = mention_range(document, verdict.mention)
        line, column = line_column(document.text, start)
        rows.append(
            ClaimRow(
                lesson.id,
                verdict.id,
                verdict.kind,
                document.display,
                line,
                column,
                verdict.mention.pointer,
                verdict.mention.text,
                verdict.expression,
                _show(verdict.computed),
                status_of[verdict.id].value,
                verdict.quote,
            )
        )
    exempt_rows = [
        ExemptRow(lesson.id, e.mention.pointer, e.mention.text, e.reason, e.quote)
        for e in claims.exempt
    ]
    record = LessonRecord(
        lesson,
        document.display,
        {pointer: tuple(sorted(ms, key=lambda m: m.start)) for pointer, ms in marks.items()},
        sum(status_of[v.id] is Status.VERIFIED for v in claims.verdicts),
        len(claims.exempt),
        _ppo_point(claims.verdicts),
        {
            f"/science/{i}/equation": document.locate(f"/science/{i}/equation")
            for i in range(len(lesson.science))
        },
    )
    return record, rows, exempt_rows


def _catalog(content: Path) -> tuple[CatalogItem, ...]:
    path = content / "catalog.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return ()  # a missing or broken catalog is already a check diagnostic
    entries = data.get("lessons", []) if isinstance(data, dict) else []
    return tuple(
        CatalogItem(str(e["id"]), str(e["title"]), str(e["status"]), str(e.get("summary") or ""))
        for e in entries
        if isinstance(e, dict) and {"id", "title", "status"} <= e.keys()
    )


def check_site(content: Path, *, jobs: int = 1) -> SiteCheck:
    """Run ``rlkl check`` on ``content`` once and convert its results for the site.

    No cache (a cached lesson has counts only, and a page needs every record of its lesson).
    With ``jobs`` > 1 a large corpus is checked across processes, each converting its
    lessons' records (:func:`_lesson_record` as the check's ``view``).
    """
    result = check_paths([content], jobs=jobs, view=_lesson_record)
    lessons, claims, exempt = [], [], []
    for record, rows, exempt_rows in result.views:
        lessons.append(record)
        claims.extend(rows)
        exempt.extend(exempt_rows)
    summary = result.summary()
    errors = sum(d.severity is Severity.ERROR for d in result.diagnostics)
    return SiteCheck(
        tuple(sorted(lessons, key=lambda r: r.lesson.id)),
        _catalog(content),
        tuple(claims),
        tuple(exempt),
        CORE_VERSION,
        summary,
        errors,
        render(result.diagnostics, summary, "text"),
    )
