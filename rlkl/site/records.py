"""The site's view of one ``rlkl check`` run — the only module that reads check results.

Every other site module uses the small frozen records defined here, never the claim engine's
own types, so the engine can change shape behind this one adapter. The site runs exactly the
check ``rlkl check`` runs (:func:`rlkl.check.check_paths`, with its cache and process pool)
and reads each lesson's :class:`~rlkl.claims.report.LessonReport`: a number's status is the
report's (:func:`rlkl.claims.report.number_status`, the rule of ``rlkl claims`` and the
pytest plugin too), so there is one definition of "verified". The core version shown is
:data:`rlkl.core.CORE_VERSION`.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from rlkl.cache import Cache, report_fingerprint
from rlkl.check import check_lesson, check_paths
from rlkl.claims.evaluation.expr import PROSE_OPERATORS
from rlkl.claims.explore import Knob, Plot, explored, read_explored
from rlkl.claims.prose.fields import prose_strings
from rlkl.claims.records import ASKED
from rlkl.claims.report import Check, LessonReport, Number
from rlkl.claims.script import lesson_script
from rlkl.claims.status import Status
from rlkl.core import CORE_VERSION
from rlkl.diagnostics import Severity
from rlkl.loader import Document
from rlkl.models import Lesson
from rlkl.pool import map_values
from rlkl.render import render
from rlkl.rules import Rules
from rlkl.shown import PAGE, shown
from rlkl.site.code import core_function
from rlkl.validate import LessonFile

T = TypeVar("T")

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
    n: int | None = None  # when a control moves it: its index in the report (and the data)


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
class Control:
    """One input a learner can change on the page: its range's points as the prose writes
    the input, the authored one at ``at``, and the words the prose introduces it with."""

    name: str
    label: str
    texts: tuple[str, ...]
    at: int


@dataclass(frozen=True)
class Chart:
    """The page's plot (:class:`rlkl.claims.explore.Plot`), as the SVG draws it."""

    x_label: str
    y_label: str
    xs: tuple[float, ...]
    ys: tuple[float | None, ...]
    point: tuple[float, float]
    ticks: tuple[tuple[float, str], ...] = ()  # points of the input's range, as written


@dataclass(frozen=True)
class Explorable:
    """What the page's "change one variable" section shows, and the data its script reads:
    for each control, each moving number's text at each point (by the marks' ``n``), the
    points at which a claim stops holding, and the plot's curves."""

    controls: tuple[Control, ...]
    chart: Chart | None
    data: Mapping[str, Any]


@dataclass(frozen=True)
class QuizRecord:
    """What the check question tells a learner after a choice: the answer's value and
    written decimals (a typed answer is graded by them), and for each option the record of
    its number (:func:`plain`) and, for a distractor, the mistake it encodes in words."""

    value: float | None
    decimals: int
    records: Mapping[int, str]
    mistakes: Mapping[int, str]


@dataclass(frozen=True)
class LessonRecord:
    """A checked lesson: its model, where it came from, and every number marked."""

    lesson: Lesson
    source: str  # the file as diagnostics name it
    marks: Mapping[str, tuple[Mark, ...]]  # prose JSON pointer -> its marked numbers
    verified: int
    exempt: int
    explorable: Explorable | None
    quiz: QuizRecord | None
    located: Mapping[str, tuple[int, int]]  # /science/i/equation -> 1-based (line, column)
    script: str = ""  # the Python that recomputes the worked numbers (rlkl.claims.script)
    core: tuple[str, str] | None = None  # the rlkl.core function behind them: name, source


