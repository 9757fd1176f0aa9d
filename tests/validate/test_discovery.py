"""Which files are lessons, which corpus a lesson belongs to, what gets reported."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rlkl.validate import Walks, _Run, _walk, discover, find_catalog, validate_paths

from .helpers import seed


def _lesson(folder: Path, lesson_id: str, prerequisites: list[str] | None = None) -> Path:
    data = seed()
    data.update(id=lesson_id, prerequisites=prerequisites or [], related=[])
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "lesson.json"
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    return path


def _catalog(folder: Path, *ids: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "catalog.json"
    entries = [{"id": i, "title": i.title(), "status": "published"} for i in ids]
    path.write_text(json.dumps({"lessons": entries}), encoding="utf-8")
    return path


def test_discovery_ignores_other_files_and_hidden_folders(tmp_path: Path) -> None:
    one = _lesson(tmp_path / "one", "one")
    (tmp_path / "one" / "claims.yaml").write_text("[]\n")
    (tmp_path / "one" / "fixtures.json").write_text("{}\n")
    _lesson(tmp_path / ".cache" / "two", "two")
    loose = tmp_path / "loose.json"
    loose.write_text("{}")
    assert discover([tmp_path]) == [one]
    assert discover([loose, tmp_path / "catalog.json"]) == [loose]


def test_nearest_catalog_and_nested_corpora(tmp_path: Path) -> None:
    outer = _catalog(tmp_path, "a")
    a = _lesson(tmp_path / "a", "a")
    inner = _catalog(tmp_path / "sub", "b")
    b = _lesson(tmp_path / "sub" / "b", "b", prerequisites=["a"])
    assert find_catalog(a) == outer.resolve()
    assert find_catalog(b) == inner.resolve()
    # "a" is not in the inner corpus, so b's prerequisite is unknown there
    codes = [(Path(d.file).name, d.code) for d in validate_paths([b]).diagnostics]
    assert codes == [("lesson.json", "RLKL303")]
    # the outer corpus does not swallow the inner one (no duplicate ids, no missing entry)
    assert [d.code for d in validate_paths([a]).diagnostics] == []


def test_only_requested_files_are_reported(tmp_path: Path) -> None:
    _catalog(tmp_path, "a", "b")
    a = _lesson(tmp_path / "a", "a", prerequisites=["b"])
    _lesson(tmp_path / "b", "b", prerequisites=["a"])
    result = validate_paths([a])
    assert {Path(d.file).parent.name for d in result.diagnostics} == {"a"}
    assert result.summary() == {"files": 1, "lessons": 1, "errors": 1, "warnings": 0}
    everything = validate_paths([tmp_path])
    assert everything.summary() == {"files": 3, "lessons": 2, "errors": 2, "warnings": 0}
    assert [f.lesson is not None for f in everything.files] == [True, True]


def test_unloadable_lesson_has_no_document(tmp_path: Path) -> None:
    broken = tmp_path / "broken" / "lesson.json"
    broken.parent.mkdir()
    broken.write_text("{", encoding="utf-8")
    result = validate_paths([tmp_path])
    [lesson_file] = result.files
    assert lesson_file.document is None and lesson_file.lesson is None
    assert [d.code for d in result.diagnostics] == ["RLKL105"]


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(folders=st.lists(st.lists(st.sampled_from(["a", "a-b", "a.b", "B", "b", "a0", "ab", "-"]),
                                 min_size=1, max_size=3), max_size=12))
def test_lessons_come_in_paths_order(tmp_path_factory: pytest.TempPathFactory,
                                     folders: list[list[str]]) -> None:
    """Discovery sorts by path parts in C; the order is still Path's own, for names that
    sort differently as parts than as strings ("a/b" before "a-b", "a.b" and "a0")."""
    root = tmp_path_factory.mktemp("walk")
    for parts in folders:
        folder = root.joinpath(*parts)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "lesson.json").write_text("{}")
    lessons = sorted(root.rglob("lesson.json"))
    assert _walk(root).lessons == lessons
    assert discover([root]) == lessons
    assert discover([root, root / folders[0][0]] if folders else [root]) == lessons
    assert discover(list(reversed(lessons))) == lessons


_CATALOG_KINDS = ["none", "file", "folder", "link to file", "dangling link"]


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(kinds=st.lists(st.sampled_from(_CATALOG_KINDS), min_size=4, max_size=4),
       linked_lesson=st.booleans(), linked_folder=st.booleans())
def test_what_a_walk_saw_gives_the_catalog_and_path_the_system_gives(
    tmp_path_factory: pytest.TempPathFactory, kinds: list[str], linked_lesson: bool,
    linked_folder: bool,
) -> None:
    """Validation takes symlinks and catalogs from the walk instead of asking the system for
    every lesson; for lessons, folders and catalogs of every kind (a folder named
    catalog.json, links, a symlinked lesson file or folder) it finds what find_catalog and
    Path.resolve find."""
    base = tmp_path_factory.mktemp("tree")
    (base / "elsewhere").mkdir()
    (base / "elsewhere" / "target.json").write_text("{}")
    folders = [base / "root", base / "root" / "a", base / "root" / "a" / "b",
               base / "root" / "c"]
    for folder, kind in zip(folders, kinds, strict=True):
        folder.mkdir(parents=True, exist_ok=True)
        catalog = folder / "catalog.json"
        if kind == "file":
            catalog.write_text("{}")
        elif kind == "folder":
            catalog.mkdir()
        elif kind == "link to file":
            catalog.symlink_to(base / "elsewhere" / "target.json")
        elif kind == "dangling link":
            catalog.symlink_to(base / "nowhere.json")
    for folder in folders[1:]:
        (folder / "lesson.json").write_text("{}")
    if linked_lesson:
        (base / "root" / "c" / "lesson.json").unlink()
        (base / "root" / "c" / "lesson.json").symlink_to(base / "root" / "a" / "b" / "lesson.json")
    if linked_folder:
        (base / "root" / "d").symlink_to(base / "root" / "a")
    walks: Walks = {}
    requested = [*discover([base / "root"], walks=walks), base / "root" / "d" / "lesson.json"]
    run = _Run()
    run.learn(walks)
    for path in requested:
        if path.exists():
            assert run.resolve(path) == path.resolve(), path
            assert run.catalog_of(path) == find_catalog(path), path
