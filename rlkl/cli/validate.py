"""``rlkl validate``: the thin command over :func:`rlkl.validate.validate_paths`."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from rlkl.report import FORMATS, Format, render
from rlkl.validate import validate_paths


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("paths", nargs=-1, type=click.Path(exists=True, path_type=Path))
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="text", show_default=True,
              help="text for people, json for tools, github for workflow annotations.")
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
    if not paths:
        default = Path("content")
        if not default.is_dir():
            raise click.UsageError("no PATH given and ./content/ does not exist")
        paths = (default,)
    result = validate_paths(list(paths))
    summary = result.summary()
    color = fmt == "text" and sys.stdout.isatty() and not os.environ.get("NO_COLOR")
    click.echo(render(result.diagnostics, summary, fmt, color=color), nl=False, color=color)
    sys.exit(1 if summary["errors"] else 0)
