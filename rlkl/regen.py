"""``rlkl regen``: rewrite fixtures (and, with ``--fix``, dependent prose numbers).

Built on :func:`rlkl.check.check_lesson`, one lesson at a time (across processes for a large
corpus). Writes are atomic, only of files whose content changes, and only inside the corpus
(symlinks resolved, RLKL902 otherwise). With the check cache (:mod:`rlkl.cache`), a lesson
with nothing to write is known without being checked again (:func:`nothing_to_do`).
"""

from __future__ import annotations

import math
import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from rlkl.atomic import write_atomic
from rlkl.cache import Cache
from rlkl.check import (
    CheckResult,
    LessonRun,
    Worked,
    compare_fixtures,
    internal_error,
    run_lesson,
    work_lessons,
)
from rlkl.claims.fixtures import fixtures
from rlkl.claims.fixtures.changes import Change, up_to_date
from rlkl.claims.prose.scanner import format_number
from rlkl.claims.prose.source import encode_like, mention_range, splice
from rlkl.claims.report import Flags, LessonReport
from rlkl.corpus import CATALOG_FILE, LESSON_FILE, Facts
from rlkl.diagnostics import Diagnostic
from rlkl.loader import MAX_BYTES, display_path, file_kind
from rlkl.pool import fingerprint, load_lesson
from rlkl.rules import Rules
from rlkl.validate import LessonFile, Walks, discover, validate_paths

MAX_FIX_ROUNDS = 5


def _blocked(path: Path) -> tuple[str, str] | None:
    """(code, message) when regen must not replace ``path``: not a regular file (RLKL112),
    read-only (RLKL906: an author's chmod says "do not touch"), or not reachable (RLKL905)."""
    try:
        info = os.stat(path)  # through a symlink: the file that would be replaced
    except FileNotFoundError:
        if path.is_symlink():
            return "RLKL905", "it is a symlink to nothing; regen does not create its target"
        return None
    except OSError as error:
        return "RLKL905", f"cannot reach it: {error.strerror or type(error).__name__}"
    if not stat.S_ISREG(info.st_mode):
        return "RLKL112", f"it is {file_kind(info.st_mode)}, not a regular file; not replaced"
    if not info.st_mode & 0o222:
        return "RLKL906", ("it is read-only, so regen does not replace it; make it writable "
                           "(chmod u+w) if it should be regenerated")
    return None


def write_checked(path: Path, text: str) -> Diagnostic | None:
    """:func:`write_atomic` unless :func:`_blocked` says no; a refusal or a failed write
    (a read-only folder, a full disk) is a diagnostic at ``path``, never a traceback, and
    leaves the old file as it was. Nor is a file written that rlkl would refuse to read:
    over :data:`~rlkl.loader.MAX_BYTES` (RLKL908)."""
    size = len(text.encode("utf-8", "surrogatepass"))
    blocked = _blocked(path) or (
        ("RLKL908", f"it would be {size} bytes, over the {MAX_BYTES}-byte limit rlkl reads "
                    "(a lesson with fewer numbers, or split in two, fits); the old file is "
                    "unchanged") if size > MAX_BYTES else None
    )
    if blocked is None:
        try:
            write_atomic(path, text)
            return None
        except OSError as error:
            reason = error.strerror or type(error).__name__
            blocked = "RLKL905", f"cannot write it ({reason}); the old file is unchanged"
    code, why = blocked
    return Diagnostic(display_path(path), 1, 1, "", code, f"regen did not write here: {why}")


@dataclass
class RegenReport:
    """What ``regen`` wrote, left alone, removed and (with ``--fix``) rewrote in the prose."""

    updated: list[Path] = field(default_factory=list)
    unchanged: list[Path] = field(default_factory=list)
    removed: list[Path] = field(default_factory=list)
    fixed: dict[Path, int] = field(default_factory=dict)  # lesson -> numbers rewritten
    not_fixed: dict[Path, str] = field(default_factory=dict)  # lesson -> why regen left it
    refused: list[Diagnostic] = field(default_factory=list)  # writes outside the corpus (RLKL902)
    # lesson -> its changes against the committed fixtures before regen wrote (what it acted
    # on); a lesson the check cache answered (nothing to do) has no entry: it was not worked on
    changes: dict[Path, tuple[Change, ...]] = field(default_factory=dict)

    def merge(self, other: RegenReport) -> None:
        """Add what regen did to another lesson (each lesson is reported by itself)."""
        self.updated += other.updated
        self.unchanged += other.unchanged
        self.removed += other.removed
        self.refused += other.refused
        self.not_fixed.update(other.not_fixed)
        self.changes.update(other.changes)
        for lesson, count in other.fixed.items():
            self.fixed[lesson] = self.fixed.get(lesson, 0) + count