@dataclass(frozen=True)
class LessonEntry:
    """A checked lesson as the catalog, the navigation and the verification report list it:
    its model, where it came from, what a learner can change on its page (``explorable:
    2 inputs and a plot``; "" when nothing) and the cache key of its report ("" when it is
    not cached), which what is made from the report is keyed by. Its page's own records are
    :meth:`SiteCheck.records`."""

    lesson: Lesson
    source: str
    explorable: str
    key: str = ""


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

    lessons: tuple[LessonEntry, ...]
    catalog: tuple[CatalogItem, ...]
    claims: tuple[ClaimRow, ...]
    exempt: tuple[ExemptRow, ...]
    core_version: str
    summary: Mapping[str, int]
    errors: int
    report: str  # the located diagnostics, as ``rlkl check`` prints them (text format)
    pages: _Pages | None = field(default=None, compare=False, repr=False)

    def rendered(self, wanted: Sequence[tuple[str, Any]],
                 render: Callable[[LessonRecord, Any], T]) -> list[T]:
        """``render(record, extra)`` of each lesson id and ``extra`` in ``wanted``, from its
        page records (:class:`LessonRecord`), made when asked: a page the site kept from
        an earlier build needs none. Across the check's processes from
        :data:`PAGES_POOL_MIN` pages (``render`` and ``extra`` then go to them: a
        module-level function and picklable values)."""
        return self.pages.rendered(wanted, render) if self.pages is not None else []

    def records(self, ids: Sequence[str] | None = None) -> dict[str, LessonRecord]:
        """The page records of the lessons ``ids`` (None: every lesson), by id."""
        wanted = [e.lesson.id for e in self.lessons] if ids is None else list(ids)
        return dict(zip(wanted, self.rendered([(i, None) for i in wanted], _record_only),
                        strict=True))


def _precision(decimals: int) -> str:
    return "as an exact zero" if decimals == 0 else f"to {decimals} decimal{'s' * (decimals != 1)}"


QUIZ_OPTION = frozenset({"quiz-key", "distractor"})
"""Kinds whose record would say which option is the answer: shown without it."""


def _written(check: Check) -> str:
    """The rule the number's written form sets, as a record says it: as an exact zero for
    a bare 0, to ±0.5 for another integer, else to its decimals
    (rlkl.claims.evaluation.precision)."""
    if check.decimals == 0:
        bare = check.text.lstrip("+-\u2212")
        return "as an exact zero" if bare == "0" else "to ±0.5 (a whole number)"
    return _precision(check.decimals)


_OPERATORS = {ast.Mult: "×", ast.Div: "/", ast.Add: "+", ast.Sub: "−", ast.Pow: "^"}


def _literal(value: Any) -> str:
    """An input as a record writes it: 12 significant digits, U+2212, lists in brackets."""
    if isinstance(value, list):
        return "[" + ", ".join(_literal(v) for v in value) + "]"
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    return shown(value, PAGE).replace("-", "\u2212")


_RANK = {ast.Add: 1, ast.Sub: 1, ast.Mult: 2, ast.Div: 2, ast.Pow: 3}  # binding strength
_COMPARE = {ast.Eq: "=", ast.NotEq: "≠", ast.Lt: "<", ast.LtE: "≤", ast.Gt: ">",
            ast.GtE: "≥"}


def _formula(node: ast.AST, values: Mapping[str, Any], operand: bool = False) -> str:
    """An expression as a learner reads it, its inputs written in: ×, −, ≤, a list's entry
    as its value, and a negative number in brackets where it is an operand."""
    def sub(child: ast.AST, inner: bool = False) -> str:
        return _formula(child, values, inner)

    if isinstance(node, ast.Name) and node.id in values:
        text = _literal(values[node.id])
    elif isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
        text = _literal(node.value)
    elif (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name)
          and isinstance(values.get(node.value.id), list) and isinstance(node.slice, ast.Constant)
          and isinstance(node.slice.value, int)
          and -len(values[node.value.id]) <= node.slice.value < len(values[node.value.id])):
        text = _literal(values[node.value.id][node.slice.value])
    elif isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
        rank = _RANK[type(node.op)]

        def side(child: ast.AST, right: bool) -> str:
            text = sub(child, True)
            inner = _RANK.get(type(child.op), 9) if isinstance(child, ast.BinOp) else 9
            strict = right and not isinstance(node.op, (ast.Add, ast.Mult))
            return f"({text})" if inner < rank or (strict and inner == rank) else text

        return f"{side(node.left, False)} {_OPERATORS[type(node.op)]} {side(node.right, True)}"
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = sub(node.operand, True)
        text = "\u2212" + (f"({inner})" if isinstance(node.operand, ast.BinOp) else inner)
    elif isinstance(node, ast.Compare) and all(type(o) in _COMPARE for o in node.ops):
        parts = [sub(node.left)]
        for op, right in zip(node.ops, node.comparators, strict=True):
            parts += [_COMPARE[type(op)], sub(right)]
        return " ".join(parts)
    elif isinstance(node, ast.BoolOp):
        return f" {'and' if isinstance(node.op, ast.And) else 'or'} ".join(
            sub(v) for v in node.values)
    elif isinstance(node, ast.Call):
        args = [sub(a) for a in node.args] + [f"{k.arg}={sub(k.value)}" for k in node.keywords]
        return f"{sub(node.func)}({', '.join(args)})"
    elif isinstance(node, ast.List):
        return "[" + ", ".join(sub(e) for e in node.elts) + "]"
    elif isinstance(node, ast.Subscript):
        return f"{sub(node.value)}[{sub(node.slice)}]"
    else:
        return ast.unparse(node).replace("-", "\u2212")
    return f"({text})" if operand and text.startswith("\u2212") else text


