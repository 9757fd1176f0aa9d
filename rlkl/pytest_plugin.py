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

The work is done once per process, never per item: when the first item runs, every lesson
collected is checked by the check ``rlkl check`` runs (:func:`rlkl.check.check_paths`, its
cache included), and an item reads its claim's record in its lesson's
:class:`~rlkl.claims.report.LessonReport`. An item passes exactly when ``rlkl check`` says
its claim is verified. Under pytest-xdist a worker checks only the lessons it runs
(:mod:`rlkl.pytest_xdist`).
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from rlkl.cache import Cache, default_dir
from rlkl.check import check_paths
from rlkl.claims.bindings.model import FILENAME as BINDINGS
from rlkl.claims.evaluation.precision import describe
from rlkl.claims.fixtures.changes import Change, Status, message
from rlkl.claims.fixtures.fixtures import FILENAME
from rlkl.claims.report import Check, LessonReport
from rlkl.config import ConfigError, export_cache
from rlkl.config import load as load_project
from rlkl.corpus import LESSON_FILE as LESSON
from rlkl.diagnostics import FAILING, Diagnostic, Severity, brief
from rlkl.extensions import ExtensionError, activate, deactivate
from rlkl.gc_tuning import during_a_batch
from rlkl.loader import display_path
from rlkl.pool import cpu_jobs
from rlkl.rules import Rules, SelectorError
from rlkl.validate import find_catalog


def pytest_addoption(parser: pytest.Parser) -> None:
    """Register ``--rlkl-update`` and the ``rlkl_content`` ini option."""
    group = parser.getgroup("rlkl", "rlkl lesson claims")
    group.addoption(
        "--rlkl-update",
        action="store_true",
        default=False,
        help="after the run, rewrite the claim fixtures (same as `rlkl regen`).",
    )
    group.addoption(
        "--rlkl-items",
        choices=ITEMS,
        default=None,
        help="one test item per claim (the default) or one per lesson (ini: rlkl_items).",
    )
    parser.addini(
        "rlkl_content",
        type="paths",
        default=["content"],
        help="folders (relative to the ini file) whose lessons are claim tests.",
    )
    parser.addini(
        "rlkl_items",
        default="claim",
        help="'claim': one test item per claim (the default); 'lesson': one per lesson, "
        "failing with every failing claim of it.",
    )


ITEMS = ("claim", "lesson")


_PER_LESSON = pytest.StashKey[bool]()


_RULES = pytest.StashKey[Rules]()
_EXPORTED = pytest.StashKey[tuple[str, ...]]()  # environment variables set for the session


def pytest_configure(config: pytest.Config) -> None:
    """Read the choice of items, the project's rule selection and its functions (``rlkl.toml``
    or ``[tool.rlkl]``, found from the rootdir up) once; a wrong value is a usage error."""
    chosen = config.getoption("rlkl_items") or config.getini("rlkl_items")
    if chosen not in ITEMS:
        raise pytest.UsageError(f"rlkl_items = {chosen!r}: write 'claim' or 'lesson'")
    config.stash[_PER_LESSON] = chosen == "lesson"
    try:
        project = load_project(config.rootpath)
        config.stash[_EXPORTED] = export_cache(project)  # cache-dir and -size, as rlkl check
        config.stash[_RULES] = project.rules()
        activate(project.functions, project.root)  # the authors' functions, as rlkl check
    except (ConfigError, SelectorError, ExtensionError) as error:
        raise pytest.UsageError(f"rlkl: {error}") from None


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


@dataclass(frozen=True)
class _Checked:
    """One lesson as ``rlkl check`` reports it within its corpus: its reports (one per lesson
    file of its folder) and its own diagnostics, and by claim id its checks and changes."""

    reports: tuple[LessonReport, ...]
    diagnostics: tuple[Diagnostic, ...]
    checks: dict[str, Check]
    changes: dict[str, Change]
    ignored: frozenset[str] = frozenset()  # failing-claim codes the configuration ignores here


