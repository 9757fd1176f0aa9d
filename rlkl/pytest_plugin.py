"""pytest plugin (registered by the ``pytest11`` entry point): every claim is a test.

Each ``fixtures.json`` that sits next to a ``lesson.json`` is collected; it yields one test
item per recorded claim (named by the claim id) and one ``lesson`` item for everything not
tied to a claim (validation, unaccounted numbers, bindings, orphaned fixtures). An item
recomputes its claim from the current lesson with rlkl.core, so a failure shows what the
prose says, what was computed from what, and the written precision. A ``lesson.json`` below
the content folders (ini option ``rlkl_content``, default ``content``) that has no fixtures
yet is collected too, as one ``lesson`` item, so a new lesson is never silently skipped.

``--rlkl-update`` rewrites the fixtures of the lessons below the content folders (those named
on the command line, if any) after the run, exactly like ``rlkl regen`` — on the controller
only under pytest-xdist, once, at the end of the session.

The work is done once per process, never per item: the corpus is validated once (its rules
need every lesson) and indexed; a lesson is checked when its first item runs, and its result
serves all its items (kept for the :data:`RECENT_LESSONS` most recent lessons). Under
pytest-xdist each worker does this for the lessons it runs; xdist's default ``load``
schedule hands out consecutive items, so a lesson is rarely split between workers (on 1,000
lessons, 1,031 lesson checks in two workers) and no other ``--dist`` is imposed.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Iterator
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from rlkl.check import CheckResult, check_lesson
from rlkl.claims.bindings import FILENAME as BINDINGS
from rlkl.claims.changes import Change, Status, message
from rlkl.claims.fixtures import FILENAME
from rlkl.claims.precision import describe
from rlkl.claims.records import Verdict
from rlkl.claims.source import locate
from rlkl.corpus import LESSON_FILE as LESSON
from rlkl.diagnostics import Diagnostic, Severity, brief
from rlkl.loader import display_path
from rlkl.validate import LessonFile, ValidationResult, find_catalog, validate_paths


def pytest_addoption(parser: pytest.Parser) -> None:
    """Register ``--rlkl-update`` and the ``rlkl_content`` ini option."""
    group = parser.getgroup("rlkl", "rlkl lesson claims")
    group.addoption(
        "--rlkl-update",
        action="store_true",
        default=False,
        help="after the run, rewrite the claim fixtures (same as `rlkl regen`).",
    )
    parser.addini(
        "rlkl_content",
        type="paths",
        default=["content"],
        help="folders (relative to the ini file) whose lessons are claim tests.",
    )


def _content_roots(config: pytest.Config) -> list[Path]:
    return [Path(p).resolve() for p in config.getini("rlkl_content")]


def _inside(path: Path, roots: list[Path]) -> bool:
    return any(path == root or root in path.parents for root in roots)


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    """Collect a lesson's fixtures (or a content lesson that has none yet)."""
    if file_path.name == FILENAME and (file_path.parent / LESSON).is_file():
        return LessonFixtures.from_parent(parent, path=file_path)
    if (
        file_path.name == LESSON
        and not (file_path.parent / FILENAME).exists()
        and _inside(file_path.resolve(), _content_roots(parent.config))
    ):
        return LessonFixtures.from_parent(parent, path=file_path)
    return None


class ClaimFailure(Exception):
    """Raised by an item; carries the diagnostics to show."""


@dataclass
class _Corpus:
    """One corpus validated once per process, indexed so a lesson finds its part in O(1)."""

    validation: ValidationResult
    files: dict[Path, list[LessonFile]]  # by resolved lesson path
    diagnostics: dict[str, list[Diagnostic]]  # by file as displayed

    @classmethod
    def of(cls, root: Path) -> _Corpus:
        validation = validate_paths([root])
        files: dict[Path, list[LessonFile]] = {}
        for file in validation.files:
            files.setdefault(file.path.resolve(), []).append(file)
        diagnostics: dict[str, list[Diagnostic]] = {}
        for d in validation.diagnostics:
            diagnostics.setdefault(d.file, []).append(d)
        return cls(validation, files, diagnostics)