_ANSWER = "answer = "


def plain(check: Check) -> str:
    """A check as a learner reads it: ``−1.6 = clip(0.5, 0.8, 1.2) × (−2)``, then what the
    core computed when it differs from the written number, and the precision it is checked
    to (``to 1 decimal``, ``as an exact zero``, ``to ±0.5``). A distractor checked against
    the expression of its mistake reads as that arithmetic; one checked against the answer,
    as a negative claim."""
    target = check.target
    source = target[2] if target is not None else check.expression
    answer = source.startswith(_ANSWER)  # the check question's "answer = …"
    source = source.removeprefix(_ANSWER)
    try:
        formula = _formula(ast.parse(source.translate(PROSE_OPERATORS), mode="eval").body,
                           check.inputs)
    except SyntaxError:
        formula = source
    if target is not None and target[1] is not None:
        formula = f"entry {target[1] + 1} of {formula}"
    computed = _literal(check.computed) if not isinstance(check.computed, bool) else ""
    precision = _written(check)
    if check.kind == "condition":
        return f"{'holds' if check.computed else 'does not hold'}: {formula}"
    if check.kind == "misconception":
        return (f"{check.text} is the number of a wrong option of the check question, not "
                f"the answer {computed} (checked {precision})")
    if check.kind in WRONG_ON_PURPOSE and (answer or check.kind != "distractor"):
        part = "" if formula == computed else f"{formula} = "
        return f"not {check.text}: {part}{computed} differs from it, checked {precision}"
    same = computed == check.text.lstrip("+")
    return f"{check.text} = {formula}{'' if same else f' = {computed}'}, checked {precision}"


def _verdict_detail(checks: Sequence[Check]) -> str:
    """What the checks anchored on one number computed (the first is the number's own), in
    plain words (:func:`plain`); for an option of the check question, only that it was
    checked, not whether it is the key."""
    main = checks[0]
    written = _written(main)
    if main.kind in QUIZ_OPTION:
        return ("an option of the check question: its number was computed with rlkl.core "
                f"when the site was built and is checked {written}; whether it is the "
                "answer is for you to work out")
    text = plain(main)
    if len(checks) > 1:
        more = len(checks) - 1
        verb = "hold" if more > 1 else "holds"
        text += f"; {more} more check{'s' * (more > 1)} on this number {verb}"
    if not all(c.ok for c in checks):
        text += "; FAILS: " + "; ".join(c.reason for c in checks if not c.ok)
    return text


_LEAD = re.compile(r"[\s=:≈(]+$")
_CLAUSE = re.compile(r".*[.;,:!?(\u2014]\s*", re.DOTALL)
_SMALL = {"a", "an", "and", "at", "by", "for", "from", "in", "is", "of", "on", "the", "to",
          "with"}


