"""Project configuration: ``rlkl.toml``, or ``[tool.rlkl]`` in ``pyproject.toml``.

Found as ruff finds its own: from the working folder up, the first folder that holds an
``rlkl.toml``, or a ``pyproject.toml`` with a ``[tool.rlkl]`` table (a ``pyproject.toml``
without one is passed over). Paths in it are relative to the folder of the file. Every key
is listed once, in :data:`SETTINGS` (the documentation's table is generated from it and a
test keeps the two in step); an unknown key, a value of the wrong type and a selector that
names no code are errors located at their line and column (``RLKL80x``). Command-line
options override what the file says.
"""

from __future__ import annotations

import difflib
import os
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rlkl.diagnostics import Diagnostic
from rlkl.loader import display_path
from rlkl.rules import PathIgnore, Rules, SelectorError, path_ignore

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib  # type: ignore[import-not-found,no-redef,unused-ignore]

CONFIG_FILE = "rlkl.toml"
PYPROJECT = "pyproject.toml"


@dataclass(frozen=True)
class Setting:
    """One configuration key: its TOML type, its default (as documented), what it means and
    the command-line option or environment variable that overrides it."""

    key: str
    kind: str
    default: str
    meaning: str
    overridden_by: str = ""
    example: str = ""  # a TOML value `rlkl init` writes, commented out, in its file


SETTINGS: tuple[Setting, ...] = (
    Setting("content", "list of paths", '["content"]',
            "The lesson folders `rlkl check`, `validate`, `regen`, `claims` and `new` use when "
            "no path is given (the site publishes the first).", "PATH arguments, `--content`",
            '["content"]'),
    Setting("cache-dir", 'path or "off"', "`$XDG_CACHE_HOME/rlkl`",
            "Where check results and equation readings are cached (safe to delete); "
            '`"off"` turns caching off.', "`RLKL_CACHE_DIR`, `--no-cache`", '".cache/rlkl"'),
    Setting("cache-size", "integer ≥ 1 (MiB)", "1024",
            "The cache folder's size limit: beyond it, the entries used longest ago are "
            "removed.", "`RLKL_CACHE_SIZE`", "4096"),
    Setting("jobs", "integer ≥ 1", "one per CPU",
            "Processes for a large corpus (48 lessons or more).", "`--jobs`", "2"),
    Setting("select", "list of selectors", '["ALL"]',
            "The rules reported: codes (`RLKL430`), names (`equation-unaccounted`), prefixes "
            "(`RLKL4`) or `ALL`.", "`--select`", '["ALL"]'),
    Setting("extend-select", "list of selectors", "[]",
            "Rules reported in addition to `select`.", "`--extend-select` (adds)", "[]"),
    Setting("ignore", "list of selectors", "[]",
            "Rules reported nowhere (reading, schema, configuration and run errors cannot be "
            "ignored).", "`--ignore` (adds)", '["RLKL430"]'),
    Setting("per-path-ignores", "table: glob → list of selectors", "{}",
            "Rules not reported in the files a glob matches (relative to this file; `*` "
            "crosses folders; a folder matches what is below it): adopt a rule lesson by "
            "lesson.", "", '{ "content/legacy-*" = ["RLKL430"] }'),
    Setting("preview", "boolean", "false",
            "Report preview rules (warnings until a named release) as errors now.",
            "`--preview` / `--no-preview`", "true"),
    Setting("functions", "list of module names", "[]",
            "Modules of your own binding functions (importable from this file's folder, or "
            "installed), each listing them in `__all__`, with a version "
            "(`RLKL_FUNCTIONS_VERSION`, `__version__` or its package's). Installed packages "
            "add theirs through the `rlkl.functions` entry point.", "",
            '["lesson_functions"]'),
    Setting("site.config", "path", "`site/mkdocs.yml` if it exists, else rlkl's built-in site",
            "The MkDocs configuration `rlkl site build` and `serve` use.", "`--config`",
            '"site/mkdocs.yml"'),
    Setting("site.out", "path", "the MkDocs `site_dir` (`site/build` for the built-in site)",
            "Where `rlkl site build` writes the site.", "`--out`", '"public"'),
    Setting("site.title", "string", 'the MkDocs `site_name` ("Verified lessons")',
            "The site's title.", "", '"Our verified lessons"'),
    Setting("site.url", "string", "the MkDocs `site_url` (none)",
            "The address the site is published at (canonical links, the sitemap).", "",
            '"https://lessons.example.org/"'),
    Setting("site.description", "string", "the MkDocs `site_description`",
            "The site's description (the pages' meta description).", "",
            '"Lessons whose every number is checked."'),
)
_KEYS = {s.key: s for s in SETTINGS}


