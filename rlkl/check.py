"""``rlkl check``: validation, claims and fixtures in one pass over lesson paths.

The orchestrator above :mod:`rlkl.validate` (files, schema, corpus) and :mod:`rlkl.claims`
(the claim stages): for each schema-valid lesson, load its bindings, extract and judge its
claims, build its fresh fixture and compare it with the committed one. One sorted list of
diagnostics; a stage that raises on one lesson is reported there (RLKL901).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Generic, NamedTuple, TypeVar

from rlkl import pool
from rlkl.cache import Cache, Entry, Key
from rlkl.claims import fixtures
from rlkl.claims.bindings import FILENAME as BINDINGS
from rlkl.claims.bindings import BindingsError, load_bindings
from rlkl.claims.changes import Change, Status, compare, message, up_to_date
from rlkl.claims.extract import extract
from rlkl.claims.records import LessonClaims
from rlkl.claims.source import locate
from rlkl.corpus import Facts
from rlkl.diagnostics import Diagnostic, Severity
from rlkl.loader import Document, display_path
from rlkl.pool import file_fingerprint, fingerprint, map_paths
from rlkl.validate import LessonFile, ValidationResult, Walks, discover, validate_paths

T = TypeVar("T")


@dataclass
class LessonRun:
    """One schema-valid lesson with its claims and fresh fixture."""

    file: LessonFile
    document: Document
    claims: LessonClaims
    fixture: dict[str, object]
    problems: list[Diagnostic]  # bindings and claim diagnostics
    bindings_broken: bool = False  # then fixtures are not compared: fix the bindings first
    changes: tuple[Change, ...] = ()  # against the committed fixtures (when compared)

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


@dataclass
class CheckResult:
    """Validation plus, for every schema-valid lesson, its claims; one list of diagnostics."""

    validation: ValidationResult
    lessons: list[LessonRun]
    diagnostics: list[Diagnostic] = field(default_factory=list)
    failed: int = 0  # lessons not finished: a stage raised on them (RLKL901)
    # lessons kept as counts and diagnostics only: from the cache, a worker process or regen
    counted: list[Entry] = field(default_factory=list)
    views: list[Any] = field(default_factory=list)  # check_paths(view=...) of each lesson run

    def add(self, entry: Entry, view: Any = None) -> None:
        """A lesson answered by the cache or a worker: its diagnostics, counts and view."""
        self.counted.append(entry)
        self.diagnostics.extend(entry.diagnostics)
        self.failed += entry.failed
        if view is not None:
            self.views.append(view)

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
            "claims": sum(len(r.claims.verdicts) for r in self.lessons)
            + sum(e.claims for e in self.counted),
            "verified": sum(v.ok for r in self.lessons for v in r.claims.verdicts)
            + sum(e.verified for e in self.counted),
            "exempt": sum(len(r.claims.exempt) for r in self.lessons)
            + sum(e.exempt for e in self.counted),
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
        problems.append(
            Diagnostic(
                bindings.display,
                1,
                1,
                "/lesson",
                "RLKL609",
                f"bindings are for {bindings.lesson!r} but sit next to lesson {file.lesson.id!r}",
            )
        )
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


def lesson_entry(run: LessonRun) -> Entry:
    """One lesson's run as counts and diagnostics (what the cache and the pool keep); whether
    its fixtures are current is known once they were compared (``run.changes``)."""
    verdicts = run.claims.verdicts
    return Entry(
        tuple(run.problems), len(verdicts), sum(v.ok for v in verdicts), len(run.claims.exempt),
        facts=run.file.facts, current=bool(run.changes) and up_to_date(run.changes),
    )


@dataclass(frozen=True)
class Outcome(Generic[T]):
    """One lesson's check as a worker sends it back: counts and diagnostics, and the
    caller's view of its records (the full records stay in the worker)."""

    entry: Entry
    view: T | None
    checked: str = ""  # the fingerprint of the lesson text that was checked


def outcome(file: LessonFile, view: Callable[[LessonRun], T] | None = None) -> Outcome[T]:
    """One lesson checked (freshness included) as a cache entry, and ``view`` of its run."""
    run, error = check_lesson(file)
    if error is not None:
        return Outcome(Entry.failure(error), None)
    if run is None:
        return Outcome(Entry((), 0, 0, 0), None)
    checked = fingerprint(run.document.text)
    return Outcome(lesson_entry(run), view(run) if view is not None else None, checked)


