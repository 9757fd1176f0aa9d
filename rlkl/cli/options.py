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

from rlkl.config import Config, ConfigError
from rlkl.diagnostics import Diagnostic
from rlkl.loader import display_path
from rlkl.render import FORMATS, one_line

if TYPE_CHECKING:
    from rlkl.cache import Cache
    from rlkl.rules import Rules

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

statistics_option = click.option(
    "--statistics",
    is_flag=True,
    help="Print how many diagnostics of each code there are, instead of the diagnostics.",
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


def jobs_or_cpus(jobs: int | None, config: Config | None = None) -> int:
    """The ``--jobs`` asked for, else the configuration's ``jobs``, else one per CPU
    (:func:`rlkl.pool.cpu_jobs`)."""
    from rlkl.pool import cpu_jobs

    if jobs is not None:
        return jobs
    return config.jobs if config is not None and config.jobs is not None else cpu_jobs()


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
        except (click.UsageError, ConfigUsage) as error:
            if ctx.params.get("fmt") == "json":
                _echo_usage(error)
            raise


def _echo_usage(error: click.ClickException) -> None:
    located = getattr(error, "diagnostic", None)
    if isinstance(located, Diagnostic):
        payload = usage_payload(located.message, located.code)
        payload["diagnostics"] = [located.to_json()]
    else:
        payload = usage_payload(error.format_message(), getattr(error, "code", "RLKL903"))
    click.echo(json.dumps(payload, ensure_ascii=False))


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


def paths_or_content(paths: tuple[Path, ...], config: Config | None = None) -> list[Path]:
    """The paths given, else the configuration's ``content`` folders, else ``content/`` beside
    the configuration file (``./content/`` without one): a usage error when a folder does not
    exist, a located one for a configured folder."""
    if paths:
        return list(paths)
    if config is not None and config.content is not None:
        for folder in config.content:
            if not folder.is_dir():
                line, column = config.content_at
                raise ConfigUsage(ConfigError(Diagnostic(
                    display_path(config.file or Path()), line, column, "", "RLKL806",
                    f"content folder {display_path(folder)} does not exist")))
        return [Path(display_path(folder)) for folder in config.content]
    if config is not None and config.file is not None:  # a project: its root's content/
        folder = Path(display_path(config.root / DEFAULT))
        if not folder.is_dir():
            raise click.UsageError(f"no PATH given and {folder.as_posix()}/ (beside "
                                   f"{display_path(config.file)}) does not exist")
        return [folder]
    if not DEFAULT.is_dir():
        raise click.UsageError("no PATH given and ./content/ does not exist")
    return [DEFAULT]


class ConfigUsage(click.ClickException):
    """A wrong configuration file or selector: exit 2, as a usage error, with its diagnostic
    (RLKL80x, located in the file; a command-line selector has no file) and no usage text:
    the command line was right."""

    exit_code = 2

    def __init__(self, error: ConfigError) -> None:
        super().__init__(str(error) if error.diagnostic.file else
                         f"{error.diagnostic.code} {error.diagnostic.message}")
        self.code = error.diagnostic.code
        self.diagnostic = error.diagnostic


def _selectors(values: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(part.strip() for value in values for part in value.split(",") if part.strip())


def project_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """``--select``, ``--extend-select``, ``--ignore``, ``--preview/--no-preview`` and
    ``--isolated``: the rule selection of the configuration (:mod:`rlkl.config`), overridden."""
    options = [
        click.option("--select", "select", multiple=True, metavar="CODES",
                     help="Report only these rules (codes, names or prefixes, comma-separated; "
                     "replaces the configuration's select)."),
        click.option("--extend-select", "extend_select", multiple=True, metavar="CODES",
                     help="Report these rules too."),
        click.option("--ignore", "ignore", multiple=True, metavar="CODES",
                     help="Do not report these rules (added to the configuration's ignore)."),
        click.option("--preview/--no-preview", "preview", default=None,
                     help="Report preview rules as errors now (default: the configuration's "
                     "preview, else off)."),
        click.option("--isolated", is_flag=True,
                     help="Ignore every configuration file (rlkl.toml, [tool.rlkl])."),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def project(params: dict[str, Any], *, evaluates: bool = True) -> tuple[Config, Rules]:
    """The configuration that applies here and the run's rules, from the options of
    :func:`project_options` (removed from ``params``); for a command that ``evaluates``
    bindings, the authors' functions activated (:func:`rlkl.extensions.activate`). A wrong
    file, selector or function module is a usage error (exit 2, the code of the table); the
    configured ``cache-dir`` becomes the run's (``RLKL_CACHE_DIR`` still wins, as the command
    line does)."""
    from rlkl.rules import SelectorError

    select, extend, ignore = (_selectors(params.pop(k)) for k in
                              ("select", "extend_select", "ignore"))
    preview = params.pop("preview")
    config = load_project(isolated=params.pop("isolated"))
    try:
        rules = config.rules(select or None, extend, ignore, preview)
    except SelectorError as error:  # only the command line's: the file's are ConfigErrors
        raise ConfigUsage(ConfigError(Diagnostic("", 1, 1, "", error.code,
                                                 f"command line: {error}"))) from None
    if evaluates:
        activate_functions(config)
    return config, rules


def activate_functions(config: Config) -> None:
    """The configuration's and the installed packages' functions, in the binding table; a
    module that cannot be used is a usage error located at ``functions``."""
    from rlkl.extensions import ExtensionError, activate

    try:
        activate(config.functions, config.root)
    except ExtensionError as error:
        line, column = config.functions_at
        where = display_path(config.file) if config.file and config.functions else ""
        raise ConfigUsage(ConfigError(Diagnostic(where, line, column, "", error.code,
                                                 str(error)))) from None


def load_project(*, isolated: bool = False) -> Config:
    """The configuration that applies in the working folder (:func:`rlkl.config.load`); a
    wrong file is a located usage error. Its ``cache-dir`` and ``cache-size`` become the
    run's (:func:`rlkl.config.export_cache`)."""
    from rlkl.config import export_cache, load

    try:
        config = load(isolated=isolated)
    except ConfigError as error:
        raise ConfigUsage(error) from None
    export_cache(config)
    return config


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