def export_cache(config: Config) -> tuple[str, ...]:
    """The configuration's ``cache-dir`` and ``cache-size`` as the run's (its processes' and
    the equation reader's too): the environment variables they stand for, unless those are
    set (the environment wins, as the command line does). The names set, for a caller that
    outlives the run (a pytest session) to unset them."""
    exported = []
    for name, value in (("RLKL_CACHE_DIR", config.cache_dir),
                        ("RLKL_CACHE_SIZE", config.cache_size)):
        if value is not None and not os.environ.get(name):
            os.environ[name] = str(value)
            exported.append(name)
    return tuple(exported)


@dataclass(frozen=True)
class SiteOptions:
    """The ``site.*`` keys (None: not set)."""

    config: Path | None = None
    out: Path | None = None
    title: str | None = None
    url: str | None = None
    description: str | None = None

    def mkdocs_overrides(self) -> dict[str, str]:
        """The MkDocs settings these options set (``site_name``, ``site_url``, …)."""
        named = {"site_name": self.title, "site_url": self.url,
                 "site_description": self.description}
        return {key: value for key, value in named.items() if value is not None}


@dataclass(frozen=True)
class Config:
    """A project's configuration, or the defaults when there is no file (``file`` None)."""

    file: Path | None = None
    root: Path = field(default_factory=Path.cwd)
    content: tuple[Path, ...] | None = None
    content_at: tuple[int, int] = (1, 1)  # where ``content`` is written (RLKL806)
    cache_dir: str | None = None
    cache_size: int | None = None  # MiB
    jobs: int | None = None
    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    per_path: tuple[PathIgnore, ...] = ()
    preview: bool = False
    functions: tuple[str, ...] = ()
    functions_at: tuple[int, int] = (1, 1)  # where ``functions`` is written (RLKL807, 808)
    site: SiteOptions = SiteOptions()

    def rules(
        self,
        select: tuple[str, ...] | None = None,
        extend_select: tuple[str, ...] = (),
        ignore: tuple[str, ...] = (),
        preview: bool | None = None,
    ) -> Rules:
        """The run's :class:`~rlkl.rules.Rules`: this file's, with the command line's
        ``--select`` in place of ``select``, its ``--extend-select`` and ``--ignore``
        added, and ``--preview``/``--no-preview`` over ``preview``. Raises
        :class:`~rlkl.rules.SelectorError` for a command-line selector that names nothing."""
        return Rules.from_selectors(
            select if select is not None else self.select,
            (*self.extend_select, *extend_select),
            (*self.ignore, *ignore),
            self.per_path,
            preview=self.preview if preview is None else preview,
            root=self.root,
        )


