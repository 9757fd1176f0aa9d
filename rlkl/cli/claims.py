"""``rlkl check``, ``rlkl regen`` and ``rlkl claims``: thin commands over :mod:`rlkl.check`,
:mod:`rlkl.regen` and :mod:`rlkl.claims`."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from rlkl.check import CheckResult, check_paths
from rlkl.claims.listing import equation_rows, equation_share, mention_rows
from rlkl.cli.options import (
    FormatCommand,
    cache_unless,
    format_option,
    jobs_option,
    jobs_or_cpus,
    no_cache_option,
    paths_argument,
    paths_or_content,
    project,
    project_options,
    require_lessons,
    statistics_option,
    use_color,
)
from rlkl.diagnostics import Severity, brief
from rlkl.gc_tuning import for_a_batch_command
from rlkl.render import Format, one_line, render, render_statistics


def _emit(result: CheckResult, fmt: Format, statistics: bool = False) -> None:
    if statistics:
        click.echo(render_statistics(result.diagnostics, result.summary(), fmt), nl=False)
        return
    color = use_color(fmt)
    click.echo(
        render(result.diagnostics, result.summary(), fmt, color=color), nl=False, color=color
    )


@click.command(cls=FormatCommand, context_settings={"help_option_names": ["-h", "--help"]})
@paths_argument
@format_option
@no_cache_option(
    "Recheck every lesson. By default a lesson whose lesson.json, claims.yaml and "
    "fixtures.json are unchanged (same bytes, same core version, same rlkl) reuses its "
    "last result from $XDG_CACHE_HOME/rlkl (safe to delete)."
)
@jobs_option
@statistics_option
@project_options
def check(paths: tuple[Path, ...], fmt: Format, no_cache: bool, jobs: int | None,
          statistics: bool, **selection: Any) -> None:
    """Validate lessons and verify every number in them (default: content/).

    One pass: everything `rlkl validate` does, then every numeric mention in the prose is
    accounted for (checked against rlkl.core at its written precision, or exempt with a
    reason), and the committed fixtures are compared (stale, orphaned, drift). Never writes.

    Which rules are reported comes from rlkl.toml or [tool.rlkl] in pyproject.toml (found
    from here up), and --select / --ignore / --preview override it.

    \b
    Exit codes: 0 everything verified, 1 content errors, 2 usage errors.

    \b
    Examples:
      rlkl check
      rlkl check content/ppo-clipped-objective
      rlkl check --format json | jq .summary
      rlkl check --statistics            # how many of each code
      rlkl check --ignore RLKL430        # every rule but that one
    """
    config, rules = project(selection)
    asked = paths_or_content(paths, config)
    for_a_batch_command()
    result = check_paths(asked, cache=cache_unless(no_cache, rows=False),
                         jobs=jobs_or_cpus(jobs, config), rules=rules)
    require_lessons(result.summary(), result.diagnostics, asked)
    _emit(result, fmt, statistics)
    sys.exit(1 if result.summary()["errors"] else 0)


@click.command(cls=FormatCommand, context_settings={"help_option_names": ["-h", "--help"]})
@paths_argument
@click.option(
    "--fix",
    is_flag=True,
    help="Also rewrite dependent output numbers in the lesson prose at their written "
    "precision (only those numbers change in the file).",
)
@format_option
@no_cache_option(
    "Work on every lesson. By default a lesson whose files are unchanged since `rlkl check` "
    "(or regen) reported nothing for it and found its fixtures up to date is left as it "
    "is, not checked again (the cache of rlkl check)."
)
@jobs_option
@project_options
def regen(
    paths: tuple[Path, ...], fix: bool, fmt: Format, no_cache: bool, jobs: int | None,
    **selection: Any,
) -> None:
    """Rewrite the fixtures of the lessons under PATHS (default: content/).

    Writes only files whose content changes, each atomically; never touches fixtures of
    lessons outside PATHS. Prints updated / unchanged / removed counts, then the remaining
    diagnostics. Exit 0 when everything verifies afterwards, else 1.

    \b
    Examples:
      rlkl regen
      rlkl regen content/policy-gradient-kl-control --fix
      git diff content/      # review what moved
    """
    from rlkl.regen import regen_paths

    config, rules = project(selection)
    asked = paths_or_content(paths, config)
    for_a_batch_command()
    report, result = regen_paths(
        asked, fix=fix, jobs=jobs_or_cpus(jobs, config),
        cache=cache_unless(no_cache, rows=False), rules=rules,
    )
    require_lessons(result.summary(), result.diagnostics, asked)
    for lesson, why in sorted(report.not_fixed.items()):
        click.echo(f"not fixed: {one_line(lesson.as_posix())}: {why}", err=True)
    for lesson, count in sorted(report.fixed.items()):
        click.echo(
            f"fixed {count} number{'s' if count != 1 else ''} in {one_line(lesson.as_posix())}",
            err=True,
        )
    for path in report.updated:
        click.echo(f"updated {one_line(path.as_posix())}", err=True)
    for path in report.removed:
        click.echo(f"removed {one_line(path.as_posix())}", err=True)
    click.echo(
        f"{len(report.updated)} updated, {len(report.unchanged)} unchanged, "
        f"{len(report.removed)} removed",
        err=True,
    )
    _emit(result, fmt)
    sys.exit(1 if result.summary()["errors"] else 0)


@click.command(cls=FormatCommand, context_settings={"help_option_names": ["-h", "--help"]})
@paths_argument
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
@no_cache_option(
    "Recheck every lesson. By default a lesson whose files are unchanged reuses the result "
    "`rlkl check` cached for it (the same rows)."
)
@jobs_option
@project_options
def claims(paths: tuple[Path, ...], fmt: str, no_cache: bool, jobs: int | None,
           **selection: Any) -> None:
    """List every numeric mention with its role and status (default: content/).

    \b
    Examples:
      rlkl claims content/policy-gradient-kl-control
      rlkl claims --format json
    """
    config, rules = project(selection)
    asked = paths_or_content(paths, config)
    result = check_paths(asked, cache=cache_unless(no_cache), jobs=jobs_or_cpus(jobs, config),
                         rules=rules)
    require_lessons(result.summary(), result.diagnostics, asked)
    rows = mention_rows(result.reports)
    equations = equation_rows(result.reports)
    errors = [d for d in result.diagnostics if d.severity is Severity.ERROR]
    if errors:  # say why a lesson has no rows (or failing ones), on stderr
        click.echo(render(errors, result.summary(), "text"), err=True, nl=False)
    if fmt == "json":
        listing = {
            "mentions": [r.to_json() for r in rows],
            "equations": [r.to_json() for r in equations],
            "equation_share": equation_share(equations).to_json(),
        }
        click.echo(json.dumps(listing, ensure_ascii=False))
    else:
        header = ("file:line:col", "pointer", "number", "status", "role")
        table = [header] + [
            (
                f"{r.file}:{r.line}:{r.column}",
                r.pointer,
                brief(r.text),  # a run of 500,000 digits would pad every row
                r.status,
                r.role + (f" ({r.reason})" if r.reason else ""),
            )
            for r in rows + equations
        ]
        widths = [max(len(row[i]) for row in table) for i in range(4)]
        for row in table:
            click.echo(
                "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=False))
                + "  "
                + row[4]
            )
        if equations:
            click.echo(equation_share(equations).line())
    sys.exit(1 if errors else 0)  # what the selection reports, as `rlkl check` decides
