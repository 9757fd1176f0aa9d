"""What the commands share: the default content folder, when to colour output, and usage
errors that keep the ``--format json`` contract (one JSON object on stdout, exit 2)."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from rlkl.diagnostics import Diagnostic
from rlkl.render import FORMATS, one_line

if TYPE_CHECKING:
    from rlkl.cache import Cache

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

jobs_option = click.option(
    "-j",
    "--jobs",
    type=click.IntRange(min=1),
    default=None,
    help="Processes for a large corpus (48 lessons or more); default: one per CPU. "
    "1 checks every lesson in this process. The output is the same either way.",
)


def no_cache_option(help: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``--no-cache``, whose help says what the command does without it."""
    return click.option("--no-cache", is_flag=True, help=help)


def cache_unless(no_cache: bool, *, rows: bool = True) -> Cache | None:
    """The check cache (:mod:`rlkl.cache`) unless ``--no-cache`` or ``RLKL_CACHE_DIR=off``;
    ``rows=False`` for a command that reads only the reports' summaries (check, regen)."""
    from rlkl.cache import Cache, default_dir

    folder = default_dir()
    return None if no_cache or folder is None else Cache(folder, rows=rows)


def jobs_or_cpus(jobs: int | None) -> int:
    """The ``--jobs`` asked for, else one per CPU (:func:`rlkl.pool.cpu_jobs`)."""
    from rlkl.pool import cpu_jobs

    return jobs if jobs is not None else cpu_jobs()


class NoLessons(click.UsageError):
    """The paths exist but hold no lesson: nothing was checked, which is not a pass."""

    code = "RLKL904"


def usage_payload(message: str, code: str) -> dict[str, Any]:
    """The ``--format json`` object for a usage error: the usual diagnostics and summary."""
    return {
        "diagnostics": [Diagnostic("", 1, 1, "", code, message).to_json()],
        "summary": {"files": 0, "lessons": 0, "errors": 1, "warnings": 0},
    }


def _wants_json(args: Sequence[str]) -> bool:
    """Whether ``args`` (as typed) ask for ``--format json``, even if they fail to parse."""
    for index, arg in enumerate(args):
        if arg == "--":
            return False
        if arg == "--format=json" or (
            arg == "--format" and index + 1 < len(args) and args[index + 1] == "json"
        ):
            return True
    return False


class FormatCommand(click.Command):
    """A command whose usage errors, under ``--format json``, also print the JSON contract
    on stdout (click's plain message still goes to stderr, and the exit status stays 2)."""

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:
        typed = list(args)
        try:
            return super().make_context(info_name, args, parent, **extra)
        except click.UsageError as error:
            if _wants_json(typed):
                _echo_usage(error)
            raise

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.UsageError as error:
            if ctx.params.get("fmt") == "json":
                _echo_usage(error)
            raise


def _echo_usage(error: click.UsageError) -> None:
    code = getattr(error, "code", "RLKL903")
    click.echo(json.dumps(usage_payload(error.format_message(), code), ensure_ascii=False))


def require_extra(extra: str, needed_for: str) -> None:
    """Stop with a usage error (exit 2) naming the install command when the optional
    ``extra`` is not installed (:func:`rlkl.resources.missing_extra`)."""
    from rlkl.resources import missing_extra

    missing = missing_extra(extra)
    if missing:
        raise click.UsageError(
            f"{needed_for} needs rlkl's {extra!r} extra ({', '.join(missing)} not installed): "
            f"pip install 'rlkl[{extra}]'"
        )


def paths_or_content(paths: tuple[Path, ...]) -> list[Path]:
    """The paths given, or ``./content/`` (a usage error when it does not exist)."""
    if paths:
        return list(paths)
    if not DEFAULT.is_dir():
        raise click.UsageError("no PATH given and ./content/ does not exist")
    return [DEFAULT]


def require_lessons(
    summary: dict[str, int], diagnostics: Sequence[Diagnostic], paths: Sequence[Path]
) -> None:
    """A usage error (exit 2) when ``paths`` held no lesson and no catalog, and nothing was
    wrong with them either: checking nothing must not look like a pass."""
    if summary.get("files", 0) == 0 and not diagnostics:
        named = one_line(", ".join(os.fspath(p) for p in paths))
        raise NoLessons(
            f"no lesson found under {named}: rlkl looks for <id>/lesson.json files "
            "(and catalog.json); nothing was checked"
        )


def use_color(fmt: str) -> bool:
    """Colour only for text on a terminal, and never when NO_COLOR is set."""
    return fmt == "text" and sys.stdout.isatty() and not os.environ.get("NO_COLOR")
