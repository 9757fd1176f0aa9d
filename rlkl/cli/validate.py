"""``rlkl validate``: the thin command over :func:`rlkl.validate.validate_paths`."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from rlkl.cli.options import (
    FormatCommand,
    format_option,
    paths_argument,
    paths_or_content,
    project,
    project_options,
    require_lessons,
    statistics_option,
    use_color,
)
from rlkl.render import Format, render, render_statistics
from rlkl.validate import validate_paths


@click.command(cls=FormatCommand, context_settings={"help_option_names": ["-h", "--help"]})
@paths_argument
@format_option
@statistics_option
@project_options
def validate(paths: tuple[Path, ...], fmt: Format, statistics: bool, **selection: Any) -> None:
    """Validate lesson files and folders (default: content/).

    Every lesson.json below a folder is validated: strict JSON, the lesson schema and
    model rules, and corpus rules (ids, references, cycles, catalog).

    \b
    Exit codes: 0 no errors (warnings allowed), 1 content errors, 2 usage errors.

    \b
    Examples:
      rlkl validate
      rlkl validate content/ppo-clipped-objective/lesson.json
      rlkl validate content/ --format json
      rlkl validate --format github      # in a GitHub Actions step
    """
    config, rules = project(selection, evaluates=False)
    asked = paths_or_content(paths, config)
    result = validate_paths(asked)
    require_lessons(result.summary(), result.diagnostics, asked)
    result.diagnostics = rules.apply(result.diagnostics, [f.display for f in result.files])
    summary = result.summary()
    if statistics:
        click.echo(render_statistics(result.diagnostics, summary, fmt), nl=False)
    else:
        color = use_color(fmt)
        click.echo(render(result.diagnostics, summary, fmt, color=color), nl=False, color=color)
    sys.exit(1 if summary["errors"] else 0)
