"""``rlkl new``: a valid skeleton, a bindings stub, the catalog entry — and refusals."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from rlkl.check import check_paths
from rlkl.claims.bindings.reader import load_bindings
from rlkl.cli import main
from rlkl.scaffold import PLACEHOLDER, catalog_with, new_lesson
from rlkl.validate import validate_paths

REPO = Path(__file__).resolve().parents[2]
CATALOG = """{
  "lessons": [
    {
      "id": "ppo-basics",
      "title": "PPO basics",
      "status": "planned"
    }
  ]
}
"""


@pytest.fixture
def content(tmp_path: Path) -> Path:
    folder = tmp_path / "content"
    folder.mkdir()
    (folder / "catalog.json").write_text(CATALOG, encoding="utf-8")
    return folder


def _new(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["new", *args])
    return result.exit_code, result.output


def test_new_lesson_is_valid_and_check_lists_only_placeholders(content: Path) -> None:
    code, output = _new("gae-advantages", "--content", str(content))
    assert code == 0, output
    folder = content / "gae-advantages"
    assert "created" in output and (folder / "lesson.json").is_file()
    assert not validate_paths([content]).diagnostics  # schema, model and corpus rules
    result = check_paths([content])
    assert result.diagnostics, "a fresh scaffold has placeholders to fill in"
    assert {d.code for d in result.diagnostics} <= {"RLKL440", "RLKL441"}
    for diagnostic in result.diagnostics:
        assert diagnostic.message.startswith("placeholder"), diagnostic
        assert "write" in diagnostic.message
    pointers = {d.pointer for d in result.diagnostics}
    assert {"/description", "/engineeringExample", "/check/question", "/sources/0/url"} <= pointers


def test_every_placeholder_filled_leaves_a_clean_lesson(content: Path) -> None:
    new_lesson(content, "gae-advantages")
    path = content / "gae-advantages" / "lesson.json"
    text = path.read_text(encoding="utf-8")
    filled = text.replace("https://example.org/TODO-rlkl-new", "https://arxiv.org/abs/1506.02438")
    for index, placeholder in enumerate(text.split(PLACEHOLDER)[1:]):
        what = placeholder.split('"', 1)[0]
        written = f"Written by the author, part {chr(97 + index)}"
        filled = filled.replace(PLACEHOLDER + what, written)
    path.write_text(filled, encoding="utf-8")
    result = check_paths([content])
    assert result.diagnostics == []


def test_bindings_stub_points_at_its_schema_and_loads(content: Path) -> None:
    new_lesson(content, "gae-advantages")
    stub = content / "gae-advantages" / "claims.yaml"
    first = stub.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith("# yaml-language-server: $schema=")
    bindings = load_bindings(stub)
    assert bindings.lesson == "gae-advantages"
    assert bindings.claims == [] and bindings.equations == []


def test_schema_references_are_relative_inside_a_project(tmp_path: Path) -> None:
    project = tmp_path / "project"
    shutil.copytree(REPO / "schema", project / "schema")
    (project / "content").mkdir()
    new_lesson(project / "content", "gae-advantages")
    lesson = json.loads((project / "content/gae-advantages/lesson.json").read_text("utf-8"))
    assert lesson["$schema"] == "../../schema/lesson.schema.json"
    stub = (project / "content/gae-advantages/claims.yaml").read_text("utf-8")
    assert stub.startswith("# yaml-language-server: $schema=../../schema/bindings.schema.json\n")
    assert (project / "content/catalog.json").is_file()  # a first catalog is created


def test_catalog_keeps_its_formatting(content: Path) -> None:
    new_lesson(content, "gae-advantages", title="GAE, worked")
    after = (content / "catalog.json").read_text(encoding="utf-8")
    assert after.startswith(CATALOG[: CATALOG.rindex("    }")])
    assert after.endswith(
        '    },\n    {\n      "id": "gae-advantages",\n'
        '      "title": "GAE, worked",\n      "status": "published"\n    }\n  ]\n}\n'
    )


def test_a_planned_entry_becomes_published_with_its_title(content: Path) -> None:
    code, output = _new("ppo-basics", "--content", str(content))
    assert code == 0, output
    after = (content / "catalog.json").read_text(encoding="utf-8")
    assert after == CATALOG.replace('"planned"', '"published"')
    lesson = json.loads((content / "ppo-basics/lesson.json").read_text(encoding="utf-8"))
    assert lesson["name"] == "PPO basics"


@pytest.mark.parametrize("bad", ["GAE", "gae_advantages", "-gae", "gae--x", "../gae", "a" * 81])
def test_an_invalid_slug_is_refused_and_nothing_is_written(content: Path, bad: str) -> None:
    code, output = _new("--content", str(content), "--", bad)
    assert code == 2
    assert "is not a lesson id" in output
    assert sorted(p.name for p in content.iterdir()) == ["catalog.json"]
    assert (content / "catalog.json").read_text(encoding="utf-8") == CATALOG


def test_an_existing_lesson_is_refused(content: Path) -> None:
    assert _new("gae-advantages", "--content", str(content))[0] == 0
    before = (content / "catalog.json").read_text(encoding="utf-8")
    code, output = _new("gae-advantages", "--content", str(content))
    assert code == 2 and "already exists" in output
    assert (content / "catalog.json").read_text(encoding="utf-8") == before


def test_a_published_catalog_id_without_folder_is_refused(content: Path) -> None:
    (content / "catalog.json").write_text(CATALOG.replace("planned", "published"), "utf-8")
    code, output = _new("ppo-basics", "--content", str(content))
    assert code == 2 and "already in" in output
    assert not (content / "ppo-basics").exists()


def test_a_compact_catalog_gets_a_compact_entry() -> None:
    text = '{"lessons": [{"id": "a", "title": "A", "status": "planned"}]}\n'
    from rlkl.loader import parse_json

    document = parse_json(text.encode(), Path("catalog.json"))
    new, change = catalog_with(text, document, {"id": "b", "title": "B", "status": "published"})
    assert change == "added"
    assert new == ('{"lessons": [{"id": "a", "title": "A", "status": "planned"}, '
                   '{"id": "b", "title": "B", "status": "published"}]}\n')


def test_a_first_lesson_creates_the_content_folder_and_catalog(tmp_path: Path) -> None:
    code, output = _new("gae-advantages", "--content", str(tmp_path / "content"))
    assert code == 0, output
    catalog = json.loads((tmp_path / "content" / "catalog.json").read_text(encoding="utf-8"))
    assert catalog == {
        "lessons": [{"id": "gae-advantages", "title": "Gae advantages", "status": "published"}]
    }
    missing_parent = tmp_path / "nowhere" / "content"
    code, output = _new("gae-advantages", "--content", str(missing_parent))
    assert code == 2 and "is not a folder" in output


def test_an_empty_catalog_gets_its_first_entry_indented() -> None:
    from rlkl.loader import parse_json

    text = '{\n  "lessons": []\n}\n'
    document = parse_json(text.encode(), Path("catalog.json"))
    new, _ = catalog_with(text, document, {"id": "b", "title": "B", "status": "published"})
    assert new == (
        '{\n  "lessons": [\n    {\n      "id": "b",\n      "title": "B",\n'
        '      "status": "published"\n    }\n  ]\n}\n'
    )