def _expressions(report: LessonReport, drawn: Plot | None) -> list[str]:
    """The worked example's expressions, the plotted output's first (its function is the
    one a page shows)."""
    sources = {c.target[0]: c.target[2] for c in report.checks
               if c.target is not None and not c.pointer.startswith(ASKED)}
    first = [sources[drawn.y]] if drawn is not None and drawn.y in sources else []
    return first + list(sources.values())


def _constant(number: Number, constants: set[str]) -> bool:
    """A pinned constant of a formula, which a page leaves unmarked: exempt with its value
    stated (``equals:``), or an input ``explore:`` keeps ``fixed`` (``constants``: their
    roles), when it holds as verified."""
    if number.status not in (Status.EXEMPT, Status.INPUT):
        return False  # a failing or stale one stays marked, so it is seen
    return number.pinned or number.role in constants


def _quiz(report: LessonReport) -> QuizRecord | None:
    """The check question's records: the key's own check, and each distractor's check of
    the expression its mistake gives (not its "differs from the answer" check)."""
    key = next((c for c in report.checks if c.kind == "quiz-key"
                and c.pointer.startswith("/check/options/")), None)
    if key is None:
        return None
    records = {int(key.pointer.rsplit("/", 1)[1]): plain(key)}
    for check in report.checks:
        if check.kind == "distractor" and check.pointer.startswith("/check/options/") \
                and not check.expression.startswith("answer ="):
            records.setdefault(int(check.pointer.rsplit("/", 1)[1]), plain(check))
    value = float(key.computed) if isinstance(key.computed, (int, float)) else None
    return QuizRecord(value, key.decimals, records, dict(report.mistakes))


def _label(report: LessonReport, texts: Mapping[str, str], name: str) -> str:
    """The words the prose introduces an input with: up to four words of its clause before
    its first shown number, small words at the start dropped ("old probability" for
    "with old probability 0.5"; "ε" for "ε = 0.2"); "" when there are none."""
    first = next((n for n in report.numbers if n.role == f"input {name}"
                  and not n.pointer.startswith(ASKED)), None)
    if first is None:
        return ""
    before = _LEAD.sub("", texts.get(first.pointer, "")[: first.start])
    words = _CLAUSE.sub("", before).split()[-4:]
    while words and words[0].lower() in _SMALL:
        words.pop(0)
    return " ".join(words)


EXPLORE_POOL_MIN = 8
"""From this many lessons the explorable examples are computed across processes: a lesson
costs 5–900 ms, far more than the check of it."""


def _explorations(reports: Sequence[LessonReport], cache: Cache | None, jobs: int
                  ) -> list[tuple[tuple[Knob, ...], Plot | None]]:
    """Each report's knobs and plot (:func:`rlkl.claims.explore.explored`): from the cache
    when its rows are unchanged, else computed (once for lessons whose rows are alike),
    across ``jobs`` processes from :data:`EXPLORE_POOL_MIN` lessons, and cached."""
    keys = [report_fingerprint(r) for r in reports]
    answers: list[tuple[tuple[Knob, ...], Plot | None] | None] = []
    for key in keys:
        data = cache.derived("explore", key) if cache is not None else None
        try:
            answers.append(read_explored(data) if data is not None else None)
        except (KeyError, TypeError, ValueError, AttributeError):
            answers.append(None)  # a damaged entry is a miss
    missing = [i for i, a in enumerate(answers) if a is None]
    firsts = {keys[i]: i for i in reversed(missing)}
    todo = sorted(firsts.values())
    computed = dict(zip(todo, map_values(explored, [reports[i] for i in todo], jobs,
                                         minimum=EXPLORE_POOL_MIN), strict=True))
    if cache is not None:
        for i in todo:
            cache.put_derived("explore", keys[i], computed[i])
    for i in missing:
        answers[i] = read_explored(computed[firsts[keys[i]]])
    return [a for a in answers if a is not None]


def _drawn(ys: Sequence[float | None]) -> list[float | None]:
    """A curve as the page's script draws it: 6 significant digits (a millionth of the
    axis is far below a pixel; the full values would double the plot's data)."""
    return [None if y is None else float(f"{y:.6g}") for y in ys]


