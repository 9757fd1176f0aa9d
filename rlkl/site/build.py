"""Build or serve the site from Python: what ``rlkl site build|serve`` call.

Both load ``site/mkdocs.yml`` (or another config) with the ``rlkl`` plugin in it; a build is
always strict, so a warning (a broken link or anchor) fails it like a wrong number does.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

DEFAULT_CONFIG = Path("site") / "mkdocs.yml"
BUILT_IN = Path(__file__).resolve().parent / "default" / "mkdocs.yml"
"""The site of a repository that has lessons and no ``site/mkdocs.yml`` (shipped in rlkl)."""
DEFAULT_CONTENT = Path("content")
DEFAULT_OUT = Path("site") / "build"


def config_for(config_file: Path | None, root: Path | None = None) -> Path:
    """The configuration ``rlkl site`` uses: the one named, else ``site/mkdocs.yml`` when
    the repository (``root``, default: here) has one, else the built-in :data:`BUILT_IN`."""
    if config_file is not None:
        return config_file
    own = (root or Path()) / DEFAULT_CONFIG
    return own if own.is_file() else BUILT_IN


class SiteError(Exception):
    """The site was not built; ``messages`` are the errors and warnings MkDocs logged."""

    def __init__(self, summary: str, messages: list[str]) -> None:
        super().__init__(summary)
        self.messages = messages


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(f"{record.levelname}: {record.getMessage()}")


@contextmanager
def _collected() -> Iterator[_Collect]:
    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")  # the theme's banner is not a problem
    handler = _Collect()
    logger = logging.getLogger("mkdocs")
    logger.addHandler(handler)
    try:
        yield handler
    finally:
        logger.removeHandler(handler)


def build_site(
    config_file: Path | None = None, out: Path | None = None, content: Path | None = None,
    settings: Mapping[str, str] | None = None,
) -> Path:
    """Build the site strictly into ``out`` (default: the config's ``site_dir``), from the
    lessons in ``content`` (default: the plugin's ``content`` option). Without a
    ``config_file``, :func:`config_for` chooses; the built-in one builds ``./content``
    (:data:`DEFAULT_CONTENT`) into ``site/build`` (:data:`DEFAULT_OUT`) unless told otherwise.
    ``settings`` override the configuration's (``site_name``, ``site_url``: the project
    configuration's ``site.*`` keys, :meth:`rlkl.config.SiteOptions.mkdocs_overrides`).

    Returns the output folder; raises :class:`SiteError` with MkDocs' messages (the rlkl
    check's located diagnostics among them) when the build fails.
    """
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.exceptions import MkDocsException

    config_file = config_for(config_file)
    if config_file == BUILT_IN:
        out, content = out or DEFAULT_OUT, content or DEFAULT_CONTENT
    with _collected() as log:
        try:
            config = load_config(
                config_file=str(config_file),
                strict=True,
                site_dir=str(out.resolve()) if out is not None else None,
                **(settings or {}),
            )
            if "rlkl" not in config.plugins:
                raise SiteError(f"{config_file} does not use the rlkl plugin", log.messages)
            if content is not None:
                config.plugins["rlkl"].config.content = str(content.resolve())
            config.plugins.on_startup(command="build", dirty=False)  # as `mkdocs build` does
            build(config)
        except (MkDocsException, OSError) as error:
            raise SiteError(str(error) or type(error).__name__, log.messages) from None
    return Path(config.site_dir)


def serve_site(config_file: Path = DEFAULT_CONFIG, dev_addr: str = "127.0.0.1:8000",
               settings: Mapping[str, str] | None = None) -> None:
    """Serve the site with live reload (lessons, bindings and site sources are watched);
    ``settings`` as for :func:`build_site`."""
    from mkdocs.commands.serve import serve

    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    overrides: dict[str, Any] = dict(settings or {})  # passed on to MkDocs' load_config
    serve(config_file=str(config_file), dev_addr=dev_addr, livereload=True, **overrides)
