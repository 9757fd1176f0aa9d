"""``rlkl explain``: what a diagnostic code means, from the one table in :mod:`rlkl.diagnostics`."""

from __future__ import annotations

import click

from rlkl.diagnostics import CODES
from rlkl.diagnostics import explain as explain_code


class _Unknown(click.ClickException):
    exit_code = 2


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("code", required=False)
def explain(code: str | None) -> None:
    """Explain diagnostic CODE (or its name): what it means, an example that triggers it,
    how to fix it.

    Without CODE, list every code with its name, severity and meaning.

    \b
    Examples:
      rlkl explain RLKL401
      rlkl explain 430
      rlkl explain conflicting-input
      rlkl explain
    """
    if code is None:
        width = max(len(entry.name) for entry in CODES.values())
        for key, entry in sorted(CODES.items()):
            click.echo(f"{key}  {entry.name.ljust(width)}  {entry.severity.value:<7}  "
                       f"{entry.meaning}")
        return
    text = explain_code(code)
    if text is None:
        raise _Unknown(f"{code!r} is not a diagnostic code; `rlkl explain` lists them all")
    click.echo(text, nl=False)
