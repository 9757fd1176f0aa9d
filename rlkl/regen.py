"""``rlkl regen``: rewrite fixtures (and, with ``--fix``, dependent prose numbers).

Built on :func:`rlkl.check.check_paths`. Writes are atomic, only of files whose content
changes, and only inside the corpus (symlinks resolved, RLKL902 otherwise).
"""

from __future__ import annotations

import math
import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rlkl.check import CheckResult, LessonRun, check_paths, compare_fixtures
from rlkl.claims import fixtures
from rlkl.claims.changes import Change, up_to_date
from rlkl.claims.scanner import format_number
from rlkl.claims.source import encode_like, mention_range, splice
from rlkl.corpus import CATALOG_FILE
from rlkl.diagnostics import Diagnostic

MAX_FIX_ROUNDS = 5


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


@dataclass
class RegenReport:
    """What ``regen`` wrote, left alone, removed and (with ``--fix``) rewrote in the prose."""

    updated: list[Path] = field(default_factory=list)
    unchanged: list[Path] = field(default_factory=list)
    removed: list[Path] = field(default_factory=list)
    fixed: dict[Path, int] = field(default_factory=dict)  # lesson -> numbers rewritten
    not_fixed: dict[Path, str] = field(default_factory=dict)  # lesson -> why --fix left it
    refused: list[Diagnostic] = field(default_factory=list)  # writes outside the corpus (RLKL902)
    # lesson -> its changes against the committed fixtures before regen wrote (what it acted on)
    changes: dict[Path, tuple[Change, ...]] = field(default_factory=dict)


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
        value = run.claims.rewrites[mention.key]
        if not math.isfinite(value):
            continue  # ±inf/NaN has no written form: the failing claim stays reported
        start, end = mention_range(run.document, mention)
        new = format_number(value, mention)
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


def _fix_rounds(paths: Sequence[Path], report: RegenReport) -> None:
    """``--fix``: rewrite failing output numbers until nothing changes (a few rounds at most:
    a rewritten number can be the input of another claim)."""
    for _ in range(MAX_FIX_ROUNDS):
        changed = 0
        for run in check_paths(paths, freshness=False).lessons:
            why = _unfixable(run) or (
                "it lies outside the corpus"
                if _refusal(run, corpus_root(run.file.path, paths))
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


def _write_fixture(run: LessonRun, paths: Sequence[Path], report: RegenReport) -> None:
    """Write, keep or remove one lesson's fixtures, as :func:`rlkl.claims.changes.compare`
    says (only entries that are not current are news)."""
    refusal = _refusal(run, corpus_root(run.file.path, paths))
    if refusal is not None:
        report.refused.append(refusal)
        return
    path = run.fixture_path
    if not run.fixture["claims"] and not run.fixture["exempt"]:
        if path.is_file():
            path.unlink()
            report.removed.append(path)
        return
    changes, problems = compare_fixtures(run) if path.is_file() else ((), [])
    report.changes[run.file.path] = changes
    if path.is_file() and not problems and up_to_date(changes):
        report.unchanged.append(path)
    else:
        write_atomic(path, fixtures.dumps(run.fixture))
        report.updated.append(path)


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
        _fix_rounds(paths, report)
    for run in check_paths(paths, freshness=False).lessons:
        _write_fixture(run, paths, report)
    final = check_paths(paths)
    final.diagnostics = sorted(
        [*final.diagnostics, *report.refused], key=lambda d: (d.file, d.line, d.column, d.code)
    )
    return report, final
