"""``rlkl new``: a thin command over :func:`rlkl.scaffold.new_lesson`."""

from __future__ import annotations

from pathlib import Path

import click

from rlkl.cli.options import load_project
from rlkl.loader import display_path
from rlkl.scaffold import ScaffoldError, new_lesson


class _Refused(click.ClickException):
    exit_code = 2


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("lesson_id", metavar="ID")
@click.option("--title", help="Title of the lesson (default: the catalog's, or one from ID).")
@click.option(
    "--content",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="The content folder (the one holding catalog.json; default: the configuration's "
    "first content folder, else content/).",
)
def new(lesson_id: str, title: str | None, content: Path | None) -> None:
    """Create a lesson: CONTENT/ID/lesson.json, CONTENT/ID/claims.yaml and its catalog entry.

    The lesson is valid and every prose field is a placeholder saying what to write; `rlkl
    check` lists the placeholders left. Refuses an ID that is not a slug or already exists
    (exit 2). A planned catalog entry with this ID becomes published.

    \b
    Examples:
      rlkl new gae-advantages
      rlkl new gae-advantages --title "GAE: advantages, worked" --content content
    """
    if content is None:
        folders = load_project().content
        content = Path(display_path(folders[0])) if folders else Path("content")
    try:
        made = new_lesson(content, lesson_id, title=title)
    except ScaffoldError as error:
        raise _Refused(str(error)) from None
    click.echo(f"created {made.lesson.as_posix()}")
    click.echo(f"created {made.bindings.as_posix()}")
    click.echo(f"{made.catalog_change} {lesson_id} in {made.catalog.as_posix()}")
    click.echo(f"next: fill in the placeholders `rlkl check {made.lesson.parent.as_posix()}` lists")
