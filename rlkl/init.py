"""``rlkl init``: the files of a lesson repository that wants its own settings or site.

:func:`config_text` is an ``rlkl.toml`` with every key of :data:`rlkl.config.SETTINGS`
written out and commented (uncommented, each line is a valid configuration: a test reads it);
:func:`site_files` are a minimal ``site/mkdocs.yml`` and its home page, where ``rlkl site
build`` looks first. Nothing that exists is overwritten; every file is written atomically.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from pathlib import Path

from rlkl.atomic import write_atomic
from rlkl.config import CONFIG_FILE, SETTINGS, find

SITE_CONFIG = Path("site") / "mkdocs.yml"
SITE_HOME = Path("site") / "docs" / "index.md"


class InitError(ValueError):
    """``rlkl init`` writes nothing: a file it would write exists, or a configuration
    already applies here."""


def _comment(text: str) -> list[str]:
    plain = text.replace("`", "")
    return [f"# {line}" for line in textwrap.wrap(plain, 88)]


def config_text() -> str:
    """An ``rlkl.toml`` naming every key, each commented out with an example value."""
    lines = ["# rlkl's configuration for this repository (rlkl.toml; or [tool.rlkl] in",
             "# pyproject.toml). Every key is optional; remove the # of a line to set it.",
             "# Paths are relative to this file. Command-line options override these.", ""]
    tables: dict[str, list[str]] = {}
    for setting in SETTINGS:
        table, _, key = setting.key.rpartition(".")
        block = tables.setdefault(table, [])
        block += _comment(f"{setting.meaning} Default: {setting.default}.")
        block.append(f"# {key} = {setting.example}")
        block.append("")
    for table, block in tables.items():
        if table:
            lines += [f"[{table}]", ""]
        lines += block
    return "\n".join(lines).rstrip("\n") + "\n"


SITE_TEXT = """\
# The site of this repository's lessons. `rlkl site build` finds this file (site/mkdocs.yml)
# and builds into site/build/; `rlkl site serve` rebuilds it on every change.
# The rlkl plugin adds a page per lesson, the catalog (lessons/index.md) and the
# verification report (report.md), with its own stylesheet and script: nothing is loaded
# from another host. Add your own pages to docs/ and to the nav below.
site_name: Verified lessons
docs_dir: docs
site_dir: build

theme:
  name: material
  font: false            # no web fonts: nothing is fetched from another host
  # palette:             # your colours: https://squidfunk.github.io/mkdocs-material/
  #   primary: teal
  features:
    - navigation.sections
    - navigation.prune
    - navigation.indexes
    - search.highlight

plugins:
  - search               # built at build time, runs in the browser, offline
  - rlkl:
      content: ../content  # the lesson folder, relative to this file
      experiment: false    # rlkl's own matched-budget PPO experiment page

markdown_extensions:
  - toc:
      permalink: true
  - attr_list
  - tables
  - admonition

nav:
  - Home: index.md
  - Lessons: lessons/index.md
  - Verification report: report.md
"""

HOME_TEXT = """\
# Verified lessons

Every number in these lessons is recomputed by [rlkl](https://pypi.org/project/rlkl/) when
the site is built. Start with the [lessons](lessons/index.md); the
[verification report](report.md) lists every number and how it was checked.
"""


@dataclass(frozen=True)
class Written:
    """What ``rlkl init`` wrote (paths as given, relative to the folder it ran in)."""

    files: tuple[Path, ...]


def init_project(root: Path, *, site: bool = False, config: bool = True) -> Written:
    """Write ``rlkl.toml`` (``config``) and, with ``site``, ``site/mkdocs.yml`` and
    ``site/docs/index.md`` into ``root``. Raises :class:`InitError`, writing nothing, when a
    file to write exists or (for ``config``) a configuration already applies in ``root``."""
    wanted: dict[Path, str] = {}
    if config:
        existing = find(root)
        if existing is not None and existing.parent == root.resolve():
            raise InitError(f"{existing.name} already configures rlkl here; edit it (the "
                            "documentation lists every key)")
        wanted[Path(CONFIG_FILE)] = config_text()
    if site:
        wanted[SITE_CONFIG] = SITE_TEXT
        if not (root / SITE_HOME).exists():
            wanted[SITE_HOME] = HOME_TEXT
    for path in wanted:
        if (root / path).exists() and path != SITE_HOME:
            raise InitError(f"{path.as_posix()} exists; rlkl init does not overwrite it")
    for path, text in wanted.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        write_atomic(root / path, text)
    return Written(tuple(wanted))