def _unfixable(flags: Flags) -> str:
    """Why ``--fix`` must not touch a lesson ("" when it may): never guess between inputs."""
    if flags.first_step:
        return f"its claims.yaml has errors; {flags.first_step}"
    return ambiguity(flags) or (f"{flags.conflicting}; fix that first" if flags.conflicting
                                else "")


def ambiguity(flags: Flags) -> str:
    """Why ``--fix`` writes nothing for the lesson, fixtures included ("" when it may): its
    numbers have no single reading (:attr:`~rlkl.claims.report.LessonReport.ambiguous`)."""
    if not flags.ambiguous:
        return ""
    return f"{flags.ambiguous}, and --fix does not guess; nothing was written; fix that first"


def _fix_lesson(run: LessonRun, report: RegenReport) -> int:
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
        refused = write_checked(run.file.path, splice(text, edits))
        if refused is not None:
            report.refused.append(refused)
            return 0
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


def _real(path: Path) -> Path | None:
    """``path`` with every symlink resolved; None when it cannot be (a symlink loop)."""
    try:
        return path.resolve()
    except (OSError, RuntimeError):  # RuntimeError: a symlink loop (Python < 3.13)
        return None


def owns(root: Path, target: Path) -> bool:
    """Whether ``target``, with every symlink resolved, lies inside ``root`` (also resolved);
    False when it cannot be resolved: regen never writes through a symlink loop."""
    real, corpus = _real(target), _real(root)
    return real is not None and corpus is not None and real.is_relative_to(corpus)


def in_corpus(lesson: Path, root: Path) -> bool:
    """Whether regen may write a lesson and its fixtures: :func:`owns` of both. When their
    folder resolves inside ``root``, only the files that are symlinks need resolving (any
    other resolves to its name in that folder)."""
    files: tuple[Path, ...] = (lesson, fixtures.path_for(lesson))
    if owns(root, lesson.parent):
        files = tuple(path for path in files if os.path.islink(path))
    return all(owns(root, path) for path in files)


def _refusal(run: LessonRun, root: Path) -> Diagnostic | None:
    """RLKL902 when the lesson's folder, or the lesson or fixtures file, leads out of its
    corpus or cannot be resolved (regen then writes nothing)."""
    if in_corpus(run.file.path, root):
        return None
    folder = run.file.path.parent
    if owns(root, folder):
        link = next(p for p in (run.file.path, run.fixture_path) if not owns(root, p))
        where = f"{link.as_posix()} is a symlink out of the corpus {root.as_posix()} or in a loop"
    else:
        real = _real(folder)
        leads = real.as_posix() if real is not None else "nothing (a symlink loop)"
        where = f"{folder.as_posix()} resolves to {leads}, outside the corpus {root.as_posix()}"
    return run.document.diagnostic(
        "", "RLKL902", f"regen does not write here: {where}; nothing was written or removed")


def _fix_rounds(run: LessonRun, asked: Sequence[Path], report: RegenReport) -> LessonRun | None:
    """``--fix`` on one lesson: rewrite its failing output numbers until nothing changes (a
    few rounds at most: a rewritten number can be the input of another claim). Returns the
    lesson as it now is, checked; None when it no longer loads as a lesson (its validation
    says why). Raises what a stage raises."""
    for _ in range(MAX_FIX_ROUNDS):
        path = run.file.path
        why = _unfixable(run.flags()) or (
            "it lies outside the corpus (RLKL902)" if _refusal(run, corpus_root(path, asked))
            else "")
        if why:
            report.not_fixed[path] = why
            break
        count = _fix_lesson(run, report)
        if not count:
            break
        report.fixed[path] = report.fixed.get(path, 0) + count
        again = run_lesson(load_lesson(path), freshness=False)
        if again is None:
            return None
        run = again
    return run


