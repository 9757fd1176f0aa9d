"""Rules over a whole corpus: unique ids, ids matching their folders, references, cycles,
and agreement between the lessons and their catalog.

A corpus is the set of lessons under one folder that holds a ``catalog.json`` (or, without a
catalog, the lessons asked for). Functions here take the :class:`Facts` of model-valid
lessons and return diagnostics; they never read files (a member's document is asked for only
to locate a diagnostic in it).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rlkl.diagnostics import Diagnostic
from rlkl.loader import Document, display_path
from rlkl.models import Catalog, Lesson

LESSON_FILE = "lesson.json"
CATALOG_FILE = "catalog.json"


@dataclass(frozen=True)
class Facts:
    """What the corpus rules read of a model-valid lesson: its id and the ids it names."""

    id: str
    prerequisites: tuple[str, ...]
    related: tuple[str, ...]

    @classmethod
    def of(cls, lesson: Lesson) -> Facts:
        return cls(lesson.id, tuple(lesson.prerequisites), tuple(lesson.related))

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "prerequisites": list(self.prerequisites),
                "related": list(self.related)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Facts:
        """The inverse of :meth:`to_json`; raises ``KeyError``/``TypeError`` on other data."""
        texts = [data["id"], *data["prerequisites"], *data["related"]]
        if not all(isinstance(text, str) for text in texts):
            raise TypeError("facts hold ids (text) only")
        return cls(data["id"], tuple(data["prerequisites"]), tuple(data["related"]))


@dataclass(frozen=True)
class Member:
    """A model-valid lesson of the corpus: where it is, its facts, and its document (parsed
    only when a diagnostic must be located in it; None if it can no longer be read)."""

    path: Path
    display: str
    facts: Facts
    document: Callable[[], Document | None]

    def diagnostic(self, pointer: str, code: str, message: str) -> Diagnostic:
        """A diagnostic at ``pointer`` in this lesson (at its start if it cannot be read)."""
        document = self.document()
        if document is None:
            return Diagnostic(self.display, 1, 1, pointer, code, message)
        return document.diagnostic(pointer, code, message)


@dataclass(frozen=True)
class CatalogFile:
    """A model-valid catalog with the document it came from."""

    document: Document
    catalog: Catalog


def expected_id(path: Path) -> str:
    """The id a lesson at ``path`` must have: its folder name for ``lesson.json``, else the
    file name without ``.json``. The folder as named, made absolute (``rlkl check .`` inside
    a lesson's folder names that folder), not with its symlinks resolved."""
    if path.name == LESSON_FILE:
        return os.path.basename(os.path.dirname(os.path.abspath(path)))
    return path.name.removesuffix(".json")


def _ids_and_folders(members: Sequence[Member]) -> Iterator[Diagnostic]:
    by_id: dict[str, list[Member]] = {}
    for member in members:
        by_id.setdefault(member.facts.id, []).append(member)
        wanted = expected_id(member.path)
        if member.facts.id != wanted:
            place = "folder" if member.path.name == LESSON_FILE else "file"
            yield member.diagnostic(
                "/id", "RLKL302",
                f'id "{member.facts.id}" differs from its {place} name "{wanted}"; '
                "rename one so they match")
    for lesson_id, group in by_id.items():
        for member in group if len(group) > 1 else []:
            others = ", ".join(m.display for m in group if m is not member)
            yield member.diagnostic(
                "/id", "RLKL301", f'id "{lesson_id}" is also used by {others}')


def _references(members: Sequence[Member], known: set[str]) -> Iterator[Diagnostic]:
    for member in members:
        facts = member.facts
        for field in ("prerequisites", "related"):
            for index, ref in enumerate(getattr(facts, field)):
                pointer = f"/{field}/{index}"
                if ref == facts.id:
                    yield member.diagnostic(
                        pointer, "RLKL304", f'lesson "{ref}" lists itself in {field}')
                elif ref not in known:
                    yield member.diagnostic(
                        pointer, "RLKL303",
                        f'"{ref}" in {field} names no lesson in the corpus and no catalog '
                        "entry; fix the id or add it to catalog.json")


def _strongly_connected(graph: dict[str, list[str]]) -> list[set[str]]:
    """Tarjan's strongly connected components (iterative; no recursion limit)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[set[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            node, child = work.pop()
            if child == 0:
                index[node] = low[node] = len(index)
                stack.append(node)
                on_stack.add(node)
            edges = graph[node]
            if child < len(edges):
                work.append((node, child + 1))
                target = edges[child]
                if target not in index:
                    work.append((target, 0))
                elif target in on_stack:
                    low[node] = min(low[node], index[target])
                continue
            if low[node] == index[node]:
                component = set()
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    component.add(top)
                    if top == node:
                        break
                components.append(component)
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return components


def _path(graph: dict[str, list[str]], start: str, goal: str, within: set[str]) -> list[str]:
    """Shortest path start -> goal inside ``within`` (breadth first)."""
    previous: dict[str, str] = {}
    queue = [start]
    for node in queue:
        if node == goal:
            break
        for target in graph[node]:
            if target in within and target not in previous and target != start:
                previous[target] = node
                queue.append(target)
    path = [goal]
    while path[-1] != start:
        path.append(previous[path[-1]])
    return path[::-1]


def _cycles(members: Sequence[Member]) -> Iterator[Diagnostic]:
    by_id = {m.facts.id: m for m in members}
    graph = {lid: [p for p in m.facts.prerequisites if p in by_id and p != lid]
             for lid, m in by_id.items()}
    for component in _strongly_connected(graph):
        if len(component) < 2:
            continue
        for lesson_id in sorted(component):
            member = by_id[lesson_id]
            for index, target in enumerate(member.facts.prerequisites):
                if target in component and target != lesson_id:
                    loop = [lesson_id, *_path(graph, target, lesson_id, component)]
                    yield member.diagnostic(
                        f"/prerequisites/{index}", "RLKL305",
                        "prerequisite cycle: " + " → ".join(loop))


def _catalog(
    members: Sequence[Member], catalog: CatalogFile, unloaded: Sequence[Path]
) -> Iterator[Diagnostic]:
    # A lesson file that exists but failed to load or validate has its own error; it is not
    # "missing" (its id is then the one its place gives it).
    present = {m.facts.id for m in members} | {
        expected_id(path) for path in unloaded if path.name == LESSON_FILE
    }
    listed = {entry.id for entry in catalog.catalog.lessons}
    for index, entry in enumerate(catalog.catalog.lessons):
        pointer = f"/lessons/{index}/status"
        if entry.status == "published" and entry.id not in present:
            yield catalog.document.diagnostic(
                pointer, "RLKL306",
                f'"{entry.id}" is marked published but {entry.id}/{LESSON_FILE} does not exist '
                "next to the catalog")
        elif entry.status == "planned" and entry.id in present:
            yield catalog.document.diagnostic(
                pointer, "RLKL309",
                f'"{entry.id}" is marked planned but its lesson file exists; mark it published')
    for member in members:
        # A standalone file (not <id>/lesson.json) is not part of the catalogued layout.
        if member.path.name == LESSON_FILE and member.facts.id not in listed:
            yield member.diagnostic(
                "/id", "RLKL307",
                f'lesson "{member.facts.id}" is not listed in '
                f"{display_path(catalog.document.path)}")


def check_corpus(
    members: Sequence[Member], catalog: CatalogFile | None, unloaded: Sequence[Path] = ()
) -> list[Diagnostic]:
    """All corpus diagnostics for ``members`` (model-valid lessons) and their catalog;
    ``unloaded`` are the corpus's lesson files that exist but are not model-valid."""
    known = {m.facts.id for m in members}
    if catalog is not None:
        known |= {entry.id for entry in catalog.catalog.lessons}
    found = [*_ids_and_folders(members), *_references(members, known), *_cycles(members)]
    if catalog is not None:
        found.extend(_catalog(members, catalog, unloaded))
    return found
