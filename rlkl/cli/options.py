"""What the commands share: the default content folder and when to colour output."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from rlkl.render import FORMATS

DEFAULT = Path("content")

paths_argument = click.argument("paths", nargs=-1, type=click.Path(exists=True, path_type=Path))
format_option = click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default="text",
    show_default=True,
    help="text for people, json for tools, github for workflow annotations.",
)


def paths_or_content(paths: tuple[Path, ...]) -> list[Path]:
    """The paths given, or ``./content/`` (a usage error when it does not exist)."""
    if paths:
        return list(paths)
    if not DEFAULT.is_dir():
        raise click.UsageError("no PATH given and ./content/ does not exist")
    return [DEFAULT]


def use_color(fmt: str) -> bool:
    """Colour only for text on a terminal, and never when NO_COLOR is set."""
    return fmt == "text" and sys.stdout.isatty() and not os.environ.get("NO_COLOR")