def _write_fixture(run: LessonRun, paths: Sequence[Path], report: RegenReport) -> None:
    """Write, keep or remove one lesson's fixtures, as :func:`rlkl.claims.fixtures.changes.compare`
    says (only entries that are not current are news; numbers recorded the same are kept,
    :func:`rlkl.claims.fixtures.fixtures.written`)."""
    refusal = _refusal(run, corpus_root(run.file.path, paths))
    if refusal is not None:
        report.refused.append(refusal)
        return
    path = run.fixture_path
    if not run.fixture["claims"] and not run.fixture["exempt"]:
        if path.is_file() and not path.is_symlink():
            try:
                path.unlink()
                report.removed.append(path)
            except OSError as error:
                report.refused.append(Diagnostic(
                    display_path(path), 1, 1, "", "RLKL905",
                    f"regen could not remove these fixtures ({error.strerror}); the lesson "
                    "has no claims left"))
        return
    changes, problems, recorded = compare_fixtures(run) if os.path.lexists(path) else ((), [], None)
    report.changes[run.file.path] = changes
    if path.is_file() and not problems and up_to_date(changes):
        report.unchanged.append(path)
        return
    refused = write_checked(path, fixtures.dumps(fixtures.written(run.fixture, recorded)))
    if refused is None:
        report.updated.append(path)
    else:
        report.refused.append(refused)


def _shared_fixtures(lessons: Sequence[Path]) -> frozenset[Path]:
    """Lesson files whose fixtures file (symlinks resolved) another lesson file of the run
    also uses: each but its owner, the ``lesson.json`` of the folder the file really is in.
    Two lesson files in one folder share it, and so do two folders when one's
    ``fixtures.json`` is a symlink to the other's. Decided by the files found, valid or not:
    a ``lesson.json`` broken just now still owns its fixtures, which no other lesson file
    may overwrite."""
    by_file: dict[str, list[Path]] = {}
    for path in lessons:
        by_file.setdefault(os.path.realpath(fixtures.path_for(path)), []).append(path)
    return frozenset(
        path for real, group in by_file.items() if len(group) > 1 for path in group
        if path.name != LESSON_FILE or os.path.realpath(path.parent) != os.path.dirname(real))


def _shared(run: LessonRun) -> Diagnostic:
    """RLKL512: this lesson file's fixtures are another lesson file's (:func:`_shared_fixtures`)."""
    if run.file.path.name == LESSON_FILE:  # its fixtures.json is a symlink into another folder
        where = (f"its {fixtures.FILENAME} is a symlink to "
                 f"{os.path.realpath(run.fixture_path)}, the fixtures of another lesson")
    else:
        where = (f"{run.file.path.name} shares {fixtures.FILENAME} with another lesson file "
                 "in its folder")
    return run.document.diagnostic(
        "", "RLKL512",
        f"{where}; regen writes fixtures only for the lesson.json of the folder they are in "
        "(one lesson per folder)")


def regen_lesson(
    file: LessonFile, *, asked: Sequence[Path], fix: bool, shared: frozenset[Path]
) -> Worked[RegenReport] | None:
    """One lesson: the ``--fix`` rounds, its fixtures written, kept or removed, and its
    report afterwards (the lesson as it now is), with the fingerprint of the text it started
    from. A stage that raises makes the lesson unfinished (RLKL901, as in ``check_paths``)
    and the run goes on. Lessons are independent, so a large corpus runs this across
    processes (:func:`rlkl.check.work_lessons`). None: no valid lesson."""
    if file.document is None:
        return None
    done = RegenReport()
    try:
        report = _regen(file, asked, fix, shared, done)
    except Exception as raised:  # any stage failure is reported at its lesson
        report = LessonReport.failure(str(file.path), file.display,
                                      internal_error(file.path, raised))
    if report is None:
        return None
    return Worked(report, fingerprint(file.document.text), done)