class ConfigError(Exception):
    """The configuration file is wrong; ``diagnostic`` says where and why (RLKL80x)."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic

    def __str__(self) -> str:
        d = self.diagnostic
        return f"{d.file}:{d.line}:{d.column}: {d.code} {d.message}"


def settings_table() -> str:
    """The Markdown table of every key, as the documentation shows it (a test keeps the
    two in step)."""
    rows = ["| key | type | default | meaning | overridden by |", "|---|---|---|---|---|"]
    rows += [f"| `{s.key}` | {s.kind} | {s.default} | {s.meaning} | {s.overridden_by or '—'} |"
             for s in SETTINGS]
    return "\n".join(rows) + "\n"


def find(start: Path | None = None) -> Path | None:
    """The configuration file that applies in ``start`` (default: the working folder): the
    nearest ``rlkl.toml``, or ``pyproject.toml`` holding ``[tool.rlkl]``, from ``start`` up."""
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        own = folder / CONFIG_FILE
        if own.is_file():
            return own
        project = folder / PYPROJECT
        if project.is_file() and _has_tool_table(project):
            return project
    return None


_TOOL_TABLE = re.compile(r"^\s*\[\s*tool\s*\.\s*rlkl\s*[\].]|^\s*tool\s*\.\s*rlkl\s*[.=]", re.M)


def _has_tool_table(path: Path) -> bool:
    try:
        return _TOOL_TABLE.search(path.read_text(encoding="utf-8", errors="replace")) is not None
    except OSError:
        return False


def load(start: Path | None = None, *, isolated: bool = False) -> Config:
    """The configuration that applies in ``start`` (:func:`find`); the defaults when there is
    none or when ``isolated``. Raises :class:`ConfigError`."""
    path = None if isolated else find(start)
    if path is None:
        return Config(root=(start or Path.cwd()).resolve())
    return read(path)


def read(path: Path) -> Config:
    """The configuration in ``path`` (an ``rlkl.toml``, or a ``pyproject.toml`` whose
    ``[tool.rlkl]`` table is read). Raises :class:`ConfigError`."""
    shown = display_path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(Diagnostic(shown, 1, 1, "", "RLKL801",
                                     f"cannot read the configuration: {error}")) from None
    text = text.replace("\r\n", "\n")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        line, column = _decode_position(str(error), text)
        raise ConfigError(Diagnostic(shown, line, column, "", "RLKL801",
                                     f"not valid TOML: {_without_position(str(error))}")) from None
    prefix: tuple[str, ...] = ()
    if path.name == PYPROJECT:
        prefix = ("tool", "rlkl")
        tool = data.get("tool", {})
        data = tool.get("rlkl", {}) if isinstance(tool, dict) else {}
        if not isinstance(data, dict):
            raise ConfigError(Diagnostic(shown, 1, 1, "", "RLKL803", "`tool.rlkl` must be a table"))
    return _Reader(path, shown, text, prefix).config(data)


_AT = re.compile(r"\(at (?:line (\d+), column (\d+)|end of document)\)")


def _decode_position(message: str, text: str) -> tuple[int, int]:
    found = _AT.search(message)
    if found and found[1]:
        return int(found[1]), int(found[2])
    if found:  # at the end of the document
        lines = text.rstrip("\n").split("\n")
        return len(lines), len(lines[-1]) + 1
    return 1, 1


def _without_position(message: str) -> str:
    return _AT.sub("", message).strip()


class _Reader:
    """Reads one file's table into a :class:`Config`, locating what is wrong."""

    def __init__(self, path: Path, shown: str, text: str, prefix: tuple[str, ...]) -> None:
        self.path, self.shown, self.text, self.prefix = path, shown, text, prefix
        self.places = _key_places(text)

    def where(self, *key: str) -> tuple[int, int]:
        """Line and column of ``key`` (below the prefix), else of the nearest table above."""
        parts = (*self.prefix, *key)
        while parts:
            if parts in self.places:
                return self.places[parts]
            parts = parts[:-1]
        return 1, 1

    def fail(self, code: str, message: str, *key: str, value: str | None = None) -> ConfigError:
        line, column = self.where(*key)
        if value is not None:
            line, column = _value_place(self.text, line, column, value)
        return ConfigError(Diagnostic(self.shown, line, column, "", code, message))

    def config(self, data: Mapping[str, Any]) -> Config:
        self._unknown(data)
        root = self.path.parent.resolve()
        site = data.get("site", {})
        if not isinstance(site, dict):
            raise self.fail("RLKL803", "`site` must be a table of site options", "site")
        content = self._strings(data, "content", single=True)
        return Config(
            file=self.path,
            root=root,
            content=tuple(root / c for c in content) if content is not None else None,
            content_at=self.where("content"),
            cache_dir=self._cache_dir(data, root),
            cache_size=self._whole(data, "cache-size"),
            jobs=self._whole(data, "jobs"),
            select=self._selectors(data, "select"),
            extend_select=self._selectors(data, "extend-select") or (),
            ignore=self._selectors(data, "ignore", ignoring=True) or (),
            per_path=self._per_path(data),
            preview=self._bool(data, "preview"),
            functions=self._strings(data, "functions") or (),
            functions_at=self.where("functions"),
            site=SiteOptions(
                config=self._path(site, root, "site", "config"),
                out=self._path(site, root, "site", "out"),
                title=self._string(site, "site", "title"),
                url=self._string(site, "site", "url"),
                description=self._string(site, "site", "description"),
            ),
        )

    def _unknown(self, data: Mapping[str, Any]) -> None:
        site = data.get("site", {})
        names = [*data, *(f"site.{k}" for k in (site if isinstance(site, dict) else ()))]
        for name in names:
            if name in _KEYS or name == "site":
                continue
            table, _, key = name.rpartition(".")
            siblings = [k.rpartition(".")[2] for k in _KEYS if k.rpartition(".")[0] == table]
            close = difflib.get_close_matches(key, siblings, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            where = ".".join((*self.prefix, *([table] if table else [])))
            raise self.fail("RLKL802", f"unknown key {key!r} in "
                            f"{f'[{where}]' if where else 'the top level'}{hint}",
                            *name.split("."))

    def _wrong(self, key: tuple[str, ...], wanted: str, value: Any) -> ConfigError:
        return self.fail("RLKL803", f"`{'.'.join(key)}` must be {wanted}, not "
                         f"{type(value).__name__} {value!r}", *key)

    def _string(self, table: Mapping[str, Any], *key: str) -> str | None:
        value = table.get(key[-1])
        if value is not None and not isinstance(value, str):
            raise self._wrong(key, "a string", value)
        return value

    def _path(self, table: Mapping[str, Any], root: Path, *key: str) -> Path | None:
        value = self._string(table, *key)
        return root / value if value is not None else None

    def _bool(self, data: Mapping[str, Any], key: str) -> bool:
        value = data.get(key, False)
        if not isinstance(value, bool):
            raise self._wrong((key,), "true or false", value)
        return value

    def _whole(self, data: Mapping[str, Any], key: str) -> int | None:
        value = data.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                  or value < 1):
            raise self._wrong((key,), "an integer of 1 or more", value)
        return value

    def _cache_dir(self, data: Mapping[str, Any], root: Path) -> str | None:
        value = self._string(data, "cache-dir")
        if value is None or value.lower() == "off":
            return value
        return str(root / value)

    def _strings(self, data: Mapping[str, Any], *key: str,
                 single: bool = False) -> tuple[str, ...] | None:
        value = data.get(key[-1])
        if value is None:
            return None
        if single and isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise self._wrong(key, "a list of strings", value)
        return tuple(value)

    def _selectors(self, data: Mapping[str, Any], key: str, *,
                   ignoring: bool = False) -> tuple[str, ...] | None:
        found = self._strings(data, key)
        if found is not None:
            try:
                Rules.from_selectors(found if not ignoring else None,
                                     ignore=found if ignoring else ())
            except SelectorError as error:
                raise self.fail(error.code, str(error), key, value=error.selector) from None
        return found

    def _per_path(self, data: Mapping[str, Any]) -> tuple[PathIgnore, ...]:
        table = data.get("per-path-ignores", {})
        if not isinstance(table, dict):
            raise self._wrong(("per-path-ignores",), "a table of glob = [selectors]", table)
        out = []
        for pattern in table:
            key = ("per-path-ignores", pattern)
            found = self._strings(table, *key)
            assert found is not None
            line, column = self.where(*key)
            try:
                out.append(path_ignore(pattern, found, file=self.shown, line=line,
                                       column=column))
            except SelectorError as error:
                raise self.fail(error.code, str(error), *key, value=error.selector) from None
        return tuple(out)