def _explorable(report: LessonReport, texts: Mapping[str, str],
                explored_: tuple[tuple[Knob, ...], Plot | None]
                ) -> tuple[Explorable | None, set[int]]:
    """The page's controls, plot and data (:mod:`rlkl.claims.explore`), and the numbers
    that move (their indexes in the report, which the data and the marks' ``n`` use);
    None without controls. The plot's data: the lesson's curve and, for each input that
    moves it, the curve at each point of that input's range."""
    knobs, drawn = explored_
    if not knobs:
        return None, set()
    moving = {i for k in knobs for i in (*k.numbers, *k.untrue)}
    controls = tuple(Control(k.name, _label(report, texts, k.name), k.texts, k.at)
                     for k in knobs)
    data: dict[str, Any] = {"knobs": [
        {"name": k.name, "at": k.at, "texts": list(k.texts),
         "numbers": {str(i): list(v) for i, v in k.numbers.items()},
         "untrue": {str(i): list(v) for i, v in k.untrue.items()}}
        for k in knobs]}
    chart = None
    if drawn is not None:
        x_knob = next(k for k in knobs if k.name == drawn.x)
        last = len(x_knob.values) - 1
        shown = sorted({round(last * k / 4) for k in range(5)})
        chart = Chart(drawn.x_label, drawn.y_label, drawn.xs, drawn.ys, drawn.point,
                      tuple((x_knob.values[i], x_knob.texts[i]) for i in shown))
        moves = {name for name, _ in drawn.moved}
        data["plot"] = {"x": drawn.x, "xs": list(drawn.xs), "curve": _drawn(drawn.ys),
                        "moved": {k.name: [_drawn(drawn.moved[(k.name, i)])
                                           for i in range(len(k.values))]
                                  for k in knobs if k.name in moves},
                        "at": drawn.xs.index(drawn.point[0]),
                        "points": [drawn.xs.index(v) for v in x_knob.values]}
    return Explorable(controls, chart, data), moving


def _detail(number: Number, checks: Sequence[Check], users: Mapping[str, list[str]]) -> str:
    """What hovering a number says: its status (the report's) and how it was checked."""
    status = number.status
    if number.exempt:
        detail = f"exempt: {number.reason}"
        if status is not Status.EXEMPT:
            detail += f" ({status.value.upper()} in the fixtures: run `rlkl regen`)"
        return detail
    if status is Status.FAILED:
        return "FAILED " + _verdict_detail(checks)
    if checks and status is not Status.VERIFIED and status is not Status.INPUT:
        return f"{status.value.upper()} fixture (run `rlkl regen`): " + _verdict_detail(checks)
    if number.role.startswith("input"):
        name = number.role.partition(" ")[2]
        using = users.get(name, [])
        used = ", ".join(using[:3]) + (f" and {len(using) - 3} more" if len(using) > 3 else "")
        return f"input {name} = {number.text} (exact), used by {used or 'its sentence'}"
    if number.role.startswith("intermediate"):
        return "intermediate of the worked arithmetic around it, checked with that result"
    if checks:
        return "verified " + _verdict_detail(checks)
    return "UNACCOUNTED: neither checked nor exempt"


def _equations_at(report: LessonReport, document: Document, count: int
                  ) -> dict[str, tuple[int, int]]:
    """Where each ``/science/i/equation`` is written: as the report located its relations
    (the document is searched only for an equation the report has none of: a source map of
    the whole file costs ~3 ms a lesson)."""
    located = {e.pointer: (e.line, e.column) for e in report.equations}
    for pointer in (f"/science/{i}/equation" for i in range(count)):
        if pointer not in located:
            located[pointer] = document.locate(pointer)
    return located


Explored = tuple[tuple[Knob, ...], Plot | None]
"""A report's knobs and plot (:func:`rlkl.claims.explore.explored`)."""


def _rows(report: LessonReport, lesson_id: str) -> tuple[list[ClaimRow], list[ExemptRow]]:
    """What the verification report lists of one lesson: its checks and exempt numbers."""
    rows = [
        ClaimRow(lesson_id, c.id, c.kind, report.display, c.line, c.column, c.pointer, c.text,
                 c.expression, shown(c.computed, PAGE), c.status.value, c.quote)
        for c in report.checks
    ]
    exempt = [ExemptRow(lesson_id, n.pointer, n.text, n.reason, n.quote)
              for n in report.numbers if n.exempt]
    return rows, exempt