def _regen(
    file: LessonFile, asked: Sequence[Path], fix: bool, shared: frozenset[Path],
    report: RegenReport,
) -> LessonReport | None:
    """:func:`regen_lesson`'s work, what it did in ``report``; the lesson's report after it."""
    run = run_lesson(file, freshness=False)
    if run is not None and fix:
        run = _fix_rounds(run, asked, report)
    if run is None:
        return None
    flags = run.flags()
    if fix and ambiguity(flags):
        report.not_fixed[run.file.path] = ambiguity(flags)
    elif flags.first_step:  # claims unknown: fixtures written now would lose them
        report.not_fixed[run.file.path] = (
            f"its claims.yaml has errors, so its fixtures are kept; {flags.first_step}, then "
            "run `rlkl regen` again")
    elif run.file.path in shared:
        report.refused.append(_shared(run))
    else:
        _write_fixture(run, asked, report)
    run.compare()  # the lesson as regen saw it: only its fixtures are new
    return run.report()


def nothing_to_do(
    entry: LessonReport, lesson: Path, asked: Sequence[Path], shared: frozenset[Path]
) -> bool:
    """Whether regen has nothing to do for a lesson whose files the cached report ``entry``
    (of a check or a regen) answers for. The one definition of when regen skips a lesson:

    - the lesson reported nothing, no error or warning (so every claim verified, ``--fix``
      rewrites nothing and has no reason to refuse it);
    - its fixtures already say exactly what regen would write
      (:attr:`~rlkl.claims.report.LessonReport.current`; a check can pass while they
      record an old glyph);
    - they are its own (no second lesson file shares them) and inside the corpus (else
      regen reports why it does not write there)."""
    if entry.diagnostics or not entry.current or lesson in shared:
        return False
    return in_corpus(lesson, corpus_root(lesson, asked))


def regen_paths(
    paths: Sequence[Path], *, fix: bool = False, jobs: int = 1, cache: Cache | None = None,
    rules: Rules | None = None,
) -> tuple[RegenReport, CheckResult]:
    """Rewrite the fixtures (with ``fix``, also dependent prose numbers) of lessons under ``paths``.

    Only files whose content changes are written, each atomically, and only inside the corpus
    (symlinks resolved). The one file regen ever deletes is the ``fixtures.json`` beside a
    lesson it just processed that has no claims left; fixtures of lessons not under ``paths``,
    and any other file called ``fixtures.json``, are never touched. Each lesson is read,
    validated and worked on in one pass (:func:`rlkl.pool.map_paths`: with ``jobs`` > 1, a
    large corpus in that many processes); the corpus rules then run on the facts of the
    lessons as regen left them, and a lesson that was not valid is validated here. Returns
    what changed and a fresh check of the result (every lesson as counts and diagnostics, in
    ``counted``), with the diagnostics ``rules`` report (None: all).

    With the ``rlkl check`` ``cache``, a lesson regen has nothing to do for
    (:func:`nothing_to_do`) is not worked on again (``changes`` has no entry for it), and a
    lesson regen leaves as it was is cached.
    """
    walks: Walks = {}
    lessons = discover(paths, walks=walks)
    asked, shared = tuple(paths), _shared_fixtures(lessons)
    each = partial(regen_lesson, asked=asked, fix=fix, shared=shared)

    def reuse(path: Path, hit: LessonReport) -> Worked[RegenReport] | None:
        if not nothing_to_do(hit, path, asked, shared):
            return None
        return Worked(hit, done=RegenReport(unchanged=[fixtures.path_for(path)]))

    answered, _ = work_lessons(lessons, each, cache, jobs, reuse=reuse)
    done = {path: answered[path] for path in lessons if path in answered}  # lesson order
    report = RegenReport()
    for one in done.values():
        if one.done is not None:
            report.merge(one.done)

    def known(path: Path, display: str) -> Facts | None:  # rlkl.validate.Known
        one = done.get(path)
        return one.report.facts if one is not None else None

    validation = validate_paths(paths, known=known, walks=walks)
    result = CheckResult(validation, [], list(validation.diagnostics))
    for one in done.values():
        result.add(one.report, cached=one.cached)
    result.diagnostics = sorted(
        [*result.diagnostics, *dict.fromkeys(report.refused)],
        key=lambda d: (d.file, d.line, d.column, d.code),
    )
    return report, result.select(rules)