def check_paths(
    paths: Sequence[Path],
    *,
    freshness: bool = True,
    cache: Cache | None = None,
    jobs: int = 1,
    view: Callable[[LessonRun], Any] | None = None,
) -> CheckResult:
    """Validate, extract and verify claims, and (``freshness``) compare committed fixtures.

    Every lesson found is finished or reported: a stage that raises on one lesson becomes an
    RLKL901 error at that lesson and the loop goes on (an explicit loop, so no exception,
    ``StopIteration`` included, can end it early). With a ``cache`` (``rlkl check`` only),
    a lesson whose files are unchanged is answered from it; with ``jobs`` > 1 the other
    lessons of a large corpus are read, validated and checked in that many processes, each
    once (:func:`rlkl.pool.map_paths`). Such lessons are listed in ``counted`` (diagnostics
    and counts), not in ``lessons``, and validation runs the corpus rules on their
    :class:`~rlkl.corpus.Facts` without parsing them again; every other lesson is validated
    and checked here.

    ``view`` (a module-level function) is applied to every lesson's run where it ran, and
    its results, in lesson order, are ``views``: how a consumer that needs more than counts
    (the site) uses the pool. With a ``view`` every lesson is checked (no cache).
    """
    if view is not None or not freshness:
        cache = None
    walks: Walks = {}
    answered, keys = _answered(discover(paths, walks=walks), cache, freshness, jobs, view)
    known = partial(_known, cache, answered, keys)
    validation = validate_paths(paths, known=known, walks=walks)
    result = CheckResult(validation, [], list(validation.diagnostics))
    for file in validation.files:
        one = answered.get(file.path)
        if one is not None:
            result.add(one.entry, one.view)
            continue
        key = keys.get(file.path) if file.facts is not None else None
        run = _check_one(result, file, freshness, cache, key)
        if view is not None and run is not None:
            result.views.append(view(run))
    result.diagnostics.sort(key=lambda d: (d.file, d.line, d.column, d.code))
    return result


def _answered(
    lessons: list[Path],
    cache: Cache | None,
    freshness: bool,
    jobs: int,
    view: Callable[[LessonRun], Any] | None,
) -> tuple[dict[Path, Outcome[Any]], dict[Path, Key | None]]:
    """The lessons the cache answers and, for a large corpus, the ones workers check (the
    rest are left to the caller); and each other lesson's cache key, taken before its check.

    A worker's result is cached only if the lesson text it checked is the one keyed (an
    edit reverted while the run works is no cached pass)."""
    answered: dict[Path, Outcome[Any]] = {}
    keys: dict[Path, Key | None] = {}
    texts: dict[Path, str] = {}  # the keyed lesson text, when workers may check it
    for path in lessons:
        key, hit = cache.lookup(path, display_path(path)) if cache else (None, None)
        if hit is not None and hit.facts is not None:
            answered[path] = Outcome(hit, None)
            continue
        keys[path] = key
        if key and jobs > 1:
            texts[path] = file_fingerprint(path)
    missed = list(keys)
    if not (freshness and jobs > 1 and len(missed) >= pool.POOL_MIN_LESSONS):
        return answered, keys
    for path, one in zip(missed, map_paths(partial(outcome, view=view), missed, jobs),
                         strict=True):
        if one is None:  # not a valid lesson there: validated and reported by the caller
            continue
        answered[path] = one
        key = keys[path]
        if cache is not None and key is not None and one.checked == texts.get(path):
            cache.put_if_unchanged(key, path, display_path(path), one.entry)
    return answered, keys


def _known(
    cache: Cache | None,
    answered: dict[Path, Outcome[Any]],
    missed: dict[Path, Key | None],
    path: Path,
    display: str,
) -> Facts | None:
    """The facts of the lesson at ``path`` when this run already has them (the cache or a
    worker answered it; for the rest of a corpus, the cache), else None:
    :data:`rlkl.validate.Known`. A lesson the cache already missed is not asked again."""
    one = answered.get(path)
    if one is not None:
        return one.entry.facts
    if path in missed:
        return None
    hit = cache.lookup(path, display)[1] if cache else None
    return hit.facts if hit is not None else None


def check_lesson(
    file: LessonFile, *, freshness: bool = True
) -> tuple[LessonRun | None, Diagnostic | None]:
    """The claims of one validated lesson (and, with ``freshness``, its fixture changes);
    or the RLKL901 diagnostic when a stage raised on it."""
    try:
        run = _run_lesson(file)
        if run is not None and freshness and not run.bindings_broken:
            run.changes, found, _ = compare_fixtures(run)
            run.problems.extend(found)
    except Exception as error:  # any stage failure is reported at its lesson
        return None, internal_error(file.path, error)
    return run, None


def _check_one(
    result: CheckResult, file: LessonFile, freshness: bool, cache: Cache | None, key: Key | None
) -> LessonRun | None:
    """Check one lesson into ``result`` (the serial path); its run, if it has one."""
    run, error = check_lesson(file, freshness=freshness)
    if error is not None:
        result.diagnostics.append(error)
        result.failed += 1
        return None
    if run is not None:
        result.lessons.append(run)
        result.diagnostics.extend(run.problems)
        if cache is not None and key is not None:
            cache.put_if_unchanged(key, file.path, file.display, lesson_entry(run))
    return run

