"""rlkl.toml and [tool.rlkl]: found from the working folder up, every key read and typed,
and every mistake located at its line and column with a stable code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rlkl.config import SETTINGS, Config, ConfigError, find, load, read, settings_table
from rlkl.init import config_text
from tests.validate.helpers import REPO


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _error(path: Path) -> tuple[int, int, str, str]:
    with pytest.raises(ConfigError) as caught:
        read(path)
    d = caught.value.diagnostic
    return d.line, d.column, d.code, d.message


def test_found_from_a_subfolder_like_ruff(tmp_path: Path) -> None:
    project = _write(tmp_path / "pyproject.toml", "[tool.rlkl]\njobs = 3\n")
    deep = tmp_path / "content" / "a-lesson"
    deep.mkdir(parents=True)
    assert find(deep) == project and load(deep).jobs == 3
    assert load(deep).root == tmp_path.resolve()
    # a pyproject.toml without [tool.rlkl] is passed over; rlkl.toml wins in its folder
    _write(deep / "pyproject.toml", "[project]\nname = 'x'\n")
    assert find(deep) == project
    own = _write(tmp_path / "rlkl.toml", "jobs = 4\n")
    assert find(deep) == own and load(deep).jobs == 4
    assert load(deep, isolated=True).jobs is None and load(deep, isolated=True).file is None


def test_every_key_is_read(tmp_path: Path) -> None:
    config = read(_write(tmp_path / "rlkl.toml", (
        'content = ["lessons", "more"]\ncache-dir = "off"\njobs = 2\nselect = ["RLKL4"]\n'
        'extend-select = ["RLKL3"]\nignore = ["equation-unaccounted"]\npreview = true\n'
        '[per-path-ignores]\n"lessons/old-*" = ["RLKL430", "RLKL6"]\n'
        '[site]\nconfig = "docs/mkdocs.yml"\nout = "public"\ntitle = "T"\nurl = "https://x.org/"\n'
        'description = "D"\n')))
    root = tmp_path.resolve()
    assert config.content == (root / "lessons", root / "more") and config.cache_dir == "off"
    assert config.jobs == 2 and config.preview and config.site.out == root / "public"
    assert config.site.config == root / "docs" / "mkdocs.yml"
    assert config.site.mkdocs_overrides() == {"site_name": "T", "site_url": "https://x.org/",
                                              "site_description": "D"}
    rules = config.rules()
    assert "RLKL401" in rules.select and "RLKL301" in rules.select
    assert "RLKL501" not in rules.select and rules.ignore == {"RLKL430"}
    (entry,) = rules.per_path
    assert entry.named == ("RLKL430",) and "RLKL607" in entry.codes and entry.line == 9
    # the command line replaces select, adds to ignore, and overrides preview
    again = config.rules(("ALL",), (), ("RLKL401",), False)
    assert "RLKL501" in again.select and again.ignore == {"RLKL430", "RLKL401"}
    assert not again.preview


@pytest.mark.parametrize(("text", "where", "code", "says"), [
    ('jobs = 2\nselct = ["RLKL4"]\n', (2, 1), "RLKL802", "did you mean 'select'"),
    ('[site]\ntitel = "x"\n', (2, 1), "RLKL802", "did you mean 'title'"),
    ('jobs = "two"\n', (1, 1), "RLKL803", "integer"),
    ('jobs = 0\n', (1, 1), "RLKL803", "integer of 1 or more"),
    ('preview = 1\n', (1, 1), "RLKL803", "true or false"),
    ('content = [1]\n', (1, 1), "RLKL803", "list of strings"),
    ('site = "x"\n', (1, 1), "RLKL803", "table"),
    ('ignore = [\n  "RLKL401",\n  "RLKL499",\n]\n', (3, 3), "RLKL804", "'RLKL499'"),
    ('ignore = ["RLKL105"]\n', (1, 11), "RLKL805", "cannot be ignored"),
    ('select = ["equation-unaccountd"]\n', (1, 11), "RLKL804", "names no code"),
    ('[per-path-ignores]\n"a/**" = ["RLKL430", "nope"]\n', (2, 22), "RLKL804", "'nope'"),
    ('jobs = 2\nselect = ["RLKL4"\n', (2, 18), "RLKL801", "not valid TOML"),
    ('jobs = = 2\n', (1, 8), "RLKL801", "not valid TOML"),
])
def test_mistakes_are_located(tmp_path: Path, text: str, where: tuple[int, int], code: str,
                              says: str) -> None:
    line, column, found, message = _error(_write(tmp_path / "rlkl.toml", text))
    assert (line, column, found) == (*where, code), message
    assert says in message


def test_pyproject_keys_are_located_below_tool_rlkl(tmp_path: Path) -> None:
    path = _write(tmp_path / "pyproject.toml",
                  '[project]\nname = "x"\n\n[tool.rlkl]\njobs = 2\nignor = []\n')
    line, column, code, message = _error(path)
    assert (line, column, code) == (6, 1, "RLKL802") and "[tool.rlkl]" in message
    crlf = _write(tmp_path / "crlf" / "rlkl.toml", "jobs = 2\r\nselct = []\r\n")
    assert _error(crlf)[:3] == (2, 1, "RLKL802")


def test_a_file_that_is_not_utf8_is_a_located_error(tmp_path: Path) -> None:
    path = tmp_path / "rlkl.toml"
    path.write_bytes(b'title = "caf\xe9"\n')
    assert _error(path)[2] == "RLKL801"


def test_the_configuration_reference_documents_every_key(tmp_path: Path) -> None:
    from rlkl.site.pages import configuration_markdown

    page = configuration_markdown()
    assert settings_table() in page
    documented = re.findall(r"^\| `([a-z.-]+)`", settings_table(), re.M)
    assert documented == [s.key for s in SETTINGS]
    guide = (REPO / "site" / "docs" / "guide" / "configuration.md").read_text(encoding="utf-8")
    assert "../reference/configuration.md" in guide
    # the reader takes each documented key alone, and each one changes the configuration
    defaults = Config(file=tmp_path / "rlkl.toml", root=tmp_path.resolve())
    for setting in SETTINGS:
        table, _, key = setting.key.rpartition(".")
        text = (f"[{table}]\n" if table else "") + f"{key} = {setting.example}\n"
        config = read(_write(tmp_path / "rlkl.toml", text))
        assert config != defaults or setting.key in ("select", "extend-select"), setting.key


def test_init_writes_every_key_and_each_line_is_valid(tmp_path: Path) -> None:
    text = config_text()
    for setting in SETTINGS:
        assert f"# {setting.key.rpartition('.')[2]} = {setting.example}\n" in text
    uncommented = re.sub(r"^# ([a-z-]+ = )", r"\1", text, flags=re.M)
    config = read(_write(tmp_path / "rlkl.toml", uncommented))
    assert config.jobs == 2 and config.site.title and config.per_path
    as_is = _write(tmp_path / "as-is" / "rlkl.toml", text)  # all commented: the defaults
    assert read(as_is) == Config(file=as_is, root=as_is.parent.resolve())


def test_init_writes_a_site_of_your_own_and_refuses_to_overwrite(tmp_path: Path) -> None:
    from rlkl.init import InitError, init_project

    written = init_project(tmp_path, site=True)
    assert [p.as_posix() for p in written.files] == [
        "rlkl.toml", "site/mkdocs.yml", "site/docs/index.md", "site/.gitignore"]
    assert (tmp_path / "site" / ".gitignore").read_text(encoding="utf-8") == "build/\n"
    assert "reference/rules.md" in (tmp_path / "site" / "mkdocs.yml").read_text("utf-8")
    with pytest.raises(InitError, match="already configures"):
        init_project(tmp_path)
    with pytest.raises(InitError, match=r"site/mkdocs\.yml exists"):
        init_project(tmp_path, site=True, config=False)