@dataclass(frozen=True)
class _Checked:
    """One lesson's check result and, by claim id, its verdicts and claim changes."""

    result: CheckResult
    verdicts: dict[str, Verdict]
    changes: dict[str, Change]


_CORPORA = pytest.StashKey[dict[Path, _Corpus]]()
_RECENT = pytest.StashKey[OrderedDict[Path, _Checked]]()
RECENT_LESSONS = 8
"""Lessons whose results a process keeps: items run lesson by lesson, so each lesson is
checked once, and memory stays flat on a corpus of any size (a lesson whose items come back
after this many others is checked again, with the same result)."""


class LessonFixtures(pytest.File):
    """The fixtures of one lesson: one item per claim, plus the lesson's own item."""

    claim_ids: frozenset[str] = frozenset()  # the ids of the claim items collected

    @property
    def checked(self) -> _Checked:
        """This lesson's check, shared by its items: made where they run (so ``-n 2`` splits
        that work), kept among the :data:`RECENT_LESSONS` most recent of this process."""
        recent = self.config.stash.setdefault(_RECENT, OrderedDict())
        found = recent.get(self.path)
        if found is None:
            result = self._check()
            found = _Checked(
                result,
                {v.id: v for run in result.lessons for v in run.claims.verdicts},
                {c.id: c for run in result.lessons for c in run.changes if c.subject == "claim"},
            )
            recent[self.path] = found
            while len(recent) > RECENT_LESSONS:
                recent.popitem(last=False)
        recent.move_to_end(self.path)
        return found

    @property
    def result(self) -> CheckResult:
        """This lesson checked as ``rlkl check`` checks it within its corpus."""
        return self.checked.result

    def _check(self) -> CheckResult:
        """Check the lesson within its corpus. The corpus is validated once per process (its
        rules need every lesson), then indexed, so a lesson finds its part in O(1)."""
        lesson = (self.path.parent / LESSON).resolve()
        catalog = find_catalog(lesson)
        root = catalog.parent if catalog is not None else lesson.parent
        corpora = self.config.stash.setdefault(_CORPORA, {})
        if root not in corpora:
            corpora[root] = _Corpus.of(root)
        corpus = corpora[root]
        own = {display_path(lesson.with_name(name)) for name in (LESSON, FILENAME, BINDINGS)}
        diagnostics = [d for name in sorted(own) for d in corpus.diagnostics.get(name, [])]
        runs = []
        for file in corpus.files.get(lesson, []):
            run, error = check_lesson(file)
            diagnostics.extend([error] if error else run.problems if run else [])
            runs.extend([run] if run else [])
        diagnostics.sort(key=lambda d: (d.file, d.line, d.column, d.code))
        return CheckResult(corpus.validation, runs, diagnostics)

    def collect(self) -> Iterator[pytest.Item]:
        try:
            fixture = self.path.parent / FILENAME
            recorded = json.loads(fixture.read_text(encoding="utf-8")).get("claims", [])
        except (OSError, ValueError, AttributeError):
            recorded = []
        entries = [e for e in recorded if isinstance(e, dict) and isinstance(e.get("id"), str)]
        self.claim_ids = frozenset(e["id"] for e in entries)
        yield LessonItem.from_parent(self, name="lesson")
        for entry in entries:
            yield ClaimItem.from_parent(self, name=entry["id"], entry=entry)


def _claim_locations(result: CheckResult, ids: AbstractSet[str]) -> set[tuple[str, int, int]]:
    """(file, line, column) of the numbers whose claims have items of their own."""
    found = set()
    for run in result.lessons:
        for v in run.claims.verdicts:
            if v.id in ids:
                found.add((run.document.display, *locate(run.document, v.mention)))
    return found


