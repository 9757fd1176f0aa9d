"""``check`` and ``regen``: validation, claims and fixtures in one pass over lesson paths."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rlkl.claims import fixtures
from rlkl.claims.bindings import FILENAME as BINDINGS
from rlkl.claims.bindings import BindingsError, load_bindings
from rlkl.claims.engine import LessonClaims, extract
from rlkl.claims.scanner import format_number
from rlkl.claims.source import encode_like, mention_range, splice
from rlkl.corpus import CATALOG_FILE
from rlkl.diagnostics import Diagnostic, Severity
from rlkl.loader import Document, display_path
from rlkl.validate import LessonFile, ValidationResult, validate_paths

MAX_FIX_ROUNDS = 5


@dataclass
class LessonRun:
    """One schema-valid lesson with its claims and fresh fixture."""

    file: LessonFile
    document: Document
    claims: LessonClaims
    fixture: dict[str, object]
    problems: list[Diagnostic]  # bindings and claim diagnostics
    bindings_broken: bool = False  # then fixtures are not compared: fix the bindings first

    @property
    def fixture_path(self) -> Path:
        return fixtures.path_for(self.file.path)


@dataclass
class CheckResult:
    """Validation plus, for every schema-valid lesson, its claims; one list of diagnostics."""

    validation: ValidationResult
    lessons: list[LessonRun]
    diagnostics: list[Diagnostic] = field(default_factory=list)
    failed: int = 0  # lessons on which a stage raised (each reported as RLKL901)

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
            "claims": sum(len(r.claims.verdicts) for r in self.lessons),
            "verified": sum(v.ok for r in self.lessons for v in r.claims.verdicts),
            "exempt": sum(len(r.claims.exempt) for r in self.lessons),
        }


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` via a temporary file and a rename: never half-written."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
            stream.write(text)
        if path.exists():
            os.chmod(temporary, path.stat().st_mode & 0o777)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _run_lesson(file: LessonFile) -> LessonRun | None:
    if file.document is None or file.lesson is None:
        return None
    problems: list[Diagnostic] = []
    bindings = None
    bindings_path = file.path.with_name(BINDINGS)
    if bindings_path.is_file():
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
    broken = bindings is None and bindings_path.is_file()
    claims = extract(file.document, bindings, coverage=not broken)
    problems.extend(claims.diagnostics)
    return LessonRun(file, file.document, claims, fixtures.build(claims), problems, broken)


def _freshness(run: LessonRun) -> list[Diagnostic]:
    """Compare the committed fixtures of one lesson with its fresh ones."""
    if not run.fixture_path.is_file():
        return fixtures.compare(run.claims, run.document, None, run.fixture_path, run.fixture)
    committed, problems = fixtures.load(run.fixture_path)
    if problems:
        return problems
    return fixtures.compare(run.claims, run.document, committed, run.fixture_path, run.fixture)


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


def check_paths(paths: Sequence[Path], *, freshness: bool = True) -> CheckResult:
    """Validate, extract and verify claims, and (``freshness``) compare committed fixtures.

    Every lesson found is finished or reported: a stage that raises on one lesson becomes an
    RLKL901 error at that lesson and the loop goes on (an explicit loop, so no exception,
    ``StopIteration`` included, can end it early).
    """
    validation = validate_paths(paths)
    diagnostics = list(validation.diagnostics)
    runs: list[LessonRun] = []
    failed = 0
    for file in validation.files:
        try:
            run = _run_lesson(file)
            if run is not None and freshness and not run.bindings_broken:
                run.problems.extend(_freshness(run))
        except Exception as error:  # any stage failure is reported at its lesson
            diagnostics.append(internal_error(file.path, error))
            failed += 1
            continue
        if run is not None:
            runs.append(run)
            diagnostics.extend(run.problems)
    diagnostics.sort(key=lambda d: (d.file, d.line, d.column, d.code))
    return CheckResult(validation, runs, diagnostics, failed)


@dataclass
class RegenReport:
    """What ``regen`` wrote, left alone, removed and (with ``--fix``) rewrote in the prose."""

    updated: list[Path] = field(default_factory=list)
    unchanged: list[Path] = field(default_factory=list)
    removed: list[Path] = field(default_factory=list)
    fixed: dict[Path, int] = field(default_factory=dict)  # lesson -> numbers rewritten
    not_fixed: dict[Path, str] = field(default_factory=dict)  # lesson -> why --fix left it
    refused: list[Diagnostic] = field(default_factory=list)  # writes outside the corpus (RLKL902)


def _unfixable(run: LessonRun) -> str:
    """Why ``--fix`` must not touch a lesson ("" when it may): never guess between inputs."""
    codes = {d.code for d in run.problems}
    if run.bindings_broken or any(c.startswith("RLKL6") for c in codes):
        return "its claims.yaml has errors"
    if "RLKL420" in codes:
        return "an input is written with different values in different places"
    return ""


def _fix_lesson(run: LessonRun) -> int:
    """Rewrite failing output numbers of one lesson in place; return how many changed."""
    edits = []
    text = run.document.text
    for mention in run.claims.mentions:
        if mention.key not in run.claims.rewrites:
            continue
        start, end = mention_range(run.document, mention)
        new = format_number(run.claims.rewrites[mention.key], mention)
        if new != mention.text:
            edits.append((start, end, encode_like(new, text[start:end])))
    if edits:
        write_atomic(run.file.path, splice(text, edits))
    return len(edits)


def corpus_root(lesson: Path, asked: Sequence[Path]) -> Path:
    """The folder regen may write in for ``lesson``: the nearest folder above it *as named*
    (before symlinks are resolved) that holds the catalog, else the folder that was asked for."""
    named = Path(os.path.abspath(lesson))
    for folder in named.parents:
        if (folder / CATALOG_FILE).is_file():
            return folder
    for path in map(os.path.abspath, asked):
        if Path(path) in named.parents:
            return Path(path)
    return named.parent


def owns(root: Path, target: Path) -> bool:
    """Whether ``target``, with every symlink resolved, lies inside ``root`` (also resolved)."""
    return target.resolve().is_relative_to(root.resolve())


def _refusal(run: LessonRun, root: Path) -> Diagnostic | None:
    """RLKL902 when the lesson's folder leads out of its corpus (regen then writes nothing)."""
    if owns(root, run.fixture_path) and owns(root, run.file.path):
        return None
    return run.document.diagnostic(
        "",
        "RLKL902",
        f"regen does not write here: {run.file.path.parent.as_posix()} resolves to "
        f"{run.file.path.parent.resolve().as_posix()}, outside the corpus "
        f"{root.as_posix()}; nothing was written or removed",
    )


