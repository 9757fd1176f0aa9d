"""``rlkl validate``: the thin command over :func:`rlkl.validate.validate_paths`."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from rlkl.cli.options import (
    FormatCommand,
    format_option,
    paths_argument,
    paths_or_content,
    require_lessons,
    use_color,
)
from rlkl.render import Format, render
from rlkl.validate import validate_paths


@click.command(cls=FormatCommand, context_settings={"help_option_names": ["-h", "--help"]})
@paths_argument
@format_option
def validate(paths: tuple[Path, ...], fmt: Format) -> None:
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
    asked = paths_or_content(paths)
    result = validate_paths(asked)
    summary = result.summary()
    require_lessons(summary, result.diagnostics, asked)
    color = use_color(fmt)
    click.echo(render(result.diagnostics, summary, fmt, color=color), nl=False, color=color)
    sys.exit(1 if summary["errors"] else 0)
