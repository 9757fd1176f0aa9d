"""``rlkl site build`` and ``rlkl site serve``: thin commands over :mod:`rlkl.site.build`."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from rlkl.cli.options import load_project, require_extra
from rlkl.site.build import (
    BUILT_IN,
    DEFAULT_CONFIG,
    DEFAULT_CONTENT,
    DEFAULT_OUT,
    SiteError,
    build_site,
    config_for,
    serve_site,
)

_config_option = click.option(
    "--config",
    "config_file",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help=f"The MkDocs configuration of the site (default: {DEFAULT_CONFIG.as_posix()} when "
    "it exists, else rlkl's built-in site of ./content).",
)


def _require(config_file: Path) -> None:
    if not config_file.is_file():
        raise click.UsageError(f"{config_file} does not exist (run from the repository root)")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def site() -> None:
    """Build or serve the published site of the verified lessons.

    The site is built only when `rlkl check` finds no error: every number on every page has
    been recomputed (or is exempt with a reason).

    \b
    Examples:
      rlkl site build                  # into site/build/
      rlkl site build --out /tmp/site
      rlkl site serve                  # http://127.0.0.1:8000, rebuilt on every change
    """


@site.command(context_settings={"help_option_names": ["-h", "--help"]})
@_config_option
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Output folder (default: the config's site_dir; site/build/).",
)
@click.option(
    "--content",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    default=None,
    help="Lesson folder (default: the plugin's content option, content/).",
)
def build(config_file: Path, out: Path | None, content: Path | None) -> None:
    """Check every lesson, then build the site (strict: any warning fails the build).

    Exit codes: 0 built, 1 not built (the located diagnostics are printed), 2 usage errors.
    """
    require_extra("site", "rlkl site build")
    project = load_project()
    root = project.root  # the configuration's folder (here, without one)
    chosen = config_for(config_file or project.site.config, root)
    _require(chosen)
    content = content or (project.content[0] if project.content else None)
    if chosen == BUILT_IN and content is None:
        content = root / DEFAULT_CONTENT
        if not content.is_dir():
            raise click.UsageError(f"no {DEFAULT_CONFIG.as_posix()} and no ./{DEFAULT_CONTENT}/ "
                                   "here: run from the folder that holds content/, or give "
                                   "--content")
    if chosen == BUILT_IN and out is None and project.site.out is None:
        out = root / DEFAULT_OUT
    try:
        folder = build_site(chosen, out or project.site.out, content,
                            project.site.mkdocs_overrides())
    except SiteError as error:
        for message in error.messages:
            click.echo(message, err=True)
        click.echo(f"rlkl: site not built: {error}", err=True)
        sys.exit(1)
    click.echo(f"rlkl: site built in {folder}")


@site.command(context_settings={"help_option_names": ["-h", "--help"]})
@_config_option
@click.option(
    "--dev-addr",
    default="127.0.0.1:8000",
    show_default=True,
    help="Address to serve on (IP:PORT).",
)
def serve(config_file: Path, dev_addr: str) -> None:
    """Serve the site locally and rebuild it whenever a lesson or a site file changes."""
    require_extra("site", "rlkl site serve")
    project = load_project()
    chosen = config_for(config_file or project.site.config, project.root)
    _require(chosen)
    serve_site(chosen, dev_addr, project.site.mkdocs_overrides())
