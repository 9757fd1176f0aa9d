"""``rlkl check``, ``rlkl regen`` and ``rlkl claims``: thin commands over :mod:`rlkl.claims`."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from rlkl.claims.pipeline import CheckResult, check_paths, regen_paths
from rlkl.report import FORMATS, Format, render

_PATHS = click.argument("paths", nargs=-1, type=click.Path(exists=True, path_type=Path))
_FORMAT = click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default="text",
    show_default=True,
    help="text for people, json for tools, github for workflow annotations.",
)


def _paths(paths: tuple[Path, ...]) -> list[Path]:
    if paths:
        return list(paths)
    if not Path("content").is_dir():
        raise click.UsageError("no PATH given and ./content/ does not exist")
    return [Path("content")]


def _emit(result: CheckResult, fmt: Format) -> None:
    color = fmt == "text" and sys.stdout.isatty()
    click.echo(
        render(result.diagnostics, result.summary(), fmt, color=color), nl=False, color=color
    )


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@_PATHS
@_FORMAT
def check(paths: tuple[Path, ...], fmt: Format) -> None:
    """Validate lessons and verify every number in them (default: content/).

    One pass: everything `rlkl validate` does, then every numeric mention in the prose is
    accounted for (checked against rlkl.core at its written precision, or exempt with a
    reason), and the committed fixtures are compared (stale, orphaned, drift). Never writes.

    \b
    Exit codes: 0 everything verified, 1 content errors, 2 usage errors.

    \b
    Examples:
      rlkl check
      rlkl check content/ppo-clipped-objective
      rlkl check --format json | jq .summary
    """
    result = check_paths(_paths(paths))
    _emit(result, fmt)
    sys.exit(1 if result.summary()["errors"] else 0)


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@_PATHS
@click.option(
    "--fix",
    is_flag=True,
    help="Also rewrite dependent output numbers in the lesson prose at their written "
    "precision (only those numbers change in the file).",
)
@_FORMAT
def regen(paths: tuple[Path, ...], fix: bool, fmt: Format) -> None:
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
    report, result = regen_paths(_paths(paths), fix=fix)
    for lesson, count in sorted(report.fixed.items()):
        click.echo(
            f"fixed {count} number{'s' if count != 1 else ''} in {lesson.as_posix()}", err=True
        )
    for path in report.updated:
        click.echo(f"updated {path.as_posix()}", err=True)
    for path in report.removed:
        click.echo(f"removed {path.as_posix()}", err=True)
    click.echo(
        f"{len(report.updated)} updated, {len(report.unchanged)} unchanged, "
        f"{len(report.removed)} removed",
        err=True,
    )
    _emit(result, fmt)
    sys.exit(1 if result.summary()["errors"] else 0)


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@_PATHS
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
def claims(paths: tuple[Path, ...], fmt: str) -> None:
    """List every numeric mention with its role and status (default: content/).

    \b
    Examples:
      rlkl claims content/policy-gradient-kl-control
      rlkl claims --format json
    """
    result = check_paths(_paths(paths), freshness=False)
    rows = []
    for run in result.lessons:
        verdicts: dict[tuple[str, int], list[bool]] = {}
        for v in run.claims.verdicts:
            verdicts.setdefault(v.mention.key, []).append(v.ok)
        reasons = {e.mention.key: e.reason for e in run.claims.exempt}
        for m in run.claims.mentions:
            role = run.claims.roles.get(m.key, "unaccounted")
            if m.key in reasons:
                status = "exempt"
            elif m.key in verdicts:
                status = "verified" if all(verdicts[m.key]) else "FAILED"
            else:
                status = "input" if role.startswith(("input", "intermediate")) else "UNCHECKED"
            rows.append(
                {
                    "file": run.document.display,
                    "pointer": m.pointer,
                    "span": [m.start, m.end],
                    "text": m.text,
                    "role": role,
                    "status": status,
                    "reason": reasons.get(m.key, ""),
                }
            )
    if fmt == "json":
        click.echo(json.dumps({"mentions": rows}, ensure_ascii=False))
    else:
        width = max((len(r["pointer"]) for r in rows), default=7)
        for r in rows:
            extra = f"  ({r['reason']})" if r["reason"] else ""
            click.echo(
                f"{r['file']}  {r['pointer']:<{width}}  {r['text']:>10}  "
                f"{r['status']:<10} {r['role']}{extra}"
            )
    sys.exit(1 if any(r["status"] in ("FAILED", "UNCHECKED") for r in rows) else 0)
