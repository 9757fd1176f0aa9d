"""A rebuild renders only the lesson pages that changed (rlkl.site.kept), and what it writes
is byte for byte what a build that renders every page writes."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

import rlkl.site.lesson as site_lesson
import rlkl.site.plugin as plugin_module
from rlkl.site.build import BUILT_IN, build_site
from tests.site.helpers import CONTENT

LESSONS = ("ppo-clipped-objective", "policy-gradient-kl-control", "kl-direction-estimators")


def _content(tmp_path: Path) -> Path:
    """Three lessons that link to each other, and the catalog."""
    content = tmp_path / "content"
    content.mkdir()
    shutil.copy(CONTENT / "catalog.json", content)
    for lesson in LESSONS:
        shutil.copytree(CONTENT / lesson, content / lesson)
    return content


def _tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


@pytest.fixture
def rendered(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The lesson pages rendered (their Markdown made) from now on."""
    made: list[str] = []
    real = site_lesson.lesson_markdown

    def spy(record, **options):  # type: ignore[no-untyped-def]
        made.append(record.lesson.id)
        return real(record, **options)

    monkeypatch.setattr(site_lesson, "lesson_markdown", spy)
    return made


def _builder(tmp_path: Path, content: Path, monkeypatch: pytest.MonkeyPatch
             ) -> Callable[[str, bool], dict[str, bytes]]:
    def built(name: str, cached: bool = True) -> dict[str, bytes]:
        monkeypatch.setenv("RLKL_CACHE_DIR", str(tmp_path / "cache") if cached else "off")
        return _tree(build_site(BUILT_IN, tmp_path / name, content))

    return built


def _edit(content: Path, lesson: str, old: str, new: str) -> None:
    path = content / lesson / "lesson.json"
    text = path.read_text("utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), "utf-8")


def test_a_rebuild_writes_the_kept_pages_and_renders_only_the_changed_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, rendered: list[str]
) -> None:
    content = _content(tmp_path)
    built = _builder(tmp_path, content, monkeypatch)
    first = built("first")
    assert sorted(rendered) == sorted(LESSONS)
    rendered.clear()
    assert built("again") == first  # nothing changed: every page kept, the same bytes
    assert rendered == []
    _edit(content, "kl-direction-estimators", '"evidenceNotes": "',
          '"evidenceNotes": "Read first. ')
    changed = built("changed")
    assert rendered == ["kl-direction-estimators"]
    assert changed != first
    assert built("cold", cached=False) == changed  # as a build that renders every page


def test_a_new_title_renders_every_page_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, rendered: list[str]
) -> None:
    """A lesson's name is in every page's navigation and in the links other lessons make to
    it: no page is kept."""
    content = _content(tmp_path)
    built = _builder(tmp_path, content, monkeypatch)
    built("first")
    path = content / LESSONS[1] / "lesson.json"
    path.write_text(json.dumps({**json.loads(path.read_text("utf-8")),
                                "name": "A renamed lesson"}, ensure_ascii=False), "utf-8")
    rendered.clear()
    renamed = built("renamed")
    assert sorted(rendered) == sorted(LESSONS)
    assert built("cold", cached=False) == renamed
    assert b"A renamed lesson" in renamed[f"lessons/{LESSONS[0]}/index.html"]


def test_a_damaged_kept_page_is_rendered_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, rendered: list[str]
) -> None:
    content = _content(tmp_path)
    built = _builder(tmp_path, content, monkeypatch)
    first = built("first")
    kept = sorted((tmp_path / "cache").glob("site-page-*.json"))
    assert len(kept) == len(LESSONS)
    for path in kept:
        path.write_text('{"key": "' + path.stem.removeprefix("site-page-")
                        + '", "data": {"html": 1}}', "utf-8")
    rendered.clear()
    assert built("again") == first
    assert sorted(rendered) == sorted(LESSONS)


