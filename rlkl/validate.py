"""Validate lessons: discover files, load them strictly, check schema and models, then the
corpus they belong to. One pass, one sorted list of diagnostics.

Each lesson belongs to the corpus of the nearest folder above it holding ``catalog.json``.
When only some files are asked for, the whole corpus is still read (references and ids are
corpus-wide) but diagnostics are reported only for the files asked for — and for the catalog
when it lies inside a folder asked for.

A caller that already knows some lessons to be valid (``known``: a cache keyed on their bytes,
as a warm ``rlkl check`` has) gives their :class:`~rlkl.corpus.Facts`; those lessons are not
parsed, and the corpus rules run on the facts. Their documents are read when first asked for.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from operator import attrgetter
from pathlib import Path

from rlkl.conformance import check_document
from rlkl.corpus import CATALOG_FILE, LESSON_FILE, CatalogFile, Facts, Member, check_corpus
from rlkl.diagnostics import Diagnostic, Severity
from rlkl.loader import Document, LoadError, display_path, load_json
from rlkl.models import Catalog, Lesson

Known = Callable[[Path, str], Facts | None]
"""(lesson path, its display) -> its facts when the caller knows it to be valid, else None."""


class LessonFile:
    """One lesson file: its document (None if unloadable) and model (None if invalid), and
    the :class:`~rlkl.corpus.Facts` of a valid one.

    A lesson given as known (``facts`` without a document) is read and parsed when its
    document or model is first asked for; should it no longer be a valid lesson by then, both
    are None, as for any invalid lesson.
    """

    def __init__(
        self,
        document: Document | None,
        lesson: Lesson | None,
        path: Path,
        facts: Facts | None = None,
        display: str | None = None,
    ) -> None:
        self.path = path
        self.display = (
            document.display if document is not None else display or display_path(path)
        )
        self._document = document
        self._lesson = lesson
        self._unread = facts is not None and document is None
        self.facts = Facts.of(lesson) if lesson is not None else facts

    def _read(self) -> None:
        self._unread = False
        read, _ = load_lesson(self.path)
        self._document, self._lesson = read._document, read._lesson

    @property
    def document(self) -> Document | None:
        if self._unread:
            self._read()
        return self._document

    @property
    def lesson(self) -> Lesson | None:
        if self._unread:
            self._read()
        return self._lesson

    def __repr__(self) -> str:
        return f"LessonFile({self.path!s}, facts={self.facts!r})"


def load_lesson(path: Path) -> tuple[LessonFile, list[Diagnostic]]:
    """The lesson at ``path`` read, parsed and checked against its schema and model, with
    what is wrong with it (its document is None if unloadable, its model None if invalid)."""
    try:
        document = load_json(path)
    except LoadError as error:
        return LessonFile(None, None, path), error.diagnostics
    model, found = check_document(document, Lesson, "lesson")
    return LessonFile(document, model, path), found


@dataclass
class ValidationResult:
    """Everything one validation run found."""

    diagnostics: list[Diagnostic]
    files: list[LessonFile]
    checked: int = 0  # files reported on: lessons plus in-scope catalogs

    def summary(self) -> dict[str, int]:
        """Counts for reports: ``files``, ``lessons``, ``errors``, ``warnings``."""
        errors = sum(d.severity is Severity.ERROR for d in self.diagnostics)
        return {
            "files": max(self.checked, len(self.files)),
            "lessons": len(self.files),
            "errors": errors,
            "warnings": len(self.diagnostics) - errors,
        }


@dataclass(frozen=True)
class _Tree:
    """One walk of a folder: the lesson and catalog files below it (at any depth), the
    folders whose ``catalog.json`` is a regular file, and the folders it could not list;
    the folders it listed, and the paths it saw are no symlinks (the folders below the root
    and the lesson files), so validation need not ask the system again."""

    lessons: list[Path]
    catalogs: list[Path]
    holders: frozenset[Path]
    unreadable: list[Path]
    listed: frozenset[Path]
    plain: frozenset[Path]


Walks = dict[Path, _Tree]
"""The folders one run has walked (:func:`discover` and :func:`validate_paths` share them)."""

_IN_TREE_ORDER = None if os.name == "nt" else attrgetter("parts")
"""The sort key of paths below one root: their parts, which is Path's own order for paths that
share a root (on Windows, Path's order itself, which ignores case), compared in C rather than
by ``Path.__lt__`` (~9,000 comparisons for 1,000 lessons)."""


def _walk(root: Path) -> _Tree:
    """Walk ``root`` once, skipping hidden folders (``.git``, ``.venv``), symlinked folders
    and anything named like a lesson or catalog file.

    Anything called ``lesson.json`` or ``catalog.json`` counts, a folder or FIFO too (the
    loader then says what it is rather than rlkl ignoring it)."""
    lessons: list[Path] = []
    catalogs: list[Path] = []
    holders: set[Path] = set()
    unreadable: list[Path] = []
    listed: set[Path] = set()
    plain: set[Path] = set()
    folders = [root]
    while folders:
        folder = folders.pop()
        try:
            with os.scandir(folder) as listing:
                entries = list(listing)
        except OSError:
            unreadable.append(folder)
            continue
        listed.add(folder)
        for entry in entries:
            name = entry.name
            if name == LESSON_FILE:
                lessons.append(folder / name)
                if not _exists(entry.is_symlink):
                    plain.add(lessons[-1])
            elif name == CATALOG_FILE:
                catalogs.append(folder / name)
                if _exists(entry.is_file):
                    holders.add(folder)
            elif not name.startswith(".") and _real_folder(entry):
                folders.append(folder / name)
                plain.add(folders[-1])
    return _Tree(sorted(lessons, key=_IN_TREE_ORDER), sorted(catalogs, key=_IN_TREE_ORDER),
                 frozenset(holders), sorted(unreadable, key=_IN_TREE_ORDER),
                 frozenset(listed), frozenset(plain))


def _walked(root: Path, walks: Walks | None) -> _Tree:
    """``_walk(root)``, once per run when ``walks`` keeps the walks."""
    if walks is None:
        return _walk(root)
    if root not in walks:
        walks[root] = _walk(root)
    return walks[root]


def _real_folder(entry: os.DirEntry[str]) -> bool:
    """Whether a listed entry is a folder, not a symlink to one (False when unknowable)."""
    try:
        return entry.is_dir(follow_symlinks=False)
    except OSError:
        return False


def _exists(check: Callable[[], bool]) -> bool:
    """``Path.is_file()``/``is_dir()`` that answer False when the question itself fails
    (a folder without search permission raises PermissionError on Python < 3.12)."""
    try:
        return check()
    except OSError:
        return False


def unreadable_folder(folder: Path) -> Diagnostic:
    """RLKL113 for a folder discovery could not list (its lessons were not found)."""
    return Diagnostic(display_path(folder), 1, 1, "", "RLKL113",
                      "cannot read this folder (permission denied or gone), so the lessons "
                      "in it were not found or checked; make it readable")


def _corpus_files(root: Path, walks: Walks | None = None) -> list[Path]:
    """The lesson files of the corpus whose catalog lies in ``root``: those below it but not
    below a sub-folder that holds its own catalog."""
    tree = _walked(root, walks)

    def own(lesson: Path) -> bool:
        folder = lesson.parent
        while folder != root:
            if folder in tree.holders:
                return False
            folder = folder.parent
        return True

    return [lesson for lesson in tree.lessons if own(lesson)]


def discover(
    paths: Sequence[Path],
    unreadable: list[Path] | None = None,
    walks: Walks | None = None,
) -> list[Path]:
    """Lesson files named by ``paths``: every ``lesson.json`` below a folder (at any depth);
    a file named explicitly is taken as a lesson (unless it is a ``catalog.json``). Folders
    that cannot be listed are appended to ``unreadable``."""
    found: dict[Path, None] = {}  # in the order found: each tree's lessons come sorted
    for path in paths:
        if _exists(path.is_dir):
            tree = _walked(path, walks)
            found.update(dict.fromkeys(tree.lessons))
            if unreadable is not None:
                unreadable.extend(tree.unreadable)
        elif path.name != CATALOG_FILE:
            found[path] = None
    return sorted(found)


def find_catalog(lesson_path: Path) -> Path | None:
    """The nearest ``catalog.json`` in the folders above ``lesson_path`` (None if none)."""
    return _catalog_in(lesson_path.resolve().parent, {})


def _catalog_in(folder: Path, known: dict[Path, Path | None]) -> Path | None:
    """The nearest ``catalog.json`` in ``folder`` (resolved) or above it; ``known`` keeps
    each folder's answer, so lessons that share parents ask each folder once."""
    if folder not in known:
        candidate = folder / CATALOG_FILE
        if _exists(candidate.is_file):
            known[folder] = candidate
        else:
            above = folder.parent
            known[folder] = None if above == folder else _catalog_in(above, known)
    return known[folder]


def _requested_catalogs(paths: Sequence[Path], walks: Walks) -> set[Path]:
    found: set[Path] = set()
    for path in paths:
        if _exists(path.is_dir):
            found.update(p.resolve() for p in _walked(path, walks).catalogs)
        elif path.name == CATALOG_FILE and _exists(path.exists):
            found.add(path.resolve())
    return found


@dataclass
class _Run:
    """Per-run cache so every file is loaded and checked once."""

    lessons: dict[Path, tuple[LessonFile, list[Diagnostic]]] = field(default_factory=dict)
    catalogs: dict[Path, tuple[CatalogFile | None, list[Diagnostic]]] = field(
        default_factory=dict)
    resolved: dict[Path, Path] = field(default_factory=dict)
    catalog_at: dict[Path, Path | None] = field(default_factory=dict)
    known: Known | None = None
    walks: Walks = field(default_factory=dict)  # what the walks saw (:class:`_Tree`)
    listed: set[Path] = field(default_factory=set)
    plain: set[Path] = field(default_factory=set)
    holders: set[Path] = field(default_factory=set)

    def learn(self, walks: Walks) -> None:
        """Take in what ``walks`` saw of folders, symlinks and catalogs (each walk once)."""
        for root, tree in walks.items():
            if self.walks.get(root) is not tree:
                self.walks[root] = tree
                self.listed |= tree.listed
                self.plain |= tree.plain
                self.holders |= tree.holders

    def resolve(self, path: Path) -> Path:
        """``path`` with its symlinks resolved, once per run: from its folder's resolution
        when it is no symlink itself (lessons share folders; a walk saw which are none),
        else by the system."""
        found = self.resolved.get(path)
        if found is None:
            parent = path.parent
            if parent != path and path.name != ".." and (
                    path in self.plain or not os.path.islink(path)):
                found = self.resolve(parent) / path.name
            else:
                found = path.resolve()
            self.resolved[path] = found
        return found

    def catalog_of(self, lesson_path: Path) -> Path | None:
        """:func:`find_catalog`, asking each folder once per run (lessons share parents),
        and not at all for a folder a walk listed (it saw whether a catalog is there)."""
        folder = lesson_path.parent
        if lesson_path in self.plain and folder in self.listed:
            return self._catalog_from(folder)
        return _catalog_in(self.resolve(lesson_path).parent, self.catalog_at)

    def _catalog_from(self, folder: Path) -> Path | None:
        """:func:`_catalog_in` of a listed folder's resolution, from what its walk saw."""
        at = self.resolve(folder)
        if at not in self.catalog_at:
            if folder in self.holders:
                self.catalog_at[at] = at / CATALOG_FILE
            elif folder in self.plain and folder.parent in self.listed:
                self.catalog_at[at] = self._catalog_from(folder.parent)
            else:
                above = at.parent
                self.catalog_at[at] = None if above == at else _catalog_in(above, self.catalog_at)
        return self.catalog_at[at]

    def lesson(self, path: Path) -> tuple[LessonFile, list[Diagnostic]]:
        key = self.resolve(path)
        found = self.lessons.get(key)
        if found is None and self.known is not None:
            display = display_path(path)
            facts = self.known(path, display)
            if facts is not None:
                found = LessonFile(None, None, path, facts, display), []
        if found is None:
            found = load_lesson(path)
        self.lessons[key] = found
        return found

    def catalog(self, path: Path) -> tuple[CatalogFile | None, list[Diagnostic]]:
        key = self.resolve(path)
        if key not in self.catalogs:
            try:
                document = load_json(path)
            except LoadError as error:
                self.catalogs[key] = None, error.diagnostics
            else:
                model, found = check_document(document, Catalog, "catalog")
                loaded = CatalogFile(document, model) if model is not None else None
                self.catalogs[key] = loaded, found
        return self.catalogs[key]


def _members(files: Iterable[LessonFile]) -> list[Member]:
    return [Member(f.path, f.display, f.facts, lambda f=f: f.document)  # type: ignore[misc]
            for f in files if f.facts is not None]


def validate_paths(
    paths: Sequence[Path], *, known: Known | None = None, walks: Walks | None = None
) -> ValidationResult:
    """Validate the lessons (and catalogs) named by ``paths``; see the module docstring.
    ``walks``: folders the caller has walked already (:func:`discover`), walked once."""
    run = _Run(known=known)
    unreadable: list[Path] = []
    walks = {} if walks is None else walks
    requested = discover(paths, unreadable, walks)
    catalogs_in_scope = _requested_catalogs(paths, walks)
    run.learn(walks)
    groups: dict[Path | None, list[Path]] = {}
    for path in requested:
        groups.setdefault(run.catalog_of(path), []).append(path)
    for in_scope in catalogs_in_scope:
        groups.setdefault(in_scope, [])

    reported: set[Path] = {run.resolve(p) for p in requested} | catalogs_in_scope
    diagnostics = [unreadable_folder(folder) for folder in sorted(set(unreadable))]
    for catalog_path, asked in groups.items():
        below = _corpus_files(catalog_path.parent, walks) if catalog_path else []
        run.learn(walks)  # the corpus's own walk, when it is not one of the requested
        corpus = {run.resolve(path): path for path in [*below, *asked]}
        files = [run.lesson(corpus[key])[0] for key in sorted(corpus)]
        catalog = None
        if catalog_path is not None:
            catalog, found = run.catalog(catalog_path)
            if catalog_path in catalogs_in_scope:
                diagnostics.extend(found)
        unloaded = [f.path for f in files if f.facts is None]
        unloaded += [folder / LESSON_FILE for folder in unreadable]  # there, but unlisted
        corpus_found = check_corpus(_members(files), catalog, unloaded)
        diagnostics.extend(d for d in corpus_found if _is_reported(d, files, catalog, reported))
    for path in requested:
        diagnostics.extend(run.lesson(path)[1])

    unique = sorted(set(diagnostics), key=lambda d: (d.file, d.line, d.column, d.code, d.pointer))
    lesson_files = [run.lesson(path)[0] for path in requested]
    return ValidationResult(unique, lesson_files, len(reported))


def _is_reported(
    diagnostic: Diagnostic,
    files: Sequence[LessonFile],
    catalog: CatalogFile | None,
    reported: set[Path],
) -> bool:
    """Whether a corpus diagnostic concerns a file the run reports on."""
    places = [(f.display, f.path) for f in files]
    if catalog is not None:
        places.append((catalog.document.display, catalog.document.path))
    return any(display == diagnostic.file and path.resolve() in reported
               for display, path in places)
