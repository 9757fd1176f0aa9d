"""``rlkl init``: a thin command over :func:`rlkl.init.init_project`."""

from __future__ import annotations

from pathlib import Path

import click

from rlkl.init import InitError, init_project


class _Refused(click.ClickException):
    exit_code = 2


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--config/--no-config", "config", default=True, show_default=True,
              help="Write rlkl.toml: every configuration key, commented out.")
@click.option("--site/--no-site", "site", default=True, show_default=True,
              help="Write site/mkdocs.yml, site/docs/index.md and site/.gitignore: a site of "
              "your own.")
def init(config: bool, site: bool) -> None:
    """Start a lesson repository's own configuration and site, in this folder.

    rlkl needs neither: without rlkl.toml every rule applies, and without site/mkdocs.yml
    `rlkl site build` publishes ./content with rlkl's built-in site. Write them to choose
    rules, folders and the site's title, pages, navigation and palette. Nothing that exists
    is overwritten (exit 2).

    \b
    Examples:
      rlkl init                    # rlkl.toml and site/
      rlkl init --no-site          # only rlkl.toml
      rlkl new my-first-lesson && rlkl site build
    """
    try:
        written = init_project(Path.cwd(), site=site, config=config)
    except InitError as error:
        raise _Refused(str(error)) from None
    for path in written.files:
        click.echo(f"created {path.as_posix()}")