def test_a_site_with_another_plugin_keeps_no_page(tmp_path: Path) -> None:
    """Another plugin may make a page depend on what no key covers (a file's last commit):
    its site renders every page, every time."""
    from mkdocs.config.defaults import MkDocsConfig

    from rlkl.site.kept import keepable

    (tmp_path / "docs").mkdir()

    def config(*plugins: str) -> MkDocsConfig:
        loaded = MkDocsConfig()
        loaded.load_dict({"site_name": "x", "docs_dir": str(tmp_path / "docs"), "theme": "material",
                          "site_dir": str(tmp_path / "out"), "plugins": list(plugins)})
        assert not loaded.validate()[0]
        return loaded

    assert not keepable(config("search", "tags"))
    assert keepable(config("search")) and keepable(config())


def _own_site(tmp_path: Path, home: str, plugins: list[str]) -> Path:
    """An author's strict mkdocs.yml with ``plugins`` in this order and a home page."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text(home, "utf-8")
    listed = "".join("  - rlkl:\n      experiment: false\n" if p == "rlkl" else f"  - {p}\n"
                     for p in plugins)
    config = tmp_path / "mkdocs.yml"
    config.write_text("site_name: Ours\nstrict: true\ntheme:\n  name: material\n  font: false\n"
                      f"plugins:\n{listed}"
                      "nav:\n  - Home: index.md\n  - Lessons: lessons/index.md\n", "utf-8")
    return config


def test_a_build_that_warns_keeps_no_page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                          ) -> None:
    """A strict build with a warning fails, and a kept page's own links are not validated
    again: nothing of it is kept, so the next build finds the warning again."""
    from rlkl.site.build import SiteError

    content = _content(tmp_path)
    config = _own_site(tmp_path, "# Ours\n\nSee [gone](gone.md).\n", ["search", "rlkl"])
    monkeypatch.setenv("RLKL_CACHE_DIR", str(tmp_path / "cache"))
    for _ in range(2):
        with pytest.raises(SiteError) as failed:
            build_site(config, tmp_path / "out", content)
        assert any("gone.md" in m for m in failed.value.messages), failed.value.messages
        assert list((tmp_path / "cache").glob("site-page-*.json")) == []
    (tmp_path / "docs" / "index.md").write_text("# Ours\n", "utf-8")
    build_site(config, tmp_path / "out", content)
    assert len(list((tmp_path / "cache").glob("site-page-*.json"))) == len(LESSONS)


def test_rlkl_before_search_in_the_plugins_keeps_the_search_index_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, rendered: list[str]
) -> None:
    """The search index makes its list of entries in its own on_config, which runs after
    rlkl's here: the kept pages' entries go to that list, on every build of the process."""
    content = _content(tmp_path)
    config = _own_site(tmp_path, "# Ours\n", ["rlkl", "search"])
    monkeypatch.setenv("RLKL_CACHE_DIR", str(tmp_path / "cache"))
    trees = [_tree(build_site(config, tmp_path / f"out{i}", content)) for i in range(3)]
    assert trees[1] == trees[0] and trees[2] == trees[0]
    assert sorted(rendered) == sorted(LESSONS)  # the first build only
    assert b"lessons/kl-direction-estimators/" in trees[2]["search/search_index.json"]


def test_pages_made_across_processes_are_the_pages_made_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """From PAGES_POOL_MIN pages, their records and Markdown are made by the check's
    processes: the site is the same bytes."""
    from rlkl.site import records

    content = _content(tmp_path)
    built = _builder(tmp_path, content, monkeypatch)
    here = built("here", cached=False)
    pools: list[tuple[int, int]] = []
    real = records.map_values

    def spy(function, items, jobs, *, minimum):  # type: ignore[no-untyped-def]
        if function is records._page:
            pools.append((len(items), jobs))
        return real(function, items, jobs, minimum=minimum)

    monkeypatch.setattr(records, "map_values", spy)
    monkeypatch.setattr(records, "PAGES_POOL_MIN", 1)
    monkeypatch.setattr(plugin_module, "cpu_jobs", lambda: 2)
    assert built("pooled", cached=False) == here
    assert pools == [(len(LESSONS), 2)]