class ClaimItem(pytest.Item):
    """One recorded claim, recomputed from the current lesson."""

    def __init__(self, *, entry: dict[str, Any], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.entry = entry

    def runtest(self) -> None:
        """Pass exactly when :mod:`rlkl.claims.changes` says the claim is verified."""
        parent = self.parent
        assert isinstance(parent, LessonFixtures)
        checked = parent.checked
        verdict = checked.verdicts.get(self.name)
        change = checked.changes.get(self.name)
        if verdict is None or change is None:
            if verdict is None and any(run.bindings_broken for run in checked.result.lessons):
                raise ClaimFailure(
                    f"claim {self.name} is not checked: the lesson's claims.yaml has errors "
                    "(its lesson item says which); fix them first"
                )
            if verdict is None:
                raise ClaimFailure(
                    f"claim {self.name} is no longer in the lesson (orphaned fixture); "
                    "run `rlkl regen` or `pytest --rlkl-update`"
                )
            if not verdict.ok:  # fixtures not compared (the lesson item says why)
                raise ClaimFailure(_failed(verdict))
            return
        if change.status is not Status.VERIFIED:
            raise ClaimFailure(_explain(change, verdict, self.entry))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, ClaimFailure):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, None, f"claim {self.name}"


def _failed(verdict: Verdict) -> str:
    return brief(
        f"prose says {verdict.mention.text} ({describe(verdict.mention.decimals)}) "
        f'in "{verdict.quote}" at {verdict.mention.pointer}\n'
        f"expected (computed): {verdict.expression} -> {verdict.computed}\n"
        f"inputs: {verdict.inputs}\n{verdict.reason}"
    )


def _explain(change: Change, verdict: Verdict, recorded: dict[str, Any]) -> str:
    """What an item shows for a claim that is not verified."""
    if change.status is Status.FAILED:
        return _failed(verdict)
    if change.status is Status.STALE:
        return brief(
            f"stale fixture ({', '.join(change.fields)} changed): recorded "
            f"{recorded.get('authored')!r} in {recorded.get('quote')!r}, the lesson now says "
            f"{verdict.mention.text!r} in {verdict.quote!r}; run `rlkl regen` or "
            "`pytest --rlkl-update`"
        )
    found = message(change)
    return brief(found[1]) if found else change.status.value


class LessonItem(ClaimItem):
    """Diagnostics of the lesson not attributable to one recorded claim."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(entry={}, **kwargs)

    def runtest(self) -> None:
        parent = self.parent
        assert isinstance(parent, LessonFixtures)
        result = parent.result
        errors = [d for d in result.diagnostics if d.severity is Severity.ERROR]
        # locating every claim costs a source map: only worth it when there is an error
        covered = _claim_locations(result, parent.claim_ids) if errors else set()
        own: list[Diagnostic] = [d for d in errors if (d.file, d.line, d.column) not in covered]
        if own:
            raise ClaimFailure(
                "\n".join(
                    f"{d.file}:{d.line}:{d.column} {d.pointer} {d.code} {d.message}" for d in own
                )
            )

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, None, "lesson checks"


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """With ``--rlkl-update``: regenerate the fixtures once, on the controller."""
    config = session.config
    if not config.getoption("rlkl_update") or hasattr(config, "workerinput"):
        return
    content = _content_roots(config)
    asked = [Path(arg.split("::")[0]).resolve() for arg in config.args]
    lessons = sorted(
        {
            lesson.parent
            for root in content
            if root.is_dir()
            for lesson in root.rglob(LESSON)
            if not asked or _inside(lesson, asked) or any(a in root.parents for a in asked)
        }
    )
    if lessons:
        from rlkl.regen import regen_paths

        report, _ = regen_paths(lessons)
        reporter = config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.write("\n")
            reporter.write_line(
                f"rlkl: {len(report.updated)} fixtures updated, "
                f"{len(report.unchanged)} unchanged, {len(report.removed)} removed"
            )
            for lesson, why in sorted(report.not_fixed.items()):
                reporter.write_line(f"rlkl: not updated: {display_path(lesson)}: {why}")
            for refused in report.refused:
                reporter.write_line(f"rlkl: {refused.file}:{refused.line}:{refused.column} "
                                    f"{refused.code} {refused.message}")