def lesson_record(report: LessonReport, file: LessonFile, explored_: Explored) -> LessonRecord:
    """The page records of one lesson: its report, with the model and the document its
    file has (read again here when a worker or the cache checked it)."""
    lesson, document = file.lesson, file.document
    assert lesson is not None and document is not None  # only valid lessons have reports
    users: dict[str, list[str]] = {}
    for check in report.checks:
        for name in check.inputs:
            if check.claim not in users.setdefault(name, []):
                users[name].append(check.claim)
    explorable, moving = _explorable(report, dict(prose_strings(document.data)), explored_)
    marks: dict[str, list[Mark]] = {}
    constants = {f"input {r.name}" for r in report.explore if r.fixed}
    for index, number in enumerate(report.numbers):
        if _constant(number, constants):
            continue  # a number of a formula (the 1 of r − 1): checked, but not marked
        checks = [c for c in map(report.check, number.checks) if c is not None]
        marks.setdefault(number.pointer, []).append(
            Mark(number.start, number.end, number.text, number.status.value,
                 _detail(number, checks, users), index if index in moving else None))
    return LessonRecord(
        lesson,
        report.display,
        {pointer: tuple(sorted(ms, key=lambda m: m.start)) for pointer, ms in marks.items()},
        sum(c.status is Status.VERIFIED for c in report.checks),
        report.exempt,
        explorable,
        _quiz(report),
        _equations_at(report, document, len(lesson.science)),
        lesson_script(report),
        core_function(_expressions(report, explored_[1])),
    )


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


def explorable_summary(explored_: Explored) -> str:
    """What a learner can change on a lesson's page, as the lesson lists say it: a control
    per knob, and a plot (:func:`_explorable`)."""
    knobs, drawn = explored_
    if not knobs:
        return ""
    count = len(knobs)
    return (f"explorable: {count} input{'s' * (count != 1)}"
            + (" and a plot" if drawn is not None else ""))


LISTED = "site-lesson"
"""The cache kind of what the catalog and the report list of a lesson (:func:`_listed`)."""
Listed = tuple[str, list[ClaimRow], list[ExemptRow]]


def _listed(listed: Listed) -> dict[str, Any]:
    explorable, rows, exempt = listed
    return {"explorable": explorable, "claims": [list(vars(r).values()) for r in rows],
            "exempt": [list(vars(r).values()) for r in exempt]}


def _read_listed(data: Any) -> Listed | None:
    """:func:`_listed`'s entry read back; None when it is damaged (a miss)."""
    try:
        rows = [ClaimRow(*r) for r in data["claims"]]
        exempt = [ExemptRow(*r) for r in data["exempt"]]
        explorable = data["explorable"]
    except (KeyError, TypeError):
        return None
    return (explorable, rows, exempt) if isinstance(explorable, str) else None


PAGES_POOL_MIN = 16
"""From this many pages their records and Markdown are made across processes (~10 ms a
lesson: 2.1 s for 200 PPO copies, against ~5 ms to send a lesson's report and file to a
worker)."""


def _page(job: tuple[LessonReport, LessonFile, Explored, Callable[[LessonRecord, Any], T], Any]
          ) -> T:
    report, file, explored_, render, extra = job
    return render(lesson_record(report, file, explored_), extra)