def regen_paths(paths: Sequence[Path], *, fix: bool = False) -> tuple[RegenReport, CheckResult]:
    """Rewrite the fixtures (with ``fix``, also dependent prose numbers) of lessons under ``paths``.

    Only files whose content changes are written, each atomically, and only inside the corpus
    (symlinks resolved). The one file regen ever deletes is the ``fixtures.json`` beside a
    lesson it just processed that has no claims left; fixtures of lessons not under ``paths``,
    and any other file called ``fixtures.json``, are never touched. Returns what changed and a
    fresh check of the result.
    """
    report = RegenReport()
    if fix:
        for _ in range(MAX_FIX_ROUNDS):
            changed = 0
            for run in check_paths(paths, freshness=False).lessons:
                why = _unfixable(run) or (
                    "it lies outside the corpus" if _refusal(run, corpus_root(run.file.path, paths))
                    else ""
                )
                if why:
                    report.not_fixed[run.file.path] = why
                    continue
                count = _fix_lesson(run)
                if count:
                    report.fixed[run.file.path] = report.fixed.get(run.file.path, 0) + count
                changed += count
            if not changed:
                break
    result = check_paths(paths, freshness=False)
    for run in result.lessons:
        refusal = _refusal(run, corpus_root(run.file.path, paths))
        if refusal is not None:
            report.refused.append(refusal)
            continue
        text = fixtures.dumps(run.fixture)
        path = run.fixture_path
        if not run.fixture["claims"] and not run.fixture["exempt"]:
            if path.is_file():
                path.unlink()
                report.removed.append(path)
            continue
        if path.is_file() and _unchanged(path, run.fixture):
            report.unchanged.append(path)
        else:
            write_atomic(path, text)
            report.updated.append(path)
    final = check_paths(paths)
    final.diagnostics = sorted(
        [*final.diagnostics, *report.refused], key=lambda d: (d.file, d.line, d.column, d.code)
    )
    return report, final


def _unchanged(path: Path, fixture: dict[str, object]) -> bool:
    """The committed fixture already says this (computed values equal up to float noise)."""
    try:
        committed = json.loads(path.read_text(encoding="utf-8"))
        return isinstance(committed, dict) and fixtures.equivalent(committed, dict(fixture))
    except (OSError, ValueError, TypeError, AttributeError, KeyError, RecursionError):
        return False  # unreadable or damaged: regen rewrites it