_HEADER = re.compile(r"^\s*\[\[?\s*([^\]#]+?)\s*\]\]?\s*(?:#.*)?$")
_KEY = re.compile(r"""^(\s*)((?:[A-Za-z0-9_-]+|"[^"\n]*"|'[^'\n]*')"""
                  r"""(?:\s*\.\s*(?:[A-Za-z0-9_-]+|"[^"\n]*"|'[^'\n]*'))*)\s*=""")
_PART = re.compile(r"""[A-Za-z0-9_-]+|"[^"\n]*"|'[^'\n]*'""")


def _parts(dotted: str) -> tuple[str, ...]:
    return tuple(p[1:-1] if p[0] in "\"'" else p for p in _PART.findall(dotted))


def _key_places(text: str) -> dict[tuple[str, ...], tuple[int, int]]:
    """Where each table and key of a TOML text is first written: full key path -> (line,
    column). A line scan (tomllib keeps no positions); keys inside inline tables and
    multi-line values are found at the key that holds them."""
    places: dict[tuple[str, ...], tuple[int, int]] = {}
    table: tuple[str, ...] = ()
    in_string = False
    for number, line in enumerate(text.split("\n"), start=1):
        if line.count('"""') % 2 or line.count("'''") % 2:
            in_string = not in_string
            if not in_string:
                continue
        if in_string:
            continue
        header = _HEADER.match(line)
        if header:
            table = _parts(header[1])
            places.setdefault(table, (number, len(line) - len(line.lstrip()) + 1))
            continue
        key = _KEY.match(line)
        if key:
            places.setdefault((*table, *_parts(key[2])), (number, len(key[1]) + 1))
    return places


def _value_place(text: str, line: int, column: int, value: str) -> tuple[int, int]:
    """Where the string ``value`` is first written at or after (line, column)."""
    lines = text.split("\n")
    for number in range(line, len(lines) + 1):
        start = column - 1 if number == line else 0
        for quote in ('"', "'"):
            at = lines[number - 1].find(f"{quote}{value}{quote}", start)
            if at >= 0:
                return number, at + 1
    return line, column