class _Pages:
    """What makes a lesson's page records when the site asks (:meth:`SiteCheck.records`,
    :meth:`SiteCheck.rendered`): its report (a summary from the cache is read again with its
    rows), its validated file, its explorable examples, and the check's cache and
    processes."""

    def __init__(self, reports: Mapping[str, LessonReport], files: Mapping[str, LessonFile],
                 cache: Cache | None, jobs: int) -> None:
        self.reports, self.files, self.cache, self.jobs = reports, files, cache, jobs
        self.explored: dict[str, Explored] = {}

    def _whole(self, report: LessonReport) -> LessonReport:
        """The report with its rows: a summary's entry read with them, or (when that entry
        is gone) the lesson checked again."""
        if not report.summary:
            return report
        if self.cache is not None:
            hit = Cache(self.cache.folder).lookup(Path(report.path), report.display)[1]
            if hit is not None and not hit.summary:
                return hit
        again = check_lesson(self.files[report.path])
        assert again is not None  # a lesson with a report is a valid lesson
        return again

    def ready(self, ids: Sequence[str]) -> None:
        """The whole reports and explorable examples of ``ids`` (each made once)."""
        todo = [i for i in dict.fromkeys(ids) if i not in self.explored]
        reports = [self._whole(self.reports[i]) for i in todo]
        self.reports = {**self.reports, **dict(zip(todo, reports, strict=True))}
        self.explored.update(zip(todo, _explorations(reports, self.cache, self.jobs),
                                 strict=True))

    def listed(self, lesson_id: str) -> Listed:
        report, lesson = self.reports[lesson_id], self.files[self.reports[lesson_id].path].lesson
        assert lesson is not None
        return (explorable_summary(self.explored[lesson_id]), *_rows(report, lesson.id))

    def rendered(self, wanted: Sequence[tuple[str, Any]],
                 render: Callable[[LessonRecord, Any], T]) -> list[T]:
        self.ready([i for i, _ in wanted])
        jobs = [(self.reports[i], self.files[self.reports[i].path], self.explored[i], render,
                 extra) for i, extra in wanted]
        return map_values(_page, jobs, self.jobs, minimum=PAGES_POOL_MIN)


def _record_only(record: LessonRecord, _extra: Any) -> LessonRecord:
    return record


def check_site(
    content: Path, *, jobs: int = 1, cache: Cache | None = None, rules: Rules | None = None
) -> SiteCheck:
    """Run ``rlkl check`` on ``content`` once (with its ``cache``, ``jobs`` and the project's
    ``rules``) and convert each lesson's :class:`~rlkl.claims.report.LessonReport` for the
    site: what the catalog and the report list of it (from the cache when its report is
    unchanged), and its page records when they are asked for (:meth:`SiteCheck.records`)."""
    summaries = Cache(cache.folder, rows=False) if cache is not None else None
    result = check_paths([content], jobs=jobs, cache=summaries, rules=rules)
    files = {str(f.path): f for f in result.validation.files}
    finished = [r for r in result.reports if not r.failed]  # an RLKL901 stops the build
    reports = {files[r.path].lesson.id: r for r in finished}  # type: ignore[union-attr]
    pages = _Pages(reports, files, cache, jobs)
    listed: dict[str, tuple[str, list[ClaimRow], list[ExemptRow]]] = {}
    for lesson_id, report in reports.items():
        key = result.keys.get(report.path, "")
        kept = cache.derived(LISTED, key) if cache is not None and key else None
        one = _read_listed(kept) if kept is not None else None
        if one is not None:
            listed[lesson_id] = one
    missing = [i for i in reports if i not in listed]
    pages.ready(missing)
    for lesson_id in missing:
        listed[lesson_id] = pages.listed(lesson_id)
        key = result.keys.get(reports[lesson_id].path, "")
        if cache is not None and key:
            cache.put_derived(LISTED, key, _listed(listed[lesson_id]))
    entries, claims, exempt = [], [], []
    for lesson_id, report in reports.items():
        explorable, rows, exempt_rows = listed[lesson_id]
        lesson = files[report.path].lesson
        assert lesson is not None
        entries.append(LessonEntry(lesson, report.display, explorable,
                                   result.keys.get(report.path, "")))
        claims.extend(rows)
        exempt.extend(exempt_rows)
    summary = result.summary()
    errors = sum(d.severity is Severity.ERROR for d in result.diagnostics)
    return SiteCheck(
        tuple(sorted(entries, key=lambda r: r.lesson.id)),
        _catalog(content),
        tuple(claims),
        tuple(exempt),
        CORE_VERSION,
        summary,
        errors,
        render(result.diagnostics, summary, "text"),
        pages,
    )