_CHECKED = pytest.StashKey[dict[Path, _Checked]]()


def _lesson_of(path: Path) -> Path:
    return (path.parent / LESSON).resolve()


def _to_check(session: pytest.Session) -> tuple[list[Path], int]:
    """The lessons this process checks when its first item runs, and in how many processes:
    every lesson whose items it collected, across every CPU; a pytest-xdist worker, those of
    its share (:mod:`rlkl.pytest_xdist`), across its part of the CPUs. A lesson outside
    every catalog has for corpus the lessons checked with it, so a worker that collected one
    checks every collected lesson, as a serial run does: the verdicts stay the same."""
    items = [(index, item) for index, item in enumerate(session.items)
             if isinstance(item.parent, LessonFixtures)]
    lessons = {_lesson_of(item.path) for _, item in items}
    workerinput = getattr(session.config, "workerinput", None)
    jobs = cpu_jobs()
    if workerinput is not None:
        from rlkl.pytest_xdist import scheduled_here, shares, worker_number

        count = workerinput.get("workercount") or 1
        jobs = max(1, jobs // count)
        if scheduled_here(session.config) and all(map(find_catalog, lessons)):
            owner = shares([item.nodeid for item in session.items], count)
            number = worker_number(workerinput)
            lessons = {_lesson_of(item.path) for index, item in items
                       if owner.get(index) == number}
    return sorted(lessons), jobs


def _cache() -> Cache | None:
    folder = default_dir()
    return Cache(folder) if folder is not None else None


def _check(lessons: list[Path], jobs: int, rules: Rules) -> dict[Path, _Checked]:
    """``lessons`` checked once, as ``rlkl check`` checks them (:func:`rlkl.check.check_paths`,
    within their corpus, with its cache, ``jobs`` processes and the project's ``rules``), by
    resolved lesson path."""
    with during_a_batch():
        result = check_paths(lessons, cache=_cache(), jobs=jobs, rules=rules)
    by_file: dict[str, list[Diagnostic]] = {}
    for d in result.diagnostics:
        by_file.setdefault(d.file, []).append(d)
    reports: dict[Path, list[LessonReport]] = {}
    for report in result.reports:
        reports.setdefault(Path(report.path).parent.resolve() / LESSON, []).append(report)
    checked = {}
    for lesson in lessons:
        own = sorted({display_path(lesson.with_name(name))
                      for name in (LESSON, FILENAME, BINDINGS)})
        found = tuple(reports.get(lesson, ()))
        checked[lesson] = _Checked(
            found, tuple(d for name in own for d in by_file.get(name, ())),
            {c.id: c for r in found for c in r.checks},
            {c.id: c for r in found for c in r.changes if c.subject == "claim"},
            frozenset(key for key in FAILING.values()
                      if not rules.reported(key, rules.relative(display_path(lesson)))))
    return checked


class LessonFixtures(pytest.File):
    """The fixtures of one lesson: one item per claim, plus the lesson's own item."""

    @functools.cached_property
    def recorded(self) -> list[dict[str, Any]]:
        """The claims its fixtures record (none when they cannot be read: the lesson item
        says why), read when first asked for: at collection for one item per claim, by the
        item that runs for one item per lesson."""
        try:
            fixture = self.path.parent / FILENAME
            recorded = json.loads(fixture.read_text(encoding="utf-8")).get("claims", [])
        except (OSError, ValueError, AttributeError):
            recorded = []
        return [e for e in recorded if isinstance(e, dict) and isinstance(e.get("id"), str)]

    @functools.cached_property
    def claim_ids(self) -> frozenset[str]:
        return frozenset(e["id"] for e in self.recorded)

    @property
    def checked(self) -> _Checked:
        """This lesson's check, shared by its items: every lesson this process collected is
        checked at once, when its first item runs (:func:`_check`)."""
        stash = self.config.stash
        if _CHECKED not in stash:
            stash[_CHECKED] = _check(*_to_check(self.session), stash[_RULES])
        lesson = _lesson_of(self.path)
        if lesson not in stash[_CHECKED]:  # run by hand, or given back by a dead worker
            stash[_CHECKED].update(_check([lesson], 1, stash[_RULES]))
        return stash[_CHECKED][lesson]

    def collect(self) -> Iterator[pytest.Item]:
        if self.config.stash[_PER_LESSON]:  # one item answers for every claim
            yield LessonItem.from_parent(self, name="lesson", every_claim=True)
            return
        yield LessonItem.from_parent(self, name="lesson")
        for entry in self.recorded:
            yield ClaimItem.from_parent(self, name=entry["id"], entry=entry)


class ClaimItem(pytest.Item):
    """One recorded claim, recomputed from the current lesson."""

    def __init__(self, *, entry: dict[str, Any], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.entry = entry

    def runtest(self) -> None:
        """Pass exactly when :mod:`rlkl.claims.fixtures.changes` says the claim is verified."""
        parent = self.parent
        assert isinstance(parent, LessonFixtures)
        checked = parent.checked
        problem = _claim_problem(checked, self.name, self.entry)
        if problem is not None and _ignored(checked, self.name):
            pytest.skip(f"{_ignored(checked, self.name)} is ignored here by the configuration")
        if problem is not None:
            raise ClaimFailure(problem)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, ClaimFailure):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, None, f"claim {self.name}"


def _claim_problem(checked: _Checked, claim: str, recorded: dict[str, Any]) -> str | None:
    """Why the recorded claim ``claim`` is not verified, or None when it is."""
    verdict = checked.checks.get(claim)
    change = checked.changes.get(claim)
    if verdict is None and any(r.first_step for r in checked.reports):
        return (f"claim {claim} is not checked: the lesson's claims.yaml has errors "
                "(its lesson item says which); fix them first")
    if verdict is None:
        return (f"claim {claim} is no longer in the lesson (orphaned fixture); "
                "run `rlkl regen` or `pytest --rlkl-update`")
    if change is None:  # fixtures not compared (the lesson item says why)
        return None if verdict.ok else _failed(verdict)
    return None if change.status is Status.VERIFIED else _explain(change, verdict, recorded)


def _ignored(checked: _Checked, claim: str) -> str:
    """The code a failing ``claim`` reports when the configuration ignores it for this
    lesson ("" when it is reported, or the claim is not a failing check)."""
    verdict = checked.checks.get(claim)
    found = FAILING.get(verdict.kind, "") if verdict is not None and not verdict.ok else ""
    return found if found in checked.ignored else ""


def _where(checked: _Checked, claim: str) -> str:
    """``file:line:column pointer `` of a claim's number, as a diagnostic is located."""
    for report in checked.reports:
        for check in report.checks:
            if check.id == claim:
                return f"{report.display}:{check.line}:{check.column} {check.pointer} "
    return ""


def _failed(check: Check) -> str:
    return brief(
        f"prose says {check.text} ({describe(check.decimals)}) "
        f'in "{check.quote}" at {check.pointer}\n'
        f"expected (computed): {check.expression} -> {check.computed}\n"
        f"inputs: {dict(check.inputs)}\n{check.reason}"
    )


def _explain(change: Change, verdict: Check, recorded: dict[str, Any]) -> str:
    """What an item shows for a claim that is not verified."""
    if change.status is Status.FAILED:
        return _failed(verdict)
    if change.status is Status.STALE:
        return brief(
            f"stale fixture ({', '.join(change.fields)} changed): recorded "
            f"{recorded.get('authored')!r} in {recorded.get('quote')!r}, the lesson now says "
            f"{verdict.text!r} in {verdict.quote!r}; run `rlkl regen` or "
            "`pytest --rlkl-update`"
        )
    found = message(change)
    return brief(found[1]) if found else change.status.value


class LessonItem(ClaimItem):
    """Diagnostics of the lesson not attributable to one recorded claim; with one item per
    lesson (``every_claim``), every failing claim too, each as its own item would say it."""

    def __init__(self, *, every_claim: bool = False, **kwargs: Any) -> None:
        super().__init__(entry={}, **kwargs)
        self.every_claim = every_claim

    def runtest(self) -> None:
        parent = self.parent
        assert isinstance(parent, LessonFixtures)
        checked = parent.checked
        failures = [f"{_where(checked, entry['id'])}claim {entry['id']}: {problem}"
                    for entry in (parent.recorded if self.every_claim else [])
                    if (problem := _claim_problem(checked, entry["id"], entry)) is not None
                    and not _ignored(checked, entry["id"])]
        covered = {(r.display, c.line, c.column) for r in checked.reports for c in r.checks
                   if c.id in parent.claim_ids}
        errors = [d for d in checked.diagnostics if d.severity is Severity.ERROR]
        failures.extend(f"{d.file}:{d.line}:{d.column} {d.pointer} {d.code} {d.message}"
                        for d in errors if (d.file, d.line, d.column) not in covered)
        if failures:
            raise ClaimFailure("\n".join(failures))

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, None, "lesson checks"


def _content_lessons(config: pytest.Config) -> list[Path]:
    """The lesson files below the content folders, those below the paths named on the
    command line (if any): what ``--rlkl-update`` rewrites, and a controller checks first."""
    content = _content_roots(config)
    asked = [Path(arg.split("::")[0]).resolve() for arg in config.args]
    return sorted(
        {
            lesson.resolve()
            for root in content
            if root.is_dir()
            for lesson in root.rglob(LESSON)
            if not asked or _inside(lesson, asked) or any(a in root.parents for a in asked)
        }
    )


@pytest.hookimpl(optionalhook=True, tryfirst=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """Under pytest-xdist's ``--dist load`` (``-n`` alone), each worker is sent the items
    of its share of lessons and checks those lessons only (:mod:`rlkl.pytest_xdist`)."""
    from rlkl.pytest_xdist import LessonScheduling, scheduled_here

    return LessonScheduling(config, log) if scheduled_here(config) else None


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """Tell a pytest-xdist worker whether it runs a share of lessons (:mod:`rlkl.pytest_xdist`)."""
    from rlkl.pytest_xdist import SHARED, scheduled_here

    node.workerinput[SHARED] = scheduled_here(node.config)


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    """Under pytest-xdist's other schedulings (``--dist loadfile``, ``worksteal``, …),
    which give a worker any lesson, the controller checks the content lessons once, pooled,
    before the workers start: each worker's check (:func:`_check`) then reads the cache, so
    those lessons are checked once per session, not once per worker. With the cache off
    (``RLKL_CACHE_DIR=off``) there is nothing to share: each worker checks its lessons."""
    config = session.config
    if hasattr(config, "workerinput") or not config.pluginmanager.hasplugin("dsession"):
        return
    from rlkl.pytest_xdist import scheduled_here

    if scheduled_here(config):  # each worker checks its own share
        return
    folder = default_dir()
    lessons = _content_lessons(config)
    if folder is not None and lessons:  # it only fills the cache: a hit's rows are not read
        check_paths(lessons, cache=Cache(folder, rows=False), jobs=cpu_jobs())


def pytest_unconfigure(config: pytest.Config) -> None:
    """Let go of the reports once the run is over: freed now, they go in a blink; left for
    the interpreter's end, they cost a run of 1,000 lessons 1.7 s more at its exit."""
    if _CHECKED in config.stash:
        del config.stash[_CHECKED]
    for name in config.stash.get(_EXPORTED, ()):  # the configuration's cache settings
        os.environ.pop(name, None)
    deactivate()  # this session's functions (a pytester run sits inside another session)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """With ``--rlkl-update``: regenerate the fixtures once, on the controller."""
    config = session.config
    if not config.getoption("rlkl_update") or hasattr(config, "workerinput"):
        return
    lessons = sorted({lesson.parent for lesson in _content_lessons(config)})
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
