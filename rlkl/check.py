"""``rlkl check``: validation, claims and fixtures in one pass over lesson paths.

The orchestrator above :mod:`rlkl.validate` (files, schema, corpus) and :mod:`rlkl.claims`
(the claim stages): for each schema-valid lesson, load its bindings, extract and judge its
claims, build its fresh fixture and compare it with the committed one. One sorted list of
diagnostics; a stage that raises on one lesson is reported there (RLKL901).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any, Generic, NamedTuple, TypeVar

from rlkl import pool
from rlkl.cache import Cache, Key
from rlkl.claims.bindings.model import FILENAME as BINDINGS
from rlkl.claims.bindings.model import BindingsError
from rlkl.claims.bindings.reader import load_bindings
from rlkl.claims.extract import extract
from rlkl.claims.fixtures import fixtures
from rlkl.claims.fixtures.changes import Change, Status, compare, message
from rlkl.claims.prose.source import locate
from rlkl.claims.records import LessonClaims
from rlkl.claims.report import Flags, LessonReport, report_of
from rlkl.corpus import LESSON_FILE, Facts
from rlkl.diagnostics import Diagnostic, Severity, code
from rlkl.loader import Document, display_path
from rlkl.pool import file_fingerprint, fingerprint, map_paths
from rlkl.rules import Rules
from rlkl.validate import LessonFile, ValidationResult, Walks, discover, validate_paths

T = TypeVar("T")


@dataclass
class LessonRun:
    """One schema-valid lesson with its claims and fresh fixture, in the process that checks
    it (``regen`` works on it there); what leaves that process is its :meth:`report`."""

    file: LessonFile
    document: Document
    claims: LessonClaims
    fixture: dict[str, object]
    problems: list[Diagnostic]  # bindings and claim diagnostics
    bindings_broken: bool = False  # then fixtures are not compared: fix the bindings first
    changes: tuple[Change, ...] | None = None  # against the committed fixtures, once compared

    @property
    def fixture_path(self) -> Path:
        return fixtures.path_for(self.file.path)

    @property
    def bindings_error(self) -> Diagnostic | None:
        """The first error of the lesson's ``claims.yaml`` (it did not load, or an RLKL6xx),
        None when it has none. Its claims are not all known then, so ``regen`` keeps the
        fixtures and ``--fix`` the prose, and every fixtures message says to fix it first."""
        return next((d for d in self.problems
                     if d.code.startswith("RLKL6") or (self.bindings_broken and
                                                       d.severity is Severity.ERROR)), None)

    def first_step(self) -> str:
        """What an author does before ``rlkl regen`` can act ("" when nothing)."""
        error = self.bindings_error
        if error is None:
            return ""
        return f"fix {BINDINGS} first ({error.code} at {error.file}:{error.line}:{error.column})"

    def compare(self) -> None:
        """Compare with the committed fixtures (not when ``claims.yaml`` does not load):
        :attr:`changes`, and their diagnostics added to :attr:`problems`."""
        if not self.bindings_broken:
            self.changes, found, _ = compare_fixtures(self)
            self.problems.extend(found)

    def flags(self) -> Flags:
        """What its diagnostics mean for ``regen`` (the one place that reads their codes)."""
        return Flags(self.changes is not None, self.first_step(), _ambiguity(self),
                     _conflict(self))

    def report(self) -> LessonReport:
        """The lesson as every consumer reads it (:class:`~rlkl.claims.report.LessonReport`)."""
        return report_of(self.document, self.claims, self.changes, self.problems,
                         self.file.facts, self.flags())


def _ambiguity(run: LessonRun) -> str:
    """Why the lesson's numbers have no single reading ("" when they do): a number read by
    two claims in two roles (RLKL423) or both exempt and checked (RLKL411)."""
    ambiguous = {code("number-read-two-ways"), code("exempt-and-checked")}
    found = next((d for d in run.problems if d.code in ambiguous), None)
    if found is None:
        return ""
    return (f"its numbers are ambiguous ({found.code} at {found.file}:{found.line}: "
            f"{found.message.split(';')[0]})")


def _conflict(run: LessonRun) -> str:
    """Why an input has no single value ("" when every input has one): RLKL420."""
    found = next((d for d in run.problems if d.code == code("conflicting-input")), None)
    return "" if found is None else "an input is written with different values in different places"


@dataclass
class CheckResult:
    """Validation plus, for every schema-valid lesson, its report; one list of diagnostics."""

    validation: ValidationResult
    reports: list[LessonReport] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    cached: int = 0  # lessons the cache answered for (not checked again)
    keys: dict[str, str] = field(default_factory=dict)
    """By report path: the cache key its report is stored under (what a consumer keys the
    records it computes from the report by); a lesson not in the cache has none."""

    def add(self, report: LessonReport, *, cached: bool = False, key: str = "") -> None:
        """One lesson's report (checked here, by a worker or answered by the cache), and
        the cache key it is stored under ("": none)."""
        self.reports.append(report)
        self.diagnostics.extend(report.diagnostics)
        self.cached += cached
        if key:
            self.keys[report.path] = key

    @property
    def failed(self) -> int:
        """Lessons not finished: a stage raised on them (RLKL901)."""
        return sum(r.failed for r in self.reports)

    def select(self, rules: Rules | None) -> CheckResult:
        """This result with only what ``rules`` report (:meth:`rlkl.rules.Rules.apply`, told
        which files were checked); unchanged for None. Reports keep every diagnostic: the
        cache holds the whole check, and a selection is applied after it."""
        if rules is not None:
            checked = [display_path(f.path.with_name(name)) for f in self.validation.files
                       for name in (LESSON_FILE, BINDINGS, fixtures.FILENAME)]
            self.diagnostics = rules.apply(self.diagnostics, checked)
        return self

    def summary(self) -> dict[str, int]:
        """Counts for reports. ``finished`` < ``lessons`` means some lesson was not checked."""
        found = self.validation.summary()
        errors = sum(d.severity is Severity.ERROR for d in self.diagnostics)
        return {
            "files": found["files"],
            "lessons": found["lessons"],
            "finished": found["lessons"] - self.failed,
            "errors": errors,
            "warnings": len(self.diagnostics) - errors,
            "claims": sum(r.claims for r in self.reports),
            "verified": sum(r.verified for r in self.reports),
            "exempt": sum(r.exempt for r in self.reports),
        }


def _run_lesson(file: LessonFile) -> LessonRun | None:
    if file.document is None or file.lesson is None:
        return None
    problems: list[Diagnostic] = []
    bindings = None
    bindings_path = file.path.with_name(BINDINGS)
    # whatever is there is read, so a folder, FIFO or device is reported (RLKL112), not ignored
    present = os.path.lexists(bindings_path)
    if present:
        try:
            bindings = load_bindings(bindings_path)
        except BindingsError as error:
            problems.extend(error.diagnostics)
    if bindings is not None and bindings.lesson and bindings.lesson != file.lesson.id:
        problems.append(bindings.diagnostic(
            bindings.lesson_at, "RLKL609",
            f"bindings are for {bindings.lesson!r} but sit next to lesson {file.lesson.id!r}",
        ))
    broken = bindings is None and present
    claims = extract(file.document, bindings, coverage=not broken)
    problems.extend(claims.diagnostics)
    return LessonRun(file, file.document, claims, fixtures.build(claims), problems, broken)


def _locate(
    run: LessonRun, committed: Document | None, change: Change, first: str
) -> Diagnostic | None:
    """The diagnostic of one change, in the lesson (at its number) or in the fixtures file;
    ``first`` is :meth:`LessonRun.first_step` (asked once per lesson, not per change)."""
    found = message(change, f"rlkl regen {run.fixture_path.parent.as_posix()}"
                    if change.status is Status.MISSING else "rlkl regen", first)
    if found is None:
        return None
    code, text = found
    mention = (change.verdict.mention if change.verdict else None) or (
        change.exempt.mention if change.exempt else None
    )
    if mention is not None:
        line, column = locate(run.document, mention)
        return Diagnostic(run.document.display, line, column, mention.pointer, code, text)
    if committed is None:
        return run.document.diagnostic("", code, text)
    if change.subject == "fixtures":
        return committed.diagnostic(f"/{change.id}", code, text)
    where = "claims" if change.subject == "claim" else "exempt"
    return committed.diagnostic(f"/{where}/{change.index}", code, text)


class Compared(NamedTuple):
    """A lesson against its committed fixtures: the changes, their diagnostics, and the
    committed document as read (None when there is none or it is not a valid record)."""

    changes: tuple[Change, ...]
    problems: list[Diagnostic]
    recorded: Mapping[str, Any] | None = None


def compare_fixtures(run: LessonRun) -> Compared:
    """The lesson's changes against its committed fixtures, and their diagnostics.

    Whatever sits at ``fixtures.json`` is read (a folder or FIFO is RLKL112, not "missing"),
    strictly, and must be this lesson's own record without repeated entries (RLKL510/511).
    """
    committed = None
    if os.path.lexists(run.fixture_path):
        committed, problems = fixtures.load(run.fixture_path)
        if committed is not None and not problems:
            problems = fixtures.ownership(committed, run.claims.lesson_id)
        if problems:
            return Compared((), problems)
    data = committed.data if committed is not None else None
    changes = compare(run.claims, run.fixture, data)
    rooted = any(d.severity is Severity.ERROR for d in run.problems)
    consequences = [c for c in changes if rooted and _consequence(c)]
    alike = _alike_exempts(changes)
    grouped = {id(c) for group in alike for c in group}
    first = run.first_step()
    located = [_locate(run, committed, c, first) for c in changes
               if c not in consequences and id(c) not in grouped]
    if consequences:
        located.append(_summary(run, consequences))
    located += [_exempt_summary(run, group) for group in alike]
    return Compared(changes, [d for d in located if d is not None], data)


SUMMED_UP = 3
"""More exempt numbers than this changed alike (same fields, same reason) are one line."""


def _alike_exempts(changes: Sequence[Change]) -> list[list[Change]]:
    """Exempt numbers whose records changed in the same fields under the same reason (one
    edit to an exemption): the groups of more than :data:`SUMMED_UP`, in lesson order."""
    groups: dict[tuple[tuple[str, ...], str], list[Change]] = {}
    for change in changes:
        if change.subject == "exempt" and change.status is Status.STALE and change.fields:
            assert change.exempt is not None
            groups.setdefault((change.fields, change.exempt.reason), []).append(change)
    return [group for group in groups.values() if len(group) > SUMMED_UP]


def _exempt_summary(run: LessonRun, group: list[Change]) -> Diagnostic:
    """One line for many exempt numbers whose records one edit changed, at the first."""
    first = group[0].exempt
    assert first is not None
    line, column = locate(run.document, first.mention)
    return Diagnostic(
        run.document.display, line, column, first.mention.pointer, "RLKL502",
        f"stale fixtures: {len(group):,} exempt numbers changed ({', '.join(group[0].fields)}), "
        f"this one ({first.mention.text}) and {len(group) - 1:,} more with the reason "
        f"{first.reason!r}; review them, then run `rlkl regen`",
    )


def _consequence(change: Change) -> bool:
    """A claim whose fixture is stale because the lesson changed around it (not itself)."""
    return change.subject == "claim" and change.status in (Status.NEW, Status.STALE)


def _summary(run: LessonRun, consequences: list[Change]) -> Diagnostic:
    """One line for the stale fixtures that follow from errors reported at their cause."""
    ids = [c.id for c in consequences]
    shown = ", ".join(ids[:3]) + (f" and {len(ids) - 3} more" if len(ids) > 3 else "")
    first = consequences[0].verdict
    assert first is not None
    line, column = locate(run.document, first.mention)
    return Diagnostic(
        run.document.display,
        line,
        column,
        first.mention.pointer,
        "RLKL502",
        f"stale fixtures: {len(ids)} claim(s) changed because of the errors above ({shown}); "
        "fix those, then run `rlkl regen`",
    )


def internal_error(path: Path, error: BaseException) -> Diagnostic:
    """RLKL901 at a lesson on which a stage raised: reported, never a silent end of the run."""
    return Diagnostic(
        display_path(path),
        1,
        1,
        "",
        "RLKL901",
        f"rlkl failed while checking this lesson ({type(error).__name__}: {error}); the "
        "other lessons were checked. This is a bug in rlkl: please report it with this lesson",
    )


@dataclass(frozen=True)
class Worked(Generic[T]):
    """One lesson as the work on it sends it back (from a worker, or from the cache): its
    report, the fingerprint of the lesson text that was worked on ("" from the cache), and
    what else the work did (``regen``'s :class:`~rlkl.regen.RegenReport`)."""

    report: LessonReport
    checked: str = ""
    done: T | None = None
    cached: bool = False  # the cache answered for the lesson: it was not worked on
    key: str = ""  # the cache key the report is stored under ("": none, or not stored)


def checked(file: LessonFile) -> Worked[None] | None:
    """One lesson checked (freshness included), as it leaves the process that checked it
    (None: no valid lesson)."""
    report = check_lesson(file)
    if report is None or file.document is None:
        return None
    return Worked(report, fingerprint(file.document.text))


def work_lessons(
    lessons: Sequence[Path],
    work: Callable[[LessonFile], Worked[T] | None],
    cache: Cache | None,
    jobs: int,
    *,
    reuse: Callable[[Path, LessonReport], Worked[T] | None],
    pool_only: bool = False,
) -> tuple[dict[Path, Worked[T]], dict[Path, Key | None]]:
    """The one loop of ``check`` and ``regen`` over a corpus: each lesson the cache answers
    for, as ``reuse`` takes its cached report (None: not reusable, work on it); every other
    one ``work`` of it (:func:`rlkl.pool.map_paths`: across ``jobs`` processes for a large
    corpus), its report cached. Also each worked lesson's cache key, taken before its work.

    ``pool_only``: work only when a pool runs (``jobs`` > 1 and at least
    :data:`~rlkl.pool.POOL_MIN_LESSONS` lessons); else leave them to the caller, which
    works on the documents its validation already parsed. A result is cached only if the
    lesson text worked on is the one keyed (an edit reverted while the run works is no
    cached pass)."""
    answered: dict[Path, Worked[T]] = {}
    keys: dict[Path, Key | None] = {}
    texts: dict[Path, str] = {}  # the keyed lesson text, to compare with what was worked on
    for path in lessons:
        key, hit = cache.lookup(path, display_path(path)) if cache else (None, None)
        reused = reuse(path, hit) if hit is not None else None
        if reused is not None:
            answered[path] = replace(reused, cached=True, key=key.content if key else "")
            continue
        keys[path] = key
        if key is not None and not (pool_only and jobs <= 1):
            texts[path] = file_fingerprint(path)
    missed = list(keys)
    if pool_only and not (jobs > 1 and len(missed) >= pool.POOL_MIN_LESSONS):
        return answered, keys
    for path, one in zip(missed, map_paths(work, missed, jobs), strict=True):
        if one is None:  # not a valid lesson there: validated and reported by the caller
            continue
        key = keys[path]
        if cache is not None and key is not None and one.checked == texts.get(path) \
                and cache.put_if_unchanged(key, path, display_path(path), one.report):
            one = replace(one, key=key.content)
        answered[path] = one
    return answered, keys


def _cached(path: Path, hit: LessonReport) -> Worked[None] | None:
    return Worked(hit) if hit.facts is not None else None


def check_paths(
    paths: Sequence[Path], *, cache: Cache | None = None, jobs: int = 1,
    rules: Rules | None = None,
) -> CheckResult:
    """Validate, extract and verify claims, and compare committed fixtures: one
    :class:`~rlkl.claims.report.LessonReport` per lesson, in lesson order.

    Every lesson found is finished or reported: a stage that raises on one lesson becomes an
    RLKL901 error at that lesson and the loop goes on (an explicit loop, so no exception,
    ``StopIteration`` included, can end it early). With a ``cache``, a lesson whose files are
    unchanged is answered from it; with ``jobs`` > 1 the other lessons of a large corpus are
    read, validated and checked in that many processes, each once (:func:`work_lessons`).
    Validation runs the corpus rules on the :class:`~rlkl.corpus.Facts` of those lessons
    without parsing them again; every other lesson is validated and checked here. The
    diagnostics are those ``rules`` report (:meth:`CheckResult.select`; None: all).
    """
    walks: Walks = {}
    answered, keys = work_lessons(discover(paths, walks=walks), checked, cache, jobs,
                                  reuse=_cached, pool_only=True)
    known = partial(_known, cache, answered, keys)
    validation = validate_paths(paths, known=known, walks=walks)
    result = CheckResult(validation, [], list(validation.diagnostics))
    for file in validation.files:
        one = answered.get(file.path)
        if one is not None:
            result.add(one.report, cached=one.cached, key=one.key)
            continue
        report = check_lesson(file)
        if report is None:
            continue
        key = keys.get(file.path) if file.facts is not None else None
        stored = cache is not None and key is not None \
            and cache.put_if_unchanged(key, file.path, file.display, report)
        result.add(report, key=key.content if stored and key is not None else "")
    result.diagnostics.sort(key=lambda d: (d.file, d.line, d.column, d.code))
    return result.select(rules)


def _known(
    cache: Cache | None,
    answered: Mapping[Path, Worked[Any]],
    missed: Mapping[Path, Key | None],
    path: Path,
    display: str,
) -> Facts | None:
    """The facts of the lesson at ``path`` when this run already has them (the cache or a
    worker answered it; for the rest of a corpus, the cache), else None:
    :data:`rlkl.validate.Known`. A lesson the cache already missed is not asked again."""
    one = answered.get(path)
    if one is not None:
        return one.report.facts
    if path in missed:
        return None
    hit = cache.lookup(path, display)[1] if cache else None
    return hit.facts if hit is not None else None


def run_lesson(file: LessonFile, *, freshness: bool = True) -> LessonRun | None:
    """The claims of one validated lesson (and, with ``freshness``, its fixture changes);
    None for a file that is no valid lesson. Raises what a stage raises."""
    run = _run_lesson(file)
    if run is not None and freshness:
        run.compare()
    return run


def check_lesson(file: LessonFile) -> LessonReport | None:
    """The report of one validated lesson (None: no valid lesson); a stage that raised on
    it makes a report of its RLKL901 diagnostic."""
    try:
        run = run_lesson(file)
        return run.report() if run is not None else None
    except Exception as error:  # any stage failure is reported at its lesson
        return LessonReport.failure(str(file.path), file.display,
                                    internal_error(file.path, error))
